/*
 * game_runner.c — one game refereed between two GTP engines: ask the side
 * to move for its move under the clock, check it with the game layer, apply
 * the illegal-move policy of the rules (R6, R7), tell the opponent, and end
 * the game by resignation, time, forfeit, the move cap, or two passes
 * followed by the dead-stone agreement (C9: a dispute reopens play, or the
 * estimator decides, as configured).
 *
 * The referee's game (tg_game) is the truth; engines are told every move
 * and are restarted and replayed to the current position whenever they fall
 * out of step (a move taken back, an overtime pass while still thinking).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "referee/referee_internal.h"
#include "tengen/gtp.h"
#include "tengen/score.h"

/* Under the reject policy an engine gets this many tries per turn. */
#define MAX_REJECTED 3

static const char *const reason_names[TG_END_COUNT_] = {
    "score", "resign", "time", "illegal", "warnings", "crash", "hang",
    "garbage", "refused", "move-cap", "cycle", "start"};

const char *tg_end_reason_name(tg_end_reason r)
{
    return r >= 0 && r < TG_END_COUNT_ ? reason_names[r] : "?";
}

tg_end_reason tg_end_reason_parse(const char *name)
{
    for (int i = 0; i < TG_END_COUNT_; i++)
        if (!strcmp(name, reason_names[i]))
            return (tg_end_reason)i;
    return TG_END_COUNT_;
}

static char color_letter(tg_color c) { return c == TG_BLACK ? 'b' : 'w'; }

static void stopped(game_runner *r)
{
    r->out->stopped = true;
    r->over = true;
}

/* ---- Counting -------------------------------------------------------------- */

/* The dead stones (NULL: none) a count is made with, kept for the record
 * so that counting it again gives its result. */
static void note_counted(game_runner *r, const uint8_t *dead)
{
    r->counted = true;
    for (int p = 0; p < TG_MAX_POINTS; p++)
        r->counted_dead[p] = dead && dead[p];
}

/* The move cap: counted with the estimator, warnings costing a stone each
 * (R7) as control.h counts them after an agreement. */
static void adjudicate(game_runner *r, const uint8_t *dead, const char *how)
{
    note_counted(r, dead);
    tg_score score;
    tg_score_game(r->game, dead, &score);
    int penalty2 = 4 * (r->control.warnings[TG_WHITE] - r->control.warnings[TG_BLACK]);
    tg_result res = tg_result_of_count(tg_game_rules(r->game),
                                       score.black2 - score.white2 - 2 * score.handicap_points + penalty2);
    tg_game_set_result(r->game, &res);
    r->out->reason = TG_END_MOVE_CAP;
    snprintf(r->out->detail, sizeof r->out->detail, "%s", how);
    r->over = true;
}

/* The position's own estimate, the count `tengen score` and GTP final_score
 * give for it. */
static void estimate_dead(const game_runner *r, uint8_t *dead)
{
    tg_game_estimate_dead(r->game, r->cfg->estimate_playouts, 0, dead);
}

/* final_status_list dead as a mask; false when the engine cannot say. */
static bool dead_list(game_runner *r, tg_color color, uint8_t *dead)
{
    memset(dead, 0, TG_MAX_POINTS);
    tg_engine *e = r->engine[color];
    if (!tg_engine_knows(e, "final_status_list", runner_answer_deadline(r)))
        return false;
    char answer[8192];
    tg_reply reply = tg_engine_send(e, "final_status_list dead", runner_answer_deadline(r),
                                    answer, sizeof answer);
    if (reply == TG_REPLY_STOPPED)
        stopped(r);
    if (reply != TG_REPLY_OK)
        return false;
    const tg_board *b = tg_game_board(r->game);
    char *save = NULL;
    for (char *word = strtok_r(answer, " \t\n", &save); word; word = strtok_r(NULL, " \t\n", &save)) {
        tg_point p;
        if (tg_vertex_parse(b, word, &p) != TG_OK || p < 0)
            return false;
        if (tg_board_at(b, p) != TG_EMPTY)
            dead[p] = 1;
    }
    return true;
}

/* Both sides state the same dead stones: control.h counts the game. */
static void state_both(game_runner *r, const uint8_t *dead, const char *how)
{
    note_counted(r, dead);
    int64_t now = tg_clock_now_ms();
    tg_control_state_dead(&r->control, TG_BLACK, dead, now, NULL);
    tg_control_state_dead(&r->control, TG_WHITE, dead, now, NULL);
    r->out->reason = TG_END_SCORE;
    snprintf(r->out->detail, sizeof r->out->detail, "%s", how);
    r->over = true;
}

/* Two passes: the engines' dead stones, agreed, or the dispute settled by
 * play (C9, once) or by the estimator. */
static void settle(game_runner *r)
{
    uint8_t dead[3][TG_MAX_POINTS];
    uint8_t *estimate = dead[TG_EMPTY];
    if (!r->cfg->rules.dead_removed) {
        state_both(r, NULL, "every stone alive (dead=keep)");
        return;
    }
    bool black_says = dead_list(r, TG_BLACK, dead[TG_BLACK]);
    bool white_says = !r->over && dead_list(r, TG_WHITE, dead[TG_WHITE]);
    if (r->over)
        return;
    bool agree = black_says && white_says && !memcmp(dead[TG_BLACK], dead[TG_WHITE], TG_MAX_POINTS);
    if (agree) {
        state_both(r, dead[TG_BLACK], r->disputed ? "dead stones agreed after play-on" : "dead stones agreed");
    } else if (!black_says || !white_says) {
        estimate_dead(r, estimate);
        state_both(r, estimate, "dead stones estimated: an engine lacks final_status_list");
    } else if (r->cfg->dispute == TG_DISPUTE_ESTIMATE || r->disputed) {
        estimate_dead(r, estimate);
        state_both(r, estimate, "dead stones disputed: estimated");
    } else {
        int64_t now = tg_clock_now_ms();
        r->disputed = r->cleanup = true;
        tg_control_state_dead(&r->control, TG_BLACK, dead[TG_BLACK], now, NULL);
        tg_control_state_dead(&r->control, TG_WHITE, dead[TG_WHITE], now, NULL);
    }
}

/* ---- Moves ----------------------------------------------------------------- */

/* Take the engine's last move back: by undo (*undone), or by a restart and
 * a replay of the referee's game.  False when the game ended meanwhile. */
static bool take_back(game_runner *r, tg_color color, bool *undone)
{
    char answer[128];
    tg_reply reply = tg_engine_send(r->engine[color], "undo", runner_answer_deadline(r), answer,
                                    sizeof answer);
    *undone = reply == TG_REPLY_OK;
    if (reply == TG_REPLY_OK)
        return true;
    if (reply == TG_REPLY_STOPPED) {
        stopped(r);
        return false;
    }
    return runner_resync_engine(r, color);
}

/* Tell `whom` that `color` played `point`; a refusal is its forfeit, unless
 * it is the mover being told its own replaced move: then it is replayed. */
static void tell_move(game_runner *r, tg_color whom, tg_color color, tg_point point, bool own)
{
    char line[48], answer[128];
    tg_gtp_move_command(tg_game_board(r->game), color, point, own ? TG_PLAY_CAPTURE_OWN : 0, line, sizeof line);
    tg_reply reply = tg_engine_send(r->engine[whom], line, runner_answer_deadline(r), answer,
                                    sizeof answer);
    if (reply == TG_REPLY_OK)
        return;
    if (reply == TG_REPLY_STOPPED)
        stopped(r);
    else if (whom == color)
        runner_resync_engine(r, whom);
    else
        runner_forfeit(r, whom, runner_reason_of(reply, false), "%s: '%s' -> %s %s",
                       tg_engine_name(r->engine[whom]), line, tg_reply_text(reply), answer);
}

/* After a move control.h accepted: tell the engines, then go on, count, or
 * record how it ended. */
static void after_move(game_runner *r, tg_color color, bool replaced_by_pass, int64_t now_ms)
{
    const tg_move *last = tg_game_move(r->game, tg_game_move_count(r->game) - 1);
    runner_note_clock(r, color, now_ms);
    bool undone;
    if (replaced_by_pass && take_back(r, color, &undone) && undone)
        tell_move(r, color, color, TG_PASS, false); /* a replay had the pass already */
    if (!r->over)
        tell_move(r, tg_opponent(color), color, last->point,
                  tg_game_move_captured_own(r->game, tg_game_move_count(r->game) - 1));
    if (r->over)
        return;
    tg_control_phase phase = tg_control_phase_of(&r->control);
    if (phase == TG_PHASE_AGREEMENT) {
        settle(r);
    } else if (phase == TG_PHASE_OVER) {
        r->over = true;
        r->out->reason = TG_END_CYCLE;
        snprintf(r->out->detail, sizeof r->out->detail, "the position repeated");
    }
}

/* What control.h made of the move; true when the same player is asked again. */
static bool judge(game_runner *r, tg_color color, const char *vertex,
                  const tg_control_outcome *o, int64_t now_ms, int *rejected)
{
    const char *name = tg_engine_name(r->engine[color]);
    switch (o->action) {
    case TG_ACTION_PLAYED:
        after_move(r, color, false, now_ms);
        return false;
    case TG_ACTION_VOID_PASS:
    case TG_ACTION_OVERTIME_PASS:
        after_move(r, color, true, now_ms);
        return false;
    case TG_ACTION_REJECTED:
    case TG_ACTION_VOID:
        if (++*rejected >= MAX_REJECTED) {
            runner_forfeit(r, color, TG_END_ILLEGAL, "%s played %d illegal moves in a row (last %s: %s)",
                           name, *rejected, vertex, tg_status_text(o->illegal));
            return false;
        }
        return take_back(r, color, &(bool){false});
    case TG_ACTION_FORFEIT:
        runner_forfeit(r, color, o->warning ? TG_END_WARNINGS : TG_END_ILLEGAL, "%s played %s: %s%s",
                       name, vertex, tg_status_text(o->illegal), o->warning ? " (second warning)" : "");
        return false;
    case TG_ACTION_TIME_LOSS:
        runner_forfeit(r, color, TG_END_TIME, "%s: out of time", name);
        return false;
    }
    return false;
}

/* No move by the deadline: the clock decides (control.h's tick). */
static void overran(game_runner *r, tg_color color, int64_t now_ms)
{
    tg_control_action action = TG_ACTION_TIME_LOSS;
    tg_control_tick(&r->control, now_ms, &action);
    if (action == TG_ACTION_OVERTIME_PASS) {
        /* Still thinking: bring it back in step, then tell both the pass. */
        if (runner_resync_engine(r, color)) {
            runner_note_clock(r, color, now_ms);
            tell_move(r, tg_opponent(color), color, TG_PASS, false);
            if (!r->over && tg_control_phase_of(&r->control) == TG_PHASE_AGREEMENT)
                settle(r);
        }
        return;
    }
    runner_forfeit(r, color, TG_END_TIME, "%s: no move by the deadline",
                   tg_engine_name(r->engine[color]));
}

/* The answer to genmove: a move for control.h, resignation, or garbage;
 * "VERTEX own" (the capture choice) where tengen-genmove_choice asked.
 * True when the same player is asked again. */
static bool answered(game_runner *r, tg_color color, const char *answer, bool choice, int64_t now_ms,
                     int *rejected)
{
    const char *name = tg_engine_name(r->engine[color]);
    if (!strcasecmp(answer, "resign")) {
        runner_forfeit(r, color, TG_END_RESIGN, "%s resigned", name);
        return false;
    }
    tg_point point;
    unsigned flags;
    tg_status st = tg_move_parse(tg_game_board(r->game), answer, choice, &point, &flags);
    if (st == TG_ERR_PARSE) {
        runner_forfeit(r, color, TG_END_GARBAGE, "%s: genmove -> '%s' is not a move", name, answer);
        return false;
    }
    tg_control_outcome o;
    if (st == TG_ERR_OFF_BOARD) { /* no stone can go there: as an occupied point */
        o = (tg_control_outcome){.illegal = st, .action = r->cfg->rules.illegal == TG_ILLEGAL_LOSE
                                                           ? TG_ACTION_FORFEIT : TG_ACTION_REJECTED};
        if (o.action == TG_ACTION_FORFEIT)
            tg_game_forfeit(r->game, color);
    } else if (tg_control_play_flags(&r->control, color, point, flags, now_ms, &o) != TG_OK) {
        runner_forfeit(r, color, TG_END_ILLEGAL, "%s played %s after the end", name, answer);
        return false;
    }
    return judge(r, color, answer, &o, now_ms, rejected);
}

/* Ask the side to move for a move; one turn, rejected tries included. */
static void play_turn(game_runner *r)
{
    tg_color color = tg_game_to_move(r->game);
    tg_engine *e = r->engine[color];
    /* the capture choice is asked for only where the opponent can be told it */
    bool choice = !r->cleanup && r->cfg->rules.capture_choice &&
                  tg_engine_knows(e, "tengen-genmove_choice", runner_answer_deadline(r)) &&
                  tg_engine_knows(r->engine[tg_opponent(color)], "tengen-capture_own", runner_answer_deadline(r));
    const char *verb = choice ? "tengen-genmove_choice"
                       : r->cleanup && tg_engine_knows(e, "kgs-genmove_cleanup", runner_answer_deadline(r))
                           ? "kgs-genmove_cleanup"
                           : "genmove";
    char line[48], answer[256];
    snprintf(line, sizeof line, "%s %c", verb, color_letter(color));
    if (r->timed && !r->control.clock_started)
        tg_control_start_clock(&r->control, tg_clock_now_ms());
    for (int rejected = 0; !r->over;) {
        runner_tell_time_left(r, color);
        int64_t deadline = r->timed ? tg_clock_deadline_ms(&r->control.clock, color) + 1
                                    : runner_answer_deadline(r);
        tg_reply reply = tg_engine_send(e, line, deadline, answer, sizeof answer);
        int64_t now = tg_clock_now_ms();
        if (reply == TG_REPLY_STOPPED) {
            stopped(r);
            return;
        }
        if (reply == TG_REPLY_TIMEOUT && r->timed) {
            overran(r, color, now);
            return;
        }
        if (reply != TG_REPLY_OK) {
            runner_forfeit(r, color, runner_reason_of(reply, false), "%s: '%s' -> %s %s",
                           tg_engine_name(e), line, tg_reply_text(reply), answer);
            return;
        }
        if (!answered(r, color, answer, choice, now, &rejected))
            return;
    }
}

/* ---- The game ---------------------------------------------------------------- */

static tg_status start_game(game_runner *r)
{
    const tg_referee_config *cfg = r->cfg;
    r->game = tg_game_new(cfg->size, &cfg->rules);
    if (!r->game)
        return TG_ERR_NO_MEMORY;
    if (cfg->handicap >= 2) {
        tg_point points[16];
        int n = tg_fixed_handicap_points(tg_game_board(r->game), cfg->handicap, points);
        if (n != cfg->handicap || tg_game_place_handicap(r->game, points, n) != TG_OK)
            return TG_ERR_INVALID;
    }
    for (int i = 0; i < cfg->opening_len; i++)
        if (tg_game_play(r->game, cfg->opening[i].color, cfg->opening[i].point, 0) != TG_OK)
            return TG_ERR_INVALID;
    r->timed = cfg->time.system != TG_CLOCK_NONE;
    tg_control_init(&r->control, r->game);
    tg_control_set_clock(&r->control, &cfg->time, cfg->lag_ms);
    return TG_OK;
}

static void adjudicate_if_capped(game_runner *r)
{
    int cap = r->cfg->move_cap > 0 ? r->cfg->move_cap : 4 * r->cfg->size * r->cfg->size;
    if (tg_game_move_count(r->game) < cap)
        return;
    char how[80];
    uint8_t dead[TG_MAX_POINTS];
    snprintf(how, sizeof how, "adjudicated after %d moves", tg_game_move_count(r->game));
    estimate_dead(r, dead);
    adjudicate(r, r->cfg->rules.dead_removed ? dead : NULL, how);
}

static void finish_outcome(game_runner *r, int64_t started)
{
    tg_referee_outcome *out = r->out;
    out->moves = tg_game_move_count(r->game);
    out->duration_ms = tg_clock_now_ms() - started;
    if (out->stopped) {
        snprintf(out->result_text, sizeof out->result_text, "?");
        return;
    }
    out->result = *tg_game_result(r->game);
    out->warnings[TG_BLACK] = r->control.warnings[TG_BLACK];
    out->warnings[TG_WHITE] = r->control.warnings[TG_WHITE];
    tg_result_to_sgf(&out->result, out->result_text, sizeof out->result_text);
}

tg_status tg_referee_play(const tg_referee_config *cfg, tg_engine *black, tg_engine *white,
                          const atomic_int *stop, tg_referee_outcome *out, char **sgf)
{
    memset(out, 0, sizeof *out);
    if (sgf)
        *sgf = NULL;
    game_runner r = {.cfg = cfg, .stop = stop, .out = out};
    r.engine[TG_BLACK] = black;
    r.engine[TG_WHITE] = white;
    int64_t started = tg_clock_now_ms();
    tg_status st = start_game(&r);
    if (st == TG_OK) {
        if (runner_setup_engine(&r, TG_BLACK))
            runner_setup_engine(&r, TG_WHITE);
        while (!r.over) {
            if (stop && atomic_load(stop)) {
                stopped(&r);
                break;
            }
            adjudicate_if_capped(&r);
            if (!r.over)
                play_turn(&r);
        }
        finish_outcome(&r, started);
        if (sgf && !out->stopped) {
            *sgf = runner_sgf(&r);
            if (!*sgf)
                st = TG_ERR_NO_MEMORY;
        }
    }
    tg_game_free(r.game);
    free(r.clock_after);
    return st;
}
