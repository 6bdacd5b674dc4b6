/*
 * timeman.c — how long to think, from the player's time (clock.h's
 * tg_time_state: a running clock's, or what a GTP controller said with
 * time_settings / kgs-time_settings and time_left).
 *
 * The plan never loses on time: it keeps a safety margin for the lag
 * between the controller's clock and ours (network, process start, the
 * time to answer), and the hard limit a difficult move may stretch to
 * stays inside what is left.
 *   - In main time: what is left spread over the moves still to come
 *     (about half the empty points, at least 12), plus what the overtime
 *     (or Fischer's increment) will give each move anyway.
 *   - In overtime: the period (byo-yomi), or the block's time over the
 *     stones still to play in it (Canadian, moves-per-period), minus the
 *     margin.
 *   - Absolute and Fischer time: main time only, so the spread is more
 *     careful and a reserve is never spent; Fischer's increment comes
 *     after the move, so a move never counts on it.
 * A difficult move (search.c: the top two candidates close at the planned
 * time) may take up to twice the plan, never more than a fifth of what is
 * left in main time (plus half what the overtime gives a move), nor more
 * than the period allows.
 */
#include "tengen/search.h"

#define MIN_SECONDS 0.05

static double at_least(double x, double floor) { return x < floor ? floor : x; }
static double at_most(double x, double ceiling) { return x > ceiling ? ceiling : x; }
static double seconds_of(int64_t ms) { return (double)ms / 1000; }

/* Within one period or block: `left` seconds for `stones` moves. */
static void plan_overtime(double left, int stones, double margin, tg_search_limits *limits)
{
    if (stones < 1)
        stones = 1;
    double usable = at_least(left - margin, MIN_SECONDS);
    limits->seconds = at_least(usable / stones, MIN_SECONDS);
    limits->max_seconds = at_most(2 * limits->seconds, usable - (stones - 1) * MIN_SECONDS);
}

/* In main time: `left` spread over the moves to come, plus a share of
 * what the overtime (or the increment) gives every move. */
static void plan_main_time(const tg_time_control *tc, double left, int moves_to_come, double margin,
                           tg_search_limits *limits)
{
    double period_time = seconds_of(tc->period_ms), per_move = 0;
    if (tc->system == TG_CLOCK_BYOYOMI || tc->system == TG_CLOCK_SIMPLE)
        per_move = period_time;
    else if ((tc->system == TG_CLOCK_CANADIAN || tc->system == TG_CLOCK_PERIODS) && tc->stones > 0)
        per_move = period_time / tc->stones;
    else if (tc->system == TG_CLOCK_FISCHER)
        per_move = seconds_of(tc->increment_ms);
    bool main_only = tc->system == TG_CLOCK_ABSOLUTE || tc->system == TG_CLOCK_FISCHER;
    double reserve = main_only ? margin + 0.02 * left : margin;
    double usable = at_least(left - reserve, 0);
    double plan = usable / moves_to_come + 0.5 * at_least(per_move - margin, 0);
    limits->seconds = at_least(plan, MIN_SECONDS);
    limits->max_seconds = at_least(at_most(2 * limits->seconds, usable / 5 + per_move * 0.5), limits->seconds);
    if (tc->system == TG_CLOCK_FISCHER) { /* the increment arrives only after the move */
        limits->seconds = at_least(at_most(limits->seconds, usable / 2), MIN_SECONDS);
        limits->max_seconds = at_least(at_most(limits->max_seconds, usable), limits->seconds);
    }
}

bool tg_search_time_plan(const tg_time_state *time, const tg_board *b, double lag_seconds,
                         tg_search_limits *limits)
{
    const tg_time_control *tc = &time->control;
    const tg_clock_view *v = &time->view;
    if (tc->system == TG_CLOCK_NONE)
        return false;
    double period_time = seconds_of(tc->period_ms);
    double left = seconds_of(v->in_overtime ? v->period_left_ms : v->main_left_ms);
    double margin = lag_seconds + 0.05 * (period_time > 0 ? period_time : left);
    if (margin > 2.0 + lag_seconds)
        margin = 2.0 + lag_seconds;
    int moves_to_come = b->empty_count / 2;
    if (moves_to_come < 12)
        moves_to_come = 12;

    bool byoyomi = tc->system == TG_CLOCK_BYOYOMI || tc->system == TG_CLOCK_SIMPLE;
    bool blocks = tc->system == TG_CLOCK_CANADIAN || tc->system == TG_CLOCK_PERIODS;
    if ((byoyomi || blocks) && (v->in_overtime || v->main_left_ms <= 0)) {
        /* every byo-yomi move has the period to itself; in a block, the
         * stones still due share what is left of it */
        double period = v->in_overtime ? left : period_time;
        int stones = !blocks ? 1 : v->in_overtime && v->stones_left > 0 ? v->stones_left : tc->stones;
        plan_overtime(period, stones, margin, limits);
    } else {
        plan_main_time(tc, left, moves_to_come, margin, limits);
    }
    if (limits->max_seconds < limits->seconds)
        limits->max_seconds = limits->seconds;
    return true;
}
