/*
 * control.c — game control: each move judged under the clock and the
 * ruleset's illegal-move policy (R6), warnings (R7), resignation, and the
 * dead-stone agreement that ends a game or resumes it (C9).  Nigiri is in
 * nigiri.c.
 *
 * The tg_game below stays the single source of truth for the position, the
 * turn and the result; this layer only decides what to ask of it.
 */
#include <stdio.h>
#include <string.h>

#include "tengen/control.h"

void tg_control_init(tg_control *ctl, tg_game *g)
{
    memset(ctl, 0, sizeof *ctl);
    ctl->game = g;
    tg_time_control none = {.system = TG_CLOCK_NONE};
    tg_clock_init(&ctl->clock, &none);
}

void tg_control_set_clock(tg_control *ctl, const tg_time_control *tc, int64_t lag_ms)
{
    tg_clock_init(&ctl->clock, tc);
    tg_clock_set_lag(&ctl->clock, lag_ms);
    ctl->clock_started = false;
}

tg_control_phase tg_control_phase_of(const tg_control *ctl)
{
    if (tg_game_result(ctl->game)->kind != TG_RESULT_NONE)
        return TG_PHASE_OVER;
    return tg_game_over(ctl->game) ? TG_PHASE_AGREEMENT : TG_PHASE_PLAY;
}

/* The side to move's clock runs only while moves are made. */
static void next_turn(tg_control *ctl, int64_t now_ms)
{
    if (ctl->clock_started && tg_control_phase_of(ctl) == TG_PHASE_PLAY)
        tg_clock_start(&ctl->clock, tg_game_to_move(ctl->game), now_ms);
    else
        ctl->clock.running = TG_EMPTY;
}

void tg_control_start_clock(tg_control *ctl, int64_t now_ms)
{
    ctl->clock_started = true;
    next_turn(ctl, now_ms);
}

/* End the game against `loser`.  After two passes the game layer counts the
 * game as over already, so the result is recorded directly. */
static void end_against(tg_control *ctl, tg_result_kind kind, tg_color loser)
{
    ctl->clock.running = TG_EMPTY;
    if (tg_control_phase_of(ctl) == TG_PHASE_AGREEMENT) {
        tg_result r = {kind, tg_opponent(loser), 0};
        tg_game_set_result(ctl->game, &r);
    } else if (kind == TG_RESULT_RESIGN) {
        tg_game_resign(ctl->game, loser);
    } else if (kind == TG_RESULT_TIME) {
        tg_game_lose_on_time(ctl->game, loser);
    } else {
        tg_game_forfeit(ctl->game, loser);
    }
}

/* R7: a warning; the second one loses.  True when it lost the game. */
static bool give_warning(tg_control *ctl, tg_color color)
{
    if (++ctl->warnings[color] < 2)
        return false;
    end_against(ctl, TG_RESULT_FORFEIT, color);
    return true;
}

tg_status tg_control_warn(tg_control *ctl, tg_color color)
{
    if (color != TG_BLACK && color != TG_WHITE)
        return TG_ERR_INVALID;
    if (tg_control_phase_of(ctl) == TG_PHASE_OVER)
        return TG_ERR_GAME_OVER;
    give_warning(ctl, color);
    return TG_OK;
}

tg_status tg_control_resign(tg_control *ctl, tg_color color)
{
    if (color != TG_BLACK && color != TG_WHITE)
        return TG_ERR_INVALID;
    if (tg_control_phase_of(ctl) == TG_PHASE_OVER)
        return TG_ERR_GAME_OVER;
    end_against(ctl, TG_RESULT_RESIGN, color);
    return TG_OK;
}

/* A move (or a pass standing for one) is made: the game takes it, the
 * mover's clock is charged, the opponent's starts. */
static void make_move(tg_control *ctl, tg_color color, tg_point point, unsigned flags, int64_t now_ms)
{
    tg_clock_stop(&ctl->clock, color, now_ms);
    tg_game_play(ctl->game, color, point, flags);
    next_turn(ctl, now_ms);
}

/* The clock's say before any move is judged; true when it decided the turn. */
static bool apply_clock(tg_control *ctl, tg_color color, int64_t now_ms, tg_control_action *action)
{
    tg_clock_verdict verdict = tg_clock_check(&ctl->clock, color, now_ms);
    if (verdict == TG_CLOCK_TIME_LOSS) {
        tg_clock_stop(&ctl->clock, color, now_ms);
        end_against(ctl, TG_RESULT_TIME, color);
        *action = TG_ACTION_TIME_LOSS;
        return true;
    }
    if (verdict == TG_CLOCK_OVERTIME_PASS) {
        make_move(ctl, color, TG_PASS, 0, now_ms); /* the clock keeps the last period for it */
        *action = TG_ACTION_OVERTIME_PASS;
        return true;
    }
    return false;
}

/* R6 under the ruleset's policy, for a move the game refused with `why`. */
static void judge_illegal(tg_control *ctl, tg_color color, tg_status why, int64_t now_ms,
                          tg_control_outcome *out)
{
    const tg_rules *rules = tg_game_rules(ctl->game);
    tg_illegal_policy policy = rules->illegal;
    bool placeable = why == TG_ERR_SUICIDE || why == TG_ERR_KO || why == TG_ERR_SUPERKO;
    bool repetition = why == TG_ERR_KO || why == TG_ERR_SUPERKO;
    /* 002 §5.4: a repetition loses at once, whatever the policy for other
     * illegal moves */
    if (policy == TG_ILLEGAL_LOSE || (repetition && rules->repetition_loses)) {
        tg_clock_stop(&ctl->clock, color, now_ms);
        end_against(ctl, TG_RESULT_FORFEIT, color);
        out->action = TG_ACTION_FORFEIT;
        return;
    }
    if (policy == TG_ILLEGAL_REJECT || (why != TG_ERR_WRONG_PLAYER && !placeable)) {
        out->action = TG_ACTION_REJECTED;
        return;
    }
    out->warning = why != TG_ERR_SUICIDE; /* ko retake or moving twice */
    if (out->warning && give_warning(ctl, color)) {
        out->action = TG_ACTION_FORFEIT;
        return;
    }
    if (why == TG_ERR_WRONG_PLAYER) {
        out->action = TG_ACTION_VOID; /* the second of two moves in a row: the turn stays */
        return;
    }
    make_move(ctl, color, TG_PASS, 0, now_ms);
    out->action = TG_ACTION_VOID_PASS;
}

tg_status tg_control_play(tg_control *ctl, tg_color color, tg_point point, int64_t now_ms,
                          tg_control_outcome *out)
{
    return tg_control_play_flags(ctl, color, point, 0, now_ms, out);
}

tg_status tg_control_play_flags(tg_control *ctl, tg_color color, tg_point point, unsigned flags,
                                int64_t now_ms, tg_control_outcome *out)
{
    if (color != TG_BLACK && color != TG_WHITE)
        return TG_ERR_INVALID;
    if (tg_control_phase_of(ctl) != TG_PHASE_PLAY)
        return TG_ERR_GAME_OVER;
    *out = (tg_control_outcome){.action = TG_ACTION_PLAYED, .illegal = TG_OK};
    if (!apply_clock(ctl, color, now_ms, &out->action)) {
        if (point == TG_RESIGN) {
            tg_clock_stop(&ctl->clock, color, now_ms);
            end_against(ctl, TG_RESULT_RESIGN, color);
        } else {
            out->illegal = tg_game_check(ctl->game, color, point, flags);
            if (out->illegal == TG_OK)
                make_move(ctl, color, point, flags, now_ms);
            else
                judge_illegal(ctl, color, out->illegal, now_ms, out);
        }
    }
    out->phase = tg_control_phase_of(ctl);
    return TG_OK;
}

tg_status tg_control_tick(tg_control *ctl, int64_t now_ms, tg_control_action *action)
{
    *action = TG_ACTION_PLAYED;
    if (tg_control_phase_of(ctl) != TG_PHASE_PLAY)
        return TG_ERR_GAME_OVER;
    apply_clock(ctl, tg_game_to_move(ctl->game), now_ms, action);
    return TG_OK;
}

void tg_control_pause(tg_control *ctl, int64_t now_ms) { tg_clock_pause(&ctl->clock, now_ms); }
void tg_control_resume(tg_control *ctl, int64_t now_ms) { tg_clock_resume(&ctl->clock, now_ms); }

/* ---- the dead-stone agreement (C9) -------------------------------------- */

/* Count with the agreed dead stones; each warning takes 2 points (4 half
 * points) from its player's total before the result is decided. */
static void count_agreed(tg_control *ctl)
{
    tg_score *s = &ctl->score;
    tg_score_game(ctl->game, ctl->dead[TG_BLACK], s);
    s->black2 -= 4 * ctl->warnings[TG_BLACK];
    s->white2 -= 4 * ctl->warnings[TG_WHITE];
    s->result = tg_result_of_count(tg_game_rules(ctl->game), s->black2 - s->white2 - 2 * s->handicap_points);
    tg_game_set_result(ctl->game, &s->result);
}

/* Who moves first when the statements differ: the one claiming the
 * disputed stones dead, or the side to move when both claim some. */
static tg_color dispute_first(const tg_control *ctl)
{
    bool claims[3] = {false, false, false};
    for (int p = 0; p < TG_MAX_POINTS; p++) {
        if (ctl->dead[TG_BLACK][p] != ctl->dead[TG_WHITE][p])
            claims[ctl->dead[TG_BLACK][p] ? TG_BLACK : TG_WHITE] = true;
    }
    /* 002 §6.3: play goes on in turn, whoever claims what */
    if (claims[TG_BLACK] != claims[TG_WHITE] && !tg_game_rules(ctl->game)->dispute_in_turn)
        return claims[TG_BLACK] ? TG_BLACK : TG_WHITE;
    return tg_game_to_move(ctl->game);
}

static void settle(tg_control *ctl, int64_t now_ms)
{
    if (memcmp(ctl->dead[TG_BLACK], ctl->dead[TG_WHITE], TG_MAX_POINTS) == 0) {
        count_agreed(ctl);
    } else {
        tg_game_resume(ctl->game, dispute_first(ctl));
        next_turn(ctl, now_ms);
    }
    ctl->stated[TG_BLACK] = ctl->stated[TG_WHITE] = false;
}

static tg_status check_agreement(const tg_control *ctl, tg_color color)
{
    if (color != TG_BLACK && color != TG_WHITE)
        return TG_ERR_INVALID;
    return tg_control_phase_of(ctl) == TG_PHASE_AGREEMENT ? TG_OK : TG_ERR_NOT_ALLOWED;
}

static void stated(tg_control *ctl, tg_color color, int64_t now_ms, tg_control_phase *phase)
{
    ctl->stated[color] = true;
    if (ctl->stated[tg_opponent(color)])
        settle(ctl, now_ms);
    if (phase)
        *phase = tg_control_phase_of(ctl);
}

tg_status tg_control_state_dead(tg_control *ctl, tg_color color, const uint8_t *dead,
                                int64_t now_ms, tg_control_phase *phase)
{
    tg_status status = check_agreement(ctl, color);
    if (status != TG_OK)
        return status;
    for (int p = 0; p < TG_MAX_POINTS; p++) /* normalised to 0/1 so statements compare */
        ctl->dead[color][p] = dead && dead[p] ? 1 : 0;
    stated(ctl, color, now_ms, phase);
    return TG_OK;
}

tg_status tg_control_concede(tg_control *ctl, tg_color color, int64_t now_ms,
                             tg_control_phase *phase)
{
    tg_status status = check_agreement(ctl, color);
    if (status != TG_OK)
        return status;
    if (!ctl->stated[tg_opponent(color)])
        return TG_ERR_NOT_ALLOWED;
    memcpy(ctl->dead[color], ctl->dead[tg_opponent(color)], TG_MAX_POINTS);
    stated(ctl, color, now_ms, phase);
    return TG_OK;
}

void tg_control_result_text(const tg_control *ctl, bool chinese, char *buf, size_t len)
{
    const tg_result *r = tg_game_result(ctl->game);
    char sgf[64], stones[128];
    tg_result_to_sgf(r, sgf, sizeof sgf);
    if (r->kind == TG_RESULT_NONE) {
        snprintf(buf, len, "%s", sgf);
        return;
    }
    tg_result_stated(tg_game_rules(ctl->game), r, chinese, stones, sizeof stones);
    snprintf(buf, len, "%s (%s)", sgf, stones);
}

int64_t tg_prediction_time_ms(const tg_time_control *tc)
{
    int64_t total = tc->main_ms;
    switch (tc->system) {
    case TG_CLOCK_NONE: return 0;
    case TG_CLOCK_BYOYOMI: total += (int64_t)tc->periods * tc->period_ms; break;
    case TG_CLOCK_CANADIAN:
    case TG_CLOCK_PERIODS:
    case TG_CLOCK_SIMPLE: total += tc->period_ms; break;
    case TG_CLOCK_ABSOLUTE:
    case TG_CLOCK_FISCHER: break;
    }
    return total / 10 > 10000 ? total / 10 : 10000;
}
