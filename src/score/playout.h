/*
 * playout.h — the playout policy of the ownership estimate (private to the
 * score layer).
 */
#ifndef TENGEN_SCORE_PLAYOUT_H
#define TENGEN_SCORE_PLAYOUT_H

#include "tengen/board.h"

/* Would c at p (a legal move) leave the chain it forms with a single
 * liberty while capturing nothing?  stones_out (may be NULL) receives 1
 * when the chain would be the lone new stone, 2 when it joins others. */
bool score_is_self_atari(const tg_board *b, tg_point p, tg_color c, int *stones_out);

/* Play the position to its end from to_move: both sides pass in a row, or a
 * move cap proportional to the board area is reached. */
void score_playout(tg_board *b, tg_color to_move, tg_suicide_rule suicide, tg_rng *rng);

#endif
