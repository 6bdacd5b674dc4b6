/*
 * cmd_play.c — `tengen play`: a game against the engine in the terminal.
 *
 * The board is drawn with coordinates after every move, the last move in
 * brackets and the captures beside it.  The person types a vertex, `pass`,
 * `undo`, `resign`, `score`, `help` or `quit`; the game is written as SGF
 * when it ends (or is left).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/cli_util.h"
#include "tengen/player.h"
#include "tengen/score.h"
#include "tengen/sgf.h"

typedef struct play_options {
    int size;
    tg_color human;
    tg_rules rules;
    int handicap;
    const char *sgf_path;
    uint64_t seed;
    int playouts;
} play_options;

static void play_usage(FILE *out)
{
    fprintf(out,
            "usage: tengen play [options]\n\n"
            "Play a game against tengen's engine in the terminal.\n\n"
            "options:\n"
            "  --size N          board size, 2..25 (default 19)\n"
            "  --color C         your colour: black or white (default black)\n"
            "  --rules R         ruleset preset and key=value overrides, e.g. \"japanese\" or\n"
            "                    \"chinese ko=situational\" (default chinese)\n"
            "  --komi K          komi in points, integer or half-integer (default: the rules')\n"
            "  --handicap N      fixed handicap stones for Black, 2..9 (default none)\n"
            "  --sgf FILE        save the game there (default tengen-YYYYMMDD-HHMMSS.sgf)\n"
            "  --seed N          random seed of the engine (default: from the clock)\n"
            "  --playouts N      engine playouts per move decision (default: 20 per\n"
            "                    candidate point, 400 to 6000)\n"
            "  --help            this text\n\n"
            "During the game type a vertex (D4, q16), or: pass, undo, resign, score, help, quit.\n");
}

static int parse_play_options(int argc, char **argv, play_options *o)
{
    o->size = 19;
    o->human = TG_BLACK;
    tg_rules_default(&o->rules);
    o->handicap = 0;
    o->sgf_path = NULL;
    o->seed = (uint64_t)time(NULL);
    o->playouts = 0;
    int komi2 = 0;
    bool komi_given = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char err[128];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            play_usage(stdout);
            return 1;
        }
        if (!v) {
            fprintf(stderr, "tengen play: unknown or incomplete option '%s'\n", a);
            return -1;
        }
        i++;
        if (!strcmp(a, "--size")) {
            if (cli_parse_int(v, TG_MIN_SIZE, TG_MAX_SIZE, &o->size))
                return cli_bad_value("play", a, v);
        } else if (!strcmp(a, "--color")) {
            if (!strcasecmp(v, "black") || !strcasecmp(v, "b"))
                o->human = TG_BLACK;
            else if (!strcasecmp(v, "white") || !strcasecmp(v, "w"))
                o->human = TG_WHITE;
            else
                return cli_bad_value("play", a, v);
        } else if (!strcmp(a, "--rules")) {
            if (tg_rules_apply(&o->rules, v, err, sizeof err) != TG_OK) {
                fprintf(stderr, "tengen play: %s\n", err);
                return -1;
            }
        } else if (!strcmp(a, "--komi")) {
            if (tg_komi_parse(v, &komi2) != TG_OK)
                return cli_bad_value("play", a, v);
            komi_given = true;
        } else if (!strcmp(a, "--handicap")) {
            if (cli_parse_int(v, 0, 9, &o->handicap) || o->handicap == 1)
                return cli_bad_value("play", a, v);
        } else if (!strcmp(a, "--sgf")) {
            o->sgf_path = v;
        } else if (!strcmp(a, "--seed")) {
            o->seed = strtoull(v, NULL, 10);
        } else if (!strcmp(a, "--playouts")) {
            if (cli_parse_int(v, 1, 1000000, &o->playouts))
                return cli_bad_value("play", a, v);
        } else {
            fprintf(stderr, "tengen play: unknown option '%s' (see tengen play --help)\n", a);
            return -1;
        }
    }
    if (komi_given)
        o->rules.komi2 = komi2;
    return 0;
}

static void announce_score(tg_game *g, tg_rng *rng, bool final)
{
    uint8_t dead[TG_MAX_POINTS];
    tg_score score;
    tg_estimate_dead(tg_game_board(g), tg_game_to_move(g), tg_game_rules(g), 256, rng, dead);
    tg_score_game(g, dead, &score);
    char re[32], en[96], zh[96];
    tg_result_to_sgf(&score.result, re, sizeof re);
    tg_result_in_stones(&score.result, false, en, sizeof en);
    tg_result_in_stones(&score.result, true, zh, sizeof zh);
    printf("%s: Black %.1f, White %.1f (komi and compensation included in the result)\n",
           final ? "Final count" : "Count if the game ended now", score.black2 / 2.0,
           score.white2 / 2.0);
    if (tg_game_rules(g)->scoring == TG_SCORING_AREA)
        printf("Result: %s — %s (%s)\n", re, en, zh);
    else
        printf("Result: %s\n", re);
    if (final)
        tg_game_set_result(g, &score.result);
}

static void save_game(const tg_game *g, const play_options *o)
{
    char path[64];
    const char *where = o->sgf_path;
    if (!where) {
        time_t now = time(NULL);
        struct tm tmv;
        localtime_r(&now, &tmv);
        strftime(path, sizeof path, "tengen-%Y%m%d-%H%M%S.sgf", &tmv);
        where = path;
    }
    tg_sgf_info info;
    memset(&info, 0, sizeof info);
    info.main_time = -1;
    snprintf(o->human == TG_BLACK ? info.black : info.white, sizeof info.black, "%s", "Human");
    snprintf(o->human == TG_BLACK ? info.white : info.black, sizeof info.white, "%s", "tengen");
    char *text = tg_sgf_save_game(g, &info);
    FILE *f = text ? fopen(where, "w") : NULL;
    if (f && fputs(text, f) >= 0 && fclose(f) == 0)
        printf("Game saved to %s\n", where);
    else
        fprintf(stderr, "tengen play: could not save the game to %s\n", where);
    free(text);
}

static void engine_move(tg_game *g, tg_color color, const play_options *o, tg_rng *rng)
{
    tg_player_options popt = {o->playouts, false};
    tg_point p = tg_player_genmove(g, color, &popt, rng);
    char v[8];
    if (p == TG_RESIGN) {
        tg_game_resign(g, color);
        printf("tengen resigns.\n");
        return;
    }
    tg_game_play(g, color, p, 0);
    tg_point_to_vertex(tg_game_board(g), p, v);
    printf("tengen plays %s\n", v);
}

/* One line of the person's input. */
static void handle_input(tg_game *g, const char *line, const play_options *o, tg_rng *rng, bool *quit)
{
    tg_point p;
    if (!strcasecmp(line, "quit") || !strcasecmp(line, "exit")) {
        *quit = true;
    } else if (!strcasecmp(line, "help") || !strcmp(line, "?")) {
        printf("Type a vertex like D4, or: pass, undo, resign, score, quit.\n");
    } else if (!strcasecmp(line, "resign")) {
        tg_game_resign(g, o->human);
    } else if (!strcasecmp(line, "score")) {
        announce_score(g, rng, false);
    } else if (!strcasecmp(line, "undo")) {
        /* take back the engine's answer and the person's move */
        int n = tg_game_to_move(g) == o->human ? 2 : 1;
        for (int i = 0; i < n; i++)
            if (tg_game_undo(g) != TG_OK) {
                printf("Nothing to undo.\n");
                break;
            }
    } else if (tg_vertex_parse(tg_game_board(g), line, &p) != TG_OK) {
        printf("'%s' is not a vertex of this board or a command (type help).\n", line);
    } else {
        tg_status st = tg_game_play(g, o->human, p, 0);
        if (st != TG_OK)
            printf("Illegal move: %s.\n", tg_status_text(st));
    }
}

int cmd_play(int argc, char **argv)
{
    play_options o;
    int r = parse_play_options(argc, argv, &o);
    if (r)
        return r > 0 ? 0 : 2;
    tg_game *g = tg_game_new(o.size, &o.rules);
    if (!g)
        return 1;
    tg_rng rng;
    tg_rng_seed(&rng, o.seed);
    if (o.handicap) {
        tg_point pts[9];
        int n = tg_fixed_handicap_points(tg_game_board(g), o.handicap, pts);
        if (n != o.handicap || tg_game_place_handicap(g, pts, n) != TG_OK) {
            fprintf(stderr, "tengen play: %d handicap stones do not fit a %dx%d board\n", o.handicap,
                    o.size, o.size);
            tg_game_free(g);
            return 2;
        }
    }
    char rules[200];
    tg_rules_describe(&o.rules, rules, sizeof rules);
    printf("tengen play: %dx%d, you are %s. Rules: %s\n", o.size, o.size,
           o.human == TG_BLACK ? "Black (X)" : "White (O)", rules);
    bool quit = false;
    char line[256];
    while (!quit && !tg_game_over(g)) {
        if (tg_game_to_move(g) != o.human) {
            engine_move(g, tg_game_to_move(g), &o, &rng);
            continue;
        }
        cli_print_board(stdout, g);
        printf("%s to move > ", o.human == TG_BLACK ? "Black" : "White");
        fflush(stdout);
        if (!cli_read_line(stdin, line, sizeof line)) {
            printf("\n"); /* end of input: finish the prompt's line */
            quit = true;
            break;
        }
        handle_input(g, line, &o, &rng, &quit);
    }
    cli_print_board(stdout, g);
    if (tg_game_over(g) && tg_game_result(g)->kind == TG_RESULT_NONE)
        announce_score(g, &rng, true);
    else if (tg_game_over(g)) {
        char re[32], en[96];
        tg_result_to_sgf(tg_game_result(g), re, sizeof re);
        tg_result_in_stones(tg_game_result(g), false, en, sizeof en);
        printf("Result: %s — %s\n", re, en);
    }
    save_game(g, &o);
    tg_game_free(g);
    return 0;
}
