/*
 * eyespace.h — groups that an enclosed eye space cannot save (private to the
 * score layer; see eyespace.c).
 */
#ifndef TENGEN_SCORE_EYESPACE_H
#define TENGEN_SCORE_EYESPACE_H

#include "tengen/board.h"

/* Groups killed by the shape of their only eye space, and the opponent's
 * stones inside it revived.  group[p] is the root of the group of the stone
 * on p (stones sharing a liberty, as dead.c groups them); safe is Benson's
 * map (a group with an unconditionally alive chain is left alone); sure[p]
 * != 0 where the stone on p is sure to live (Benson, or the estimate leans
 * its way by dead.c's SURE_LIFE); dead is the estimate so far, updated in
 * place. */
void score_dead_by_eye_space(const tg_board *b, const uint16_t *group, const uint8_t *safe,
                             const uint8_t *sure, uint8_t *dead);

/* Is the set of points in[] (n of them, connected or not) an eye space
 * that gives one eye at most when the opponent moves first in it: one to
 * three points, the square and the pyramid of four, the bulky and the
 * crossed five, the rabbity six (all connected). */
bool score_one_eye_shape(const tg_board *b, const tg_point *in, int n);

#endif
