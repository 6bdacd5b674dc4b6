/*
 * model.c — the learned move model: a candidate's strength (gamma) is the
 * product of the weights of its features (features.c), learned from game
 * records by tools/train_model; a move's probability among the candidates
 * is its strength over their sum.  The tree's priors use it (tree.c).
 */
#include <pthread.h>

#include "engine/model_data.h"

/* Every shape key (2^20) to its entry in model_shapes, plus one; 0 for a
 * rare shape. */
static uint16_t shape_index[1u << 20];
static pthread_once_t model_once = PTHREAD_ONCE_INIT;

static void build_index(void)
{
    for (int i = 0; i < model_shape_count && i < 65535; i++)
        for (int t = 0; t < 8; t++)
            shape_index[features_shape_transform(model_shapes[i].key, t)] = (uint16_t)(i + 1);
}

void model_init(void)
{
    pthread_once(&model_once, build_index);
}

float model_gamma(const move_features *f)
{
    unsigned i = shape_index[f->shape_key & ((1u << 20) - 1)];
    float g = i ? model_shapes[i - 1].gamma : model_rare_shape_gamma;
    for (int k = 0; k < FEATURE_GROUPS; k++)
        g *= model_group_gammas[k][f->value[k]];
    return g;
}
