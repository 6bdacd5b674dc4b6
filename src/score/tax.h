/*
 * tax.h — independent-life regions for tax=seki and tax=all (private to the
 * score layer; see tax.c).
 */
#ifndef TENGEN_SCORE_TAX_H
#define TENGEN_SCORE_TAX_H

#include "tengen/board.h"

/* independent[p] = 1 where p lies in an independent-life region of colour c,
 * with the dead stones (dead may be NULL) taken off and the dame filled.
 * Returns the number of such regions. */
int score_independent_regions(const tg_board *b, const uint8_t *dead, tg_color c,
                              uint8_t *independent);

#endif
