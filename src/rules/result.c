/*
 * result.c — how a result is reached from a count and written: against
 * the komi, or a free opening's threshold exactly (tg_result_of_count);
 * SGF RE syntax ("B+3.5", "B+0.25", "W+R", "B+T", "0", "Void") and, under
 * area counting, in stones as the Chinese rules state it (1 stone = 2
 * points): "Black wins by ¾ stone", "黑胜3/4子", or 002 against its
 * threshold.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tengen/free_opening.h"
#include "tengen/game.h"

static char color_letter(tg_color c) { return c == TG_BLACK ? 'B' : 'W'; }

void tg_margin_format(int quarter_points, char *buf, size_t len)
{
    static const char *const fraction[] = {"", ".25", ".5", ".75"};
    int a = quarter_points < 0 ? -quarter_points : quarter_points;
    snprintf(buf, len, "%s%d%s", quarter_points < 0 ? "-" : "", a / 4, fraction[a % 4]);
}

/* A margin of SGF RE: a non-negative whole number of quarter points, at
 * most 1,000 stones' worth ("7", "6.5", "0.25", "12.750"). */
static tg_status parse_quarters(const char *text, int *quarter_points)
{
    char *end;
    if (!isdigit((unsigned char)text[0]))
        return TG_ERR_PARSE;
    double v = strtod(text, &end);
    if (*end || !(v >= 0 && v <= 4000))
        return TG_ERR_PARSE;
    double quarters = v * 4;
    if (quarters != (double)(long)quarters)
        return TG_ERR_PARSE;
    *quarter_points = (int)quarters;
    return TG_OK;
}

void tg_result_to_sgf(const tg_result *r, char *buf, size_t len)
{
    char margin[24];
    switch (r->kind) {
    case TG_RESULT_NONE:
        snprintf(buf, len, "?");
        return;
    case TG_RESULT_NO_RESULT:
        snprintf(buf, len, "Void");
        return;
    case TG_RESULT_SCORE:
        if (r->winner != TG_BLACK && r->winner != TG_WHITE) {
            snprintf(buf, len, "0");
            return;
        }
        tg_margin_format(r->margin4, margin, sizeof margin);
        snprintf(buf, len, "%c+%s", color_letter(r->winner), margin);
        return;
    case TG_RESULT_RESIGN:
        snprintf(buf, len, "%c+R", color_letter(r->winner));
        return;
    case TG_RESULT_TIME:
        snprintf(buf, len, "%c+T", color_letter(r->winner));
        return;
    case TG_RESULT_FORFEIT:
        snprintf(buf, len, "%c+F", color_letter(r->winner));
        return;
    }
    snprintf(buf, len, "?");
}

tg_status tg_result_from_sgf(const char *text, tg_result *r)
{
    memset(r, 0, sizeof *r);
    if (!strcmp(text, "0") || !strcasecmp(text, "Draw") || !strcasecmp(text, "Jigo")) {
        r->kind = TG_RESULT_SCORE;
        r->winner = TG_EMPTY;
        return TG_OK;
    }
    if (!strcasecmp(text, "Void")) {
        r->kind = TG_RESULT_NO_RESULT;
        return TG_OK;
    }
    if (!strcmp(text, "?"))
        return TG_OK;
    char c = text[0];
    if ((c != 'B' && c != 'W' && c != 'b' && c != 'w') || text[1] != '+')
        return TG_ERR_PARSE;
    r->winner = (c == 'B' || c == 'b') ? TG_BLACK : TG_WHITE;
    const char *rest = text + 2;
    if (!*rest) { /* "B+": won, margin unknown */
        r->kind = TG_RESULT_SCORE;
        return TG_OK;
    }
    if (!strcasecmp(rest, "R") || !strcasecmp(rest, "Resign")) {
        r->kind = TG_RESULT_RESIGN;
    } else if (!strcasecmp(rest, "T") || !strcasecmp(rest, "Time")) {
        r->kind = TG_RESULT_TIME;
    } else if (!strcasecmp(rest, "F") || !strcasecmp(rest, "Forfeit")) {
        r->kind = TG_RESULT_FORFEIT;
    } else {
        int margin4;
        if (parse_quarters(rest, &margin4) != TG_OK)
            return TG_ERR_PARSE;
        r->kind = TG_RESULT_SCORE;
        r->margin4 = margin4;
    }
    return TG_OK;
}

/* Quarter stones: margin2 half points = margin2 / 4 stones. */
static void stones_text(int margin2, bool chinese, char *buf, size_t len)
{
    static const char *const fraction[] = {"", "1/4", "1/2", "3/4"};
    static const char *const glyph[] = {"", "\u00bc", "\u00bd", "\u00be"}; /* ¼ ½ ¾ */
    int whole = margin2 / 4, quarter = margin2 % 4;
    if (chinese) {
        if (whole && quarter)
            snprintf(buf, len, "%d又%s", whole, fraction[quarter]);
        else if (whole)
            snprintf(buf, len, "%d", whole);
        else
            snprintf(buf, len, "%s", fraction[quarter]);
        return;
    }
    const char *unit = (whole == 0 || (whole == 1 && quarter == 0)) ? "stone" : "stones";
    if (whole && quarter)
        snprintf(buf, len, "%d%s %s", whole, glyph[quarter], unit);
    else if (whole)
        snprintf(buf, len, "%d %s", whole, unit);
    else
        snprintf(buf, len, "%s %s", glyph[quarter], unit);
}

void tg_result_in_stones(const tg_result *r, bool chinese, char *buf, size_t len)
{
    const char *who_en = r->winner == TG_BLACK ? "Black" : "White";
    const char *who_zh = r->winner == TG_BLACK ? "黑" : "白";
    char amount[48];
    switch (r->kind) {
    case TG_RESULT_NONE:
        snprintf(buf, len, chinese ? "对局未结束" : "The game is not over");
        return;
    case TG_RESULT_NO_RESULT:
        snprintf(buf, len, chinese ? "无胜负" : "No result");
        return;
    case TG_RESULT_SCORE:
        if (r->winner != TG_BLACK && r->winner != TG_WHITE) {
            snprintf(buf, len, chinese ? "和棋" : "Draw");
            return;
        }
        stones_text(r->margin4 / 2, chinese, amount, sizeof amount); /* halves: a komi's count */
        if (chinese)
            snprintf(buf, len, "%s胜%s子", who_zh, amount);
        else
            snprintf(buf, len, "%s wins by %s", who_en, amount);
        return;
    case TG_RESULT_RESIGN:
        snprintf(buf, len, chinese ? "%s中盘胜" : "%s wins by resignation", chinese ? who_zh : who_en);
        return;
    case TG_RESULT_TIME:
        snprintf(buf, len, chinese ? "%s超时胜" : "%s wins on time", chinese ? who_zh : who_en);
        return;
    case TG_RESULT_FORFEIT:
        snprintf(buf, len, chinese ? "%s判胜" : "%s wins by forfeit", chinese ? who_zh : who_en);
        return;
    }
}

void tg_result_stated(const tg_rules *rules, const tg_result *r, bool chinese, char *buf, size_t len)
{
    if (rules->free_opening && r->kind == TG_RESULT_SCORE)
        /* the margin in quarter points is the quarter stones of count
         * difference beyond the threshold */
        tg_threshold_result_text(r->winner == TG_BLACK || r->winner == TG_WHITE ? r->winner : TG_EMPTY,
                                 r->margin4, chinese, buf, len);
    else
        tg_result_in_stones(r, chinese, buf, len);
}

tg_result tg_result_of_count(const tg_rules *rules, int lead2)
{
    tg_result res = {TG_RESULT_SCORE, TG_EMPTY, 0};
    if (rules->revealed) {
        tg_predictions p;
        tg_predictions_decide(rules->prediction_first2, rules->prediction_second2, &p);
        /* White's lead in half points is the count difference in half stones */
        res.winner = tg_threshold_verdict(p.threshold4, -lead2, rules->decisive, &res.margin4);
        return res;
    }
    int margin2 = lead2 - rules->komi2;
    res.winner = margin2 > 0 ? TG_BLACK : margin2 < 0 ? TG_WHITE : TG_EMPTY;
    res.margin4 = 2 * (margin2 < 0 ? -margin2 : margin2);
    return res;
}
