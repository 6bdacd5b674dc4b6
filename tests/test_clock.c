/*
 * test_clock.c — the clock module to the millisecond: the --time SPEC and
 * the SGF TM/OT pair in both directions, then each time system (absolute R3,
 * byo-yomi R2 with the last-period-pass option, Canadian, moves-per-period
 * with carry-over R4, Fischer with a cap, simple, none), pauses (R5), the
 * lag allowance, the deadline, the views and the byo-yomi calls; and the
 * clock in a saved SGF (TM, OT, per-move BL WL OB OW) read back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tengen/clock.h"
#include "tengen/sgf.h"

static tg_time_control spec(const char *text)
{
    tg_time_control tc;
    char err[256] = "";
    if (tg_time_control_parse(text, &tc, err, sizeof err) != TG_OK)
        fail_msg("%s: %s", text, err);
    return tc;
}

static tg_clock clock_for(const char *text)
{
    tg_time_control tc = spec(text);
    tg_clock c;
    tg_clock_init(&c, &tc);
    return c;
}

/* One move of `color` lasting used_ms, starting at *now; returns the verdict. */
static tg_clock_verdict move(tg_clock *c, tg_color color, int64_t *now, int64_t used_ms)
{
    tg_clock_start(c, color, *now);
    *now += used_ms;
    return tg_clock_stop(c, color, *now);
}

static tg_clock_view view(const tg_clock *c, tg_color color, int64_t now)
{
    tg_clock_view v;
    tg_clock_view_of(c, color, now, &v);
    return v;
}

/* ---- the SPEC ----------------------------------------------------------- */

static void test_parse_every_form(void **state)
{
    (void)state;
    tg_time_control tc = spec("none");
    assert_int_equal(tc.system, TG_CLOCK_NONE);
    tc = spec("absolute:300");
    assert_int_equal(tc.system, TG_CLOCK_ABSOLUTE);
    assert_int_equal(tc.main_ms, 300000);
    tc = spec("byoyomi:600+5x30");
    assert_int_equal(tc.system, TG_CLOCK_BYOYOMI);
    assert_int_equal(tc.main_ms, 600000);
    assert_int_equal(tc.periods, 5);
    assert_int_equal(tc.period_ms, 30000);
    assert_false(tc.last_period_pass);
    tc = spec("byoyomi:0+1x0.5,pass");
    assert_int_equal(tc.main_ms, 0);
    assert_int_equal(tc.period_ms, 500);
    assert_true(tc.last_period_pass);
    tc = spec("canadian:600+25/600");
    assert_int_equal(tc.system, TG_CLOCK_CANADIAN);
    assert_int_equal(tc.stones, 25);
    assert_int_equal(tc.period_ms, 600000);
    tc = spec("periods:3600+15/600");
    assert_int_equal(tc.system, TG_CLOCK_PERIODS);
    assert_int_equal(tc.main_ms, 3600000);
    assert_int_equal(tc.stones, 15);
    tc = spec("fischer:300+10");
    assert_int_equal(tc.system, TG_CLOCK_FISCHER);
    assert_int_equal(tc.increment_ms, 10000);
    assert_int_equal(tc.cap_ms, 0);
    tc = spec("fischer:300+10max600");
    assert_int_equal(tc.cap_ms, 600000);
    tc = spec("simple:12.125");
    assert_int_equal(tc.system, TG_CLOCK_SIMPLE);
    assert_int_equal(tc.period_ms, 12125);
    tc = spec("SIMPLE:10,pass");
    assert_true(tc.last_period_pass);
}

static void test_parse_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "never", "none:3", "absolute", "absolute:", "absolute:0", "absolute:-5", "absolute:5s",
        "absolute:1.2345", "absolute:1.", "byoyomi:600", "byoyomi:600+5", "byoyomi:600+0x30",
        "byoyomi:600+5x0", "byoyomi:600+5x30,loss", "canadian:600+25", "canadian:600+0/600",
        "canadian:600+25/600,pass", "periods:3600+15/0", "fischer:300", "fischer:0+10",
        "fischer:300+10max200", "simple:0", "simple:10,", "absolute:99999999999",
        "byoyomi:600+1001x30",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tg_time_control tc = {.system = TG_CLOCK_FISCHER, .main_ms = 42};
        char err[256] = "";
        if (tg_time_control_parse(bad[i], &tc, err, sizeof err) != TG_ERR_PARSE)
            fail_msg("accepted '%s'", bad[i]);
        assert_true(strlen(err) > 10);
        assert_int_equal(tc.main_ms, 42); /* unchanged on error */
    }
    char err[256];
    tg_time_control tc;
    tg_time_control_parse("byoyomi:x", &tc, err, sizeof err);
    assert_non_null(strstr(err, "byoyomi:MAIN+NxPERIOD"));
    tg_time_control_parse("hourglass:5", &tc, err, sizeof err);
    assert_non_null(strstr(err, "unknown time system"));
}

static const char *const SPECS[] = {
    "none", "absolute:300", "byoyomi:600+5x30", "byoyomi:0+1x0.25,pass", "canadian:600+25/600",
    "periods:3600+15/600", "fischer:300+10", "fischer:300.5+0.01max600", "simple:10",
    "simple:1.5,pass",
};

static void test_format_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof SPECS / sizeof SPECS[0]; i++) {
        char buf[128], desc[256];
        tg_time_control tc = spec(SPECS[i]);
        tg_time_control_format(&tc, buf, sizeof buf);
        assert_string_equal(buf, SPECS[i]);
        tg_time_control_describe(&tc, desc, sizeof desc);
        assert_true(strlen(desc) > 4);
    }
    char desc[256];
    tg_time_control tc = spec("byoyomi:600+5x30,pass");
    tg_time_control_describe(&tc, desc, sizeof desc);
    assert_string_equal(desc, "600 s + 5 x 30 s byo-yomi, overrunning the last period is a pass");
}

static void test_sgf_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof SPECS / sizeof SPECS[0]; i++) {
        char ot[128], back[128];
        tg_time_control tc = spec(SPECS[i]), read;
        tg_time_control_to_sgf_ot(&tc, ot, sizeof ot);
        assert_int_equal(tg_time_control_from_sgf(tg_time_control_sgf_tm(&tc), ot, &read), TG_OK);
        tg_time_control_format(&read, back, sizeof back);
        assert_string_equal(back, SPECS[i]);
    }
    char ot[128];
    tg_time_control tc = spec("byoyomi:600+5x30");
    tg_time_control_to_sgf_ot(&tc, ot, sizeof ot);
    assert_string_equal(ot, "5x30 byo-yomi");
    tc = spec("canadian:600+25/600");
    tg_time_control_to_sgf_ot(&tc, ot, sizeof ot);
    assert_string_equal(ot, "25/600 Canadian");
}

static void test_sgf_from_other_programs(void **state)
{
    (void)state;
    tg_time_control tc;
    assert_int_equal(tg_time_control_from_sgf(1800, "3x30 Byo-Yomi", &tc), TG_OK);
    assert_int_equal(tc.system, TG_CLOCK_BYOYOMI);
    assert_int_equal(tc.main_ms, 1800000);
    assert_int_equal(tc.periods, 3);
    assert_int_equal(tc.period_ms, 30000);
    assert_int_equal(tg_time_control_from_sgf(0, "25/600 canadian", &tc), TG_OK);
    assert_int_equal(tc.system, TG_CLOCK_CANADIAN);
    assert_int_equal(tg_time_control_from_sgf(-1, NULL, &tc), TG_OK);
    assert_int_equal(tc.system, TG_CLOCK_NONE);
    assert_int_equal(tg_time_control_from_sgf(300, "", &tc), TG_OK);
    assert_int_equal(tc.system, TG_CLOCK_ABSOLUTE);
    assert_int_equal(tc.main_ms, 300000);
    assert_int_equal(tg_time_control_from_sgf(300, "sudden death by moonlight", &tc), TG_ERR_PARSE);
    assert_int_equal(tc.system, TG_CLOCK_NONE);
    assert_int_equal(tg_time_control_from_sgf(300, "5x30 hourglass", &tc), TG_ERR_PARSE);
    /* Fischer without main time cannot be played (the first move is late
     * before any increment): refused, as fischer:0+9 is (fuzz_text found
     * the reader taking what the spec refuses) */
    assert_int_equal(tg_time_control_from_sgf(300, "9 fischer", &tc), TG_OK);
    assert_int_equal(tc.increment_ms, 9000);
    assert_int_equal(tg_time_control_from_sgf(0, "9 fischer", &tc), TG_ERR_PARSE);
    assert_int_equal(tg_time_control_from_sgf(-1, "9 fischer", &tc), TG_ERR_PARSE);
    assert_int_equal(tc.system, TG_CLOCK_NONE);
}

/* ---- absolute (R3) ------------------------------------------------------ */

static void test_absolute(void **state)
{
    (void)state;
    tg_clock c = clock_for("absolute:10");
    int64_t now = 5000;
    assert_int_equal(move(&c, TG_BLACK, &now, 4000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].main_left_ms, 6000);
    assert_int_equal(c.player[TG_WHITE].main_left_ms, 10000); /* only the mover is charged */
    tg_clock_start(&c, TG_BLACK, now);
    assert_int_equal(tg_clock_deadline_ms(&c, TG_BLACK), now + 6000);
    assert_int_equal(tg_clock_deadline_ms(&c, TG_WHITE), INT64_MAX);
    assert_int_equal(tg_clock_check(&c, TG_BLACK, now + 6000), TG_CLOCK_OK);
    assert_int_equal(tg_clock_check(&c, TG_BLACK, now + 6001), TG_CLOCK_TIME_LOSS);
    assert_int_equal(tg_clock_check(&c, TG_WHITE, now + 60000), TG_CLOCK_OK); /* not running */
    assert_int_equal(tg_clock_stop(&c, TG_BLACK, now + 6001), TG_CLOCK_TIME_LOSS);
    assert_int_equal(view(&c, TG_BLACK, now + 9000).main_left_ms, 0);
    assert_int_equal(c.running, TG_EMPTY);
}

static void test_absolute_exactly_to_zero(void **state)
{
    (void)state;
    tg_clock c = clock_for("absolute:1");
    int64_t now = 0;
    assert_int_equal(move(&c, TG_WHITE, &now, 1000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_WHITE].main_left_ms, 0);
    assert_int_equal(move(&c, TG_WHITE, &now, 0), TG_CLOCK_OK);
    assert_int_equal(move(&c, TG_WHITE, &now, 1), TG_CLOCK_TIME_LOSS);
}

/* ---- byo-yomi (R2) ------------------------------------------------------ */

static void test_byoyomi_main_then_periods(void **state)
{
    (void)state;
    tg_clock c = clock_for("byoyomi:10+3x5");
    int64_t now = 0;
    assert_int_equal(move(&c, TG_BLACK, &now, 9000), TG_CLOCK_OK);
    tg_clock_view v = view(&c, TG_BLACK, now);
    assert_false(v.in_overtime);
    assert_int_equal(v.main_left_ms, 1000);
    /* main time runs out inside the move: 4 s into the first period uses none of it */
    assert_int_equal(move(&c, TG_BLACK, &now, 5000), TG_CLOCK_OK);
    v = view(&c, TG_BLACK, now);
    assert_true(v.in_overtime);
    assert_int_equal(v.main_left_ms, 0);
    assert_int_equal(v.periods_left, 3);
    assert_int_equal(v.period_left_ms, 5000);
    /* exactly the period: still inside it */
    assert_int_equal(move(&c, TG_BLACK, &now, 5000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].periods_left, 3);
    /* one millisecond over: that period is used up */
    assert_int_equal(move(&c, TG_BLACK, &now, 5001), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].periods_left, 2);
    assert_int_equal(c.player[TG_BLACK].period_left_ms, 5000);
    /* overrunning one period and moving in the next */
    tg_clock_start(&c, TG_BLACK, now);
    v = view(&c, TG_BLACK, now + 7000);
    assert_int_equal(v.periods_left, 1);
    assert_int_equal(v.period_left_ms, 3000);
    assert_int_equal(tg_clock_deadline_ms(&c, TG_BLACK), now + 10000);
    assert_int_equal(tg_clock_check(&c, TG_BLACK, now + 10000), TG_CLOCK_OK);
    assert_int_equal(tg_clock_check(&c, TG_BLACK, now + 10001), TG_CLOCK_TIME_LOSS);
    assert_int_equal(tg_clock_stop(&c, TG_BLACK, now + 7000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].periods_left, 1);
}

static void test_byoyomi_last_period_loses(void **state)
{
    (void)state;
    tg_clock c = clock_for("byoyomi:0+1x30");
    int64_t now = 100;
    for (int i = 0; i < 5; i++) /* every move inside the last period: never used up */
        assert_int_equal(move(&c, TG_WHITE, &now, 29999), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_WHITE].periods_left, 1);
    assert_int_equal(move(&c, TG_WHITE, &now, 30001), TG_CLOCK_TIME_LOSS);
    tg_clock_view v = view(&c, TG_WHITE, now + 5000);
    assert_int_equal(v.periods_left, 0);
    assert_int_equal(v.period_left_ms, 0);
    assert_int_equal(view(&c, TG_BLACK, now).period_left_ms, 30000);
}

static void test_byoyomi_last_period_pass(void **state)
{
    (void)state;
    tg_clock c = clock_for("byoyomi:1+2x5,pass");
    int64_t now = 0;
    tg_clock_start(&c, TG_BLACK, now);
    assert_int_equal(tg_clock_check(&c, TG_BLACK, 11000), TG_CLOCK_OK);
    assert_int_equal(tg_clock_check(&c, TG_BLACK, 11001), TG_CLOCK_OVERTIME_PASS);
    assert_int_equal(tg_clock_stop(&c, TG_BLACK, 11001), TG_CLOCK_OVERTIME_PASS);
    /* the player keeps the last period, fresh, for the next move */
    tg_clock_view v = view(&c, TG_BLACK, 11001);
    assert_int_equal(v.periods_left, 1);
    assert_int_equal(v.period_left_ms, 5000);
    now = 20000;
    assert_int_equal(move(&c, TG_BLACK, &now, 5000), TG_CLOCK_OK);
    assert_int_equal(move(&c, TG_BLACK, &now, 60000), TG_CLOCK_OVERTIME_PASS);
    assert_int_equal(c.player[TG_BLACK].periods_left, 1);
}

/* ---- Canadian and moves-per-period (R4) -------------------------------- */

static void test_canadian_block_resets(void **state)
{
    (void)state;
    tg_clock c = clock_for("canadian:5+3/10");
    int64_t now = 0;
    /* main time ends 5 s into a 7 s move: that move is the block's first stone */
    assert_int_equal(move(&c, TG_BLACK, &now, 7000), TG_CLOCK_OK);
    tg_clock_view v = view(&c, TG_BLACK, now);
    assert_true(v.in_overtime);
    assert_int_equal(v.period_left_ms, 8000);
    assert_int_equal(v.stones_left, 2);
    assert_int_equal(move(&c, TG_BLACK, &now, 1000), TG_CLOCK_OK);
    assert_int_equal(move(&c, TG_BLACK, &now, 1000), TG_CLOCK_OK);
    /* three stones made with 6 s to spare: a new block of 10 s, nothing carried over */
    assert_int_equal(c.player[TG_BLACK].stones_left, 3);
    assert_int_equal(c.player[TG_BLACK].period_left_ms, 10000);
    assert_int_equal(move(&c, TG_BLACK, &now, 4000), TG_CLOCK_OK);
    assert_int_equal(move(&c, TG_BLACK, &now, 4000), TG_CLOCK_OK);
    tg_clock_start(&c, TG_BLACK, now);
    assert_int_equal(tg_clock_deadline_ms(&c, TG_BLACK), now + 2000);
    assert_int_equal(tg_clock_stop(&c, TG_BLACK, now + 2001), TG_CLOCK_TIME_LOSS);
}

static void test_periods_carry_over(void **state)
{
    (void)state;
    tg_clock c = clock_for("periods:0+2/10");
    int64_t now = 0;
    assert_int_equal(move(&c, TG_WHITE, &now, 2000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_WHITE].stones_left, 1);
    assert_int_equal(move(&c, TG_WHITE, &now, 3000), TG_CLOCK_OK);
    /* 5 s saved in the first period are carried over: 15 s for the next two moves */
    assert_int_equal(c.player[TG_WHITE].stones_left, 2);
    assert_int_equal(c.player[TG_WHITE].period_left_ms, 15000);
    assert_int_equal(move(&c, TG_WHITE, &now, 14000), TG_CLOCK_OK);
    assert_int_equal(move(&c, TG_WHITE, &now, 1000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_WHITE].period_left_ms, 10000);
    assert_int_equal(move(&c, TG_WHITE, &now, 10001), TG_CLOCK_TIME_LOSS);
}

/* ---- Fischer, simple, none --------------------------------------------- */

static void test_fischer_increment_and_cap(void **state)
{
    (void)state;
    tg_clock c = clock_for("fischer:10+5max12");
    int64_t now = 0;
    assert_int_equal(move(&c, TG_BLACK, &now, 1000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].main_left_ms, 12000); /* 14 s capped at 12 */
    assert_int_equal(move(&c, TG_BLACK, &now, 9000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].main_left_ms, 8000);
    assert_int_equal(move(&c, TG_BLACK, &now, 8001), TG_CLOCK_TIME_LOSS);
    assert_int_equal(c.player[TG_BLACK].main_left_ms, 0); /* no increment after a loss */

    c = clock_for("fischer:10+5");
    now = 0;
    for (int i = 0; i < 4; i++)
        assert_int_equal(move(&c, TG_WHITE, &now, 1000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_WHITE].main_left_ms, 26000); /* no cap: grows */
}

static void test_simple(void **state)
{
    (void)state;
    tg_clock c = clock_for("simple:10");
    int64_t now = 0;
    for (int i = 0; i < 3; i++)
        assert_int_equal(move(&c, TG_BLACK, &now, 10000), TG_CLOCK_OK);
    tg_clock_view v = view(&c, TG_BLACK, now);
    assert_int_equal(v.period_left_ms, 10000);
    assert_int_equal(move(&c, TG_BLACK, &now, 10001), TG_CLOCK_TIME_LOSS);
    c = clock_for("simple:10,pass");
    assert_int_equal(move(&c, TG_BLACK, &now, 10001), TG_CLOCK_OVERTIME_PASS);
    assert_int_equal(move(&c, TG_BLACK, &now, 9000), TG_CLOCK_OK);
}

static void test_none(void **state)
{
    (void)state;
    tg_clock c = clock_for("none");
    int64_t now = 0;
    tg_clock_start(&c, TG_BLACK, now);
    assert_int_equal(tg_clock_deadline_ms(&c, TG_BLACK), INT64_MAX);
    assert_int_equal(tg_clock_check(&c, TG_BLACK, INT64_MAX / 2), TG_CLOCK_OK);
    assert_int_equal(move(&c, TG_BLACK, &now, 1000000000), TG_CLOCK_OK);
}

/* ---- pauses (R5), lag, switching ---------------------------------------- */

static void test_pause_stops_both_clocks(void **state)
{
    (void)state;
    tg_clock c = clock_for("absolute:10");
    tg_clock_start(&c, TG_BLACK, 0);
    tg_clock_pause(&c, 3000);
    tg_clock_pause(&c, 4000); /* a second pause changes nothing */
    assert_int_equal(tg_clock_deadline_ms(&c, TG_BLACK), INT64_MAX);
    assert_int_equal(tg_clock_check(&c, TG_BLACK, 500000), TG_CLOCK_OK);
    assert_int_equal(view(&c, TG_BLACK, 500000).main_left_ms, 7000);
    /* a turn that starts during the pause counts nothing either */
    tg_clock_resume(&c, 600000);
    tg_clock_resume(&c, 601000); /* already running: nothing */
    assert_int_equal(tg_clock_deadline_ms(&c, TG_BLACK), 607000);
    assert_int_equal(tg_clock_stop(&c, TG_BLACK, 602000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].main_left_ms, 5000);
    tg_clock_pause(&c, 610000);
    tg_clock_start(&c, TG_WHITE, 610000);
    assert_int_equal(tg_clock_check(&c, TG_WHITE, 900000), TG_CLOCK_OK);
    tg_clock_resume(&c, 900000);
    assert_int_equal(tg_clock_stop(&c, TG_WHITE, 901000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_WHITE].main_left_ms, 9000);
}

static void test_pause_inside_a_byoyomi_turn(void **state)
{
    (void)state;
    /* a turn is charged whole: 3 s, a pause, 3 s more overrun a 5 s period */
    tg_clock c = clock_for("byoyomi:0+2x5");
    tg_clock_start(&c, TG_BLACK, 0);
    tg_clock_pause(&c, 3000);
    tg_clock_resume(&c, 100000);
    assert_int_equal(tg_clock_turn_used_ms(&c, TG_BLACK, 103000), 6000);
    assert_int_equal(tg_clock_stop(&c, TG_BLACK, 103000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].periods_left, 1);
}

static void test_lag_allowance(void **state)
{
    (void)state;
    tg_clock c = clock_for("absolute:10");
    tg_clock_set_lag(&c, 500);
    tg_clock_start(&c, TG_BLACK, 0);
    assert_int_equal(tg_clock_deadline_ms(&c, TG_BLACK), 10500);
    assert_int_equal(tg_clock_check(&c, TG_BLACK, 10500), TG_CLOCK_OK);
    assert_int_equal(tg_clock_check(&c, TG_BLACK, 10501), TG_CLOCK_TIME_LOSS);
    /* excused, and charged as if made at the deadline */
    assert_int_equal(tg_clock_stop(&c, TG_BLACK, 10400), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].main_left_ms, 0);
    /* lag never saves an earlier byo-yomi period */
    c = clock_for("byoyomi:0+3x5");
    tg_clock_set_lag(&c, 500);
    int64_t now = 0;
    assert_int_equal(move(&c, TG_BLACK, &now, 5200), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].periods_left, 2);
}

static void test_start_switches_clocks(void **state)
{
    (void)state;
    tg_clock c = clock_for("absolute:10");
    tg_clock_start(&c, TG_BLACK, 0);
    tg_clock_start(&c, TG_WHITE, 2000); /* black not charged: stop was not called */
    assert_int_equal(tg_clock_stop(&c, TG_BLACK, 3000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_BLACK].main_left_ms, 10000);
    assert_int_equal(tg_clock_turn_used_ms(&c, TG_WHITE, 3000), 1000);
    assert_int_equal(tg_clock_stop(&c, TG_WHITE, 3000), TG_CLOCK_OK);
    assert_int_equal(c.player[TG_WHITE].main_left_ms, 9000);
}

static void test_now_is_monotonic(void **state)
{
    (void)state;
    int64_t a = tg_clock_now_ms(), b = tg_clock_now_ms();
    assert_true(a > 0);
    assert_true(b >= a);
}

/* ---- views -------------------------------------------------------------- */

static void test_views_and_sgf_left(void **state)
{
    (void)state;
    char buf[128];
    double seconds;
    int moves;
    tg_clock c = clock_for("byoyomi:600+5x30");
    tg_clock_start(&c, TG_BLACK, 0);
    tg_clock_view v = view(&c, TG_BLACK, 2500);
    tg_clock_view_format(&v, &c.tc, buf, sizeof buf);
    assert_string_equal(buf, "9:58 + 5x0:30");
    tg_clock_sgf_left(&v, &c.tc, &seconds, &moves);
    assert_true(seconds == 597.5);
    assert_int_equal(moves, -1);
    v = view(&c, TG_BLACK, 600000 + 61000); /* two periods overrun, 29 s left in the third */
    tg_clock_view_format(&v, &c.tc, buf, sizeof buf);
    assert_string_equal(buf, "byo-yomi 0:29, 3 periods");
    tg_clock_sgf_left(&v, &c.tc, &seconds, &moves);
    assert_true(seconds == 29.0);
    assert_int_equal(moves, 3);

    c = clock_for("canadian:0+25/600");
    v = view(&c, TG_WHITE, 0);
    tg_clock_view_format(&v, &c.tc, buf, sizeof buf);
    assert_string_equal(buf, "10:00 for 25 moves");
    tg_clock_sgf_left(&v, &c.tc, &seconds, &moves);
    assert_int_equal(moves, 25);
    c = clock_for("absolute:4000");
    v = view(&c, TG_WHITE, 0);
    tg_clock_view_format(&v, &c.tc, buf, sizeof buf);
    assert_string_equal(buf, "1:06:40");
}

/* What a controller tells of a clock (SGF BL/OB, GTP time_left) read back
 * by tg_clock_view_from_left gives the clock's own view, in every system
 * and phase but simple's overtime, whose period count SGF does not write;
 * and tg_clock_time_state is the control with that view. */
static void test_view_from_left_inverts_sgf_left(void **state)
{
    (void)state;
    static const char *const specs[] = {"byoyomi:10+3x5", "canadian:10+4/20", "periods:10+4/20",
                                        "absolute:60",    "fischer:30+2max40", "none"};
    static const int64_t used[] = {3000, 8000, 4500, 1, 7000, 2500, 6000, 500};
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        tg_clock c = clock_for(specs[k]);
        int64_t now = 0;
        for (size_t i = 0; i < sizeof used / sizeof used[0]; i++) {
            assert_int_equal(move(&c, TG_BLACK, &now, used[i]), TG_CLOCK_OK);
            tg_clock_start(&c, TG_BLACK, now);
            tg_time_state time;
            tg_clock_time_state(&c, TG_BLACK, now + 1234, &time);
            assert_memory_equal(&time.control, &c.tc, sizeof c.tc);
            const tg_clock_view *v = &time.view;
            double seconds;
            int moves;
            tg_clock_sgf_left(v, &c.tc, &seconds, &moves);
            tg_clock_view back;
            tg_clock_view_from_left(&c.tc, (int64_t)(seconds * 1000 + 0.5), moves > 0 ? moves : 0, &back);
            assert_int_equal(back.in_overtime, v->in_overtime);
            if (!v->in_overtime) {
                assert_int_equal(back.main_left_ms, v->main_left_ms);
                continue;
            }
            assert_int_equal(back.period_left_ms, v->period_left_ms);
            assert_int_equal(back.periods_left, c.tc.system == TG_CLOCK_BYOYOMI ? v->periods_left : 0);
            assert_int_equal(back.stones_left, c.tc.system == TG_CLOCK_BYOYOMI ? 0 : v->stones_left);
        }
    }
}

/* ---- byo-yomi calls ----------------------------------------------------- */

/* Every call of a period, as "number" or "#count", space-separated, with
 * the time used at each. */
static void all_calls(int64_t period_ms, bool last, char *buf, size_t len)
{
    tg_byoyomi_call call;
    size_t n = 0;
    buf[0] = '\0';
    int64_t after = 0;
    while (tg_byoyomi_next_call(period_ms, last, after, &call) && n < len) {
        n += (size_t)snprintf(buf + n, len - n, "%s%s%d@%lld", n ? " " : "", call.count ? "#" : "",
                              call.number, (long long)call.at_ms);
        after = call.at_ms;
    }
}

static void test_byoyomi_calls(void **state)
{
    (void)state;
    char buf[512];
    all_calls(60000, false, buf, sizeof buf);
    assert_string_equal(buf, "30@30000 40@40000 50@50000 55@55000 58@58000");
    all_calls(60000, true, buf, sizeof buf);
    assert_string_equal(buf, "30@30000 40@40000 50@50000 #1@51000 #2@52000 #3@53000 #4@54000 "
                             "#5@55000 #6@56000 #7@57000 #8@58000 #9@59000 #10@60000");
    all_calls(30000, false, buf, sizeof buf);
    assert_string_equal(buf, "10@10000 20@20000 25@25000 28@28000");
    all_calls(10000, true, buf, sizeof buf);
    assert_string_equal(buf, "#1@1000 #2@2000 #3@3000 #4@4000 #5@5000 #6@6000 #7@7000 #8@8000 "
                             "#9@9000 #10@10000");
    all_calls(10000, false, buf, sizeof buf);
    assert_string_equal(buf, "5@5000 8@8000");
    tg_byoyomi_call call;
    assert_true(tg_byoyomi_next_call(60000, false, 54999, &call));
    assert_int_equal(call.at_ms, 55000);
    assert_false(tg_byoyomi_next_call(60000, false, 58000, &call));
    assert_false(tg_byoyomi_next_call(60000, true, 60000, &call));
}

/* ---- the clock in SGF ---------------------------------------------------- */

static void test_sgf_game_with_clocks(void **state)
{
    (void)state;
    tg_time_control tc = spec("byoyomi:60+3x10");
    tg_clock c;
    tg_clock_init(&c, &tc);
    tg_game *g = tg_game_new(9, NULL);
    assert_non_null(g);
    const tg_board *b = tg_game_board(g);
    tg_sgf_move_clock clocks[4];
    int64_t now = 0;
    static const int used[4] = {1500, 59000, 70000, 2000};
    for (int i = 0; i < 4; i++) {
        tg_color color = tg_game_to_move(g);
        assert_int_equal(move(&c, color, &now, used[i]), TG_CLOCK_OK);
        assert_int_equal(tg_game_play(g, color, tg_point_at(b, i, i), 0), TG_OK);
        tg_clock_view v = view(&c, color, now);
        clocks[i].recorded = i != 1; /* a move without a recorded clock */
        tg_clock_sgf_left(&v, &tc, &clocks[i].seconds, &clocks[i].moves);
        if (i == 1) /* a setup node between moves must not shift the clocks */
            assert_int_equal(tg_game_setup(g, tg_point_at(b, 8, 8), TG_WHITE), TG_OK);
    }
    tg_sgf_info info = {.main_time = tg_time_control_sgf_tm(&tc), .clocks = clocks, .clock_count = 4};
    tg_time_control_to_sgf_ot(&tc, info.overtime, sizeof info.overtime);
    char *text = tg_sgf_save_game(g, &info);
    assert_non_null(text);
    assert_non_null(strstr(text, "TM[60]"));
    assert_non_null(strstr(text, "OT[3x10 byo-yomi]"));
    assert_non_null(strstr(text, "B[ai]BL[58.5]"));
    /* 70 s: the 58.5 s of main time and one period used up, the move made in the second */
    assert_non_null(strstr(text, "B[cg]BL[10]OB[2]"));
    assert_non_null(strstr(text, "W[df]WL[10]OW[3]"));
    assert_non_null(strstr(text, "W[bh];")); /* no clock recorded for move 1 */

    tg_sgf_tree *tree = NULL;
    assert_int_equal(tg_sgf_parse(text, strlen(text), &tree, NULL), TG_OK);
    tg_sgf_move_clock back[8];
    assert_int_equal(tg_sgf_main_line_clocks(tg_sgf_tree_games(tree), back, 8), 4);
    assert_true(back[0].recorded && back[0].seconds == 58.5 && back[0].moves == -1);
    assert_false(back[1].recorded);
    assert_true(back[2].recorded && back[2].seconds == 10 && back[2].moves == 2);
    assert_true(back[3].recorded && back[3].moves == 3);
    assert_int_equal(tg_sgf_main_line_clocks(tg_sgf_tree_games(tree), back, 1), 4);
    tg_sgf_tree_free(tree);

    tg_sgf_info read;
    tg_game *again = NULL;
    assert_int_equal(tg_sgf_load_game(text, strlen(text), -1, &again, &read, NULL), TG_OK);
    assert_null(read.clocks);
    tg_time_control tc_back;
    assert_int_equal(tg_time_control_from_sgf(read.main_time, read.overtime, &tc_back), TG_OK);
    assert_memory_equal(&tc_back, &tc, sizeof tc);
    tg_game_free(again);
    free(text);
    tg_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_every_form),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_format_round_trip),
        cmocka_unit_test(test_sgf_round_trip),
        cmocka_unit_test(test_sgf_from_other_programs),
        cmocka_unit_test(test_absolute),
        cmocka_unit_test(test_absolute_exactly_to_zero),
        cmocka_unit_test(test_byoyomi_main_then_periods),
        cmocka_unit_test(test_byoyomi_last_period_loses),
        cmocka_unit_test(test_byoyomi_last_period_pass),
        cmocka_unit_test(test_canadian_block_resets),
        cmocka_unit_test(test_periods_carry_over),
        cmocka_unit_test(test_fischer_increment_and_cap),
        cmocka_unit_test(test_simple),
        cmocka_unit_test(test_none),
        cmocka_unit_test(test_pause_stops_both_clocks),
        cmocka_unit_test(test_pause_inside_a_byoyomi_turn),
        cmocka_unit_test(test_lag_allowance),
        cmocka_unit_test(test_start_switches_clocks),
        cmocka_unit_test(test_now_is_monotonic),
        cmocka_unit_test(test_views_and_sgf_left),
        cmocka_unit_test(test_view_from_left_inverts_sgf_left),
        cmocka_unit_test(test_byoyomi_calls),
        cmocka_unit_test(test_sgf_game_with_clocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
