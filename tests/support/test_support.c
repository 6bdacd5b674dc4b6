/*
 * test_support.c — diagrams, vertices and the rendering of a game with the
 * illegal points of the side to move, for the rules tests (see
 * test_support.h).  Deliberately independent of the library's own vertex
 * parser and printer.
 */
#include "test_support.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const char COLUMN_LETTERS[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

static tg_point padded_point(int size, int x, int y) { return (y + 1) * (size + 1) + x + 1; }

char ts_column_letter(int x) { return x >= 0 && x < TG_MAX_SIZE ? COLUMN_LETTERS[x] : '?'; }

tg_point ts_vertex(int size, const char *text)
{
    if (!strcmp(text, "pass") || !strcmp(text, "PASS"))
        return TG_PASS;
    char letter = (char)toupper((unsigned char)text[0]);
    const char *where = letter ? strchr(COLUMN_LETTERS, letter) : NULL;
    if (!where)
        return TG_NO_POINT;
    int x = (int)(where - COLUMN_LETTERS);
    char *end;
    long row = strtol(text + 1, &end, 10);
    if (end == text + 1 || *end || x >= size || row < 1 || row > size)
        return TG_NO_POINT;
    return padded_point(size, x, (int)row - 1);
}

void ts_vertex_name(int size, tg_point p, char *buf)
{
    if (p == TG_PASS) {
        strcpy(buf, "pass");
        return;
    }
    int stride = size + 1;
    snprintf(buf, 8, "%c%d", ts_column_letter(p % stride - 1), p / stride);
}

/* A numbered row of a diagram: its number and where the cells start. */
static bool parse_row(const char *line, int *row, const char **cells)
{
    while (*line == ' ')
        line++;
    if (!isdigit((unsigned char)*line))
        return false;
    *row = (int)strtol(line, (char **)cells, 10);
    return true;
}

int ts_diagram_size(const char *diagram)
{
    int rows = 0;
    for (const char *line = diagram; line && *line;) {
        int row;
        const char *cells;
        if (parse_row(line, &row, &cells))
            rows++;
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return rows;
}

int ts_diagram_read(const char *diagram, uint8_t *out)
{
    int size = ts_diagram_size(diagram);
    if (size < TG_MIN_SIZE || size > TG_MAX_SIZE)
        return 0;
    memset(out, TG_OFFBOARD, TG_MAX_POINTS);
    bool seen[TG_MAX_SIZE + 1] = {false};
    for (const char *line = diagram; line && *line;) {
        int row;
        const char *cells;
        const char *eol = strchr(line, '\n');
        if (!eol)
            eol = line + strlen(line);
        if (parse_row(line, &row, &cells)) {
            if (row < 1 || row > size || seen[row])
                return 0;
            seen[row] = true;
            int x = 0;
            for (const char *c = cells; c < eol; c++) {
                if (*c == ' ' || *c == '\r')
                    continue;
                tg_color colour;
                switch (*c) {
                case 'X': colour = TG_BLACK; break;
                case 'O': colour = TG_WHITE; break;
                case '.': case '*': case 'k': case '+': colour = TG_EMPTY; break;
                default: return 0;
                }
                if (x >= size)
                    return 0;
                out[padded_point(size, x, row - 1)] = (uint8_t)colour;
                x++;
            }
            if (x != size)
                return 0;
        }
        line = *eol ? eol + 1 : NULL;
    }
    return size;
}

bool ts_board_from_diagram(tg_board *b, const char *diagram)
{
    uint8_t colours[TG_MAX_POINTS];
    int size = ts_diagram_read(diagram, colours);
    if (size != b->size)
        return false;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            tg_point p = padded_point(size, x, y);
            if (colours[p] != TG_EMPTY && tg_board_set_point(b, p, (tg_color)colours[p]) != TG_OK)
                return false;
        }
    return true;
}

bool ts_board_new_from_diagram(tg_board *b, const char *diagram)
{
    int size = ts_diagram_size(diagram);
    return tg_board_init(b, size) == TG_OK && ts_board_from_diagram(b, diagram);
}

tg_game *ts_game_from_diagram(const char *rules_text, const char *diagram, tg_color to_move)
{
    uint8_t colours[TG_MAX_POINTS];
    int size = ts_diagram_read(diagram, colours);
    tg_rules rules;
    tg_rules_default(&rules);
    if (!size || (rules_text && tg_rules_apply(&rules, rules_text, NULL, 0) != TG_OK))
        return NULL;
    tg_game *g = tg_game_new(size, &rules);
    if (!g)
        return NULL;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            tg_point p = padded_point(size, x, y);
            if (colours[p] != TG_EMPTY && tg_game_setup(g, p, (tg_color)colours[p]) != TG_OK) {
                tg_game_free(g);
                return NULL;
            }
        }
    tg_game_set_to_move(g, to_move);
    return g;
}

void ts_text_init(ts_text *t, char *buf, size_t len)
{
    t->buf = buf;
    t->len = len;
    t->used = 0;
    if (len)
        buf[0] = 0;
}

void ts_text_add(ts_text *t, const char *fmt, ...)
{
    if (t->used + 1 >= t->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->used += (size_t)n < t->len - t->used ? (size_t)n : t->len - t->used - 1;
}

/* The mark of an empty point for the side to move: '.' when legal. */
static char point_mark(const tg_game *g, tg_point p)
{
    if (tg_game_over(g))
        return '.';
    switch (tg_game_check(g, tg_game_to_move(g), p, 0)) {
    case TG_OK: return '.';
    case TG_ERR_SUICIDE: return '*';
    case TG_ERR_KO: case TG_ERR_SUPERKO: return 'k';
    default: return '?';
    }
}

static void render(const tg_board *b, const tg_game *g, ts_text *t)
{
    int size = b->size;
    for (int y = size - 1; y >= 0; y--) {
        ts_text_add(t, "%2d", y + 1);
        for (int x = 0; x < size; x++) {
            tg_point p = padded_point(size, x, y);
            char c;
            switch (b->color[p]) {
            case TG_BLACK: c = 'X'; break;
            case TG_WHITE: c = 'O'; break;
            case TG_EMPTY: c = g ? point_mark(g, p) : '.'; break;
            default: c = '#'; break;
            }
            ts_text_add(t, " %c", c);
        }
        ts_text_add(t, "\n");
    }
    ts_text_add(t, "  ");
    for (int x = 0; x < size; x++)
        ts_text_add(t, " %c", ts_column_letter(x));
    ts_text_add(t, "\n");
}

void ts_render_board(const tg_board *b, char *buf, size_t len)
{
    ts_text t;
    ts_text_init(&t, buf, len);
    render(b, NULL, &t);
}

void ts_render_game(const tg_game *g, char *buf, size_t len)
{
    ts_text t;
    ts_text_init(&t, buf, len);
    const tg_board *b = tg_game_board(g);
    render(b, g, &t);
    if (tg_game_over(g)) {
        char re[64];
        tg_result_to_sgf(tg_game_result(g), re, sizeof re);
        ts_text_add(&t, "game over, result %s\n", re);
    } else {
        ts_text_add(&t, "%c to move, captures B %d W %d\n", tg_game_to_move(g) == TG_BLACK ? 'B' : 'W',
                    b->captures[TG_BLACK], b->captures[TG_WHITE]);
    }
}

const char *ts_status_word(tg_status s, const tg_rules *r)
{
    switch (s) {
    case TG_OK: return "ok";
    case TG_ERR_OCCUPIED: return "occupied";
    case TG_ERR_OFF_BOARD: return "off-board";
    case TG_ERR_SUICIDE: return "suicide";
    case TG_ERR_KO: return r && r->ko != TG_KO_SIMPLE ? "superko" : "ko";
    case TG_ERR_SUPERKO: return "superko";
    case TG_ERR_WRONG_PLAYER: return "wrong-player";
    case TG_ERR_GAME_OVER: return "game-over";
    case TG_ERR_INVALID: return "invalid";
    case TG_ERR_NOT_ALLOWED: return "not-allowed";
    case TG_ERR_NO_MEMORY: return "no-memory";
    case TG_ERR_PARSE: return "parse";
    case TG_ERR_IO: return "io";
    }
    return "unknown";
}

void ts_half_points(int half_points, char *buf, size_t len)
{
    int magnitude = half_points < 0 ? -half_points : half_points;
    snprintf(buf, len, "%s%d%s", half_points < 0 ? "-" : "", magnitude / 2, magnitude % 2 ? ".5" : "");
}

FILE *ts_open_data(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        return f;
    const char *root = getenv("TENGEN_SOURCE_DIR");
    if (!root)
        return NULL;
    char full[4096];
    snprintf(full, sizeof full, "%s/tests/%s", root, path);
    return fopen(full, "rb");
}

tg_point ts_at(const tg_board *b, const char *vertex)
{
    tg_point p = ts_vertex(b->size, vertex);
    if (p < 0)
        fail_msg("bad vertex %s", vertex);
    return p;
}

void ts_board_play_rows(tg_board *b, int size, const char *const *rows, const char *last)
{
    assert_int_equal(tg_board_init(b, size), TG_OK);
    tg_point last_point = last ? ts_at(b, last) : TG_NO_POINT;
    tg_color last_color = TG_EMPTY;
    for (int r = 0; r < size; r++) {
        assert_int_equal((int)strlen(rows[r]), size);
        for (int x = 0; x < size; x++) {
            char ch = rows[r][x];
            if (ch == '.')
                continue;
            assert_true(ch == 'X' || ch == 'O');
            tg_color c = ch == 'X' ? TG_BLACK : TG_WHITE;
            tg_point p = tg_point_at(b, x, size - 1 - r);
            if (p == last_point) {
                last_color = c;
                continue;
            }
            assert_int_equal(tg_board_check(b, p, c, TG_SUICIDE_FORBIDDEN), TG_OK);
            tg_board_play(b, p, c);
        }
    }
    if (last) {
        assert_int_not_equal(last_color, TG_EMPTY);
        assert_int_equal(tg_board_check(b, last_point, last_color, TG_SUICIDE_FORBIDDEN), TG_OK);
        tg_board_play(b, last_point, last_color);
    }
}

tg_point ts_search_genmove(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits,
                           bool cleanup)
{
    tg_point move;
    assert_int_equal(tg_search_genmove(s, g, color, limits, cleanup, &move), TG_OK);
    return move;
}

tg_point ts_search_run(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits,
                       double interval_seconds, tg_search_progress_fn progress, void *ctx)
{
    tg_point move;
    assert_int_equal(tg_search_run(s, g, color, limits, interval_seconds, progress, ctx, &move), TG_OK);
    return move;
}

long ts_root_visits(const tg_search *s)
{
    const tg_search_report *r = tg_search_last_report(s);
    long sum = 0;
    for (int i = 0; i < r->candidate_count; i++)
        sum += r->candidates[i].visits;
    return sum;
}
