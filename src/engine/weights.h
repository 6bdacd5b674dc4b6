/*
 * weights.h — learned weights as data: one versioned binary format, read
 * by one loader, for every kind of network tengen learns (the move model's
 * tables, the value function; a policy network later).  The files live
 * under data/ and are embedded into the binary at build time, so tengen
 * stays self-contained; --model FILE and --value-net FILE read others.
 *
 * The format, little-endian throughout:
 *
 *     magic        "TGWT"
 *     version      u32   (1)
 *     kind         u32   WEIGHTS_MOVE_MODEL, WEIGHTS_VALUE_NET or WEIGHTS_POLICY_NET
 *     board size   i32   (0: any)
 *     komi2        i32   komi in half points (WEIGHTS_ANY_KOMI: any)
 *     tensors      u32   count, then each tensor:
 *         name     u8 length, then that many bytes (no NUL)
 *         type     u8    WEIGHTS_F32, WEIGHTS_U32 or WEIGHTS_U64
 *         rank     u8    0..4, then rank u32 dimensions
 *         data     the product of the dimensions elements of the type
 *     (nothing after the last tensor)
 *
 * A file that breaks any of this, by a byte, is refused with a message
 * saying where; the kind's own reader (model.c, value.c) then checks that
 * the tensors it needs are there with the shapes it computes with.
 */
#ifndef TENGEN_ENGINE_WEIGHTS_H
#define TENGEN_ENGINE_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tengen/common.h"

#define WEIGHTS_VERSION 1
#define WEIGHTS_ANY_KOMI INT32_MIN
#define WEIGHTS_MAX_RANK 4

typedef enum weights_kind { WEIGHTS_MOVE_MODEL = 1, WEIGHTS_VALUE_NET = 2, WEIGHTS_POLICY_NET = 3 } weights_kind;
typedef enum weights_type { WEIGHTS_F32 = 1, WEIGHTS_U32 = 2, WEIGHTS_U64 = 3 } weights_type;

typedef struct weights_tensor {
    char name[64];
    weights_type type;
    int rank;
    uint32_t dims[WEIGHTS_MAX_RANK];
    size_t count;             /* elements */
    void *data;               /* malloc'd, aligned for the type (and to 32 bytes) */
} weights_tensor;

typedef struct weights_file {
    weights_kind kind;
    int size;
    int komi2;
    int count;
    weights_tensor *tensors;
} weights_file;

/* Read a whole file's bytes.  On error *out is NULL and err says why. */
tg_status weights_parse(const uint8_t *data, size_t len, weights_file **out, char *err,
                        size_t errlen);
void weights_free(weights_file *w);
/* The tensor of that name and type with exactly these dimensions (rank
 * given; a dims entry of 0 accepts any length there), or NULL with err. */
const weights_tensor *weights_get(const weights_file *w, const char *name, weights_type type,
                                  int rank, const uint32_t *dims, char *err, size_t errlen);

/* Writing, for the training tools: a header, then tensors appended. */
typedef struct weights_writer {
    uint8_t *data;
    size_t len, cap;
    uint32_t count;
    bool failed;
} weights_writer;
void weights_writer_begin(weights_writer *wr, weights_kind kind, int size, int komi2);
void weights_writer_add(weights_writer *wr, const char *name, weights_type type, int rank,
                        const uint32_t *dims, const void *data);
/* The bytes (malloc'd, *len), or NULL when out of memory. */
uint8_t *weights_writer_end(weights_writer *wr, size_t *len);

/* The files built into the binary (data/NAME.tgw), by name ("value9.tgw"). */
typedef struct weights_blob {
    const char *name;
    const uint8_t *data;
    size_t length;
} weights_blob;
const weights_blob *weights_embedded(const char *name);

#endif
