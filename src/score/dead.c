/*
 * dead.c — the dead stones of a finished position, from Benson's
 * unconditional life and the Monte-Carlo ownership estimate.
 *
 * Stones are judged by *groups*: chains of one colour that share a liberty
 * (a one-point jump, a diagonal, a bamboo joint ...) live or die together,
 * as players see them.  A group is dead when the mean ownership over its
 * stones and their liberties leans toward the opponent (DEAD_THRESHOLD).
 * Counting the liberties matters: a living group owns the points around it
 * as surely as its stones, while a dead one is at best contested there, and
 * random playouts leave hopeless stones in open areas only slightly on the
 * opponent's side.
 *
 * A group whose lean is short of SURE_LIFE is dead all the same when every
 * opponent group bounding it leans its own way by SURE_LIFE or more: random
 * playouts do not reduce a big eye space nor read a capturing race, so they
 * leave a surrounded group a little of its ownership that no player would
 * (GNU Go's score.tst, measured by bench/bench_dead.py).
 *
 * Benson overrides the estimate both ways (with life by two eyes that only
 * look false, eyes.c, added to its verdicts): a group with an
 * unconditionally alive chain is never dead, and stones inside the opponent's unconditional
 * territory always are.  Last, the shape of a group's only eye space, where
 * it holds opponent stones short of liberties, overrides the playouts, which
 * do not read there (eyespace.c).
 */
#include <string.h>

#include "tengen/score.h"
#include "score/eyes.h"
#include "score/eyespace.h"
#include "score/regions.h"

/* How far toward the opponent the mean ownership of a group (stones and
 * liberties, seen from its owner) must lean for the group to be dead. */
#define DEAD_THRESHOLD 0.0f

/* The mean ownership above which a group is sure to live.  A group below it
 * whose every neighbouring opponent group is above it is dead: the opponent
 * has it surrounded for good, and what random playouts still give it (a big
 * eye space they do not know how to reduce, a capturing race they do not
 * read) is counted by no player.  Between two groups that are both unsure
 * the plain threshold decides, so a contested border never kills both. */
#define SURE_LIFE 0.25f

static uint16_t find_root(uint16_t *parent, uint16_t x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

/* group[p] = a representative point of the group of the stone on p. */
static void find_groups(const tg_board *b, uint16_t *group)
{
    for (tg_point p = 0; p < b->npoints; p++)
        group[p] = (uint16_t)p;
    for (tg_point p = 0; p < b->npoints; p++) {
        if (b->color[p] == TG_BLACK || b->color[p] == TG_WHITE) {
            group[p] = find_root(group, b->chain_of[p]);
            continue;
        }
        if (b->color[p] != TG_EMPTY)
            continue;
        tg_point nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++)
            for (int k = i + 1; k < 4; k++)
                if (b->color[nb[i]] == b->color[nb[k]] &&
                    (b->color[nb[i]] == TG_BLACK || b->color[nb[i]] == TG_WHITE)) {
                    uint16_t a = find_root(group, b->chain_of[nb[i]]);
                    uint16_t c = find_root(group, b->chain_of[nb[k]]);
                    group[a > c ? a : c] = a > c ? c : a;
                }
    }
    for (tg_point p = 0; p < b->npoints; p++)
        if (b->color[p] == TG_BLACK || b->color[p] == TG_WHITE)
            group[p] = find_root(group, b->chain_of[p]);
}

typedef struct group_stats {
    float sum;        /* ownership over stones and liberties, from Black's side */
    int points;
    bool benson_alive;
    bool in_opponent_territory;
    float own;                /* mean ownership seen from the group's colour */
    float weakest_opponent;   /* least own of the opponent groups bounding its sphere */
} group_stats;

static void gather(const tg_board *b, const uint16_t *group, const uint8_t *safe,
                   const float *ownership, group_stats *stats)
{
    uint16_t counted_for[TG_MAX_POINTS][2];   /* liberties counted once per group */
    memset(stats, 0, sizeof(group_stats) * (size_t)b->npoints);
    memset(counted_for, 0xff, sizeof counted_for);
    for (tg_point p = 0; p < b->npoints; p++) {
        tg_color c = tg_board_at(b, p);
        if (c != TG_BLACK && c != TG_WHITE)
            continue;
        group_stats *g = &stats[group[p]];
        g->sum += ownership[p];
        g->points++;
        g->benson_alive |= safe[p] == c;
        g->in_opponent_territory |= safe[p] == tg_opponent(c);
        tg_point nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++) {
            uint16_t *seen = counted_for[nb[i]];
            if (b->color[nb[i]] != TG_EMPTY || seen[0] == group[p] || seen[1] == group[p])
                continue;
            seen[seen[0] == 0xffff ? 0 : 1] = group[p];
            g->sum += ownership[nb[i]];
            g->points++;
        }
    }
}

/* own of every group, then weakest_opponent (stats indexed by the root):
 * the least own of the opponent groups that bound the group's sphere, the
 * points reachable from its stones through empty points and stones of its
 * colour.  The sphere, not only the stones next to the group, because a
 * group with an open side is not surrounded whatever stands beside it. */
static void weigh_spheres(const tg_board *b, const uint16_t *group, group_stats *stats)
{
    for (tg_point p = 0; p < b->npoints; p++) {
        tg_color c = tg_board_at(b, p);
        if ((c == TG_BLACK || c == TG_WHITE) && group[p] == p)
            stats[p].own = (c == TG_BLACK ? stats[p].sum : -stats[p].sum) / (float)stats[p].points;
    }
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        uint8_t member[TG_MAX_POINTS];
        int16_t sphere[TG_MAX_POINTS];
        float weakest[TG_MAX_POINTS];
        for (tg_point p = 0; p < b->npoints; p++)
            member[p] = b->color[p] == TG_EMPTY || b->color[p] == c;
        int n = score_label_components(b, member, sphere);
        for (int i = 0; i < n; i++)
            weakest[i] = 1.0f;
        for (tg_point p = 0; p < b->npoints; p++) {
            if (sphere[p] < 0)
                continue;
            tg_point nb[4];
            score_neighbours(b, p, nb);
            for (int i = 0; i < 4; i++) {
                if (b->color[nb[i]] != tg_opponent(c))
                    continue;
                float o = stats[group[nb[i]]].own;
                weakest[sphere[p]] = o < weakest[sphere[p]] ? o : weakest[sphere[p]];
            }
        }
        for (tg_point p = 0; p < b->npoints; p++) {
            if (b->color[p] == c && group[p] == p)
                stats[p].weakest_opponent = weakest[sphere[p]];
        }
    }
}

/* Ownership with half the playouts started by each side: after two passes
 * neither side has the move in any sense that should tilt the estimate. */
static void mean_ownership(const tg_board *b, tg_color to_move, const tg_rules *r, int playouts,
                           tg_rng *rng, float *ownership)
{
    float other[TG_MAX_POINTS];
    if (to_move != TG_WHITE)
        to_move = TG_BLACK;
    int first = (playouts + 1) / 2, second = playouts - first;
    tg_ownership(b, to_move, r, first, rng, ownership);
    tg_ownership(b, tg_opponent(to_move), r, second, rng, other);
    for (int p = 0; p < TG_MAX_POINTS; p++)
        ownership[p] = (ownership[p] * (float)first + other[p] * (float)second) /
                       (float)(playouts > 0 ? playouts : 1);
}

void tg_estimate_dead(const tg_board *b, tg_color to_move, const tg_rules *r, int playouts,
                      tg_rng *rng, uint8_t *dead)
{
    uint8_t safe[TG_MAX_POINTS];
    float ownership[TG_MAX_POINTS];
    uint16_t group[TG_MAX_POINTS];
    group_stats stats[TG_MAX_POINTS];
    memset(dead, 0, TG_MAX_POINTS);
    if (!r->dead_removed)
        return;
    tg_benson(b, safe);
    score_two_eye_life(b, safe);
    mean_ownership(b, to_move, r, playouts, rng, ownership);
    find_groups(b, group);
    gather(b, group, safe, ownership, stats);
    weigh_spheres(b, group, stats);
    uint8_t sure[TG_MAX_POINTS];
    memset(sure, 0, sizeof sure);
    for (tg_point p = 0; p < b->npoints; p++) {
        tg_color c = tg_board_at(b, p);
        if (c != TG_BLACK && c != TG_WHITE)
            continue;
        const group_stats *g = &stats[group[p]];
        bool surrounded = g->own < SURE_LIFE && g->weakest_opponent >= SURE_LIFE;
        if (!g->benson_alive && (g->in_opponent_territory || g->own < -DEAD_THRESHOLD || surrounded))
            dead[p] = 1;
        sure[p] = g->benson_alive || (!dead[p] && g->own >= SURE_LIFE);
    }
    score_dead_by_eye_space(b, group, safe, sure, dead);
}

void tg_game_estimate_dead(const tg_game *g, int playouts, uint64_t seed, uint8_t *dead)
{
    const tg_board *b = tg_game_board(g);
    tg_color to_move = tg_game_to_move(g);
    /* The board's hash covers the stones only; the side to move and the
     * size change what the playouts see, so they are part of the key. */
    uint64_t key = b->hash ^ (uint64_t)b->size * 0x9e3779b97f4a7c15ull;
    if (to_move == TG_WHITE)
        key ^= 0xc2b2ae3d27d4eb4full;
    tg_rng rng;
    tg_rng_seed(&rng, seed ^ key);
    tg_estimate_dead(b, to_move, tg_game_rules(g), playouts > 0 ? playouts : TG_DEAD_PLAYOUTS, &rng,
                     dead);
}
