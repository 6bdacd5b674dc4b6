/*
 * engine_internal.h — what the files of the search share: the 3x3 pattern
 * table, the playout policy and the tactical tests the priors also use.
 *
 *   pattern.c  3x3 shapes around a point (Mogo's hane, cut and edge shapes)
 *   policy.c   the playout: tactical answers to the last move, shapes near
 *              it, then a random move that is neither an own eye nor a
 *              self-atari of a chain; the area count at its end
 *   features.c the features of a candidate move (shape, distances, line,
 *              tactics) that the learned move model weighs
 *   model.c    the move model: the learned weights (data/model_*.tgw,
 *              written by tools/train_model, read by weights.c) and a
 *              move's strength from them
 *   value.c    the learned value function (value.h)
 *   tree.c     the search tree: node pool, expansion with priors, reuse
 *   search.c   UCT with RAVE, threads, time, the answer to genmove
 */
#ifndef TENGEN_ENGINE_INTERNAL_H
#define TENGEN_ENGINE_INTERNAL_H

#include "tengen/board.h"

/* ---- 3x3 patterns ---------------------------------------------------- */

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

/* ---- Tactics ------------------------------------------------------------ */

/* Whether c playing the empty point p is legal (simple ko, no suicide) and
 * is not one of c's own eyes. */
bool policy_move_ok(const tg_board *b, tg_point p, tg_color c);
/* A legal move for c at p that leaves the chain it forms with one liberty
 * and captures nothing, for a chain of `min_stones` stones or more. */
bool policy_bad_self_atari(const tg_board *b, tg_point p, tg_color c, int min_stones);
/* Whether c's self-atari at p sacrifices its chain (two to five stones,
 * with p) in a shape whose capture leaves the opponent a dead eye space. */
bool policy_nakade_sacrifice(const tg_board *b, tg_point p, tg_color c);
/* Liberties (at most max) of the chain c would form at p; 0 if suicide. */
int policy_liberties_after(const tg_board *b, tg_point p, tg_color c, int max);

/* ---- Move features (features.c) and the learned model (model.c) ------- */

enum {
    FEATURE_LAST,        /* distance to the last move: 0..15, FEATURE_DIST_NONE */
    FEATURE_LAST2,       /* to the mover's previous move, the same */
    FEATURE_LINE,        /* min(line, 4) * 2 + quiet: 0..9 */
    FEATURE_CAPTURE,     /* 0, one stone, more */
    FEATURE_ESCAPE,      /* 0, to one liberty, to two in a ladder, to two, to three+ */
    FEATURE_SELF_ATARI,  /* 0, lone stone, chain, nakade sacrifice */
    FEATURE_ATARI,       /* 0, in a working ladder, other */
    FEATURE_FIGHT,       /* 0, a two-liberty move of policy.c */
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

/* The shape key of p for mover c, before symmetry (see features.c). */
uint32_t features_shape_key(const tg_board *b, tg_point p, tg_color c);
/* The key under symmetry t (0..7) of the grid. */
uint32_t features_shape_transform(uint32_t key, int t);
/* The smallest key of the eight symmetric ones. */
uint32_t features_shape_canonical(uint32_t key);
/* The wide shape of p for mover c: the 24 points within Manhattan distance
 * three, two bits each as in the shape key (mover's stones 1, opponent's 2,
 * off the board 3), in the order of features_wide_offsets; 48 bits. */
#define FEATURE_WIDE_POINTS 24
extern const int8_t features_wide_offsets[FEATURE_WIDE_POINTS][2]; /* (dx, dy) */
uint64_t features_wide_key(const tg_board *b, tg_point p, tg_color c);
/* The colours of a board with a border of three points off the board (and
 * 8 bytes of slack), built once per position so that every candidate's wide
 * key is read without a test for the edge. */
typedef struct features_board {
    int stride; /* size + 6; the tg_board's points come with its stride, size + 1 */
    uint8_t color[(TG_MAX_SIZE + 6) * (TG_MAX_SIZE + 6) + 8];
} features_board;
void features_board_init(features_board *fb, const tg_board *b);
uint64_t features_board_wide_key(const features_board *fb, tg_point p, tg_color c);
/* The wide key under symmetry t (0..7), and the smallest of the eight. */
uint64_t features_wide_transform(uint64_t key, int t);
uint64_t features_wide_canonical(uint64_t key);
/* Distance bucket from p to q (q a pass or none: FEATURE_DIST_NONE). */
int features_distance_bucket(const tg_board *b, tg_point p, tg_point q);
/* All features of c playing the empty point p; last2 is c's previous move
 * (0 or negative when none), fight the two-liberty moves; fb, when not
 * NULL, is features_board_init of b (a saving when many points are asked). */
void features_compute(const tg_board *b, const features_board *fb, tg_point p, tg_color c, tg_point last2,
                      const tg_point *fight, int fights, move_features *f);

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

/* ---- Ladders (ladder.c) ---------------------------------------------- */

/* The chain at q is in atari and its side is to move: is it captured
 * however it runs (a ladder that works)? */
bool ladder_captured(const tg_board *b, tg_point q);
/* The chain at q has two liberties and the other side is to move: does an
 * atari on one of them capture it in a ladder? */
bool ladder_attack_works(const tg_board *b, tg_point q);

/* ---- The playout ------------------------------------------------------- */

typedef struct policy_moves {
    int count;
    int16_t point[3 * TG_MAX_POINTS]; /* the moves played, a pass TG_PASS */
    uint8_t color[3 * TG_MAX_POINTS];
} policy_moves;

/* Play a playout from b (to_move first; last2 its previous move, or
 * TG_PASS / TG_NO_POINT) until two passes or max_moves, appending its
 * moves to `moves` (may be NULL), and return the area score of the end
 * position in half points, Black minus White, before komi. */
int policy_playout(tg_board *b, tg_color to_move, tg_point last2, tg_rng *rng, int max_moves,
                   policy_moves *moves);

/* On 13x13 and up, is p one of the opening points (3-3, 3-4, 4-4, 3-5,
 * 4-5) of a corner whose seven-by-seven square is empty? */
bool tree_empty_corner_point(const tg_board *b, tg_point p);

/* The vital point of the 3-5 point eye space holding q, or TG_PASS;
 * *owner (may be NULL) is the colour enclosing it. */
tg_point policy_nakade_point(const tg_board *b, tg_point q, tg_color *owner);

/* The moves of the policy's two-liberty rule for c (at most 10). */
int policy_two_liberty_moves(const tg_board *b, tg_color c, tg_point out[10]);

/* The policy's move for c on b (TG_PASS when none); last2 is c's own
 * previous move (TG_PASS or TG_NO_POINT when none or unknown). */
tg_point policy_choose(const tg_board *b, tg_color c, tg_point last2, tg_rng *rng);

/* A move for c drawn from the move model (model.c): every point the
 * playouts may play (legal, not an own eye) with probability its strength
 * over their sum; last2 is c's previous move (0 or less: none).  TG_PASS
 * when there is none.  After model_init.  It costs a feature evaluation of
 * every such point, an expansion's work: the search draws only the first
 * move of a playout this way (search.c). */
tg_point policy_model_move(const tg_board *b, tg_color c, tg_point last2, tg_rng *rng);

/* Area count of a finished playout: stones plus empty points all of whose
 * neighbours are one colour; Black minus White in half points.  owner[p]
 * (may be NULL) receives the colour that owns each point. */
int policy_area_score(const tg_board *b, uint8_t *owner);

/* ---- The search tree (tree.c) ----------------------------------------- */

#include <stdatomic.h>

/*
 * A node is the move that led to it.  Its statistics are from the point of
 * view of the player who made that move; wins count in half-wins (a win 2,
 * a draw 1).  Statistics are updated with relaxed loads and stores rather
 * than read-modify-write instructions: the rare update lost to a race
 * between two threads costs nothing measurable, a locked add per child per
 * playout costs a lot (RAVE touches every child along the path).  Only
 * expansion (one thread per node, by compare-and-swap) and allocation are
 * exact.
 */
typedef struct tree_node {
    _Atomic uint32_t visits;       /* including virtual losses in flight */
    _Atomic uint32_t wins2;
    _Atomic uint32_t amaf_visits;
    _Atomic uint32_t amaf_wins2;
    _Atomic int64_t score_sum2;    /* sum of final margins, half points, mover's view */
    /* sum, over the results in wins2, of the value function's winrate of
     * the iteration's leaf for the mover, in 1/VALUE_UNIT (below) */
    _Atomic uint32_t value_sum;
    _Atomic uint32_t first_child;  /* pool index; 0 while not expanded */
    _Atomic uint8_t expanding;     /* set by the one thread expanding it */
    uint8_t color;                 /* who played move */
    int16_t move;                  /* the point, or TG_PASS */
    uint16_t child_count;
    uint16_t prior_visits;
    uint16_t prior_wins2;
    uint16_t policy;               /* the move model's probability among its siblings, in 1/65535 */
    /* the value function's winrate of this position for the side to move
     * at it, in 1/65534, plus one; 0 while not evaluated */
    _Atomic uint16_t leaf_value;
    /* the value function's minimax verdict on this position for the mover
     * (tree_minimax_update), in 1/65534, plus one; 0 while none */
    _Atomic uint16_t minimax;
} tree_node;

/* value_sum's unit, 1/64 of a win (the rounding, under 1/128 a sample, is
 * nothing beside a playout's noise): 2^32 / 64 = 67 million visits fit in
 * it, and a search with the value function stops at VALUE_MAX_VISITS at
 * the root (an hour of one 9x9 position on one thread). */
#define VALUE_UNIT 64
#define VALUE_MAX_VISITS 60000000u
/* Any search stops when its root has this many visits: a node's wins2 (two
 * a won playout) is a uint32 and the search's playout count an int; about
 * 14 hours of one 9x9 position on two threads. */
#define SEARCH_MAX_VISITS 2000000000u

/* The node's wins (for the mover): the playouts' results and, at weight
 * lambda, the value function's verdicts on the leaves below it. */
static inline double node_wins(const tree_node *n, double lambda)
{
    double w = atomic_load_explicit((_Atomic uint32_t *)&n->wins2, memory_order_relaxed) * 0.5;
    if (lambda <= 0)
        return w;
    double v = atomic_load_explicit((_Atomic uint32_t *)&n->value_sum, memory_order_relaxed) * (1.0 / VALUE_UNIT);
    return (1 - lambda) * w + lambda * v;
}

typedef struct tree_pool {
    tree_node *nodes;
    uint32_t capacity;
    _Atomic uint32_t used;         /* index 0 is never used: it means "none" */
} tree_pool;

static inline void stat_add(_Atomic uint32_t *v, uint32_t d)
{
    atomic_store_explicit(v, atomic_load_explicit(v, memory_order_relaxed) + d, memory_order_relaxed);
}
static inline uint32_t stat_get(_Atomic uint32_t *v)
{
    return atomic_load_explicit(v, memory_order_relaxed);
}

bool tree_pool_init(tree_pool *pool, size_t bytes);
void tree_pool_free(tree_pool *pool);
/* A fresh root (index) for `color`'s opponent's last move, or 0 when full. */
uint32_t tree_new_root(tree_pool *pool);

/* Which moves the children of a node may be. */
typedef struct tree_expand_context {
    const tg_board *board;      /* position at the node */
    tg_color to_move;
    /* at the root only: the game decides legality (superko, suicide rule) */
    bool (*root_legal)(void *ctx, tg_point p);
    void *root_ctx;
    tg_point last2;             /* to_move's previous move (<= 0: none) */
    /* the visits the move model's prior counts (0: MODEL_PRIOR_VISITS);
     * the search with a value function gives fewer (search.c) */
    int model_prior_visits;
} tree_expand_context;

/* Give node `n` its children with their priors.  Returns false (and leaves
 * the node a leaf) when another thread is expanding it or the pool is full. */
bool tree_expand(tree_pool *pool, uint32_t n, const tree_expand_context *ctx);

/* A verdict (0..1) as a node keeps it (leaf_value, minimax): in 1/65534,
 * plus one, so that 0 means none; and back. */
static inline uint16_t verdict_pack(double v) { return (uint16_t)(v * 65534 + 1.5); }
static inline double verdict_unpack(unsigned packed) { return (packed - 1) * (1.0 / 65534); }

/* The value function's verdict on node n for its mover (0..1), or -1 when
 * it has none: the minimax of the verdicts below it, else the network's on
 * its own position (from leaf_value, which is for the side to move). */
static inline double tree_node_minimax(tree_node *n)
{
    unsigned m = atomic_load_explicit(&n->minimax, memory_order_relaxed);
    if (m)
        return verdict_unpack(m);
    unsigned v = atomic_load_explicit(&n->leaf_value, memory_order_relaxed);
    return v ? 1 - verdict_unpack(v) : -1;
}

/* Set node n's minimax verdict from its children's: its mover's opponent
 * answers with the child the network likes best for him, so n is worth
 * one minus that child's verdict (the implicit minimax backup of Lanctot,
 * Winands, Pepels and Sturtevant, 2014).  Children the network has not
 * judged are left out; a node none of whose children it has judged keeps
 * its own verdict.  Returns whether the verdict changed: when it did not,
 * the nodes above need no update for it. */
bool tree_minimax_update(const tree_pool *pool, uint32_t n);

/* Copy the subtree under `root` of `from` into the empty pool `to`; nodes
 * beyond to's capacity are dropped (their parents become leaves).  Returns
 * the new root's index. */
uint32_t tree_copy(const tree_pool *from, uint32_t root, tree_pool *to);

static inline tree_node *tree_at(const tree_pool *pool, uint32_t i) { return &pool->nodes[i]; }

#endif
