/*
 * imap.h — a map from 64-bit ids to pointers (open addressing, linear
 * probing, tombstone-free deletion by backward shift): the server finds
 * accounts, clients and live games by id in constant time, and nothing is
 * scanned up to the largest id ever made.
 */
#ifndef TENGEN_SERVER_IMAP_H
#define TENGEN_SERVER_IMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct imap_slot {
    int64_t key;     /* 0: empty (ids start at 1) */
    void *value;
} imap_slot;

typedef struct imap {
    imap_slot *slots;
    size_t cap, count;   /* cap a power of two, or 0 */
} imap;

void *imap_get(const imap *m, int64_t key);
/* Set key (> 0) to value; false when out of memory. */
bool imap_put(imap *m, int64_t key, void *value);
/* The value removed, or NULL. */
void *imap_del(imap *m, int64_t key);
void imap_free(imap *m);
/* Iterate: for (size_t i = 0; imap_next(m, &i, &key, &value);) -- with no
 * imap_put or imap_del meanwhile (collect first, then change). */
bool imap_next(const imap *m, size_t *i, int64_t *key, void **value);

#endif
