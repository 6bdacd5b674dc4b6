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

static tg_point plan_and_pass(void *ctx, const tg_game *g, tg_color color, const tg_time_state *time,
                              bool cleanup)
{
    planner *p = ctx;
    (void)color, (void)cleanup;
    p->limits = (tg_search_limits){0};
    p->planned = tg_search_time_plan(time, tg_game_board(g), p->lag, &p->limits);
    return TG_PASS;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_plan_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
