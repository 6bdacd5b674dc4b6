/*
 * features.h — what the learned move model knows of a candidate move:
 * its shape, wide shape, distances, line and tactics (features.c), read
 * by the model (model.h), the tree's priors and tools/train_model.
 */
#ifndef TENGEN_ENGINE_FEATURES_H
#define TENGEN_ENGINE_FEATURES_H

#include "tengen/board.h"

enum {
    FEATURE_LAST,        /* distance to the last move: 0..15, FEATURE_DIST_NONE */
    FEATURE_LAST2,       /* to the mover's previous move, the same */
    FEATURE_LINE,        /* min(line, 4) * 2 + quiet: 0..9 */
    FEATURE_CAPTURE,     /* 0, one stone, more */
    FEATURE_ESCAPE,      /* 0, to one liberty, to two in a ladder, to two, to three+ */
    FEATURE_SELF_ATARI,  /* 0, lone stone, chain, nakade sacrifice */
    FEATURE_ATARI,       /* 0, in a working ladder, other */
    FEATURE_FIGHT,       /* 0, one of tactics_two_liberty_moves */
    FEATURE_GROUPS
};
#define FEATURE_DIST_NONE 16
/* values of each group (index by FEATURE_*) */
#define FEATURE_VALUES_INIT {17, 17, 10, 3, 5, 4, 3, 2}

typedef struct move_features {
    uint32_t shape_key;              /* shape key, as seen (not canonical) */
    uint64_t wide_key;               /* wide shape key, as seen (not canonical) */
    uint8_t value[FEATURE_GROUPS];
} move_features;

/* A shape key (move_features' shape_key: p's 3x3 neighbourhood for the
 * mover, features.c) under symmetry t (0..7) of the grid. */
uint32_t features_shape_transform(uint32_t key, int t);
/* The smallest key of the eight symmetric ones. */
uint32_t features_shape_canonical(uint32_t key);
/* The wide shape of p for mover c (move_features' wide_key): the 24 points
 * within Manhattan distance three, two bits each as in the shape key
 * (mover's stones 1, opponent's 2, off the board 3), in the order of
 * features_wide_offsets; 48 bits. */
#define FEATURE_WIDE_POINTS 24
extern const int8_t features_wide_offsets[FEATURE_WIDE_POINTS][2]; /* (dx, dy) */
/* The colours of a board with a border of three points off the board (and
 * 8 bytes of slack), built once per position so that every candidate's wide
 * key is read without a test for the edge. */
typedef struct features_board {
    int stride; /* size + 6; the tg_board's points come with its stride, size + 1 */
    uint8_t color[(TG_MAX_SIZE + 6) * (TG_MAX_SIZE + 6) + 8];
} features_board;
void features_board_init(features_board *fb, const tg_board *b);
/* The wide key under symmetry t (0..7), and the smallest of the eight. */
uint64_t features_wide_transform(uint64_t key, int t);
uint64_t features_wide_canonical(uint64_t key);
/* All features of c playing the empty point p; last2 is c's previous move
 * (0 or negative when none), fight the two-liberty moves; fb, when not
 * NULL, is features_board_init of b (a saving when many points are asked). */
void features_compute(const tg_board *b, const features_board *fb, tg_point p, tg_color c, tg_point last2,
                      const tg_point *fight, int fights, move_features *f);

#endif
