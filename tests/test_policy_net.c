/*
 * test_policy_net.c — the 19x19 policy network (engine/policy_net.c):
 *
 *  - its outputs on fixed positions equal those torch computes from the
 *    same weights file (tests/data/policy/golden.txt, written by
 *    `tools/train_policy.py --golden`), within 2e-3 a logit and 1e-4 the
 *    winrate, by the vector path and the plain C loop alike;
 *  - each of the eight symmetries is the same network seen from another
 *    side (exactly, up to the order of the float sums), and the trained
 *    network gives a position and its mirror images nearly the same moves;
 *  - a truncated file, another kind of weights, another width are refused
 *    with a reason; the input planes say what they are meant to;
 *  - a node of the tree, expanded with the move model's priors, gets the
 *    network's once (tree_apply_network): its children's probabilities are
 *    then the network's softmax over the candidates, the rest of the
 *    priors stay, and the copy kept between moves remembers it;
 *  - the search takes its priors from it and still plays a legal move;
 *  - a batch (policy_net_eval_batch) gives the very floats one evaluation
 *    at a time gives;
 *  - the cache by position gives a second tree on the same position the
 *    same priors without an evaluation, and tells apart positions that
 *    differ only in the mover or the last moves; a request given back
 *    (tree_net_abandon) may be asked again;
 *  - a search that gathers its evaluations in batches, on one thread and
 *    on two, leaves every node it claimed for the network with the
 *    network's priors: as many nodes have them as it gave them, none is
 *    lost in a batch that the search's end left waiting;
 *  - the value head, where asked, adds its prior visits to the node for
 *    its mover, and a parent's priors that arrive later keep them.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/model.h"
#include "engine/nn.h"
#include "engine/pattern.h"
#include "engine/policy_net.h"
#include "engine/search_internal.h"
#include "engine/tree.h"
#include "engine/weights.h"
#include "tengen/search.h"
#include "test_support.h"

#define N 19
#define PLANE_BYTES 46
#define RECORD (14 * PLANE_BYTES + N * N + 3)
#define MAX_POSITIONS 16

static uint8_t *read_source_file(const char *rel, size_t *len)
{
    char path[1024];
    const char *source = getenv("TENGEN_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/%s", source ? source : "..", rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    data[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return data;
}

static policy_net_file *load_trained(void)
{
    size_t len;
    uint8_t *data = read_source_file("data/policy/policy19-run1.tgw", &len);
    char err[200] = "";
    policy_net_file *f = policy_net_load(data, len, err, sizeof err);
    if (!f)
        fail_msg("%s", err);
    free(data);
    return f;
}

/* The planes of a record of tools/gen_policy. */
static void decode(const uint8_t *rec, float *planes)
{
    memset(planes, 0, sizeof(float) * N * N * POLICY_PLANES);
    int k = 0;
    for (int plane = 0; plane < POLICY_PLANES; plane++) {
        if (plane == 13)
            continue;
        const uint8_t *bits = rec + k++ * PLANE_BYTES;
        for (int i = 0; i < N * N; i++)
            planes[i * POLICY_PLANES + plane] = (bits[i / 8] >> (7 - i % 8)) & 1;
    }
    const int8_t *model = (const int8_t *)(rec + 14 * PLANE_BYTES);
    for (int i = 0; i < N * N; i++)
        planes[i * POLICY_PLANES + 13] = (float)model[i] / 30;
}

static int positions(float planes[][N * N * POLICY_PLANES])
{
    size_t len;
    uint8_t *data = read_source_file("tests/data/policy/positions.bin", &len);
    assert_int_equal(len % RECORD, 0);
    int n = (int)(len / RECORD);
    assert_true(n > 0 && n <= MAX_POSITIONS);
    for (int i = 0; i < n; i++)
        decode(data + (size_t)i * RECORD, planes[i]);
    free(data);
    return n;
}

static float planes_of[MAX_POSITIONS][N * N * POLICY_PLANES];

static void test_golden(void **state)
{
    (void)state;
    policy_net_file *f = load_trained();
    const policy_net *net = policy_net_of(f);
    int n = positions(planes_of);
    size_t len;
    char *text = (char *)read_source_file("tests/data/policy/golden.txt", &len);
    char *s = text;
    for (int i = 0; i < n; i++) {
        float pass, win, logits[N * N];
        for (int portable = 0; portable <= 1; portable++) {
            char *at = s;
            policy_net_eval(net, planes_of[i], N, 0, logits, &pass, &win, portable);
            double want_pass = strtod(at, &at), want_win = strtod(at, &at);
            assert_true(fabs(pass - want_pass) < 2e-3);
            assert_true(fabs(win - want_win) < 1e-4);
            for (int p = 0; p < N * N; p++) {
                double want = strtod(at, &at);
                if (fabs(logits[p] - want) >= 2e-3)
                    fail_msg("position %d point %d: %f, torch %f", i, p, logits[p], want);
            }
            if (portable)
                s = at;
        }
    }
    free(text);
    policy_net_free(f);
}

/* planes seen under symmetry t */
static void transform_planes(const float *in, int t, float *out)
{
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            int tx, ty;
            policy_net_transform(t, N, x, y, &tx, &ty);
            memcpy(out + (ty * N + tx) * POLICY_PLANES, in + (y * N + x) * POLICY_PLANES,
                   sizeof(float) * POLICY_PLANES);
        }
}

/* softmax over the candidates (plane 12) */
static void probabilities(const float *planes, const float *logits, double *p)
{
    double top = -1e30, sum = 0;
    for (int i = 0; i < N * N; i++)
        if (planes[i * POLICY_PLANES + 12] > 0 && logits[i] > top)
            top = logits[i];
    for (int i = 0; i < N * N; i++)
        sum += p[i] = planes[i * POLICY_PLANES + 12] > 0 ? exp(logits[i] - top) : 0;
    for (int i = 0; i < N * N; i++)
        p[i] /= sum;
}

static void test_symmetries(void **state)
{
    (void)state;
    policy_net_file *f = load_trained();
    const policy_net *net = policy_net_of(f);
    int n = positions(planes_of);
    static float turned[N * N * POLICY_PLANES];
    double worst = 0, total = 0;
    for (int i = 0; i < n; i++) {
        float base[N * N], seen[N * N], other[N * N], pass_t, pass_o, win_t, win_o;
        double p0[N * N], p1[N * N];
        policy_net_eval(net, planes_of[i], N, 0, base, NULL, NULL, false);
        probabilities(planes_of[i], base, p0);
        for (int t = 1; t < 8; t++) {
            /* the position under t seen plainly is the position seen under t */
            transform_planes(planes_of[i], t, turned);
            policy_net_eval(net, planes_of[i], N, t, seen, &pass_t, &win_t, false);
            policy_net_eval(net, turned, N, 0, other, &pass_o, &win_o, false);
            assert_true(fabs(pass_t - pass_o) < 1e-4 && fabs(win_t - win_o) < 1e-5);
            for (int y = 0; y < N; y++)
                for (int x = 0; x < N; x++) {
                    int tx, ty;
                    policy_net_transform(t, N, x, y, &tx, &ty);
                    assert_true(fabs(seen[y * N + x] - other[ty * N + tx]) < 1e-4);
                }
            /* and the trained network barely leans: the moves it gives a
             * position and its mirror image differ little */
            probabilities(planes_of[i], seen, p1);
            double tv = 0;
            for (int p = 0; p < N * N; p++)
                tv += fabs(p0[p] - p1[p]) / 2;
            total += tv;
            if (tv > worst)
                worst = tv;
        }
    }
    /* run 1: 0.149 on average over the 84 pairs, 0.331 at worst; a network
     * after 30 steps of training: 0.486 at worst */
    double mean = total / (7 * n);
    if (getenv("TENGEN_POLICY_PRINT"))
        printf("mirror images: %.3f of the moves' weight on average, %.3f at worst\n", mean, worst);
    if (mean > 0.2 || worst > 0.45)
        fail_msg("a position and its mirror images: the network's moves differ by %.3f of their weight on average, "
                 "%.3f at worst", mean, worst);
    policy_net_free(f);
}

static void expect_refused(const uint8_t *data, size_t len, const char *why)
{
    char err[200] = "";
    policy_net_file *f = policy_net_load(data, len, err, sizeof err);
    if (f)
        fail_msg("accepted: %s", why);
    assert_true(err[0] != 0);
}

static void test_refused(void **state)
{
    (void)state;
    size_t len;
    uint8_t *data = read_source_file("data/policy/policy19-run1.tgw", &len);
    for (size_t cut = 0; cut < len; cut += cut < 256 ? 1 : 997)
        expect_refused(data, cut, "a truncated file");
    expect_refused(data, len - 1, "a file one byte short");
    uint8_t *longer = malloc(len + 1);
    assert_non_null(longer);
    memcpy(longer, data, len);
    longer[len] = 0;
    expect_refused(longer, len + 1, "a byte after the last tensor");
    free(longer);
    /* another kind of weights */
    const char *const others[] = {"value9.tgw", "model_main.tgw"};
    for (size_t i = 0; i < 2; i++) {
        const weights_blob *blob = weights_embedded(others[i]);
        assert_non_null(blob);
        expect_refused(blob->data, blob->length, others[i]);
    }
    /* another width */
    weights_writer wr;
    weights_writer_begin(&wr, WEIGHTS_POLICY_NET, 19, WEIGHTS_ANY_KOMI);
    static float zeros[9 * 64 * 64 * 2];
    weights_writer_add(&wr, "in_w", WEIGHTS_F32, 4, (const uint32_t[]){3, 3, POLICY_PLANES, 16}, zeros);
    weights_writer_add(&wr, "block_w", WEIGHTS_F32, 4, (const uint32_t[]){2, 9, 16, 16}, zeros);
    size_t wlen;
    uint8_t *narrow = weights_writer_end(&wr, &wlen);
    assert_non_null(narrow);
    expect_refused(narrow, wlen, "16 channels");
    free(narrow);
    /* garbage where the header should be */
    uint8_t junk[64];
    memset(junk, 0x5a, sizeof junk);
    expect_refused(junk, sizeof junk, "no header");
    free(data);
}

static void test_planes(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, N);
    tg_point d4 = tg_point_at(&b, 3, 3), q16 = tg_point_at(&b, 15, 15), a1 = tg_point_at(&b, 0, 0);
    tg_board_play(&b, d4, TG_BLACK);
    tg_board_play(&b, q16, TG_WHITE);
    tg_board_play(&b, a1, TG_BLACK);
    static float planes[N * N * POLICY_PLANES];
    policy_net_planes(&b, TG_WHITE, q16, planes); /* White to move, its previous move Q16 */
#define AT(x, y, k) planes[((y) * N + (x)) * POLICY_PLANES + (k)]
    assert_true(AT(15, 15, 0) == 1 && AT(15, 15, 1) == 0); /* White's own stone */
    assert_true(AT(3, 3, 1) == 1 && AT(3, 3, 0) == 0);     /* Black's */
    assert_true(AT(15, 15, 5) == 1);                       /* 4 liberties: 3+ */
    assert_true(AT(0, 0, 7) == 1);                         /* the opponent's, 2 liberties */
    assert_true(AT(0, 0, 10) == 1 && AT(3, 3, 10) == 0);   /* the last move */
    assert_true(AT(15, 15, 11) == 1);                      /* the mover's previous */
    assert_true(AT(9, 9, 2) == 1 && AT(9, 9, 14) == 1);    /* the board; White to move */
    assert_true(AT(9, 9, 12) == 1 && AT(3, 3, 12) == 0);   /* a candidate; a stone is none */
    double sum = 0;
    int candidates = 0;
    for (int i = 0; i < N * N; i++) {
        float m = planes[i * POLICY_PLANES + 13];
        assert_true(m >= -2.0001f && m <= 2.0001f);
        assert_true(fabsf(m * 30 - roundf(m * 30)) < 1e-4f); /* steps of 1/30 */
        if (planes[i * POLICY_PLANES + 12] > 0) {
            sum += m;
            candidates++;
        }
    }
    assert_int_equal(candidates, N * N - 3);
    assert_true(sum < 0); /* log of strength over the mean: below zero on average */
#undef AT
}

/* b: an empty 19x19 board with the first `count` of an opening's stones,
 * Black first (Q16 D4 Q3 D16 R5 C14 O17). */
static void opening_board(tg_board *b, int count)
{
    static const char *const stones[] = {"Q16", "D4", "Q3", "D16", "R5", "C14", "O17"};
    tg_board_init(b, N);
    for (int i = 0; i < count; i++)
        assert_int_equal(tg_board_play(b, ts_vertex(N, stones[i]), i % 2 ? TG_WHITE : TG_BLACK), TG_OK);
}

static void test_tree_gets_network(void **state)
{
    (void)state;
    pattern_init();
    model_init();
    policy_net_file *f = load_trained();
    const policy_net *net = policy_net_of(f);
    tg_board b;
    opening_board(&b, 6);
    tree_pool pool;
    assert_true(tree_pool_init(&pool, (size_t)8 << 20));
    uint32_t root = tree_new_root(&pool);
    tree_expand_context ctx = {&b, TG_BLACK, NULL, NULL, ts_vertex(N, "R5"), 0, false, net, 0};
    assert_true(tree_expand(&pool, root, &ctx));
    tree_node *node = tree_at(&pool, root);
    assert_int_equal(atomic_load(&node->expanding), TREE_EXPANDED);
    uint32_t first = atomic_load(&node->first_child);
    int count = node->child_count - 1;
    assert_int_equal(tree_at(&pool, first + (uint32_t)count)->move, TG_PASS);
    static uint16_t model_policy[TG_MAX_POINTS], visits[TG_MAX_POINTS];
    for (int i = 0; i < count; i++) {
        model_policy[i] = atomic_load(&tree_at(&pool, first + (uint32_t)i)->policy);
        visits[i] = tree_at(&pool, first + (uint32_t)i)->prior_visits;
    }
    assert_true(tree_apply_network(&pool, root, &ctx));
    assert_int_equal(atomic_load(&node->expanding), TREE_NETTED);
    assert_false(tree_apply_network(&pool, root, &ctx)); /* once */

    /* the network's own softmax over the candidates, under the symmetry the
     * position's hash picks */
    static float planes[N * N * POLICY_PLANES], logits[N * N];
    policy_net_planes(&b, TG_BLACK, ts_vertex(N, "R5"), planes);
    policy_net_eval(net, planes, N, (int)(b.hash >> 61), logits, NULL, NULL, false);
    double top = -1e30, sum = 0;
    for (int i = 0; i < count; i++) {
        tg_point p = tree_at(&pool, first + (uint32_t)i)->move;
        double l = logits[tg_point_y(&b, p) * N + tg_point_x(&b, p)];
        top = l > top ? l : top;
    }
    for (int i = 0; i < count; i++) {
        tg_point p = tree_at(&pool, first + (uint32_t)i)->move;
        sum += exp(logits[tg_point_y(&b, p) * N + tg_point_x(&b, p)] - top);
    }
    int changed = 0;
    for (int i = 0; i < count; i++) {
        tree_node *c = tree_at(&pool, first + (uint32_t)i);
        double p = exp(logits[tg_point_y(&b, c->move) * N + tg_point_x(&b, c->move)] - top) / sum;
        assert_true(fabs(atomic_load(&c->policy) - 65535 * p) <= 2);
        assert_int_equal(c->prior_visits, visits[i]); /* the visits stay, the wins follow the strength */
        changed += abs((int)atomic_load(&c->policy) - (int)model_policy[i]) > 100;
    }
    print_message("the network changed %d of %d children's probabilities by more than 0.15%%\n", changed, count);
    assert_true(changed > count / 10);

    /* the tree kept between moves remembers which nodes have had it */
    tree_pool copy;
    assert_true(tree_pool_init(&copy, (size_t)8 << 20));
    uint32_t kept = tree_copy(&pool, root, &copy);
    assert_int_equal(atomic_load(&tree_at(&copy, kept)->expanding), TREE_NETTED);
    assert_false(tree_apply_network(&copy, kept, &ctx));
    uint32_t kept_first = atomic_load(&tree_at(&copy, kept)->first_child);
    for (int i = 0; i < count; i++)
        assert_int_equal(atomic_load(&tree_at(&copy, kept_first + (uint32_t)i)->policy),
                         atomic_load(&tree_at(&pool, first + (uint32_t)i)->policy));
    /* a child not yet expanded is no node to give it to */
    assert_false(tree_apply_network(&pool, first, &ctx));
    tree_pool_free(&copy);
    tree_pool_free(&pool);
    policy_net_free(f);
}

static void test_search_uses_it(void **state)
{
    (void)state;
    size_t len;
    uint8_t *data = read_source_file("data/policy/policy19-run1.tgw", &len);
    char err[200] = "";
    assert_int_equal(tg_search_use_policy_net(data, len, err, sizeof err), TG_OK);
    free(data);
    assert_non_null(policy_net_for(19));
    assert_null(policy_net_for(9));
    tg_rules rules;
    tg_rules_default(&rules);
    tg_game *g = tg_game_new(19, &rules);
    assert_non_null(g);
    assert_int_equal(tg_game_play(g, TG_BLACK, ts_vertex(19, "Q16"), 0), TG_OK);
    assert_int_equal(tg_game_play(g, TG_WHITE, ts_vertex(19, "D4"), 0), TG_OK);
    tg_search_options opt;
    tg_search_options_default(&opt);
    tg_search *s = tg_search_new(&opt);
    assert_non_null(s);
    tg_search_limits limits = {.playouts = 300};
    tg_point p = ts_search_run(s, g, TG_BLACK, &limits, 0, NULL, NULL);
    assert_true(p != TG_PASS && tg_game_board(g)->color[p] == TG_EMPTY);
    tg_search_free(s);
    /* a network given after the first search is refused, as the others */
    data = read_source_file("data/policy/policy19-run1.tgw", &len);
    assert_int_equal(tg_search_use_policy_net(data, len, err, sizeof err), TG_ERR_NOT_ALLOWED);
    free(data);
    tg_game_free(g);
}

static void test_batch(void **state)
{
    (void)state;
    policy_net_file *f = load_trained();
    const policy_net *net = policy_net_of(f);
    tg_rules rules;
    tg_rules_default(&rules);
    tg_rng rng;
    tg_rng_seed(&rng, 11);
    enum { B = 5 };
    static float planes[B][N * N * POLICY_PLANES], one[N * N], many[B][N * N];
    const float *in[B];
    float *out[B], win[B], win_one;
    int sym[B];
    for (int i = 0; i < B; i++) {
        tg_game *g = tg_game_new(N, &rules);
        for (int k = 0; k < 20 + 30 * i; k++) {
            tg_color c = tg_game_to_move(g);
            tg_point p = tg_board_random_move(tg_game_board(g), c, TG_SUICIDE_FORBIDDEN, &rng);
            if (tg_game_play(g, c, p, 0) != TG_OK)
                tg_game_play(g, c, TG_PASS, 0);
        }
        policy_net_planes(tg_game_board(g), tg_game_to_move(g), TG_NO_POINT, planes[i]);
        tg_game_free(g);
        in[i] = planes[i];
        out[i] = many[i];
        sym[i] = (3 * i + 1) % 8;
    }
    float *scratch = malloc(policy_net_batch_floats(B) * sizeof *scratch);
    assert_non_null(scratch);
    /* the scratch dirty, as a batch before this one leaves it */
    memset(scratch, 0x7f, policy_net_batch_floats(B) * sizeof *scratch);
    assert_true(policy_net_eval_batch(net, B, in, N, sym, out, win, scratch));
    for (int i = 0; i < B; i++) {
        policy_net_eval(net, planes[i], N, sym[i], one, NULL, &win_one, false);
        assert_memory_equal(one, many[i], sizeof one);
        assert_memory_equal(&win_one, &win[i], sizeof win_one);
    }
    assert_false(policy_net_eval_batch(net, POLICY_MAX_BATCH + 1, in, N, sym, out, win, scratch));
    free(scratch);
    policy_net_free(f);
}

/* A root expanded on b for c with last2, its children's priors after the
 * network (policy and prior wins, side by side in out[]). */
static int netted_priors(const policy_net *net, const tg_board *b, tg_color c, tg_point last2, uint32_t *out)
{
    tree_pool pool;
    assert_true(tree_pool_init(&pool, (size_t)8 << 20));
    uint32_t root = tree_new_root(&pool);
    tree_expand_context ctx = {b, c, NULL, NULL, last2, 0, false, net, 0};
    assert_true(tree_expand(&pool, root, &ctx));
    assert_true(tree_apply_network(&pool, root, &ctx));
    tree_node *node = tree_at(&pool, root);
    uint32_t first = atomic_load(&node->first_child);
    int count = node->child_count;
    for (int i = 0; i < count; i++) {
        tree_node *ch = tree_at(&pool, first + (uint32_t)i);
        out[i] = (uint32_t)atomic_load(&ch->policy) << 16 | atomic_load(&ch->prior_wins2);
    }
    tree_pool_free(&pool);
    return count;
}

static void test_cache(void **state)
{
    (void)state;
    pattern_init();
    model_init();
    policy_net_file *f = load_trained();
    const policy_net *net = policy_net_of(f);
    tg_board b;
    opening_board(&b, 7);
    policy_net_cache_clear();
    uint64_t h0, m0, h1, m1;
    static uint32_t first[TG_MAX_POINTS + 1], again[TG_MAX_POINTS + 1], other[TG_MAX_POINTS + 1];
    policy_net_cache_stats(&h0, &m0);
    int count = netted_priors(net, &b, TG_WHITE, ts_vertex(N, "C14"), first);
    policy_net_cache_stats(&h1, &m1);
    assert_int_equal(h1 - h0, 0);
    assert_int_equal(m1 - m0, 1);
    /* the same position in another tree: from the cache, the same priors */
    assert_int_equal(netted_priors(net, &b, TG_WHITE, ts_vertex(N, "C14"), again), count);
    policy_net_cache_stats(&h0, &m0);
    assert_int_equal(h0 - h1, 1);
    assert_int_equal(m0 - m1, 0);
    assert_memory_equal(first, again, sizeof(uint32_t) * (size_t)count);
    /* another mover's previous move, another mover: other entries */
    netted_priors(net, &b, TG_WHITE, ts_vertex(N, "D4"), other);
    netted_priors(net, &b, TG_BLACK, ts_vertex(N, "R5"), other);
    policy_net_cache_stats(&h1, &m1);
    assert_int_equal(h1 - h0, 0);
    assert_int_equal(m1 - m0, 2);

    /* a request given back is asked again, and then evaluated */
    policy_net_cache_clear();
    tree_pool pool;
    assert_true(tree_pool_init(&pool, (size_t)8 << 20));
    uint32_t root = tree_new_root(&pool);
    tree_expand_context ctx = {&b, TG_WHITE, NULL, NULL, ts_vertex(N, "C14"), 0, false, net, 0};
    assert_true(tree_expand(&pool, root, &ctx));
    static tree_net_request req;
    assert_int_equal(tree_net_prepare(&pool, root, &ctx, &req), TREE_NET_PENDING);
    assert_int_equal(tree_net_prepare(&pool, root, &ctx, &req), TREE_NET_NONE); /* claimed */
    tree_net_abandon(&pool, &req);
    assert_int_equal(atomic_load(&tree_at(&pool, root)->expanding), TREE_EXPANDED);
    assert_true(tree_apply_network(&pool, root, &ctx));
    uint32_t at = atomic_load(&tree_at(&pool, root)->first_child);
    for (int i = 0; i < count; i++) {
        tree_node *ch = tree_at(&pool, at + (uint32_t)i);
        assert_int_equal((uint32_t)atomic_load(&ch->policy) << 16 | atomic_load(&ch->prior_wins2), first[i]);
    }
    tree_pool_free(&pool);
    policy_net_free(f);
}

/* The value head as prior visits of a node, kept when its parent's
 * priors arrive later (a request that waited in a batch). */
static void test_value_visits(void **state)
{
    (void)state;
    policy_net_file *f = load_trained();
    const policy_net *net = policy_net_of(f);
    tg_board b;
    opening_board(&b, 4);
    static uint32_t plain[TG_MAX_POINTS + 1];
    netted_priors(net, &b, TG_BLACK, ts_vertex(N, "Q3"), plain); /* without the value head */
    tree_pool pool;
    assert_true(tree_pool_init(&pool, (size_t)8 << 20));
    uint32_t root = tree_new_root(&pool);
    tree_expand_context ctx = {&b, TG_BLACK, NULL, NULL, ts_vertex(N, "Q3"), 0, false, net, 8};
    assert_true(tree_expand(&pool, root, &ctx));
    static tree_net_request req;
    policy_net_cache_clear();
    assert_int_equal(tree_net_prepare(&pool, root, &ctx, &req), TREE_NET_PENDING);
    /* the first child, its position and its own priors, before the root's */
    uint32_t c = atomic_load(&tree_at(&pool, root)->first_child);
    tree_node *child = tree_at(&pool, c);
    unsigned visits = node_prior_visits(child), wins2 = atomic_load(&child->prior_wins2);
    tg_board after;
    tg_board_copy(&after, &b);
    assert_int_equal(tg_board_play(&after, child->move, TG_BLACK), TG_OK);
    tree_expand_context cctx = {&after, TG_WHITE, NULL, NULL, ts_vertex(N, "D16"), 0, false, net, 8};
    assert_true(tree_expand(&pool, c, &cctx));
    assert_true(tree_apply_network(&pool, c, &cctx));
    static float planes[N * N * POLICY_PLANES];
    float winrate;
    policy_net_planes(&after, TG_WHITE, ts_vertex(N, "D16"), planes);
    policy_net_eval(net, planes, N, (int)(after.hash >> 61), NULL, NULL, &winrate, false);
    unsigned add2 = (unsigned)(16 * (1 - winrate) + 0.5); /* Black's view: White's winrate turned */
    assert_int_equal(node_prior_visits(child), visits + 8);
    assert_int_equal(atomic_load(&child->prior_wins2), wins2 + add2);
    /* the root's verdict arrives: the child keeps its value head's part */
    float logits[N * N], rw;
    policy_net_eval(net, req.planes, N, req.symmetry, logits, NULL, &rw, false);
    tree_net_finish(&pool, &req, logits, rw);
    assert_int_equal(atomic_load(&child->prior_wins2), (plain[0] & 0xffff) + add2);
    assert_int_equal(atomic_load(&child->policy), plain[0] >> 16);
    assert_int_equal(node_prior_visits(tree_at(&pool, root)), 0); /* the root has no mover */
    tree_pool_free(&pool);
    policy_net_free(f);
}

/* The nodes of s's tree that have had the network's priors. */
static int netted_nodes(tg_search *s)
{
    tree_pool *pool = search_active_pool(s);
    int count = 0;
    for (uint32_t i = 1; i < atomic_load(&pool->used); i++)
        count += atomic_load(&tree_at(pool, i)->expanding) == TREE_NETTED;
    return count;
}

static void test_batched_search(void **state)
{
    (void)state;
    if (!policy_net_for(19))
        skip(); /* test_search_uses_it gives it */
    tg_rules rules;
    tg_rules_default(&rules);
    tg_game *g = tg_game_new(19, &rules);
    static const char *const opening[] = {"Q16", "D4", "Q3", "D16", "R5"};
    for (int i = 0; i < 5; i++)
        assert_int_equal(tg_game_play(g, tg_game_to_move(g), ts_vertex(19, opening[i]), 0), TG_OK);
    for (int threads = 1; threads <= 2; threads++) {
        policy_net_cache_clear();
        tg_search_options opt;
        tg_search_options_default(&opt);
        opt.threads = threads;
        opt.policy_net_batch = 3;
        opt.reuse_tree = false;
        tg_search *s = tg_search_new(&opt);
        assert_non_null(s);
        tg_search_limits limits = {.playouts = 1500};
        tg_point p = ts_search_run(s, g, TG_WHITE, &limits, 0, NULL, NULL);
        assert_true(p != TG_PASS && tg_game_board(g)->color[p] == TG_EMPTY);
        int given = atomic_load(&s->net_given), batches = atomic_load(&s->net_batches);
        print_message("%d thread(s): %d nodes given the network's priors, %d batches of 3\n", threads, given,
                      batches);
        assert_true(batches >= 3);
        assert_true(given >= 3 * batches);
        assert_int_equal(netted_nodes(s), given);
        assert_int_equal(s->batch_count, 0);
        tg_search_free(s);
    }
    tg_search_options opt;
    tg_search_options_default(&opt);
    opt.policy_net_batch = POLICY_MAX_BATCH + 1;
    assert_null(tg_search_new(&opt));
    tg_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),  cmocka_unit_test(test_symmetries),     cmocka_unit_test(test_refused),
        cmocka_unit_test(test_planes),  cmocka_unit_test(test_tree_gets_network),
        cmocka_unit_test(test_search_uses_it), cmocka_unit_test(test_batch),
        cmocka_unit_test(test_cache),          cmocka_unit_test(test_batched_search),
        cmocka_unit_test(test_value_visits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
