/*
 * fuzz_weights.c — the one reader of learned weights (engine/weights.h)
 * under a fuzzer: any bytes are read or refused with a message, never
 * read past their end; what is read is written back by the writer to the
 * same bytes, and a move model's tables are built from it when it is one;
 * a policy network is read from it when it is one and evaluated once on
 * the empty board (its tensors' shapes checked before any is used).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model_data.h"
#include "engine/policy_net.h"
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
    policy_net_file *pf = policy_net_load(data, size, err, sizeof err);
    if (pf) {
        const policy_net *net = policy_net_of(pf);
        static float planes[TG_MAX_SIZE * TG_MAX_SIZE * POLICY_PLANES], logits[TG_MAX_SIZE * TG_MAX_SIZE];
        tg_board b;
        tg_board_init(&b, net->size);
        policy_net_planes(&b, TG_BLACK, TG_NO_POINT, planes);
        float pass, win;
        policy_net_eval(net, planes, net->size, 0, logits, &pass, &win, true);
        policy_net_free(pf);
    } else if (!err[0]) {
        abort();
    }
    return 0;
}
