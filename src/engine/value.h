/*
 * value.h — the learned value function (value.c): a small convolutional
 * network that reads a position and says what a search of 1,000 to 4,000
 * playouts from it would give the side to move.  Its weights are a weights
 * file (engine/weights.h, kind WEIGHTS_VALUE_NET: data/value9.tgw, built
 * in) written by tools/train_value.py from positions that tools/gen_value
 * labelled.  Tensors: in_w f32[3][3][VALUE_PLANES][C], in_b f32[C],
 * block_w f32[blocks][9][C][C], block_b f32[blocks][C], own_w f32[C],
 * own_b f32[1], v1_w f32[C + 1][hidden], v1_b f32[hidden], v2_w
 * f32[hidden], v2_b f32[1], margin_w f32[1]; C must be VALUE_CHANNELS.
 */
#ifndef TENGEN_ENGINE_VALUE_H
#define TENGEN_ENGINE_VALUE_H

#include "tengen/board.h"

/* Input planes a point: the mover's stones, the opponent's, the board
 * itself (1 on every point), the mover's chains with 1, 2 and 3+ liberties,
 * the opponent's with 1, 2 and 3+, the point the mover may not retake (ko),
 * and whether the mover is White (1 on every point: the side komi is for). */
#define VALUE_PLANES 11
/* The network's width (its channels), fixed so that the loops over them
 * are compiled for it; a weights file of another width is refused. */
#define VALUE_CHANNELS 32

typedef struct value_net {
    int size;                 /* the board it was trained for */
    int komi2;                /* and the komi, half points */
    int blocks, hidden;
    const float *in_w, *in_b;         /* [3][3][PLANES][C], [C] */
    const float *block_w, *block_b;   /* blocks x [3][3][C][C], blocks x [C] */
    const float *own_w, *own_b;       /* [C], [1]: the ownership head */
    const float *v1_w, *v1_b;         /* [C + 1][hidden], [hidden] */
    const float *v2_w, *v2_b;         /* [hidden], [1] */
    float margin_w;                   /* the weight of the counted margin */
} value_net;

/* The network for this board size and komi, or NULL when none was trained
 * for them. */
const value_net *value_net_for(int size, int komi2);

/* The input planes of b for the mover c, point-major:
 * planes[(y * size + x) * VALUE_PLANES + k], 0 or 1. */
void value_planes(const tg_board *b, tg_color c, uint8_t *planes);

/* Exact liberties of every chain (capped at 3) by point, libs[p] for each
 * stone p (the board's own count, once a chain); the planes of the value
 * function and of the policy network read it. */
void value_liberties(const tg_board *b, uint8_t *libs);

/* The winrate of the mover c on b by the network (0..1). */
float value_eval(const value_net *net, const tg_board *b, tg_color c);
/* The same without the processor's vector extensions (the plain C loop):
 * for tests, which check that both give the same verdict. */
float value_eval_portable(const value_net *net, const tg_board *b, tg_color c);

#endif
