/*
 * cmd_bench.c — `tengen bench`: single-threaded speed figures of the board
 * and the SGF reader, one per line as `name value unit`:
 *
 *   playouts_9x9    light random playouts per second on an empty 9x9 board
 *   playouts_19x19  the same on 19x19
 *   legal_checks    tg_board_check calls per second on mid-game positions
 *   sgf_parse       MB/s of tg_sgf_parse on a generated collection
 *
 * A light playout plays uniformly random legal moves that do not fill the
 * mover's own eyes until both sides pass, on the full rules board (the same
 * tg_board every other layer uses).  This is a benchmark, not a test:
 * nothing here asserts a speed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_options.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "tengen/sgf.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double bench_playouts(int size, double seconds, tg_rng *rng)
{
    tg_board empty, b;
    tg_board_init(&empty, size);
    long done = 0;
    double start = now_seconds(), elapsed;
    do {
        for (int i = 0; i < 200; i++) {
            tg_board_copy(&b, &empty);
            tg_board_playout(&b, TG_BLACK, TG_SUICIDE_FORBIDDEN, rng, size * size * 3);
        }
        done += 200;
        elapsed = now_seconds() - start;
    } while (elapsed < seconds);
    return (double)done / elapsed;
}

static double bench_legal_checks(double seconds, tg_rng *rng)
{
    /* positions a quarter, half and three quarters into random 19x19 games */
    enum { NPOS = 48 };
    static tg_board positions[NPOS];
    for (int i = 0; i < NPOS; i++) {
        tg_board_init(&positions[i], 19);
        int moves = 60 + (int)tg_rng_below(rng, 240);
        tg_board_playout(&positions[i], TG_BLACK, TG_SUICIDE_FORBIDDEN, rng, moves);
    }
    long checks = 0, legal = 0;
    double start = now_seconds(), elapsed;
    do {
        for (int i = 0; i < NPOS; i++) {
            const tg_board *b = &positions[i];
            for (int p = 0; p < b->npoints; p++) {
                legal += tg_board_check(b, p, TG_BLACK, TG_SUICIDE_FORBIDDEN) == TG_OK;
                legal += tg_board_check(b, p, TG_WHITE, TG_SUICIDE_FORBIDDEN) == TG_OK;
            }
            checks += 2L * b->npoints;
        }
        elapsed = now_seconds() - start;
    } while (elapsed < seconds);
    if (legal < 0)
        return 0; /* keeps the result observable to the compiler */
    return (double)checks / elapsed;
}

/* A collection of random 19x19 games with comments and a variation each. */
static char *make_collection(tg_rng *rng, size_t *len)
{
    size_t cap = 1 << 22, n = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    while (n + 16384 < cap - 16384) {
        n += (size_t)snprintf(text + n, cap - n,
                              "(;FF[4]GM[1]SZ[19]KM[7.5]RU[Chinese]PB[Black \\] player]PW[White]"
                              "C[A comment with \\\\ escapes\nand two lines.]");
        for (int m = 0; m < 250; m++) {
            char x = (char)('a' + tg_rng_below(rng, 19)), y = (char)('a' + tg_rng_below(rng, 19));
            n += (size_t)snprintf(text + n, cap - n, ";%c[%c%c]BL[%d]", m % 2 ? 'W' : 'B', x, y, 600 - m);
            if (m == 100)
                n += (size_t)snprintf(text + n, cap - n, "(;W[aa];B[bb])(;W[cc]C[variation]");
        }
        n += (size_t)snprintf(text + n, cap - n, "))\n");
    }
    *len = n;
    return text;
}

static double bench_sgf_parse(double seconds, tg_rng *rng)
{
    size_t len;
    char *text = make_collection(rng, &len);
    if (!text)
        return 0;
    double bytes = 0, start = now_seconds(), elapsed;
    do {
        tg_sgf_tree *tree;
        if (tg_sgf_parse(text, len, &tree, NULL) != TG_OK) {
            free(text);
            return 0;
        }
        tg_sgf_tree_free(tree);
        bytes += (double)len;
        elapsed = now_seconds() - start;
    } while (elapsed < seconds);
    free(text);
    return bytes / elapsed / 1e6;
}

static const char bench_synopsis[] =
    "usage: tengen bench [--seconds S] [--only NAME] [--seed N]\n\n"
    "Single-threaded speed figures, one per line as `name value unit`:\n"
    "  playouts_9x9    light random playouts per second, empty 9x9\n"
    "  playouts_19x19  light random playouts per second, empty 19x19\n"
    "  legal_checks    board legality checks per second\n"
    "  sgf_parse       SGF reader throughput in MB/s\n\n";

int cmd_bench(int argc, char **argv)
{
    int seconds = 3;
    const char *only = NULL;
    uint64_t seed = 1;
    const cli_option options[] = {
        {"--seconds", NULL, CLI_INT, "S", 1, 3600, NULL, NULL, NULL, &seconds,
         "time spent on each figure, 1..3600 (default 3)"},
        {"--only", NULL, CLI_TEXT, "NAME", 0, 0, NULL, NULL, NULL, &only, "measure only that figure"},
        CLI_OPT_SEED(&seed, "random seed (default 1)"),
    };
    const cli_command cmd = {.name = "bench", .synopsis = bench_synopsis, .options = options,
                             .option_count = CLI_COUNT(options)};
    int r = cli_parse(&cmd, argc, argv);
    if (r)
        return r == CLI_HELP ? 0 : 2;
    tg_rng rng;
    tg_rng_seed(&rng, seed);
    const struct {
        const char *name, *unit;
    } figures[] = {{"playouts_9x9", "playouts/s"},
                   {"playouts_19x19", "playouts/s"},
                   {"legal_checks", "checks/s"},
                   {"sgf_parse", "MB/s"}};
    bool any = false;
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        if (only && strcmp(only, figures[i].name))
            continue;
        any = true;
        double v = i == 0   ? bench_playouts(9, seconds, &rng)
                   : i == 1 ? bench_playouts(19, seconds, &rng)
                   : i == 2 ? bench_legal_checks(seconds, &rng)
                            : bench_sgf_parse(seconds, &rng);
        printf("%s %.*f %s\n", figures[i].name, i == 3 ? 1 : 0, v, figures[i].unit);
        fflush(stdout);
    }
    if (!any) {
        fprintf(stderr, "tengen bench: no figure named '%s'\n", only);
        return 2;
    }
    return 0;
}
