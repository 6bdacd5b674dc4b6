/*
 * tree.c — the search tree: a pool of nodes of bounded size, expansion of a
 * leaf into its children with their priors, and the copy that keeps the
 * subtree of the next position (and drops the rest) between moves.
 *
 * Priors are virtual results given to a child when it is created, so the
 * first playouts go to the moves a Go player would look at first:
 *   every move      10 visits at 50%   (so no single playout decides)
 *   the move model  MODEL_PRIOR_VISITS visits (fewer where the search asks,
 *                   tree_expand_context) at r^a / (r^a + 1), where r
 *                   is the move's strength (model.c: shape, distance to the
 *                   last two moves, line, captures, escapes and ataris with
 *                   their ladders, self-atari) over the mean of its
 *                   siblings' and a = MODEL_PRIOR_SLOPE: the average move
 *                   50%, one ten times stronger 76%, ten times weaker 24%
 * and on top of it the hand-set priors (the knowledge of Pachi's and
 * Fuego's priors, in a simpler form):
 *   capture         +20 visits won     (+10 more for 2+ stones)
 *   saving a chain in atari            +20 won (+20 lost if it runs into a ladder)
 *   an atari that captures in a ladder +20 won
 *   the playouts' two-liberty moves    +10 won (policy.c, rule 2b)
 *   a good 3x3 shape                   +10 won
 *   near the last move (8 points)      +6 won
 *   self-atari of a chain              +20 lost (a lone stone: +10 lost),
 *                                      unless it kills by nakade
 *   first line far from stones         +10 lost; third line there +6 won
 *   from 13x13 up, far from stones: second line +10 lost, fourth +6 won,
 *   and the 3-3 to 4-5 points of an empty corner +20 won
 *   pass                               10 visits at 10%
 * In 9x9 self-play at 1,000 playouts a move the model won 122 of 200 games
 * against the hand-set priors both alone and added to them; on 19x19
 * against GNU Go the model alone won 4 of 12 games where the hand-set
 * priors had won 13 of 20: the records teach shape, the hand-set priors
 * the tactics a 9-dan rarely needs to play (a capture far from the last
 * move, a chain saved from atari), and the search needs both.
 * The search counts the priors in both the real and the all-moves-as-first
 * statistics of a child (search.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/features.h"
#include "engine/model.h"
#include "engine/pattern.h"
#include "engine/policy_net.h"
#include "engine/tree.h"
#include "tactics/tactics.h"

bool tree_pool_init(tree_pool *pool, size_t bytes)
{
    size_t n = bytes / sizeof(tree_node);
    if (n < 1024)
        n = 1024;
    if (n > UINT32_MAX - 1)
        n = UINT32_MAX - 1;
    pool->nodes = calloc(n, sizeof(tree_node));
    pool->capacity = (uint32_t)n;
    atomic_init(&pool->used, 1);
    return pool->nodes != NULL;
}

void tree_pool_free(tree_pool *pool)
{
    free(pool->nodes);
    pool->nodes = NULL;
    pool->capacity = 0;
}

/* Reserve `count` consecutive nodes; 0 when the pool is full. */
static uint32_t pool_alloc(tree_pool *pool, uint32_t count)
{
    uint32_t at = atomic_fetch_add(&pool->used, count);
    if ((uint64_t)at + count > pool->capacity) {
        atomic_fetch_sub(&pool->used, count);
        return 0;
    }
    return at;
}

static void node_init(tree_node *n, tg_point move, tg_color color)
{
    atomic_init(&n->visits, 0);
    atomic_init(&n->wins2, 0);
    atomic_init(&n->amaf_visits, 0);
    atomic_init(&n->amaf_wins2, 0);
    atomic_init(&n->score_sum2, 0);
    atomic_init(&n->value_sum, 0);
    atomic_init(&n->leaf_value, 0);
    atomic_init(&n->minimax, 0);
    atomic_init(&n->first_child, 0);
    atomic_init(&n->expanding, 0);
    n->move = (int16_t)move;
    n->color = (uint8_t)color;
    n->child_count = 0;
    atomic_init(&n->prior_visits, 0);
    atomic_init(&n->prior_wins2, 0);
    atomic_init(&n->policy, 0);
}

uint32_t tree_new_root(tree_pool *pool)
{
    uint32_t r = pool_alloc(pool, 1);
    if (r)
        node_init(tree_at(pool, r), TG_PASS, TG_EMPTY);
    return r;
}

/* A child's priors while they are reckoned (priors_of), before the node
 * gets them. */
typedef struct priors {
    int visits, wins2;
} priors;

static void prior_add(priors *n, int visits, bool won)
{
    n->visits += visits;
    n->wins2 += won ? 2 * visits : 0;
}

bool tree_empty_corner_point(const tg_board *b, tg_point p)
{
    if (b->size < 13)
        return false;
    int x = tg_point_x(b, p), y = tg_point_y(b, p), n = b->size;
    int dx = x < n - 1 - x ? x : n - 1 - x, dy = y < n - 1 - y ? y : n - 1 - y;
    int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    if (lo < 2 || lo > 3 || hi > 4)
        return false;
    int x0 = x < n / 2 ? 0 : n - 7, y0 = y < n / 2 ? 0 : n - 7;
    for (int j = y0; j < y0 + 7; j++)
        for (int i = x0; i < x0 + 7; i++) {
            tg_color c = (tg_color)b->color[tg_point_at(b, i, j)];
            if (c == TG_BLACK || c == TG_WHITE)
                return false;
        }
    return true;
}

/* The hand-set tactical priors, read from the features the model was given
 * (features.c plays the move once on a copy and reads its ladders). */
static void tactical_priors(priors *n, const move_features *f)
{
    int capture = f->value[FEATURE_CAPTURE], escape = f->value[FEATURE_ESCAPE];
    if (capture)
        prior_add(n, capture > 1 ? 30 : 20, true);
    if (!capture && escape >= 3)
        prior_add(n, 20, true); /* to two liberties and no ladder, or to three */
    else if (!capture && escape == 2)
        prior_add(n, 20, false); /* runs into a ladder */
    if (f->value[FEATURE_ATARI] == 1)
        prior_add(n, 20, true); /* an atari that captures in a ladder */
    /* a sacrifice that leaves a dead eye space (policy.c) is no mistake:
     * exempting it measured +31 Elo [-3, +66] over 400 self-play games */
    int self = f->value[FEATURE_SELF_ATARI];
    if (self == 1 || self == 2)
        prior_add(n, self == 2 ? 20 : 10, false);
    if (f->value[FEATURE_FIGHT])
        prior_add(n, 10, true);
}

/* The visits the move model's prior counts: 40 measured +14 Elo against
 * the hand priors, 20 +78.  The prior's winrate grows as the square root
 * of the move's strength relative to its siblings' (the slope 1 measured
 * +31 Elo against the hand priors, 0.5 +78). */
#define MODEL_PRIOR_VISITS 20

/* The model's share of a move's prior wins (in half-wins): model_visits at
 * r^a / (r^a + 1), where r is its strength over its siblings' mean. */
static int model_share(double r, int model_visits)
{
    double ra = sqrt(r);
    return (int)(2 * model_visits * ra / (ra + 1) + 0.5);
}

/* The priors of c playing p, whose strength is r times its siblings' mean
 * (0 for a pass) */
static priors priors_of(const tg_board *b, tg_point p, const move_features *f, double r, int model_visits)
{
    priors pr = {10, 10}; /* 10 visits at 50% */
    priors *n = &pr;
    if (p == TG_PASS) {
        pr.wins2 = 2; /* 1 win in 10: 10% */
        return pr;
    }
    n->visits += model_visits;
    n->wins2 += model_share(r, model_visits);
    tactical_priors(n, f);
    if (pattern_match(b, p))
        prior_add(n, 10, true);
    if (f->value[FEATURE_LAST] <= 1)
        prior_add(n, 6, true); /* one of the 8 points around the last move */
    if (b->size >= 9 && (f->value[FEATURE_LINE] & 1)) {
        /* the first line is low and the third a base; on the large
         * boards also the second low and the fourth a base (Pachi's 19x19
         * priors), and the opening takes the empty corners first */
        int line = f->value[FEATURE_LINE] / 2;
        bool large = b->size >= 13;
        if (line == 0 || (line == 1 && large))
            prior_add(n, 10, false);
        else if (line == 2 || (line == 3 && large))
            prior_add(n, 6, true);
        if (tree_empty_corner_point(b, p))
            prior_add(n, 20, true);
    }
    return pr;
}

/* The move model's features and strength of each of the count moves; the
 * strengths' sum. */
static double model_strengths(const tg_board *b, const tree_expand_context *ctx, const tg_point *moves, int count,
                              move_features *feat, float *gamma)
{
    tg_point fight[10];
    int fights = tactics_two_liberty_moves(b, ctx->to_move, fight);
    features_board fb;
    features_board_init(&fb, b);
    double sum = 0;
    for (int i = 0; i < count; i++) {
        features_compute(b, &fb, moves[i], ctx->to_move, ctx->last2, fight, fights, &feat[i]);
        gamma[i] = model_gamma_for(&feat[i], b->size);
        sum += gamma[i];
    }
    return sum;
}

static int model_visits(const tree_expand_context *ctx)
{
    return ctx->model_prior_visits > 0 ? ctx->model_prior_visits : MODEL_PRIOR_VISITS;
}

bool tree_expand(tree_pool *pool, uint32_t index, const tree_expand_context *ctx)
{
    tree_node *node = tree_at(pool, index);
    uint8_t expected = TREE_LEAF;
    if (!atomic_compare_exchange_strong(&node->expanding, &expected, TREE_EXPANDED))
        return false;
    const tg_board *b = ctx->board;
    tg_point moves[TG_MAX_POINTS + 1];
    int count = 0;
    bool refused = false;
    for (int i = 0; i < b->empty_count; i++) {
        tg_point p = b->empty[i];
        if (!tactics_move_ok(b, p, ctx->to_move))
            continue;
        if (ctx->legal && !ctx->legal(ctx->legal_ctx, p)) {
            refused = true;
            continue;
        }
        moves[count++] = p;
    }
    bool eyes_only = count == 0 && refused && ctx->eye_fills;
    for (int i = 0; eyes_only && i < b->empty_count; i++) {
        tg_point p = b->empty[i];
        if (tg_board_is_eye(b, p, ctx->to_move) && tg_board_check(b, p, ctx->to_move, TG_SUICIDE_FORBIDDEN) == TG_OK &&
            (!ctx->legal || ctx->legal(ctx->legal_ctx, p)))
            moves[count++] = p;
    }
    moves[count++] = TG_PASS; /* always the last child (tree_apply_network) */
    uint32_t first = pool_alloc(pool, (uint32_t)count);
    if (!first) {
        atomic_store(&node->expanding, TREE_LEAF);
        return false;
    }
    /* the model's strengths, relative to their mean */
    move_features feat[TG_MAX_POINTS];
    float gamma[TG_MAX_POINTS + 1];
    double sum = model_strengths(b, ctx, moves, count - 1, feat, gamma);
    double scale = sum > 0 ? (count - 1) / sum : 0;
    for (int i = 0; i < count; i++) {
        tree_node *child = tree_at(pool, first + (uint32_t)i);
        node_init(child, moves[i], ctx->to_move);
        bool pass = i == count - 1;
        priors pr = priors_of(b, moves[i], pass ? NULL : &feat[i], pass ? 0 : gamma[i] * scale, model_visits(ctx));
        atomic_init(&child->prior_visits, (uint16_t)pr.visits);
        atomic_init(&child->prior_wins2, (uint16_t)pr.wins2);
        atomic_init(&child->policy, (uint16_t)(pass || sum <= 0 ? 0 : 65535 * gamma[i] / sum + 0.5));
    }
    node->child_count = (uint16_t)count;
    /* publish: a thread that sees first_child sees the children too */
    atomic_store_explicit(&node->first_child, first, memory_order_release);
    return true;
}

/* splitmix64's finalizer: a 64-bit value well mixed */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The key of everything the network's planes read (policy_net_planes_from):
 * the stones, the mover, the ko point, the last two moves, the candidates
 * (which the root's rules may narrow); the model's strengths follow from
 * these.  Never 0. */
static uint64_t net_key(const tg_board *b, tg_color c, tg_point last2, const int16_t *moves, int count)
{
    uint64_t k = mix64(b->hash ^ (uint64_t)b->size << 56);
    k = mix64(k ^ ((uint64_t)c << 48) ^ ((uint64_t)(uint16_t)(b->ko_color == c ? b->ko_point : -1) << 32) ^
              ((uint64_t)(uint16_t)b->last_move << 16) ^ (uint16_t)last2);
    uint64_t set = 0;
    for (int i = 0; i < count; i++)
        set += mix64((uint64_t)moves[i] + 0x9e3779b97f4a7c15ULL);
    k = mix64(k ^ set ^ (uint64_t)count);
    return k ? k : 1;
}

/* The network's verdict to req's node and its children. */
static void give_verdict(tree_pool *pool, const tree_net_request *req, const float *logits, float winrate)
{
    int n = req->size, count = req->count;
    float gamma[TG_MAX_POINTS], top = -1e30f;
    for (int i = 0; i < count; i++) {
        int p = req->moves[i], x = p % req->stride - 1, y = p / req->stride - 1; /* tg_point_x, _y */
        gamma[i] = logits[y * n + x];
        if (gamma[i] > top)
            top = gamma[i];
    }
    double sum = 0;
    for (int i = 0; i < count; i++)
        sum += gamma[i] = expf(gamma[i] - top);
    tree_node *node = tree_at(pool, req->node);
    if (req->value_visits > 0 && node->color != TG_EMPTY && winrate >= 0 && winrate <= 1) {
        /* the value head's verdict, for the side to move here, as prior
         * results of the node for its mover (not the root's: it has no
         * mover, nor siblings to be chosen among) */
        unsigned v = node_prior_visits(node), w2 = atomic_load_explicit(&node->prior_wins2, memory_order_relaxed);
        unsigned add = (unsigned)req->value_visits, add2 = (unsigned)(2 * add * (1 - winrate) + 0.5);
        if (v + add <= UINT16_MAX && w2 + add2 <= UINT16_MAX) {
            atomic_store_explicit(&node->prior_wins2, (uint16_t)(w2 + add2), memory_order_relaxed);
            atomic_store_explicit(&node->prior_visits, (uint16_t)(v + add), memory_order_relaxed);
        }
    }
    uint32_t first = atomic_load_explicit(&node->first_child, memory_order_acquire);
    if (!(sum > 0))
        return; /* no verdict (cannot happen with finite logits): the model's priors stay */
    /* the network's strengths relative to their mean (1) */
    for (int i = 0; i < count; i++) {
        tree_node *child = tree_at(pool, first + (uint32_t)i);
        double r = gamma[i] * count / sum;
        /* from what the child has, which may hold its own value head's
         * verdict by now (a request that waited in a batch) */
        int wins2 = atomic_load_explicit(&child->prior_wins2, memory_order_relaxed) - req->model_wins2[i];
        wins2 = (wins2 < 0 ? 0 : wins2) + model_share(r, req->model_visits);
        atomic_store_explicit(&child->prior_wins2, (uint16_t)(wins2 > UINT16_MAX ? UINT16_MAX : wins2),
                              memory_order_relaxed);
        atomic_store_explicit(&child->policy, (uint16_t)(65535.0 * gamma[i] / sum + 0.5), memory_order_relaxed);
    }
}

int tree_net_prepare(tree_pool *pool, uint32_t index, const tree_expand_context *ctx, tree_net_request *req)
{
    tree_node *node = tree_at(pool, index);
    uint32_t first = atomic_load_explicit(&node->first_child, memory_order_acquire);
    if (!ctx->policy || !first || node->child_count < 3) /* no choice but between a move and the pass */
        return TREE_NET_NONE;
    uint8_t expected = TREE_EXPANDED;
    if (!atomic_compare_exchange_strong(&node->expanding, &expected, TREE_NETTED))
        return TREE_NET_NONE;
    const tg_board *b = ctx->board;
    int count = node->child_count - 1; /* the pass is the last child */
    tg_point moves[TG_MAX_POINTS];
    for (int i = 0; i < count; i++)
        req->moves[i] = (int16_t)(moves[i] = tree_at(pool, first + (uint32_t)i)->move);
    req->node = index;
    req->count = count;
    req->size = b->size;
    req->stride = b->stride;
    req->symmetry = (int)(b->hash >> 61);
    req->model_visits = model_visits(ctx);
    req->value_visits = ctx->net_value_visits;
    /* the move model's share of the priors, as the expansion gave it (the
     * same position, the same features), to be replaced by the network's:
     * the other priors stay */
    move_features feat[TG_MAX_POINTS];
    float gamma[TG_MAX_POINTS];
    double sum = model_strengths(b, ctx, moves, count, feat, gamma);
    double scale = sum > 0 ? count / sum : 0;
    for (int i = 0; i < count; i++)
        req->model_wins2[i] = (uint16_t)model_share(gamma[i] * scale, req->model_visits);
    req->key = net_key(b, ctx->to_move, ctx->last2, req->moves, count);
    float logits[TG_MAX_SIZE * TG_MAX_SIZE], winrate;
    if (policy_net_cache_get(req->key, b->size, logits, &winrate)) {
        give_verdict(pool, req, logits, winrate);
        return TREE_NET_DONE;
    }
    policy_net_planes_from(b, ctx->to_move, ctx->last2, moves, gamma, count, req->planes);
    return TREE_NET_PENDING;
}

void tree_net_finish(tree_pool *pool, const tree_net_request *req, const float *logits, float winrate)
{
    policy_net_cache_put(req->key, req->size, logits, winrate);
    give_verdict(pool, req, logits, winrate);
}

void tree_net_evaluate(tree_pool *pool, const tree_net_request *req, const struct policy_net *net)
{
    float logits[TG_MAX_SIZE * TG_MAX_SIZE], winrate;
    policy_net_eval(net, req->planes, req->size, req->symmetry, logits, NULL, &winrate, false);
    tree_net_finish(pool, req, logits, winrate);
}

void tree_net_abandon(tree_pool *pool, const tree_net_request *req)
{
    uint8_t expected = TREE_NETTED;
    atomic_compare_exchange_strong(&tree_at(pool, req->node)->expanding, &expected, TREE_EXPANDED);
}

bool tree_apply_network(tree_pool *pool, uint32_t index, const tree_expand_context *ctx)
{
    tree_net_request *req = malloc(sizeof *req);
    if (!req)
        return false;
    int r = tree_net_prepare(pool, index, ctx, req);
    if (r == TREE_NET_PENDING)
        tree_net_evaluate(pool, req, ctx->policy);
    free(req);
    return r != TREE_NET_NONE;
}

bool tree_minimax_update(const tree_pool *pool, uint32_t index)
{
    tree_node *n = tree_at(pool, index);
    uint32_t first = atomic_load_explicit(&n->first_child, memory_order_acquire);
    double best = -1;
    for (uint32_t i = 0; first && i < n->child_count; i++) {
        double v = tree_node_minimax(tree_at(pool, first + i));
        if (v > best)
            best = v;
    }
    if (best < 0)
        return false;
    uint16_t packed = verdict_pack(1 - best);
    if (atomic_load_explicit(&n->minimax, memory_order_relaxed) == packed)
        return false;
    atomic_store_explicit(&n->minimax, packed, memory_order_relaxed);
    return true;
}

/* Copy one node's statistics (not its children). */
static void copy_stats(tree_node *to, const tree_node *from)
{
    node_init(to, from->move, (tg_color)from->color);
    atomic_init(&to->visits, atomic_load((_Atomic uint32_t *)&from->visits));
    atomic_init(&to->wins2, atomic_load((_Atomic uint32_t *)&from->wins2));
    atomic_init(&to->amaf_visits, atomic_load((_Atomic uint32_t *)&from->amaf_visits));
    atomic_init(&to->amaf_wins2, atomic_load((_Atomic uint32_t *)&from->amaf_wins2));
    atomic_init(&to->score_sum2, atomic_load((_Atomic int64_t *)&from->score_sum2));
    atomic_init(&to->value_sum, atomic_load((_Atomic uint32_t *)&from->value_sum));
    atomic_init(&to->leaf_value, atomic_load((_Atomic uint16_t *)&from->leaf_value));
    atomic_init(&to->minimax, atomic_load((_Atomic uint16_t *)&from->minimax));
    atomic_init(&to->prior_visits, node_prior_visits(from));
    atomic_init(&to->prior_wins2, atomic_load_explicit((_Atomic uint16_t *)&from->prior_wins2, memory_order_relaxed));
    atomic_init(&to->policy, atomic_load_explicit((_Atomic uint16_t *)&from->policy, memory_order_relaxed));
}

uint32_t tree_copy(const tree_pool *from, uint32_t root, tree_pool *to)
{
    atomic_store(&to->used, 1);
    uint32_t new_root = pool_alloc(to, 1);
    if (!new_root)
        return 0;
    copy_stats(tree_at(to, new_root), tree_at(from, root));
    /* breadth first: the queue is the destination pool itself, whose nodes
     * (from new_root on) are visited in order with their source indices */
    uint32_t *source = malloc((size_t)to->capacity * sizeof *source);
    if (!source)
        return new_root;
    source[new_root] = root;
    for (uint32_t at = new_root; at < atomic_load(&to->used); at++) {
        const tree_node *src = tree_at(from, source[at]);
        uint32_t first = atomic_load((_Atomic uint32_t *)&src->first_child);
        if (!first)
            continue;
        uint32_t dst_first = pool_alloc(to, src->child_count);
        if (!dst_first)
            break; /* full: the rest stay leaves */
        for (uint32_t i = 0; i < src->child_count; i++) {
            copy_stats(tree_at(to, dst_first + i), tree_at(from, first + i));
            source[dst_first + i] = first + i;
        }
        tree_node *dst = tree_at(to, at);
        dst->child_count = src->child_count;
        atomic_store(&dst->expanding, atomic_load((_Atomic uint8_t *)&src->expanding)); /* with the network or not */
        atomic_store(&dst->first_child, dst_first);
    }
    free(source);
    return new_root;
}
