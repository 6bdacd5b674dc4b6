/*
 * test_model.c — the learned move model: the features of a move
 * (src/engine/features.c), the symmetry of its shapes, and the learned
 * table (src/engine/model_data.c, written by tools/train_model) read back
 * as a Go player would expect it to rank moves; the tree's priors built on
 * it (src/engine/tree.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/model.h"
#include "engine/model_data.h"
#include "engine/tree.h"
#include "test_support.h"

#define at ts_at

/* A 9x9 board from nine rows, top (row 9) first (ts_board_play_rows). */
static void setup(tg_board *b, const char *rows[9])
{
    ts_board_play_rows(b, 9, rows, NULL);
}

static void features_at(const tg_board *b, const char *vertex, tg_color c, move_features *f)
{
    features_compute(b, NULL, at(b, vertex), c, TG_NO_POINT, NULL, 0, f);
}

/* The features of c playing the empty point p. */
static move_features features_of(const tg_board *b, tg_point p, tg_color c)
{
    move_features f;
    features_compute(b, NULL, p, c, TG_NO_POINT, NULL, 0, &f);
    return f;
}

/* The eight symmetries of a key are a group: each has an inverse among
 * them, and a key with no symmetry of its own has eight distinct images. */
static void test_shape_transforms_form_a_group(void **state)
{
    (void)state;
    /* own stone up-left, opponent's up (in atari), empty elsewhere but one
     * off-board point right: no symmetry maps it to itself */
    uint32_t key = 1u | 2u << 2 | 3u << 8 | 1u << 16;
    uint32_t images[8];
    for (int t = 0; t < 8; t++) {
        images[t] = features_shape_transform(key, t);
        bool inverse = false;
        for (int u = 0; u < 8; u++)
            inverse |= features_shape_transform(images[t], u) == key;
        assert_true(inverse);
        for (int u = 0; u < t; u++)
            assert_int_not_equal(images[t], images[u]);
        assert_int_equal(features_shape_canonical(images[t]), features_shape_canonical(key));
    }
    /* the atari bit moves with its stone: never left on an empty point */
    for (int t = 0; t < 8; t++) {
        uint32_t k = images[t];
        const int adjacent_slot[4] = {1, 3, 4, 6};
        for (int i = 0; i < 4; i++)
            if (k >> (16 + i) & 1)
                assert_int_equal(k >> (2 * adjacent_slot[i]) & 3, TG_WHITE);
    }
}

/* The shape of a point seen by White on a board equals the shape of the
 * mirrored point seen by Black on the mirrored board with colours swapped. */
static void test_shape_key_ignores_symmetry_and_colour(void **state)
{
    (void)state;
    const char *rows[9] = {
        ".........", "..XO.....", "..O......", ".X.X.O...", ".........",
        "....O....", ".XO......", "X........", ".........",
    };
    tg_board a, m;
    setup(&a, rows);
    tg_board_init(&m, 9);
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            tg_color c = (tg_color)a.color[tg_point_at(&a, x, y)];
            if (c == TG_BLACK || c == TG_WHITE)
                tg_board_play(&m, tg_point_at(&m, 8 - y, x), tg_opponent(c)); /* transpose + mirror */
        }
    int compared = 0;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            tg_point p = tg_point_at(&a, x, y), q = tg_point_at(&m, 8 - y, x);
            if (a.color[p] != TG_EMPTY)
                continue;
            uint32_t ka = features_shape_canonical(features_of(&a, p, TG_WHITE).shape_key);
            uint32_t km = features_shape_canonical(features_of(&m, q, TG_BLACK).shape_key);
            assert_int_equal(ka, km);
            compared++;
        }
    assert_true(compared > 60);
}

/* The wide shapes: the eight symmetries are a group on the 24 points, and a
 * point's wide key seen by White equals the mirrored point's seen by Black
 * with the colours swapped, on 9x9 (where most points see the edge) and on
 * 19x19. */
static void test_wide_transforms_form_a_group(void **state)
{
    (void)state;
    /* own stone three up, opponent's one up-left, off-board points right:
     * no symmetry maps it to itself */
    uint64_t key = (uint64_t)1 << 0 | (uint64_t)2 << (2 * 5) | (uint64_t)3 << (2 * 13) | (uint64_t)3 << (2 * 14);
    uint64_t images[8];
    for (int t = 0; t < 8; t++) {
        images[t] = features_wide_transform(key, t);
        bool inverse = false;
        for (int u = 0; u < 8; u++)
            inverse |= features_wide_transform(images[t], u) == key;
        assert_true(inverse);
        for (int u = 0; u < t; u++)
            assert_true(images[t] != images[u]);
        assert_true(features_wide_canonical(images[t]) == features_wide_canonical(key));
        /* the same stones, moved: as many of each colour */
        for (unsigned col = 1; col <= 3; col++) {
            int before = 0, after = 0;
            for (int i = 0; i < FEATURE_WIDE_POINTS; i++) {
                before += (key >> (2 * i) & 3) == col;
                after += (images[t] >> (2 * i) & 3) == col;
            }
            assert_int_equal(before, after);
        }
    }
}

static void check_wide_mirror(int size, tg_rng *rng)
{
    tg_board a, m;
    tg_board_init(&a, size);
    tg_board_playout(&a, TG_BLACK, TG_SUICIDE_FORBIDDEN, rng, size * size / 3); /* a scattered position */
    tg_board_init(&m, size);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            tg_color c = (tg_color)a.color[tg_point_at(&a, x, y)];
            if (c == TG_BLACK || c == TG_WHITE)
                tg_board_play(&m, tg_point_at(&m, size - 1 - y, x), tg_opponent(c)); /* transpose + mirror */
        }
    int compared = 0, distinct_raw = 0;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            tg_point p = tg_point_at(&a, x, y), q = tg_point_at(&m, size - 1 - y, x);
            if (a.color[p] != TG_EMPTY || m.color[q] != TG_EMPTY)
                continue;
            uint64_t wa = features_of(&a, p, TG_WHITE).wide_key, wm = features_of(&m, q, TG_BLACK).wide_key;
            assert_true(features_wide_canonical(wa) == features_wide_canonical(wm));
            /* and the table gives both images the same weight */
            assert_true(model_wide_gamma(wa) == model_wide_gamma(wm));
            distinct_raw += wa != wm;
            compared++;
        }
    assert_true(compared > size * size / 2);
    assert_true(distinct_raw > 0); /* the mirror changed the keys as seen */
}

/* The wide key, point by point from the coordinates: the reference for the
 * run-at-a-time reading of the wide key (features.c). */
static uint64_t wide_key_reference(const tg_board *b, tg_point p, tg_color c)
{
    int x = p % b->stride, y = p / b->stride;
    uint64_t key = 0;
    for (int i = 0; i < FEATURE_WIDE_POINTS; i++) {
        int qx = x + features_wide_offsets[i][0], qy = y + features_wide_offsets[i][1];
        unsigned col = TG_OFFBOARD;
        if (qx >= 1 && qx <= b->size && qy >= 1 && qy <= b->size) {
            col = b->color[qy * b->stride + qx];
            if (c == TG_WHITE && col != TG_EMPTY)
                col = col == TG_BLACK ? TG_WHITE : TG_BLACK;
        }
        key |= (uint64_t)col << (2 * i);
    }
    return key;
}

static void test_wide_key_matches_reference(void **state)
{
    (void)state;
    tg_rng rng;
    tg_rng_seed(&rng, 5);
    const int sizes[7] = {2, 3, 5, 7, 9, 13, 19};
    long compared = 0;
    for (int k = 0; k < 7; k++)
        for (int round = 0; round < 6; round++) {
            tg_board b;
            tg_board_init(&b, sizes[k]);
            tg_board_playout(&b, TG_BLACK, TG_SUICIDE_FORBIDDEN, &rng, round * sizes[k] * sizes[k] / 5);
            for (int p = 0; p < b.npoints; p++) {
                if (b.color[p] != TG_EMPTY)
                    continue;
                for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
                    assert_true(features_of(&b, p, c).wide_key == wide_key_reference(&b, p, c));
                    compared++;
                }
            }
        }
    assert_true(compared > 1000);
}

static void test_wide_key_ignores_symmetry_and_colour(void **state)
{
    (void)state;
    tg_rng rng;
    tg_rng_seed(&rng, 11);
    for (int i = 0; i < 4; i++) {
        check_wide_mirror(9, &rng);
        check_wide_mirror(19, &rng);
    }
    /* the corner point of an empty 9x9 board sees the edge beyond it */
    tg_board b;
    tg_board_init(&b, 9);
    uint64_t corner = features_of(&b, at(&b, "A1"), TG_BLACK).wide_key;
    int off = 0;
    for (int i = 0; i < FEATURE_WIDE_POINTS; i++)
        off += (corner >> (2 * i) & 3) == TG_OFFBOARD;
    assert_int_equal(off, 24 - 9); /* 9 of the 24 points are on the board */
}

/* Every image of every wide shape of the table is found with its weight;
 * a shape not in the table gets the rare weight. */
static void test_wide_table_lookup(void **state)
{
    (void)state;
    model_init();
    assert_true(model_table_main()->wide_count > 1000);
    for (int i = 0; i < model_table_main()->wide_count; i++) {
        assert_true(model_table_main()->wides[i].key == features_wide_canonical(model_table_main()->wides[i].key));
        if (i > 0)
            assert_true(model_table_main()->wides[i].key > model_table_main()->wides[i - 1].key);
        assert_true(model_table_main()->wides[i].gamma > 0 && isfinite(model_table_main()->wides[i].gamma));
        for (int t = 0; t < 8; t++)
            assert_true(model_wide_gamma(features_wide_transform(model_table_main()->wides[i].key, t)) == model_table_main()->wides[i].gamma);
    }
    /* 24 opponent stones round an empty point: never chosen by a player */
    uint64_t crowded = 0;
    for (int i = 0; i < FEATURE_WIDE_POINTS; i++)
        crowded |= (uint64_t)2 << (2 * i);
    assert_true(model_wide_gamma(crowded) == model_table_main()->rare_wide_gamma);
}

/* The distance bucket from p to q, read as the mover's previous move's
 * (FEATURE_LAST2, features_compute's last2). */
static int distance_bucket(const tg_board *b, tg_point p, tg_point q)
{
    move_features f;
    features_compute(b, NULL, p, TG_BLACK, q, NULL, 0, &f);
    return f.value[FEATURE_LAST2];
}

static void test_distance_buckets(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 19);
    tg_point p = at(&b, "K10");
    assert_int_equal(distance_bucket(&b, p, at(&b, "K11")), 0);  /* d = 2 */
    assert_int_equal(distance_bucket(&b, p, at(&b, "L11")), 1);  /* d = 3 */
    assert_int_equal(distance_bucket(&b, p, at(&b, "L12")), 3);  /* knight's move: 1 + 2 + 2 = 5 */
    assert_int_equal(distance_bucket(&b, p, at(&b, "A1")), 15);  /* far */
    assert_int_equal(distance_bucket(&b, p, p), 0); /* a stone captured and the point played again */
    assert_int_equal(distance_bucket(&b, p, TG_PASS), FEATURE_DIST_NONE);
    assert_int_equal(distance_bucket(&b, p, TG_NO_POINT), FEATURE_DIST_NONE);
}

/* Captures, escapes into a ladder, ataris that start one, and a quiet
 * first-line move with none of it. */
static void test_tactical_features(void **state)
{
    (void)state;
    const char *capture_rows[9] = {
        ".........", ".........", "...XO....", "..XOX....", ".........",
        ".........", ".........", ".........", ".........",
    };
    tg_board b;
    setup(&b, capture_rows);
    move_features f;
    /* Black D5 takes the white stone at D6 (in atari: C6, E6, D7) */
    features_at(&b, "D5", TG_BLACK, &f);
    assert_int_equal(f.value[FEATURE_CAPTURE], 1);
    assert_int_equal(f.value[FEATURE_SELF_ATARI], 0);
    /* White D5 runs it out to three liberties (C5, E5, D4) */
    features_at(&b, "D5", TG_WHITE, &f);
    assert_int_equal(f.value[FEATURE_CAPTURE], 0);
    assert_int_equal(f.value[FEATURE_ESCAPE], 4);
    /* far from everything: no tactical feature, first line, quiet */
    features_at(&b, "B9", TG_WHITE, &f);
    for (int g = FEATURE_CAPTURE; g < FEATURE_GROUPS; g++)
        assert_int_equal(f.value[g], 0);
    assert_int_equal(f.value[FEATURE_LINE], 0 * 2 + 1);
    assert_int_equal(features_shape_canonical(f.shape_key), features_shape_canonical(0x3f)); /* an empty edge */

    /* White D4 with two liberties (E4, D3) against C4, D5 and E3: Black
     * E4 ataris it, and the ladder toward the empty lower left works;
     * toward the upper right White's G7 breaks it */
    const char *ladder_rows[9] = {
        ".........", ".........", "......O..", ".........", "...X.....",
        "..XO.....", "....X....", ".........", ".........",
    };
    setup(&b, ladder_rows);
    features_at(&b, "E4", TG_BLACK, &f);
    assert_int_equal(f.value[FEATURE_ATARI], 1);
    features_at(&b, "D3", TG_BLACK, &f); /* the other atari drives it to the open right */
    assert_int_equal(f.value[FEATURE_ATARI], 2);
    /* once in atari, running out at D3 gives two liberties in a working ladder */
    tg_board_play(&b, at(&b, "E4"), TG_BLACK);
    features_at(&b, "D3", TG_WHITE, &f);
    assert_int_equal(f.value[FEATURE_ESCAPE], 2);
}

/* Self-ataris: a lone stone, and a chain whose capture leaves a dead
 * three-point eye space (nakade_sacrifice). */
static void test_self_atari_feature(void **state)
{
    (void)state;
    const char *rows[9] = {
        ".........", ".........", ".........", ".........", ".........",
        ".........", ".OO......", "OX.O....X", ".XOO.....",
    };
    tg_board b;
    setup(&b, rows);
    move_features f;
    features_at(&b, "C2", TG_BLACK, &f); /* B1 B2 C2 left with A1 alone */
    assert_int_equal(f.value[FEATURE_SELF_ATARI], 3);
    features_at(&b, "J1", TG_WHITE, &f); /* a lone stone with H1 alone */
    assert_int_equal(f.value[FEATURE_SELF_ATARI], 1);
    features_at(&b, "H1", TG_WHITE, &f); /* two liberties: none */
    assert_int_equal(f.value[FEATURE_SELF_ATARI], 0);
}

/* A generated table: canonical keys, in order, each once, weights
 * positive and finite. */
static void check_table(const model_table *m, int min_shapes)
{
    assert_true(m->shape_count >= min_shapes);
    assert_true(m->rare_shape_gamma > 0 && isfinite(m->rare_shape_gamma));
    assert_true(m->rare_wide_gamma > 0 && isfinite(m->rare_wide_gamma));
    for (int i = 0; i < m->shape_count; i++) {
        assert_int_equal(m->shapes[i].key, features_shape_canonical(m->shapes[i].key));
        if (i > 0)
            assert_true(m->shapes[i].key > m->shapes[i - 1].key);
        assert_true(m->shapes[i].gamma > 0 && isfinite(m->shapes[i].gamma));
    }
    for (int i = 0; i < m->wide_count; i++) {
        assert_true(m->wides[i].key == features_wide_canonical(m->wides[i].key));
        if (i > 0)
            assert_true(m->wides[i].key > m->wides[i - 1].key);
        assert_true(m->wides[i].gamma > 0 && isfinite(m->wides[i].gamma));
    }
    const int values[FEATURE_GROUPS] = FEATURE_VALUES_INIT;
    for (int g = 0; g < FEATURE_GROUPS; g++)
        for (int v = 0; v < values[g]; v++)
            assert_true(m->group_gammas[g][v] > 0 && isfinite(m->group_gammas[g][v]));
}

static void test_model_table_is_well_formed(void **state)
{
    (void)state;
    check_table(model_table_main(), 100);
    check_table(model_table_small(), 100);
}

/* The small boards' table corrects the main one there and only there: on
 * 19x19 a move's strength is the main table's, on 9x9 it differs for some
 * moves, and the order of two moves can change. */
static void test_small_board_corrections(void **state)
{
    (void)state;
    model_init();
    tg_board b9, b19;
    tg_board_init(&b9, 9);
    tg_board_init(&b19, 19);
    tg_board_play(&b9, tg_point_at(&b9, 4, 4), TG_BLACK);
    tg_board_play(&b19, tg_point_at(&b19, 3, 3), TG_BLACK);
    features_board fb9, fb19;
    features_board_init(&fb9, &b9);
    features_board_init(&fb19, &b19);
    int changed = 0;
    for (int i = 0; i < b19.empty_count; i++) {
        move_features f;
        features_compute(&b19, &fb19, b19.empty[i], TG_WHITE, TG_NO_POINT, NULL, 0, &f);
        assert_true(model_gamma_for(&f, 19) == model_gamma(&f));
    }
    for (int i = 0; i < b9.empty_count; i++) {
        move_features f;
        features_compute(&b9, &fb9, b9.empty[i], TG_WHITE, TG_NO_POINT, NULL, 0, &f);
        float main = model_gamma(&f), small = model_gamma_for(&f, 9);
        assert_true(small > 0 && isfinite(small));
        changed += fabsf(small - main) > 1e-3f * main;
    }
    assert_true(changed > b9.empty_count / 2);
}

/* What the records taught, read as a player would: near the last move
 * beats far from it, capturing beats a lone self-atari, the third line of
 * an empty side beats its first, and running a chain out of atari beats
 * leaving it in a ladder. */
static void test_model_ranks_moves_like_a_player(void **state)
{
    (void)state;
    model_init();
    const float(*g)[MODEL_MAX_VALUES] = model_table_main()->group_gammas;
    assert_true(g[FEATURE_LAST][0] > 2 * g[FEATURE_LAST][15]);
    assert_true(g[FEATURE_CAPTURE][2] > g[FEATURE_CAPTURE][0]);
    assert_true(g[FEATURE_SELF_ATARI][1] < g[FEATURE_SELF_ATARI][0]);
    assert_true(g[FEATURE_SELF_ATARI][2] < g[FEATURE_SELF_ATARI][0]);
    assert_true(g[FEATURE_LINE][2 * 2 + 1] > 5 * g[FEATURE_LINE][0 * 2 + 1]);
    assert_true(g[FEATURE_ESCAPE][4] > g[FEATURE_ESCAPE][2]);

    /* the same through model_gamma on a board: Black's capture at D5
     * outweighs White's first-line move in the empty corner */
    const char *rows[9] = {
        ".........", ".........", "...X.....", "..XOX....", ".........",
        ".........", ".........", ".........", ".........",
    };
    tg_board b;
    setup(&b, rows);
    move_features capture, edge;
    features_at(&b, "D5", TG_BLACK, &capture);
    features_at(&b, "J1", TG_BLACK, &edge);
    assert_true(model_gamma(&capture) > 10 * model_gamma(&edge));
}

/* The child of `vertex` of the expanded root. */
static const tree_node *child_at(const tree_pool *pool, uint32_t root, const tg_board *b, const char *vertex)
{
    const tree_node *r = tree_at(pool, root);
    uint32_t first = atomic_load(&((tree_node *)r)->first_child);
    assert_true(first != 0);
    tg_point p = at(b, vertex);
    for (uint32_t i = 0; i < r->child_count; i++)
        if (tree_at(pool, first + i)->move == p)
            return tree_at(pool, first + i);
    fail_msg("no child at %s", vertex);
    return NULL;
}

/* The prior the tree gives the child of `vertex` when the root (Black to
 * move on b) is expanded: its won prior visits less its lost ones. */
static double child_prior(const tree_pool *pool, uint32_t root, const tg_board *b, const char *vertex)
{
    const tree_node *c = child_at(pool, root, b, vertex);
    assert_true(c->prior_visits > 0);
    return c->prior_wins2 - (double)c->prior_visits;
}

/* The tree's priors (tree.c), model and hand-set together, read from the
 * features: a capture is favoured, of two stones more than of one; a
 * self-atari that leaves the opponent two eyes is discouraged. */
static void test_tree_priors(void **state)
{
    (void)state;
    model_init();
    /* White B8 (one stone, liberty B7) and G8 H8 (two stones, liberty H7)
     * in atari; Black E5 makes B5 C5 D5 E5 a straight four with the one
     * liberty E4, whose capture gives White two eyes */
    const char *rows[9] = {".X....XX.", "XOX..XOOX", "......X..", ".OOOO....", "OXXX.O...",
                           ".OOO.....", ".........", ".........", "........."};
    tg_board b;
    setup(&b, rows);
    tree_pool pool;
    assert_true(tree_pool_init(&pool, 1 << 20));
    uint32_t root = tree_new_root(&pool);
    tree_expand_context ctx = {&b, TG_BLACK, NULL, NULL, TG_NO_POINT, 0, false, NULL, 0};
    assert_true(tree_expand(&pool, root, &ctx));
    double one = child_prior(&pool, root, &b, "B7");
    double two = child_prior(&pool, root, &b, "H7");
    double self = child_prior(&pool, root, &b, "E5");
    print_message("priors (won less lost): capture one %.0f, capture two %.0f, self-atari %.0f\n", one, two, self);
    assert_true(one >= 20);
    assert_true(two > one); /* the hand-set +30 against +20 */
    assert_true(self <= -20);

    /* the PUCT term's probabilities: the model's strengths over their sum,
     * none for the pass; the capture of two far above the self-atari */
    const tree_node *r = tree_at(&pool, root);
    uint32_t first = atomic_load(&((tree_node *)r)->first_child);
    long total = 0;
    for (uint32_t i = 0; i < r->child_count; i++) {
        const tree_node *c = tree_at(&pool, first + i);
        total += c->policy;
        if (c->move == TG_PASS)
            assert_int_equal(c->policy, 0);
    }
    assert_true(labs(total - 65535) <= r->child_count); /* rounding, half a unit a child */
    assert_true(child_at(&pool, root, &b, "H7")->policy > 10 * child_at(&pool, root, &b, "E5")->policy);
    tree_pool_free(&pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_transforms_form_a_group),
        cmocka_unit_test(test_shape_key_ignores_symmetry_and_colour),
        cmocka_unit_test(test_wide_transforms_form_a_group),
        cmocka_unit_test(test_wide_key_matches_reference),
        cmocka_unit_test(test_wide_key_ignores_symmetry_and_colour),
        cmocka_unit_test(test_wide_table_lookup),
        cmocka_unit_test(test_distance_buckets),
        cmocka_unit_test(test_tactical_features),
        cmocka_unit_test(test_self_atari_feature),
        cmocka_unit_test(test_model_table_is_well_formed),
        cmocka_unit_test(test_small_board_corrections),
        cmocka_unit_test(test_model_ranks_moves_like_a_player),
        cmocka_unit_test(test_tree_priors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
