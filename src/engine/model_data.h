/*
 * model_data.h — the learned weights of the move model, as
 * tools/train_model writes them into model_data.c.
 */
#ifndef TENGEN_ENGINE_MODEL_DATA_H
#define TENGEN_ENGINE_MODEL_DATA_H

#include "engine/engine_internal.h"

#define MODEL_MAX_VALUES 17

typedef struct model_shape {
    uint32_t key;  /* canonical shape key (features_shape_canonical) */
    float gamma;
} model_shape;

typedef struct model_wide {
    uint64_t key;  /* canonical wide key (features_wide_canonical) */
    float gamma;
} model_wide;

/* One table of weights: a candidate's strength is the product of its
 * shape's, its wide shape's and its features' values' weights. */
typedef struct model_table {
    int shape_count;
    float rare_shape_gamma;  /* a shape not in the table */
    const model_shape *shapes;
    int wide_count;
    float rare_wide_gamma;   /* a wide shape not in the table */
    const model_wide *wides;
    const float (*group_gammas)[MODEL_MAX_VALUES];
} model_table;

/* Learned from professional 19x19 games (model_data.c). */
extern const model_table model_main;
/* Corrections to model_main for the small boards, learned from the moves
 * of tengen's own long searches on 9x9 (model_data9.c). */
extern const model_table model_small;

#endif
