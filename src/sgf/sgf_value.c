/*
 * sgf_value.c — typed readings of SGF property values for Go: points and
 * moves, point lists with compressed rectangles, Number, Real, board size,
 * komi (with the conventions of real files), simple text and clocks.
 *
 * Coordinates: an SGF point is two letters, column then row, 'a' the first
 * and counted from the top; tengen counts rows from the bottom.
 */
#include <string.h>

#include "sgf/sgf_internal.h"

static int letter_index(char c)
{
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 26;
    return -1;
}

/* The point of a two-letter value, without the pass conventions. */
static tg_status decode_point(const tg_board *b, const char *text, tg_point *out)
{
    if (strlen(text) != 2)
        return TG_ERR_PARSE;
    int x = letter_index(text[0]), y = letter_index(text[1]);
    if (x < 0 || y < 0)
        return TG_ERR_PARSE;
    if (x >= b->size || y >= b->size)
        return TG_ERR_OFF_BOARD;
    *out = tg_point_at(b, x, b->size - 1 - y);
    return TG_OK;
}

tg_status tg_sgf_decode_move(const tg_board *b, const char *text, tg_point *out)
{
    if (!text[0] || (b->size <= 19 && !strcmp(text, "tt"))) {
        *out = TG_PASS;
        return TG_OK;
    }
    return decode_point(b, text, out);
}

void tg_sgf_encode_point(const tg_board *b, tg_point p, char out[3])
{
    if (!tg_on_board(b, p)) {
        out[0] = '\0';
        return;
    }
    out[0] = (char)('a' + tg_point_x(b, p));
    out[1] = (char)('a' + b->size - 1 - tg_point_y(b, p));
    out[2] = '\0';
}

/* The rectangle "aa:cc" (corners in either order) or the single point "aa". */
static tg_status decode_rectangle(const tg_board *b, const char *text, tg_point *from, tg_point *to)
{
    const char *colon = strchr(text, ':');
    if (!colon) {
        tg_status st = decode_point(b, text, from);
        if (st == TG_OK)
            *to = *from;
        return st;
    }
    char first[3] = {0};
    if (colon - text != 2)
        return TG_ERR_PARSE;
    memcpy(first, text, 2);
    tg_status st = decode_point(b, first, from);
    if (st == TG_OK)
        st = decode_point(b, colon + 1, to);
    return st;
}

int tg_sgf_decode_points(const tg_board *b, const tg_sgf_property *prop, tg_point *out,
                         tg_status *status)
{
    bool seen[TG_MAX_POINTS] = {false};
    int count = 0;
    for (const tg_sgf_value *value = prop->values; value; value = value->next) {
        if (!value->length)
            continue;
        tg_point from, to;
        tg_status st = decode_rectangle(b, value->text, &from, &to);
        if (st != TG_OK) {
            *status = st;
            return -1;
        }
        /* corners in any order: walk from the smaller to the larger */
        int x0 = tg_point_x(b, from), x1 = tg_point_x(b, to);
        int y0 = tg_point_y(b, from), y1 = tg_point_y(b, to);
        int left = x0 < x1 ? x0 : x1, right = x0 < x1 ? x1 : x0;
        int bottom = y0 < y1 ? y0 : y1, top = y0 < y1 ? y1 : y0;
        for (int y = bottom; y <= top; y++)
            for (int x = left; x <= right; x++) {
                tg_point p = tg_point_at(b, x, y);
                if (!seen[p]) {
                    seen[p] = true;
                    out[count++] = p;
                }
            }
    }
    *status = TG_OK;
    return count;
}

/* ---- numbers ---------------------------------------------------------- */

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    return s;
}

/* Digits of an unsigned integer, at most `limit`; NULL when there are none
 * or the value exceeds the limit. */
static const char *read_digits(const char *s, long long limit, long long *out)
{
    long long v = 0;
    const char *start = s;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (*s - '0');
        if (v > limit)
            return NULL;
    }
    *out = v;
    return s == start ? NULL : s;
}

tg_status tg_sgf_decode_number(const char *text, int *out)
{
    const char *s = skip_blanks(text);
    int sign = *s == '-' ? -1 : 1;
    if (*s == '-' || *s == '+')
        s++;
    long long v;
    s = read_digits(s, 2147483647LL, &v);
    if (!s || *skip_blanks(s))
        return TG_ERR_PARSE;
    *out = (int)(sign * v);
    return TG_OK;
}

/* A Real, also with ',' as the decimal mark; *integral tells whether it had
 * no fractional digits.  Read by hand: strtod would follow the locale. */
static tg_status decode_real(const char *text, double *out, bool *integral)
{
    const char *s = skip_blanks(text);
    double sign = *s == '-' ? -1.0 : 1.0;
    if (*s == '-' || *s == '+')
        s++;
    long long whole = 0;
    const char *after = read_digits(s, 999999999999LL, &whole);
    bool has_whole = after != NULL;
    s = has_whole ? after : s;
    double fraction = 0, scale = 1;
    *integral = true;
    if (*s == '.' || *s == ',') {
        for (s++; *s >= '0' && *s <= '9'; s++) {
            if (scale < 1e15) {
                scale *= 10;
                fraction += (*s - '0') / scale;
            }
            *integral = false;
        }
        if (!has_whole && *integral)
            return TG_ERR_PARSE;
    } else if (!has_whole) {
        return TG_ERR_PARSE;
    }
    if (*skip_blanks(s))
        return TG_ERR_PARSE;
    *out = sign * ((double)whole + fraction);
    return TG_OK;
}

tg_status tg_sgf_decode_real(const char *text, double *out)
{
    bool integral;
    return decode_real(text, out, &integral);
}

tg_status tg_sgf_decode_size(const char *text, int *size)
{
    const char *colon = strchr(text, ':');
    char columns[16];
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    if (n >= sizeof columns)
        return TG_ERR_PARSE;
    memcpy(columns, text, n);
    columns[n] = '\0';
    int x, y;
    if (tg_sgf_decode_number(columns, &x) != TG_OK)
        return TG_ERR_PARSE;
    if (colon && tg_sgf_decode_number(colon + 1, &y) != TG_OK)
        return TG_ERR_PARSE;
    if (colon && y != x)
        return TG_ERR_INVALID;   /* rectangular boards are not Go as tengen plays it */
    *size = x;
    return TG_OK;
}

/*
 * Komi as real files write it:
 *   - points, the FF[4] meaning: KM[7.5], KM[6.5], KM[0], KM[-3];
 *   - stones, as some Chinese records do: a quarter fraction cannot be a
 *     number of points, so KM[3.75] is 3.75 stones, 7.5 points (C11);
 *   - Fox's integer hundredths: an integer of 100 or more that is a
 *     multiple of 25 is no komi any game uses, so it is read as hundredths
 *     and then by the rule above: KM[375] is 3.75 stones (7.5 points),
 *     KM[650] 6.5 points, KM[750] 7.5 points, KM[325] 6.5 points.
 * The result is rounded to the nearest half point and kept within the
 * +-400 points tg_komi_parse accepts.
 */
tg_status tg_sgf_decode_komi(const char *text, int *komi2)
{
    double komi;
    bool integral;
    if (decode_real(text, &komi, &integral) != TG_OK)
        return TG_ERR_PARSE;
    if (integral && (komi >= 100 || komi <= -100) && (long long)komi % 25 == 0)
        komi /= 100;
    double quarters = komi * 4;
    if (quarters == (double)(long long)quarters && ((long long)quarters & 1))
        komi *= 2;
    if (komi > 400 || komi < -400)
        return TG_ERR_INVALID;
    double half_points = komi * 2;
    *komi2 = (int)(half_points < 0 ? half_points - 0.5 : half_points + 0.5);
    return TG_OK;
}

bool tg_sgf_node_clock(const tg_sgf_node *node, tg_color color, double *time_left,
                       int *moves_left)
{
    const char *time = tg_sgf_property_text(node, color == TG_BLACK ? "BL" : "WL");
    const char *moves = tg_sgf_property_text(node, color == TG_BLACK ? "OB" : "OW");
    *time_left = -1;
    *moves_left = -1;
    if (time && tg_sgf_decode_real(time, time_left) != TG_OK)
        *time_left = -1, time = NULL;
    if (moves && tg_sgf_decode_number(moves, moves_left) != TG_OK)
        *moves_left = -1, moves = NULL;
    return time || moves;
}

void sgf_copy_simple_text(char *dst, size_t capacity, const tg_sgf_value *value)
{
    size_t n = value->length < capacity - 1 ? value->length : capacity - 1;
    /* Never cut a UTF-8 sequence in half. */
    if (n < value->length)
        while (n > 0 && ((unsigned char)value->text[n] & 0xC0) == 0x80)
            n--;
    for (size_t i = 0; i < n; i++) {
        char c = value->text[i];
        dst[i] = (c == '\n' || c == '\r' || c == '\t' || c == '\0') ? ' ' : c;
    }
    dst[n] = '\0';
}
