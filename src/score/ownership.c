/*
 * ownership.c — who owns each point at the end, estimated by Monte-Carlo
 * playouts, and the dead stones that estimate implies.
 *
 * Each playout plays a copy of the position to the end (see playout.h); at
 * the end every point belongs to the colour of its stone, or of all the
 * stones around it (an eye), or to nobody.  The mean over playouts, +1 for
 * Black and -1 for White, is the ownership.
 *
 * A chain is dead when its stones are, on average, owned by the opponent by
 * more than DEAD_THRESHOLD — unless Benson's algorithm proves it alive.
 * Opponent stones inside a colour's unconditional territory are dead
 * whatever the playouts say.
 */
#include <string.h>

#include "tengen/score.h"
#include "score/playout.h"

/* How far toward the opponent the mean ownership of a chain must lean for
 * the chain to be called dead.  Seki and contested groups stay near 0. */
#define DEAD_THRESHOLD 0.0f

/* +1 Black, -1 White, 0 nobody: the owner of p in a finished playout. */
static int final_owner(const tg_board *b, tg_point p)
{
    tg_color c = tg_board_at(b, p);
    if (c == TG_BLACK)
        return 1;
    if (c == TG_WHITE)
        return -1;
    bool black = tg_nbr_count(b, p, TG_BLACK) > 0, white = tg_nbr_count(b, p, TG_WHITE) > 0;
    return black == white ? 0 : black ? 1 : -1;
}

void tg_ownership(const tg_board *b, tg_color to_move, const tg_rules *r, int playouts,
                  tg_rng *rng, float *ownership)
{
    int sum[TG_MAX_POINTS];
    tg_board copy;
    tg_suicide_rule suicide = r->suicide ? TG_SUICIDE_MULTI_STONE : TG_SUICIDE_FORBIDDEN;
    memset(sum, 0, sizeof sum);
    for (int i = 0; i < playouts; i++) {
        tg_board_copy(&copy, b);
        score_playout(&copy, to_move, suicide, rng);
        for (tg_point p = 0; p < b->npoints; p++)
            if (tg_board_at(b, p) != TG_OFFBOARD)
                sum[p] += final_owner(&copy, p);
    }
    for (int p = 0; p < TG_MAX_POINTS; p++)
        ownership[p] = playouts > 0 ? (float)sum[p] / (float)playouts : 0.0f;
}

/* Mean ownership, seen from the chain's own colour, of the chain at head
 * together with its liberties: a living chain owns the points around it as
 * surely as its stones, a dead one is at best contested there. */
static float chain_ownership(const tg_board *b, tg_point head, const float *ownership)
{
    tg_point points[2 * TG_MAX_SIZE * TG_MAX_SIZE];
    int n = tg_chain_stones(b, head, points);
    n += tg_chain_liberties(b, head, points + n, TG_MAX_SIZE * TG_MAX_SIZE);
    float sum = 0.0f;
    for (int i = 0; i < n; i++)
        sum += ownership[points[i]];
    return (tg_board_at(b, head) == TG_BLACK ? sum : -sum) / (float)n;
}

static void mark_chain(const tg_board *b, tg_point head, uint8_t *dead)
{
    tg_point stones[TG_MAX_SIZE * TG_MAX_SIZE];
    int n = tg_chain_stones(b, head, stones);
    for (int i = 0; i < n; i++)
        dead[stones[i]] = 1;
}

void tg_estimate_dead(const tg_board *b, tg_color to_move, const tg_rules *r, int playouts,
                      tg_rng *rng, uint8_t *dead)
{
    uint8_t safe[TG_MAX_POINTS];
    float ownership[TG_MAX_POINTS];
    memset(dead, 0, TG_MAX_POINTS);
    if (!r->dead_removed)
        return;
    tg_benson(b, safe);
    tg_ownership(b, to_move, r, playouts, rng, ownership);
    for (tg_point p = 0; p < b->npoints; p++) {
        tg_color c = tg_board_at(b, p);
        if ((c != TG_BLACK && c != TG_WHITE) || b->chain_of[p] != p || safe[p] == c)
            continue;
        if (safe[p] == tg_opponent(c) || chain_ownership(b, p, ownership) < -DEAD_THRESHOLD)
            mark_chain(b, p, dead);
    }
}
