/*
 * free_opening.c — the referee's part of the free-opening ruleset (002
 * §5.2-§5.3) before the game proper: the first player's engine places
 * stones 1 (White) and 4 (Black), the second player's stones 2 (Black) and
 * 3 (White); then each engine's sealed prediction is asked (tengen-predict,
 * else its final_score of the opening, else 0); the predictions decide who
 * plays White and the threshold.  The game itself is then refereed as any
 * other, the four stones its opening and the threshold its komi.
 *
 * The prediction clock (002 §5.3.3): each engine has the prediction time
 * of the game's clock (tg_prediction_time_ms, a tenth of its time), the
 * first player's from the third stone on (so its fourth stone's genmove
 * counts), the second's from the fourth.  The referee charges each engine
 * the time it takes to answer, as the game clock does: an engine that
 * overruns loses on time.
 */
#include <stdio.h>
#include <string.h>

#include "referee/referee_internal.h"
#include "tengen/free_opening.h"

static int64_t deadline(const tg_referee_config *cfg)
{
    return cfg->timeout_ms > 0 ? tg_clock_now_ms() + cfg->timeout_ms : tg_clock_now_ms() + 300000;
}

/* Tell an engine the board and the rules; false when it refuses. */
static bool set_up(const tg_referee_config *cfg, tg_engine *e)
{
    char line[512], answer[256], rules[400];
    snprintf(line, sizeof line, "boardsize %d", cfg->size);
    if (tg_engine_send(e, line, deadline(cfg), answer, sizeof answer) != TG_REPLY_OK ||
        tg_engine_send(e, "clear_board", deadline(cfg), answer, sizeof answer) != TG_REPLY_OK ||
        tg_engine_send(e, "komi 0", deadline(cfg), answer, sizeof answer) != TG_REPLY_OK)
        return false;
    if (tg_engine_knows(e, "tengen-rules", deadline(cfg))) {
        tg_rules_describe(&cfg->rules, rules, sizeof rules);
        snprintf(line, sizeof line, "tengen-rules %s", rules);
        tg_engine_send(e, line, deadline(cfg), answer, sizeof answer);
    }
    return true;
}

static void fail(tg_free_opening_outcome *out, int who, tg_end_reason reason, const char *detail)
{
    out->failed = true;
    out->culprit = who;
    out->reason = reason;
    snprintf(out->detail, sizeof out->detail, "%s", detail);
}

/* An engine's sealed prediction, half stones for White, asked before
 * `due` (tg_clock_now_ms time); false when the engine overran it. */
static bool predict(tg_engine *e, int64_t due, int *white2, char *how, size_t len)
{
    char answer[256];
    tg_reply reply = TG_REPLY_OK;
    *white2 = 0;
    if (tg_engine_knows(e, "tengen-predict", due)) {
        reply = tg_engine_send(e, "tengen-predict", due, answer, sizeof answer);
        if (reply == TG_REPLY_OK && tg_prediction_from_engine(answer, white2) == TG_OK) {
            snprintf(how, len, "tengen-predict");
            return true;
        }
    }
    /* komi 0: final_score's margin in points is the count difference */
    if (reply != TG_REPLY_TIMEOUT &&
        (reply = tg_engine_send(e, "final_score", due, answer, sizeof answer)) == TG_REPLY_OK &&
        tg_prediction_from_engine(answer, white2) == TG_OK) {
        snprintf(how, len, "final_score");
        return true;
    }
    snprintf(how, len, "default");
    return reply != TG_REPLY_TIMEOUT;
}

tg_status tg_referee_free_opening(const tg_referee_config *cfg, tg_engine *first, tg_engine *second,
                                  tg_free_opening_outcome *out)
{
    memset(out, 0, sizeof *out);
    tg_engine *engines[2] = {first, second};
    for (int i = 0; i < 2; i++)
        if (!set_up(cfg, engines[i])) {
            fail(out, i, TG_END_REFUSED, "the engine refused the board or the komi");
            return TG_OK;
        }
    tg_game *g = tg_game_new(cfg->size, &cfg->rules);
    if (!g)
        return TG_ERR_NO_MEMORY;
    /* stones 1 to 4: who places them, in their fixed colours W B W B */
    int64_t limit = cfg->prediction_ms > 0    ? cfg->prediction_ms
                    : cfg->prediction_ms == 0 ? tg_prediction_time_ms(&cfg->time)
                                              : 0; /* 0: none, the timeout bounds it */
    int64_t first_used = 0; /* the first player's prediction time spent on stone 4 */
    for (int i = 0; i < 4; i++) {
        tg_color c = tg_opening_colour(i);
        int who = tg_opening_placer(i);
        char line[64], answer[256];
        snprintf(line, sizeof line, "genmove %c", c == TG_BLACK ? 'b' : 'w');
        int64_t asked = tg_clock_now_ms();
        tg_reply reply = tg_engine_send(engines[who], line, deadline(cfg), answer, sizeof answer);
        if (i == 3)
            first_used = tg_clock_now_ms() - asked;
        tg_point p;
        if (reply != TG_REPLY_OK) {
            fail(out, who, reply == TG_REPLY_TIMEOUT ? TG_END_HANG : reply == TG_REPLY_DIED ? TG_END_CRASH
                                                                                             : TG_END_REFUSED,
                 "the engine gave no opening stone");
            break;
        }
        if (tg_vertex_parse(tg_game_board(g), answer, &p) != TG_OK ||
            tg_game_play(g, c, p, 0) != TG_OK) {
            char detail[240];
            snprintf(detail, sizeof detail, "opening stone %d '%.150s' is not a stone on an empty point", i + 1,
                     answer);
            fail(out, who, TG_END_ILLEGAL, detail);
            break;
        }
        out->stones[i] = (tg_move){c, p};
        char vertex[8];
        tg_point_to_vertex(tg_game_board(g), p, vertex);
        snprintf(line, sizeof line, "play %c %s", c == TG_BLACK ? 'b' : 'w', vertex);
        if (tg_engine_send(engines[1 - who], line, deadline(cfg), answer, sizeof answer) != TG_REPLY_OK) {
            fail(out, 1 - who, TG_END_REFUSED, "the engine refused an opening stone");
            break;
        }
    }
    tg_game_free(g);
    if (out->failed)
        return TG_OK;
    int64_t now = tg_clock_now_ms();
    if (limit > 0 && first_used > limit) {
        fail(out, 0, TG_END_TIME, "the first player's prediction time ran out on the fourth stone");
        return TG_OK;
    }
    if (!predict(first, limit > 0 ? now + limit - first_used : deadline(cfg), &out->first2, out->first_how,
                 sizeof out->first_how)) {
        fail(out, 0, limit > 0 ? TG_END_TIME : TG_END_HANG, "no prediction in the prediction time");
        return TG_OK;
    }
    now = tg_clock_now_ms();
    if (!predict(second, limit > 0 ? now + limit : deadline(cfg), &out->second2, out->second_how,
                 sizeof out->second_how)) {
        fail(out, 1, limit > 0 ? TG_END_TIME : TG_END_HANG, "no prediction in the prediction time");
        return TG_OK;
    }
    tg_predictions_decide(out->first2, out->second2, &out->decision);
    return TG_OK;
}
