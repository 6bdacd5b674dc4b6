/*
 * benson.c — Benson's algorithm for unconditional life: the chains of a
 * colour that cannot be captured even if their owner always passes, and the
 * regions they make safe.
 *
 * For a colour c, a *region* is a maximal connected set of points that are
 * not c's stones (empty points and opponent stones).  A region is *vital* to
 * a chain of c when every empty point of the region is a liberty of that
 * chain.  Starting from all chains and all regions, repeat until nothing
 * changes:
 *   - remove every chain with fewer than two vital regions still present;
 *   - remove every region that borders a removed chain.
 * The chains left are unconditionally alive; a region left that is vital to
 * one of them is c's safe territory (whatever opponent stones it holds can
 * never make eyes there, since every empty point of it touches the chain).
 */
#include <assert.h>
#include <string.h>

#include "tengen/score.h"
#include "score/regions.h"

/* An adjacency between a region and a chain bordering it. */
typedef struct benson_edge {
    int16_t region;
    uint16_t chain;   /* head point of the chain */
    bool vital;
} benson_edge;

typedef struct benson_state {
    int16_t region[TG_MAX_POINTS];
    int nregions;
    /* the points of region r are members[start[r] .. start[r + 1] - 1] */
    uint16_t members[TG_MAX_POINTS];
    int start[TG_MAX_POINTS + 1];
    benson_edge edges[4 * TG_MAX_POINTS];
    int nedges;
    bool chain_alive[TG_MAX_POINTS];   /* by head point */
    bool region_alive[TG_MAX_POINTS];
} benson_state;

/* Is every empty point of region r next to a stone of the chain `head`? */
static bool region_vital_to(const tg_board *b, const benson_state *s, int r, uint16_t head)
{
    for (int m = s->start[r]; m < s->start[r + 1]; m++) {
        tg_point p = s->members[m], nb[4];
        if (b->color[p] != TG_EMPTY)
            continue;
        bool liberty = false;
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4 && !liberty; i++)
            liberty = b->color[nb[i]] != TG_EMPTY && b->color[nb[i]] != TG_OFFBOARD &&
                      b->chain_of[nb[i]] == head;
        if (!liberty)
            return false;
    }
    return true;
}

/* List the points of each region together (a counting sort by label). */
static void group_members(const tg_board *b, benson_state *s)
{
    int fill[TG_MAX_POINTS];
    memset(s->start, 0, sizeof(int) * (size_t)(s->nregions + 1));
    for (tg_point p = 0; p < b->npoints; p++)
        if (s->region[p] >= 0)
            s->start[s->region[p] + 1]++;
    for (int r = 0; r < s->nregions; r++) {
        s->start[r + 1] += s->start[r];
        fill[r] = s->start[r];
    }
    for (tg_point p = 0; p < b->npoints; p++)
        if (s->region[p] >= 0)
            s->members[fill[s->region[p]]++] = (uint16_t)p;
}

/* Find the region/chain adjacencies of colour c (each pair once). */
static void collect_edges(const tg_board *b, tg_color c, benson_state *s)
{
    int16_t seen_region[TG_MAX_POINTS];   /* by chain head: last region recorded */
    for (tg_point p = 0; p < b->npoints; p++)
        seen_region[p] = -1;
    s->nedges = 0;
    for (int r = 0; r < s->nregions; r++) {
        int first = s->nedges;
        for (int m = s->start[r]; m < s->start[r + 1]; m++) {
            tg_point nb[4];
            score_neighbours(b, s->members[m], nb);
            for (int i = 0; i < 4; i++) {
                if (b->color[nb[i]] != c)
                    continue;
                uint16_t head = b->chain_of[nb[i]];
                if (seen_region[head] == r)
                    continue;
                seen_region[head] = (int16_t)r;
                s->edges[s->nedges++] = (benson_edge){(int16_t)r, head, false};
            }
        }
        for (int e = first; e < s->nedges; e++)
            s->edges[e].vital = region_vital_to(b, s, r, s->edges[e].chain);
    }
}

/* One round of removals; returns true when something was removed. */
static bool benson_round(const tg_board *b, tg_color c, benson_state *s)
{
    int vital_count[TG_MAX_POINTS];
    bool changed = false;
    memset(vital_count, 0, sizeof(int) * (size_t)b->npoints);
    for (int e = 0; e < s->nedges; e++)
        if (s->edges[e].vital && s->region_alive[s->edges[e].region])
            vital_count[s->edges[e].chain]++;
    for (tg_point p = 0; p < b->npoints; p++) {
        if (b->color[p] == c && b->chain_of[p] == p && s->chain_alive[p] && vital_count[p] < 2) {
            s->chain_alive[p] = false;
            changed = true;
        }
    }
    for (int e = 0; e < s->nedges; e++) {
        if (s->region_alive[s->edges[e].region] && !s->chain_alive[s->edges[e].chain]) {
            s->region_alive[s->edges[e].region] = false;
            changed = true;
        }
    }
    return changed;
}

static void benson_color(const tg_board *b, tg_color c, benson_state *s, uint8_t *safe)
{
    uint8_t member[TG_MAX_POINTS];
    for (tg_point p = 0; p < b->npoints; p++) {
        member[p] = b->color[p] == TG_EMPTY || b->color[p] == tg_opponent(c);
        s->chain_alive[p] = b->color[p] == c;
    }
    s->nregions = score_label_components(b, member, s->region);
    for (int r = 0; r < s->nregions; r++)
        s->region_alive[r] = true;
    group_members(b, s);
    collect_edges(b, c, s);
    while (benson_round(b, c, s))
        ;
    bool safe_region[TG_MAX_POINTS];
    memset(safe_region, 0, sizeof(bool) * (size_t)s->nregions);
    for (int e = 0; e < s->nedges; e++)
        if (s->edges[e].vital && s->region_alive[s->edges[e].region] &&
            s->chain_alive[s->edges[e].chain])
            safe_region[s->edges[e].region] = true;
    for (tg_point p = 0; p < b->npoints; p++) {
        if (b->color[p] == c && s->chain_alive[b->chain_of[p]])
            safe[p] = (uint8_t)c;
        else if (s->region[p] >= 0 && safe_region[s->region[p]])
            safe[p] = (uint8_t)c;
    }
}

void tg_benson(const tg_board *b, uint8_t *safe)
{
    static_assert(TG_MAX_POINTS < 32768, "region labels are int16_t");
    benson_state s;
    memset(safe, TG_EMPTY, TG_MAX_POINTS);
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        benson_color(b, c, &s, safe);
}
