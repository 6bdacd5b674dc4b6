/*
 * results.c — the results file: one JSON object a line per finished game,
 * written as soon as the game ends (so an interrupted match loses nothing
 * finished) and read back by --resume.  jansson does the JSON.
 *
 * The seed is written as a hexadecimal string: JSON numbers are doubles to
 * many readers and would lose its low bits.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/referee.h"

char *tg_game_record_to_json(const tg_game_record *r)
{
    char seed[24];
    snprintf(seed, sizeof seed, "%016" PRIx64, r->seed);
    const char *culprit = r->culprit == TG_BLACK ? "B" : r->culprit == TG_WHITE ? "W" : NULL;
    json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:s, s:o, s:i, s:s, s:i, s:s, s:s, s:I, s:s}",
                          "game", r->game, "black", r->black_name, "white", r->white_name,
                          "result", r->result, "reason", tg_end_reason_name(r->reason),
                          "culprit", culprit ? json_string(culprit) : json_null(),
                          "moves", r->moves, "sgf", r->sgf, "opening", r->opening,
                          "seed", seed, "detail", r->detail,
                          "duration_ms", (json_int_t)r->duration_ms, "nigiri", r->nigiri);
    if (!o)
        return NULL;
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return text;
}

static void copy_string(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src ? src : "");
}

tg_status tg_game_record_from_json(const char *line, tg_game_record *r)
{
    json_error_t error;
    json_t *o = json_loads(line, 0, &error);
    if (!o)
        return TG_ERR_PARSE;
    memset(r, 0, sizeof *r);
    const char *black = NULL, *white = NULL, *result = NULL, *reason = NULL, *culprit = NULL;
    const char *sgf = NULL, *seed = NULL, *detail = NULL, *nigiri = NULL;
    json_t *culprit_value = NULL;
    json_int_t duration = 0;
    int opening = -1;
    int bad = json_unpack(o, "{s:i, s:s, s:s, s:s, s:s, s:i, s?s, s?o, s?i, s?s, s?s, s?I, s?s}",
                          "game", &r->game, "black", &black, "white", &white, "result", &result,
                          "reason", &reason, "moves", &r->moves, "sgf", &sgf,
                          "culprit", &culprit_value, "opening", &opening, "seed", &seed,
                          "detail", &detail, "duration_ms", &duration, "nigiri", &nigiri);
    tg_status st = bad ? TG_ERR_PARSE : TG_OK;
    if (culprit_value && json_is_string(culprit_value))
        culprit = json_string_value(culprit_value);
    if (st == TG_OK) {
        copy_string(r->black_name, sizeof r->black_name, black);
        copy_string(r->white_name, sizeof r->white_name, white);
        copy_string(r->result, sizeof r->result, result);
        copy_string(r->sgf, sizeof r->sgf, sgf);
        copy_string(r->detail, sizeof r->detail, detail);
        copy_string(r->nigiri, sizeof r->nigiri, nigiri);
        r->reason = tg_end_reason_parse(reason);
        r->culprit = culprit && *culprit == 'B' ? TG_BLACK : culprit && *culprit == 'W' ? TG_WHITE
                                                                                       : TG_EMPTY;
        r->opening = opening;
        r->seed = seed ? strtoull(seed, NULL, 16) : 0;
        r->duration_ms = duration;
        r->black = r->white = -1; /* the caller maps names to engines */
        if (r->reason == TG_END_COUNT_ || r->game < 1)
            st = TG_ERR_PARSE;
    }
    json_decref(o);
    return st;
}

int tg_game_record_black_wins(const tg_game_record *r)
{
    tg_result res;
    if (tg_result_from_sgf(r->result, &res) != TG_OK || res.winner == TG_EMPTY)
        return -1;
    return res.winner == TG_BLACK ? 1 : 0;
}
