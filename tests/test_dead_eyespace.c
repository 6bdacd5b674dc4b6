/*
 * test_dead_eyespace.c — the dead-stone estimate reads the shape of a group's
 * only eye space where it holds opponent stones (src/score/eyespace.c): the
 * seki that is no seki and the nakade left once the stones are taken, which
 * random playouts judged alive (issue 41 item 10: GNU Go's nicklas19 and
 * 9x9-2, reduced), and the eye shapes themselves.
 *
 * Positions are drawn as in test_score.c: X Black, O White, '.' empty, the
 * top row first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tengen/score.h"
#include "test_support.h"
#include "score/eyespace.h"

static void estimate(const tg_board *b, uint8_t *dead)
{
    tg_rules r;
    tg_rng rng;
    tg_rules_default(&r);
    assert_int_equal(tg_rules_apply(&r, "japanese komi=0", NULL, 0), TG_OK);
    tg_rng_seed(&rng, 1);
    tg_estimate_dead(b, TG_BLACK, &r, 400, &rng, dead);
}

/* Every stone of the colour on the board is dead (listed) or alive. */
static void assert_dead_exactly(const tg_board *b, const uint8_t *dead, const char *const *listed,
                                size_t n)
{
    uint8_t expected[TG_MAX_POINTS];
    memset(expected, 0, sizeof expected);
    for (size_t i = 0; i < n; i++)
        expected[ts_at(b, listed[i])] = 1;
    for (tg_point p = 0; p < b->npoints; p++) {
        tg_color c = tg_board_at(b, p);
        if (c == TG_BLACK || c == TG_WHITE)
            assert_int_equal(dead[p] != 0, expected[p]);
    }
}

/* nicklas19, reduced: the white stones A9 A8 in Black's corner share both
 * their liberties (B9, A7) with the black group, so neither side fills one
 * and the playouts leave it a seki.  But White can give up a third stone at
 * A7; Black takes the three and is left with a straight three that White
 * kills at A8.  Black's only eye space, A9 B9 A8 A7, holds one eye once its
 * two liberties inside are filled: Black is dead, A9 A8 live (GNU Go and the
 * record's count agree). */
static void test_seki_in_the_corner_that_is_no_seki(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "O.XO.....",
        "OXXO.....",
        ".XXO.....",
        "XXOO.....",
        "OOO......",
        ".........",
        "......XXX",
        "......X.X",
        "......XX.",
    };
    static const char *const dead_stones[] = {"C9", "B8", "C8", "B7", "C7", "A6", "B6"};
    tg_board b;
    uint8_t dead[TG_MAX_POINTS];
    ts_board_play_rows(&b, 9, rows, NULL);
    estimate(&b, dead);
    assert_dead_exactly(&b, dead, dead_stones, sizeof dead_stones / sizeof *dead_stones);
}

/* 9x9-2, reduced: the five white stones in Black's corner are in atari at
 * B3, and the playouts take them and let Black live.  But taking them
 * leaves the bulky five A1 B1 C1 A2 B2, which White kills at its vital
 * point, and Black cannot get out (E3 is a pocket in White's wall): Black
 * is dead and the five white stones live. */
static void test_nakade_left_after_the_capture(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ".....X.X.",
        ".....XXXX",
        ".........",
        ".........",
        "OOOOO....",
        "XXXXO....",
        "X.XX.O...",
        "OOXXO....",
        "OOOXO....",
    };
    static const char *const dead_stones[] = {"A4", "B4", "C4", "D4", "A3", "C3", "D3", "C2", "D2", "D1"};
    tg_board b;
    uint8_t dead[TG_MAX_POINTS];
    ts_board_play_rows(&b, 9, rows, NULL);
    estimate(&b, dead);
    assert_dead_exactly(&b, dead, dead_stones, sizeof dead_stones / sizeof *dead_stones);
}

/* Not every corner with a white stone short of liberties is a nakade: the
 * white stone A9 has two liberties, B9 and A8, but once Black has filled
 * them what is left, A9 and C9 D9, lies in two places, two eyes.  The rule
 * leaves this group to the playouts, which call it alive and A9 dead, as
 * GNU Go does. */
static void test_eye_space_split_by_the_capture_lives(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "O...XO...",
        ".XXXXO...",
        "XXOOOO...",
        "OO.......",
        ".........",
        ".........",
        "......XXX",
        "......X.X",
        "......XX.",
    };
    static const char *const dead_stones[] = {"A9"};
    tg_board b;
    uint8_t dead[TG_MAX_POINTS];
    ts_board_play_rows(&b, 9, rows, NULL);
    estimate(&b, dead);
    assert_dead_exactly(&b, dead, dead_stones, sizeof dead_stones / sizeof *dead_stones);
}

/* Shapes, drawn on a 5x5 board: 'x' marks the eye space. */
static bool one_eye(const char *const *rows)
{
    tg_board b;
    tg_point in[25];
    int n = 0;
    assert_int_equal(tg_board_init(&b, 5), TG_OK);
    for (int r = 0; r < 5; r++)
        for (int x = 0; x < 5; x++)
            if (rows[r][x] == 'x')
                in[n++] = tg_point_at(&b, x, 4 - r);
    return score_one_eye_shape(&b, in, n);
}

static void test_eye_shapes(void **state)
{
    (void)state;
    static const char *const bent_three[] = {"xx...", "x....", ".....", ".....", "....."};
    static const char *const square[] = {"xx...", "xx...", ".....", ".....", "....."};
    static const char *const pyramid[] = {"xxx..", ".x...", ".....", ".....", "....."};
    static const char *const straight_four[] = {"xxxx.", ".....", ".....", ".....", "....."};
    static const char *const bent_four[] = {"xxx..", "x....", ".....", ".....", "....."};
    static const char *const bulky_five[] = {"xxx..", "xx...", ".....", ".....", "....."};
    static const char *const crossed_five[] = {".x...", "xxx..", ".x...", ".....", "....."};
    static const char *const bent_five[] = {"xxx..", "x....", "x....", ".....", "....."};
    static const char *const rabbity_six[] = {".x...", "xxx..", "xx...", ".....", "....."};
    static const char *const rectangle_six[] = {"xxx..", "xxx..", ".....", ".....", "....."};
    static const char *const two_spaces[] = {"x.x..", ".....", ".....", ".....", "....."};
    assert_true(one_eye(bent_three));
    assert_true(one_eye(square));
    assert_true(one_eye(pyramid));
    assert_false(one_eye(straight_four));
    assert_false(one_eye(bent_four));
    assert_true(one_eye(bulky_five));
    assert_true(one_eye(crossed_five));
    assert_false(one_eye(bent_five));
    assert_true(one_eye(rabbity_six));
    assert_false(one_eye(rectangle_six));
    assert_false(one_eye(two_spaces));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seki_in_the_corner_that_is_no_seki),
        cmocka_unit_test(test_nakade_left_after_the_capture),
        cmocka_unit_test(test_eye_space_split_by_the_capture_lives),
        cmocka_unit_test(test_eye_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
