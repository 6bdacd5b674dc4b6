/*
 * peers.c — client addresses and the count of connections per address.
 * The counts are an open-addressing table keyed by the address's group
 * (an IPv4 address, an IPv6 /64), hashed with SipHash under a key drawn at
 * start, so that addresses chosen by a client (X-Forwarded-For through a
 * trusted proxy) cannot all be made to collide; an emptied slot is filled
 * by shifting its followers back, so lookups never cross tombstones.
 */
#include "peers.h"

#include <arpa/inet.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

bool peer_parse(const char *text, peer_addr *out)
{
    memset(out, 0, sizeof *out);
    if (inet_pton(AF_INET, text, out->bytes) == 1) {
        out->family = 4;
        return true;
    }
    if (inet_pton(AF_INET6, text, out->bytes) == 1) {
        out->family = 6;
        return true;
    }
    return false;
}

void peer_format(const peer_addr *a, char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    if (a->family == 4 || a->family == 6)
        if (!inet_ntop(a->family == 4 ? AF_INET : AF_INET6, a->bytes, buf, (socklen_t)len))
            buf[0] = '\0';
}

bool peer_equal(const peer_addr *a, const peer_addr *b)
{
    return a->family == b->family && memcmp(a->bytes, b->bytes, sizeof a->bytes) == 0;
}

peer_addr peer_client(const peer_addr *tcp, const char *forwarded, const peer_addr *trusted,
                      int trusted_count)
{
    bool via_proxy = false;
    for (int i = 0; i < trusted_count && !via_proxy; i++)
        via_proxy = peer_equal(tcp, &trusted[i]);
    if (!via_proxy || !forwarded)
        return *tcp;
    const char *last = strrchr(forwarded, ',');
    last = last ? last + 1 : forwarded;
    while (*last == ' ' || *last == '\t')
        last++;
    char text[PEER_TEXT_MAX];
    size_t n = strlen(last);
    while (n && (last[n - 1] == ' ' || last[n - 1] == '\t'))
        n--;
    peer_addr client;
    if (n == 0 || n >= sizeof text)
        return *tcp;
    memcpy(text, last, n);
    text[n] = '\0';
    return peer_parse(text, &client) ? client : *tcp;
}

/* ---- counts ------------------------------------------------------------- */

typedef struct slot {
    uint8_t key[9];          /* family, then 4 (IPv4) or 8 (IPv6 /64) bytes */
    int count;               /* 0: empty */
} slot;

struct peer_counts {
    slot *slots;
    size_t cap;              /* a power of two */
    size_t used;
    unsigned char hash_key[crypto_shorthash_KEYBYTES];
};

static void group_of(const peer_addr *a, uint8_t key[9])
{
    memset(key, 0, 9);
    key[0] = a->family;
    memcpy(key + 1, a->bytes, a->family == 6 ? 8 : 4);
}

static size_t home(const peer_counts *t, const uint8_t key[9])
{
    uint64_t h;
    crypto_shorthash((unsigned char *)&h, key, 9, t->hash_key);
    return (size_t)h & (t->cap - 1);
}

/* The slot holding key, or the empty one where it would go. */
static slot *find(const peer_counts *t, const uint8_t key[9])
{
    for (size_t i = home(t, key);; i = (i + 1) & (t->cap - 1))
        if (t->slots[i].count == 0 || memcmp(t->slots[i].key, key, 9) == 0)
            return &t->slots[i];
}

static bool grow(peer_counts *t)
{
    peer_counts bigger = *t;
    bigger.cap = t->cap * 2;
    bigger.slots = calloc(bigger.cap, sizeof *bigger.slots);
    if (!bigger.slots)
        return false;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].count)
            *find(&bigger, t->slots[i].key) = t->slots[i];
    free(t->slots);
    *t = bigger;
    return true;
}

peer_counts *peer_counts_new(void)
{
    if (sodium_init() < 0)
        return NULL;
    peer_counts *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->cap = 64;
    t->slots = calloc(t->cap, sizeof *t->slots);
    if (!t->slots) {
        free(t);
        return NULL;
    }
    crypto_shorthash_keygen(t->hash_key);
    return t;
}

void peer_counts_free(peer_counts *t)
{
    if (t) {
        free(t->slots);
        free(t);
    }
}

int peer_counts_get(const peer_counts *t, const peer_addr *a)
{
    uint8_t key[9];
    group_of(a, key);
    return find(t, key)->count;
}

/* Empties s, moving back the entries after it that probed past it. */
static void remove_slot(peer_counts *t, slot *s)
{
    size_t hole = (size_t)(s - t->slots);
    for (size_t i = (hole + 1) & (t->cap - 1); t->slots[i].count; i = (i + 1) & (t->cap - 1)) {
        size_t want = home(t, t->slots[i].key);
        /* it may move into the hole when the hole lies on its probe path */
        if (((i - want) & (t->cap - 1)) >= ((i - hole) & (t->cap - 1))) {
            t->slots[hole] = t->slots[i];
            hole = i;
        }
    }
    t->slots[hole].count = 0;
    t->used--;
}

bool peer_counts_add(peer_counts *t, const peer_addr *a, int delta)
{
    uint8_t key[9];
    group_of(a, key);
    slot *s = find(t, key);
    if (s->count == 0) {
        if (delta <= 0)
            return true;
        if (2 * (t->used + 1) > t->cap) {
            if (!grow(t))
                return false;
            s = find(t, key);
        }
        memcpy(s->key, key, sizeof s->key);
        t->used++;
    }
    s->count += delta;
    if (s->count <= 0)
        remove_slot(t, s);
    return true;
}
