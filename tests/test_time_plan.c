/*
 * test_time_plan.c — the time the search plans for a move under every GTP
 * time control, to the last bit: time_settings and kgs-time_settings (none,
 * absolute, byo-yomi, Canadian), time_left told or not (in main time, in
 * the periods, used up), three positions and three lags.  Each case goes
 * the way a controller's does: the commands through a tg_gtp, whose move
 * generator plans with tg_search_time_plan from the time it is handed.
 *
 * The expected values were printed (TIME_PLAN_PRINT=1) before the GTP clock
 * became the clock layer's time model (issue 42), so this test says that
 * the change left every plan exactly as it was.
 *
 * Then what `tengen play` hands the planner: its running clock, whole
 * (tg_clock_time_state), so that Fischer's increment and the time a
 * moves-per-period block carries over reach the plan; the old hand-over
 * squeezed them into GTP's clock (absolute, Canadian) and lost both.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gtp_session.h"
#include "tengen/search.h"

static const char *const settings[] = {
    "time_settings 0 0 0",   "time_settings 300 0 0",   "time_settings 600 300 25",
    "time_settings 0 30 1",  "time_settings 60 10 0",   "kgs-time_settings none",
    "kgs-time_settings absolute 1800", "kgs-time_settings byoyomi 600 30 5",
    "kgs-time_settings byoyomi 0 10 3", "kgs-time_settings canadian 900 600 25",
    "kgs-time_settings canadian 0 300 10", "kgs-time_settings byoyomi 120.5 0 3",
    "kgs-time_settings byoyomi 0 0 3", "kgs-time_settings byoyomi 30 20 0",
    "kgs-time_settings canadian 60 30 0",
};
#define SETTINGS (sizeof settings / sizeof settings[0])

/* What time_left says of the side to move ("" : nothing, "other": only of
 * the opponent). */
static const char *const lefts[] = {
    "",     "other", "0 0",   "0.5 0", "2.5 0", "30 0",  "120 0", "3600 0",
    "25 1", "25 3",  "300 25", "100 10", "0.3 1", "7.125 2",
};
#define LEFTS (sizeof lefts / sizeof lefts[0])

/* Board size and how many stones are put on it first. */
static const struct { int size, stones; } positions[] = {{9, 0}, {9, 30}, {19, 150}};
#define POSITIONS (sizeof positions / sizeof positions[0])

static const double lags[] = {0, 0.3, 1.0};
#define LAGS (sizeof lags / sizeof lags[0])

#define CASES (SETTINGS * LEFTS * POSITIONS * LAGS)

/* The generator: plans, remembers the plan, and passes. */
typedef struct planner {
    double lag;
    bool planned;
    tg_search_limits limits;
} planner;

static tg_status plan_and_pass(void *ctx, const tg_game *g, tg_color color, const tg_time_state *time,
                               bool cleanup, unsigned *flags, tg_point *move)
{
    planner *p = ctx;
    (void)color, (void)cleanup, (void)flags;
    p->limits = (tg_search_limits){0};
    p->planned = tg_search_time_plan(time, tg_game_board(g), p->lag, &p->limits);
    *move = TG_PASS;
    return TG_OK;
}

/* Put `stones` stones on the board, Black and White in turn, at points
 * chosen by a fixed stride (an illegal one is skipped). */
static void put_stones(tg_gtp *e, int size, int stones)
{
    int placed = 0;
    for (int i = 0; placed < stones && i < 4 * size * size; i++) {
        int p = (i * 37) % (size * size);
        char line[64];
        snprintf(line, sizeof line, "play %s %c%d", placed % 2 ? "w" : "b", "ABCDEFGHJKLMNOPQRST"[p % size],
                 p / size + 1);
        if (gs_run(e, line)[0] == '=')
            placed++;
    }
}

/* The plan of one case: seconds and max_seconds, or -1 and -1 with none. */
static void plan_case(size_t k, double *seconds, double *max_seconds)
{
    size_t lag = k % LAGS, pos = k / LAGS % POSITIONS, left = k / LAGS / POSITIONS % LEFTS,
           set = k / LAGS / POSITIONS / LEFTS;
    planner p = {.lag = lags[lag]};
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    opt.size = positions[pos].size;
    opt.player.genmove = plan_and_pass;
    opt.player.ctx = &p;
    tg_gtp *e = tg_gtp_new(&opt);
    assert_non_null(e);
    put_stones(e, positions[pos].size, positions[pos].stones);
    gs_ok(e, settings[set]);
    char line[64];
    if (!strcmp(lefts[left], "other"))
        gs_ok(e, "time_left b 5 0");
    else if (lefts[left][0]) {
        snprintf(line, sizeof line, "time_left w %s", lefts[left]);
        gs_ok(e, line);
    }
    gs_ok(e, "reg_genmove w");
    *seconds = p.planned ? p.limits.seconds : -1;
    *max_seconds = p.planned ? p.limits.max_seconds : -1;
    tg_gtp_free(e);
}

/* seconds, max_seconds of every case in the order of plan_case. */
static const double expected[CASES][2] = {
#include "data/time_plan_expected.inc"
};

static void test_time_plan_exact(void **state)
{
    (void)state;
    bool print = getenv("TIME_PLAN_PRINT") != NULL;
    int wrong = 0;
    for (size_t k = 0; k < CASES; k++) {
        double seconds, max_seconds;
        plan_case(k, &seconds, &max_seconds);
        if (print)
            printf("{%a, %a},\n", seconds, max_seconds);
        else if (seconds != expected[k][0] || max_seconds != expected[k][1]) {
            size_t lag = k % LAGS, pos = k / LAGS % POSITIONS, left = k / LAGS / POSITIONS % LEFTS;
            print_error("%s, time_left '%s', %dx%d with %d stones, lag %g: planned %.17g / %.17g s, "
                        "expected %.17g / %.17g s\n",
                        settings[k / LAGS / POSITIONS / LEFTS], lefts[left], positions[pos].size,
                        positions[pos].size, positions[pos].stones, lags[lag], seconds, max_seconds,
                        expected[k][0], expected[k][1]);
            wrong++;
        }
    }
    assert_int_equal(wrong, 0);
}

/* A clock of `spec` on which Black has made moves taking `used` ms each
 * (Black's turn to come), and the plan from what it shows (lag 0.2 s, as
 * `tengen play` plans, on an empty 19x19 board: 180 moves to come). */
static tg_search_limits play_clock_plan(const char *spec, const int64_t *used, int moves, tg_time_state *time)
{
    tg_time_control tc;
    char err[128];
    assert_int_equal(tg_time_control_parse(spec, &tc, err, sizeof err), TG_OK);
    tg_clock c;
    tg_clock_init(&c, &tc);
    int64_t now = 0;
    for (int i = 0; i < moves; i++) {
        tg_clock_start(&c, TG_BLACK, now);
        now += used[i];
        assert_int_equal(tg_clock_stop(&c, TG_BLACK, now), TG_CLOCK_OK);
    }
    tg_clock_start(&c, TG_BLACK, now);
    tg_clock_time_state(&c, TG_BLACK, now + 1000, time); /* a second into the turn */
    tg_board b;
    tg_board_init(&b, 19);
    tg_search_limits limits = {0};
    assert_true(tg_search_time_plan(time, &b, 0.2, &limits));
    return limits;
}

static void assert_near(double x, double expected)
{
    if (x < expected - 1e-9 || x > expected + 1e-9)
        fail_msg("%.12f, expected %.12f", x, expected);
}

/* Fischer 300 s + 10 s a move: after a move of 20 s and a second into the
 * next turn, 289 s are left and the increment adds half of what it gives
 * beyond the margin to the plan: (289 - reserve) / 180 + (10 - margin) / 2. */
static void test_play_clock_fischer(void **state)
{
    (void)state;
    const int64_t used[] = {20000};
    tg_time_state time;
    tg_search_limits l = play_clock_plan("fischer:300+10", used, 1, &time);
    assert_int_equal(time.control.system, TG_CLOCK_FISCHER);
    assert_int_equal(time.control.increment_ms, 10000);
    assert_int_equal(time.view.main_left_ms, 289000);
    double margin = 0.2 + 2.0, reserve = margin + 0.02 * 289;
    assert_near(l.seconds, (289 - reserve) / 180 + 0.5 * (10 - margin));
    /* the same clock without its increment plans only the spread */
    time.control.system = TG_CLOCK_ABSOLUTE;
    time.control.increment_ms = 0;
    tg_board b;
    tg_board_init(&b, 19);
    tg_search_limits absolute = {0};
    assert_true(tg_search_time_plan(&time, &b, 0.2, &absolute));
    assert_near(absolute.seconds, (289 - reserve) / 180);

    /* with little left, the increment (added after the move) is never
     * counted on within it */
    const int64_t long_moves[] = {298000};
    l = play_clock_plan("fischer:300+10", long_moves, 1, &time);
    assert_int_equal(time.view.main_left_ms, 11000);
    assert_true(l.max_seconds <= 11 - 0.2);
    assert_true(l.seconds <= l.max_seconds);
}

/* Moves-per-period, 60 s then 5 moves in 100 s with the time saved carried
 * over: main time ends 10 s into the first block's first move, four moves
 * of a second finish the block with 86 s saved, and the next block holds
 * 186 s for 5 stones (185 a second into its first).  Canadian's would
 * hold 100 s. */
static void test_play_clock_periods(void **state)
{
    (void)state;
    const int64_t used[] = {70000, 1000, 1000, 1000, 1000};
    tg_time_state time;
    tg_search_limits l = play_clock_plan("periods:60+5/100", used, 5, &time);
    assert_int_equal(time.control.system, TG_CLOCK_PERIODS);
    assert_true(time.view.in_overtime);
    assert_int_equal(time.view.stones_left, 5);
    assert_int_equal(time.view.period_left_ms, 185000);
    double margin = 0.2 + 2.0;
    assert_near(l.seconds, (185 - margin) / 5);
    l = play_clock_plan("canadian:60+5/100", used, 5, &time);
    assert_int_equal(time.control.system, TG_CLOCK_CANADIAN);
    assert_int_equal(time.view.period_left_ms, 99000);
    assert_near(l.seconds, (99 - margin) / 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_plan_exact),
        cmocka_unit_test(test_play_clock_fischer),
        cmocka_unit_test(test_play_clock_periods),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
