/*
 * model_data.h — the move model's tables, read from weights files
 * (engine/weights.h, kind WEIGHTS_MOVE_MODEL) that tools/train_model
 * writes: data/model_main.tgw (board size 0: every board) and
 * data/model_small9.tgw (size 9: the small boards' corrections).
 *
 * Tensors: shape_keys u32[n] (canonical, ascending), shape_gammas f32[n],
 * rare_shape_gamma f32[1], wide_keys u64[m] (canonical, ascending),
 * wide_gammas f32[m], rare_wide_gamma f32[1], and group_gammas
 * f32[FEATURE_GROUPS][MODEL_MAX_VALUES].
 */
#ifndef TENGEN_ENGINE_MODEL_DATA_H
#define TENGEN_ENGINE_MODEL_DATA_H

#include "engine/features.h"
#include "engine/weights.h"

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

/* The table in use for every board (learned from professional 19x19
 * games), and the small boards' corrections to it (learned from the moves
 * of tengen's own long searches on 9x9).  After model_init. */
const model_table *model_table_main(void);
const model_table *model_table_small(void);

/* A table from a weights file (its arrays malloc'd); false with err. */
bool model_table_from_weights(const weights_file *w, model_table *out, char *err,
                              size_t errlen);
void model_table_free(model_table *t);

#endif
