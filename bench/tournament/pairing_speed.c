/*
 * pairing_speed.c — how long tengen takes to pair a large McMahon field:
 * N players (2,000 by default) with random ranks, clubs and countries,
 * ROUNDS rounds each paired, its results drawn at random (stronger player
 * more likely to win) and entered.  Prints the time of each round's
 * pairing and the slowest.
 *
 *   bench_tournament_pairing [N [ROUNDS [SEED]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tengen/tournament.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000, rounds = argc > 2 ? atoi(argv[2]) : 7;
    unsigned long long seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    if (n < 2 || rounds < 1 || rounds > TG_TOUR_MAX_ROUNDS) {
        fprintf(stderr, "usage: bench_tournament_pairing [N>=2 [ROUNDS [SEED]]]\n");
        return 2;
    }
    tg_tour_settings s;
    tg_tour_settings_default(&s, TG_SYSTEM_MCMAHON);
    s.rounds = rounds;
    s.seed = seed;
    tg_tournament *t = tg_tour_new(&s);
    tg_rng rng;
    tg_rng_seed(&rng, seed);
    char err[256];
    for (int i = 0; i < n; i++) {
        tg_tour_player p = {0};
        snprintf(p.name, sizeof p.name, "Player %d", i);
        snprintf(p.club, sizeof p.club, "Club %u", tg_rng_below(&rng, 200));
        snprintf(p.country, sizeof p.country, "C%u", tg_rng_below(&rng, 30));
        p.rank = TG_RANK_MIN + (int)tg_rng_below(&rng, TG_RANK_MAX - TG_RANK_MIN + 1);
        if (tg_tour_add_player(t, &p, NULL, err, sizeof err) != TG_OK) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
    }
    double slowest = 0;
    for (int r = 1; r <= rounds; r++) {
        double start = now();
        if (tg_tour_pair(t, r, NULL, err, sizeof err) != TG_OK) {
            fprintf(stderr, "round %d: %s\n", r, err);
            return 1;
        }
        double seconds = now() - start;
        if (seconds > slowest)
            slowest = seconds;
        const tg_tour_round *round = &t->rounds[r - 1];
        printf("round %d: %d games, %d byes, paired in %.3f s\n", r, round->game_count,
               round->bye_count, seconds);
        for (int i = 0; i < round->game_count; i++) {
            const tg_tour_game *g = &round->games[i];
            tg_tour_result result = {tg_rng_below(&rng, 2) ? TG_OUTCOME_BLACK_WINS : TG_OUTCOME_WHITE_WINS,
                                     TG_REASON_RESIGNATION, 0};
            tg_tour_set_result(t, r, g->board, &result, NULL, err, sizeof err);
        }
    }
    printf("%d players, %d rounds: slowest pairing %.3f s\n", n, rounds, slowest);
    tg_tour_free(t);
    return 0;
}
