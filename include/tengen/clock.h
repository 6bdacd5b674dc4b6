/*
 * clock.h — the game clock: the time systems of RULES.md §2 (absolute R3,
 * Japanese byo-yomi R2, Canadian, moves-per-period with carry-over R4,
 * Fischer, simple, none), pauses (R5) and the byo-yomi countdown calls.
 *
 * One function, tg_clock_check(), decides whether a player has lost on
 * time, so the terminal, the referee and the server can never disagree.
 * Only tg_clock_now_ms() reads the real time (CLOCK_MONOTONIC); every other
 * function takes `now_ms`, so tests drive the clock to the millisecond.
 *
 * A turn's time is charged as a whole when the move is made
 * (tg_clock_stop): a byo-yomi move made inside a period uses none of it,
 * however many pauses interrupted it.
 *
 * Boundaries: a move is in time when the time its player has used is at
 * most the time available plus the lag allowance; one millisecond more is
 * an overrun.  The lag allowance (tg_clock_set_lag, the referee's --lag)
 * only excuses an overrun of the last limit: a move arriving within lag
 * after the deadline is charged as if made at the deadline.  (Lag never
 * saves an earlier byo-yomi period: only the loss is excused.)
 */
#ifndef TENGEN_CLOCK_H
#define TENGEN_CLOCK_H

#include "common.h"

typedef enum tg_clock_system {
    TG_CLOCK_NONE,      /* no clock */
    TG_CLOCK_ABSOLUTE,  /* main time only (R3) */
    TG_CLOCK_BYOYOMI,   /* main time, then `periods` periods of period_ms (R2) */
    TG_CLOCK_CANADIAN,  /* main time, then `stones` moves in period_ms, repeated; no carry-over */
    TG_CLOCK_PERIODS,   /* main time, then `stones` moves in period_ms, saved time carried over (R4) */
    TG_CLOCK_FISCHER,   /* main time, increment_ms added after each move, capped at cap_ms */
    TG_CLOCK_SIMPLE     /* period_ms for every move (byo-yomi with no main time and one period) */
} tg_clock_system;

typedef struct tg_time_control { /* all times in milliseconds */
    tg_clock_system system;
    int64_t main_ms, period_ms, increment_ms, cap_ms; /* cap_ms 0: no cap */
    int periods;  /* byo-yomi periods */
    int stones;   /* moves per period: canadian, periods */
    /* R2 option (byoyomi and simple only): overrunning the last period is a
     * pass, not a loss; the player then keeps that last period, fresh, for
     * the next move (as after any move made in byo-yomi). */
    bool last_period_pass;
} tg_time_control;

/* Parse a --time SPEC (seconds, decimals allowed, at most 3 of them):
 *   none | absolute:300 | byoyomi:600+5x30 | canadian:600+25/600 |
 *   periods:3600+15/600 | fischer:300+10 | fischer:300+10max600 | simple:10
 * with the suffix ",pass" on byoyomi and simple for last_period_pass
 * ("byoyomi:600+5x30,pass").  On error *out is unchanged and err says why. */
tg_status tg_time_control_parse(const char *spec, tg_time_control *out, char *err, size_t errlen);
/* Back to a spec that tg_time_control_parse reads as the same control. */
void tg_time_control_format(const tg_time_control *tc, char *buf, size_t len);
/* A short human description: "10:00 + 5×30 s byo-yomi". */
void tg_time_control_describe(const tg_time_control *tc, char *buf, size_t len);
/* SGF: TM is main_ms / 1000 (tg_time_control_sgf_tm: < 0 means write no TM)
 * and OT is one of "5x30 byo-yomi", "25/600 Canadian", "15/600 periods",
 * "10 fischer", "10 fischer max 600", "10 simple", "" (absolute, none),
 * with " pass" after a byo-yomi or simple one for last_period_pass. */
void tg_time_control_to_sgf_ot(const tg_time_control *tc, char *buf, size_t len);
double tg_time_control_sgf_tm(const tg_time_control *tc);
/* Read back TM (seconds; < 0 when absent) and OT (NULL or "" when absent).
 * Also reads the common "5x30 byo-yomi" / "25/600 Canadian" forms other
 * programs write.  TG_ERR_PARSE (and *out = none) for an OT it does not know. */
tg_status tg_time_control_from_sgf(double tm_seconds, const char *ot, tg_time_control *out);

/* One player's clock.  Indexed by colour in tg_clock. */
typedef struct tg_player_clock {
    int64_t main_left_ms;   /* main time left (Fischer and absolute: all of it) */
    int64_t period_left_ms; /* overtime: canadian/periods time left for the block;
                               byo-yomi/simple: the period length (refilled every move) */
    int periods_left;       /* byo-yomi periods left, the current one included */
    int stones_left;        /* canadian/periods: moves still due in the current block */
    bool in_overtime;       /* main time is used up */
} tg_player_clock;

/* Both players' clocks for one game.  A plain struct: copy it to save an
 * adjourned game (R5), and read it freely; change it only through the
 * functions below. */
typedef struct tg_clock {
    tg_time_control tc;
    int64_t lag_ms;            /* allowance for transmission delay, 0 by default */
    tg_player_clock player[3]; /* [TG_BLACK], [TG_WHITE] */
    tg_color running;          /* whose turn is being timed, TG_EMPTY for nobody */
    int64_t turn_used_ms;      /* time used in this turn before the last start/resume */
    int64_t since_ms;          /* when the running clock last started or resumed */
    bool paused;
} tg_clock;

void tg_clock_init(tg_clock *c, const tg_time_control *tc);
void tg_clock_set_lag(tg_clock *c, int64_t lag_ms);
/* Milliseconds of CLOCK_MONOTONIC: the only function that reads time. */
int64_t tg_clock_now_ms(void);

/* `color`'s turn begins at now_ms (the other clock stops without charge if
 * it was running: call tg_clock_stop first to charge it).  Starting while
 * paused records the turn but counts nothing until tg_clock_resume. */
void tg_clock_start(tg_clock *c, tg_color color, int64_t now_ms);

typedef enum tg_clock_verdict {
    TG_CLOCK_OK,
    TG_CLOCK_OVERTIME_PASS, /* last period overrun under last_period_pass: the move is a pass */
    TG_CLOCK_TIME_LOSS
} tg_clock_verdict;

/* THE one function deciding time loss: what the running player's clock says
 * at now_ms (TG_CLOCK_OK for a colour whose clock is not running).  Changes
 * nothing. */
tg_clock_verdict tg_clock_check(const tg_clock *c, tg_color color, int64_t now_ms);
/* `color` has made a move at now_ms: charge the turn, apply the rules of the
 * system (period used up or kept, block of stones completed, carry-over,
 * increment, cap) and stop the clock.  The verdict is tg_clock_check's at
 * now_ms: on TG_CLOCK_OVERTIME_PASS the caller records a pass instead of the
 * move, and the player keeps the last period; on TG_CLOCK_TIME_LOSS the
 * player's time shows zero.  A colour whose clock is not running is charged
 * nothing (TG_CLOCK_OK). */
tg_clock_verdict tg_clock_stop(tg_clock *c, tg_color color, int64_t now_ms);
/* R5: a pause stops both clocks; resume restarts the one that was running.
 * Pausing a paused clock or resuming a running one changes nothing. */
void tg_clock_pause(tg_clock *c, int64_t now_ms);
void tg_clock_resume(tg_clock *c, int64_t now_ms);

/* What `color`'s clock shows at now_ms (for display, GTP time_left, SGF
 * BL/OB): all fields clamped at zero. */
typedef struct tg_clock_view {
    int64_t main_left_ms;
    int64_t period_left_ms; /* overtime: time left in the period (block) */
    int periods_left;       /* byo-yomi: periods left, the current one included */
    int stones_left;        /* canadian/periods: moves due in the current block */
    bool in_overtime;
} tg_clock_view;
void tg_clock_view_of(const tg_clock *c, tg_color color, int64_t now_ms, tg_clock_view *v);
/* The time left as SGF BL/WL (seconds: main time, or the period once in
 * overtime) and OB/OW (byo-yomi periods left, canadian/periods stones left;
 * -1 when the system has none, or in main time). */
void tg_clock_sgf_left(const tg_clock_view *v, const tg_time_control *tc, double *seconds,
                       int *moves);
/* The inverse of tg_clock_sgf_left, for what a controller tells of a clock
 * (GTP time_left, SGF BL/OB): left_ms is the main time left while count is
 * 0, else (in overtime) the time left in the period or block, with count
 * byo-yomi periods (the current one included) or Canadian/periods stones
 * still due; count means nothing under absolute, Fischer or no clock. */
void tg_clock_view_from_left(const tg_time_control *tc, int64_t left_ms, int count, tg_clock_view *v);

/* "B 9:58 | 3×0:30" style text of one view, for the terminal. */
void tg_clock_view_format(const tg_clock_view *v, const tg_time_control *tc, char *buf,
                          size_t len);

/* A player's time as the player knows it before a move: the control and
 * what its clock shows.  The one time model every part of tengen plans
 * with: the search's time plan (search.h) reads it; `tengen play` takes it
 * from its running clock (tg_clock_time_state), the GTP engine fills it
 * from time_settings, kgs-time_settings and time_left. */
typedef struct tg_time_state {
    tg_time_control control;
    tg_clock_view view;
} tg_time_state;

/* `color`'s time on c at now_ms. */
void tg_clock_time_state(const tg_clock *c, tg_color color, int64_t now_ms, tg_time_state *out);
/* The time before the first move under tc: all of it left. */
void tg_time_state_start(const tg_time_control *tc, tg_time_state *out);

/* The last now_ms at which the running player's move is still in time (lag
 * included); at deadline + 1 tg_clock_check gives an overrun.  INT64_MAX
 * when `color` is not running, the clock is paused or the system is none.
 * A referee polls with timeout deadline + 1 - now. */
int64_t tg_clock_deadline_ms(const tg_clock *c, tg_color color);
/* Time `color` has used in the current turn at now_ms (0 when not running). */
int64_t tg_clock_turn_used_ms(const tg_clock *c, tg_color color, int64_t now_ms);

/*
 * Byo-yomi countdown calls (R2).  For a 60 s period the timekeeper calls
 * the seconds used at 30, 40, 50, 55 and 58 s; in the last period he calls
 * 30, 40 and 50 s, then counts "1" .. "10" at 51 .. 60 s ("10": time is up).
 * For any other period length the calls are kept at the same times *before
 * the period's end*: seconds-used calls when 30, 20, 10, 5 and 2 s remain
 * (in the last period 30, 20 and 10 s), and the count k when 10 - k seconds
 * remain; calls that would fall at or before the period's start are
 * dropped (a 10 s period: 5 and 8 s used; last period: counts 1..10 at
 * 1..10 s).  A seconds-used call says the whole seconds used, rounded.
 */
typedef struct tg_byoyomi_call {
    int64_t at_ms;  /* time used in the period when the call is made */
    int number;     /* seconds used (count == false) or the count 1..10 */
    bool count;
} tg_byoyomi_call;
/* The first call strictly after `after_ms` used in a period of period_ms;
 * false when none is left. */
bool tg_byoyomi_next_call(int64_t period_ms, bool last_period, int64_t after_ms,
                          tg_byoyomi_call *call);

#endif
