/*
 * model.c — the learned move model: a candidate's strength (gamma) is the
 * product of the weights of its features (features.c), learned from game
 * records by tools/train_model; a move's probability among the candidates
 * is its strength over their sum.  The tree's priors use it (tree.c).
 *
 * Two tables: model_main, learned from professional 19x19 games, and for
 * the small boards model_small, whose weights multiply model_main's: they
 * were learned on 9x9, with model_main's strengths held fixed, from the
 * moves tengen's own long searches chose (a search distilled into its
 * prior, which is what the short searches lack).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model.h"
#include "engine/model_data.h"
#include "engine/weights.h"
#include "tactics/tactics.h"
#include "tengen/search.h"

/* A table's lookup structures: every shape key (2^20) to its entry plus
 * one (0: a rare shape), and every symmetric image of every wide shape in
 * an open-addressing hash table (linear probing, at most half full), so
 * that a candidate's key is looked up as seen, without the eight
 * transforms.  A slot packs the 48-bit key with the shape's index (16
 * bits): eight bytes a slot keeps the table small for the cache. */
typedef struct model_index {
    const model_table *table;
    uint16_t shape_index[1u << 20];
    uint64_t *wide_table;
    uint64_t wide_mask;
} model_index;

#define WIDE_EMPTY UINT64_MAX /* no key has its top 16 bits set */
#define WIDE_KEY_BITS 48
#define WIDE_KEY_MASK ((1ull << WIDE_KEY_BITS) - 1)
static model_index indexes[2];
static pthread_once_t model_once = PTHREAD_ONCE_INIT;
/* the two tables: built in, or given before the first search */
static model_table tables[2];
static bool table_given[2], initialised;

static inline uint64_t wide_hash(uint64_t key)
{
    key *= 0x9e3779b97f4a7c15ull;
    return key ^ key >> 29;
}

static void build_wide_table(model_index *x)
{
    const model_table *m = x->table;
    if (m->wide_count >= 65535)
        return; /* the index would not fit: every wide shape gets the rare weight */
    uint64_t size = 16;
    while (size < 16 * (uint64_t)m->wide_count)
        size *= 2;
    x->wide_table = malloc(size * sizeof *x->wide_table);
    if (!x->wide_table)
        return;
    x->wide_mask = size - 1;
    for (uint64_t i = 0; i < size; i++)
        x->wide_table[i] = WIDE_EMPTY;
    for (int i = 0; i < m->wide_count; i++)
        for (int t = 0; t < 8; t++) {
            uint64_t key = features_wide_transform(m->wides[i].key, t);
            uint64_t h = wide_hash(key) & x->wide_mask;
            while (x->wide_table[h] != WIDE_EMPTY && (x->wide_table[h] & WIDE_KEY_MASK) != key)
                h = (h + 1) & x->wide_mask;
            x->wide_table[h] = key | (uint64_t)i << WIDE_KEY_BITS;
        }
}

static void build_index(model_index *x, const model_table *m)
{
    free(x->wide_table);
    x->wide_table = NULL;
    x->table = m;
    for (int i = 0; i < m->shape_count && i < 65535; i++)
        for (int t = 0; t < 8; t++)
            x->shape_index[features_shape_transform(m->shapes[i].key, t)] = (uint16_t)(i + 1);
    build_wide_table(x);
}

bool model_table_from_weights(const weights_file *w, model_table *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (w->kind != WEIGHTS_MOVE_MODEL) {
        snprintf(err, errlen, "weights: not a move model");
        return false;
    }
    uint32_t any = 0, one = 1, groups[2] = {FEATURE_GROUPS, MODEL_MAX_VALUES};
    const weights_tensor *sk = weights_get(w, "shape_keys", WEIGHTS_U32, 1, &any, err, errlen);
    const weights_tensor *sg = sk ? weights_get(w, "shape_gammas", WEIGHTS_F32, 1, sk->dims, err, errlen) : NULL;
    const weights_tensor *sr = sg ? weights_get(w, "rare_shape_gamma", WEIGHTS_F32, 1, &one, err, errlen) : NULL;
    const weights_tensor *wk = sr ? weights_get(w, "wide_keys", WEIGHTS_U64, 1, &any, err, errlen) : NULL;
    const weights_tensor *wg = wk ? weights_get(w, "wide_gammas", WEIGHTS_F32, 1, wk->dims, err, errlen) : NULL;
    const weights_tensor *wr = wg ? weights_get(w, "rare_wide_gamma", WEIGHTS_F32, 1, &one, err, errlen) : NULL;
    const weights_tensor *gg = wr ? weights_get(w, "group_gammas", WEIGHTS_F32, 2, groups, err, errlen) : NULL;
    if (!gg)
        return false;
    model_shape *shapes = malloc((sk->count ? sk->count : 1) * sizeof *shapes);
    model_wide *wides = malloc((wk->count ? wk->count : 1) * sizeof *wides);
    float (*group)[MODEL_MAX_VALUES] = malloc(sizeof(float[FEATURE_GROUPS][MODEL_MAX_VALUES]));
    if (!shapes || !wides || !group) {
        free(shapes);
        free(wides);
        free(group);
        snprintf(err, errlen, "weights: out of memory");
        return false;
    }
    for (size_t i = 0; i < sk->count; i++)
        shapes[i] = (model_shape){((const uint32_t *)sk->data)[i], ((const float *)sg->data)[i]};
    for (size_t i = 0; i < wk->count; i++)
        wides[i] = (model_wide){((const uint64_t *)wk->data)[i], ((const float *)wg->data)[i]};
    memcpy(group, gg->data, sizeof(float[FEATURE_GROUPS][MODEL_MAX_VALUES]));
    out->shape_count = (int)sk->count;
    out->rare_shape_gamma = *(const float *)sr->data;
    out->shapes = shapes;
    out->wide_count = (int)wk->count;
    out->rare_wide_gamma = *(const float *)wr->data;
    out->wides = wides;
    out->group_gammas = (const float (*)[MODEL_MAX_VALUES])group;
    return true;
}

void model_table_free(model_table *t)
{
    free((void *)t->shapes);
    free((void *)t->wides);
    free((void *)t->group_gammas);
    memset(t, 0, sizeof *t);
}

static bool table_from_bytes(const uint8_t *data, size_t len, model_table *out, char *err,
                             size_t errlen)
{
    weights_file *w = NULL;
    if (weights_parse(data, len, &w, err, errlen) != TG_OK)
        return false;
    bool ok = model_table_from_weights(w, out, err, errlen);
    weights_free(w);
    return ok;
}

/* The built-in tables; a file that fails to load (it is checked at build
 * time by test_weights_golden, so it never does) leaves an empty table:
 * every move then has the rare weights. */
static void build_indexes(void)
{
    static const char *const builtin[2] = {"model_main.tgw", "model_small9.tgw"};
    for (int i = 0; i < 2; i++) {
        char err[160];
        const weights_blob *blob = weights_embedded(builtin[i]);
        if (!table_given[i] && blob)
            table_from_bytes(blob->data, blob->length, &tables[i], err, sizeof err);
        build_index(&indexes[i], &tables[i]);
    }
    initialised = true;
}

tg_status tg_search_use_model(const uint8_t *data, size_t len, char *err, size_t errlen)
{
    if (initialised) {
        snprintf(err, errlen, "the move model is already in use: give it before any search");
        return TG_ERR_NOT_ALLOWED;
    }
    weights_file *w = NULL;
    if (weights_parse(data, len, &w, err, errlen) != TG_OK)
        return TG_ERR_PARSE;
    int which = w->size == 0 ? 0 : 1;
    if (which == 1 && w->size > MODEL_SMALL_MAX_SIZE) {
        weights_free(w);
        snprintf(err, errlen, "weights: a move model for one size must be for a small board");
        return TG_ERR_INVALID;
    }
    model_table t;
    bool ok = model_table_from_weights(w, &t, err, errlen);
    weights_free(w);
    if (!ok)
        return TG_ERR_INVALID;
    model_table_free(&tables[which]);
    tables[which] = t;
    table_given[which] = true;
    return TG_OK;
}

const model_table *model_table_main(void)
{
    model_init();
    return &tables[0];
}
const model_table *model_table_small(void)
{
    model_init();
    return &tables[1];
}

void model_init(void)
{
    pthread_once(&model_once, build_indexes);
}

static float wide_gamma(const model_index *x, uint64_t key)
{
    if (!x->wide_table)
        return x->table->rare_wide_gamma;
    for (uint64_t h = wide_hash(key) & x->wide_mask;; h = (h + 1) & x->wide_mask) {
        uint64_t slot = x->wide_table[h];
        if (slot == WIDE_EMPTY)
            return x->table->rare_wide_gamma;
        if ((slot & WIDE_KEY_MASK) == key)
            return x->table->wides[slot >> WIDE_KEY_BITS].gamma;
    }
}

static float table_gamma(const model_index *x, const move_features *f)
{
    unsigned i = x->shape_index[f->shape_key & ((1u << 20) - 1)];
    float g = i ? x->table->shapes[i - 1].gamma : x->table->rare_shape_gamma;
    g *= wide_gamma(x, f->wide_key);
    for (int k = 0; k < FEATURE_GROUPS; k++)
        g *= x->table->group_gammas[k][f->value[k]];
    return g;
}

float model_wide_gamma(uint64_t key)
{
    model_init();
    return wide_gamma(&indexes[0], key);
}

float model_gamma(const move_features *f)
{
    return table_gamma(&indexes[0], f);
}

float model_gamma_for(const move_features *f, int board_size)
{
    float g = table_gamma(&indexes[0], f);
    return board_size <= MODEL_SMALL_MAX_SIZE ? g * table_gamma(&indexes[1], f) : g;
}

int model_candidates(const tg_board *b, tg_color c, tg_point last2, tg_point *moves, float *gamma)
{
    tg_point fight[10];
    int fights = tactics_two_liberty_moves(b, c, fight), n = 0;
    features_board fb;
    features_board_init(&fb, b);
    for (int i = 0; i < b->empty_count; i++) {
        tg_point p = b->empty[i];
        if (!tactics_move_ok(b, p, c))
            continue;
        move_features f;
        features_compute(b, &fb, p, c, last2, fight, fights, &f);
        moves[n] = p;
        gamma[n++] = model_gamma_for(&f, b->size);
    }
    return n;
}
