/*
 * control.h — game control: the part of a game a human referee does, shared
 * by `tengen play`, `tengen match` and (later) the server.
 *
 * A tg_control wraps a tg_game (which it does not own) with what the rules
 * of competition add to the rules of play (RULES.md §2):
 *   - nigiri (R1), drawn from a tg_rng or given, and recorded;
 *   - the illegal-move policy of the ruleset (R6) and warnings (R7);
 *   - the clock: one tg_clock, charged on every move, deciding loss on time;
 *   - the end: two passes, then the dead-stone agreement (C9), counting
 *     with the warnings' penalty, or play resumed on a dispute; resignation.
 * Like all library code it never prints and takes the time as now_ms.
 */
#ifndef TENGEN_CONTROL_H
#define TENGEN_CONTROL_H

#include "clock.h"
#include "game.h"
#include "score.h"

/* ---- nigiri (R1) ------------------------------------------------------ */

/* The senior player hides a handful of white stones; the other shows one
 * black stone (guessing odd) or two (guessing even); guessing right takes
 * Black. */
typedef struct tg_nigiri {
    int stones;        /* the senior player's handful, >= 1 */
    bool guess_even;   /* the other player showed two stones */
    bool guess_right;
    bool senior_black; /* the result: the senior player takes Black */
} tg_nigiri;

/* Decide from given values (stones >= 1, else TG_ERR_INVALID). */
tg_status tg_nigiri_decide(int stones, bool guess_even, tg_nigiri *out);
/* A random draw: a handful of 10..39 stones (as many odd as even counts)
 * and a random guess. */
void tg_nigiri_draw(tg_rng *rng, tg_nigiri *out);
/* One line for a record (SGF GC, a log): "nigiri: 17 stones, guess even
 * (wrong): the senior player takes Black". */
void tg_nigiri_format(const tg_nigiri *n, char *buf, size_t len);

/* ---- control ---------------------------------------------------------- */

typedef enum tg_control_phase {
    TG_PHASE_PLAY,      /* moves are made */
    TG_PHASE_AGREEMENT, /* two passes: each side states its dead stones (C9) */
    TG_PHASE_OVER       /* a result is recorded (tg_game_result) */
} tg_control_phase;

typedef struct tg_control {
    tg_game *game;            /* not owned */
    tg_clock clock;           /* system none unless tg_control_set_clock */
    int warnings[3];          /* [TG_BLACK], [TG_WHITE] (R7) */
    bool clock_started;
    /* the dead-stone agreement: each side's statement, once made */
    bool stated[3];
    uint8_t dead[3][TG_MAX_POINTS];
    tg_score score;           /* the count, once agreed (result with the penalty applied) */
} tg_control;

/* Control over game g, without a clock.  The game may already hold moves. */
void tg_control_init(tg_control *ctl, tg_game *g);
/* Use a clock (replaces the current one; the clock is not started). */
void tg_control_set_clock(tg_control *ctl, const tg_time_control *tc, int64_t lag_ms);
/* Start the side to move's clock at now_ms (the start of the game, or after
 * an adjournment loaded from a saved tg_control). */
void tg_control_start_clock(tg_control *ctl, int64_t now_ms);
tg_control_phase tg_control_phase_of(const tg_control *ctl);

typedef enum tg_control_action {
    TG_ACTION_PLAYED,       /* the move stands (a pass included) */
    TG_ACTION_REJECTED,     /* refused: nothing changed, the same player moves again */
    TG_ACTION_VOID_PASS,    /* void and counted as a pass for the mover (R6) */
    TG_ACTION_VOID,         /* void, nothing played: the mover moved twice in a row (R6) */
    TG_ACTION_OVERTIME_PASS,/* made after the last byo-yomi period: taken as a pass (R2) */
    TG_ACTION_FORFEIT,      /* the mover lost: illegal move under `lose`, or a second warning */
    TG_ACTION_TIME_LOSS     /* the mover's time was up before the move */
} tg_control_action;

typedef struct tg_control_outcome {
    tg_control_action action;
    tg_status illegal;      /* why the move was illegal, TG_OK when it was legal */
    bool warning;           /* the mover got a warning (R6: ko retake, moving twice) */
    tg_control_phase phase; /* the phase after it: AGREEMENT after a second pass */
} tg_control_outcome;

/*
 * `color` plays `point` (TG_PASS for a pass, TG_RESIGN to resign) at now_ms.
 * The clock is consulted first: time already up loses (or passes, under the
 * last-period-pass option) whatever the move.  Then the move is judged:
 *   legal             played; the clock is charged and the opponent's starts;
 *   moving out of turn reject: refused; void: void with a warning (the turn
 *                     does not change); lose: forfeit;
 *   forbidden point   reject: refused; void: a pass; lose: forfeit;
 *   ko / superko      reject: refused; void: a pass and a warning; lose: forfeit;
 *   occupied, off the board: refused under reject and void (no stone can go
 *                     there: a referee asks again), forfeit under lose.
 * A refused move leaves the clock running.  A second warning forfeits.
 * Returns TG_ERR_GAME_OVER outside the play phase, TG_ERR_INVALID for a bad
 * colour; otherwise TG_OK with the outcome filled in.
 */
tg_status tg_control_play(tg_control *ctl, tg_color color, tg_point point, int64_t now_ms,
                          tg_control_outcome *out);
/* The same with tg_game_play's flags (TG_PLAY_CAPTURE_OWN).  Under a
 * ruleset whose repetition loses (free-opening, 002 §5.4), a move that
 * repeats a situation is a forfeit whatever the illegal-move policy. */
tg_status tg_control_play_flags(tg_control *ctl, tg_color color, tg_point point, unsigned flags,
                                int64_t now_ms, tg_control_outcome *out);
/* No move came: apply the clock at now_ms to the side to move (a referee
 * calls it when tg_clock_deadline_ms passes).  *action is TG_ACTION_PLAYED
 * when nothing happened, TG_ACTION_TIME_LOSS or TG_ACTION_OVERTIME_PASS. */
tg_status tg_control_tick(tg_control *ctl, int64_t now_ms, tg_control_action *action);
/* Resign at any time before the result (also in the agreement phase). */
tg_status tg_control_resign(tg_control *ctl, tg_color color);
/* R5: pause and resume both clocks. */
void tg_control_pause(tg_control *ctl, int64_t now_ms);
void tg_control_resume(tg_control *ctl, int64_t now_ms);
/* A warning given by a ruling (R7): the second one forfeits the game. */
tg_status tg_control_warn(tg_control *ctl, tg_color color);

/*
 * The dead-stone agreement (C9), in the agreement phase.  Each side states
 * the stones it holds dead (dead[p] != 0, of either colour; NULL: none).
 * When both have stated:
 *   - the same stones: the game is counted with them (tg_score_game), each
 *     warning taking 2 points (one stone) from its player's total, and the
 *     result recorded (TG_PHASE_OVER);
 *   - different stones: play resumes (TG_PHASE_PLAY) with the player who
 *     claims a disputed stone dead moving first (under dispute=turn, as in
 *     the free-opening ruleset, always in turn); when each side claims some
 *     the other disputes, the player whose turn it was after the passes
 *     moves first, and that player's clock starts at now_ms.  The
 *     statements are then forgotten.
 * TG_ERR_NOT_ALLOWED outside the agreement phase.
 * *phase (may be NULL) is the phase after the statement.
 *
 * R3, "a player may stop the clock by passing and conceding every disputed
 * point": the clock stops at two passes, and tg_control_concede accepts the
 * opponent's statement, so the count follows without further play.
 */
tg_status tg_control_state_dead(tg_control *ctl, tg_color color, const uint8_t *dead,
                                int64_t now_ms, tg_control_phase *phase);
/* `color` adopts the opponent's statement (which must be made) as its own. */
tg_status tg_control_concede(tg_control *ctl, tg_color color, int64_t now_ms,
                             tg_control_phase *phase);

/* The result "B+3.5 (Black wins by 1¾ stones)" (chinese: "黑胜1又3/4子"),
 * "?" while the game goes on. */
void tg_control_result_text(const tg_control *ctl, bool chinese, char *buf, size_t len);

/* The free-opening ruleset's prediction time (002 §5.3.3, "one tenth of
 * the game's total time", unless the competition says otherwise): a tenth
 * of one player's time under tc, its main time and one full round of
 * overtime (every byo-yomi period, one Canadian or periods block, the
 * simple period), and never under 10 s; 0 for an untimed game (no limit).
 * The first player's runs from the third opening stone, the second's from
 * the fourth; running out loses. */
int64_t tg_prediction_time_ms(const tg_time_control *tc);

#endif
