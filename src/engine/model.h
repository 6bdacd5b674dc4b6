/*
 * model.h — the learned move model: a move's strength from its features
 * (model.c; the tables themselves are in model_data.h).
 */
#ifndef TENGEN_ENGINE_MODEL_H
#define TENGEN_ENGINE_MODEL_H

#include "engine/features.h"

/* Build the model's shape index (once, thread-safe); before model_gamma. */
void model_init(void);
/* The strength of a move with features f (shape keys canonical or not),
 * by the main table alone. */
float model_gamma(const move_features *f);
/* The boards up to this size use the small boards' corrections too. */
#define MODEL_SMALL_MAX_SIZE 11
/* The strength of a move with features f on a board of that size. */
float model_gamma_for(const move_features *f, int board_size);
/* The weight of a wide shape (its key canonical or not). */
float model_wide_gamma(uint64_t key);
/* The moves the search considers for c on b (tactics_move_ok: legal, no
 * own eye), in the board's order of empty points, and the model's
 * strength of each (last2: c's previous move, <= 0 none); their count.
 * After model_init (the search calls it once when it is made, not on
 * every playout's first move). */
int model_candidates(const tg_board *b, tg_color c, tg_point last2, tg_point *moves, float *gamma);

#endif
