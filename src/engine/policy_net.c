/*
 * policy_net.c — the policy network (policy_net.h): its input planes, its
 * evaluation on nn.c's layers, and the networks in use by board size.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model.h"
#include "engine/nn.h"
#include "engine/policy_net.h"
#include "engine/value.h"
#include "engine/weights.h"
#include "tengen/search.h"

#define C NN_CHANNELS
#define PAD NN_PAD
#define P POLICY_PLANES

/* ---- the planes ------------------------------------------------------------------------ */

static void set_point(const tg_board *b, float *planes, tg_point p, int k)
{
    if (p >= 0 && tg_on_board(b, p))
        planes[(tg_point_y(b, p) * b->size + tg_point_x(b, p)) * P + k] = 1;
}

void policy_net_planes_from(const tg_board *b, tg_color c, tg_point last2, const tg_point *moves,
                            const float *gamma, int count, float *planes)
{
    int n = b->size;
    memset(planes, 0, sizeof(float) * (size_t)(n * n * P));
    uint8_t libs[TG_MAX_POINTS];
    value_liberties(b, libs);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            tg_point p = tg_point_at(b, x, y);
            float *f = planes + (y * n + x) * P;
            f[2] = 1;
            f[14] = c == TG_WHITE;
            tg_color s = (tg_color)b->color[p];
            if (s != TG_BLACK && s != TG_WHITE)
                continue;
            int l = libs[p] < 1 ? 1 : libs[p];
            f[s == c ? 0 : 1] = 1;
            f[(s == c ? 2 : 5) + l] = 1;
        }
    if (b->ko_color == c)
        set_point(b, planes, b->ko_point, 9);
    set_point(b, planes, b->last_move, 10);
    set_point(b, planes, last2, 11);
    double sum = 0;
    for (int i = 0; i < count; i++)
        sum += gamma[i];
    double mean = count > 0 ? sum / count : 0;
    for (int i = 0; i < count; i++) {
        tg_point p = moves[i];
        if (!tg_on_board(b, p))
            continue;
        float *f = planes + (tg_point_y(b, p) * n + tg_point_x(b, p)) * P;
        f[12] = 1;
        double r = mean > 0 && gamma[i] > 0 ? log(gamma[i] / mean) : -6;
        /* in steps of 1/30, as tools/gen_policy stores it: what the
         * network learned from is what it reads */
        f[13] = (float)(lround((r < -6 ? -6 : r > 6 ? 6 : r) * 10) / 30.0);
    }
}

void policy_net_planes(const tg_board *b, tg_color c, tg_point last2, float *planes)
{
    tg_point moves[TG_MAX_POINTS];
    float gamma[TG_MAX_POINTS];
    model_init();
    int count = model_candidates(b, c, last2, moves, gamma);
    policy_net_planes_from(b, c, last2, moves, gamma, count, planes);
}

/* ---- the evaluation -------------------------------------------------------------------- */

void policy_net_transform(int t, int n, int x, int y, int *tx, int *ty)
{
    if (t & 4) {
        int s = x;
        x = y;
        y = s;
    }
    if (t & 1)
        x = n - 1 - x;
    if (t & 2)
        y = n - 1 - y;
    *tx = x;
    *ty = y;
}

/* The planes of an n x n board seen under symmetry t into the padded input
 * (zero outside the board: the caller cleared it). */
static void load_input(const float *planes, int n, int t, float *in)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int tx, ty;
            policy_net_transform(t, n, x, y, &tx, &ty);
            memcpy(in + ((ty + 1) * PAD + tx + 1) * P, planes + (y * n + x) * P, sizeof(float) * P);
        }
}

/* The heads on the tower's last activation h (padded), seen back from
 * symmetry t. */
static void heads(const policy_net *net, const float *h, int n, int t, float *logits, float *pass_logit,
                  float *winrate)
{
    float mean[C] = {0};
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int tx, ty;
            policy_net_transform(t, n, x, y, &tx, &ty);
            const float *hp = h + ((ty + 1) * PAD + tx + 1) * C;
            float l = net->pol_b[0];
            for (int o = 0; o < C; o++) {
                l += hp[o] * net->pol_w[o];
                mean[o] += hp[o];
            }
            if (logits)
                logits[y * n + x] = l;
        }
    for (int o = 0; o < C; o++)
        mean[o] *= 1.0f / (float)(n * n);
    if (pass_logit) {
        float l = net->pass_b[0];
        for (int o = 0; o < C; o++)
            l += mean[o] * net->pass_w[o];
        *pass_logit = l;
    }
    if (winrate) {
        float v = net->v2_b[0];
        for (int j = 0; j < net->hidden; j++) {
            float a = net->v1_b[j];
            for (int o = 0; o < C; o++)
                a += mean[o] * net->v1_w[o * net->hidden + j];
            if (a > 0)
                v += a * net->v2_w[j];
        }
        *winrate = 1.0f / (1.0f + expf(-v));
    }
}

/* A position's input and two activations, side by side, padded with zeros
 * one point wide; each starts on a 64-byte line where the scratch does (an
 * activation that straddles lines costs the vector loads 15%). */
enum {
    IN_FLOATS = (PAD * PAD * P + 15) / 16 * 16,
    ACT_FLOATS = (PAD * PAD * C + 15) / 16 * 16,
    ONE_FLOATS = IN_FLOATS + 2 * ACT_FLOATS
};

/* count positions through the tower, layer by layer (each layer's weights
 * read for all of them while they are in the cache), and their heads;
 * scratch holds count times ONE_FLOATS. */
static void eval_positions(const policy_net *net, int count, const float *const *planes, int n, const int *t,
                           float *const *logits, float *pass_logit, float *winrate, float *scratch, bool portable)
{
    for (int i = 0; i < count; i++) {
        /* zero where read and not written: the border */
        float *at = scratch + (size_t)i * ONE_FLOATS;
        memset(at, 0, sizeof(float) * (size_t)((n + 2) * PAD * P));
        memset(at + IN_FLOATS, 0, sizeof(float) * (size_t)((n + 2) * PAD * C));
        memset(at + IN_FLOATS + ACT_FLOATS, 0, sizeof(float) * (size_t)((n + 2) * PAD * C));
        load_input(planes[i], n, t[i], at);
    }
    for (int i = 0; i < count; i++) {
        float *at = scratch + (size_t)i * ONE_FLOATS;
        nn_conv3x3(at, P, net->in_w, net->in_b, false, at + IN_FLOATS, n, portable);
    }
    int cur = 0;
    for (int k = 0; k < net->blocks; k++) {
        const float *w = net->block_w + (size_t)k * 9 * C * C, *b = net->block_b + (size_t)k * C;
        for (int i = 0; i < count; i++) {
            float *h = scratch + (size_t)i * ONE_FLOATS + IN_FLOATS;
            nn_conv3x3(h + cur * ACT_FLOATS, C, w, b, true, h + (1 - cur) * ACT_FLOATS, n, portable);
        }
        cur = 1 - cur;
    }
    for (int i = 0; i < count; i++)
        heads(net, scratch + (size_t)i * ONE_FLOATS + IN_FLOATS + cur * ACT_FLOATS, n, t[i], logits[i],
              pass_logit ? &pass_logit[i] : NULL, winrate ? &winrate[i] : NULL);
}

void policy_net_eval(const policy_net *net, const float *planes, int n, int t, float *logits, float *pass_logit,
                     float *winrate, bool portable)
{
    /* on the stack, as value.c's: 230 KB */
    _Alignas(64) float scratch[ONE_FLOATS];
    eval_positions(net, 1, &planes, n, &t, &logits, pass_logit, winrate, scratch, portable);
}

size_t policy_net_batch_floats(int count)
{
    return (size_t)(count > 0 ? count : 0) * ONE_FLOATS;
}

bool policy_net_eval_batch(const policy_net *net, int count, const float *const *planes, int n, const int *t,
                           float *const *logits, float *winrate, float *scratch)
{
    if (count <= 0)
        return true;
    if (count > POLICY_MAX_BATCH || !scratch)
        return false;
    eval_positions(net, count, planes, n, t, logits, NULL, winrate, scratch, false);
    return true;
}

/* ---- the cache by position ------------------------------------------------------------- */

/* Direct-mapped, CACHE_ENTRIES of the verdicts (the logits of every point
 * and the winrate), one lock for each of CACHE_STRIPES stripes: a thread
 * holds one for a copy of 1.4 KB. */
#define CACHE_ENTRIES 4096
#define CACHE_STRIPES 64

typedef struct cache_entry {
    uint64_t key; /* 0: empty */
    int n;
    float winrate;
    float logits[TG_MAX_SIZE * TG_MAX_SIZE];
} cache_entry;

static cache_entry *cache;
static pthread_mutex_t cache_lock[CACHE_STRIPES];
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static _Atomic uint64_t cache_hits, cache_misses;

static void cache_init(void)
{
    for (int i = 0; i < CACHE_STRIPES; i++)
        pthread_mutex_init(&cache_lock[i], NULL);
    cache = calloc(CACHE_ENTRIES, sizeof *cache); /* NULL: no cache, every lookup a miss */
}

bool policy_net_cache_get(uint64_t key, int n, float *logits, float *winrate)
{
    pthread_once(&cache_once, cache_init);
    bool hit = false;
    if (cache && key) {
        size_t i = key % CACHE_ENTRIES;
        pthread_mutex_lock(&cache_lock[i % CACHE_STRIPES]);
        cache_entry *e = &cache[i];
        if (e->key == key && e->n == n) {
            memcpy(logits, e->logits, sizeof(float) * (size_t)(n * n));
            if (winrate)
                *winrate = e->winrate;
            hit = true;
        }
        pthread_mutex_unlock(&cache_lock[i % CACHE_STRIPES]);
    }
    atomic_fetch_add_explicit(hit ? &cache_hits : &cache_misses, 1, memory_order_relaxed);
    return hit;
}

void policy_net_cache_put(uint64_t key, int n, const float *logits, float winrate)
{
    pthread_once(&cache_once, cache_init);
    if (!cache || !key || n < 1 || n > TG_MAX_SIZE)
        return;
    size_t i = key % CACHE_ENTRIES;
    pthread_mutex_lock(&cache_lock[i % CACHE_STRIPES]);
    cache_entry *e = &cache[i];
    e->key = key;
    e->n = n;
    e->winrate = winrate;
    memcpy(e->logits, logits, sizeof(float) * (size_t)(n * n));
    pthread_mutex_unlock(&cache_lock[i % CACHE_STRIPES]);
}

void policy_net_cache_clear(void)
{
    pthread_once(&cache_once, cache_init);
    for (size_t i = 0; cache && i < CACHE_ENTRIES; i++) {
        pthread_mutex_lock(&cache_lock[i % CACHE_STRIPES]);
        cache[i].key = 0;
        pthread_mutex_unlock(&cache_lock[i % CACHE_STRIPES]);
    }
}

void policy_net_cache_stats(uint64_t *hits, uint64_t *misses)
{
    *hits = atomic_load_explicit(&cache_hits, memory_order_relaxed);
    *misses = atomic_load_explicit(&cache_misses, memory_order_relaxed);
}

/* ---- reading ----------------------------------------------------------------------------- */

struct policy_net_file {
    policy_net net;
    weights_file *w; /* owns the tensors the net points into */
};

static const float *tensor(const weights_file *w, const char *name, int rank, const uint32_t *dims, char *err,
                           size_t errlen)
{
    const weights_tensor *t = weights_get(w, name, WEIGHTS_F32, rank, dims, err, errlen);
    return t ? t->data : NULL;
}

static bool net_from_weights(const weights_file *w, policy_net *net, char *err, size_t errlen)
{
    memset(net, 0, sizeof *net);
    if (w->kind != WEIGHTS_POLICY_NET || w->size < 2 || w->size > TG_MAX_SIZE) {
        snprintf(err, errlen, "weights: not a policy network for one board size");
        return false;
    }
    const weights_tensor *bw =
        weights_get(w, "block_w", WEIGHTS_F32, 4, (const uint32_t[]){0, 9, C, C}, err, errlen);
    const weights_tensor *v2 = bw ? weights_get(w, "v2_w", WEIGHTS_F32, 1, (const uint32_t[]){0}, err, errlen) : NULL;
    if (!bw || !v2)
        return false;
    uint32_t blocks = bw->dims[0], hidden = v2->dims[0], c = C, one = 1;
    if (blocks > POLICY_MAX_BLOCKS || hidden < 1 || hidden > POLICY_MAX_HIDDEN) {
        snprintf(err, errlen, "weights: %u blocks and %u hidden units (at most %d and %d)", blocks, hidden,
                 POLICY_MAX_BLOCKS, POLICY_MAX_HIDDEN);
        return false;
    }
    net->size = w->size;
    net->blocks = (int)blocks;
    net->hidden = (int)hidden;
    net->block_w = bw->data;
    net->v2_w = v2->data;
    if (!(net->in_w = tensor(w, "in_w", 4, (const uint32_t[]){3, 3, P, C}, err, errlen)) ||
        !(net->in_b = tensor(w, "in_b", 1, &c, err, errlen)) ||
        !(net->block_b = tensor(w, "block_b", 2, (const uint32_t[]){blocks, C}, err, errlen)) ||
        !(net->pol_w = tensor(w, "pol_w", 1, &c, err, errlen)) ||
        !(net->pol_b = tensor(w, "pol_b", 1, &one, err, errlen)) ||
        !(net->pass_w = tensor(w, "pass_w", 1, &c, err, errlen)) ||
        !(net->pass_b = tensor(w, "pass_b", 1, &one, err, errlen)) ||
        !(net->v1_w = tensor(w, "v1_w", 2, (const uint32_t[]){C, hidden}, err, errlen)) ||
        !(net->v1_b = tensor(w, "v1_b", 1, &hidden, err, errlen)) ||
        !(net->v2_b = tensor(w, "v2_b", 1, &one, err, errlen)))
        return false;
    return true;
}

policy_net_file *policy_net_load(const uint8_t *data, size_t len, char *err, size_t errlen)
{
    policy_net_file *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (weights_parse(data, len, &f->w, err, errlen) != TG_OK) {
        free(f);
        return NULL;
    }
    if (!net_from_weights(f->w, &f->net, err, errlen)) {
        policy_net_free(f);
        return NULL;
    }
    return f;
}

const policy_net *policy_net_of(const policy_net_file *f)
{
    return &f->net;
}

void policy_net_free(policy_net_file *f)
{
    if (!f)
        return;
    weights_free(f->w);
    free(f);
}

/* ---- in use ------------------------------------------------------------------------------ */

#define MAX_NETS 8
static policy_net_file *given[MAX_NETS], *builtin[MAX_NETS];
static int given_count, builtin_count;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;
static bool in_use, none;

static void load_builtin(void)
{
    static const char *const names[] = {"policy19.tgw"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const weights_blob *blob = weights_embedded(names[i]);
        char err[160];
        policy_net_file *f = blob ? policy_net_load(blob->data, blob->length, err, sizeof err) : NULL;
        if (f)
            builtin[builtin_count++] = f;
    }
    in_use = true;
}

tg_status tg_search_use_policy_net(const uint8_t *data, size_t len, char *err, size_t errlen)
{
    if (in_use) {
        snprintf(err, errlen, "the policy networks are already in use: give one before any search");
        return TG_ERR_NOT_ALLOWED;
    }
    if (!data) { /* off: none, not even the built-in ones */
        none = true;
        return TG_OK;
    }
    if (given_count == MAX_NETS) {
        snprintf(err, errlen, "at most %d policy networks", MAX_NETS);
        return TG_ERR_INVALID;
    }
    policy_net_file *f = policy_net_load(data, len, err, errlen);
    if (!f)
        return TG_ERR_PARSE;
    given[given_count++] = f;
    return TG_OK;
}

const policy_net *policy_net_for(int size)
{
    pthread_once(&builtin_once, load_builtin);
    if (none)
        return NULL;
    for (int i = 0; i < given_count; i++)
        if (given[i]->net.size == size)
            return &given[i]->net;
    for (int i = 0; i < builtin_count; i++)
        if (builtin[i]->net.size == size)
            return &builtin[i]->net;
    return NULL;
}
