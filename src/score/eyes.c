/*
 * eyes.c — groups alive by two one-point eyes that the opponent can never
 * fill, held together by double connections.
 *
 * Benson's test wants every chain of a living group to touch two eyes of
 * its own.  Real groups are seldom one chain: two chains that share two
 * liberties cannot be cut (a stone on one, and the owner connects on the
 * other), and the eyes of a group often touch only some of its chains.
 * Random playouts, for their part, fill an eye whose diagonal the opponent
 * holds, so a group whose eyes look false but are not (the chain that makes
 * them look false cannot be captured) dies in them: GNU Go's
 * rbm-bobk-200303111815 lost a group of 44 stones so.
 *
 * Here, for a colour c: an *eye* is an empty point whose every neighbour is
 * c's stone or the edge; a *unit* is a set of c's chains joined by sharing
 * two liberties or more that are not eyes (to connect through an eye is to
 * fill it).  Starting from all eyes, repeat until nothing
 * changes: a unit touching fewer than two eyes is weak; an eye touching a
 * weak unit is dropped.  The units left touch two eyes or more, and every
 * eye left touches those units only: the opponent cannot play on such an
 * eye without capturing, and cannot capture, since every chain beside it
 * keeps another eye.  Their stones live.
 */
#include <stdlib.h>
#include <string.h>

#include "score/eyes.h"
#include "score/regions.h"

#define WORDS ((TG_MAX_POINTS + 63) / 64)

static int unit_of(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

/* The i-th neighbour of p (0..3). */
static tg_point neighbour(const tg_board *b, tg_point p, int i)
{
    tg_point nb[4];
    score_neighbours(b, p, nb);
    return nb[i];
}

static bool share_two(const uint64_t *a, const uint64_t *b)
{
    int n = 0;
    for (int w = 0; w < WORDS && n < 2; w++)
        n += __builtin_popcountll(a[w] & b[w]);
    return n >= 2;
}

static void live_by_eyes(const tg_board *b, tg_color c, uint8_t *safe)
{
    int index[TG_MAX_POINTS], parent[TG_MAX_POINTS], eyes_touched[TG_MAX_POINTS];
    tg_point last_eye[TG_MAX_POINTS];
    uint8_t eye[TG_MAX_POINTS];
    int chains = 0;
    for (tg_point p = 0; p < b->npoints; p++) {
        index[p] = -1;
        eye[p] = b->color[p] == TG_EMPTY && tg_nbr_count(b, p, c) + tg_nbr_count(b, p, TG_OFFBOARD) == 4;
    }
    for (tg_point p = 0; p < b->npoints; p++) {
        if (b->color[p] != c || index[b->chain_of[p]] >= 0)
            continue;
        int k = chains++;
        index[b->chain_of[p]] = k;
        parent[k] = k;
    }
    uint64_t (*libs)[WORDS] = chains ? calloc((size_t)chains, sizeof *libs) : NULL;   /* per chain */
    if (!libs)
        return;   /* no chain, or no memory: nothing found alive */
    for (tg_point p = 0; p < b->npoints; p++) {
        if (b->color[p] != TG_EMPTY || eye[p])
            continue;   /* a connection through an eye would fill it */
        tg_point nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++)
            if (b->color[nb[i]] == c)
                libs[index[b->chain_of[nb[i]]]][p / 64] |= 1ull << (p % 64);
    }
    for (int i = 0; i < chains; i++)
        for (int k = i + 1; k < chains; k++)
            if (unit_of(parent, i) != unit_of(parent, k) && share_two(libs[i], libs[k]))
                parent[unit_of(parent, i)] = unit_of(parent, k);
    free(libs);
    int unit[TG_MAX_POINTS];   /* of the stone on each point of c, else -1 */
    for (tg_point p = 0; p < b->npoints; p++)
        unit[p] = b->color[p] == c ? unit_of(parent, index[b->chain_of[p]]) : -1;
    for (bool changed = true; changed;) {
        changed = false;
        for (int u = 0; u < chains; u++)
            eyes_touched[u] = 0, last_eye[u] = -1;
        for (tg_point p = 0; p < b->npoints; p++) {
            for (int i = 0; eye[p] && i < 4; i++) {
                int u = unit[neighbour(b, p, i)];
                if (u >= 0 && last_eye[u] != p)
                    eyes_touched[u]++, last_eye[u] = p;
            }
        }
        for (tg_point p = 0; p < b->npoints; p++) {
            for (int i = 0; eye[p] && i < 4; i++) {
                int u = unit[neighbour(b, p, i)];
                if (u >= 0 && eyes_touched[u] < 2)
                    eye[p] = 0, changed = true;
            }
        }
    }
    for (tg_point p = 0; p < b->npoints; p++)
        if (unit[p] >= 0 && safe[p] == 0 && eyes_touched[unit[p]] >= 2)
            safe[p] = (uint8_t)c;
}

void score_two_eye_life(const tg_board *b, uint8_t *safe)
{
    live_by_eyes(b, TG_BLACK, safe);
    live_by_eyes(b, TG_WHITE, safe);
}
