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

extern const int model_shape_count;
extern const float model_rare_shape_gamma;   /* a shape not in the table */
extern const model_shape model_shapes[];
extern const int model_wide_count;
extern const float model_rare_wide_gamma;    /* a wide shape not in the table */
extern const model_wide model_wides[];
extern const float model_group_gammas[FEATURE_GROUPS][MODEL_MAX_VALUES];

#endif
