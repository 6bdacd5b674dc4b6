/*
 * gtp_setup.c — the commands that set a game up rather than play it:
 * board size, clearing, komi, rules (kgs-rules, tengen-rules), handicap
 * stones (fixed, chosen by the engine, chosen by the controller) and the
 * time settings the search will read.
 *
 * Every handler validates all of its arguments before it changes anything,
 * so a refused command leaves the position exactly as it was.
 */
#include <limits.h>
#include <string.h>

#include "gtp/gtp_internal.h"
#include "tengen/free_opening.h"

/* ---- Board size, clearing, komi ---------------------------------------- */

/* "N", "N N" or "N:N" (rectangular boards are refused as unacceptable). */
static int parse_board_size(tg_gtp *e, int argc, char **argv, long *size)
{
    char *parts[2] = {argv[0], argc == 2 ? argv[1] : NULL};
    char *colon = strchr(argv[0], ':');
    if (colon && argc == 1) {
        *colon = '\0';
        parts[1] = colon + 1;
    }
    long other = 0;
    if (!gtp_parse_int(parts[0], LONG_MIN, LONG_MAX, size) ||
        (parts[1] && !gtp_parse_int(parts[1], LONG_MIN, LONG_MAX, &other)))
        return gtp_fail(e, "syntax error");
    if ((parts[1] && other != *size) || *size < TG_MIN_SIZE || *size > TG_MAX_SIZE)
        return gtp_fail(e, "unacceptable size");
    return 0;
}

int gtp_cmd_boardsize(tg_gtp *e, int argc, char **argv)
{
    long size;
    if (parse_board_size(e, argc, argv, &size))
        return -1;
    tg_game *g = tg_game_new((int)size, tg_game_rules(e->game));
    if (!g)
        return gtp_fail(e, "out of memory");
    gtp_set_game(e, g);
    return 0;
}

int gtp_cmd_clear_board(tg_gtp *e, int argc, char **argv)
{
    (void)argc, (void)argv;
    tg_game_clear(e->game);
    return 0;
}

static bool is_number(const char *s)
{
    double seconds;
    return gtp_parse_seconds(s[0] == '-' ? s + 1 : s, &seconds);
}

int gtp_cmd_komi(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    int komi2;
    if (tg_komi_parse(argv[0], &komi2) != TG_OK)
        return gtp_fail(e, is_number(argv[0]) ? "unacceptable komi" : "syntax error");
    tg_rules rules = *tg_game_rules(e->game);
    rules.komi2 = komi2;
    rules.revealed = false; /* a komi given replaces the predictions' threshold */
    tg_game_set_rules(e->game, &rules);
    return 0;
}

/* tengen-predictions FIRST SECOND: the sealed predictions of the
 * free-opening ruleset revealed (002 §5.3): answers the threshold and the
 * colour the first player takes ("W+6.5 white"); the count is then against
 * the threshold exactly (final_score's W+0.5 is "White wins by 0.5 stone",
 * W+0.25 against a threshold of a quarter, W+0 a count equal to it under
 * decide=yes), the komi is the one that decides alike (a quarter as the
 * half point between its two integers, as differences on the board are
 * whole stones), and printsgf writes both predictions (PF, PS, FC). */
int gtp_cmd_tengen_predictions(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    int first2, second2;
    if (tg_prediction_parse(argv[0], &first2) != TG_OK || tg_prediction_parse(argv[1], &second2) != TG_OK)
        return gtp_fail(e, "syntax error: predictions are W+N, B+N or 0 (N in stones, halves allowed)");
    tg_predictions p;
    tg_predictions_decide(first2, second2, &p);
    tg_rules rules = *tg_game_rules(e->game);
    tg_rules_reveal(&rules, first2, second2); /* under any rules: the controller asked */
    tg_game_set_rules(e->game, &rules);
    char threshold[32];
    tg_threshold_format(p.threshold4, threshold, sizeof threshold);
    gtp_text_puts(&e->body, threshold);
    gtp_text_puts(&e->body, p.first_takes_white ? " white" : " black");
    return 0;
}

/* ---- Rules -------------------------------------------------------------- */

/* KGS names its rulesets; the komi is set separately, so it is kept. */
int gtp_cmd_kgs_rules(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    static const char *const names[][2] = {
        {"chinese", "chinese"},
        {"japanese", "japanese"},
        {"aga", "aga"},
        {"new_zealand", "new-zealand"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!gtp_same_word(argv[0], names[i][0]))
            continue;
        tg_rules rules;
        if (tg_rules_preset(&rules, names[i][1]) != TG_OK)
            return gtp_fail(e, "unknown rules");
        rules.komi2 = tg_game_rules(e->game)->komi2;
        tg_game_set_rules(e->game, &rules);
        return 0;
    }
    return gtp_fail(e, "unknown rules");
}

/* tengen-rules [NAME | key=value ...]: applied left to right on the active
 * rules; the answer is the resulting options in the same language. */
int gtp_cmd_tengen_rules(tg_gtp *e, int argc, char **argv)
{
    tg_rules rules = *tg_game_rules(e->game);
    if (argc > 0) {
        gtp_text joined = {0};
        for (int i = 0; i < argc; i++) {
            if (i)
                gtp_text_append(&joined, " ", 1);
            gtp_text_puts(&joined, argv[i]);
        }
        if (joined.failed) {
            gtp_text_free(&joined);
            return gtp_fail(e, "out of memory");
        }
        char err[160] = "";
        tg_status st = tg_rules_apply(&rules, joined.data, err, sizeof err);
        gtp_text_free(&joined);
        if (st != TG_OK)
            return gtp_fail(e, err[0] ? err : "invalid rules");
        tg_game_set_rules(e->game, &rules);
    }
    char description[256];
    tg_rules_describe(&rules, description, sizeof description);
    gtp_text_puts(&e->body, description);
    return 0;
}

/* ---- Handicap ----------------------------------------------------------- */

static bool board_empty(const tg_gtp *e)
{
    const tg_board *b = tg_game_board(e->game);
    return tg_game_move_count(e->game) == 0 && tg_board_stone_count(b, TG_BLACK) == 0 &&
           tg_board_stone_count(b, TG_WHITE) == 0;
}

/* Place the stones and answer their vertices. */
static int place_handicap(tg_gtp *e, const tg_point *points, int n)
{
    tg_status st = tg_game_place_handicap(e->game, points, n);
    if (st == TG_ERR_NO_MEMORY)
        return gtp_fail(e, "out of memory");
    if (st != TG_OK)
        return gtp_fail(e, "board not empty");
    for (int i = 0; i < n; i++) {
        if (i)
            gtp_text_append(&e->body, " ", 1);
        gtp_put_vertex(e, points[i]);
    }
    return 0;
}

int gtp_cmd_fixed_handicap(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    long n;
    if (!gtp_parse_int(argv[0], LONG_MIN, LONG_MAX, &n))
        return gtp_fail(e, "syntax error");
    tg_point points[9];
    int count = (n >= 2 && n <= 9) ? tg_fixed_handicap_points(tg_game_board(e->game), (int)n, points) : 0;
    if (count < 2 || count != n)
        return gtp_fail(e, "invalid number of stones");
    if (!board_empty(e))
        return gtp_fail(e, "board not empty");
    return place_handicap(e, points, count);
}

/* Distance of a point from the nearest edge (0 on the first line). */
static int edge_distance(const tg_board *b, tg_point p)
{
    int x = tg_point_x(b, p), y = tg_point_y(b, p), s = b->size - 1;
    int d = x < y ? x : y;
    if (s - x < d)
        d = s - x;
    if (s - y < d)
        d = s - y;
    return d;
}

/* The next free handicap stone: as far as possible from the stones already
 * chosen (min_dist2: squared distance to the nearest), off the first lines
 * while there is room, then nearest the line stones usually go on. */
static tg_point next_free_stone(const tg_board *b, const int *min_dist2, const bool *taken)
{
    int best_line = b->size >= 13 ? 3 : b->size >= 7 ? 2 : b->size / 2;
    int min_line = b->size >= 9 ? 2 : b->size >= 5 ? 1 : 0;
    for (; min_line >= 0; min_line--) {
        tg_point best = TG_NO_POINT;
        int best_dist = -1, best_off = 0;
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                tg_point p = tg_point_at(b, x, y);
                int line = edge_distance(b, p);
                if (taken[p] || line < min_line)
                    continue;
                int off = line > best_line ? line - best_line : best_line - line;
                if (min_dist2[p] > best_dist || (min_dist2[p] == best_dist && off < best_off)) {
                    best = p;
                    best_dist = min_dist2[p];
                    best_off = off;
                }
            }
        if (best != TG_NO_POINT)
            return best;
    }
    return TG_NO_POINT;
}

static void mark_stone(const tg_board *b, tg_point stone, int *min_dist2, bool *taken)
{
    taken[stone] = true;
    int sx = tg_point_x(b, stone), sy = tg_point_y(b, stone);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int d2 = (x - sx) * (x - sx) + (y - sy) * (y - sy);
            tg_point p = tg_point_at(b, x, y);
            if (d2 < min_dist2[p])
                min_dist2[p] = d2;
        }
}

/* The standard points for as many stones as they cover, then spread out. */
static int choose_free_handicap(const tg_board *b, int n, tg_point *points)
{
    int min_dist2[TG_MAX_POINTS];
    bool taken[TG_MAX_POINTS];
    int fixed = 0;
    for (int k = n < 9 ? n : 9; k >= 2 && !fixed; k--)
        fixed = tg_fixed_handicap_points(b, k, points);
    for (int p = 0; p < TG_MAX_POINTS; p++) {
        min_dist2[p] = INT_MAX;
        taken[p] = false;
    }
    for (int i = 0; i < fixed; i++)
        mark_stone(b, points[i], min_dist2, taken);
    int count = fixed;
    while (count < n) {
        tg_point p = next_free_stone(b, min_dist2, taken);
        if (p == TG_NO_POINT)
            break;
        mark_stone(b, p, min_dist2, taken);
        points[count++] = p;
    }
    return count;
}

int gtp_cmd_place_free_handicap(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    const tg_board *b = tg_game_board(e->game);
    long n;
    if (!gtp_parse_int(argv[0], LONG_MIN, LONG_MAX, &n))
        return gtp_fail(e, "syntax error");
    if (n < 2 || n > (long)b->size * b->size - 1)
        return gtp_fail(e, "invalid number of stones");
    if (!board_empty(e))
        return gtp_fail(e, "board not empty");
    tg_point points[TG_MAX_SIZE * TG_MAX_SIZE];
    int count = choose_free_handicap(b, (int)n, points);
    return place_handicap(e, points, count);
}

int gtp_cmd_set_free_handicap(tg_gtp *e, int argc, char **argv)
{
    const tg_board *b = tg_game_board(e->game);
    if (!board_empty(e))
        return gtp_fail(e, "board not empty");
    if (argc < 2 || argc > b->size * b->size - 1)
        return gtp_fail(e, "bad vertex list");
    tg_point points[TG_MAX_SIZE * TG_MAX_SIZE];
    bool seen[TG_MAX_POINTS] = {false};
    for (int i = 0; i < argc; i++) {
        tg_point p;
        if (tg_vertex_parse(b, argv[i], &p) != TG_OK || p == TG_PASS || seen[p])
            return gtp_fail(e, "bad vertex list");
        seen[p] = true;
        points[i] = p;
    }
    if (place_handicap(e, points, argc))
        return -1;
    gtp_text_clear(&e->body);   /* set_free_handicap answers nothing */
    return 0;
}

/* ---- Time --------------------------------------------------------------- */

void gtp_set_time_control(tg_gtp *e, const tg_time_control *tc)
{
    tg_time_state_start(tc, &e->time[TG_BLACK]);
    e->time[TG_WHITE] = e->time[TG_BLACK];
}

/* The settings of time_settings and kgs-time_settings (seconds), in the
 * clock layer's model: what time_left has said is forgotten. */
static void set_clock(tg_gtp *e, tg_clock_system system, double main_time, double period_time, int periods,
                      int stones)
{
    tg_time_control tc = {.system = system, .main_ms = gtp_milliseconds(main_time),
                          .period_ms = gtp_milliseconds(period_time), .periods = periods, .stones = stones};
    gtp_set_time_control(e, &tc);
}

/* time_settings main byo_yomi_time byo_yomi_stones (Canadian byo-yomi):
 * byo-yomi time 0 means absolute time; stones 0 with time > 0, no limit. */
int gtp_cmd_time_settings(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    double main_time, period_time;
    long stones;
    if (!gtp_parse_seconds(argv[0], &main_time) || !gtp_parse_seconds(argv[1], &period_time) ||
        !gtp_parse_int(argv[2], 0, INT_MAX, &stones))
        return gtp_fail(e, "syntax error");
    if (period_time > 0 && stones == 0)
        set_clock(e, TG_CLOCK_NONE, 0, 0, 0, 0);
    else if (period_time == 0)
        set_clock(e, TG_CLOCK_ABSOLUTE, main_time, 0, 0, 0);
    else
        set_clock(e, TG_CLOCK_CANADIAN, main_time, period_time, 0, (int)stones);
    return 0;
}

/* kgs-time_settings none | absolute M | byoyomi M P N | canadian M P S */
int gtp_cmd_kgs_time_settings(tg_gtp *e, int argc, char **argv)
{
    double main_time = 0, period_time = 0;
    long count = 0;
    bool numbers_ok = (argc < 2 || gtp_parse_seconds(argv[1], &main_time)) &&
                      (argc < 3 || gtp_parse_seconds(argv[2], &period_time)) &&
                      (argc < 4 || gtp_parse_int(argv[3], 0, INT_MAX, &count));
    if (!numbers_ok)
        return gtp_fail(e, "syntax error");
    if (gtp_same_word(argv[0], "none") && argc == 1)
        set_clock(e, TG_CLOCK_NONE, 0, 0, 0, 0);
    else if (gtp_same_word(argv[0], "absolute") && argc == 2)
        set_clock(e, TG_CLOCK_ABSOLUTE, main_time, 0, 0, 0);
    else if (gtp_same_word(argv[0], "byoyomi") && argc == 4)
        set_clock(e, TG_CLOCK_BYOYOMI, main_time, period_time, (int)count, 0);
    else if (gtp_same_word(argv[0], "canadian") && argc == 4)
        set_clock(e, TG_CLOCK_CANADIAN, main_time, period_time, 0, (int)count);
    else
        return gtp_fail(e, "syntax error");
    return 0;
}

int gtp_cmd_time_left(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    tg_color color;
    double seconds;
    long stones;
    if (gtp_arg_color(e, argv[0], &color))
        return -1;
    if (!gtp_parse_seconds(argv[1], &seconds) || !gtp_parse_int(argv[2], 0, INT_MAX, &stones))
        return gtp_fail(e, "syntax error");
    tg_time_state *t = &e->time[color];
    tg_clock_view_from_left(&t->control, gtp_milliseconds(seconds), (int)stones, &t->view);
    return 0;
}
