/*
 * playout.h — the playout policy of the ownership estimate (private to the
 * score layer).
 */
#ifndef TENGEN_SCORE_PLAYOUT_H
#define TENGEN_SCORE_PLAYOUT_H

#include "tengen/board.h"

/* Play the position to its end from to_move: both sides pass in a row, or a
 * move cap proportional to the board area is reached. */
void score_playout(tg_board *b, tg_color to_move, tg_suicide_rule suicide, tg_rng *rng);

#endif
