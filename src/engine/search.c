/*
 * search.c — Monte-Carlo tree search: UCT with RAVE, in the line of MoGo
 * (Gelly and Silver, "Combining online and offline knowledge in UCT", 2007)
 * and Pachi.
 *
 * One iteration walks down the tree from the root choosing at each node the
 * child of best value, where a child's value blends its own winrate with
 * its all-moves-as-first (AMAF) winrate,
 *
 *     value = (1 - beta) * wins / visits + beta * amaf_wins / amaf_visits,
 *     beta  = amaf_visits / (amaf_visits + visits + visits * amaf_visits / RAVE_EQUIV),
 *
 * both counted with the child's priors (tree.c).  A leaf visited
 * EXPAND_VISITS times is expanded; from the leaf a playout (policy.c) plays
 * the game out, its first move drawn from the move model on the small
 * boards, and the area count decides it.  Every node on the path gets
 * the result, and every child of a node on the path whose move its player
 * played first later in the iteration gets it as an AMAF result.  Where a
 * value function was trained for the board and komi (value.h), the leaf
 * is also judged by it, once per node, and each node on the path gets
 * that verdict beside the playout's result, at weight VALUE_LAMBDA in its
 * value (AlphaGo's mixing; the AMAF statistics stay the playouts'); the
 * verdicts are also backed up by minimax (tree_minimax_update), and a
 * child's value moves MINIMAX_WEIGHT of the way to its minimax verdict.
 *
 * Threads share the tree (tree parallelism).  A thread adds a visit to each
 * node on its way down before it knows the result, which counts as a loss
 * until the result arrives (virtual loss) and sends the other threads
 * elsewhere.
 *
 * What the search reports is search_report.c; what genmove makes of it
 * (pass, resign, cleanup) is genmove.c.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/search_internal.h"

#define RAVE_EQUIV 3000.0
#define EXPAND_VISITS 2
/* Up to this size the first move of every playout comes from the move
 * model (measured on 9x9 only: 19x19's cost, a feature evaluation of every
 * point per playout, is not measured against its gain there). */
#define MODEL_FIRST_MOVE_MAX_SIZE 11
/* Up to this size a child's value has AlphaGo's PUCT term added to it,
 * PUCT_C * P * sqrt(N) / (1 + n), with P the move model's probability of the
 * child among its siblings, N the parent's visits and n the child's: on
 * 9x9 at 1,000 playouts a move against GNU Go it won 581 of 716 games in
 * four samples (81.1%), the search without it 156 of 200 beside the first
 * (docs/player.md); 19x19 is not measured with it. */
#define PUCT_C 0.2
#define PUCT_MAX_SIZE 11
/* Where a policy network serves the board, a node gets its priors (in
 * place of the move model's, which it was expanded with) once it has been
 * visited this many times, the root at once.  An evaluation (0.55 ms)
 * costs about three 19x19 playouts; asked at every expanded node the
 * network took 60% of the search's time, asked at 8 visits about a fifth
 * (bench_policy_speed), and the nodes it then leaves to the move model are
 * those the search has spent a few playouts on at most.  8 was set before
 * any match was played with it (docs/policy-net.md, "Where the network is
 * asked"). */
#define POLICY_NET_VISITS 8
/* The evaluations a batch of the network gathers across the search's
 * threads (ask_network); 1: none, each evaluated where it is asked.
 * docs/policy-net.md, "Batches", has the measurement that chose it. */
#define POLICY_NET_BATCH 1
/* The weight of the value function's verdict on a leaf beside its
 * playout's result (AlphaGo's lambda), where a network was trained for the
 * board size and komi (value.h). */
#define VALUE_LAMBDA 0.5
/* The weight, in a child's value, of the value function's minimax verdict
 * on it (tree_minimax_update) beside the blend of its results: the
 * averages of a thousand playouts are slow to learn that one reply refutes
 * a move, the minimax of the network's verdicts learns it as soon as the
 * reply is judged (docs/player.md's figures). */
#define MINIMAX_WEIGHT 0.3
/* With a value function the move model's prior counts this many visits
 * instead of tree.c's MODEL_PRIOR_VISITS (20): its virtual results are
 * what the network's verdicts must outweigh, and the PUCT term already
 * steers the visits by the model's probability (docs/player.md's figures:
 * with the minimax backup above, 9x9 against GNU Go at 1,000 playouts). */
#define VALUE_MODEL_PRIOR_VISITS 10
#define MAX_DEPTH 400
#define MAX_THREADS 64

void tg_search_options_default(tg_search_options *opt)
{
    memset(opt, 0, sizeof *opt); /* every field a caller does not know of: off, none */
    opt->threads = 1;
    opt->max_memory = (size_t)256 << 20;
    opt->resign_threshold = 0.1;
    opt->seed = 1;
    opt->reuse_tree = true;
    /* on where only playouts count; on 9x9 at 0.5 s a move its cost outweighs it (docs/player.md) */
    opt->value_function = TG_VALUE_AUTO;
}

tg_search *tg_search_new(const tg_search_options *opt)
{
    if (opt->threads < 1 || opt->threads > MAX_THREADS || opt->max_memory < ((size_t)1 << 20) ||
        opt->policy_net_batch < 0 || opt->policy_net_batch > POLICY_MAX_BATCH || opt->policy_net_value < 0 ||
        opt->policy_net_value > 1000)
        return NULL;
    tg_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->opt = *opt;
    pattern_init();
    model_init();
    s->batch_size = opt->policy_net_batch > 0 ? opt->policy_net_batch : POLICY_NET_BATCH;
    pthread_mutex_init(&s->batch_lock, NULL);
    if (s->batch_size > 1) {
        s->batch = malloc((size_t)s->batch_size * sizeof *s->batch);
        s->batch_logits = malloc((size_t)s->batch_size * TG_MAX_SIZE * TG_MAX_SIZE * sizeof *s->batch_logits);
        /* aligned to the cache's lines, as policy_net_eval's on the stack
         * (the size a multiple of 64 bytes: it is of 16 floats) */
        s->batch_scratch = aligned_alloc(64, policy_net_batch_floats(s->batch_size) * sizeof *s->batch_scratch);
    }
    bool batch_ok = s->batch_size <= 1 || (s->batch && s->batch_logits && s->batch_scratch);
    if (!tree_pool_init(&s->pools[0], opt->max_memory / 2) || !tree_pool_init(&s->pools[1], opt->max_memory / 2) ||
        !batch_ok) {
        tg_search_free(s);
        return NULL;
    }
    tg_rng_seed(&s->rng, opt->seed);
    return s;
}

void tg_search_free(tg_search *s)
{
    if (!s)
        return;
    tg_search_free(atomic_load(&s->probe));
    free(s->history);
    tree_pool_free(&s->pools[0]);
    tree_pool_free(&s->pools[1]);
    free(s->root_moves);
    free(s->batch);
    free(s->batch_logits);
    free(s->batch_scratch);
    pthread_mutex_destroy(&s->batch_lock);
    free(s);
}

void tg_search_clear(tg_search *s)
{
    s->root = 0;
    s->root_move_count = 0;
}

void tg_search_stop(tg_search *s)
{
    atomic_store(&s->halted, true);
    atomic_store(&s->stop, true);
    tg_search *probe = atomic_load(&s->probe);
    if (probe)
        atomic_store(&probe->stop, true);
}



double search_seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* ---- Finding the root ---------------------------------------------------- */


/* The child of node n for move (point or TG_PASS) by color, or 0. */
uint32_t search_child_for(const tree_pool *pool, uint32_t n, tg_point move, tg_color color)
{
    const tree_node *node = tree_at(pool, n);
    uint32_t first = atomic_load((_Atomic uint32_t *)&node->first_child);
    for (uint32_t i = 0; first && i < node->child_count; i++) {
        const tree_node *c = tree_at(pool, first + i);
        if (c->move == move && c->color == color)
            return first + i;
    }
    return 0;
}

/* Keep the subtree for g's position if the tree's root is an earlier
 * position of the same game; otherwise start a new tree. */
static void find_root(tg_search *s, const tg_game *g, tg_color color)
{
    uint32_t node = 0;
    int n = tg_game_move_count(g);
    if (s->opt.reuse_tree && s->root && s->root_size == tg_game_size(g) && s->root_komi2 == s->komi2 &&
        s->root_setups == tg_game_setup_count(g) && n >= s->root_move_count) {
        node = s->root;
        for (int i = 0; i < s->root_move_count && node; i++) {
            const tg_move *m = tg_game_move(g, i);
            if (m->color != s->root_moves[i].color || m->point != s->root_moves[i].point ||
                tg_game_move_captured_own(g, i))
                node = 0;
        }
        tg_color next = s->root_to_move;
        for (int i = s->root_move_count; i < n && node; i++) {
            const tg_move *m = tg_game_move(g, i);
            /* the tree's child for a point is the ordinary move, never the capture choice */
            node = m->color == next && !tg_game_move_captured_own(g, i)
                       ? search_child_for(search_active_pool(s), node, m->point, m->color)
                       : 0;
            next = tg_opponent(m->color);
        }
        if (node && next != color)
            node = 0;
    }
    tree_pool *to = &s->pools[!s->active];
    s->root = node ? tree_copy(search_active_pool(s), node, to) : (atomic_store(&to->used, 1), tree_new_root(to));
    s->active = !s->active;

    if (n > s->root_moves_cap) {
        tg_move *grown = realloc(s->root_moves, (size_t)n * sizeof *grown);
        if (!grown) {
            s->root_move_count = 0;
            s->root_size = 0; /* no reuse next time */
            return;
        }
        s->root_moves = grown;
        s->root_moves_cap = n;
    }
    for (int i = 0; i < n; i++)
        s->root_moves[i] = *tg_game_move(g, i);
    s->root_move_count = n;
    s->root_size = tg_game_size(g);
    s->root_komi2 = s->komi2;
    s->root_setups = tg_game_setup_count(g);
    s->root_to_move = color;
}

/* ---- One iteration ----------------------------------------------------- */

typedef struct worker {
    tg_search *search;
    tg_rng rng;
    tg_board board;
    policy_moves moves;
    uint32_t path[MAX_DEPTH + 1];
    uint64_t path_key[MAX_DEPTH + 1]; /* the situation after each move of the path */
    uint16_t path_stones[MAX_DEPTH + 1]; /* and its number of stones */
    int depth;                       /* of the node being expanded */
    tg_color color;                  /* its side to move */
    bool one_more_seen;              /* a situation of the game or the path had one stone more */
    uint32_t stamp[TG_MAX_POINTS];  /* AMAF: iteration that set first_color */
    uint8_t first_color[TG_MAX_POINTS];
    uint32_t iteration;
    /* ownership sums, read by the controlling thread while the search runs
     * (relaxed atomics: plain loads and stores on the usual machines) */
    _Atomic int32_t ownership[TG_MAX_POINTS];
    _Atomic int ownership_playouts;
    tree_net_request req;            /* the network's evaluation this thread asks for */
} worker;

static bool root_legal(void *ctx, tg_point p)
{
    const tg_search *s = ctx;
    return tg_game_check(s->game, s->to_move, p, TG_PLAY_ANY_ORDER) == TG_OK;
}

/* ---- Superko below the root ---------------------------------------------- */

/* A situation as the rule against repetition tells them apart: the stones,
 * and under situational superko the side to move (never 0: 0 marks an
 * empty slot of the set). */
static uint64_t situation_key(const tg_search *s, uint64_t hash, tg_color to_move)
{
    uint64_t k = s->situational && to_move == TG_WHITE ? hash ^ 0x5bd1e9955bd1e995ull : hash;
    return k ? k : 1;
}

static bool history_has(const tg_search *s, uint64_t key)
{
    for (size_t i = key & s->history_mask;; i = (i + 1) & s->history_mask) {
        if (s->history[i] == key)
            return true;
        if (!s->history[i])
            return false;
    }
}

/* The set of the game's situations; superko off when there is no memory
 * for it (the root stays exact: the game checks it). */
static void build_history(tg_search *s, const tg_game *g)
{
    const tg_rules *rules = tg_game_rules(g);
    s->superko = rules->ko != TG_KO_SIMPLE;
    s->situational = rules->ko == TG_KO_SITUATIONAL;
    if (!s->superko)
        return;
    int n = tg_game_situation_count(g);
    size_t slots = 16;
    while (slots < 2 * (size_t)n + 2)
        slots *= 2;
    if (slots > s->history_mask + 1 || !s->history) {
        uint64_t *grown = realloc(s->history, slots * sizeof *grown);
        if (!grown) {
            s->superko = false;
            return;
        }
        s->history = grown;
        s->history_mask = slots - 1;
    }
    memset(s->history, 0, (s->history_mask + 1) * sizeof *s->history);
    memset(s->history_stones, 0, sizeof s->history_stones);
    for (int i = 0; i < n; i++) {
        tg_color to_move;
        int stones;
        uint64_t hash = tg_game_situation_hash(g, i, &to_move, &stones);
        uint64_t key = situation_key(s, hash, to_move);
        s->history_stones[stones] = 1;
        size_t j = key & s->history_mask;
        while (s->history[j] && s->history[j] != key)
            j = (j + 1) & s->history_mask;
        s->history[j] = key;
    }
}

static int stones_on(const tg_board *b) { return b->size * b->size - b->empty_count; }

/* tree_expand's test below the root: the move must not recreate a
 * situation of the game or of the path to this node.  The tree holds no
 * suicide, so a move that captures nothing only adds its stone, and can
 * repeat only where a situation had one stone more than this one
 * (one_more_seen, set once for the node). */
static bool tree_legal(void *ctx, tg_point p)
{
    const worker *w = ctx;
    const tg_search *s = w->search;
    if (!w->one_more_seen && !tg_board_captures(&w->board, p, w->color))
        return true;
    uint64_t key = situation_key(s, tg_board_hash_after(&w->board, p, w->color), tg_opponent(w->color));
    for (int i = 1; i <= w->depth; i++)
        if (w->path_key[i] == key)
            return false;
    return !history_has(s, key);
}

/* The child of best value (RAVE blend of the priors, the node's own
 * results and its AMAF results; with a value function (lambda > 0) moved
 * MINIMAX_WEIGHT of the way to the minimax of its verdicts; plus puct times
 * the PUCT term's P sqrt(N) / (1 + n)). */
static uint32_t select_child(const tree_pool *pool, const tree_node *node, double puct, double lambda)
{
    double explore = puct > 0 ? puct * sqrt(stat_get((_Atomic uint32_t *)&node->visits)) * (1.0 / 65535) : 0;
    uint32_t first = atomic_load_explicit((_Atomic uint32_t *)&node->first_child, memory_order_acquire);
    uint32_t best = first;
    double best_value = -1;
    for (uint32_t i = 0; i < node->child_count; i++) {
        tree_node *c = tree_at(pool, first + i);
        double prior_w = atomic_load_explicit(&c->prior_wins2, memory_order_relaxed) * 0.5;
        double n = stat_get(&c->visits) + node_prior_visits(c);
        double w = node_wins(c, lambda) + prior_w;
        double rn = stat_get(&c->amaf_visits), rw = stat_get(&c->amaf_wins2) * 0.5;
        /* the prior counts in the all-moves-as-first statistics too (as
         * in MoGo and Fuego): otherwise those, thousands of samples deep
         * after a few hundred playouts, wash it out at once */
        rn += node_prior_visits(c);
        rw += prior_w;
        /* (1 - beta) w/n + beta rw/rn with beta = rn / (rn + n + n rn / RAVE_EQUIV),
         * over one common denominator: one division instead of four */
        double den = rn + n + n * rn * (1.0 / RAVE_EQUIV);
        double value = den > 0 ? ((1 + rn * (1.0 / RAVE_EQUIV)) * w + rw) / den : 0.5;
        if (lambda > 0) {
            double m = tree_node_minimax(c);
            if (m >= 0)
                value += MINIMAX_WEIGHT * (m - value);
        }
        if (explore > 0) /* not on the large boards: no division per child there */
            value += explore * atomic_load_explicit(&c->policy, memory_order_relaxed) / (1.0 + stat_get(&c->visits));
        if (value > best_value) {
            best_value = value;
            best = first + i;
        }
    }
    return best;
}

/* The previous move of the side to move after w->moves: two plies up the
 * path, or before the root. */
static tg_point movers_previous(const worker *w)
{
    const tg_search *s = w->search;
    int k = w->moves.count;
    if (k < 2)
        return k == 1 ? s->root_board.last_move : s->root_last2;
    return w->moves.point[k - 2];
}

/* The context of the node w->board stands at, c to move: its priors'
 * settings, and no legality beyond the board's (the expansion adds it). */
static tree_expand_context node_context(const worker *w, tg_color c, tg_point last2)
{
    const tg_search *s = w->search;
    return (tree_expand_context){.board = &w->board,
                                 .to_move = c,
                                 .last2 = last2,
                                 .model_prior_visits = s->lambda > 0 ? VALUE_MODEL_PRIOR_VISITS : 0,
                                 .policy = s->policy,
                                 .net_value_visits = s->opt.policy_net_value};
}

/* Give node n the policy network's priors (tree_net_prepare): from the
 * cache by position, else evaluated here, or, with batches, kept with the
 * other threads' requests until batch_size of them are waiting, when the
 * thread that made it full evaluates them all at once.  The root is
 * evaluated at once: every playout starts there. */
static void ask_network(worker *w, tree_pool *pool, uint32_t n, const tree_expand_context *ctx, int depth)
{
    tg_search *s = w->search;
    int asked = tree_net_prepare(pool, n, ctx, &w->req);
    if (asked == TREE_NET_DONE)
        atomic_fetch_add_explicit(&s->net_given, 1, memory_order_relaxed);
    if (asked != TREE_NET_PENDING)
        return;
    if (s->batch_size <= 1 || depth == 0) {
        tree_net_evaluate(pool, &w->req, s->policy);
        atomic_fetch_add_explicit(&s->net_given, 1, memory_order_relaxed);
        return;
    }
    pthread_mutex_lock(&s->batch_lock);
    memcpy(&s->batch[s->batch_count++], &w->req, sizeof w->req);
    if (s->batch_count == s->batch_size) {
        const float *planes[POLICY_MAX_BATCH];
        float *out[POLICY_MAX_BATCH], win[POLICY_MAX_BATCH];
        int sym[POLICY_MAX_BATCH], k = s->batch_count;
        for (int i = 0; i < k; i++) {
            planes[i] = s->batch[i].planes;
            sym[i] = s->batch[i].symmetry;
            out[i] = s->batch_logits + (size_t)i * TG_MAX_SIZE * TG_MAX_SIZE;
        }
        policy_net_eval_batch(s->policy, k, planes, s->batch[0].size, sym, out, win, s->batch_scratch);
        for (int i = 0; i < k; i++)
            tree_net_finish(pool, &s->batch[i], out[i], win[i]);
        s->batch_count = 0;
        atomic_fetch_add_explicit(&s->net_given, k, memory_order_relaxed);
        atomic_fetch_add_explicit(&s->net_batches, 1, memory_order_relaxed);
    }
    pthread_mutex_unlock(&s->batch_lock);
}

/* Walk down from the root, playing the moves on w->board; returns the
 * path length (nodes after the root). */
static int descend(worker *w, int *passes)
{
    tg_search *s = w->search;
    tree_pool *pool = search_active_pool(s);
    uint32_t node = s->root;
    tg_color c = s->to_move;
    int depth = 0;
    /* the exploration by the priors: on the small boards, and wherever a
     * policy network gives them */
    const double puct = s->root_board.size <= PUCT_MAX_SIZE || s->policy ? PUCT_C : 0;
    w->path[0] = node;
    while (depth < MAX_DEPTH && *passes < 2) {
        tree_node *n = tree_at(pool, node);
        if (!atomic_load_explicit(&n->first_child, memory_order_acquire)) {
            if (depth > 0 && stat_get(&n->visits) < EXPAND_VISITS)
                break;
            tg_point last2 = movers_previous(w);
            w->depth = depth;
            w->color = c;
            if (s->superko) {
                int more = stones_on(&w->board) + 1;
                w->one_more_seen = s->history_stones[more];
                for (int i = 1; i <= depth && !w->one_more_seen; i++)
                    w->one_more_seen = w->path_stones[i] == more;
            }
            tree_expand_context ctx = node_context(w, c, last2);
            /* the moves the rules allow: at the root the game's, below it the search's superko */
            ctx.legal = depth == 0 ? root_legal : s->superko ? tree_legal : NULL;
            ctx.legal_ctx = depth == 0 ? (void *)s : (void *)w;
            ctx.eye_fills = depth > 0 && s->superko;
            if (!tree_expand(pool, node, &ctx))
                break;
        }
        if (s->policy && atomic_load_explicit(&n->expanding, memory_order_relaxed) == TREE_EXPANDED &&
            (depth == 0 || stat_get(&n->visits) >= s->policy_visits)) {
            tree_expand_context ctx = node_context(w, c, movers_previous(w));
            ask_network(w, pool, node, &ctx, depth);
        }
        uint32_t child = select_child(pool, n, puct, s->lambda);
        tree_node *ch = tree_at(pool, child);
        stat_add(&ch->visits, 1); /* the virtual loss */
        if (ch->move == TG_PASS) {
            tg_board_pass(&w->board);
            (*passes)++;
        } else {
            tg_board_play(&w->board, ch->move, c);
            *passes = 0;
        }
        w->moves.point[w->moves.count] = ch->move;
        w->moves.color[w->moves.count++] = (uint8_t)c;
        w->path[++depth] = child;
        if (s->superko) {
            w->path_key[depth] = situation_key(s, w->board.hash, tg_opponent(c));
            w->path_stones[depth] = (uint16_t)stones_on(&w->board);
        }
        node = child;
        c = tg_opponent(c);
    }
    return depth;
}

/* Give the result to the path and, as AMAF results, to the children of the
 * path whose move their player played first later on. */
static void back_up(worker *w, int depth, int margin2, double value_black)
{
    tree_pool *pool = search_active_pool(w->search);
    tg_color winner = margin2 > 0 ? TG_BLACK : margin2 < 0 ? TG_WHITE : TG_EMPTY;
    stat_add(&tree_at(pool, w->path[0])->visits, 1);
    if (value_black < 0) /* no verdict of the value function: the result stands for it */
        value_black = winner == TG_BLACK ? 1 : winner == TG_WHITE ? 0 : 0.5;
    uint32_t vb = (uint32_t)(value_black * VALUE_UNIT + 0.5), vw = VALUE_UNIT - vb;
    for (int i = 1; i <= depth; i++) {
        tree_node *n = tree_at(pool, w->path[i]);
        stat_add(&n->wins2, winner == TG_EMPTY ? 1 : winner == n->color ? 2 : 0);
        if (w->search->lambda > 0)
            stat_add(&n->value_sum, n->color == TG_BLACK ? vb : vw);
        int64_t mine = n->color == TG_BLACK ? margin2 : -margin2;
        atomic_store_explicit(&n->score_sum2,
                              atomic_load_explicit(&n->score_sum2, memory_order_relaxed) + mine,
                              memory_order_relaxed);
    }
    /* the leaf's verdict up the path, the deepest node first, as far as it
     * changes a node's verdict */
    if (w->search->lambda > 0)
        for (int i = depth - 1; i > 0 && tree_minimax_update(pool, w->path[i]); i--)
            ;
    uint32_t it = ++w->iteration;
    int j = w->moves.count - 1;
    for (int i = depth - 1; i >= 0; i--) {
        for (; j >= i; j--) {
            int p = w->moves.point[j];
            if (p != TG_PASS) {
                w->stamp[p] = it;
                w->first_color[p] = w->moves.color[j];
            }
        }
        tree_node *n = tree_at(pool, w->path[i]);
        uint32_t first = stat_get(&n->first_child);
        for (uint32_t k = 0; first && k < n->child_count; k++) {
            tree_node *c = tree_at(pool, first + k);
            if (c->move == TG_PASS || w->stamp[c->move] != it || w->first_color[c->move] != c->color)
                continue;
            stat_add(&c->amaf_visits, 1);
            stat_add(&c->amaf_wins2, winner == TG_EMPTY ? 1 : winner == c->color ? 2 : 0);
        }
    }
}

static void iterate(worker *w)
{
    tg_search *s = w->search;
    tg_board_copy(&w->board, &s->root_board);
    w->moves.count = 0;
    int passes = s->base_passes;
    int depth = descend(w, &passes);
    int limit = 3 * s->root_board.size * s->root_board.size;
    /* after two passes the board is counted as it stands, with the dead
     * stones judged by playing it out (what the agreement would settle) */
    tg_color next = (w->moves.count % 2 == 0) ? s->to_move : tg_opponent(s->to_move);
    double value_black = -1;
    if (passes < 2 && s->value) {
        /* the value function's verdict on the leaf, once per node */
        tree_node *leaf = tree_at(search_active_pool(s), w->path[depth]);
        unsigned cached = atomic_load_explicit(&leaf->leaf_value, memory_order_relaxed);
        double v;
        if (cached) {
            v = verdict_unpack(cached);
        } else {
            v = value_eval(s->value, &w->board, next);
            atomic_store_explicit(&leaf->leaf_value, verdict_pack(v), memory_order_relaxed);
        }
        value_black = next == TG_BLACK ? v : 1 - v;
    }
    if (passes < 2 && s->root_board.size <= MODEL_FIRST_MOVE_MAX_SIZE) {
        /* the leaf's first move from the move model: the reply to the
         * tree's last move decides most of what a playout says about the
         * leaf, and the model (shape, tactics, 43% of a long search's
         * moves on 9x9) picks it far better than the playout's rules */
        tg_point p = policy_model_move(&w->board, next, movers_previous(w), &w->rng);
        if (p != TG_PASS) {
            tg_board_play(&w->board, p, next);
            w->moves.point[w->moves.count] = (int16_t)p;
            w->moves.color[w->moves.count++] = (uint8_t)next;
            next = tg_opponent(next);
        }
    }
    uint8_t owner[TG_MAX_POINTS];
    int score2 = policy_playout(&w->board, next, movers_previous(w), &w->rng, limit, &w->moves, owner);
    int margin2 = score2 - s->komi2;
    back_up(w, depth, margin2, value_black);
    for (int p = 0; p < w->board.npoints; p++) {
        if (w->board.color[p] == TG_OFFBOARD || owner[p] == TG_EMPTY)
            continue;
        int32_t v = atomic_load_explicit(&w->ownership[p], memory_order_relaxed);
        atomic_store_explicit(&w->ownership[p], v + (owner[p] == TG_BLACK ? 1 : -1), memory_order_relaxed);
    }
    atomic_store_explicit(&w->ownership_playouts,
                          atomic_load_explicit(&w->ownership_playouts, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    atomic_fetch_add_explicit(&s->playouts, 1, memory_order_relaxed);
}

/* ---- Stopping --------------------------------------------------------- */

/* Root children by visits: the best two (indices, 0 if none). */
static void best_two(tg_search *s, uint32_t *best, uint32_t *second)
{
    tree_pool *pool = search_active_pool(s);
    const tree_node *root = tree_at(pool, s->root);
    uint32_t first = stat_get((_Atomic uint32_t *)&root->first_child);
    *best = *second = 0;
    uint32_t bv = 0, sv = 0;
    for (uint32_t i = 0; first && i < root->child_count; i++) {
        uint32_t v = stat_get(&tree_at(pool, first + i)->visits);
        if (!*best || v > bv) {
            *second = *best;
            sv = bv;
            *best = first + i;
            bv = v;
        } else if (!*second || v > sv) {
            *second = first + i;
            sv = v;
        }
    }
}

/* Whether the search should stop now (checked by the controlling thread). */
static bool time_to_stop(tg_search *s)
{
    const tg_search_limits *l = &s->limits;
    int done = atomic_load(&s->playouts);
    if (l->playouts > 0 && done >= l->playouts)
        return true;
    /* the counters' room, read at the root, whose visits (a kept tree's
     * too) bound every node's and this search's playouts: the value sums
     * (VALUE_UNIT), else the half-win sums and the int playout count */
    uint32_t room = s->lambda > 0 ? VALUE_MAX_VISITS : SEARCH_MAX_VISITS;
    if (stat_get(&tree_at(search_active_pool(s), s->root)->visits) >= room)
        return true;
    if (l->max_seconds <= 0) /* no clock: prepare keeps max_seconds >= seconds */
        return false;
    double t = search_seconds_since(&s->start);
    if (t >= l->max_seconds) /* the hard limit holds even when given alone */
        return true;
    if (l->seconds <= 0)
        return false;
    uint32_t best, second;
    best_two(s, &best, &second);
    if (!best || !second)
        return t >= l->seconds;
    tree_pool *pool = search_active_pool(s);
    double bv = stat_get(&tree_at(pool, best)->visits), sv = stat_get(&tree_at(pool, second)->visits);
    /* the leader cannot be caught in the planned time that is left */
    double rate = done / (t > 1e-3 ? t : 1e-3);
    if (t > 0.2 * l->seconds && bv - sv > rate * (l->seconds - t))
        return true;
    if (t < l->seconds)
        return false;
    /* a difficult move: the top two are close; take more time */
    return !(bv < 1.5 * sv && t < l->max_seconds);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    while (!atomic_load_explicit(&w->search->stop, memory_order_relaxed))
        iterate(w);
    return NULL;
}

static void gather_ownership(tg_search *s, worker *workers, int count)
{
    int playouts = 0;
    int64_t sum[TG_MAX_POINTS] = {0};
    for (int t = 0; t < count; t++) {
        for (int p = 0; p < TG_MAX_POINTS; p++)
            sum[p] += atomic_load_explicit(&workers[t].ownership[p], memory_order_relaxed);
        playouts += atomic_load_explicit(&workers[t].ownership_playouts, memory_order_relaxed);
    }
    for (int p = 0; p < TG_MAX_POINTS; p++)
        s->ownership[p] = playouts ? (float)sum[p] / (float)playouts : 0.0f;
}

/* ---- The search --------------------------------------------------------- */

/* A kept root was expanded deeper in an earlier search, where only the
 * simple ko applied: if a superko (or the suicide rule) now forbids one of
 * its children, start a fresh root, whose children the game filters. */
static void drop_root_if_illegal(tg_search *s)
{
    tree_pool *pool = search_active_pool(s);
    if (!s->root)
        return;
    const tree_node *root = tree_at(pool, s->root);
    uint32_t first = stat_get((_Atomic uint32_t *)&root->first_child);
    for (uint32_t i = 0; first && i < root->child_count; i++) {
        const tree_node *c = tree_at(pool, first + i);
        if (c->move != TG_PASS && !root_legal(s, c->move)) {
            atomic_store(&pool->used, 1);
            s->root = tree_new_root(pool);
            return;
        }
    }
}

static void prepare(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits)
{
    const tg_rules *rules = tg_game_rules(g);
    s->game = g;
    s->to_move = color;
    tg_board_copy(&s->root_board, tg_game_board(g));
    s->komi2 = rules->komi2 + 2 * tg_rules_handicap_points(rules, tg_game_handicap(g));
    s->limits = *limits;
    if (s->limits.max_seconds < s->limits.seconds)
        s->limits.max_seconds = s->limits.seconds;
    if (s->limits.playouts <= 0 && s->limits.seconds <= 0)
        s->limits.playouts = 1000;
    /* auto reads the limits the search will keep: with max_seconds >= seconds
     * and a playout count wherever no planned time is given, a budget of
     * playouts alone is one without a hard time limit (a caller may give
     * that one alone) */
    bool by_playouts = s->limits.max_seconds <= 0;
    bool value = s->opt.value_function == TG_VALUE_ON || (s->opt.value_function == TG_VALUE_AUTO && by_playouts);
    s->value = value && VALUE_LAMBDA > 0 ? value_net_for(s->root_board.size, s->komi2) : NULL;
    s->lambda = s->value ? VALUE_LAMBDA : 0;
    s->policy = s->opt.no_policy_net ? NULL : policy_net_for(s->root_board.size);
    s->policy_visits = (uint32_t)(s->opt.policy_net_visits > 0 ? s->opt.policy_net_visits : POLICY_NET_VISITS);
    s->base_passes = tg_game_to_move(g) == color ? tg_game_consecutive_passes(g) : 0;
    int n = tg_game_move_count(g);
    s->root_last2 = n >= 2 ? tg_game_move(g, n - 2)->point : TG_NO_POINT;
    atomic_store(&s->playouts, 0);
    atomic_store(&s->net_given, 0);
    atomic_store(&s->net_batches, 0);
    atomic_store(&s->stop, false);
    clock_gettime(CLOCK_MONOTONIC, &s->start);
    find_root(s, g, color);
    drop_root_if_illegal(s);
    build_history(s, g);
}

tg_status tg_search_run(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits,
                        double interval_seconds, tg_search_progress_fn progress, void *ctx, tg_point *move)
{
    if (move)
        *move = TG_NO_POINT;
    prepare(s, g, color, limits);
    memset(&s->report, 0, sizeof s->report);
    if (!s->root)
        return TG_ERR_NO_MEMORY;
    int threads = s->opt.threads;
    worker *workers = calloc((size_t)threads, sizeof *workers);
    pthread_t ids[MAX_THREADS];
    if (!workers)
        return TG_ERR_NO_MEMORY;
    for (int t = 0; t < threads; t++) {
        workers[t].search = s;
        tg_rng_seed(&workers[t].rng, tg_rng_next(&s->rng) + (uint64_t)t);
    }
    int started = 1;
    for (int t = 1; t < threads; t++)
        if (pthread_create(&ids[t], NULL, worker_main, &workers[t]) == 0)
            started = t + 1;
        else
            break;
    double next_report = interval_seconds > 0 ? interval_seconds : 1e300;
    for (int i = 0;; i++) {
        iterate(&workers[0]);
        if ((i & 15) != 0 && !(s->limits.playouts > 0 && s->limits.playouts < 16 * threads))
            continue;
        if (atomic_load(&s->stop) || time_to_stop(s))
            break;
        if (progress && search_seconds_since(&s->start) >= next_report) {
            search_make_report(s);
            gather_ownership(s, workers, started);
            if (!progress(ctx, &s->report))
                break;
            next_report += interval_seconds;
        }
    }
    atomic_store(&s->stop, true);
    for (int t = 1; t < started; t++)
        pthread_join(ids[t], NULL);
    /* requests still waiting for a batch: their nodes are left to a later
     * search (the tree may be copied before then) */
    for (int i = 0; i < s->batch_count; i++)
        tree_net_abandon(search_active_pool(s), &s->batch[i]);
    s->batch_count = 0;
    gather_ownership(s, workers, started);
    free(workers);
    search_make_report(s);
    if (progress)
        progress(ctx, &s->report);
    if (move)
        *move = s->report.candidate_count ? s->report.candidates[0].move : TG_PASS;
    return TG_OK;
}
