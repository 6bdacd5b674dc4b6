/*
 * eyespace.c — groups that their one eye space cannot save, read from its
 * shape: the seki that is no seki and the nakade of the finished position.
 *
 * Random playouts do not read inside an eye space that holds opponent
 * stones: they neither fill a shared liberty nor sacrifice stones to reduce
 * the space, so a group whose only eye space holds a few opponent stones
 * short of liberties looks alive to them (a seki, or a big eye once the
 * stones are taken), where players know it dead (GNU Go's nicklas19 and
 * 9x9-2, issue 41).  Here a group G of colour c is dead when
 *   - exactly one region of points that are empty or hold the opponent's
 *     stones is bounded by G alone (its eye space R; any other such region
 *     would be another eye or territory), R is small (MAX_EYE_SPACE) and
 *     holds opponent stones with two liberties at most between them;
 *   - what is left of R for eyes once G has filled those liberties to take
 *     the stones (as it must: they are its own liberties too) is a shape that
 *     gives one eye at most when the opponent moves first in it
 *     (score_one_eye_shape: the points of R less those liberties); and
 *   - G cannot get out: its liberties outside R are in empty areas that
 *     touch no other stone of c, and the opponent stones next to it outside
 *     R are sure to live (a weak group beside it might lose a capturing race
 *     to G's one eye, or share a seki with it).
 * The opponent stones inside R then live: they stand in the opponent's
 * territory once G is taken off.
 */
#include <string.h>

#include "score/eyespace.h"
#include "score/regions.h"

/* The largest region counted as an eye space rather than territory. */
#define MAX_EYE_SPACE 8

#define NO_GROUP 0xffff
#define SEVERAL_GROUPS 0xfffe

bool score_one_eye_shape(const tg_board *b, const tg_point *in, int n)
{
    uint8_t member[TG_MAX_POINTS];
    int16_t label[TG_MAX_POINTS];
    if (n <= 1)
        return true;
    if (n > 6)
        return false;
    memset(member, 0, sizeof member);
    for (int i = 0; i < n; i++)
        member[in[i]] = 1;
    if (score_label_components(b, member, label) != 1)
        return false;   /* two spaces: two eyes, as far as the shape goes */
    if (n <= 3)
        return true;
    int max_degree = 0;
    bool square = false;
    for (int i = 0; i < n; i++) {
        tg_point p = in[i], nb[4];
        int degree = 0;
        score_neighbours(b, p, nb);
        for (int k = 0; k < 4; k++)
            degree += member[nb[k]];
        max_degree = degree > max_degree ? degree : max_degree;
        square |= member[p + 1] && member[p + b->stride] && member[p + 1 + b->stride];
    }
    if (n == 4)
        return square || max_degree == 3;   /* the square, the pyramid */
    if (n == 5)
        return square || max_degree == 4;   /* the bulky five, the crossed five */
    return square && max_degree == 4;       /* the rabbity six */
}

typedef struct regions {
    int16_t label[TG_MAX_POINTS];   /* region of each point that is empty or the opponent's */
    int size[TG_MAX_POINTS];
    uint16_t border[TG_MAX_POINTS];  /* the one group of c bounding it, or NO/SEVERAL */
    bool holds_stones[TG_MAX_POINTS];
} regions;

static void find_regions(const tg_board *b, tg_color c, const uint16_t *group, regions *rg)
{
    uint8_t member[TG_MAX_POINTS];
    for (tg_point p = 0; p < b->npoints; p++)
        member[p] = b->color[p] == TG_EMPTY || b->color[p] == tg_opponent(c);
    int n = score_label_components(b, member, rg->label);
    for (int r = 0; r < n; r++) {
        rg->size[r] = 0;
        rg->border[r] = NO_GROUP;
        rg->holds_stones[r] = false;
    }
    for (tg_point p = 0; p < b->npoints; p++) {
        int16_t r = rg->label[p];
        if (r < 0)
            continue;
        rg->size[r]++;
        rg->holds_stones[r] |= b->color[p] == tg_opponent(c);
        tg_point nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++) {
            if (b->color[nb[i]] != c)
                continue;
            uint16_t g = group[nb[i]];
            rg->border[r] = rg->border[r] == NO_GROUP || rg->border[r] == g ? g : SEVERAL_GROUPS;
        }
    }
}

/* Region r, G's eye space: does G keep one eye at most there?  The opponent
 * stones in it must have two liberties at most, all of which G fills. */
static bool one_eye_after_capture(const tg_board *b, const regions *rg, int16_t r)
{
    uint8_t is_liberty[TG_MAX_POINTS];
    tg_point space[TG_MAX_POINTS];
    int liberties = 0, n = 0;
    memset(is_liberty, 0, sizeof is_liberty);
    for (tg_point p = 0; p < b->npoints; p++) {
        if (rg->label[p] != r || b->color[p] == TG_EMPTY)
            continue;
        tg_point nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++) {
            if (b->color[nb[i]] == TG_EMPTY && !is_liberty[nb[i]]) {
                is_liberty[nb[i]] = 1;
                liberties++;
            }
        }
    }
    if (liberties > 2)
        return false;
    for (tg_point p = 0; p < b->npoints; p++)
        if (rg->label[p] == r && !is_liberty[p])
            space[n++] = p;
    return score_one_eye_shape(b, space, n);
}

/* Can G (root g) not get out of its eye space r?  Its other liberties lie in
 * empty areas touching no other stone of c, and the opponent stones next to
 * it outside r are sure to live. */
static bool shut_in(const tg_board *b, tg_color c, const uint16_t *group, uint16_t g,
                    const regions *rg, int16_t r, const uint8_t *sure)
{
    uint8_t empty[TG_MAX_POINTS];
    int16_t area[TG_MAX_POINTS];
    uint8_t area_touches_other[TG_MAX_POINTS];
    for (tg_point p = 0; p < b->npoints; p++)
        empty[p] = b->color[p] == TG_EMPTY;
    int n = score_label_components(b, empty, area);
    memset(area_touches_other, 0, (size_t)n);
    for (tg_point p = 0; p < b->npoints; p++) {
        if (area[p] < 0)
            continue;
        tg_point nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++)
            if (b->color[nb[i]] == c && group[nb[i]] != g)
                area_touches_other[area[p]] = 1;
    }
    for (tg_point p = 0; p < b->npoints; p++) {
        if (b->color[p] != c || group[p] != g)
            continue;
        tg_point nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++) {
            tg_point q = nb[i];
            if (rg->label[q] == r)
                continue;
            if (b->color[q] == TG_EMPTY && area_touches_other[area[q]])
                return false;
            if (b->color[q] == tg_opponent(c) && !sure[q])
                return false;
        }
    }
    return true;
}

void score_dead_by_eye_space(const tg_board *b, const uint16_t *group, const uint8_t *safe,
                             const uint8_t *sure, uint8_t *dead)
{
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        regions rg;
        uint8_t eye_spaces[TG_MAX_POINTS];
        int16_t the_space[TG_MAX_POINTS];
        uint8_t unconditional[TG_MAX_POINTS], seen[TG_MAX_POINTS];
        find_regions(b, c, group, &rg);
        memset(eye_spaces, 0, sizeof eye_spaces);
        memset(seen, 0, sizeof seen);
        memset(unconditional, 0, sizeof unconditional);
        for (tg_point p = 0; p < b->npoints; p++) {
            int16_t r = rg.label[p];
            if (b->color[p] == c)
                unconditional[group[p]] |= safe[p] == c;
            if (r < 0 || seen[r] || rg.border[r] == NO_GROUP || rg.border[r] == SEVERAL_GROUPS)
                continue;
            seen[r] = 1;
            uint16_t g = rg.border[r];
            eye_spaces[g] += eye_spaces[g] < 2;
            the_space[g] = rg.size[r] <= MAX_EYE_SPACE ? r : -1;
        }
        for (tg_point g = 0; g < b->npoints; g++) {
            if (b->color[g] != c || group[g] != g || unconditional[g] || eye_spaces[g] != 1)
                continue;
            int16_t r = the_space[g];
            if (r < 0 || !rg.holds_stones[r] || !one_eye_after_capture(b, &rg, r) ||
                !shut_in(b, c, group, (uint16_t)g, &rg, r, sure))
                continue;
            for (tg_point p = 0; p < b->npoints; p++) {
                if (b->color[p] == c && group[p] == g)
                    dead[p] = 1;
                else if (rg.label[p] == r && b->color[p] == tg_opponent(c))
                    dead[p] = 0;
            }
        }
    }
}
