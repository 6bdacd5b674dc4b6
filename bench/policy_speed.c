/*
 * policy_speed.c — the cost of the 19x19 policy network (engine/policy_net.c):
 * its input planes (which ask the move model of every candidate) and its
 * evaluations per second, on one thread and on two, and the search's
 * playouts per second on a 19x19 middle game with the network's priors
 * beside the same search without them, so that the network's share of the
 * search's time reads as a ratio.  A benchmark: it prints figures, one a
 * line as `name value unit`, and asserts nothing.
 *
 * Then the batches: evaluations per second in batches of 4 and 16
 * (policy_net_eval_batch) beside one at a time, and the search on two
 * threads with its evaluations gathered in batches of 2 and 4 across the
 * threads beside none (--policy-net-batch); and the cache by position: the
 * same search run again on the same position, its verdicts in the cache.
 * Every search but that one starts with the cache empty.
 *
 * usage: bench_policy_speed WEIGHTS.tgw [seconds per figure, default 3]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/policy_net.h"
#include "tengen/search.h"

#define N 19
#define POSITIONS 32

static float planes[POSITIONS][N * N * POLICY_PLANES];
static const policy_net *net;
static double seconds = 3;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void random_game(tg_game *g, tg_rng *rng, int moves)
{
    for (int i = 0; i < moves; i++) {
        tg_color c = tg_game_to_move(g);
        tg_point p = tg_board_random_move(tg_game_board(g), c, TG_SUICIDE_FORBIDDEN, rng);
        if (tg_game_play(g, c, p, 0) != TG_OK)
            tg_game_play(g, c, TG_PASS, 0);
    }
}

static void *evaluate(void *arg)
{
    long *count = arg;
    float logits[N * N], pass, win;
    double end = now() + seconds;
    for (long k = 0; now() < end; k++) {
        policy_net_eval(net, planes[k % POSITIONS], N, (int)(k % 8), logits, &pass, &win, false);
        ++*count;
    }
    return NULL;
}

static int batch = 1;

/* the same in batches of `batch` */
static void *evaluate_batches(void *arg)
{
    long *count = arg;
    static __thread float logits[16][N * N];
    float win[16], *out[16];
    const float *in[16];
    int sym[16];
    float *scratch = aligned_alloc(64, policy_net_batch_floats(batch) * sizeof *scratch);
    if (!scratch)
        return NULL;
    double end = now() + seconds;
    for (long k = 0; now() < end; k += batch) {
        for (int i = 0; i < batch; i++) {
            in[i] = planes[(k + i) % POSITIONS];
            sym[i] = (int)((k + i) % 8);
            out[i] = logits[i];
        }
        if (!policy_net_eval_batch(net, batch, in, N, sym, out, win, scratch))
            break;
        *count += batch;
    }
    free(scratch);
    return NULL;
}

static double evals_per_second(int threads)
{
    pthread_t t[2];
    long count[2] = {0, 0};
    double start = now();
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, batch > 1 ? evaluate_batches : evaluate, &count[i]);
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    return (double)(count[0] + count[1]) / (now() - start);
}

/* net_visits < 0: without the network; 0 its default; else a node's visits
 * before it gets the network's priors; on `threads` threads with the
 * network's evaluations in batches of net_batch (0: the default); the
 * cache by position emptied first unless keep_cache */
static double search_speed(const tg_game *g, int net_visits, int threads, int net_batch, bool keep_cache)
{
    tg_search_options opt;
    tg_search_options_default(&opt);
    opt.no_policy_net = net_visits < 0;
    opt.policy_net_visits = net_visits > 0 ? net_visits : 0;
    opt.threads = threads;
    opt.policy_net_batch = net_batch;
    opt.reuse_tree = false;
    if (!keep_cache)
        policy_net_cache_clear();
    tg_search *s = tg_search_new(&opt);
    if (!s)
        return 0;
    tg_search_limits limits = {.seconds = seconds, .max_seconds = seconds};
    double start = now();
    tg_search_run(s, g, tg_game_to_move(g), &limits, 0, NULL, NULL, NULL);
    double pps = tg_search_last_report(s)->playouts / (now() - start);
    tg_search_free(s);
    return pps;
}

static double playouts_per_second(const tg_game *g, int net_visits)
{
    return search_speed(g, net_visits, 1, 0, false);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_policy_speed WEIGHTS.tgw [seconds]\n");
        return 2;
    }
    if (argc > 2)
        seconds = atof(argv[2]);
    FILE *f = fopen(argv[1], "rb");
    static uint8_t data[1 << 22];
    size_t len = f ? fread(data, 1, sizeof data, f) : 0;
    if (f)
        fclose(f);
    char err[200] = "";
    if (!len || tg_search_use_policy_net(data, len, err, sizeof err) != TG_OK || !(net = policy_net_for(N))) {
        fprintf(stderr, "bench_policy_speed: %s: %s\n", argv[1], err[0] ? err : "cannot read it");
        return 1;
    }
    tg_rules rules;
    tg_rules_default(&rules);
    tg_rng rng;
    tg_rng_seed(&rng, 7);
    double start = now();
    long made = 0;
    for (; made < POSITIONS || now() - start < seconds; made++) {
        tg_game *g = tg_game_new(N, &rules);
        random_game(g, &rng, 40 + (int)(made % POSITIONS) * 4);
        policy_net_planes(tg_game_board(g), tg_game_to_move(g), TG_NO_POINT, planes[made % POSITIONS]);
        tg_game_free(g);
    }
    printf("policy_planes_19 %.0f planes/s (the move model of every candidate; with the random games made)\n",
           (double)made / (now() - start));
    printf("policy_net_blocks %d blocks of %d channels\n", net->blocks, 32);
    double one = evals_per_second(1), two = evals_per_second(2);
    printf("policy_evals_1thread %.0f evals/s\n", one);
    printf("policy_evals_2threads %.0f evals/s (%.2fx one thread)\n", two, two / one);
    tg_game *g = tg_game_new(N, &rules);
    random_game(g, &rng, 0);
    static const char *const opening[] = {"Q16", "D4", "Q3", "D16", "R5", "C14", "O17", "F17", "K4", "E3"};
    for (size_t i = 0; i < sizeof opening / sizeof *opening; i++) {
        tg_point p;
        if (tg_vertex_parse(tg_game_board(g), opening[i], &p) != TG_OK)
            continue;
        tg_game_play(g, tg_game_to_move(g), p, 0);
    }
    double without = playouts_per_second(g, -1), with = playouts_per_second(g, 0);
    printf("search_19_without_net %.0f playouts/s\n", without);
    printf("search_19_with_net %.0f playouts/s (%.2fx: the network's share of the time about %.0f%%; the default "
           "visits before a node is evaluated)\n",
           with, with / without, 100 * (1 - with / without));
    /* the cost at other thresholds (--policy-net-visits N): 1, every node
     * when it is expanded */
    static const int thresholds[] = {1, 4, 16, 32};
    for (size_t i = 0; i < sizeof thresholds / sizeof *thresholds; i++) {
        double pps = playouts_per_second(g, thresholds[i]);
        printf("search_19_with_net_visits_%d %.0f playouts/s (%.2fx: the network's share about %.0f%%)\n",
               thresholds[i], pps, pps / without, 100 * (1 - pps / without));
    }
    /* batches of evaluations */
    static const int batches[] = {4, 16};
    for (size_t i = 0; i < sizeof batches / sizeof *batches; i++) {
        batch = batches[i];
        double b1 = evals_per_second(1), b2 = evals_per_second(2);
        printf("policy_evals_batch_%d_1thread %.0f evals/s (%.2fx one at a time)\n", batch, b1, b1 / one);
        printf("policy_evals_batch_%d_2threads %.0f evals/s (%.2fx one at a time)\n", batch, b2, b2 / two);
    }
    double alone2 = search_speed(g, 0, 2, 1, false);
    printf("search_19_2threads_with_net %.0f playouts/s (each evaluation where it is asked)\n", alone2);
    static const int search_batches[] = {2, 4};
    for (size_t i = 0; i < sizeof search_batches / sizeof *search_batches; i++) {
        double pps = search_speed(g, 0, 2, search_batches[i], false);
        printf("search_19_2threads_with_net_batch_%d %.0f playouts/s (%.2fx each where it is asked)\n",
               search_batches[i], pps, pps / alone2);
    }
    /* the cache by position: the same search again, every verdict of the
     * first in the cache */
    uint64_t h0, m0, h1, m1;
    search_speed(g, 0, 1, 1, false);
    policy_net_cache_stats(&h0, &m0);
    double again = search_speed(g, 0, 1, 1, true);
    policy_net_cache_stats(&h1, &m1);
    printf("search_19_with_net_cached %.0f playouts/s (%.2fx the first search; %llu of %llu verdicts from the "
           "cache)\n",
           again, again / with, (unsigned long long)(h1 - h0), (unsigned long long)(h1 - h0 + m1 - m0));
    tg_game_free(g);
    return 0;
}
