/*
 * timeman.c — how long to think, from what the controller said with
 * time_settings / kgs-time_settings and time_left.
 *
 * The plan never loses on time: it keeps a safety margin for the lag
 * between the controller's clock and ours (network, process start, the
 * time to answer), and the hard limit a difficult move may stretch to
 * stays inside what is left.
 *   - In main time: what is left spread over the moves still to come
 *     (about half the empty points, at least 12), plus what the overtime
 *     will give each move anyway.
 *   - In byo-yomi: the period (Japanese), or the period's time over the
 *     stones still to play in it (Canadian), minus the margin.
 *   - Absolute time: main time only, so the spread is more careful and a
 *     reserve is never spent.
 * A difficult move (search.c: the top two candidates close at the planned
 * time) may take up to twice the plan, never more than a fifth of what is
 * left in main time, nor more than the period allows.
 */
#include "tengen/search.h"

#define MIN_SECONDS 0.05

static double at_least(double x, double floor) { return x < floor ? floor : x; }
static double at_most(double x, double ceiling) { return x > ceiling ? ceiling : x; }

bool tg_search_time_plan(const tg_gtp_clock *clock, tg_color color, const tg_board *b, double lag_seconds,
                         tg_search_limits *limits)
{
    if (clock->system == TG_TIME_NONE)
        return false;
    double left = clock->time_left[color];
    int stones_left = clock->stones_left[color];
    bool told = left >= 0;
    if (!told) {
        left = clock->main_time;
        stones_left = 0;
    }
    double margin = lag_seconds + 0.05 * (clock->period_time > 0 ? clock->period_time : left);
    if (margin > 2.0 + lag_seconds)
        margin = 2.0 + lag_seconds;
    int moves_to_come = b->empty_count / 2;
    if (moves_to_come < 12)
        moves_to_come = 12;

    bool in_overtime = clock->system != TG_TIME_ABSOLUTE &&
                       (stones_left > 0 || (told && left <= 0) || (!told && clock->main_time <= 0));
    if (in_overtime) {
        double period = told && stones_left > 0 ? left : clock->period_time;
        /* Canadian: the stones still to play in the period; Japanese: every
         * move has the period to itself (time_left's count is of periods) */
        int stones = clock->system != TG_TIME_CANADIAN ? 1 : stones_left > 0 ? stones_left : clock->stones;
        if (stones < 1)
            stones = 1;
        double usable = at_least(period - margin, MIN_SECONDS);
        limits->seconds = at_least(usable / stones, MIN_SECONDS);
        limits->max_seconds = at_most(2 * limits->seconds, usable - (stones - 1) * MIN_SECONDS);
    } else {
        double overtime_per_move = 0;
        if (clock->system == TG_TIME_BYOYOMI)
            overtime_per_move = clock->period_time;
        else if (clock->system == TG_TIME_CANADIAN && clock->stones > 0)
            overtime_per_move = clock->period_time / clock->stones;
        double reserve = clock->system == TG_TIME_ABSOLUTE ? margin + 0.02 * left : margin;
        double usable = at_least(left - reserve, 0);
        double plan = usable / moves_to_come + 0.5 * at_least(overtime_per_move - margin, 0);
        limits->seconds = at_least(plan, MIN_SECONDS);
        limits->max_seconds = at_least(at_most(2 * limits->seconds, usable / 5 + overtime_per_move * 0.5),
                                       limits->seconds);
    }
    if (limits->max_seconds < limits->seconds)
        limits->max_seconds = limits->seconds;
    return true;
}
