/*
 * test_gtp_free_opening.c — the free-opening ruleset over GTP (issue 43):
 * tengen-rules free-opening; the opening's stones in their fixed colours
 * (W B W B) and no pass among them, whatever colour a controller names
 * (F2); tengen-predictions answering the threshold and the first player's
 * colour, and the count against the threshold (F3, F9), exactly where it
 * is a quarter, and under decide=yes (issue 49); printsgf's predictions
 * and no undo of an opening stone (issue 49); the capture choice through
 * tengen-capture_own (F5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gtp_session.h"

static void test_F2_opening_over_gtp(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    gs_ok(e, "tengen-rules free-opening");
    gs_ok(e, "clear_board");
    gs_refused(e, "play b E5", "illegal move");
    gs_refused(e, "play w pass", "illegal move");
    gs_ok(e, "play w E5");
    gs_refused(e, "play w C3", "illegal move");
    gs_ok(e, "play b C3");
    gs_ok(e, "play w G7");
    gs_ok(e, "play b C7");
    gs_ok(e, "play w pass"); /* past the opening, a pass asks to end */
    tg_gtp_free(e);
}

/* White walls off columns A-E (45 points with the wall), Black F-J (36):
 * White 45, Black 36, 9 ahead; then both pass. */
static void play_wall(tg_gtp *e)
{
    const char *wall[] = {"E1", "F1", "E2", "F2", "E3", "F3", "E4", "F4", "E5", "F5",
                          "E6", "F6", "E7", "F7", "E8", "F8", "E9", "F9"};
    for (int i = 0; i < 18; i++) {
        char line[32];
        snprintf(line, sizeof line, "play %c %s", i % 2 ? 'b' : 'w', wall[i]);
        gs_ok(e, line);
    }
    gs_ok(e, "play w pass");
    gs_ok(e, "play b pass");
}

static void test_F3_F9_predictions_over_gtp(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    gs_ok(e, "tengen-rules free-opening");
    assert_string_equal(gs_ok(e, "tengen-predictions W+7 W+6"), "W+6.5 white");
    assert_string_equal(gs_ok(e, "tengen-predictions W+6 W+7"), "W+6.5 black");
    assert_string_equal(gs_ok(e, "tengen-predictions B+2 W+1"), "B+0.5 black");
    gs_refused(e, "tengen-predictions W+7 seven",
               "syntax error: predictions are W+N, B+N or 0 (N in stones, halves allowed)");
    /* threshold W+6.5: a board where White is 7 ahead is White's by 0.5 */
    assert_string_equal(gs_ok(e, "tengen-predictions W+7 W+6"), "W+6.5 white");
    gs_ok(e, "clear_board");
    play_wall(e);
    assert_string_equal(gs_ok(e, "final_score"), "W+2.5"); /* 9 - 6.5 */
    tg_gtp_free(e);
}

/* Issue 49: a threshold of a quarter is met exactly (002 §5.5: the count
 * difference minus the threshold), not as the half point the komi rounds
 * it to: White 9 ahead against W+8.75 wins by 0.25, against W+9.25 loses
 * by 0.25.  A komi given afterwards replaces the threshold. */
static void test_F9_quarter_threshold_over_gtp(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    gs_ok(e, "tengen-rules free-opening");
    play_wall(e);
    assert_string_equal(gs_ok(e, "tengen-predictions W+8.5 W+9"), "W+8.75 black");
    assert_string_equal(gs_ok(e, "final_score"), "W+0.25");
    assert_string_equal(gs_ok(e, "tengen-predictions W+9.5 W+9"), "W+9.25 white");
    assert_string_equal(gs_ok(e, "final_score"), "B+0.25");
    gs_ok(e, "komi -8.5");
    assert_string_equal(gs_ok(e, "final_score"), "W+0.5");
    tg_gtp_free(e);
}

/* Issue 49: a count equal to the threshold is a draw, or under decide=yes
 * (002 §5.3.2) White's (the colour the threshold favours) with a margin of
 * 0: W+0, not W+0.5. */
static void test_F3_equal_count_decided_over_gtp(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    gs_ok(e, "tengen-rules free-opening");
    play_wall(e);
    assert_string_equal(gs_ok(e, "tengen-predictions W+9 W+9"), "W+9 white");
    assert_string_equal(gs_ok(e, "final_score"), "0");
    gs_ok(e, "tengen-rules decide=yes");
    assert_string_equal(gs_ok(e, "final_score"), "W+0");
    gs_ok(e, "tengen-rules free-opening decide=yes");
    assert_string_equal(gs_ok(e, "tengen-predictions W+9 W+9"), "W+9 white");
    assert_string_equal(gs_ok(e, "final_score"), "W+0");
    tg_gtp_free(e);
}

/* Issue 49: printsgf records the predictions (PF, PS, FC) as the referee
 * and the server do, and only once they are revealed. */
static void test_F7_record_over_gtp(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    gs_ok(e, "tengen-rules free-opening");
    const char *stones[4] = {"play w E5", "play b C3", "play w G7", "play b C7"};
    for (int i = 0; i < 4; i++)
        gs_ok(e, stones[i]);
    assert_null(strstr(gs_ok(e, "printsgf"), "PF["));
    assert_string_equal(gs_ok(e, "tengen-predictions W+8.5 W+9"), "W+8.75 black");
    const char *sgf = gs_ok(e, "printsgf");
    assert_non_null(strstr(sgf, "RU[free-opening]"));
    assert_non_null(strstr(sgf, "PF[W+8.5]PS[W+9]FC[B]"));
    gs_ok(e, "komi 0"); /* no threshold now: no predictions */
    assert_null(strstr(gs_ok(e, "printsgf"), "PF["));
    tg_gtp_free(e);
}

/* Issue 49: no undo reaches an opening stone (002 §2.4: placed stones
 * never move; the predictions stand on them); a move after them is taken
 * back as any other. */
static void test_F2_undo_over_gtp(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    gs_ok(e, "tengen-rules free-opening");
    gs_ok(e, "play w E5");
    gs_refused_unchanged(e, "undo", "cannot undo");
    gs_ok(e, "play b C3");
    gs_ok(e, "play w G7");
    gs_ok(e, "play b C7");
    gs_refused_unchanged(e, "undo", "cannot undo");
    gs_ok(e, "tengen-predictions W+8.5 W+9");
    gs_ok(e, "play w D4");
    gs_ok(e, "undo");
    gs_refused_unchanged(e, "undo", "cannot undo");
    assert_int_equal(gs_count_words(gs_ok(e, "list_stones white")), 2);
    tg_gtp_free(e);
}

static void test_F5_capture_choice_over_gtp(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(5);
    gs_ok(e, "tengen-rules free-opening opening=none");
    gs_ok(e, "clear_board");
    gs_ok(e, "set_free_handicap B1 B2 A3");
    gs_ok(e, "play w A2");
    gs_ok(e, "play w C1");
    gs_ok(e, "play w C2");
    gs_ok(e, "play w B3");
    gs_refused(e, "tengen-capture_own b D4", "illegal move"); /* no choice there */
    gs_ok(e, "tengen-capture_own b A1");
    assert_string_equal(gs_ok(e, "list_stones black"), "A3");
    assert_string_equal(gs_ok(e, "captures white"), "3");
    tg_gtp_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_F2_opening_over_gtp),
        cmocka_unit_test(test_F3_F9_predictions_over_gtp),
        cmocka_unit_test(test_F9_quarter_threshold_over_gtp),
        cmocka_unit_test(test_F3_equal_count_decided_over_gtp),
        cmocka_unit_test(test_F7_record_over_gtp),
        cmocka_unit_test(test_F2_undo_over_gtp),
        cmocka_unit_test(test_F5_capture_choice_over_gtp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
