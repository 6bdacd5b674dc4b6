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
#include <stdlib.h>

#include "engine/model_data.h"

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
    x->table = m;
    for (int i = 0; i < m->shape_count && i < 65535; i++)
        for (int t = 0; t < 8; t++)
            x->shape_index[features_shape_transform(m->shapes[i].key, t)] = (uint16_t)(i + 1);
    build_wide_table(x);
}

static void build_indexes(void)
{
    build_index(&indexes[0], &model_main);
    build_index(&indexes[1], &model_small);
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
