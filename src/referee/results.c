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

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when the bytes
 * there are not one (a stray continuation byte, an overlong form, a
 * surrogate, a code point past U+10FFFF, a sequence cut short). */
static int utf8_sequence(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    int n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) || (s[0] == 0xF0 && s[1] < 0x90) ||
        (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    return n;
}

/* src with every byte that is not part of valid UTF-8 replaced by '?'
 * (JSON strings must be UTF-8): an engine's answer quoted in the detail
 * can be any bytes, and a name cut to fit its field can end inside a
 * character.  Fits in len bytes, as src did in its field. */
static const char *as_utf8(const char *src, char *dst, size_t len)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t k = 0;
    while (*s && k + 1 < len) {
        int n = utf8_sequence(s);
        if (n == 0 || k + (size_t)n >= len) {
            dst[k++] = '?';
            s++;
            continue;
        }
        memcpy(dst + k, s, (size_t)n);
        k += (size_t)n;
        s += n;
    }
    dst[k] = 0;
    return dst;
}

char *tg_game_record_to_json(const tg_game_record *r)
{
    char seed[24];
    snprintf(seed, sizeof seed, "%016" PRIx64, r->seed);
    const char *culprit = r->culprit == TG_BLACK ? "B" : r->culprit == TG_WHITE ? "W" : NULL;
    char black[sizeof r->black_name], white[sizeof r->white_name], result[sizeof r->result];
    char sgf[sizeof r->sgf], detail[sizeof r->detail], nigiri[sizeof r->nigiri];
    json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:s, s:o, s:i, s:s, s:i, s:s, s:s, s:I, s:s}",
                          "game", r->game, "black", as_utf8(r->black_name, black, sizeof black),
                          "white", as_utf8(r->white_name, white, sizeof white),
                          "result", as_utf8(r->result, result, sizeof result),
                          "reason", tg_end_reason_name(r->reason),
                          "culprit", culprit ? json_string(culprit) : json_null(),
                          "moves", r->moves, "sgf", as_utf8(r->sgf, sgf, sizeof sgf), "opening", r->opening,
                          "seed", seed, "detail", as_utf8(r->detail, detail, sizeof detail),
                          "duration_ms", (json_int_t)r->duration_ms,
                          "nigiri", as_utf8(r->nigiri, nigiri, sizeof nigiri));
    if (o && r->first_colour != TG_EMPTY) /* the free-opening ruleset: who was first, and the predictions */
        json_object_set_new(o, "free_opening",
                            json_pack("{s:s, s:s, s:s, s:s}", "first_player",
                                      r->first_colour == TG_BLACK ? "B" : "W", "first_prediction",
                                      r->prediction_first, "second_prediction", r->prediction_second,
                                      "threshold", r->threshold));
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
    json_t *free_opening = NULL;
    int bad = json_unpack(o, "{s:i, s:s, s:s, s:s, s:s, s:i, s?s, s?o, s?i, s?s, s?s, s?I, s?s, s?o}",
                          "game", &r->game, "black", &black, "white", &white, "result", &result,
                          "reason", &reason, "moves", &r->moves, "sgf", &sgf,
                          "culprit", &culprit_value, "opening", &opening, "seed", &seed,
                          "detail", &detail, "duration_ms", &duration, "nigiri", &nigiri,
                          "free_opening", &free_opening);
    const char *first_player = NULL, *pf = NULL, *ps = NULL, *threshold = NULL;
    if (!bad && free_opening &&
        json_unpack(free_opening, "{s:s, s:s, s:s, s:s}", "first_player", &first_player,
                    "first_prediction", &pf, "second_prediction", &ps, "threshold", &threshold) == 0) {
        r->first_colour = !strcmp(first_player, "B") ? TG_BLACK : TG_WHITE;
        copy_string(r->prediction_first, sizeof r->prediction_first, pf);
        copy_string(r->prediction_second, sizeof r->prediction_second, ps);
        copy_string(r->threshold, sizeof r->threshold, threshold);
    }
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
