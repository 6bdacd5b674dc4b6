/*
 * test_dead_count.c — the finished positions of real games that the dead-stone
 * estimate and the count got wrong against GNU Go and the recorded results
 * (issue 41 item 10, measured by bench/bench_dead.py), each reduced to a small
 * position: seki, points still to fill, false eyes and dead stones in the
 * opponent's territory.
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

static void rules_named(tg_rules *r, const char *text)
{
    tg_rules_default(r);
    assert_int_equal(tg_rules_apply(r, text, NULL, 0), TG_OK);
}

/* The count with the estimate's dead stones, as `tengen score` gives it. */
static tg_score count_estimated(const tg_board *b, const char *rules, uint8_t *dead)
{
    tg_rules r;
    tg_rng rng;
    tg_score s;
    rules_named(&r, rules);
    tg_rng_seed(&rng, 1);
    tg_estimate_dead(b, TG_BLACK, &r, 400, &rng, dead);
    tg_score_board(b, &r, dead, 0, &s);
    return s;
}

static int count_dead(const uint8_t *dead)
{
    int n = 0;
    for (tg_point p = 0; p < TG_MAX_POINTS; p++)
        n += dead[p] != 0;
    return n;
}

/* ---- seki: an eye that only connects a seki stone is no second eye ------ */

/* GNU Go's score7 (upper right corner), reduced.  The white stones H8 J8 H7
 * share J9 with the black stone H9 and J7 with the black group H6; neither
 * side can fill them.  H9 joins the black group E9 on the edge through G9,
 * which is H9's only liberty besides J9: G9 is the point where H9 connects,
 * not an eye, so that group has one eye (F8) and lives by the seki as well.
 * Under tax=seki (Japanese) its eye F8 is no territory, as GNU Go, which
 * calls all these stones seki, and the record of score7 count it; it was
 * counted as territory, because G9 and F8 made two eyes. */
static void test_eye_that_connects_a_seki_stone_is_not_a_second_eye(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "...OXX.X.",
        "...OX.XOO",
        "...OXXXO.",
        "...OOOOXX",
        "......OX.",
        "......OXX",
        "......OOO",
        ".........",
        ".........",
    };
    tg_board b;
    uint8_t dead[TG_MAX_POINTS];
    ts_board_play_rows(&b, 9, rows, NULL);
    tg_score s = count_estimated(&b, "japanese komi=0", dead);
    assert_int_equal(count_dead(dead), 0);
    assert_int_equal(s.territory[TG_BLACK], 0);   /* F8, G9 and J5 are seki points */
    s = count_estimated(&b, "chinese komi=0", dead);
    assert_int_equal(s.territory[TG_BLACK], 3);   /* area counting counts the eyes */
}

/* ---- unfinished borders: a fill the opponent answers by connecting twice -- */

/* GNU Go's kisei27_g1 (upper left), reduced.  The dame A9 is Black's to
 * fill: it ataris the white stones A8 A7, which connect at A6 inside White's
 * territory, and the chain that makes is still in atari until White connects
 * once more at G6.  Filling the dame was refused because the first answer
 * alone left White in atari, so A9 stayed as if it were a shared liberty of
 * a seki, and the eye C9-E8 of the black group (one eye region, living by
 * its size) was not counted under the Japanese rules: 17 points where GNU Go
 * and the record's count give 23. */
static void test_dame_answered_by_two_connections_is_filled(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ".X...XO..",
        "OX...XO..",
        "OXXXXXO..",
        ".OOOOO.O.",
        "OOXXXXO..",
        "XXX..XO..",
        ".....XO..",
        ".....XO..",
        ".....XO..",
    };
    tg_board b;
    uint8_t dead[TG_MAX_POINTS];
    ts_board_play_rows(&b, 9, rows, NULL);
    tg_score s = count_estimated(&b, "japanese komi=0", dead);
    assert_int_equal(count_dead(dead), 0);
    assert_int_equal(s.territory[TG_BLACK], 23);   /* the eye's 6 points and the lower left's 17 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eye_that_connects_a_seki_stone_is_not_a_second_eye),
        cmocka_unit_test(test_dame_answered_by_two_connections_is_filled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
