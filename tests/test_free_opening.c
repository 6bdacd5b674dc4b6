/*
 * test_free_opening.c — the free-opening ruleset's sealed predictions
 * (002 §5.3, RULES.md §4.3), its rules of play and its results stated
 * against the threshold (002 §5.5), named after the points of issue 43:
 * F1 White first, F2 the free opening, F3 with 002's three examples and
 * the GTP examples of tengen-predictions, F5 the capture choice and
 * suicide, F6 repetition loses, F7 disputes in turn, F9 with 002's
 * example 4; and issue 49's: a threshold of a quarter stated exactly, a
 * count equal to the threshold under decide=yes, no undo of an opening
 * stone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tengen/control.h"
#include "tengen/free_opening.h"
#include "tengen/sgf.h"

static tg_game *free_game(int size, const char *extra)
{
    tg_rules r;
    tg_rules_default(&r);
    assert_int_equal(tg_rules_apply(&r, "free-opening", NULL, 0), TG_OK);
    if (extra)
        assert_int_equal(tg_rules_apply(&r, extra, NULL, 0), TG_OK);
    tg_game *g = tg_game_new(size, &r);
    assert_non_null(g);
    return g;
}

static tg_point at(const tg_game *g, const char *v)
{
    tg_point p;
    assert_int_equal(tg_vertex_parse(tg_game_board(g), v, &p), TG_OK);
    return p;
}

static void setup(tg_game *g, const char *black, const char *white)
{
    char buf[128];
    for (int pass = 0; pass < 2; pass++) {
        snprintf(buf, sizeof buf, "%s", pass ? white : black);
        for (char *save = NULL, *v = strtok_r(buf, " ", &save); v; v = strtok_r(NULL, " ", &save))
            assert_int_equal(tg_game_setup(g, at(g, v), pass ? TG_WHITE : TG_BLACK), TG_OK);
    }
}

/* F1: White moves first; the preset reads back by its name. */
static void test_F1_white_first(void **state)
{
    (void)state;
    tg_game *g = free_game(9, NULL);
    assert_int_equal(tg_game_to_move(g), TG_WHITE);
    assert_int_equal(tg_game_play(g, TG_BLACK, at(g, "E5"), 0), TG_ERR_WRONG_PLAYER);
    assert_int_equal(tg_game_play(g, TG_WHITE, at(g, "E5"), 0), TG_OK);
    char ru[128];
    tg_rules_to_sgf(tg_game_rules(g), ru, sizeof ru);
    assert_string_equal(ru, "free-opening");
    tg_rules back;
    assert_int_equal(tg_rules_from_sgf(&back, ru), TG_OK);
    assert_true(back.white_first && back.capture_choice && back.repetition_loses);
    tg_game_free(g);
    /* every other preset: Black first, as before */
    tg_rules chinese;
    tg_rules_default(&chinese);
    assert_false(chinese.white_first || chinese.free_opening || chinese.capture_choice);
}

/* F2: the opening's four stones go anywhere, W B W B, with no pass. */
static void test_F2_free_opening_no_pass(void **state)
{
    (void)state;
    /* 002 §5.2: stones 1 and 4 the first player's, 2 and 3 the second's; W B W B */
    const int placer[4] = {0, 1, 1, 0};
    const tg_color colour[4] = {TG_WHITE, TG_BLACK, TG_WHITE, TG_BLACK};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(tg_opening_placer(i), placer[i]);
        assert_int_equal(tg_opening_colour(i), colour[i]);
    }
    tg_game *g = free_game(9, NULL);
    const char *stones[4] = {"A1", "J9", "E5", "B2"};
    for (int i = 0; i < 4; i++) {
        tg_color c = i % 2 ? TG_BLACK : TG_WHITE;
        assert_int_equal(tg_game_play(g, c, TG_PASS, 0), TG_ERR_NOT_ALLOWED);
        assert_int_equal(tg_game_play(g, c, at(g, stones[i]), 0), TG_OK);
    }
    assert_int_equal(tg_game_play(g, TG_WHITE, TG_PASS, 0), TG_OK); /* a request to end */
    assert_int_equal(tg_game_play(g, TG_BLACK, TG_PASS, 0), TG_OK); /* agreed */
    assert_true(tg_game_over(g));
    tg_game_free(g);
}

/* F5: both sides' chains without liberties: by default the opponent's go;
 * by the capture choice the mover's own go, and the opponent's live again.
 * Suicide of one stone or many is legal. */
static void test_F5_capture_choice_and_suicide(void **state)
{
    (void)state;
    tg_game *g = free_game(5, "opening=none");
    setup(g, "B1 B2 A3", "A2 C1 C2 B3");
    tg_game_set_to_move(g, TG_BLACK);
    tg_game *copy = tg_game_clone(g);
    assert_int_equal(tg_game_play(g, TG_BLACK, at(g, "A1"), 0), TG_OK);
    assert_int_equal(tg_board_at(tg_game_board(g), at(g, "A2")), TG_EMPTY); /* White's stone went */
    assert_int_equal(tg_game_play(copy, TG_BLACK, at(copy, "A1"), TG_PLAY_CAPTURE_OWN), TG_OK);
    const tg_board *b = tg_game_board(copy);
    assert_int_equal(tg_board_at(b, at(copy, "A1")), TG_EMPTY);
    assert_int_equal(tg_board_at(b, at(copy, "B1")), TG_EMPTY);
    assert_int_equal(tg_board_at(b, at(copy, "B2")), TG_EMPTY);
    assert_int_equal(tg_board_at(b, at(copy, "A2")), TG_WHITE);
    assert_int_equal(b->captures[TG_WHITE], 3);
    assert_true(tg_board_consistent(b));
    assert_true(tg_game_move_captured_own(copy, 0));
    assert_int_equal(tg_game_undo(copy), TG_OK); /* and back */
    assert_int_equal(tg_board_at(tg_game_board(copy), at(copy, "B2")), TG_BLACK);
    assert_int_equal(tg_board_at(tg_game_board(copy), at(copy, "A1")), TG_EMPTY);
    assert_int_equal(tg_board_at(tg_game_board(copy), at(copy, "A2")), TG_WHITE);
    /* the move as text, for every front end: "VERTEX own" where the choice may be named */
    tg_point p;
    unsigned flags;
    assert_int_equal(tg_move_parse(b, " a1  own ", true, &p, &flags), TG_OK);
    assert_true(p == at(copy, "A1") && flags == TG_PLAY_CAPTURE_OWN);
    assert_int_equal(tg_move_parse(b, "A1", true, &p, &flags), TG_OK);
    assert_int_equal(flags, 0);
    assert_int_equal(tg_move_parse(b, "A1 own", false, &p, &flags), TG_ERR_PARSE);
    assert_int_equal(tg_move_parse(b, "A1 own now", true, &p, &flags), TG_ERR_PARSE);
    assert_int_equal(tg_move_parse(b, "Z9 own", true, &p, &flags), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_move_parse(b, "resign", true, &p, &flags), TG_ERR_PARSE);
    /* no choice where only one side is dead */
    assert_int_equal(tg_game_check(copy, TG_BLACK, at(copy, "E5"), TG_PLAY_CAPTURE_OWN), TG_ERR_NOT_ALLOWED);
    /* a single-stone suicide: the stone leaves, the board is as before */
    tg_game *s = free_game(5, "opening=none");
    setup(s, "", "A2 B1");
    tg_game_set_to_move(s, TG_BLACK);
    assert_int_equal(tg_game_play(s, TG_BLACK, at(s, "A1"), 0), TG_OK);
    assert_int_equal(tg_board_at(tg_game_board(s), at(s, "A1")), TG_EMPTY);
    assert_int_equal(tg_game_board(s)->captures[TG_WHITE], 1);
    /* under the Chinese rules the same move is a forbidden point */
    tg_rules chinese;
    tg_rules_default(&chinese);
    tg_game *c = tg_game_new(5, &chinese);
    setup(c, "", "A2 B1");
    assert_int_equal(tg_game_play(c, TG_BLACK, at(c, "A1"), 0), TG_ERR_SUICIDE);
    assert_int_equal(tg_game_check(c, TG_BLACK, at(c, "A1"), TG_PLAY_CAPTURE_OWN), TG_ERR_SUICIDE);
    tg_game_free(c);
    tg_game_free(s);
    tg_game_free(copy);
    tg_game_free(g);
}

/* F6: a move that makes the opponent face a position seen before loses at
 * once (the ko retake here), whatever the illegal-move policy. */
static void test_F6_repetition_loses(void **state)
{
    (void)state;
    tg_game *g = free_game(5, "opening=none");
    setup(g, "B3 A2 B1", "C3 B2 D2 C1");
    tg_game_set_to_move(g, TG_BLACK);
    tg_control ctl;
    tg_control_init(&ctl, g);
    tg_control_outcome out;
    assert_int_equal(tg_control_play(&ctl, TG_BLACK, at(g, "C2"), 0, &out), TG_OK);
    assert_int_equal(out.action, TG_ACTION_PLAYED);
    /* the capture choice at the ko's point retakes nothing and repeats
     * nothing: White's stone goes, Black's C2 stays, Black to move */
    tg_game *choice = tg_game_clone(g);
    assert_int_equal(tg_game_play(choice, TG_WHITE, at(g, "B2"), TG_PLAY_CAPTURE_OWN), TG_OK);
    assert_int_equal(tg_board_at(tg_game_board(choice), at(g, "B2")), TG_EMPTY);
    assert_int_equal(tg_board_at(tg_game_board(choice), at(g, "C2")), TG_BLACK);
    assert_int_equal(tg_game_to_move(choice), TG_BLACK);
    /* and Black may then connect at B2 */
    assert_int_equal(tg_game_check(choice, TG_BLACK, at(g, "B2"), 0), TG_OK);
    tg_game_free(choice);
    assert_int_equal(tg_control_play(&ctl, TG_WHITE, at(g, "B2"), 0, &out), TG_OK);
    assert_int_equal(out.action, TG_ACTION_FORFEIT);
    assert_int_equal(tg_game_result(g)->kind, TG_RESULT_FORFEIT);
    assert_int_equal(tg_game_result(g)->winner, TG_BLACK);
    tg_game_free(g);
    /* under the Chinese rules online (reject), the same retake is refused */
    tg_rules r;
    tg_rules_default(&r);
    tg_rules_apply(&r, "illegal=reject", NULL, 0);
    g = tg_game_new(5, &r);
    setup(g, "B3 A2 B1", "C3 B2 D2 C1");
    tg_control_init(&ctl, g);
    tg_control_play(&ctl, TG_BLACK, at(g, "C2"), 0, &out);
    tg_control_play(&ctl, TG_WHITE, at(g, "B2"), 0, &out);
    assert_int_equal(out.action, TG_ACTION_REJECTED);
    tg_game_free(g);
}

/* F7: a disagreement on dead stones resumes play in turn order (002 §6.3),
 * not with the claimer of "dead" as C9 has it. */
static void test_F7_dispute_resumes_in_turn(void **state)
{
    (void)state;
    for (int free = 0; free < 2; free++) {
        tg_game *g = free ? free_game(9, NULL) : free_game(9, "chinese first=white");
        const char *stones[4] = {"E5", "C3", "G7", "C7"};
        tg_control ctl;
        tg_control_init(&ctl, g);
        tg_control_outcome out;
        for (int i = 0; i < 4; i++)
            tg_control_play(&ctl, i % 2 ? TG_BLACK : TG_WHITE, at(g, stones[i]), 0, &out);
        tg_control_play(&ctl, TG_WHITE, TG_PASS, 0, &out);
        tg_control_play(&ctl, TG_BLACK, TG_PASS, 0, &out);
        assert_int_equal(out.phase, TG_PHASE_AGREEMENT);
        uint8_t black_says[TG_MAX_POINTS] = {0};
        black_says[at(g, "E5")] = 1; /* Black claims White's E5 dead; White does not */
        tg_control_state_dead(&ctl, TG_BLACK, black_says, 0, NULL);
        tg_control_phase phase;
        tg_control_state_dead(&ctl, TG_WHITE, NULL, 0, &phase);
        assert_int_equal(phase, TG_PHASE_PLAY);
        /* in turn: White (Black passed last); by C9: Black, the claimer */
        assert_int_equal(tg_game_to_move(g), free ? TG_WHITE : TG_BLACK);
        tg_game_free(g);
    }
}

static int pred(const char *text)
{
    int v;
    assert_int_equal(tg_prediction_parse(text, &v), TG_OK);
    return v;
}

static void decide(const char *first, const char *second, const char *threshold, bool first_white)
{
    tg_predictions p;
    tg_predictions_decide(pred(first), pred(second), &p);
    char buf[32];
    tg_threshold_format(p.threshold4, buf, sizeof buf);
    assert_string_equal(buf, threshold);
    assert_int_equal(p.first_takes_white, first_white);
}

/* 002 example 1: W+7 and W+6 -> the first (who said 7) takes White, and
 * White must end more than 6.5 ahead (White 183.75 of 361). */
static void test_F3_example1(void **state)
{
    (void)state;
    decide("W+7", "W+6", "W+6.5", true);
}

/* 002 example 2: W+7 and B+6 -> W+0.5 (White 180.75). */
static void test_F3_example2(void **state)
{
    (void)state;
    decide("W+7", "B+6", "W+0.5", true);
}

/* 002 example 3: both W+7 -> W+7, and the first player takes White. */
static void test_F3_example3_equal(void **state)
{
    (void)state;
    decide("W+7", "W+7", "W+7", true);
}

/* The issue's tengen-predictions examples. */
static void test_F3_gtp_examples(void **state)
{
    (void)state;
    decide("W+7", "W+6", "W+6.5", true);
    decide("W+6", "W+7", "W+6.5", false);
    decide("B+2", "W+1", "B+0.5", false);
    decide("0", "0", "0", true);
    decide("W+6.5", "W+6", "W+6.25", true);
    decide("B+1", "W+1", "0", false);
}

static void test_F3_prediction_syntax(void **state)
{
    (void)state;
    assert_int_equal(pred("W+7"), 14);
    assert_int_equal(pred("b+6"), -12);
    assert_int_equal(pred("W+6.5"), 13);
    assert_int_equal(pred("W+6.0"), 12);
    assert_int_equal(pred("0"), 0);
    const char *bad[] = {"", "7", "W7", "W+", "W+6.25", "W+6.", "W+-1", "X+1", "W+1001", "W+ 1", "W+1x", "B+0.7"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int v;
        assert_int_equal(tg_prediction_parse(bad[i], &v), TG_ERR_PARSE);
    }
    /* an engine's answer: tengen-predict's, or final_score's at komi 0 */
    int v = 99;
    assert_int_equal(tg_prediction_from_engine("W+7", &v), TG_OK);
    assert_int_equal(v, 14);
    assert_int_equal(tg_prediction_from_engine("B+3.5", &v), TG_OK);
    assert_int_equal(v, -7);
    assert_int_equal(tg_prediction_from_engine("0", &v), TG_OK);
    assert_int_equal(v, 0);
    assert_int_equal(tg_prediction_from_engine("W+0.5", &v), TG_OK);
    assert_int_equal(v, 1);
    v = 99;
    assert_int_equal(tg_prediction_from_engine("W+R", &v), TG_ERR_PARSE);
    assert_int_equal(tg_prediction_from_engine("B+2000.5", &v), TG_ERR_PARSE);
    assert_int_equal(tg_prediction_from_engine("resign", &v), TG_ERR_PARSE);
    assert_int_equal(v, 99);
    char buf[16];
    tg_prediction_format(-13, buf, sizeof buf);
    assert_string_equal(buf, "B+6.5");
    tg_prediction_format(14, buf, sizeof buf);
    assert_string_equal(buf, "W+7");
}

/* 002 example 4: threshold W+6.5, White ends 7 ahead: "White wins by 0.5
 * stone", 白0.5子胜; exactly at the threshold a draw, or under a decisive
 * competition a win for White; below it Black wins. */
static void test_F9_example4(void **state)
{
    (void)state;
    int by4;
    char buf[64];
    tg_color w = tg_threshold_verdict(26, 14, false, &by4);
    assert_int_equal(w, TG_WHITE);
    assert_int_equal(by4, 2);
    tg_threshold_result_text(w, by4, false, buf, sizeof buf);
    assert_string_equal(buf, "White wins by 0.5 stone");
    tg_threshold_result_text(w, by4, true, buf, sizeof buf);
    assert_string_equal(buf, "白0.5子胜");
    /* a threshold of W+7 met exactly */
    assert_int_equal(tg_threshold_verdict(28, 14, false, &by4), TG_EMPTY);
    tg_threshold_result_text(TG_EMPTY, 0, true, buf, sizeof buf);
    assert_string_equal(buf, "和");
    assert_int_equal(tg_threshold_verdict(28, 14, true, &by4), TG_WHITE);
    assert_int_equal(tg_threshold_verdict(-8, -4, true, &by4), TG_BLACK); /* B+2 met exactly */
    w = tg_threshold_verdict(26, 10, false, &by4); /* White only 5 ahead */
    assert_int_equal(w, TG_BLACK);
    tg_threshold_result_text(w, by4, false, buf, sizeof buf);
    assert_string_equal(buf, "Black wins by 1.5 stones");
}

/* The komi that counts against a threshold decides every count as the
 * verdict does: for every threshold in quarter stones and every whole
 * difference on the board, with and without decide=yes. */
static void test_F3_threshold_komi_agrees_with_the_verdict(void **state)
{
    (void)state;
    for (int decisive = 0; decisive <= 1; decisive++)
        for (int t4 = -60; t4 <= 60; t4++)
            for (int d = -20; d <= 20; d++) {
                int by4;
                tg_color want = tg_threshold_verdict(t4, 2 * d, decisive, &by4);
                int margin2 = 2 * d + tg_threshold_komi2_decisive(t4, decisive);
                tg_color got = margin2 > 0 ? TG_WHITE : margin2 < 0 ? TG_BLACK : TG_EMPTY;
                if (got != want)
                    fail_msg("threshold %d/4, difference %d, decisive %d: komi gives %d, verdict %d", t4, d,
                             decisive, got, want);
            }
    tg_rules r;
    tg_rules_default(&r);
    assert_int_equal(tg_rules_apply(&r, "free-opening decide=yes", NULL, 0), TG_OK);
    assert_true(r.decisive);
    char text[256];
    tg_rules_describe(&r, text, sizeof text);
    assert_non_null(strstr(text, "decide=yes"));
    tg_rules_to_sgf(&r, text, sizeof text);
    assert_string_not_equal(text, "free-opening"); /* not the preset any more */
    tg_rules back;
    tg_rules_default(&back);
    assert_int_equal(tg_rules_apply(&back, text, NULL, 0), TG_OK);
    assert_true(back.decisive);
}

/* A referee's statement of a free-opening count is against the threshold;
 * every other ruleset keeps its wording in stones of two points. */
static void test_F9_result_stated(void **state)
{
    (void)state;
    tg_rules fo, chinese;
    tg_rules_preset(&fo, "free-opening");
    tg_rules_default(&chinese);
    tg_result r = {TG_RESULT_SCORE, TG_WHITE, 2}; /* half a point, in quarters */
    char buf[64];
    tg_result_stated(&fo, &r, false, buf, sizeof buf);
    assert_string_equal(buf, "White wins by 0.5 stone");
    tg_result_stated(&chinese, &r, false, buf, sizeof buf);
    assert_string_equal(buf, "White wins by ¼ stone");
    tg_result draw = {TG_RESULT_SCORE, TG_EMPTY, 0};
    tg_result_stated(&fo, &draw, true, buf, sizeof buf);
    assert_string_equal(buf, "和");
    tg_result resign = {TG_RESULT_RESIGN, TG_BLACK, 0};
    tg_result_stated(&fo, &resign, false, buf, sizeof buf);
    assert_string_equal(buf, "Black wins by resignation");
}

/* The result of a count once the predictions are revealed: `lead2` is
 * Black's lead in half points; RE and the statements in both languages. */
static void expect_count(const char *rules, int first2, int second2, int lead2, const char *re,
                         const char *english, const char *chinese)
{
    tg_rules r;
    tg_rules_default(&r);
    assert_int_equal(tg_rules_apply(&r, rules, NULL, 0), TG_OK);
    tg_rules_reveal(&r, first2, second2);
    tg_result res = tg_result_of_count(&r, lead2);
    char buf[64];
    tg_result_to_sgf(&res, buf, sizeof buf);
    assert_string_equal(buf, re);
    tg_result_stated(&r, &res, false, buf, sizeof buf);
    assert_string_equal(buf, english);
    tg_result_stated(&r, &res, true, buf, sizeof buf);
    assert_string_equal(buf, chinese);
    tg_result back;
    assert_int_equal(tg_result_from_sgf(re, &back), TG_OK);
    assert_int_equal(back.winner, res.winner);
    assert_int_equal(back.margin4, res.margin4);
}

/* F9 (issue 49): a threshold of a quarter stone: the margin is the count
 * difference minus the threshold exactly (002 §5.5), not the half stone
 * the komi rounds it to: B+6.75 with Black 7 ahead is Black's by 1/4. */
static void test_F9_quarter_threshold(void **state)
{
    (void)state;
    expect_count("free-opening", -13, -14, 14, "B+0.25", "Black wins by ¼ stone", "黑1/4子胜");
    expect_count("free-opening", 29, 30, -98, "W+34.25", "White wins by 34¼ stones", "白34又1/4子胜");
    expect_count("free-opening", 8, 9, -18, "W+4.75", "White wins by 4¾ stones", "白4又3/4子胜");
    expect_count("free-opening", 8, 9, -8, "B+0.25", "Black wins by ¼ stone", "黑1/4子胜");
    /* halves as 002's example 4 writes them */
    expect_count("free-opening", 14, 12, -14, "W+0.5", "White wins by 0.5 stone", "白0.5子胜");
    /* the komi still decides as the threshold does, for the engine and KM */
    tg_rules r;
    tg_rules_preset(&r, "free-opening");
    tg_rules_reveal(&r, -13, -14);
    assert_int_equal(r.komi2, 13);
    assert_true(r.revealed);
}

/* F3 (issue 49): a count equal to the threshold is a draw; under
 * decide=yes (002 §5.3.2) a win for the colour the threshold favours with
 * a margin of 0, written W+0 (White wins, by nothing), not W+0.5. */
static void test_F3_equal_count_decided(void **state)
{
    (void)state;
    expect_count("free-opening", 14, 14, -14, "0", "Draw", "和");
    expect_count("free-opening decide=yes", 14, 14, -14, "W+0", "White wins by 0 stones", "白0子胜");
    expect_count("free-opening decide=yes", -4, -4, 4, "B+0", "Black wins by 0 stones", "黑0子胜");
    expect_count("free-opening decide=yes", 0, 0, 0, "W+0", "White wins by 0 stones", "白0子胜");
    expect_count("free-opening decide=yes", 14, 14, -16, "W+1", "White wins by 1 stone", "白1子胜");
    /* a komi given afterwards replaces the threshold; decide= moves the komi */
    tg_rules r;
    tg_rules_preset(&r, "free-opening");
    tg_rules_reveal(&r, 14, 14);
    assert_int_equal(r.komi2, -14);
    assert_int_equal(tg_rules_apply(&r, "decide=yes", NULL, 0), TG_OK);
    assert_true(r.revealed);
    assert_int_equal(r.komi2, -13);
    assert_int_equal(tg_rules_apply(&r, "komi=5", NULL, 0), TG_OK);
    assert_false(r.revealed);
    tg_result res = tg_result_of_count(&r, 0);
    assert_int_equal(res.winner, TG_WHITE);
    assert_int_equal(res.margin4, 20);
}

/* F2 (issue 49, 002 §2.4): no undo reaches an opening stone; a move
 * after them is taken back as any other. */
static void test_F2_undo_never_reaches_the_opening(void **state)
{
    (void)state;
    tg_game *g = free_game(9, NULL);
    assert_int_equal(tg_game_undo(g), TG_ERR_NOT_ALLOWED);
    const char *stones[5] = {"A1", "J9", "E5", "B2", "C3"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(tg_game_play(g, i % 2 ? TG_BLACK : TG_WHITE, at(g, stones[i]), 0), TG_OK);
        assert_int_equal(tg_game_undo(g), TG_ERR_NOT_ALLOWED);
        assert_int_equal(tg_game_move_count(g), i + 1);
    }
    assert_int_equal(tg_game_play(g, TG_WHITE, at(g, stones[4]), 0), TG_OK);
    assert_int_equal(tg_game_undo(g), TG_OK);
    assert_int_equal(tg_game_undo(g), TG_ERR_NOT_ALLOWED);
    assert_int_equal(tg_game_move_count(g), 4);
    tg_game_free(g);
    /* without the free opening, the first stone is taken back */
    g = free_game(9, "opening=none");
    assert_int_equal(tg_game_play(g, TG_WHITE, at(g, "A1"), 0), TG_OK);
    assert_int_equal(tg_game_undo(g), TG_OK);
    tg_game_free(g);
}

/* F4: the prediction time, a tenth of one player's time. */
static void test_F4_prediction_time(void **state)
{
    (void)state;
    const struct {
        const char *spec;
        int64_t ms;
    } cases[] = {
        {"none", 0},                 {"absolute:3600", 360000},  {"byoyomi:600+5x30", 75000},
        {"canadian:600+25/600", 120000}, {"fischer:300+10", 30000}, {"simple:10", 10000},
        {"absolute:60", 10000}, /* never under 10 s */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tg_time_control tc;
        char err[128];
        assert_int_equal(tg_time_control_parse(cases[i].spec, &tc, err, sizeof err), TG_OK);
        assert_int_equal(tg_prediction_time_ms(&tc), cases[i].ms);
    }
}

/* The record: RU[free-opening], the threshold as KM with its sign turned,
 * both predictions and the first player's colour, the capture choice on
 * its move; it reads back to the same game. */
static void test_F_sgf_record(void **state)
{
    (void)state;
    tg_game *g = free_game(5, NULL);
    const char *stones[4] = {"B1", "A2", "B2", "A3"};
    for (int i = 0; i < 4; i++)
        assert_int_equal(tg_game_play(g, i % 2 ? TG_BLACK : TG_WHITE, at(g, stones[i]), 0), TG_OK);
    tg_predictions p;
    tg_predictions_decide(14, 12, &p); /* W+7, W+6: W+6.5 */
    tg_rules r = *tg_game_rules(g);
    r.komi2 = -p.threshold4 / 2;
    tg_game_set_rules(g, &r);
    /* White's B1-B2-C1 and Black's A2-A3-B3 come to share one liberty, A1 */
    const char *more[8] = {"C1", "C2", "C3", "B3", "B4", "D1", "A4", "E5"};
    for (int i = 0; i < 8; i++)
        assert_int_equal(tg_game_play(g, i % 2 ? TG_BLACK : TG_WHITE, at(g, more[i]), 0), TG_OK);
    unsigned flags = TG_PLAY_CAPTURE_OWN;
    assert_int_equal(tg_game_play(g, TG_WHITE, at(g, "A1"), flags), TG_OK);
    assert_int_equal(tg_board_at(tg_game_board(g), at(g, "B2")), TG_EMPTY);
    assert_int_equal(tg_board_at(tg_game_board(g), at(g, "A2")), TG_BLACK);
    tg_sgf_info info;
    memset(&info, 0, sizeof info);
    info.main_time = -1;
    info.has_predictions = true;
    info.prediction_first2 = 14;
    info.prediction_second2 = 12;
    info.first_player = TG_WHITE;
    char *sgf = tg_sgf_save_game(g, &info);
    assert_non_null(sgf);
    assert_non_null(strstr(sgf, "RU[free-opening]"));
    assert_non_null(strstr(sgf, "KM[-6.5]"));
    assert_non_null(strstr(sgf, "PF[W+7]PS[W+6]FC[W]"));
    assert_non_null(strstr(sgf, "CC[own]"));
    tg_game *back = NULL;
    tg_sgf_info read;
    tg_sgf_error err;
    assert_int_equal(tg_sgf_load_game(sgf, strlen(sgf), -1, &back, &read, &err), TG_OK);
    assert_true(read.has_predictions);
    assert_int_equal(read.prediction_first2, 14);
    assert_int_equal(read.prediction_second2, 12);
    assert_int_equal(read.first_player, TG_WHITE);
    assert_int_equal(tg_game_move_count(back), tg_game_move_count(g));
    assert_int_equal(tg_game_board(back)->hash, tg_game_board(g)->hash);
    assert_true(tg_game_move_captured_own(back, 12));
    assert_true(tg_game_rules(back)->white_first);
    assert_int_equal(tg_game_rules(back)->komi2, -13);
    free(sgf);
    tg_game_free(back);
    tg_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_F1_white_first),
        cmocka_unit_test(test_F2_free_opening_no_pass),
        cmocka_unit_test(test_F5_capture_choice_and_suicide),
        cmocka_unit_test(test_F6_repetition_loses),
        cmocka_unit_test(test_F7_dispute_resumes_in_turn),
        cmocka_unit_test(test_F3_example1),
        cmocka_unit_test(test_F3_example2),
        cmocka_unit_test(test_F3_example3_equal),
        cmocka_unit_test(test_F3_gtp_examples),
        cmocka_unit_test(test_F3_prediction_syntax),
        cmocka_unit_test(test_F9_example4),
        cmocka_unit_test(test_F_sgf_record),
        cmocka_unit_test(test_F3_threshold_komi_agrees_with_the_verdict),
        cmocka_unit_test(test_F9_result_stated),
        cmocka_unit_test(test_F9_quarter_threshold),
        cmocka_unit_test(test_F3_equal_count_decided),
        cmocka_unit_test(test_F2_undo_never_reaches_the_opening),
        cmocka_unit_test(test_F4_prediction_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
