/*
 * schedule.c — which games a match plays, in which order, with which
 * colours, opening and seed.  A pure function of its configuration, so a
 * resumed match (the same options) plays exactly the games that are missing,
 * each with the seed it would have had.
 *
 * Games are interleaved across pairs (round r of every pair before round
 * r + 1), so partial results of a round-robin stay balanced.  Each opening
 * is played twice, once with each colour; with nigiri the colours of each
 * game come from a recorded random draw instead (R1); fixed colours give
 * the first engine of a pair Black every game (handicap matches).
 */
#include <stdlib.h>

#include "tengen/control.h"
#include "tengen/referee.h"

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The pairs (first, second) the tournament plays; returns their count. */
static int make_pairs(const tg_schedule_config *cfg, int (*pairs)[2])
{
    int n = 0;
    for (int i = 0; i < cfg->engines; i++)
        for (int j = i + 1; j < cfg->engines; j++) {
            if (cfg->tournament == TG_TOURNAMENT_GAUNTLET && i != 0)
                continue;
            if (cfg->tournament == TG_TOURNAMENT_MATCH && (i != 0 || j != 1))
                continue;
            pairs[n][0] = i;
            pairs[n++][1] = j;
        }
    return n;
}

/* R1: the senior (first) engine holds a handful of white stones, the other
 * guesses odd or even; a right guess takes Black. */
static bool nigiri(tg_scheduled_game *g)
{
    tg_rng rng;
    tg_nigiri draw;
    tg_rng_seed(&rng, g->seed ^ 0x6e6967697269ull);
    tg_nigiri_draw(&rng, &draw);
    g->nigiri_stones = draw.stones;
    g->nigiri_guess = draw.guess_even ? 2 : 1;
    return !draw.senior_black;
}

tg_status tg_schedule_make(const tg_schedule_config *cfg, tg_scheduled_game **out, int *count)
{
    *out = NULL;
    *count = 0;
    if (cfg->engines < 2 || cfg->games < 1 || (cfg->fixed && cfg->nigiri) ||
        (cfg->tournament == TG_TOURNAMENT_MATCH && cfg->engines != 2))
        return TG_ERR_INVALID;
    int (*pairs)[2] = malloc((size_t)cfg->engines * (size_t)cfg->engines * sizeof *pairs);
    if (!pairs)
        return TG_ERR_NO_MEMORY;
    int npairs = make_pairs(cfg, pairs);
    tg_scheduled_game *games = calloc((size_t)npairs * (size_t)cfg->games, sizeof *games);
    if (!games) {
        free(pairs);
        return TG_ERR_NO_MEMORY;
    }
    int n = 0;
    for (int round = 0; round < cfg->games; round++)
        for (int p = 0; p < npairs; p++) {
            tg_scheduled_game *g = &games[n++];
            g->game = n;
            g->seed = splitmix64(cfg->seed ^ splitmix64((uint64_t)n));
            g->opening = cfg->openings > 0 ? (round / 2) % cfg->openings : -1;
            bool second_is_black = cfg->nigiri ? nigiri(g) : !cfg->fixed && round % 2 == 1;
            g->black = pairs[p][second_is_black ? 1 : 0];
            g->white = pairs[p][second_is_black ? 0 : 1];
        }
    free(pairs);
    *out = games;
    *count = n;
    return TG_OK;
}
