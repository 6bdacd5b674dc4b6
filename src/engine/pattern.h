/*
 * pattern.h — the 3x3 shapes around a point (MoGo's hane, cut and edge
 * shapes) that the playouts play near the last move and the tree's priors
 * favour (pattern.c).
 */
#ifndef TENGEN_ENGINE_PATTERN_H
#define TENGEN_ENGINE_PATTERN_H

#include "tengen/board.h"

/* The eight neighbours of p as a 16-bit key, two bits each (tg_color). */
static inline unsigned pattern_key(const tg_board *b, tg_point p)
{
    const int s = b->stride;
    const uint8_t *c = b->color;
    return (unsigned)c[p - s - 1] | (unsigned)c[p - s] << 2 | (unsigned)c[p - s + 1] << 4 |
           (unsigned)c[p - 1] << 6 | (unsigned)c[p + 1] << 8 | (unsigned)c[p + s - 1] << 10 |
           (unsigned)c[p + s] << 12 | (unsigned)c[p + s + 1] << 14;
}

/* The cell of the 3x3 grid (row, col: 0..2) that (row, col) lands on under
 * symmetry t (0..7: bit 0 flips the rows, bit 1 the columns, bit 2
 * transposes), about the centre cell (1, 1); cells beyond the grid (the
 * wide shapes' offsets, plus one) map the same way. */
void pattern_transform(int t, int row, int col, int *r, int *c);
/* Compile the table (once, thread-safe); before any pattern_match. */
void pattern_init(void);
/* Whether the shape around the empty point p is one of the good shapes
 * (for either colour: a good point for one side is one for the other). */
bool pattern_match(const tg_board *b, tg_point p);

#endif
