/*
 * game_setup.c — the referee's side of a game that is not move-by-move
 * play: telling an engine the game (board, komi, rules, clock, handicap,
 * moves so far — also after a restart), telling it the time left, ending a
 * game by an engine's failure, and writing the SGF record with the clock
 * after every move.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee/referee_internal.h"
#include "tengen/gtp.h"
#include "tengen/sgf.h"

int64_t runner_answer_deadline(const game_runner *r)
{
    return r->cfg->timeout_ms > 0 ? tg_clock_now_ms() + r->cfg->timeout_ms : -1;
}

tg_end_reason runner_reason_of(tg_reply reply, bool timed_wait)
{
    switch (reply) {
    case TG_REPLY_FAILURE: return TG_END_REFUSED;
    case TG_REPLY_GARBAGE: return TG_END_GARBAGE;
    case TG_REPLY_TIMEOUT: return timed_wait ? TG_END_TIME : TG_END_HANG;
    case TG_REPLY_DIED: return TG_END_CRASH;
    default: return TG_END_GARBAGE;
    }
}

void runner_forfeit(game_runner *r, tg_color culprit, tg_end_reason reason, const char *fmt, ...)
{
    if (r->over)
        return;
    r->over = true;
    tg_referee_outcome *out = r->out;
    out->reason = reason;
    out->culprit = culprit;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->detail, sizeof out->detail, fmt, ap);
    va_end(ap);
    r->control.clock.running = TG_EMPTY;
    if (tg_game_result(r->game)->kind != TG_RESULT_NONE)
        ; /* control.h recorded it already (time, forfeit by R6/R7) */
    else if (tg_game_over(r->game)) /* after two passes: record it directly */
        tg_game_set_result(r->game, &(tg_result){reason == TG_END_TIME ? TG_RESULT_TIME
                                                 : reason == TG_END_RESIGN ? TG_RESULT_RESIGN
                                                                           : TG_RESULT_FORFEIT,
                                                 tg_opponent(culprit), 0});
    else if (reason == TG_END_TIME)
        tg_game_lose_on_time(r->game, culprit);
    else if (reason == TG_END_RESIGN)
        tg_game_resign(r->game, culprit);
    else
        tg_game_forfeit(r->game, culprit);
    /* An engine that failed, or was cut off thinking, is out of step. */
    if (reason != TG_END_RESIGN && reason != TG_END_ILLEGAL && reason != TG_END_WARNINGS)
        out->restart[culprit] = true;
}

/* A command the engine must obey; false (and the game forfeited) if not. */
static bool obey(game_runner *r, tg_color color, const char *command)
{
    char answer[256];
    tg_reply reply = tg_engine_send(r->engine[color], command, runner_answer_deadline(r), answer,
                                    sizeof answer);
    if (reply == TG_REPLY_OK)
        return true;
    if (reply == TG_REPLY_STOPPED) {
        r->out->stopped = r->over = true;
        return false;
    }
    runner_forfeit(r, color, runner_reason_of(reply, false), "%s: '%s' -> %s %s",
                   tg_engine_name(r->engine[color]), command, tg_reply_text(reply), answer);
    return false;
}

/* A command the engine may not know: asked only if known, failures ignored. */
static void offer(game_runner *r, tg_color color, const char *command)
{
    char name[48];
    sscanf(command, "%47s", name);
    tg_engine *e = r->engine[color];
    if (tg_engine_knows(e, name, runner_answer_deadline(r))) {
        char answer[128];
        tg_engine_send(e, command, runner_answer_deadline(r), answer, sizeof answer);
    }
}

/* Seconds for GTP: whole when whole, else with the milliseconds. */
static void seconds_text(int64_t ms, char *buf, size_t len)
{
    if (ms % 1000 == 0)
        snprintf(buf, len, "%lld", (long long)(ms / 1000));
    else
        snprintf(buf, len, "%.3f", (double)ms / 1000.0);
}

/* kgs-time_settings says byo-yomi exactly; time_settings (Canadian only) is
 * the fallback; Fischer has no GTP form and is told as absolute time, with
 * time_left before each move giving the truth. */
static void tell_time_settings(game_runner *r, tg_color color)
{
    const tg_time_control *tc = &r->cfg->time;
    char m[32], p[32], line[160], kgs[160] = "";
    seconds_text(tc->main_ms, m, sizeof m);
    seconds_text(tc->period_ms, p, sizeof p);
    switch (tc->system) {
    case TG_CLOCK_NONE:
        snprintf(kgs, sizeof kgs, "kgs-time_settings none");
        snprintf(line, sizeof line, "time_settings 0 1 0");
        break;
    case TG_CLOCK_ABSOLUTE:
    case TG_CLOCK_FISCHER:
        snprintf(kgs, sizeof kgs, "kgs-time_settings absolute %s", m);
        snprintf(line, sizeof line, "time_settings %s 0 0", m);
        break;
    case TG_CLOCK_BYOYOMI:
    case TG_CLOCK_SIMPLE: {
        int periods = tc->system == TG_CLOCK_SIMPLE ? 1 : tc->periods;
        snprintf(kgs, sizeof kgs, "kgs-time_settings byoyomi %s %s %d",
                 tc->system == TG_CLOCK_SIMPLE ? "0" : m, p, periods);
        snprintf(line, sizeof line, "time_settings %s %s 1", tc->system == TG_CLOCK_SIMPLE ? "0" : m, p);
        break;
    }
    case TG_CLOCK_CANADIAN:
    case TG_CLOCK_PERIODS:
        snprintf(kgs, sizeof kgs, "kgs-time_settings canadian %s %s %d", m, p, tc->stones);
        snprintf(line, sizeof line, "time_settings %s %s %d", m, p, tc->stones);
        break;
    }
    if (tg_engine_knows(r->engine[color], "kgs-time_settings", runner_answer_deadline(r)))
        offer(r, color, kgs);
    else
        offer(r, color, line);
}

bool runner_tell_time_left(game_runner *r, tg_color color)
{
    if (!r->timed || !tg_engine_knows(r->engine[color], "time_left", runner_answer_deadline(r)))
        return true;
    tg_clock_view v;
    tg_clock_view_of(&r->control.clock, color, tg_clock_now_ms(), &v);
    int64_t ms = v.in_overtime ? v.period_left_ms : v.main_left_ms;
    int count = 0;
    if (v.in_overtime)
        count = r->cfg->time.system == TG_CLOCK_BYOYOMI ? v.periods_left
                : r->cfg->time.system == TG_CLOCK_SIMPLE ? 1 : v.stones_left;
    char s[32], line[96], answer[64];
    seconds_text(ms / 1000 * 1000, s, sizeof s); /* whole seconds, rounded down */
    snprintf(line, sizeof line, "time_left %c %s %d", color == TG_BLACK ? 'b' : 'w', s, count);
    tg_engine_send(r->engine[color], line, runner_answer_deadline(r), answer, sizeof answer);
    return true;
}

static void tell_rules(game_runner *r, tg_color color)
{
    const tg_rules *rules = &r->cfg->rules;
    char line[320], text[256];
    if (tg_engine_knows(r->engine[color], "tengen-rules", runner_answer_deadline(r))) {
        tg_rules_describe(rules, text, sizeof text);
        snprintf(line, sizeof line, "tengen-rules %s", text);
        offer(r, color, line);
        return;
    }
    static const char *const kgs[][2] = {{"chinese", "chinese"}, {"japanese", "japanese"},
                                         {"korean", "japanese"}, {"aga", "aga"},
                                         {"new-zealand", "new_zealand"}};
    for (size_t i = 0; i < sizeof kgs / sizeof kgs[0]; i++)
        if (!strcmp(rules->name, kgs[i][0])) {
            snprintf(line, sizeof line, "kgs-rules %s", kgs[i][1]);
            offer(r, color, line);
        }
}

static bool replay_moves(game_runner *r, tg_color color)
{
    const tg_board *b = tg_game_board(r->game);
    for (int i = 0; i < tg_game_move_count(r->game); i++) {
        const tg_move *m = tg_game_move(r->game, i);
        char line[48];
        tg_gtp_move_command(b, m->color, m->point, tg_game_move_captured_own(r->game, i) ? TG_PLAY_CAPTURE_OWN : 0,
                            line, sizeof line);
        if (!obey(r, color, line))
            return false;
    }
    return true;
}

bool runner_setup_engine(game_runner *r, tg_color color)
{
    char line[64], komi[16];
    snprintf(line, sizeof line, "boardsize %d", r->cfg->size);
    if (!obey(r, color, line) || !obey(r, color, "clear_board"))
        return false;
    tell_rules(r, color);
    tg_komi_format(r->cfg->rules.komi2, komi, sizeof komi);
    snprintf(line, sizeof line, "komi %s", komi);
    if (!obey(r, color, line))
        return false;
    tell_time_settings(r, color);
    if (r->cfg->handicap >= 2) {
        snprintf(line, sizeof line, "fixed_handicap %d", r->cfg->handicap);
        if (!obey(r, color, line))
            return false;
    }
    return replay_moves(r, color);
}

bool runner_resync_engine(game_runner *r, tg_color color)
{
    /* The replay is the referee's business: nobody's clock runs (R5). */
    char err[200];
    tg_control_pause(&r->control, tg_clock_now_ms());
    bool ok = tg_engine_restart(r->engine[color], err, sizeof err) == TG_OK;
    if (!ok)
        runner_forfeit(r, color, TG_END_CRASH, "%s", err);
    ok = ok && runner_setup_engine(r, color);
    tg_control_resume(&r->control, tg_clock_now_ms());
    return ok;
}

/* ---- The record ------------------------------------------------------------ */

void runner_note_clock(game_runner *r, tg_color color, int64_t now_ms)
{
    if (r->timed)
        tg_sgf_record_clock(&r->clock_after, &r->clock_cap, tg_game_move_count(r->game) - 1,
                            &r->control.clock, color, now_ms);
}

static void add_text(tg_sgf_tree *t, tg_sgf_node *n, const char *id, const char *text)
{
    if (text && *text)
        tg_sgf_property_add(t, n, id, text, strlen(text));
}

char *runner_sgf(const game_runner *r)
{
    const tg_referee_config *cfg = r->cfg;
    tg_sgf_info info;
    memset(&info, 0, sizeof info);
    snprintf(info.black, sizeof info.black, "%s", cfg->black_name ? cfg->black_name : "");
    snprintf(info.white, sizeof info.white, "%s", cfg->white_name ? cfg->white_name : "");
    snprintf(info.event, sizeof info.event, "%s", cfg->event ? cfg->event : "");
    snprintf(info.round, sizeof info.round, "%s", cfg->round ? cfg->round : "");
    snprintf(info.result, sizeof info.result, "%s", r->out->result_text);
    info.main_time = r->timed ? tg_time_control_sgf_tm(&cfg->time) : -1;
    if (r->timed)
        tg_time_control_to_sgf_ot(&cfg->time, info.overtime, sizeof info.overtime);
    info.has_predictions = cfg->has_predictions;
    info.prediction_first2 = cfg->prediction_first2;
    info.prediction_second2 = cfg->prediction_second2;
    info.first_player = cfg->first_player;
    info.clocks = r->clock_after;
    info.clock_count = r->clock_cap < tg_game_move_count(r->game) ? r->clock_cap : tg_game_move_count(r->game);
    if (r->counted && tg_game_result(r->game)->kind == TG_RESULT_SCORE) {
        info.has_dead = true; /* TB/TW: the count can be made again from the record */
        memcpy(info.dead, r->counted_dead, sizeof info.dead);
    }
    tg_sgf_tree *tree = tg_sgf_tree_from_game(r->game, &info);
    if (!tree)
        return NULL;
    tg_sgf_node *root = tg_sgf_tree_games(tree);
    char comment[400];
    snprintf(comment, sizeof comment, "tengen match: %s%s%s (seed %llu)%s%s",
             tg_end_reason_name(r->out->reason), r->out->detail[0] ? ": " : "", r->out->detail,
             (unsigned long long)cfg->seed, cfg->note ? "; " : "", cfg->note ? cfg->note : "");
    add_text(tree, root, "GC", comment);
    char *text = tg_sgf_write(tree, NULL);
    tg_sgf_tree_free(tree);
    return text;
}
