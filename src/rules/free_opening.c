/*
 * free_opening.c — the predictions and the threshold of the free-opening
 * ruleset (free_opening.h): pure arithmetic on margins in half and quarter
 * stones, so that no rounding ever decides a game.
 */
#include "tengen/free_opening.h"
#include "tengen/game.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tg_status tg_prediction_parse(const char *text, int *white_margin2)
{
    if (!text)
        return TG_ERR_PARSE;
    if (strcmp(text, "0") == 0) {
        *white_margin2 = 0;
        return TG_OK;
    }
    int sign;
    char c = (char)toupper((unsigned char)text[0]);
    if (c == 'W')
        sign = 1;
    else if (c == 'B')
        sign = -1;
    else
        return TG_ERR_PARSE;
    if (text[1] != '+' || !isdigit((unsigned char)text[2]))
        return TG_ERR_PARSE;
    const char *p = text + 2;
    long whole = 0;
    while (isdigit((unsigned char)*p) && whole <= 1000)
        whole = whole * 10 + (*p++ - '0');
    int half = 0;
    if (*p == '.') {
        p++;
        if (*p == '5')
            half = 1, p++;
        else if (*p == '0')
            p++;
        else
            return TG_ERR_PARSE;
    }
    if (*p || whole > 1000)
        return TG_ERR_PARSE;
    *white_margin2 = sign * (int)(2 * whole + half);
    return TG_OK;
}

/* v in 1/den stones, den 2 or 4, for White, as "W+6.5". */
static void format_units(int v, int den, char *buf, size_t len)
{
    if (v == 0) {
        snprintf(buf, len, "0");
        return;
    }
    int a = abs(v), whole = a / den, frac = a % den * (100 / den);
    char tail[8] = "";
    if (frac)
        snprintf(tail, sizeof tail, frac % 10 ? ".%02d" : ".%d", frac % 10 ? frac : frac / 10);
    snprintf(buf, len, "%c+%d%s", v > 0 ? 'W' : 'B', whole, tail);
}

void tg_prediction_format(int white_margin2, char *buf, size_t len)
{
    format_units(white_margin2, 2, buf, len);
}

void tg_threshold_format(int threshold4, char *buf, size_t len)
{
    format_units(threshold4, 4, buf, len);
}

void tg_predictions_decide(int first2, int second2, tg_predictions *out)
{
    out->first2 = first2;
    out->second2 = second2;
    out->threshold4 = first2 + second2; /* (a + b) / 2 in halves = a + b in quarters */
    /* the one who rates White higher takes it; equal: the first player */
    out->first_takes_white = first2 >= second2;
}

tg_color tg_threshold_verdict(int threshold4, int white_margin2, bool decisive, int *by4)
{
    int diff4 = 2 * white_margin2 - threshold4;
    *by4 = abs(diff4);
    if (diff4 > 0)
        return TG_WHITE;
    if (diff4 < 0)
        return TG_BLACK;
    if (!decisive)
        return TG_EMPTY;
    return threshold4 >= 0 ? TG_WHITE : TG_BLACK;
}

/* by4 quarter stones as 002 writes a margin: halves as "6.5" (its example
 * 4), quarters as fractions ("6¼", "6又1/4"). */
static void margin_text(int by4, bool chinese, char *buf, size_t len)
{
    static const char *const glyph[] = {"", "\u00bc", "", "\u00be"}; /* ¼ ¾ */
    static const char *const fraction[] = {"", "1/4", "", "3/4"};
    int whole = by4 / 4, quarter = by4 % 4;
    if (quarter == 0)
        snprintf(buf, len, "%d", whole);
    else if (quarter == 2)
        snprintf(buf, len, "%d.5", whole);
    else if (!whole)
        snprintf(buf, len, "%s", chinese ? fraction[quarter] : glyph[quarter]);
    else
        snprintf(buf, len, chinese ? "%d又%s" : "%d%s", whole, chinese ? fraction[quarter] : glyph[quarter]);
}

void tg_threshold_result_text(tg_color winner, int by4, bool chinese, char *buf, size_t len)
{
    if (winner == TG_EMPTY) {
        snprintf(buf, len, "%s", chinese ? "和" : "Draw");
        return;
    }
    char n[32];
    margin_text(by4, chinese, n, sizeof n);
    if (chinese)
        snprintf(buf, len, "%s%s子胜", winner == TG_WHITE ? "白" : "黑", n);
    else
        snprintf(buf, len, "%s wins by %s stone%s", winner == TG_WHITE ? "White" : "Black", n,
                 by4 == 0 || by4 > 4 ? "s" : "");
}

void tg_rules_reveal(tg_rules *r, int first2, int second2)
{
    r->revealed = true;
    r->prediction_first2 = first2;
    r->prediction_second2 = second2;
    tg_predictions p;
    tg_predictions_decide(first2, second2, &p);
    r->komi2 = tg_threshold_komi2_decisive(p.threshold4, r->decisive);
}

void tg_game_reveal(tg_game *g, int first2, int second2)
{
    tg_rules rules = *tg_game_rules(g);
    if (!rules.free_opening)
        return;
    tg_rules_reveal(&rules, first2, second2);
    tg_game_set_rules(g, &rules);
}

int tg_threshold_komi2(int threshold4)
{
    int floor4 = threshold4 >= 0 ? threshold4 / 4 : -((-threshold4 + 3) / 4);
    return threshold4 % 2 == 0 ? -threshold4 / 2 : -(2 * floor4 + 1);
}

int tg_threshold_komi2_decisive(int threshold4, bool decisive)
{
    int komi2 = tg_threshold_komi2(threshold4);
    if (!decisive || threshold4 % 4 != 0) /* a half or a quarter never ties */
        return komi2;
    return threshold4 >= 0 ? komi2 + 1 : komi2 - 1;
}

tg_status tg_prediction_from_engine(const char *answer, int *white_margin2)
{
    if (tg_prediction_parse(answer, white_margin2) == TG_OK)
        return TG_OK;
    tg_result r;
    /* a prediction is in halves: a quarter (no count at komi 0 has one) is not one */
    if (tg_result_from_sgf(answer, &r) != TG_OK || r.kind != TG_RESULT_SCORE || r.margin4 > 4000 ||
        r.margin4 % 2)
        return TG_ERR_PARSE;
    int margin2 = r.margin4 / 2;
    *white_margin2 = r.winner == TG_WHITE ? margin2 : r.winner == TG_BLACK ? -margin2 : 0;
    return TG_OK;
}

int tg_opening_placer(int i) { return i == 1 || i == 2; }

tg_color tg_opening_colour(int i) { return i % 2 ? TG_BLACK : TG_WHITE; }
