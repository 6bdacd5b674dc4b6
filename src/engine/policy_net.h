/*
 * policy_net.h — the learned policy network (policy_net.c): a residual
 * convolutional network that reads a position and gives, for each legal
 * move, the probability that a strong player plays it, and the mover's
 * winrate (a value head on the same tower).  The tree search takes its
 * priors from it where one was trained for the board size (tree.c).
 *
 * Its weights are a weights file (engine/weights.h, kind
 * WEIGHTS_POLICY_NET) written by tools/train_policy.py from positions of
 * game records that tools/gen_policy wrote with policy_net_planes, so that
 * what is learned is what the search reads.  Tensors (C = NN_CHANNELS):
 *
 *     in_w     f32[3][3][POLICY_PLANES][C]   in_b     f32[C]
 *     block_w  f32[blocks][9][C][C]          block_b  f32[blocks][C]   (9: the 3x3 kernel)
 *     pol_w    f32[C]    pol_b  f32[1]       a point's logit: pol_w . h + pol_b
 *     pass_w   f32[C]    pass_b f32[1]       the pass's: pass_w . mean(h) + pass_b
 *     v1_w     f32[C][hidden]  v1_b f32[hidden]
 *     v2_w     f32[hidden]     v2_b f32[1]   winrate = sigmoid(v2 . relu(v1 mean(h)))
 *
 *     h = relu(conv3x3(planes) + in_b); h = relu(h + conv3x3(h) + b), blocks times.
 */
#ifndef TENGEN_ENGINE_POLICY_NET_H
#define TENGEN_ENGINE_POLICY_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tengen/board.h"

/* Input planes a point, float:
 *  0 the mover's stones          1 the opponent's        2 the board (1 everywhere)
 *  3-5 the mover's chains with 1, 2, 3+ liberties        6-8 the opponent's
 *  9 the point the mover may not retake (ko)
 * 10 the last move               11 the mover's own previous move
 * 12 a candidate of the search (legal, fills no own eye: tactics_move_ok)
 * 13 the move model's opinion of a candidate: log(its strength / the mean
 *    of the candidates'), clamped to [-6, 6], over 3, in steps of 1/30
 *    (0 elsewhere)
 * 14 the mover is White (1 everywhere) */
#define POLICY_PLANES 15
#define POLICY_MAX_BLOCKS 40
#define POLICY_MAX_HIDDEN 256

typedef struct policy_net {
    int size;                         /* the board it was trained for */
    int blocks, hidden;
    const float *in_w, *in_b;
    const float *block_w, *block_b;
    const float *pol_w, *pol_b, *pass_w, *pass_b;
    const float *v1_w, *v1_b, *v2_w, *v2_b;
} policy_net;

/* The planes of b for mover c, point-major planes[(y * size + x) *
 * POLICY_PLANES + k]; last2 is the mover's previous move (TG_PASS or
 * TG_NO_POINT: none).  The candidates and the move model's strengths are
 * computed here (the tree passes its own through policy_net_planes_from). */
void policy_net_planes(const tg_board *b, tg_color c, tg_point last2, float *planes);
/* The same from the candidates and their model strengths (gamma) the
 * caller has (count of them, no pass among them). */
void policy_net_planes_from(const tg_board *b, tg_color c, tg_point last2, const tg_point *moves,
                            const float *gamma, int count, float *planes);

/* The network's verdict on planes of an n x n board seen under symmetry t
 * (0..7: the input is transformed by t, the outputs transformed back, so
 * that each t is the same network looking from another side):
 * logits[y * n + x] for every point, *pass_logit, and *winrate of the
 * mover (any of the three may be NULL).  portable: the plain C loops (for
 * the tests). */
void policy_net_eval(const policy_net *net, const float *planes, int n, int t, float *logits, float *pass_logit,
                     float *winrate, bool portable);

/* The same for count positions at once (at most POLICY_MAX_BATCH), layer by
 * layer over the batch: planes[i] under symmetry t[i] gives logits[i]
 * and winrate[i] (winrate may be NULL), the very floats policy_net_eval
 * gives.  scratch: the caller's policy_net_batch_floats(count) floats,
 * best aligned to 64 bytes (113 KB a position; kept between calls, so that no batch pays for fresh
 * pages).  False, with nothing written, for more than POLICY_MAX_BATCH or
 * no scratch. */
#define POLICY_MAX_BATCH 64
size_t policy_net_batch_floats(int count);
bool policy_net_eval_batch(const policy_net *net, int count, const float *const *planes, int n, const int *t,
                           float *const *logits, float *winrate, float *scratch);

/* The network's verdicts kept by position, for the whole process (all the
 * searches of a server share them): the logits of the n x n points and the
 * winrate under key (tree.c's key of the position and everything else the
 * planes read; 0 is never kept).  Direct-mapped, 4,096 verdicts (6 MB,
 * allocated on the first use); get is false on a miss.  The stats count
 * every get since the process started. */
bool policy_net_cache_get(uint64_t key, int n, float *logits, float *winrate);
void policy_net_cache_put(uint64_t key, int n, const float *logits, float winrate);
void policy_net_cache_stats(uint64_t *hits, uint64_t *misses);
/* Forget every verdict (the benchmarks, which search one position again
 * and again). */
void policy_net_cache_clear(void);

/* Where (x, y) of an n x n board goes under symmetry t (0..7). */
void policy_net_transform(int t, int n, int x, int y, int *tx, int *ty);

/* A network read from a weights file's bytes (kept: the network points into
 * them through *file, freed by policy_net_free), or NULL with err. */
typedef struct policy_net_file policy_net_file;
policy_net_file *policy_net_load(const uint8_t *data, size_t len, char *err, size_t errlen);
const policy_net *policy_net_of(const policy_net_file *f);
void policy_net_free(policy_net_file *f);

/* The network in use for this board size (given by tg_search_use_policy_net,
 * else built in), or NULL. */
const policy_net *policy_net_for(int size);

#endif
