/*
 * test_value.c — the learned value function (src/engine/value.c): its
 * input planes read the board as stated (stones by the mover, exact
 * liberties, the ko point), it is offered only for the board and komi it
 * was trained for, and its verdicts point the right way in positions any
 * player can judge: a side that owns the board wins, whichever colour it is;
 * the search with it (`--value on`) still takes what a capturing race
 * offers, and uses it on that board alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/model.h"
#include "engine/pattern.h"
#include "engine/tree.h"
#include "engine/value.h"
#include "tengen/search.h"
#include "test_support.h"

#define at ts_at

static const uint8_t *plane_at(const uint8_t *planes, const tg_board *b, const char *vertex)
{
    tg_point p = at(b, vertex);
    return planes + (tg_point_y(b, p) * b->size + tg_point_x(b, p)) * VALUE_PLANES;
}

static void test_planes(void **state)
{
    (void)state;
    const char *rows[9] = {
        "X........", /* A9 X: one liberty (B9), A8 being O */
        "O........", /* A8 O: the chain A8 alone, liberties A7 and B8 */
        ".........", ".........",
        "....XX...", /* E5 F5 X: 6 liberties, capped at 3 */
        ".........", ".........", ".........", ".........",
    };
    tg_board b;
    ts_board_play_rows(&b, 9, rows, NULL);
    uint8_t planes[81 * VALUE_PLANES];
    value_planes(&b, TG_BLACK, planes);
    const uint8_t *a9 = plane_at(planes, &b, "A9"), *a8 = plane_at(planes, &b, "A8");
    const uint8_t *e5 = plane_at(planes, &b, "E5"), *d4 = plane_at(planes, &b, "D4");
    /* own stone, one liberty */
    assert_int_equal(a9[0], 1);
    assert_int_equal(a9[1], 0);
    assert_int_equal(a9[3], 1);
    assert_int_equal(a9[4] + a9[5], 0);
    /* the opponent's, two liberties */
    assert_int_equal(a8[1], 1);
    assert_int_equal(a8[7], 1);
    assert_int_equal(a8[6] + a8[8], 0);
    /* a chain of many liberties: the third plane */
    assert_int_equal(e5[5], 1);
    /* an empty point: the board plane alone */
    for (int k = 0; k < VALUE_PLANES; k++)
        assert_int_equal(d4[k], k == 2 ? 1 : 0);
    /* seen by White the colours swap */
    value_planes(&b, TG_WHITE, planes);
    assert_int_equal(plane_at(planes, &b, "A9")[1], 1);
    assert_int_equal(plane_at(planes, &b, "A9")[6], 1);
    assert_int_equal(plane_at(planes, &b, "A8")[0], 1);
    assert_int_equal(plane_at(planes, &b, "A8")[4], 1);
}

static void test_ko_plane(void **state)
{
    (void)state;
    /* White takes at D5 (capturing E5); Black may not retake at E5 at once */
    const char *rows[9] = {
        ".........", ".........", ".........",
        "...XO....",
        "..X.XO...",
        "...XO....",
        ".........", ".........", ".........",
    };
    tg_board b;
    ts_board_play_rows(&b, 9, rows, NULL);
    tg_board_play(&b, at(&b, "D5"), TG_WHITE);
    assert_int_equal(b.color[at(&b, "E5")], TG_EMPTY);
    uint8_t planes[81 * VALUE_PLANES];
    value_planes(&b, TG_BLACK, planes);
    assert_int_equal(plane_at(planes, &b, "E5")[9], 1);
    int marked = 0;
    for (int i = 0; i < 81; i++)
        marked += planes[i * VALUE_PLANES + 9];
    assert_int_equal(marked, 1);
    /* White is not barred from anything */
    value_planes(&b, TG_WHITE, planes);
    for (int i = 0; i < 81; i++)
        assert_int_equal(planes[i * VALUE_PLANES + 9], 0);
}

static void test_offered_for_its_board_only(void **state)
{
    (void)state;
    const value_net *net = value_net_for(9, 15);
    assert_non_null(net);
    assert_int_equal(net->size, 9);
    assert_int_equal(net->komi2, 15);
    assert_null(value_net_for(19, 15));
    assert_null(value_net_for(13, 15));
    assert_null(value_net_for(9, 13)); /* komi 6.5: not what it learnt */
}

static void test_verdicts(void **state)
{
    (void)state;
    const value_net *net = value_net_for(9, 15);
    /* Black has walled off almost all the board with living shape */
    const char *black_wins[9] = {
        ".X.X.X.X.", "XXXXXXXXX", ".........", ".........", ".........",
        ".........", "XXXXXXXXX", "OOOOOOOOO", ".O.O.O.O.",
    };
    tg_board b;
    ts_board_play_rows(&b, 9, black_wins, NULL);
    float vb = value_eval(net, &b, TG_BLACK), vw = value_eval(net, &b, TG_WHITE);
    assert_true(vb > 0.6f);
    assert_true(vw < 0.4f);
    /* the same with the colours swapped */
    const char *white_wins[9] = {
        ".O.O.O.O.", "OOOOOOOOO", ".........", ".........", ".........",
        ".........", "OOOOOOOOO", "XXXXXXXXX", ".X.X.X.X.",
    };
    ts_board_play_rows(&b, 9, white_wins, NULL);
    assert_true(value_eval(net, &b, TG_WHITE) > 0.6f);
    assert_true(value_eval(net, &b, TG_BLACK) < 0.4f);
    /* the empty board: near even with komi 7.5 (the search's own verdict
     * for Black there is 40-60%) */
    tg_board_init(&b, 9);
    float e = value_eval(net, &b, TG_BLACK);
    assert_true(e > 0.3f && e < 0.7f);
}

/* The report of a fresh search of `playouts` from g for its side to move. */
static tg_search_report search_report(const tg_game *g, bool value, int playouts, tg_point *move)
{
    tg_search_options opt;
    tg_search_options_default(&opt);
    opt.value_function = value ? TG_VALUE_ON : TG_VALUE_OFF;
    opt.seed = 3;
    tg_search *s = tg_search_new(&opt);
    assert_non_null(s);
    tg_search_limits limits = {.playouts = playouts};
    *move = ts_search_run(s, g, tg_game_to_move(g), &limits, 0, NULL, NULL);
    tg_search_report r = *tg_search_last_report(s);
    tg_search_free(s);
    return r;
}

static bool same_visits(const tg_search_report *a, const tg_search_report *b)
{
    if (a->candidate_count != b->candidate_count)
        return false;
    for (int i = 0; i < a->candidate_count; i++)
        if (a->candidates[i].move != b->candidates[i].move || a->candidates[i].visits != b->candidates[i].visits)
            return false;
    return true;
}

/* The evaluation with AVX2 and FMA (where the processor has them) and the
 * plain C loop agree on positions of every kind: random boards of a few to
 * many stones, for both movers. */
static void test_vector_path_agrees(void **state)
{
    (void)state;
    const value_net *net = value_net_for(9, 15);
    assert_non_null(net);
    tg_rng rng;
    tg_rng_seed(&rng, 77);
    for (int k = 0; k < 300; k++) {
        tg_board b;
        tg_board_init(&b, 9);
        int stones = (int)tg_rng_below(&rng, 70);
        for (int i = 0; i < stones; i++) {
            tg_point p = tg_point_at(&b, (int)tg_rng_below(&rng, 9), (int)tg_rng_below(&rng, 9));
            tg_color c = tg_rng_below(&rng, 2) ? TG_BLACK : TG_WHITE;
            if (tg_board_check(&b, p, c, TG_SUICIDE_FORBIDDEN) == TG_OK)
                tg_board_play(&b, p, c);
        }
        for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
            float v = value_eval(net, &b, c), w = value_eval_portable(net, &b, c);
            assert_true(v >= 0 && v <= 1);
            assert_float_equal(v, w, 1e-5);
        }
    }
}

static void test_search_with_value(void **state)
{
    (void)state;
    /* White's six stones (A4-C4, C3-C1) have one liberty, D1 */
    static const char race[] = " 9 . . . . . . . . .\n"
                               " 8 . . . . . . . . .\n"
                               " 7 . . . . . . . . .\n"
                               " 6 . . . . . . . . .\n"
                               " 5 X X X X . . . . .\n"
                               " 4 O O O X . . . . .\n"
                               " 3 X X O X . . . . .\n"
                               " 2 X X O X . . . . .\n"
                               " 1 . X O . . . . . .\n";
    tg_game *g = ts_game_from_diagram("chinese", race, TG_BLACK);
    assert_non_null(g);
    tg_point with, without;
    tg_search_report on = search_report(g, true, 400, &with);
    tg_search_report off = search_report(g, false, 400, &without);
    assert_int_equal(with, ts_vertex(9, "D1"));
    assert_true(on.winrate > 0.7 && on.winrate <= 1.0);
    /* the same seed with and without: the verdicts changed the visits */
    assert_false(same_visits(&on, &off));
    tg_game_free(g);
    /* on 7x7 there is no network: the search is the same with the option */
    tg_rules rules;
    tg_rules_default(&rules);
    g = tg_game_new(7, &rules);
    assert_non_null(g);
    on = search_report(g, true, 300, &with);
    off = search_report(g, false, 300, &without);
    assert_int_equal(with, without);
    assert_true(same_visits(&on, &off));
    tg_game_free(g);
}

/* The value function's default, auto: on for a search bounded by playouts
 * alone, off under a clock, where its cost in time outweighs it; on and off
 * hold whatever the limits. */
static void test_value_auto(void **state)
{
    (void)state;
    tg_rules rules;
    tg_rules_default(&rules);
    tg_game *g = tg_game_new(9, &rules);
    assert_non_null(g);
    assert_int_equal(tg_game_play(g, TG_BLACK, ts_vertex(9, "E5"), 0), TG_OK);
    struct {
        tg_value_mode mode;
        int playouts;
        double seconds, max_seconds;
        bool used;
    } cases[] = {
        {TG_VALUE_AUTO, 200, 0, 0, true},     {TG_VALUE_AUTO, 200, 0.05, 0, false},
        {TG_VALUE_AUTO, 0, 0, 0, true}, /* no limit: the search's default playout count */
        {TG_VALUE_AUTO, 200, 0, 0.05, false}, {TG_VALUE_AUTO, 0, 0.05, 0, false},
        {TG_VALUE_ON, 200, 0.05, 0, true},    {TG_VALUE_ON, 0, 0.05, 0, true},
        {TG_VALUE_OFF, 200, 0, 0, false},
    };
    tg_search_options opt;
    tg_search_options_default(&opt);
    assert_int_equal(opt.value_function, TG_VALUE_AUTO);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        opt.value_function = cases[k].mode;
        tg_search *s = tg_search_new(&opt);
        assert_non_null(s);
        tg_search_limits limits = {
            .playouts = cases[k].playouts, .seconds = cases[k].seconds, .max_seconds = cases[k].max_seconds};
        tg_point move = ts_search_genmove(s, g, TG_WHITE, &limits, false);
        assert_true(tg_on_board(tg_game_board(g), move));
        assert_int_equal(tg_search_last_report(s)->value_function, cases[k].used);
        tg_search_free(s);
    }
    /* and on 7x7, where no network was trained, never */
    tg_game_free(g);
    g = tg_game_new(7, &rules);
    assert_non_null(g);
    opt.value_function = TG_VALUE_ON;
    tg_search *s = tg_search_new(&opt);
    assert_non_null(s);
    tg_search_limits limits = {.playouts = 200};
    ts_search_genmove(s, g, TG_BLACK, &limits, false);
    assert_false(tg_search_last_report(s)->value_function);
    tg_search_free(s);
    tg_game_free(g);
}

/* The i-th child of node n. */
static tree_node *nth_child(const tree_pool *pool, uint32_t n, uint32_t i)
{
    tree_node *node = tree_at(pool, n);
    uint32_t first = atomic_load(&node->first_child);
    assert_true(first != 0 && i < node->child_count);
    return tree_at(pool, first + i);
}

static void set_leaf_value(tree_node *n, double v) /* for the side to move at n */
{
    atomic_store(&n->leaf_value, verdict_pack(v));
}

static uint32_t index_of(const tree_pool *pool, const tree_node *n) { return (uint32_t)(n - pool->nodes); }

/* The implicit minimax backup of the network's verdicts (tree.c): a node
 * is worth one minus its best judged child, for its mover; unjudged
 * children are left out; the verdicts go up level by level as the search
 * calls it, deepest first; the copy that keeps a subtree keeps them. */
static void test_minimax_backup(void **state)
{
    (void)state;
    model_init();
    pattern_init();
    tg_board b;
    tg_board_init(&b, 9);
    tree_pool pool, copy;
    assert_true(tree_pool_init(&pool, 1 << 20));
    assert_true(tree_pool_init(&copy, 1 << 20));
    uint32_t root = tree_new_root(&pool);
    tree_expand_context ctx = {&b, TG_BLACK, NULL, NULL, TG_NO_POINT, 0, false, NULL, 0};
    assert_true(tree_expand(&pool, root, &ctx));
    /* no child judged: the node has no verdict */
    tree_minimax_update(&pool, root);
    assert_true(tree_node_minimax(tree_at(&pool, root)) < 0);
    /* a node's own verdict, before any child's: its leaf value, turned to its mover */
    tree_node *a = nth_child(&pool, root, 0), *c = nth_child(&pool, root, 2);
    tree_node *bb = nth_child(&pool, root, 1);
    set_leaf_value(a, 0.2); /* White to move after A: 0.2, so A is 0.8 for Black */
    set_leaf_value(bb, 0.6);
    assert_float_equal(tree_node_minimax(a), 0.8, 1e-4);
    assert_true(tree_node_minimax(c) < 0);
    tree_minimax_update(&pool, root);
    assert_float_equal(tree_node_minimax(tree_at(&pool, root)), 0.2, 1e-4); /* 1 - max(0.8, 0.4) */
    /* White finds a refutation of A: A's best reply is 0.9 for White */
    tg_board after;
    tg_board_copy(&after, &b);
    tg_board_play(&after, a->move, TG_BLACK);
    tree_expand_context actx = {&after, TG_WHITE, NULL, NULL, TG_NO_POINT, 0, false, NULL, 0};
    assert_true(tree_expand(&pool, index_of(&pool, a), &actx));
    uint32_t ai = index_of(&pool, a);
    tree_minimax_update(&pool, ai); /* none of A's children judged: A keeps 0.8 */
    assert_float_equal(tree_node_minimax(a), 0.8, 1e-4);
    set_leaf_value(nth_child(&pool, ai, 3), 0.7);  /* Black to move: 0.3 for White */
    set_leaf_value(nth_child(&pool, ai, 5), 0.1);  /* 0.9 for White */
    tree_minimax_update(&pool, ai);
    tree_minimax_update(&pool, root);
    assert_float_equal(tree_node_minimax(a), 0.1, 1e-4);
    /* now B (0.4) is Black's best: the root is 0.6 for White */
    assert_float_equal(tree_node_minimax(tree_at(&pool, root)), 0.6, 1e-4);
    uint32_t kept = tree_copy(&pool, ai, &copy);
    assert_float_equal(tree_node_minimax(tree_at(&copy, kept)), 0.1, 1e-4);
    tree_pool_free(&pool);
    tree_pool_free(&copy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_planes),
        cmocka_unit_test(test_value_auto),
        cmocka_unit_test(test_ko_plane),
        cmocka_unit_test(test_offered_for_its_board_only),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_vector_path_agrees),
        cmocka_unit_test(test_search_with_value),
        cmocka_unit_test(test_minimax_backup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
