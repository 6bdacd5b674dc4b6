/*
 * policy.h — the search's playouts: the playout policy's move, a move
 * drawn from the move model, and the playout itself (policy.c).
 */
#ifndef TENGEN_ENGINE_POLICY_H
#define TENGEN_ENGINE_POLICY_H

#include "tengen/board.h"

typedef struct policy_moves {
    int count;
    int16_t point[3 * TG_MAX_POINTS]; /* the moves played, a pass TG_PASS */
    uint8_t color[3 * TG_MAX_POINTS];
} policy_moves;

/* Play a playout from b (to_move first; last2 its previous move, or
 * TG_PASS / TG_NO_POINT) until two passes or max_moves, appending its
 * moves to `moves` (may be NULL), and return the area score of the end
 * position in half points, Black minus White, before komi; owner (may be
 * NULL) gets the owner of every point of the end position, as
 * tactics_area_score gives it. */
int policy_playout(tg_board *b, tg_color to_move, tg_point last2, tg_rng *rng, int max_moves,
                   policy_moves *moves, uint8_t *owner);

/* A move for c drawn from the move model (model.c): every point the
 * playouts may play (legal, not an own eye) with probability its strength
 * over their sum; last2 is c's previous move (0 or less: none).  TG_PASS
 * when there is none.  After model_init.  It costs a feature evaluation of
 * every such point, an expansion's work: the search draws only the first
 * move of a playout this way (search.c). */
tg_point policy_model_move(const tg_board *b, tg_color c, tg_point last2, tg_rng *rng);

#endif
