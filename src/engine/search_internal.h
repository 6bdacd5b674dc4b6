/*
 * search_internal.h — what the three files of the tree search share:
 * search.c (the search itself: the tree kept between moves, the
 * iterations, when to stop), search_report.c (what it tells: candidates,
 * principal variations, ownership) and genmove.c (the decisions of
 * genmove on top of a search: pass, resign, cleanup).
 */
#ifndef TENGEN_SEARCH_INTERNAL_H
#define TENGEN_SEARCH_INTERNAL_H

#include <pthread.h>
#include <time.h>

#include "engine/legal.h"
#include "engine/model.h"
#include "engine/pattern.h"
#include "engine/policy.h"
#include "engine/tree.h"
#include "engine/policy_net.h"
#include "engine/value.h"
#include "tactics/tactics.h"
#include "tengen/search.h"

struct tg_search {
    tg_search_options opt;
    tree_pool pools[2];
    int active;                  /* pools[active] holds the tree */
    uint32_t root;               /* 0: no tree */
    /* the position the root stands for, to find it again after more moves */
    int root_size, root_setups, root_komi2;
    tg_color root_to_move;
    tg_move *root_moves;
    int root_move_count, root_moves_cap;

    /* the current search */
    const tg_game *game;
    tg_board root_board;
    tg_color to_move;
    int komi2;                   /* komi plus handicap compensation, half points */
    int base_passes;             /* consecutive passes before the root */
    tg_point root_last2;         /* the move before the root's last one */
    tg_search_limits limits;
    const value_net *value;      /* NULL: none for this board and komi */
    const struct policy_net *policy; /* NULL: none for this board, or left out */
    uint32_t policy_visits;          /* a node's visits before it gets the network's priors */
    /* the network's evaluations gathered across the threads (search.c's
     * ask_network): batch_size requests a batch (1: none, each evaluated
     * where it is asked), batch_count of them waiting in batch[] */
    int batch_size, batch_count;
    pthread_mutex_t batch_lock;
    tree_net_request *batch;
    float *batch_logits;               /* batch_size x TG_MAX_SIZE^2 */
    float *batch_scratch;              /* policy_net_batch_floats(batch_size) */
    /* in this search: the nodes given the network's priors (evaluated or
     * from the cache by position), and the batches evaluated */
    _Atomic int net_given, net_batches;
    double lambda;               /* the value's weight, 0 without one */
    _Atomic int playouts;
    _Atomic bool stop;
    struct timespec start;

    /* superko below the root (ko=positional or situational): the keys of
     * the game's situations (search_situation_key), an open-addressing
     * set of history_mask + 1 slots, 0 for an empty one */
    bool superko, situational;
    uint64_t *history;
    size_t history_mask;
    uint8_t history_stones[TG_MAX_POINTS + 1]; /* 1: some situation had this many stones */

    tg_search_report report;
    /* resignation: by colour, how many of its searches in a row ended
     * below the threshold, and the game's move count at the last one */
    int low_streak[3], low_at[3];
    float ownership[TG_MAX_POINTS];
    tg_rng rng;
    /* special.c: the tree that judges the moves no tree node holds (made
     * on first need), and tg_search_stop's word for the whole decision */
    struct tg_search *_Atomic probe;
    _Atomic bool halted;
};

static inline tree_pool *search_active_pool(tg_search *s) { return &s->pools[s->active]; }

/* The child of node n for move (point or TG_PASS) by color, or 0. */
uint32_t search_child_for(const tree_pool *pool, uint32_t n, tg_point move, tg_color color);

/* Seconds since t0, by the monotonic clock. */
double search_seconds_since(const struct timespec *t0);

/* Fill s->report from the tree as it stands. */
void search_make_report(tg_search *s);

/* special.c: color's moves in g that no tree node holds (a suicide of more
 * than one stone, the capture choice where `allowed` has
 * TG_PLAY_CAPTURE_OWN), fewest own stones lost first, at most max: each a
 * point and its play flags.  A single stone's is left out (a pass that
 * does not offer to end). */
int search_special_moves(const tg_game *g, tg_color color, unsigned allowed, tg_point *points, unsigned *flags,
                         int max);

#endif
