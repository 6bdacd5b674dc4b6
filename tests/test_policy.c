/*
 * test_policy.c — Go knowledge of the search: the vital point of small eye
 * spaces (nakade) and the playout playing it against the opponent's eye
 * space next to the last move (src/engine/policy.c); the opening points of
 * empty corners the tree's priors favour (src/engine/tree.c); the liberty
 * counts of the tactics (tactics_liberties_after, quick and played, and
 * tg_board_is_self_atari) against a count by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/model.h"
#include "engine/policy.h"
#include "engine/tree.h"
#include "tactics/ladder.h"
#include "tactics/nakade.h"
#include "tactics/tactics.h"
#include "test_support.h"

#define at ts_at

/* A 9x9 board from nine rows, top (row 9) first (ts_board_play_rows). */
static void setup(tg_board *b, const char *rows[9], const char *last)
{
    ts_board_play_rows(b, 9, rows, last);
}

/* How many of the seeds 1 to SEEDS make c's playout move (the first of a
 * playout, told c's previous move last2) the point named where. */
#define SEEDS 50
static int times_chosen(const tg_board *b, tg_color c, tg_point last2, const char *where)
{
    int n = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        tg_rng rng;
        tg_rng_seed(&rng, seed);
        tg_board copy;
        tg_board_copy(&copy, b);
        policy_moves moves = {0};
        policy_playout(&copy, c, last2, &rng, 1, &moves, NULL);
        n += moves.count == 1 && moves.point[0] == at(b, where);
    }
    return n;
}

/* The vital point found from every point of the space, and its owner. */
static void expect_vital(const char *rows[9], const char *const *space, int n, const char *vital, tg_color owner)
{
    tg_board b;
    setup(&b, rows, NULL);
    for (int i = 0; i < n; i++) {
        tg_color found_owner = TG_EMPTY;
        tg_point v = nakade_point(&b, at(&b, space[i]), &found_owner);
        if (!vital) {
            assert_int_equal(v, TG_PASS);
            continue;
        }
        assert_int_equal(v, at(&b, vital));
        assert_int_equal(found_owner, owner);
    }
}

static void test_straight_three(void **state)
{
    (void)state;
    const char *rows[9] = {".........", ".........", ".........", "..OOOOO..", "..O...O..",
                           "..OOOOO..", ".........", ".........", "........."};
    const char *space[] = {"D5", "E5", "F5"};
    expect_vital(rows, space, 3, "E5", TG_WHITE);
}

static void test_bent_three_in_the_corner(void **state)
{
    (void)state;
    const char *rows[9] = {".........", ".........", ".........", ".........", ".........",
                           ".........", "X........", ".X.......", "..X......"};
    const char *space[] = {"A1", "A2", "B1"};
    expect_vital(rows, space, 3, "A1", TG_BLACK);
}

static void test_pyramid_four(void **state)
{
    (void)state;
    const char *rows[9] = {".........", ".........", "...XXX...", "..XX.XX..", "..X...X..",
                           "..XXXXX..", ".........", ".........", "........."};
    const char *space[] = {"D5", "E5", "F5", "E6"};
    expect_vital(rows, space, 4, "E5", TG_BLACK);
}

static void test_bulky_five(void **state)
{
    (void)state;
    /* D5 E5 F5 D6 E6: E5 touches D5, F5 and E6 */
    const char *rows[9] = {".........", ".........", "...OO....", "..O..O...", "..O...O..",
                           "..OOOOO..", ".........", ".........", "........."};
    const char *space[] = {"D5", "E5", "F5", "D6", "E6"};
    expect_vital(rows, space, 5, "E5", TG_WHITE);
}

static void test_shapes_without_a_vital_point(void **state)
{
    (void)state;
    /* the square four, the straight four and the bent four live or die
     * whoever plays first: no single vital point */
    const char *square[9] = {".........", ".........", "...XX....", "..X..X...", "..X..X...",
                             "...XX....", ".........", ".........", "........."};
    const char *square_space[] = {"D5", "E5", "D6", "E6"};
    expect_vital(square, square_space, 4, NULL, TG_EMPTY);
    const char *straight[9] = {".........", ".........", ".........", ".XXXXXX..", "X....X...",
                               ".XXXXXX..", ".........", ".........", "........."};
    const char *straight_space[] = {"B5", "C5", "D5", "E5"};
    expect_vital(straight, straight_space, 4, NULL, TG_EMPTY);
}

static void test_spaces_that_are_not_eyes(void **state)
{
    (void)state;
    /* a stone of the other colour on the boundary, two points only, or a
     * space of six */
    const char *mixed[9] = {".........", ".........", ".........", "..OOOOO..", "..X...O..",
                            "..OOOOO..", ".........", ".........", "........."};
    const char *mixed_space[] = {"D5", "E5", "F5"};
    expect_vital(mixed, mixed_space, 3, NULL, TG_EMPTY);
    const char *two[9] = {".........", ".........", ".........", "..OOOO...", "..O..O...",
                          "..OOOO...", ".........", ".........", "........."};
    const char *two_space[] = {"D5", "E5"};
    expect_vital(two, two_space, 2, NULL, TG_EMPTY);
    const char *six[9] = {".........", ".........", "..OOOO...", ".O...O...", ".O...O...",
                          "..OOOO...", ".........", ".........", "........."};
    const char *six_space[] = {"C5", "D5", "E5", "C6", "D6", "E6"};
    expect_vital(six, six_space, 6, NULL, TG_EMPTY);
    tg_board b;
    setup(&b, six, NULL);
    assert_int_equal(nakade_point(&b, at(&b, "C5"), NULL), TG_PASS);
    assert_int_equal(nakade_point(&b, at(&b, "C4"), NULL), TG_PASS); /* a stone */
}

/* White has just closed a straight three: Black's playout move is its
 * middle point, whatever the random numbers say. */
static void test_playout_kills_the_new_eye_space(void **state)
{
    (void)state;
    const char *rows[9] = {".........", ".........", ".........", "..OOOOO..", "..O...O..",
                           "..OOOOO..", ".........", ".........", "........."};
    tg_board b;
    setup(&b, rows, "G5");
    assert_int_equal(times_chosen(&b, TG_BLACK, TG_NO_POINT, "E5"), SEEDS);
}

/* Black's previous move, E6, put White's E5 in atari and White played
 * elsewhere: Black's playout takes it, whatever the random numbers say;
 * told nothing of its previous move, it does not always find it. */
static void test_playout_takes_what_its_atari_left(void **state)
{
    (void)state;
    const char *rows[9] = {"........O", ".........", ".........", "....X....", "...XOX...",
                           ".........", ".........", ".........", "........."};
    tg_board b;
    setup(&b, rows, "J9");
    assert_int_equal(times_chosen(&b, TG_BLACK, at(&b, "E6"), "E4"), SEEDS);
    assert_true(times_chosen(&b, TG_BLACK, TG_NO_POINT, "E4") < SEEDS);
}

/* White's C2 puts Black's C1 in atari, and running along the first line
 * only leads into a ladder that works: the playout does not always run to
 * D1 (it always would if the ladder were not read).  With a Black stone at
 * E2 to meet, the run escapes and is always played. */
static void test_playout_does_not_run_into_a_ladder(void **state)
{
    (void)state;
    const char *rows[9] = {".........", ".........", ".........", ".........", ".........",
                           ".........", ".........", "..O......", ".OX......"};
    tg_board b;
    setup(&b, rows, "C2");
    assert_true(ladder_captured(&b, at(&b, "C1")));
    assert_true(times_chosen(&b, TG_BLACK, TG_NO_POINT, "D1") < SEEDS);

    const char *broken[9] = {".........", ".........", ".........", ".........", ".........",
                             ".........", ".........", "..O.X....", ".OX......"};
    setup(&b, broken, "C2");
    assert_false(ladder_captured(&b, at(&b, "C1")));
    assert_int_equal(times_chosen(&b, TG_BLACK, TG_NO_POINT, "D1"), SEEDS);
}

/* Self-ataris that kill: the chain, once captured, leaves the opponent a
 * space that is one eye or dies to nakade. */
static void test_sacrifices_that_kill(void **state)
{
    (void)state;
    tg_board b;
    /* White E6 makes the square four D5 E5 D6 E6, with E7 its only
     * liberty */
    const char *square[9] = {".........", ".........", "...X.....", "..XO.X...", "..XOOX...",
                             "...XX....", ".........", ".........", "........."};
    setup(&b, square, NULL);
    assert_true(nakade_sacrifice(&b, at(&b, "E6"), TG_WHITE));
    assert_false(tactics_bad_self_atari(&b, at(&b, "E6"), TG_WHITE, 1));
    /* White C5 makes two stones in atari (liberty C4): one eye at most */
    const char *two[9] = {".........", ".........", ".........", ".XX......", "XO.X.....",
                          ".X.......", ".........", ".........", "........."};
    setup(&b, two, NULL);
    assert_true(nakade_sacrifice(&b, at(&b, "C5"), TG_WHITE));
    /* White E5 makes a straight four (liberty E4): captured, it is two
     * eyes for Black, so it stays a bad self-atari */
    const char *straight[9] = {".........", ".........", ".........", ".XXXX....", "XOOO.X...",
                               ".XXX.....", ".........", ".........", "........."};
    setup(&b, straight, NULL);
    assert_false(nakade_sacrifice(&b, at(&b, "E5"), TG_WHITE));
    assert_true(tactics_bad_self_atari(&b, at(&b, "E5"), TG_WHITE, 1));
    /* nor is a straight five: captured, it is two eyes as well */
    const char *five[9] = {".........", ".........", ".........", ".XXXXX...", "XOOOO.X..",
                           ".XXXX....", ".........", ".........", "........."};
    setup(&b, five, NULL);
    assert_false(nakade_sacrifice(&b, at(&b, "F5"), TG_WHITE));
    assert_true(tactics_bad_self_atari(&b, at(&b, "F5"), TG_WHITE, 1));
}

/* A false seki from a game against GNU Go: Black's top left group and
 * White's B9 C9 share the liberties A9 and C8, but White A9 sacrifices
 * three stones, Black C8 takes them, and White B9 kills the straight three
 * left.  The playouts must find it: the group dies in a good share of
 * them (without the sacrifice it lived in every one). */
static void test_playouts_break_a_false_seki(void **state)
{
    (void)state;
    const char *rows[9] = {".OOXOOO..", "XX.XXO.O.", "XXXXXO..O", "XOOOOOOOX", "O.OOXXOXX",
                           ".OXX.XX.X", "OOX.X.XX.", "OXX.....X", "OOX......"};
    tg_board b;
    setup(&b, rows, "G3");
    assert_true(nakade_sacrifice(&b, at(&b, "A9"), TG_WHITE));
    int dead = 0, n = 200;
    for (uint64_t seed = 1; seed <= (uint64_t)n; seed++) {
        tg_board copy;
        tg_board_copy(&copy, &b);
        tg_rng rng;
        tg_rng_seed(&rng, seed);
        policy_playout(&copy, TG_WHITE, TG_NO_POINT, &rng, 300, NULL, NULL);
        uint8_t owner[TG_MAX_POINTS];
        tactics_area_score(&copy, TACTICS_OWNER_SURROUNDED, owner);
        dead += owner[at(&b, "B7")] == TG_WHITE;
    }
    print_message("the group died in %d of %d playouts\n", dead, n);
    assert_true(dead >= n / 5);
}

/* The playout's first move from the model: only moves the playouts may
 * play, the strong ones far more often than the rest. */
static void test_model_move_draws_by_strength(void **state)
{
    (void)state;
    model_init();
    /* White's three stones D5 E5 F5 are in atari (liberty G5) after White
     * F5; Black to move */
    const char *rows[9] = {".........", ".........", ".........", "...XXX...", "..XOOO...",
                           "...XXX...", ".........", ".........", "........."};
    tg_board b;
    setup(&b, rows, "F5");
    int count[TG_MAX_POINTS] = {0}, n = 2000, candidates = 0;
    for (int i = 0; i < b.npoints; i++)
        candidates += b.color[i] == TG_EMPTY && tactics_move_ok(&b, i, TG_BLACK);
    tg_rng rng;
    tg_rng_seed(&rng, 7);
    model_init(); /* policy_model_move's precondition (the search's making calls it) */
    for (int i = 0; i < n; i++) {
        tg_point p = policy_model_move(&b, TG_BLACK, TG_NO_POINT, &rng);
        assert_true(p != TG_PASS && tactics_move_ok(&b, p, TG_BLACK));
        count[p]++;
    }
    int capture = count[at(&b, "G5")];
    print_message("the capture drawn %d times of %d among %d points\n", capture, n, candidates);
    assert_true(capture > 10 * n / candidates);
    assert_true(count[at(&b, "A1")] < capture / 10);

    /* nothing but Black's own eyes left: no move for either side */
    const char *full[9] = {"XXXXXXXXX", "XXXXXXXXX", "XXXXXXXXX", "XXXXXXXXX", "XXXXXXXXX",
                           "XXXXXXXXX", "XXXXXXXXX", "XXXXXXXXX", ".X.XXXXXX"};
    setup(&b, full, NULL);
    assert_int_equal(policy_model_move(&b, TG_BLACK, TG_NO_POINT, &rng), TG_PASS);
    assert_int_equal(policy_model_move(&b, TG_WHITE, TG_NO_POINT, &rng), TG_PASS);
}

/* ---- liberty counts against a count by hand ---------------------------- */

/* Add q to the set (of n points) unless it is there. */
static void add_point(tg_point *set, int *n, tg_point q)
{
    for (int i = 0; i < *n; i++)
        if (set[i] == q)
            return;
    set[(*n)++] = q;
}

/* The points tactics_liberties_after counts for c at p, all of them: p's
 * empty neighbours, an adjacent opponent chain in atari (its stone there,
 * freed by the capture), and every liberty but p of c's adjacent chains,
 * read by walking each chain's stones. */
static int liberties_by_hand(const tg_board *b, tg_point p, tg_color c, bool *captures)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    tg_point set[TG_MAX_POINTS];
    int n = 0;
    *captures = false;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (b->color[q] == TG_EMPTY) {
            add_point(set, &n, q);
        } else if (b->color[q] == tg_opponent(c) && tg_chain_in_atari(tg_chain_at(b, q))) {
            add_point(set, &n, q);
            *captures = true;
        } else if (b->color[q] == c) {
            int s = q;
            do {
                for (int k = 0; k < 4; k++)
                    if (b->color[s + d[k]] == TG_EMPTY && s + d[k] != p)
                        add_point(set, &n, s + d[k]);
                s = b->next_stone[s];
            } while (s != q);
        }
    }
    return n;
}

/* tg_board_is_self_atari and tactics_liberties_after skip the walk of a
 * chain with more than 4k pseudo-liberties (it has more than k
 * liberties): their answers must stay those of a count by hand, at every
 * empty point for both colours, through random games whose chains grow
 * long (no own eye is filled) on 9x9 and 19x19. */
static void test_liberty_counts_match_a_count_by_hand(void **state)
{
    (void)state;
    long checked = 0, long_chains = 0;
    for (int size = 9; size <= 19; size += 10) {
        for (uint64_t seed = 1; seed <= 6; seed++) {
            tg_board b;
            assert_int_equal(tg_board_init(&b, size), TG_OK);
            tg_rng rng;
            tg_rng_seed(&rng, seed);
            tg_color mover = TG_BLACK;
            for (int move = 0; move < size * size * 2; move++) {
                for (int p = 0; p < b.npoints; p++) {
                    if (b.color[p] != TG_EMPTY)
                        continue;
                    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
                        bool captures;
                        int all = liberties_by_hand(&b, p, c, &captures);
                        for (int max = 1; max <= 7; max++)
                            assert_int_equal(tactics_liberties_after(&b, p, c, max, TACTICS_COUNT_QUICK),
                                             all < max ? all : max);
                        /* counted by playing, now and then (a copy of the board each) */
                        if (!captures && all > 0 && move % 16 == 0)
                            assert_int_equal(tactics_liberties_after(&b, p, c, 3, TACTICS_COUNT_PLAYED),
                                             all < 3 ? all : 3);
                        assert_int_equal(tg_board_is_self_atari(&b, p, c, NULL), !captures && all < 2);
                        checked++;
                    }
                    for (int i = 0; i < 4; i++) {
                        int q = p + (i == 0 ? -1 : i == 1 ? 1 : i == 2 ? -b.stride : b.stride);
                        long_chains += (b.color[q] == TG_BLACK || b.color[q] == TG_WHITE) &&
                                       tg_chain_pseudo_libs(tg_chain_at(&b, q)) > 8;
                    }
                }
                /* a random legal move that fills no own eye, or a pass */
                tg_point chosen = TG_PASS;
                for (int tries = 0; tries < 50 && b.empty_count; tries++) {
                    tg_point p = b.empty[tg_rng_below(&rng, (uint32_t)b.empty_count)];
                    if (!tg_board_is_eye(&b, p, mover) &&
                        tg_board_check(&b, p, mover, TG_SUICIDE_FORBIDDEN) == TG_OK) {
                        chosen = p;
                        break;
                    }
                }
                if (chosen == TG_PASS)
                    break;
                assert_true(tg_board_play(&b, chosen, mover) >= 0);
                mover = tg_opponent(mover);
            }
        }
    }
    assert_true(checked > 100000);
    assert_true(long_chains > 1000); /* the shortcut was taken */
}

static void test_empty_corner_points(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 19);
    const char *good[] = {"C3", "D4", "C4", "D3", "C5", "E3", "D5", "E4", "R16", "Q17", "C17", "Q3", "C16", "C15"};
    const char *bad[] = {"B2", "C2", "F3", "F6", "E5", "K10", "K4", "A1", "O3", "C14"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_true(tree_empty_corner_point(&b, at(&b, good[i])));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_false(tree_empty_corner_point(&b, at(&b, bad[i])));
    /* a stone anywhere in the lower left 7x7 square takes that corner
     * off, and only that one */
    tg_board_play(&b, at(&b, "G7"), TG_WHITE);
    assert_false(tree_empty_corner_point(&b, at(&b, "C3")));
    assert_false(tree_empty_corner_point(&b, at(&b, "D4")));
    assert_true(tree_empty_corner_point(&b, at(&b, "Q4")));
    assert_true(tree_empty_corner_point(&b, at(&b, "D16")));
    tg_board_init(&b, 9);
    assert_false(tree_empty_corner_point(&b, at(&b, "C3"))); /* small boards: no opening theory */
    tg_board_init(&b, 13);
    assert_true(tree_empty_corner_point(&b, at(&b, "D10")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight_three),
        cmocka_unit_test(test_bent_three_in_the_corner),
        cmocka_unit_test(test_pyramid_four),
        cmocka_unit_test(test_bulky_five),
        cmocka_unit_test(test_shapes_without_a_vital_point),
        cmocka_unit_test(test_spaces_that_are_not_eyes),
        cmocka_unit_test(test_playout_kills_the_new_eye_space),
        cmocka_unit_test(test_playout_takes_what_its_atari_left),
        cmocka_unit_test(test_playout_does_not_run_into_a_ladder),
        cmocka_unit_test(test_sacrifices_that_kill),
        cmocka_unit_test(test_playouts_break_a_false_seki),
        cmocka_unit_test(test_model_move_draws_by_strength),
        cmocka_unit_test(test_empty_corner_points),
        cmocka_unit_test(test_liberty_counts_match_a_count_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
