/*
 * clock.c — both players' clocks for one game: charging a turn's time under
 * each time system, the one verdict on time loss, pauses, the deadline a
 * referee waits for, the view a display shows, and the byo-yomi calls.
 *
 * The model: between turns a player's clock is a tg_player_clock.  While a
 * turn runs nothing is charged; the time used so far is turn_used_ms plus
 * (unless paused) now - since_ms.  charge() applies a turn's time to a copy
 * of the state, which is how check, view and stop all see the same clock;
 * stop then applies the end-of-move rules (fresh period, block of stones
 * completed, carry-over, increment).
 */
#include <stdio.h>
#include <time.h>

#include "tengen/clock.h"

static bool has_overtime(const tg_time_control *tc)
{
    return tc->system == TG_CLOCK_BYOYOMI || tc->system == TG_CLOCK_SIMPLE
        || tc->system == TG_CLOCK_CANADIAN || tc->system == TG_CLOCK_PERIODS;
}

static bool is_byoyomi(const tg_time_control *tc)
{
    return tc->system == TG_CLOCK_BYOYOMI || tc->system == TG_CLOCK_SIMPLE;
}

void tg_clock_init(tg_clock *c, const tg_time_control *tc)
{
    *c = (tg_clock){.tc = *tc, .running = TG_EMPTY};
    if (c->tc.system == TG_CLOCK_SIMPLE) {
        c->tc.main_ms = 0;
        c->tc.periods = 1;
    }
    if (c->tc.system == TG_CLOCK_FISCHER && c->tc.cap_ms > 0 && c->tc.main_ms > c->tc.cap_ms)
        c->tc.main_ms = c->tc.cap_ms;
    tg_player_clock start = {
        .main_left_ms = c->tc.main_ms,
        .period_left_ms = c->tc.period_ms,
        .periods_left = is_byoyomi(&c->tc) ? c->tc.periods : 0,
        .stones_left = is_byoyomi(&c->tc) ? 0 : c->tc.stones,
        .in_overtime = has_overtime(&c->tc) && c->tc.main_ms == 0,
    };
    c->player[TG_BLACK] = start;
    c->player[TG_WHITE] = start;
}

void tg_clock_set_lag(tg_clock *c, int64_t lag_ms)
{
    c->lag_ms = lag_ms > 0 ? lag_ms : 0;
}

int64_t tg_clock_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Time a player may use in this turn before the last limit is overrun. */
static int64_t time_available(const tg_time_control *tc, const tg_player_clock *s)
{
    switch (tc->system) {
    case TG_CLOCK_NONE: return INT64_MAX;
    case TG_CLOCK_ABSOLUTE:
    case TG_CLOCK_FISCHER: return s->main_left_ms;
    case TG_CLOCK_BYOYOMI:
    case TG_CLOCK_SIMPLE: return s->main_left_ms + s->periods_left * tc->period_ms;
    case TG_CLOCK_CANADIAN:
    case TG_CLOCK_PERIODS: return s->main_left_ms + s->period_left_ms;
    }
    return INT64_MAX;
}

/* Apply `used` ms of one turn to s (main time first, then overtime) and say
 * whether the last limit was overrun.  An overrun is charged as if the move
 * came exactly at the deadline, so the state never goes below zero.
 * For byo-yomi, s->period_left_ms becomes the time left in the period the
 * turn ended in; a period is overrun only when more than its length is used. */
static tg_clock_verdict charge(const tg_time_control *tc, int64_t lag_ms, tg_player_clock *s,
                               int64_t used)
{
    if (tc->system == TG_CLOCK_NONE)
        return TG_CLOCK_OK;
    tg_clock_verdict verdict = TG_CLOCK_OK;
    int64_t available = time_available(tc, s);
    if (used > available) {
        if (used - available > lag_ms)
            verdict = is_byoyomi(tc) && tc->last_period_pass ? TG_CLOCK_OVERTIME_PASS
                                                             : TG_CLOCK_TIME_LOSS;
        used = available;
    }
    int64_t from_main = used < s->main_left_ms ? used : s->main_left_ms;
    s->main_left_ms -= from_main;
    used -= from_main;
    if (!has_overtime(tc) || s->main_left_ms > 0)
        return verdict;
    s->in_overtime = true;
    if (is_byoyomi(tc) && s->periods_left == 0) { /* lost on time: nothing is left */
        s->period_left_ms = 0;
    } else if (is_byoyomi(tc)) {
        int overrun = used > 0 ? (int)((used - 1) / tc->period_ms) : 0;
        s->periods_left -= overrun;
        s->period_left_ms = tc->period_ms - (used - overrun * tc->period_ms);
    } else {
        s->period_left_ms -= used;
    }
    return verdict;
}

/* The end-of-move rules, after charge(), for a move made in time (or an
 * overtime pass). */
static void end_move(const tg_time_control *tc, tg_player_clock *s)
{
    switch (tc->system) {
    case TG_CLOCK_BYOYOMI:
    case TG_CLOCK_SIMPLE:
        s->period_left_ms = tc->period_ms; /* a move inside a period uses none of it */
        break;
    case TG_CLOCK_CANADIAN:
    case TG_CLOCK_PERIODS:
        if (!s->in_overtime || --s->stones_left > 0)
            break;
        s->stones_left = tc->stones;
        /* Canadian: a new block starts from scratch; periods: saved time is kept (R4) */
        s->period_left_ms = tc->system == TG_CLOCK_PERIODS ? s->period_left_ms + tc->period_ms
                                                           : tc->period_ms;
        break;
    case TG_CLOCK_FISCHER:
        s->main_left_ms += tc->increment_ms;
        if (tc->cap_ms > 0 && s->main_left_ms > tc->cap_ms)
            s->main_left_ms = tc->cap_ms;
        break;
    case TG_CLOCK_NONE:
    case TG_CLOCK_ABSOLUTE:
        break;
    }
}

int64_t tg_clock_turn_used_ms(const tg_clock *c, tg_color color, int64_t now_ms)
{
    if (color != c->running)
        return 0;
    int64_t used = c->turn_used_ms + (c->paused ? 0 : now_ms - c->since_ms);
    return used > 0 ? used : 0;
}

void tg_clock_start(tg_clock *c, tg_color color, int64_t now_ms)
{
    c->running = color;
    c->turn_used_ms = 0;
    c->since_ms = now_ms;
}

tg_clock_verdict tg_clock_check(const tg_clock *c, tg_color color, int64_t now_ms)
{
    if (color != c->running || c->running == TG_EMPTY)
        return TG_CLOCK_OK;
    tg_player_clock copy = c->player[color];
    return charge(&c->tc, c->lag_ms, &copy, tg_clock_turn_used_ms(c, color, now_ms));
}

tg_clock_verdict tg_clock_stop(tg_clock *c, tg_color color, int64_t now_ms)
{
    if (color != c->running || c->running == TG_EMPTY)
        return TG_CLOCK_OK;
    tg_player_clock *s = &c->player[color];
    tg_clock_verdict verdict = charge(&c->tc, c->lag_ms, s, tg_clock_turn_used_ms(c, color, now_ms));
    if (verdict != TG_CLOCK_TIME_LOSS)
        end_move(&c->tc, s);
    else if (is_byoyomi(&c->tc))
        s->periods_left = 0; /* the view of a lost clock shows no period left */
    c->running = TG_EMPTY;
    c->turn_used_ms = 0;
    return verdict;
}

void tg_clock_pause(tg_clock *c, int64_t now_ms)
{
    if (c->paused)
        return;
    if (c->running != TG_EMPTY)
        c->turn_used_ms += now_ms - c->since_ms;
    c->paused = true;
}

void tg_clock_resume(tg_clock *c, int64_t now_ms)
{
    if (!c->paused)
        return;
    c->since_ms = now_ms;
    c->paused = false;
}

int64_t tg_clock_deadline_ms(const tg_clock *c, tg_color color)
{
    if (color != c->running || c->running == TG_EMPTY || c->paused
        || c->tc.system == TG_CLOCK_NONE)
        return INT64_MAX;
    return c->since_ms - c->turn_used_ms + time_available(&c->tc, &c->player[color]) + c->lag_ms;
}

void tg_clock_view_of(const tg_clock *c, tg_color color, int64_t now_ms, tg_clock_view *v)
{
    tg_player_clock s = c->player[color == TG_WHITE ? TG_WHITE : TG_BLACK];
    charge(&c->tc, 0, &s, tg_clock_turn_used_ms(c, color, now_ms));
    *v = (tg_clock_view){
        .main_left_ms = s.main_left_ms,
        .period_left_ms = has_overtime(&c->tc) ? s.period_left_ms : 0,
        .periods_left = s.periods_left,
        .stones_left = s.stones_left,
        .in_overtime = s.in_overtime,
    };
}

void tg_clock_sgf_left(const tg_clock_view *v, const tg_time_control *tc, double *seconds,
                       int *moves)
{
    bool overtime = v->in_overtime && has_overtime(tc);
    *seconds = (double)(overtime ? v->period_left_ms : v->main_left_ms) / 1000.0;
    *moves = -1;
    if (overtime && tc->system == TG_CLOCK_BYOYOMI)
        *moves = v->periods_left;
    else if (overtime && tc->system != TG_CLOCK_SIMPLE)
        *moves = v->stones_left;
}

void tg_clock_view_from_left(const tg_time_control *tc, int64_t left_ms, int count, tg_clock_view *v)
{
    bool overtime = count > 0 && has_overtime(tc);
    *v = (tg_clock_view){
        .main_left_ms = overtime ? 0 : left_ms,
        .period_left_ms = overtime ? left_ms : 0,
        .periods_left = overtime && is_byoyomi(tc) ? count : 0,
        .stones_left = overtime && !is_byoyomi(tc) ? count : 0,
        .in_overtime = overtime,
    };
}

void tg_clock_time_state(const tg_clock *c, tg_color color, int64_t now_ms, tg_time_state *out)
{
    out->control = c->tc;
    tg_clock_view_of(c, color, now_ms, &out->view);
}

void tg_time_state_start(const tg_time_control *tc, tg_time_state *out)
{
    tg_clock c;
    tg_clock_init(&c, tc);
    tg_clock_time_state(&c, TG_BLACK, 0, out);
}

/* "1:02:03", "9:58", "0:05": whole seconds rounded up, so a clock shows
 * 0:00 only when nothing is left. */
static void format_time(int64_t ms, char *buf, size_t len)
{
    long long s = (long long)((ms + 999) / 1000);
    if (s >= 3600)
        snprintf(buf, len, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, len, "%lld:%02lld", s / 60, s % 60);
}

void tg_clock_view_format(const tg_clock_view *v, const tg_time_control *tc, char *buf,
                          size_t len)
{
    char main[32], period[32];
    format_time(v->main_left_ms, main, sizeof main);
    format_time(v->in_overtime ? v->period_left_ms : tc->period_ms, period, sizeof period);
    switch (tc->system) {
    case TG_CLOCK_NONE: snprintf(buf, len, "no clock"); break;
    case TG_CLOCK_ABSOLUTE:
    case TG_CLOCK_FISCHER: snprintf(buf, len, "%s", main); break;
    case TG_CLOCK_SIMPLE: snprintf(buf, len, "%s per move", period); break;
    case TG_CLOCK_BYOYOMI:
        if (v->in_overtime)
            snprintf(buf, len, "byo-yomi %s, %d period%s", period, v->periods_left,
                     v->periods_left == 1 ? " (last)" : "s");
        else
            snprintf(buf, len, "%s + %dx%s", main, v->periods_left, period);
        break;
    case TG_CLOCK_CANADIAN:
    case TG_CLOCK_PERIODS:
        if (v->in_overtime)
            snprintf(buf, len, "%s for %d move%s", period, v->stones_left,
                     v->stones_left == 1 ? "" : "s");
        else
            snprintf(buf, len, "%s + %d/%s", main, tc->stones, period);
        break;
    }
}

/* ---- byo-yomi calls ---------------------------------------------------- */

/* Seconds left in the period at each call, in the order made. */
static const int calls_left[] = {30, 20, 10, 5, 2};
static const int last_calls_left[] = {30, 20, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};

bool tg_byoyomi_next_call(int64_t period_ms, bool last_period, int64_t after_ms,
                          tg_byoyomi_call *call)
{
    const int *left = last_period ? last_calls_left : calls_left;
    int n = last_period ? (int)(sizeof last_calls_left / sizeof *last_calls_left)
                        : (int)(sizeof calls_left / sizeof *calls_left);
    for (int i = 0; i < n; i++) {
        int64_t at = period_ms - (int64_t)left[i] * 1000;
        if (at <= 0 || at <= after_ms)
            continue;
        bool count = last_period && left[i] < 10;
        *call = (tg_byoyomi_call){.at_ms = at, .count = count,
                                  .number = count ? 10 - left[i] : (int)((at + 500) / 1000)};
        return true;
    }
    return false;
}
