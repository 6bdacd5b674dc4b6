/*
 * fuzz_weights.c — the one reader of learned weights (engine/weights.h)
 * under a fuzzer: any bytes are read or refused with a message, never
 * read past their end; what is read is written back by the writer to the
 * same bytes, and a move model's tables are built from it when it is one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model_data.h"
#include "engine/weights.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    weights_file *w = NULL;
    char err[200];
    if (weights_parse(data, size, &w, err, sizeof err) != TG_OK) {
        if (w || !err[0])
            abort();
        return 0;
    }
    weights_writer wr;
    weights_writer_begin(&wr, w->kind, w->size, w->komi2);
    for (int i = 0; i < w->count; i++) {
        const weights_tensor *t = &w->tensors[i];
        weights_writer_add(&wr, t->name, t->type, t->rank, t->dims, t->data);
    }
    size_t len = 0;
    uint8_t *back = weights_writer_end(&wr, &len);
    if (!back || len != size || memcmp(back, data, size) != 0)
        abort();
    free(back);
    model_table table;
    if (model_table_from_weights(w, &table, err, sizeof err))
        model_table_free(&table);
    weights_free(w);
    return 0;
}
