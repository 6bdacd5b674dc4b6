/*
 * imap.c — see imap.h.
 */
#include "imap.h"

#include <stdlib.h>

static size_t slot_of(const imap *m, int64_t key)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17) & (m->cap - 1);
}

void *imap_get(const imap *m, int64_t key)
{
    if (!m->cap || key <= 0)
        return NULL;
    for (size_t i = slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
        if (m->slots[i].key == key)
            return m->slots[i].value;
        if (m->slots[i].key == 0)
            return NULL;
    }
}

static bool grow(imap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 16;
    imap_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    imap old = *m;
    m->slots = slots;
    m->cap = cap;
    m->count = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].key)
            imap_put(m, old.slots[i].key, old.slots[i].value);
    free(old.slots);
    return true;
}

bool imap_put(imap *m, int64_t key, void *value)
{
    if (key <= 0)
        return false;
    if ((m->count + 1) * 4 > m->cap * 3 && !grow(m))
        return false;
    for (size_t i = slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
        if (m->slots[i].key == key) {
            m->slots[i].value = value;
            return true;
        }
        if (m->slots[i].key == 0) {
            m->slots[i].key = key;
            m->slots[i].value = value;
            m->count++;
            return true;
        }
    }
}

void *imap_del(imap *m, int64_t key)
{
    if (!m->cap || key <= 0)
        return NULL;
    size_t mask = m->cap - 1, i = slot_of(m, key);
    while (m->slots[i].key != key) {
        if (m->slots[i].key == 0)
            return NULL;
        i = (i + 1) & mask;
    }
    void *value = m->slots[i].value;
    /* shift back the entries after it that probed past it */
    for (size_t j = (i + 1) & mask; m->slots[j].key; j = (j + 1) & mask) {
        size_t home = slot_of(m, m->slots[j].key);
        bool between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!between) {
            m->slots[i] = m->slots[j];
            i = j;
        }
    }
    m->slots[i].key = 0;
    m->slots[i].value = NULL;
    m->count--;
    return value;
}

bool imap_next(const imap *m, size_t *i, int64_t *key, void **value)
{
    while (*i < m->cap) {
        imap_slot *s = &m->slots[(*i)++];
        if (s->key) {
            if (key)
                *key = s->key;
            if (value)
                *value = s->value;
            return true;
        }
    }
    return false;
}

void imap_free(imap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}
