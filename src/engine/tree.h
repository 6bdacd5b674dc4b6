/*
 * tree.h — the search tree (tree.c): nodes and their statistics, the
 * node pool, expansion with the priors, minimax verdicts and reuse.
 */
#ifndef TENGEN_ENGINE_TREE_H
#define TENGEN_ENGINE_TREE_H

#include <stdatomic.h>

#include "engine/policy_net.h"
#include "tengen/board.h"

/* On 13x13 and up, is p one of the opening points (3-3, 3-4, 4-4, 3-5,
 * 4-5) of a corner whose seven-by-seven square is empty? */
bool tree_empty_corner_point(const tg_board *b, tg_point p);

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
    _Atomic uint8_t expanding;     /* TREE_LEAF, TREE_EXPANDED (by the one thread that set it)
                                      or TREE_NETTED (tree_apply_network) */
    uint8_t color;                 /* who played move */
    int16_t move;                  /* the point, or TG_PASS */
    uint16_t child_count;
    _Atomic uint16_t prior_visits; /* changes once too, where the network's value head
                                      counts (tree_expand_context.net_value_visits) */
    /* the priors' wins and the probability among its siblings (in
     * 1/65535) change once after the node is published, when the policy
     * network replaces the move model's verdict (tree_apply_network) */
    _Atomic uint16_t prior_wins2;
    _Atomic uint16_t policy;       /* the move model's or the network's probability */
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

static inline unsigned node_prior_visits(const tree_node *n)
{
    return atomic_load_explicit((_Atomic uint16_t *)&n->prior_visits, memory_order_relaxed);
}

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
    /* legality beyond the board's (NULL: none): at the root the game's
     * (superko, the suicide rule), below it the search's superko check */
    bool (*legal)(void *ctx, tg_point p);
    void *legal_ctx;
    tg_point last2;             /* to_move's previous move (<= 0: none) */
    /* the visits the move model's prior counts (0: MODEL_PRIOR_VISITS);
     * the search with a value function gives fewer (search.c) */
    int model_prior_visits;
    /* where no move but the pass is left because `legal` refused the
     * others (a repetition), give c's own eyes as moves too: filling one
     * makes the board new, and the refused capture legal again (set below
     * the root where superko is in force; the root never fills an eye) */
    bool eye_fills;
    /* the policy network for this board (NULL: none), for
     * tree_apply_network; tree_expand gives the move model's priors */
    const struct policy_net *policy;
    /* where > 0, the network's winrate of the node's position counts as
     * this many more prior visits of the node (not the root) for its
     * mover, when the node is given the network's priors */
    int net_value_visits;
} tree_expand_context;

/* A node's expansion state (tree_node.expanding). */
enum { TREE_LEAF = 0, TREE_EXPANDED = 1, TREE_NETTED = 2 };

/* Give node `n` its children with their priors.  Returns false (and leaves
 * the node a leaf) when another thread is expanding it or the pool is full. */
bool tree_expand(tree_pool *pool, uint32_t n, const tree_expand_context *ctx);

/* The policy network's priors for the children of an expanded node, in
 * place of the move model's: the model's share of the priors
 * (MODEL_PRIOR_VISITS at r^a / (r^a + 1)) and the PUCT term's probability
 * read the network's strength r, the rest stay.  Once per node.  In three
 * steps, so that the search may gather the evaluations of several
 * threads into one batch (search.c):
 *
 * tree_net_prepare claims node n (for ctx->board, ctx->policy) and fills
 * req: TREE_NET_NONE when there is nothing to do (it has had them, another
 * thread is giving them, no network, or no choice but between a move and
 * the pass); TREE_NET_DONE when the network's verdict on this position was
 * in the cache by position (policy_net_cache_get) and the node has it now;
 * TREE_NET_PENDING when req->planes wait for the network.
 * tree_net_finish gives a pending request's node the network's logits
 * (and keeps them in the cache); tree_net_abandon gives the node back
 * unevaluated (a search that stops with requests waiting), so that a
 * later search may claim it again.  req->node indexes the pool it was
 * prepared in, which must not be copied or reset in between. */
enum { TREE_NET_NONE, TREE_NET_DONE, TREE_NET_PENDING };
typedef struct tree_net_request {
    uint32_t node;
    int count;                        /* candidates (the pass, the last child, is not one) */
    int size, stride;                 /* the board's (tg_board) */
    int symmetry;                     /* the network sees the board under this one */
    int model_visits;
    int value_visits;                 /* tree_expand_context.net_value_visits */
    uint64_t key;                     /* for the cache by position */
    int16_t moves[TG_MAX_POINTS];
    uint16_t model_wins2[TG_MAX_POINTS]; /* the move model's share of each child's prior wins */
    float planes[TG_MAX_SIZE * TG_MAX_SIZE * POLICY_PLANES];
} tree_net_request;

int tree_net_prepare(tree_pool *pool, uint32_t n, const tree_expand_context *ctx, tree_net_request *req);
void tree_net_finish(tree_pool *pool, const tree_net_request *req, const float *logits, float winrate);
void tree_net_abandon(tree_pool *pool, const tree_net_request *req);
/* A pending request evaluated by net on this thread and finished. */
void tree_net_evaluate(tree_pool *pool, const tree_net_request *req, const struct policy_net *net);

/* The three steps at once, the evaluation on this thread: true when node n
 * got the network's priors. */
bool tree_apply_network(tree_pool *pool, uint32_t n, const tree_expand_context *ctx);

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
