/*
 * model.c — the learned move model: a candidate's strength (gamma) is the
 * product of the weights of its features (features.c), learned from game
 * records by tools/train_model; a move's probability among the candidates
 * is its strength over their sum.  The tree's priors use it (tree.c).
 */
#include <pthread.h>
#include <stdlib.h>

#include "engine/model_data.h"

/* Every shape key (2^20) to its entry in model_shapes, plus one; 0 for a
 * rare shape. */
static uint16_t shape_index[1u << 20];
static pthread_once_t model_once = PTHREAD_ONCE_INIT;

/* Every symmetric image of every wide shape of the table, in an
 * open-addressing hash table (linear probing, at most half full), so that a
 * candidate's key is looked up as seen, without the eight transforms.  A
 * slot packs the 48-bit key with the shape's index in model_wides (16 bits):
 * eight bytes a slot keeps the table small for the cache. */
#define WIDE_EMPTY UINT64_MAX /* no key has its top 16 bits set */
#define WIDE_KEY_BITS 48
#define WIDE_KEY_MASK ((1ull << WIDE_KEY_BITS) - 1)
static uint64_t *wide_table;
static uint64_t wide_mask;

static inline uint64_t wide_hash(uint64_t key)
{
    key *= 0x9e3779b97f4a7c15ull;
    return key ^ key >> 29;
}

static void build_wide_table(void)
{
    if (model_wide_count >= 65535)
        return; /* the index would not fit: every wide shape gets the rare weight */
    uint64_t size = 16;
    while (size < 16 * (uint64_t)model_wide_count)
        size *= 2;
    wide_table = malloc(size * sizeof *wide_table);
    if (!wide_table)
        return;
    wide_mask = size - 1;
    for (uint64_t i = 0; i < size; i++)
        wide_table[i] = WIDE_EMPTY;
    for (int i = 0; i < model_wide_count; i++)
        for (int t = 0; t < 8; t++) {
            uint64_t key = features_wide_transform(model_wides[i].key, t);
            uint64_t h = wide_hash(key) & wide_mask;
            while (wide_table[h] != WIDE_EMPTY && (wide_table[h] & WIDE_KEY_MASK) != key)
                h = (h + 1) & wide_mask;
            wide_table[h] = key | (uint64_t)i << WIDE_KEY_BITS;
        }
}

static void build_index(void)
{
    for (int i = 0; i < model_shape_count && i < 65535; i++)
        for (int t = 0; t < 8; t++)
            shape_index[features_shape_transform(model_shapes[i].key, t)] = (uint16_t)(i + 1);
    build_wide_table();
}

void model_init(void)
{
    pthread_once(&model_once, build_index);
}

float model_wide_gamma(uint64_t key)
{
    if (!wide_table)
        return model_rare_wide_gamma;
    for (uint64_t h = wide_hash(key) & wide_mask;; h = (h + 1) & wide_mask) {
        uint64_t slot = wide_table[h];
        if (slot == WIDE_EMPTY)
            return model_rare_wide_gamma;
        if ((slot & WIDE_KEY_MASK) == key)
            return model_wides[slot >> WIDE_KEY_BITS].gamma;
    }
}

float model_gamma(const move_features *f)
{
    unsigned i = shape_index[f->shape_key & ((1u << 20) - 1)];
    float g = i ? model_shapes[i - 1].gamma : model_rare_shape_gamma;
    g *= model_wide_gamma(f->wide_key);
    for (int k = 0; k < FEATURE_GROUPS; k++)
        g *= model_group_gammas[k][f->value[k]];
    return g;
}
