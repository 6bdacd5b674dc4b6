/*
 * cli_util.c — helpers shared by the front ends (see cli_util.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"

int cli_parse_int(const char *text, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int cli_bad_value(const char *cmd, const char *option, const char *value)
{
    fprintf(stderr, "tengen %s: bad value '%s' for %s\n", cmd, value, option);
    return -1;
}

bool cli_read_line(FILE *in, char *buf, size_t len)
{
    if (!fgets(buf, (int)len, in))
        return false;
    size_t n = strlen(buf);
    if (n && buf[n - 1] != '\n' && !feof(in)) {
        int c;
        while ((c = fgetc(in)) != EOF && c != '\n')
            ; /* drop the rest of an overlong line */
    }
    while (n && isspace((unsigned char)buf[n - 1]))
        buf[--n] = 0;
    size_t start = 0;
    while (buf[start] && isspace((unsigned char)buf[start]))
        start++;
    memmove(buf, buf + start, n - start + 1);
    return true;
}

static bool is_star_point(int size, int x, int y)
{
    if (size < 7)
        return false;
    int lo = size >= 13 ? 3 : 2, hi = size - 1 - lo, mid = size / 2;
    bool xs = x == lo || x == hi || (size % 2 && x == mid);
    bool ys = y == lo || y == hi || (size % 2 && y == mid);
    return xs && ys;
}

static void print_columns(FILE *out, int size)
{
    static const char letters[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    fprintf(out, "   ");
    for (int x = 0; x < size; x++)
        fprintf(out, " %c", letters[x]);
    fprintf(out, "\n");
}

void cli_print_board(FILE *out, const tg_game *g)
{
    const tg_board *b = tg_game_board(g);
    print_columns(out, b->size);
    for (int y = b->size - 1; y >= 0; y--) {
        fprintf(out, "%2d ", y + 1);
        for (int x = 0; x < b->size; x++) {
            tg_point p = tg_point_at(b, x, y);
            bool last = p == b->last_move;
            bool after_last = x > 0 && tg_point_at(b, x - 1, y) == b->last_move;
            char sep = last ? '(' : after_last ? ')' : ' ';
            char stone = b->color[p] == TG_BLACK ? 'X' : b->color[p] == TG_WHITE ? 'O'
                         : is_star_point(b->size, x, y) ? '+' : '.';
            fprintf(out, "%c%c", sep, stone);
        }
        bool end_last = tg_point_at(b, b->size - 1, y) == b->last_move;
        fprintf(out, "%c%2d", end_last ? ')' : ' ', y + 1);
        if (y == b->size - 1)
            fprintf(out, "    Black (X) has captured %d", b->captures[TG_BLACK]);
        if (y == b->size - 2)
            fprintf(out, "    White (O) has captured %d", b->captures[TG_WHITE]);
        fprintf(out, "\n");
    }
    print_columns(out, b->size);
    int n = tg_game_move_count(g);
    if (n) {
        const tg_move *m = tg_game_move(g, n - 1);
        char v[8];
        tg_point_to_vertex(b, m->point, v);
        fprintf(out, "Move %d: %s %s\n", n, m->color == TG_BLACK ? "Black" : "White", v);
    }
}
