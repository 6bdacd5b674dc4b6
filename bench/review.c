/*
 * review.c — where a game was lost: every position of the game in which one
 * player (tengen, by default) was to move, searched twice by tengen's own
 * search, once with the short budget the player had (1,000 playouts, the
 * measure of issue 4) and once with a long one (20,000), from a fresh tree
 * each time.  The short search's winrate is what the player believed; the
 * long one's is the nearer truth.  Where the belief stands far above the
 * truth the player misread the position, and where the truth falls most
 * between two of the player's moves is the move that lost the game.
 *
 * A benchmark program, not a test: it prints figures and asserts nothing.
 * usage: bench_review [--player NAME] [--color B|W] [--short N] [--long N]
 *                     [--seed S] [--from MOVE] FILE.sgf...
 * The player is found by name in PB/PW (default "tengen"); --color names
 * the colour instead.  One line a position:
 *     FILE MOVE COLOUR PLAYED  SHORT_BEST SHORT_WR  LONG_BEST LONG_WR  PLAYED_LONG_WR
 * (winrates for the side to move, in percent; PLAYED_LONG_WR is the played
 * move's winrate in the long search, "-" when it had fewer than 20 visits),
 * then a summary line a game: the largest overestimate (SHORT_WR - LONG_WR)
 * and the largest fall of LONG_WR from one of the player's moves to its next.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_util.h"
#include "tengen/search.h"
#include "tengen/sgf.h"

typedef struct review_options {
    const char *player;
    tg_color color; /* TG_EMPTY: by name */
    int short_playouts, long_playouts;
    uint64_t seed;
    int from;
} review_options;

/* The search's best move and its winrate, and the winrate of `played`
 * (< 0 when the search gave it fewer than 20 visits). */
static void search_position(tg_search *s, const tg_game *g, tg_color c, int playouts, tg_point played,
                            tg_point *best, double *winrate, double *played_winrate)
{
    tg_search_clear(s);
    tg_search_limits limits = {.playouts = playouts};
    tg_status st = tg_search_run(s, g, c, &limits, 0, NULL, NULL, best);
    if (st != TG_OK) {
        fprintf(stderr, "review: the search failed: %s\n", tg_status_text(st));
        exit(1);
    }
    const tg_search_report *r = tg_search_last_report(s);
    *winrate = r->winrate;
    *played_winrate = -1;
    for (int i = 0; i < r->candidate_count; i++)
        if (r->candidates[i].move == played && r->candidates[i].visits >= 20)
            *played_winrate = r->candidates[i].winrate;
}

static int review_game(const char *path, const review_options *o, tg_search *s)
{
    size_t len;
    char *data = cli_read_file(path, &len);
    if (!data) {
        fprintf(stderr, "bench_review: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    tg_game *full;
    tg_sgf_info info;
    tg_sgf_error err;
    if (tg_sgf_load_game(data, len, -1, &full, &info, &err) != TG_OK) {
        fprintf(stderr, "bench_review: %s:%d:%d: %s\n", path, err.line, err.column, err.message);
        free(data);
        return 1;
    }
    tg_color color = o->color;
    if (color == TG_EMPTY)
        color = strcasecmp(info.black, o->player) == 0   ? TG_BLACK
                : strcasecmp(info.white, o->player) == 0 ? TG_WHITE
                                                         : TG_EMPTY;
    if (color == TG_EMPTY) {
        fprintf(stderr, "bench_review: %s: no player named %s (PB %s, PW %s); use --color\n", path,
                o->player, info.black, info.white);
        tg_game_free(full);
        free(data);
        return 1;
    }
    int moves = tg_game_move_count(full);
    double worst_gap = 0, worst_fall = 0, last_truth = -1;
    int gap_at = 0, fall_at = 0;
    char gap_move[8] = "-", fall_move[8] = "-", fall_best[8] = "-", prev_move[8] = "-", prev_best[8] = "-";
    int prev_at = 0;
    for (int k = o->from; k < moves; k++) {
        const tg_move *m = tg_game_move(full, k);
        if (m->color != color)
            continue;
        /* the position before move k: the record replayed again up to it,
         * under its own rules and setup (the parse is nothing beside the
         * searches) */
        tg_game *g;
        if (tg_sgf_load_game(data, len, k, &g, NULL, &err) != TG_OK) {
            fprintf(stderr, "bench_review: %s: cannot replay to move %d: %s\n", path, k, err.message);
            tg_game_free(full);
            free(data);
            return 1;
        }
        const tg_board *b = tg_game_board(g);
        tg_point sbest, lbest;
        double swr, lwr, spl, lpl;
        search_position(s, g, color, o->short_playouts, m->point, &sbest, &swr, &spl);
        search_position(s, g, color, o->long_playouts, m->point, &lbest, &lwr, &lpl);
        char played[8], sb[8], lb[8], lp[16];
        tg_point_to_vertex(b, m->point, played);
        tg_point_to_vertex(b, sbest, sb);
        tg_point_to_vertex(b, lbest, lb);
        if (lpl < 0)
            strcpy(lp, "-");
        else
            snprintf(lp, sizeof lp, "%.1f", 100 * lpl);
        printf("%s %d %c %s  %s %.1f  %s %.1f  %s\n", path, k + 1, color == TG_BLACK ? 'B' : 'W', played, sb,
               100 * swr, lb, 100 * lwr, lp);
        fflush(stdout);
        if (swr - lwr > worst_gap) {
            worst_gap = swr - lwr;
            gap_at = k + 1;
            strcpy(gap_move, played);
        }
        if (last_truth >= 0 && last_truth - lwr > worst_fall) {
            /* the fall belongs to the player's previous move */
            worst_fall = last_truth - lwr;
            fall_at = prev_at;
            strcpy(fall_move, prev_move);
            strcpy(fall_best, prev_best);
        }
        prev_at = k + 1;
        strcpy(prev_move, played);
        strcpy(prev_best, lb);
        last_truth = lwr;
        tg_game_free(g);
    }
    printf("%s summary: overestimate %.1f at move %d (%s); fall %.1f after move %d (%s, the long search: %s)\n",
           path, 100 * worst_gap, gap_at, gap_move, 100 * worst_fall, fall_at, fall_move, fall_best);
    tg_game_free(full);
    free(data);
    return 0;
}

static int bad_value(const char *option, const char *value)
{
    fprintf(stderr, "bench_review: bad value '%s' for %s\n", value, option);
    return 2;
}

int main(int argc, char **argv)
{
    review_options o = {"tengen", TG_EMPTY, 1000, 20000, 5, 0};
    int first = argc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "--player") && more)
            o.player = argv[++i];
        else if (!strcmp(a, "--color") && more) {
            const char *c = argv[++i];
            o.color = (c[0] == 'B' || c[0] == 'b') ? TG_BLACK : (c[0] == 'W' || c[0] == 'w') ? TG_WHITE : TG_EMPTY;
            if (o.color == TG_EMPTY) {
                fprintf(stderr, "bench_review: --color takes B or W\n");
                return 2;
            }
        } else if (!strcmp(a, "--short") && more) {
            if (cli_parse_int(argv[++i], 1, 100000000, &o.short_playouts))
                return bad_value(a, argv[i]);
        } else if (!strcmp(a, "--long") && more) {
            if (cli_parse_int(argv[++i], 1, 100000000, &o.long_playouts))
                return bad_value(a, argv[i]);
        } else if (!strcmp(a, "--seed") && more) {
            int seed;
            if (cli_parse_int(argv[++i], 0, 2147483647, &seed))
                return bad_value(a, argv[i]);
            o.seed = (uint64_t)seed;
        } else if (!strcmp(a, "--from") && more) {
            if (cli_parse_int(argv[++i], 0, 100000, &o.from))
                return bad_value(a, argv[i]);
        } else if (a[0] == '-') {
            fprintf(stderr, "usage: bench_review [--player NAME] [--color B|W] [--short N] [--long N] "
                            "[--seed S] [--from MOVE] FILE.sgf...\n");
            return 2;
        } else {
            first = i;
            break;
        }
    }
    if (first >= argc) {
        fprintf(stderr, "bench_review: no SGF file given\n");
        return 2;
    }
    tg_search_options opt;
    tg_search_options_default(&opt);
    opt.resign_threshold = 0;
    opt.seed = o.seed;
    opt.reuse_tree = false;
    tg_search *s = tg_search_new(&opt);
    if (!s) {
        fprintf(stderr, "bench_review: out of memory\n");
        return 1;
    }
    int failed = 0;
    for (int i = first; i < argc; i++)
        failed |= review_game(argv[i], &o, s);
    tg_search_free(s);
    return failed;
}
