/*
 * regions.h — private helpers of the score layer: connected components of
 * points on the padded board, the building block of area counting, the
 * group tax and Benson's algorithm.
 */
#ifndef TENGEN_SCORE_REGIONS_H
#define TENGEN_SCORE_REGIONS_H

#include "tengen/board.h"

/* The four neighbours of an on-board point; on the padded board they are
 * always valid indices (possibly off-board points). */
static inline void score_neighbours(const tg_board *b, tg_point p, tg_point out[4])
{
    out[0] = p - 1;
    out[1] = p + 1;
    out[2] = p - b->stride;
    out[3] = p + b->stride;
}

/* Label the 4-connected components of the points p (0 <= p < b->npoints)
 * with member[p] != 0: label[p] = component number 0..n-1, or -1 where
 * member[p] == 0.  Returns n.  label has room for TG_MAX_POINTS. */
int score_label_components(const tg_board *b, const uint8_t *member, int16_t *label);

#endif
