/*
 * search_speed.c — playouts per second of the tree search (tengen/search.h)
 * on the empty 9x9 and 19x19 boards with 1 and 2 threads, beside the raw
 * light playouts of the board on one thread, so the cost of the search's
 * knowledge (policy, priors, tree) reads as a ratio.  On 9x9 the search
 * with the learned value function (`--value on`) is measured beside
 * (`_value`), so that its cost reads as a ratio as well.  A benchmark: it
 * prints figures, one a line as `name value unit`, and asserts nothing.
 *
 * usage: bench_search_speed [seconds per figure, default 3]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tengen/search.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double light_playouts(int size, double seconds)
{
    tg_board empty, b;
    tg_rng rng;
    tg_rng_seed(&rng, 1);
    tg_board_init(&empty, size);
    long n = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 100; i++, n++) {
            tg_board_copy(&b, &empty);
            tg_board_playout(&b, TG_BLACK, TG_SUICIDE_FORBIDDEN, &rng, 3 * size * size);
        }
    } while ((t = now() - t0) < seconds);
    return (double)n / t;
}

static double search_playouts(int size, int threads, double seconds, bool value)
{
    tg_search_options opt;
    tg_search_options_default(&opt);
    opt.threads = threads;
    opt.value_function = value ? TG_VALUE_ON : TG_VALUE_OFF;
    opt.resign_threshold = 0;
    tg_search *s = tg_search_new(&opt);
    tg_rules rules;
    tg_rules_default(&rules);
    tg_game *g = tg_game_new(size, &rules);
    if (!s || !g) {
        fprintf(stderr, "bench_search_speed: out of memory\n");
        exit(1);
    }
    tg_search_limits limits = {.seconds = seconds, .max_seconds = seconds};
    /* a fixed time: the early stop when the leader cannot be caught is
     * avoided by asking for the whole time of a playout budget too large */
    limits.playouts = 0;
    tg_status st = tg_search_run(s, g, TG_BLACK, &limits, 0, NULL, NULL, NULL);
    if (st != TG_OK) {
        fprintf(stderr, "search_speed: the search failed: %s\n", tg_status_text(st));
        exit(1);
    }
    const tg_search_report *r = tg_search_last_report(s);
    double rate = r->playouts / r->seconds;
    tg_game_free(g);
    tg_search_free(s);
    return rate;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 3.0;
    if (!(seconds > 0))
        seconds = 3.0;
    for (int size = 9; size <= 19; size += 10) {
        double light = light_playouts(size, seconds);
        printf("light_playouts_%dx%d %.0f playouts/s\n", size, size, light);
        for (int threads = 1; threads <= 2; threads++) {
            double rate = search_playouts(size, threads, seconds, false);
            printf("search_%dx%d_%dt %.0f playouts/s (%.3f of light)\n", size, size, threads, rate,
                   rate / light);
            if (size == 9) {
                double valued = search_playouts(size, threads, seconds, true);
                printf("search_%dx%d_%dt_value %.0f playouts/s (%.3f of light; %.3f of the search "
                       "without the value function)\n",
                       size, size, threads, valued, valued / light, valued / rate);
            }
        }
    }
    return 0;
}
