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
#include <string.h>

#include <cmocka.h>

#include "engine/model_data.h"
#include "test_support.h"

#define at ts_at

/* A 9x9 board from nine rows, top (row 9) first (ts_board_play_rows). */
static void setup(tg_board *b, const char *rows[9])
{
    ts_board_play_rows(b, 9, rows, NULL);
}

static void features_at(const tg_board *b, const char *vertex, tg_color c, move_features *f)
{
    features_compute(b, at(b, vertex), c, TG_NO_POINT, NULL, 0, f);
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
            uint32_t ka = features_shape_canonical(features_shape_key(&a, p, TG_WHITE));
            uint32_t km = features_shape_canonical(features_shape_key(&m, q, TG_BLACK));
            assert_int_equal(ka, km);
            compared++;
        }
    assert_true(compared > 60);
}

static void test_distance_buckets(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 19);
    tg_point p = at(&b, "K10");
    assert_int_equal(features_distance_bucket(&b, p, at(&b, "K11")), 0);  /* d = 2 */
    assert_int_equal(features_distance_bucket(&b, p, at(&b, "L11")), 1);  /* d = 3 */
    assert_int_equal(features_distance_bucket(&b, p, at(&b, "L12")), 3);  /* knight's move: 1 + 2 + 2 = 5 */
    assert_int_equal(features_distance_bucket(&b, p, at(&b, "A1")), 15);  /* far */
    assert_int_equal(features_distance_bucket(&b, p, p), 0); /* a stone captured and the point played again */
    assert_int_equal(features_distance_bucket(&b, p, TG_PASS), FEATURE_DIST_NONE);
    assert_int_equal(features_distance_bucket(&b, p, TG_NO_POINT), FEATURE_DIST_NONE);
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
 * three-point eye space (policy_nakade_sacrifice). */
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

/* The generated table: canonical keys, in order, each once, weights
 * positive and finite. */
static void test_model_table_is_well_formed(void **state)
{
    (void)state;
    assert_true(model_shape_count > 100);
    for (int i = 0; i < model_shape_count; i++) {
        assert_int_equal(model_shapes[i].key, features_shape_canonical(model_shapes[i].key));
        if (i > 0)
            assert_true(model_shapes[i].key > model_shapes[i - 1].key);
        assert_true(model_shapes[i].gamma > 0 && isfinite(model_shapes[i].gamma));
    }
    const int values[FEATURE_GROUPS] = FEATURE_VALUES_INIT;
    for (int g = 0; g < FEATURE_GROUPS; g++)
        for (int v = 0; v < values[g]; v++)
            assert_true(model_group_gammas[g][v] > 0 && isfinite(model_group_gammas[g][v]));
}

/* What the records taught, read as a player would: near the last move
 * beats far from it, capturing beats a lone self-atari, the third line of
 * an empty side beats its first, and running a chain out of atari beats
 * leaving it in a ladder. */
static void test_model_ranks_moves_like_a_player(void **state)
{
    (void)state;
    model_init();
    const float(*g)[MODEL_MAX_VALUES] = model_group_gammas;
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

/* The prior the tree gives the child of `vertex` when the root (Black to
 * move on b) is expanded: its won prior visits less its lost ones. */
static double child_prior(const tree_pool *pool, uint32_t root, const tg_board *b, const char *vertex)
{
    const tree_node *r = tree_at(pool, root);
    uint32_t first = atomic_load(&((tree_node *)r)->first_child);
    assert_true(first != 0);
    tg_point p = at(b, vertex);
    for (uint32_t i = 0; i < r->child_count; i++) {
        const tree_node *c = tree_at(pool, first + i);
        if (c->move == p) {
            assert_true(c->prior_visits > 0);
            return c->prior_wins2 - (double)c->prior_visits;
        }
    }
    fail_msg("no child at %s", vertex);
    return 0;
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
    tree_expand_context ctx = {&b, TG_BLACK, NULL, NULL, TG_NO_POINT};
    assert_true(tree_expand(&pool, root, &ctx));
    double one = child_prior(&pool, root, &b, "B7");
    double two = child_prior(&pool, root, &b, "H7");
    double self = child_prior(&pool, root, &b, "E5");
    print_message("priors (won less lost): capture one %.0f, capture two %.0f, self-atari %.0f\n", one, two, self);
    assert_true(one >= 20);
    assert_true(two > one); /* the hand-set +30 against +20 */
    assert_true(self <= -20);
    tree_pool_free(&pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_transforms_form_a_group),
        cmocka_unit_test(test_shape_key_ignores_symmetry_and_colour),
        cmocka_unit_test(test_distance_buckets),
        cmocka_unit_test(test_tactical_features),
        cmocka_unit_test(test_self_atari_feature),
        cmocka_unit_test(test_model_table_is_well_formed),
        cmocka_unit_test(test_model_ranks_moves_like_a_player),
        cmocka_unit_test(test_tree_priors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
