/*
 * test_dead_eyes.c — life by two eyes the opponent can never fill, held
 * together by double connections (src/score/eyes.c), where Benson's test
 * asks too much and random playouts fill eyes that only look false
 * (issue 41 item 10).
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
#include "score/eyes.h"

/* The final position of GNU Go's regression game rbm-bobk-200303111815
 * (White won by 12.5).  White's group across the top has the eyes G19, K19
 * and M18; each looks false (H18, J18, L17 and N17 are Black's), but the
 * chain H19 J19 between G19 and K19 has no other liberty, so Black can play
 * on neither, and the chains around M18 hold together by double
 * connections (E16/F16 joins the top to the body).  Benson's test fails
 * (E19's chain touches one eye), and the playouts fill the eyes: the group
 * of 44 stones was counted dead and Black won by 87.5. */
static const char *const RBM_BOBK[] = {
    "...XOO.OO.OOOOOOX..",
    "...XXOOXXOO.OXXOX..",
    "...XOOXXXOXOXXXXXXX",
    "XX.X..X..XXOOX.XOOO",
    "OX.XOOOXXXOO.XXO...",
    "OXXX.OXX.XXOOXOOO..",
    "OOX.OO.XXOOOXOX....",
    ".OXXXOOOOOOXXOOO...",
    "O.OXOXXOXXOX.XXOOOO",
    "..OOOOXX.XOX.X.OXOX",
    ".....OX.XXXOXXOOXXX",
    "....OX...XOO..OXX..",
    "..OXOXXXXXOXXXOOX..",
    "..O.OXOOOOOX..OXX..",
    "...OOOO.XXXX.OOOXX.",
    "..OXXXOX.XOXO.OX..X",
    "...OXXXX.XOXOOOXX.X",
    "...OOX..XOOO.OOOXXO",
    "...OXX..X.O..OXXX..",
};

static void test_group_with_eyes_that_only_look_false_lives(void **state)
{
    (void)state;
    static const char *const white[] = {"E19", "F19", "H19", "J19", "L19", "Q19", "F15", "M17", "K12"};
    tg_board b;
    tg_rules r;
    tg_rng rng;
    uint8_t dead[TG_MAX_POINTS], safe[TG_MAX_POINTS];
    ts_board_play_rows(&b, 19, RBM_BOBK, NULL);
    tg_rules_default(&r);
    assert_int_equal(tg_rules_apply(&r, "japanese", NULL, 0), TG_OK);
    tg_rng_seed(&rng, 1);
    tg_estimate_dead(&b, TG_BLACK, &r, 400, &rng, dead);
    for (size_t i = 0; i < sizeof white / sizeof *white; i++)
        assert_false(dead[ts_at(&b, white[i])]);
    memset(safe, 0, sizeof safe);
    score_two_eye_life(&b, safe);
    assert_int_equal(safe[ts_at(&b, "E19")], TG_WHITE);
    assert_int_equal(safe[ts_at(&b, "H19")], TG_WHITE);
}

/* Eyes that are false stay false.  White's B9 and D9 look like two eyes,
 * and the stone C9 between them has no other liberty, as in the game above;
 * but the chains beside them each touch one eye and are not joined (C8 is
 * Black's): A9's chain has no liberty but B9, where Black captures it, and
 * the rest falls after it.  Nothing here lives by the rule. */
static void test_one_eye_per_chain_is_not_life(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "O.O.O....",
        "OOXOO....",
        "XXXXX....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    };
    tg_board b;
    uint8_t safe[TG_MAX_POINTS];
    ts_board_play_rows(&b, 9, rows, NULL);
    memset(safe, 0, sizeof safe);
    score_two_eye_life(&b, safe);
    assert_int_equal(safe[ts_at(&b, "A9")], 0);
    assert_int_equal(safe[ts_at(&b, "C9")], 0);
    assert_int_equal(safe[ts_at(&b, "E9")], 0);
}

/* Chains that touch each other only through eyes are not joined by them:
 * a checkerboard of black stones in White's area (as in GNU Go's
 * caren.sgf) has points surrounded by Black everywhere, and each inner stone
 * touches two or more of them, but the stones on its border touch one at
 * most: White captures them, and the points they surrounded are eyes no
 * longer, and so on inwards.  Joined through their eyes, the stones made
 * one "living" unit, and caren's count went from W+70.5 to W+0.5. */
static void test_checkerboard_is_not_joined_through_its_eyes(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "OOOOOOOOO",
        "OX.X.X.XO",
        "O.X.X.X.O",
        "OX.X.X.XO",
        "O.X.X.X.O",
        "OX.X.X.XO",
        "O.X.X.X.O",
        "OX.X.X.XO",
        "OOOOOOOOO",
    };
    tg_board b;
    uint8_t safe[TG_MAX_POINTS];
    ts_board_play_rows(&b, 9, rows, NULL);
    memset(safe, 0, sizeof safe);
    score_two_eye_life(&b, safe);
    for (tg_point p = 0; p < b.npoints; p++)
        assert_int_not_equal(safe[p], TG_BLACK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_group_with_eyes_that_only_look_false_lives),
        cmocka_unit_test(test_one_eye_per_chain_is_not_life),
        cmocka_unit_test(test_checkerboard_is_not_joined_through_its_eyes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
