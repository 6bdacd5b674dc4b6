/*
 * golden.c — the golden transcript runner of the rules tests, in the style
 * of KataGo's rules tests: a scripted sequence of commands, and after each
 * one the board with the illegal points of the side to move, compared with
 * text written by hand from RULES.md and CASES.md.
 *
 * A transcript (a file in tests/data/golden/) is a list of commands, each a line
 * starting with "> ", followed by the output it must produce.  Lines starting
 * with '#' and blank lines are comments.  Commands:
 *
 *   position B|W [rules...]  the block below is the position (a diagram in
 *                            the CASES.md format, then the status line); the
 *                            game is built from it, rendered, and compared
 *                            with it — so the marks of illegal points in the
 *                            diagram are checked too
 *   play B|W VERTEX          success: the rendered game; failure: "= word"
 *   pass B|W                 the same as play B|W pass
 *   check B|W VERTEX [any]   "= word" (any: TG_PLAY_ANY_ORDER)
 *   undo                     the rendered game, or "= word"
 *   setup B|W|E VERTEX       tg_game_setup: the rendered game, or "= word"
 *   handicap N               fixed handicap stones: the rendered game, or "= word"
 *   resign|timeout|forfeit B|W, noresult, resume B|W
 *                            the rendered game, or "= word"
 *   rules TEXT               change the rules of the game in progress (no output)
 *   score [dead VERTEX...]   tg_score_game: per colour "stones S territory T
 *                            prisoners P taxed G total X" (total in points),
 *                            then "dame D komi K handicap points H result RE"
 *   remember NAME / same NAME
 *                            keep the board (stones, hash, captures, ko, side to
 *                            move) and later compare with it: "= same" or
 *                            "= differs: what"
 *
 * The runner keeps going after a difference and reports them all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_support.h"

#define MAX_LINES 4096
#define OUT_SIZE 65536
#define MAX_REMEMBERED 8

typedef struct remembered {
    char name[32];
    tg_board board;
    tg_color to_move;
} remembered;

typedef struct runner {
    tg_game *game;
    remembered memory[MAX_REMEMBERED];
    int nmemory;
} runner;

static tg_color parse_colour(const char *word)
{
    if (!word)
        return TG_OFFBOARD;
    if (!strcmp(word, "B") || !strcmp(word, "b"))
        return TG_BLACK;
    if (!strcmp(word, "W") || !strcmp(word, "w"))
        return TG_WHITE;
    if (!strcmp(word, "E") || !strcmp(word, "e"))
        return TG_EMPTY;
    return TG_OFFBOARD;
}

static void say_status(runner *r, tg_status s, ts_text *out)
{
    ts_text_add(out, "= %s\n", ts_status_word(s, r->game ? tg_game_rules(r->game) : NULL));
}

static void render_or_status(runner *r, tg_status s, ts_text *out)
{
    if (s != TG_OK) {
        say_status(r, s, out);
        return;
    }
    char buf[8192];
    ts_render_game(r->game, buf, sizeof buf);
    ts_text_add(out, "%s", buf);
}

static void run_position(runner *r, tg_color to_move, const char *rules, const char *block, ts_text *out)
{
    if (r->game)
        tg_game_free(r->game);
    r->game = ts_game_from_diagram(rules, block, to_move);
    if (!r->game) {
        ts_text_add(out, "= cannot build the position\n");
        return;
    }
    render_or_status(r, TG_OK, out);
}

static void run_score(runner *r, char **words, int nwords, ts_text *out)
{
    uint8_t dead[TG_MAX_POINTS];
    memset(dead, 0, sizeof dead);
    bool any_dead = false;
    int size = tg_game_size(r->game);
    for (int i = 0; i < nwords; i++) {
        if (!strcmp(words[i], "dead"))
            continue;
        tg_point p = ts_vertex(size, words[i]);
        if (p < 0) {
            ts_text_add(out, "= bad vertex %s\n", words[i]);
            return;
        }
        dead[p] = 1;
        any_dead = true;
    }
    tg_score s;
    tg_score_game(r->game, any_dead ? dead : NULL, &s);
    char total[16], komi[16], re[32];
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        ts_half_points(c == TG_BLACK ? s.black2 : s.white2, total, sizeof total);
        ts_text_add(out, "%c stones %d territory %d prisoners %d taxed %d total %s\n", c == TG_BLACK ? 'B' : 'W',
                    s.stones[c], s.territory[c], s.prisoners[c], s.groups_taxed[c], total);
    }
    ts_half_points(s.komi2, komi, sizeof komi);
    tg_result_to_sgf(&s.result, re, sizeof re);
    ts_text_add(out, "dame %d komi %s handicap points %d result %s\n", s.dame, komi, s.handicap_points, re);
}

static remembered *find_memory(runner *r, const char *name, bool create)
{
    for (int i = 0; i < r->nmemory; i++)
        if (!strcmp(r->memory[i].name, name))
            return &r->memory[i];
    if (!create || r->nmemory == MAX_REMEMBERED)
        return NULL;
    remembered *m = &r->memory[r->nmemory++];
    snprintf(m->name, sizeof m->name, "%s", name);
    return m;
}

static void run_same(runner *r, const char *name, ts_text *out)
{
    remembered *m = find_memory(r, name, false);
    if (!m) {
        ts_text_add(out, "= nothing remembered as %s\n", name);
        return;
    }
    const tg_board *b = tg_game_board(r->game);
    char what[128] = "";
    ts_text t;
    ts_text_init(&t, what, sizeof what);
    for (int p = 0; p < b->npoints; p++)
        if (b->color[p] != m->board.color[p]) {
            ts_text_add(&t, " stones");
            break;
        }
    if (b->hash != m->board.hash)
        ts_text_add(&t, " hash");
    if (b->captures[TG_BLACK] != m->board.captures[TG_BLACK] || b->captures[TG_WHITE] != m->board.captures[TG_WHITE])
        ts_text_add(&t, " captures");
    if (b->ko_point != m->board.ko_point || (b->ko_point != TG_NO_POINT && b->ko_color != m->board.ko_color))
        ts_text_add(&t, " ko");
    if (tg_game_to_move(r->game) != m->to_move)
        ts_text_add(&t, " to-move");
    if (!tg_board_consistent(b))
        ts_text_add(&t, " inconsistent");
    ts_text_add(out, what[0] ? "= differs:%s\n" : "= same\n", what);
}

typedef tg_status (*ending_fn)(tg_game *, tg_color);

static bool run_ending(runner *r, const char *verb, const char *arg, ts_text *out)
{
    static const struct {
        const char *verb;
        ending_fn fn;
    } endings[] = {{"resign", tg_game_resign},
                   {"timeout", tg_game_lose_on_time},
                   {"forfeit", tg_game_forfeit},
                   {"resume", tg_game_resume}};
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++)
        if (!strcmp(verb, endings[i].verb)) {
            render_or_status(r, endings[i].fn(r->game, parse_colour(arg)), out);
            return true;
        }
    return false;
}

#define MAX_WORDS 64

/* Execute one command; its output goes to out. */
static void run_command(runner *r, char *command, const char *block, ts_text *out)
{
    char *words[MAX_WORDS];
    int nwords = 0;
    for (char *w = strtok(command, " "); w && nwords < MAX_WORDS; w = strtok(NULL, " "))
        words[nwords++] = w;
    if (!nwords)
        return;
    const char *verb = words[0];
    char *a1 = nwords > 1 ? words[1] : NULL;
    char *a2 = nwords > 2 ? words[2] : NULL;
    char *a3 = nwords > 3 ? words[3] : NULL;
    if (!strcmp(verb, "position")) {
        char rules[512] = "";
        for (int i = 2; i < nwords; i++) {
            strncat(rules, words[i], sizeof rules - strlen(rules) - 2);
            strcat(rules, " ");
        }
        run_position(r, parse_colour(a1), rules[0] ? rules : NULL, block, out);
        return;
    }
    if (!r->game) {
        ts_text_add(out, "= no position yet\n");
        return;
    }
    int size = tg_game_size(r->game);
    if (!strcmp(verb, "play") || !strcmp(verb, "pass") || !strcmp(verb, "check")) {
        tg_point p = !strcmp(verb, "pass") ? TG_PASS : (a2 ? ts_vertex(size, a2) : TG_NO_POINT);
        if (p == TG_NO_POINT) {
            ts_text_add(out, "= bad vertex\n");
            return;
        }
        if (!strcmp(verb, "check"))
            say_status(r, tg_game_check(r->game, parse_colour(a1), p, a3 && !strcmp(a3, "any") ? TG_PLAY_ANY_ORDER : 0), out);
        else
            render_or_status(r, tg_game_play(r->game, parse_colour(a1), p, 0), out);
    } else if (!strcmp(verb, "undo")) {
        render_or_status(r, tg_game_undo(r->game), out);
    } else if (!strcmp(verb, "setup")) {
        tg_point p = a2 ? ts_vertex(size, a2) : TG_NO_POINT;
        render_or_status(r, p < 0 ? TG_ERR_INVALID : tg_game_setup(r->game, p, parse_colour(a1)), out);
    } else if (!strcmp(verb, "handicap")) {
        tg_point stones[TG_MAX_POINTS];
        int n = tg_fixed_handicap_points(tg_game_board(r->game), a1 ? atoi(a1) : 0, stones);
        render_or_status(r, n ? tg_game_place_handicap(r->game, stones, n) : TG_ERR_INVALID, out);
    } else if (!strcmp(verb, "noresult")) {
        render_or_status(r, tg_game_no_result(r->game), out);
    } else if (run_ending(r, verb, a1, out)) {
        /* done */
    } else if (!strcmp(verb, "rules")) {
        tg_rules rules = *tg_game_rules(r->game);
        char text[512] = "", err[128] = "";
        for (int i = 1; i < nwords; i++) {
            strncat(text, words[i], sizeof text - strlen(text) - 2);
            strcat(text, " ");
        }
        if (tg_rules_apply(&rules, text, err, sizeof err) != TG_OK)
            ts_text_add(out, "= %s\n", err);
        else
            tg_game_set_rules(r->game, &rules);
    } else if (!strcmp(verb, "score")) {
        run_score(r, words + 1, nwords - 1, out);
    } else if (!strcmp(verb, "remember")) {
        remembered *m = a1 ? find_memory(r, a1, true) : NULL;
        if (m) {
            tg_board_copy(&m->board, tg_game_board(r->game));
            m->to_move = tg_game_to_move(r->game);
        }
    } else if (!strcmp(verb, "same")) {
        run_same(r, a1 ? a1 : "", out);
    } else {
        ts_text_add(out, "= unknown command %s\n", verb);
    }
}

/* ---- Transcript ------------------------------------------------------ */

static char *trim_right(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\t'))
        s[--n] = 0;
    return s;
}

static bool is_comment(const char *line) { return line[0] == '#' || line[0] == 0; }

/* Compare the command's expected lines with what it printed. */
static int compare_block(const char *path, int line_no, const char *command, char **expected, int nexpected,
                         char *actual)
{
    char *lines[MAX_LINES];
    int nactual = 0;
    for (char *s = strtok(actual, "\n"); s && nactual < MAX_LINES; s = strtok(NULL, "\n"))
        if (!is_comment(trim_right(s)))
            lines[nactual++] = s;
    bool same = nactual == nexpected;
    for (int i = 0; same && i < nactual; i++)
        same = !strcmp(lines[i], expected[i]);
    if (same)
        return 0;
    fprintf(stderr, "%s:%d: > %s\n--- expected\n", path, line_no, command);
    for (int i = 0; i < nexpected; i++)
        fprintf(stderr, "%s\n", expected[i]);
    fprintf(stderr, "--- actual\n");
    for (int i = 0; i < nactual; i++)
        fprintf(stderr, "%s\n", lines[i]);
    fprintf(stderr, "---\n");
    return 1;
}

int ts_golden_run(const char *path)
{
    FILE *f = ts_open_data(path);
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;

    static char *lines[MAX_LINES];
    int nlines = 0;
    for (char *s = text; s && *s && nlines < MAX_LINES;) {
        char *eol = strchr(s, '\n');
        if (eol)
            *eol = 0;
        lines[nlines++] = trim_right(s);
        s = eol ? eol + 1 : NULL;
    }

    runner r = {0};
    int failures = 0, commands = 0;
    for (int i = 0; i < nlines;) {
        if (strncmp(lines[i], "> ", 2)) {
            if (!is_comment(lines[i])) {
                fprintf(stderr, "%s:%d: output with no command: %s\n", path, i + 1, lines[i]);
                failures++;
            }
            i++;
            continue;
        }
        int command_line = i;
        char *expected[MAX_LINES];
        int nexpected = 0;
        char block[16384];
        ts_text b;
        ts_text_init(&b, block, sizeof block);
        for (i++; i < nlines && strncmp(lines[i], "> ", 2); i++)
            if (!is_comment(lines[i])) {
                expected[nexpected++] = lines[i];
                ts_text_add(&b, "%s\n", lines[i]);
            }
        char command[512];
        snprintf(command, sizeof command, "%s", lines[command_line] + 2);
        static char out[OUT_SIZE];
        ts_text o;
        ts_text_init(&o, out, sizeof out);
        char scratch[512];
        snprintf(scratch, sizeof scratch, "%s", command);
        run_command(&r, scratch, block, &o);
        failures += compare_block(path, command_line + 1, command, expected, nexpected, out);
        commands++;
    }
    if (r.game)
        tg_game_free(r.game);
    if (!commands) {
        fprintf(stderr, "%s: no commands\n", path);
        return -1;
    }
    return failures;
}

void ts_assert_golden(const char *path)
{
    int failures = ts_golden_run(path);
    if (failures != 0)
        fail_msg("%s: %d command(s) gave output different from the transcript", path, failures);
}
