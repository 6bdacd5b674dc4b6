/*
 * value_net.c — the value networks in use: read from weights files
 * (engine/weights.h) into value_net (value.h), the built-in data/value9.tgw
 * and any given by tg_search_use_value_net, chosen by board size and komi.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "engine/value.h"
#include "engine/weights.h"
#include "tengen/search.h"

#define MAX_NETS 8

typedef struct loaded_net {
    value_net net;
    weights_file *file; /* owns the tensors the net points into */
} loaded_net;

/* given[] first (in the order given), then the built-in ones */
static loaded_net given[MAX_NETS], builtin[MAX_NETS];
static int given_count, builtin_count;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;
static bool in_use;

static const float *tensor(const weights_file *w, const char *name, int rank, const uint32_t *dims,
                           char *err, size_t errlen)
{
    const weights_tensor *t = weights_get(w, name, WEIGHTS_F32, rank, dims, err, errlen);
    return t ? t->data : NULL;
}

/* The net of a weights file, pointing into it; false with err. */
static bool net_from_weights(const weights_file *w, value_net *net, char *err, size_t errlen)
{
    memset(net, 0, sizeof *net);
    if (w->kind != WEIGHTS_VALUE_NET || w->size < 2 || w->komi2 == WEIGHTS_ANY_KOMI) {
        snprintf(err, errlen, "weights: not a value network for one board size and komi");
        return false;
    }
    const uint32_t C = VALUE_CHANNELS, one = 1;
    const weights_tensor *bw = weights_get(w, "block_w", WEIGHTS_F32, 4, (const uint32_t[]){0, 9, C, C},
                                           err, errlen);
    const weights_tensor *v2 = bw ? weights_get(w, "v2_w", WEIGHTS_F32, 1, (const uint32_t[]){0}, err, errlen)
                                  : NULL;
    if (!bw || !v2)
        return false;
    uint32_t blocks = bw->dims[0], hidden = v2->dims[0];
    net->size = w->size;
    net->komi2 = w->komi2;
    net->blocks = (int)blocks;
    net->hidden = (int)hidden;
    net->block_w = bw->data;
    net->v2_w = v2->data;
    net->in_w = tensor(w, "in_w", 4, (const uint32_t[]){3, 3, VALUE_PLANES, C}, err, errlen);
    net->in_b = net->in_w ? tensor(w, "in_b", 1, &C, err, errlen) : NULL;
    net->block_b = net->in_b ? tensor(w, "block_b", 2, (const uint32_t[]){blocks, C}, err, errlen) : NULL;
    net->own_w = net->block_b ? tensor(w, "own_w", 1, &C, err, errlen) : NULL;
    net->own_b = net->own_w ? tensor(w, "own_b", 1, &one, err, errlen) : NULL;
    net->v1_w = net->own_b ? tensor(w, "v1_w", 2, (const uint32_t[]){C + 1, hidden}, err, errlen) : NULL;
    net->v1_b = net->v1_w ? tensor(w, "v1_b", 1, &hidden, err, errlen) : NULL;
    net->v2_b = net->v1_b ? tensor(w, "v2_b", 1, &one, err, errlen) : NULL;
    const float *margin = net->v2_b ? tensor(w, "margin_w", 1, &one, err, errlen) : NULL;
    if (!margin)
        return false;
    net->margin_w = *margin;
    return true;
}

static bool load(const uint8_t *data, size_t len, loaded_net *out, char *err, size_t errlen)
{
    weights_file *w = NULL;
    if (weights_parse(data, len, &w, err, errlen) != TG_OK)
        return false;
    if (!net_from_weights(w, &out->net, err, errlen)) {
        weights_free(w);
        return false;
    }
    out->file = w;
    return true;
}

static void load_builtin(void)
{
    static const char *const names[] = {"value9.tgw"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const weights_blob *blob = weights_embedded(names[i]);
        char err[160];
        if (blob && load(blob->data, blob->length, &builtin[builtin_count], err, sizeof err))
            builtin_count++;
    }
    in_use = true;
}

tg_status tg_search_use_value_net(const uint8_t *data, size_t len, char *err, size_t errlen)
{
    if (in_use) {
        snprintf(err, errlen, "the value networks are already in use: give one before any search");
        return TG_ERR_NOT_ALLOWED;
    }
    if (given_count == MAX_NETS) {
        snprintf(err, errlen, "at most %d value networks", MAX_NETS);
        return TG_ERR_INVALID;
    }
    if (!load(data, len, &given[given_count], err, errlen))
        return TG_ERR_PARSE;
    given_count++;
    return TG_OK;
}

const value_net *value_net_for(int size, int komi2)
{
    pthread_once(&builtin_once, load_builtin);
    for (int i = 0; i < given_count; i++)
        if (given[i].net.size == size && given[i].net.komi2 == komi2)
            return &given[i].net;
    for (int i = 0; i < builtin_count; i++)
        if (builtin[i].net.size == size && builtin[i].net.komi2 == komi2)
            return &builtin[i].net;
    return NULL;
}
