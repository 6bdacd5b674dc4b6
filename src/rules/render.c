/*
 * render.c — the position as text, the way GTP showboard and the terminal
 * show it: column letters (no I), row numbers on both sides, X for Black,
 * O for White, + on the star points, the last move framed "(X)", then the
 * captures, the last move and the side to move.
 */
#include <stdarg.h>
#include <stdio.h>

#include "tengen/game.h"

typedef struct text {
    char *buf;
    size_t len, used;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->used < t->len ? t->len - t->used : 0;
    int n = vsnprintf(room ? t->buf + t->used : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->used += (size_t)n;
}

static void put_columns(text *t, int size)
{
    static const char letters[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    put(t, "  ");
    for (int x = 0; x < size; x++)
        put(t, " %c", letters[x]);
    put(t, "\n");
}

bool tg_board_is_star_point(const tg_board *b, tg_point p)
{
    /* the star points are the fixed handicap points: 9 of them from 13x13
     * up, 5 on smaller odd boards, 4 on small even ones, none under 7x7 */
    tg_point points[9];
    int n = 0;
    for (int k = b->size >= 13 ? 9 : 5; k >= 2 && !n; k--)
        n = tg_fixed_handicap_points(b, k, points);
    for (int i = 0; i < n; i++)
        if (points[i] == p)
            return true;
    return false;
}

static void put_row(text *t, const tg_board *b, int y)
{
    put(t, "%2d", y + 1);
    bool after_last = false;
    for (int x = 0; x < b->size; x++) {
        tg_point p = tg_point_at(b, x, y);
        tg_color c = tg_board_at(b, p);
        char stone = c == TG_BLACK ? 'X' : c == TG_WHITE ? 'O' : tg_board_is_star_point(b, p) ? '+' : '.';
        put(t, "%c%c", p == b->last_move ? '(' : after_last ? ')' : ' ', stone);
        after_last = p == b->last_move;
    }
    put(t, "%c%d\n", after_last ? ')' : ' ', y + 1);
}

size_t tg_game_render(const tg_game *g, char *buf, size_t len)
{
    text t = {buf, len, 0};
    if (len)
        buf[0] = 0;
    const tg_board *b = tg_game_board(g);
    put_columns(&t, b->size);
    for (int y = b->size - 1; y >= 0; y--)
        put_row(&t, b, y);
    put_columns(&t, b->size);
    put(&t, "Black (X) has captured %d stones, White (O) %d stones\n", b->captures[TG_BLACK],
        b->captures[TG_WHITE]);
    int moves = tg_game_move_count(g);
    if (moves > 0) {
        const tg_move *last = tg_game_move(g, moves - 1);
        char vertex[8];
        tg_point_to_vertex(b, last->point, vertex);
        put(&t, "Move %d was %s %s\n", moves, last->color == TG_BLACK ? "Black" : "White", vertex);
    }
    char komi[16];
    tg_komi_format(tg_game_rules(g)->komi2, komi, sizeof komi);
    put(&t, "%s, komi %s, rules %s",
        tg_game_over(g) ? "Game over" : tg_game_to_move(g) == TG_BLACK ? "Black to move" : "White to move",
        komi, tg_game_rules(g)->name);
    return t.used;
}
