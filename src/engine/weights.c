/*
 * weights.c — the one reader (and writer) of the weights format of
 * weights.h.  The reader trusts nothing: every length is checked against
 * what is left of the input before it is used, and sizes are bounded so
 * that no product overflows.
 */
#include "engine/weights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TENSORS 4096
#define MAX_ELEMENTS (64u * 1024 * 1024)

typedef struct reader {
    const uint8_t *p, *end;
    char *err;
    size_t errlen;
    const uint8_t *base;
} reader;

static bool fail(reader *r, const char *what)
{
    snprintf(r->err, r->errlen, "weights: %s at byte %zu", what, (size_t)(r->p - r->base));
    return false;
}

static bool take(reader *r, void *out, size_t n, const char *what)
{
    if ((size_t)(r->end - r->p) < n)
        return fail(r, what);
    memcpy(out, r->p, n);
    r->p += n;
    return true;
}

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static bool take_u32(reader *r, uint32_t *out, const char *what)
{
    uint8_t b[4];
    if (!take(r, b, 4, what))
        return false;
    *out = le32(b);
    return true;
}

static size_t type_size(weights_type t) { return t == WEIGHTS_U64 ? 8 : 4; }

static bool read_tensor(reader *r, weights_tensor *t)
{
    uint8_t name_len, type, rank;
    if (!take(r, &name_len, 1, "a truncated tensor name") || name_len == 0 ||
        name_len >= sizeof t->name)
        return fail(r, "a tensor name of a bad length");
    if (!take(r, t->name, name_len, "a truncated tensor name"))
        return false;
    t->name[name_len] = '\0';
    if (memchr(t->name, '\0', name_len))
        return fail(r, "a tensor name with a NUL");
    if (!take(r, &type, 1, "a truncated tensor type") || type < WEIGHTS_F32 || type > WEIGHTS_U64)
        return fail(r, "an unknown tensor type");
    if (!take(r, &rank, 1, "a truncated tensor rank") || rank > WEIGHTS_MAX_RANK)
        return fail(r, "a tensor of too many dimensions");
    t->type = (weights_type)type;
    t->rank = rank;
    t->count = 1;
    for (int i = 0; i < rank; i++) {
        if (!take_u32(r, &t->dims[i], "a truncated dimension"))
            return false;
        if (t->dims[i] > MAX_ELEMENTS || t->count * t->dims[i] > MAX_ELEMENTS)
            return fail(r, "a tensor too large");
        t->count *= t->dims[i];
    }
    size_t bytes = t->count * type_size(t->type);
    if ((size_t)(r->end - r->p) < bytes)
        return fail(r, "a truncated tensor");
    /* 32-byte alignment for the vectorised loops that read the tensors */
    t->data = aligned_alloc(32, (bytes + 31) / 32 * 32 + 32);
    if (!t->data)
        return fail(r, "out of memory");
    const uint8_t *src = r->p;
    for (size_t i = 0; i < t->count; i++) {
        if (t->type == WEIGHTS_U64) {
            uint64_t v = (uint64_t)le32(src + 8 * i) | (uint64_t)le32(src + 8 * i + 4) << 32;
            ((uint64_t *)t->data)[i] = v;
        } else {
            uint32_t v = le32(src + 4 * i);
            memcpy((uint8_t *)t->data + 4 * i, &v, 4);
        }
    }
    r->p += bytes;
    return true;
}

tg_status weights_parse(const uint8_t *data, size_t len, weights_file **out, char *err,
                        size_t errlen)
{
    *out = NULL;
    reader r = {data, data + len, err, errlen, data};
    uint8_t magic[4];
    uint32_t version, kind, size, komi2, count;
    if (!take(&r, magic, 4, "no header") || memcmp(magic, "TGWT", 4) != 0)
        return fail(&r, "not a tengen weights file (no TGWT)"), TG_ERR_PARSE;
    if (!take_u32(&r, &version, "a truncated header") || !take_u32(&r, &kind, "a truncated header") ||
        !take_u32(&r, &size, "a truncated header") || !take_u32(&r, &komi2, "a truncated header") ||
        !take_u32(&r, &count, "a truncated header"))
        return TG_ERR_PARSE;
    if (version != WEIGHTS_VERSION)
        return fail(&r, "a format version this tengen does not read"), TG_ERR_PARSE;
    if (kind != WEIGHTS_MOVE_MODEL && kind != WEIGHTS_VALUE_NET && kind != WEIGHTS_POLICY_NET)
        return fail(&r, "an unknown kind of weights"), TG_ERR_PARSE;
    if ((int32_t)size < 0 || (int32_t)size > TG_MAX_SIZE)
        return fail(&r, "a board size out of range"), TG_ERR_PARSE;
    if (count > MAX_TENSORS)
        return fail(&r, "too many tensors"), TG_ERR_PARSE;
    weights_file *w = calloc(1, sizeof *w);
    if (!w || !(w->tensors = calloc(count ? count : 1, sizeof *w->tensors))) {
        free(w);
        return fail(&r, "out of memory"), TG_ERR_NO_MEMORY;
    }
    w->kind = (weights_kind)kind;
    w->size = (int32_t)size;
    w->komi2 = (int32_t)komi2;
    for (uint32_t i = 0; i < count; i++) {
        if (!read_tensor(&r, &w->tensors[i])) {
            free(w->tensors[i].data);
            weights_free(w);
            return TG_ERR_PARSE;
        }
        w->count++;
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(w->tensors[j].name, w->tensors[i].name) == 0) {
                weights_free(w);
                return fail(&r, "a tensor named twice"), TG_ERR_PARSE;
            }
    }
    if (r.p != r.end) {
        weights_free(w);
        return fail(&r, "bytes after the last tensor"), TG_ERR_PARSE;
    }
    *out = w;
    return TG_OK;
}

void weights_free(weights_file *w)
{
    if (!w)
        return;
    for (int i = 0; i < w->count; i++)
        free(w->tensors[i].data);
    free(w->tensors);
    free(w);
}

const weights_tensor *weights_get(const weights_file *w, const char *name, weights_type type,
                                  int rank, const uint32_t *dims, char *err, size_t errlen)
{
    for (int i = 0; i < w->count; i++) {
        const weights_tensor *t = &w->tensors[i];
        if (strcmp(t->name, name) != 0)
            continue;
        bool ok = t->type == type && t->rank == rank;
        for (int k = 0; ok && k < rank; k++)
            ok = dims[k] == 0 || dims[k] == t->dims[k];
        if (ok)
            return t;
        snprintf(err, errlen, "weights: tensor %s has the wrong type or shape", name);
        return NULL;
    }
    snprintf(err, errlen, "weights: no tensor %s", name);
    return NULL;
}

/* ---- writing ------------------------------------------------------------------ */

static void put(weights_writer *wr, const void *src, size_t n)
{
    if (wr->failed)
        return;
    if (wr->len + n > wr->cap) {
        size_t cap = wr->cap ? wr->cap : 4096;
        while (cap < wr->len + n)
            cap *= 2;
        uint8_t *grown = realloc(wr->data, cap);
        if (!grown) {
            wr->failed = true;
            return;
        }
        wr->data = grown;
        wr->cap = cap;
    }
    memcpy(wr->data + wr->len, src, n);
    wr->len += n;
}

static void put_u32(weights_writer *wr, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(wr, b, 4);
}

void weights_writer_begin(weights_writer *wr, weights_kind kind, int size, int komi2)
{
    memset(wr, 0, sizeof *wr);
    put(wr, "TGWT", 4);
    put_u32(wr, WEIGHTS_VERSION);
    put_u32(wr, (uint32_t)kind);
    put_u32(wr, (uint32_t)size);
    put_u32(wr, (uint32_t)komi2);
    put_u32(wr, 0); /* the count, set at the end */
}

void weights_writer_add(weights_writer *wr, const char *name, weights_type type, int rank,
                        const uint32_t *dims, const void *data)
{
    uint8_t name_len = (uint8_t)strlen(name), t = (uint8_t)type, r = (uint8_t)rank;
    put(wr, &name_len, 1);
    put(wr, name, name_len);
    put(wr, &t, 1);
    put(wr, &r, 1);
    size_t count = 1;
    for (int i = 0; i < rank; i++) {
        put_u32(wr, dims[i]);
        count *= dims[i];
    }
    for (size_t i = 0; i < count; i++) {
        if (type == WEIGHTS_U64) {
            uint64_t v;
            memcpy(&v, (const uint8_t *)data + 8 * i, 8);
            put_u32(wr, (uint32_t)v);
            put_u32(wr, (uint32_t)(v >> 32));
        } else {
            uint32_t v;
            memcpy(&v, (const uint8_t *)data + 4 * i, 4);
            put_u32(wr, v);
        }
    }
    wr->count++;
}

uint8_t *weights_writer_end(weights_writer *wr, size_t *len)
{
    if (wr->failed || wr->len < 24) {
        free(wr->data);
        return NULL;
    }
    uint32_t c = wr->count;
    uint8_t b[4] = {(uint8_t)c, (uint8_t)(c >> 8), (uint8_t)(c >> 16), (uint8_t)(c >> 24)};
    memcpy(wr->data + 20, b, 4);
    *len = wr->len;
    return wr->data;
}
