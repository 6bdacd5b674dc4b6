/*
 * test_control.c — game control: nigiri (R1), the illegal-move policies
 * (R6: reject, void with warnings, lose), warnings (R7), the clock deciding
 * loss on time and the overtime pass (R2), pauses (R5), resignation, and
 * the end of the game: two passes, then the dead-stone agreement counted
 * with the warnings' penalty or play resumed by the claimant of "dead" (C9).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tengen/control.h"

typedef struct fixture {
    tg_game *game;
    tg_control ctl;
} fixture;

static fixture *new_fixture(const char *rules_text, int size)
{
    static fixture f;
    tg_rules rules;
    tg_rules_default(&rules);
    assert_int_equal(tg_rules_apply(&rules, rules_text, NULL, 0), TG_OK);
    f.game = tg_game_new(size, &rules);
    assert_non_null(f.game);
    tg_control_init(&f.ctl, f.game);
    return &f;
}

static tg_point at(const fixture *f, int x, int y) { return tg_point_at(tg_game_board(f->game), x, y); }

static tg_control_outcome play(fixture *f, tg_color color, tg_point p, int64_t now)
{
    tg_control_outcome out;
    assert_int_equal(tg_control_play(&f->ctl, color, p, now, &out), TG_OK);
    return out;
}

/* Setup stones: a ko in the lower left of a 5x5 board, Black to capture at
 * C2 (x 2, y 1), after which White's retake at B2 is the ko retake:
 *     . X O . .
 *     X O . O .
 *     . X O . .      */
static void setup_ko(fixture *f)
{
    static const int black[][2] = {{1, 2}, {0, 1}, {1, 0}};
    static const int white[][2] = {{2, 2}, {1, 1}, {2, 0}, {3, 1}};
    for (int i = 0; i < 3; i++)
        assert_int_equal(tg_game_setup(f->game, at(f, black[i][0], black[i][1]), TG_BLACK), TG_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(tg_game_setup(f->game, at(f, white[i][0], white[i][1]), TG_WHITE), TG_OK);
    tg_game_set_to_move(f->game, TG_BLACK);
}

static void destroy(fixture *f) { tg_game_free(f->game); }

/* ---- nigiri (R1) -------------------------------------------------------- */

static void test_nigiri_decide(void **state)
{
    (void)state;
    tg_nigiri n;
    assert_int_equal(tg_nigiri_decide(17, true, &n), TG_OK);
    assert_false(n.guess_right);
    assert_true(n.senior_black);
    assert_int_equal(tg_nigiri_decide(18, true, &n), TG_OK);
    assert_true(n.guess_right);
    assert_false(n.senior_black);
    assert_int_equal(tg_nigiri_decide(1, false, &n), TG_OK);
    assert_true(n.guess_right);
    assert_int_equal(tg_nigiri_decide(0, false, &n), TG_ERR_INVALID);
    char buf[128];
    tg_nigiri_decide(17, true, &n);
    tg_nigiri_format(&n, buf, sizeof buf);
    assert_string_equal(buf, "nigiri: 17 stones, guess even (wrong): the senior player takes Black");
}

static void test_nigiri_draw(void **state)
{
    (void)state;
    tg_rng a, b;
    tg_rng_seed(&a, 7);
    tg_rng_seed(&b, 7);
    int senior_black = 0, odd = 0;
    for (int i = 0; i < 400; i++) {
        tg_nigiri n, m;
        tg_nigiri_draw(&a, &n);
        tg_nigiri_draw(&b, &m);
        assert_memory_equal(&n, &m, sizeof n); /* recorded and reproducible from the seed */
        assert_true(n.stones >= 10 && n.stones <= 39);
        assert_true(n.guess_right == ((n.stones % 2 == 0) == n.guess_even));
        senior_black += n.senior_black;
        odd += n.stones % 2;
    }
    assert_true(senior_black > 140 && senior_black < 260);
    assert_true(odd > 140 && odd < 260);
}

/* ---- illegal moves (R6) and warnings (R7) ------------------------------- */

static void test_legal_moves_and_turns(void **state)
{
    (void)state;
    fixture *f = new_fixture("chinese", 5);
    tg_control_outcome out = play(f, TG_BLACK, at(f, 2, 2), 0);
    assert_int_equal(out.action, TG_ACTION_PLAYED);
    assert_int_equal(out.illegal, TG_OK);
    assert_int_equal(out.phase, TG_PHASE_PLAY);
    assert_int_equal(tg_game_to_move(f->game), TG_WHITE);
    tg_color bad = TG_EMPTY;
    assert_int_equal(tg_control_play(&f->ctl, bad, TG_PASS, 0, &out), TG_ERR_INVALID);
    destroy(f);
}

static void test_reject_policy(void **state)
{
    (void)state;
    fixture *f = new_fixture("aga", 5);
    setup_ko(f);
    play(f, TG_BLACK, at(f, 2, 1), 0); /* captures at B2 */
    tg_control_outcome out = play(f, TG_WHITE, at(f, 1, 1), 0);
    assert_int_equal(out.action, TG_ACTION_REJECTED);
    assert_true(out.illegal == TG_ERR_KO || out.illegal == TG_ERR_SUPERKO);
    assert_false(out.warning);
    assert_int_equal(tg_game_move_count(f->game), 1);
    assert_int_equal(tg_game_to_move(f->game), TG_WHITE);
    out = play(f, TG_BLACK, at(f, 4, 4), 0);
    assert_int_equal(out.action, TG_ACTION_REJECTED);
    assert_int_equal(out.illegal, TG_ERR_WRONG_PLAYER);
    assert_int_equal(f->ctl.warnings[TG_BLACK], 0);
    destroy(f);
}

static void test_void_policy_forbidden_point(void **state)
{
    (void)state;
    fixture *f = new_fixture("chinese", 5);
    assert_int_equal(tg_game_setup(f->game, at(f, 1, 0), TG_BLACK), TG_OK);
    assert_int_equal(tg_game_setup(f->game, at(f, 1, 1), TG_BLACK), TG_OK);
    assert_int_equal(tg_game_setup(f->game, at(f, 0, 1), TG_BLACK), TG_OK);
    tg_game_set_to_move(f->game, TG_WHITE);
    /* A1 (0,0) is surrounded by Black's B1 and A2: a forbidden point for White */
    tg_control_outcome out = play(f, TG_WHITE, at(f, 0, 0), 0);
    assert_int_equal(out.illegal, TG_ERR_SUICIDE);
    assert_int_equal(out.action, TG_ACTION_VOID_PASS);
    assert_false(out.warning);
    assert_int_equal(tg_game_move_count(f->game), 1);
    assert_int_equal(tg_game_move(f->game, 0)->point, TG_PASS);
    assert_int_equal(tg_game_to_move(f->game), TG_BLACK);
    /* an occupied point cannot hold a stone: refused even under void */
    out = play(f, TG_BLACK, at(f, 1, 1), 0);
    assert_int_equal(out.action, TG_ACTION_REJECTED);
    assert_int_equal(out.illegal, TG_ERR_OCCUPIED);
    destroy(f);
}

static void test_void_policy_ko_warnings(void **state)
{
    (void)state;
    fixture *f = new_fixture("chinese", 5);
    setup_ko(f);
    play(f, TG_BLACK, at(f, 2, 1), 0);
    tg_control_outcome out = play(f, TG_WHITE, at(f, 1, 1), 0);
    assert_int_equal(out.action, TG_ACTION_VOID_PASS);
    assert_true(out.warning);
    assert_int_equal(f->ctl.warnings[TG_WHITE], 1);
    assert_int_equal(tg_game_to_move(f->game), TG_BLACK);
    /* moving twice in a row: the second move is void with a warning, and the second warning loses */
    play(f, TG_BLACK, at(f, 4, 4), 0);
    out = play(f, TG_BLACK, at(f, 4, 3), 0);
    assert_int_equal(out.action, TG_ACTION_VOID);
    assert_true(out.warning);
    assert_int_equal(tg_game_to_move(f->game), TG_WHITE);
    assert_int_equal(tg_game_board(f->game)->color[at(f, 4, 3)], TG_EMPTY);
    out = play(f, TG_WHITE, at(f, 4, 2), 0);
    out = play(f, TG_WHITE, at(f, 4, 1), 0);
    assert_int_equal(out.action, TG_ACTION_FORFEIT);
    assert_int_equal(out.phase, TG_PHASE_OVER);
    const tg_result *r = tg_game_result(f->game);
    assert_int_equal(r->kind, TG_RESULT_FORFEIT);
    assert_int_equal(r->winner, TG_BLACK);
    assert_int_equal(tg_control_play(&f->ctl, TG_BLACK, TG_PASS, 0, &out), TG_ERR_GAME_OVER);
    destroy(f);
}

static void test_lose_policy(void **state)
{
    (void)state;
    fixture *f = new_fixture("japanese", 5);
    setup_ko(f);
    play(f, TG_BLACK, at(f, 2, 1), 0);
    tg_control_outcome out = play(f, TG_WHITE, at(f, 1, 1), 0);
    assert_int_equal(out.action, TG_ACTION_FORFEIT);
    assert_int_equal(out.illegal, TG_ERR_KO);
    char text[128];
    tg_control_result_text(&f->ctl, false, text, sizeof text);
    assert_string_equal(text, "B+F (Black wins by forfeit)");
    destroy(f);
}

static void test_ruling_warnings(void **state)
{
    (void)state;
    fixture *f = new_fixture("chinese", 5);
    assert_int_equal(tg_control_warn(&f->ctl, TG_BLACK), TG_OK);
    assert_int_equal(tg_control_phase_of(&f->ctl), TG_PHASE_PLAY);
    assert_int_equal(tg_control_warn(&f->ctl, TG_BLACK), TG_OK);
    assert_int_equal(tg_game_result(f->game)->winner, TG_WHITE);
    assert_int_equal(tg_control_warn(&f->ctl, TG_WHITE), TG_ERR_GAME_OVER);
    destroy(f);
}

/* ---- the clock ---------------------------------------------------------- */

static void use_clock(fixture *f, const char *spec, int64_t lag, int64_t now)
{
    tg_time_control tc;
    assert_int_equal(tg_time_control_parse(spec, &tc, NULL, 0), TG_OK);
    tg_control_set_clock(&f->ctl, &tc, lag);
    tg_control_start_clock(&f->ctl, now);
}

static void test_clock_charges_moves(void **state)
{
    (void)state;
    fixture *f = new_fixture("chinese", 9);
    use_clock(f, "absolute:10", 0, 1000);
    assert_int_equal(f->ctl.clock.running, TG_BLACK);
    play(f, TG_BLACK, at(f, 2, 2), 4000);
    assert_int_equal(f->ctl.clock.player[TG_BLACK].main_left_ms, 7000);
    assert_int_equal(f->ctl.clock.running, TG_WHITE);
    /* a refused move leaves the clock running */
    tg_control_outcome out = play(f, TG_WHITE, at(f, 2, 2), 5000);
    assert_int_equal(out.action, TG_ACTION_REJECTED);
    assert_int_equal(tg_clock_turn_used_ms(&f->ctl.clock, TG_WHITE, 5000), 1000);
    play(f, TG_WHITE, at(f, 3, 3), 6000);
    assert_int_equal(f->ctl.clock.player[TG_WHITE].main_left_ms, 8000);
    /* Black thinks past the deadline: the move comes too late and loses */
    out = play(f, TG_BLACK, at(f, 4, 4), 6000 + 7001);
    assert_int_equal(out.action, TG_ACTION_TIME_LOSS);
    assert_int_equal(tg_game_result(f->game)->kind, TG_RESULT_TIME);
    assert_int_equal(tg_game_result(f->game)->winner, TG_WHITE);
    assert_int_equal(tg_game_board(f->game)->color[at(f, 4, 4)], TG_EMPTY);
    assert_int_equal(f->ctl.clock.running, TG_EMPTY);
    destroy(f);
}

static void test_clock_tick(void **state)
{
    (void)state;
    fixture *f = new_fixture("chinese", 9);
    use_clock(f, "byoyomi:0+1x5,pass", 0, 0);
    tg_control_action action;
    assert_int_equal(tg_control_tick(&f->ctl, 5000, &action), TG_OK);
    assert_int_equal(action, TG_ACTION_PLAYED); /* nothing happened */
    assert_int_equal(tg_clock_deadline_ms(&f->ctl.clock, TG_BLACK), 5000);
    assert_int_equal(tg_control_tick(&f->ctl, 5001, &action), TG_OK);
    assert_int_equal(action, TG_ACTION_OVERTIME_PASS);
    assert_int_equal(tg_game_move(f->game, 0)->point, TG_PASS);
    assert_int_equal(f->ctl.clock.running, TG_WHITE);
    /* White's move arrives after its period: taken as a pass, which ends the game */
    tg_control_outcome out = play(f, TG_WHITE, at(f, 3, 3), 5001 + 5001);
    assert_int_equal(out.action, TG_ACTION_OVERTIME_PASS);
    assert_int_equal(out.phase, TG_PHASE_AGREEMENT);
    assert_int_equal(f->ctl.clock.running, TG_EMPTY);
    destroy(f);

    f = new_fixture("chinese", 9);
    use_clock(f, "simple:2", 0, 0);
    assert_int_equal(tg_control_tick(&f->ctl, 2001, &action), TG_OK);
    assert_int_equal(action, TG_ACTION_TIME_LOSS);
    assert_int_equal(tg_game_result(f->game)->winner, TG_WHITE);
    assert_int_equal(tg_control_tick(&f->ctl, 2002, &action), TG_ERR_GAME_OVER);
    destroy(f);
}

static void test_pause_in_control(void **state)
{
    (void)state;
    fixture *f = new_fixture("chinese", 9);
    use_clock(f, "absolute:10", 0, 0);
    tg_control_pause(&f->ctl, 1000);
    tg_control_resume(&f->ctl, 100000);
    tg_control_outcome out = play(f, TG_BLACK, at(f, 2, 2), 105000);
    assert_int_equal(out.action, TG_ACTION_PLAYED);
    assert_int_equal(f->ctl.clock.player[TG_BLACK].main_left_ms, 4000);
    destroy(f);
}

/* ---- resignation and the end (C9) --------------------------------------- */

static void test_resign(void **state)
{
    (void)state;
    fixture *f = new_fixture("chinese", 9);
    tg_control_outcome out = play(f, TG_BLACK, TG_RESIGN, 0);
    assert_int_equal(out.phase, TG_PHASE_OVER);
    assert_int_equal(tg_game_result(f->game)->kind, TG_RESULT_RESIGN);
    assert_int_equal(tg_game_result(f->game)->winner, TG_WHITE);
    destroy(f);
    /* in the agreement phase too */
    f = new_fixture("chinese", 9);
    play(f, TG_BLACK, TG_PASS, 0);
    play(f, TG_WHITE, TG_PASS, 0);
    assert_int_equal(tg_control_resign(&f->ctl, TG_WHITE), TG_OK);
    assert_int_equal(tg_control_phase_of(&f->ctl), TG_PHASE_OVER);
    assert_int_equal(tg_game_result(f->game)->winner, TG_BLACK);
    assert_int_equal(tg_control_resign(&f->ctl, TG_BLACK), TG_ERR_GAME_OVER);
    destroy(f);
}

/* 5x5: Black wall on column C (x 2), White on column D (x 3), a White stone
 * at A1 inside Black's area (dead), komi 0.5. */
static fixture *walled_game(const char *rules)
{
    fixture *f = new_fixture(rules, 5);
    for (int y = 0; y < 5; y++) {
        assert_int_equal(tg_game_setup(f->game, at(f, 2, y), TG_BLACK), TG_OK);
        assert_int_equal(tg_game_setup(f->game, at(f, 3, y), TG_WHITE), TG_OK);
    }
    assert_int_equal(tg_game_setup(f->game, at(f, 0, 0), TG_WHITE), TG_OK);
    tg_game_set_to_move(f->game, TG_BLACK);
    play(f, TG_BLACK, TG_PASS, 0);
    tg_control_outcome out = play(f, TG_WHITE, TG_PASS, 0);
    assert_int_equal(out.phase, TG_PHASE_AGREEMENT);
    return f;
}

static void test_agreement_counts(void **state)
{
    (void)state;
    fixture *f = walled_game("chinese komi=0.5");
    uint8_t dead[TG_MAX_POINTS] = {0};
    dead[at(f, 0, 0)] = 1;
    tg_control_phase phase;
    tg_control_outcome out;
    assert_int_equal(tg_control_play(&f->ctl, TG_BLACK, TG_PASS, 0, &out), TG_ERR_GAME_OVER);
    assert_int_equal(tg_control_state_dead(&f->ctl, TG_BLACK, dead, 0, &phase), TG_OK);
    assert_int_equal(phase, TG_PHASE_AGREEMENT);
    dead[at(f, 0, 0)] = 7; /* any non-zero value marks a dead stone */
    assert_int_equal(tg_control_state_dead(&f->ctl, TG_WHITE, dead, 0, &phase), TG_OK);
    assert_int_equal(phase, TG_PHASE_OVER);
    /* Black 15 points, White 10: B+4.5 */
    const tg_result *r = tg_game_result(f->game);
    assert_int_equal(r->kind, TG_RESULT_SCORE);
    assert_int_equal(r->winner, TG_BLACK);
    assert_int_equal(r->margin4, 18);
    char text[128];
    tg_control_result_text(&f->ctl, false, text, sizeof text);
    assert_string_equal(text, "B+4.5 (Black wins by 2¼ stones)");
    assert_int_equal(tg_control_state_dead(&f->ctl, TG_WHITE, dead, 0, &phase), TG_ERR_NOT_ALLOWED);
    destroy(f);
}

static void test_agreement_with_warning_penalty(void **state)
{
    (void)state;
    fixture *f = walled_game("chinese komi=0.5");
    tg_control_warn(&f->ctl, TG_BLACK); /* one stone: 2 points off Black's 15 */
    uint8_t dead[TG_MAX_POINTS] = {0};
    dead[at(f, 0, 0)] = 1;
    tg_control_phase phase;
    assert_int_equal(tg_control_concede(&f->ctl, TG_WHITE, 0, &phase), TG_ERR_NOT_ALLOWED);
    assert_int_equal(tg_control_state_dead(&f->ctl, TG_BLACK, dead, 0, &phase), TG_OK);
    /* R3: conceding the opponent's statement ends the game at once */
    assert_int_equal(tg_control_concede(&f->ctl, TG_WHITE, 0, &phase), TG_OK);
    assert_int_equal(phase, TG_PHASE_OVER);
    assert_int_equal(f->ctl.score.black2, 26);
    assert_int_equal(tg_game_result(f->game)->margin4, 10); /* B+2.5 */
    destroy(f);
}

static void test_disagreement_resumes_play(void **state)
{
    (void)state;
    fixture *f = walled_game("chinese");
    use_clock(f, "absolute:60", 0, 0);
    assert_int_equal(f->ctl.clock.running, TG_EMPTY); /* no clock runs during the agreement */
    uint8_t dead[TG_MAX_POINTS] = {0};
    dead[at(f, 0, 0)] = 1;
    tg_control_phase phase;
    assert_int_equal(tg_control_state_dead(&f->ctl, TG_BLACK, dead, 10, &phase), TG_OK);
    assert_int_equal(tg_control_state_dead(&f->ctl, TG_WHITE, NULL, 10, &phase), TG_OK);
    /* Black claims A1 dead: Black moves first, with the clock running */
    assert_int_equal(phase, TG_PHASE_PLAY);
    assert_int_equal(tg_game_to_move(f->game), TG_BLACK);
    assert_int_equal(f->ctl.clock.running, TG_BLACK);
    assert_false(f->ctl.stated[TG_BLACK]);
    tg_control_outcome out = play(f, TG_BLACK, at(f, 1, 0), 20);
    assert_int_equal(out.action, TG_ACTION_PLAYED);
    assert_int_equal(tg_game_board(f->game)->color[at(f, 1, 0)], TG_BLACK);
    assert_int_equal(f->ctl.clock.player[TG_BLACK].main_left_ms, 59990);
    assert_int_equal(f->ctl.clock.running, TG_WHITE);
    destroy(f);
}

static void test_disagreement_both_claim(void **state)
{
    (void)state;
    fixture *f = walled_game("chinese");
    uint8_t by_black[TG_MAX_POINTS] = {0}, by_white[TG_MAX_POINTS] = {0};
    by_black[at(f, 0, 0)] = 1;
    by_white[at(f, 2, 2)] = 1;
    tg_control_phase phase;
    tg_control_state_dead(&f->ctl, TG_WHITE, by_white, 0, &phase);
    tg_control_state_dead(&f->ctl, TG_BLACK, by_black, 0, &phase);
    assert_int_equal(phase, TG_PHASE_PLAY);
    assert_int_equal(tg_game_to_move(f->game), TG_BLACK); /* the side to move after the passes */
    destroy(f);

    f = walled_game("chinese");
    tg_control_state_dead(&f->ctl, TG_WHITE, by_white, 0, &phase);
    tg_control_state_dead(&f->ctl, TG_BLACK, NULL, 0, &phase);
    assert_int_equal(tg_game_to_move(f->game), TG_WHITE); /* White claims C3 dead */
    destroy(f);
}

static void test_not_in_agreement(void **state)
{
    (void)state;
    fixture *f = new_fixture("chinese", 9);
    tg_control_phase phase;
    assert_int_equal(tg_control_state_dead(&f->ctl, TG_BLACK, NULL, 0, &phase), TG_ERR_NOT_ALLOWED);
    assert_int_equal(tg_control_state_dead(&f->ctl, TG_EMPTY, NULL, 0, &phase), TG_ERR_INVALID);
    char text[16];
    tg_control_result_text(&f->ctl, false, text, sizeof text);
    assert_string_equal(text, "?");
    destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nigiri_decide),
        cmocka_unit_test(test_nigiri_draw),
        cmocka_unit_test(test_legal_moves_and_turns),
        cmocka_unit_test(test_reject_policy),
        cmocka_unit_test(test_void_policy_forbidden_point),
        cmocka_unit_test(test_void_policy_ko_warnings),
        cmocka_unit_test(test_lose_policy),
        cmocka_unit_test(test_ruling_warnings),
        cmocka_unit_test(test_clock_charges_moves),
        cmocka_unit_test(test_clock_tick),
        cmocka_unit_test(test_pause_in_control),
        cmocka_unit_test(test_resign),
        cmocka_unit_test(test_agreement_counts),
        cmocka_unit_test(test_agreement_with_warning_penalty),
        cmocka_unit_test(test_disagreement_resumes_play),
        cmocka_unit_test(test_disagreement_both_claim),
        cmocka_unit_test(test_not_in_agreement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
