/*
 * peers.h — who a client is, by address: the address of a connection's
 * peer, or, when that peer is a proxy the operator trusts, the client the
 * proxy names last in X-Forwarded-For (the entry it added itself; earlier
 * ones are whatever the client sent); and how many WebSockets each address
 * holds open, for the cap per address.  An IPv6 client is counted by its
 * /64 (one subscriber's network), an IPv4 client by its address.  No I/O:
 * net.c feeds it what libwebsockets reads.
 */
#ifndef TENGEN_SERVER_PEERS_H
#define TENGEN_SERVER_PEERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PEER_TEXT_MAX 48     /* an address as text, with its NUL */

typedef struct peer_addr {
    uint8_t family;          /* 4 or 6; 0: unknown */
    uint8_t bytes[16];
} peer_addr;

/* An IPv4 or IPv6 address in the usual text form.  False: not one. */
bool peer_parse(const char *text, peer_addr *out);
/* The text form ("" for an unknown address). */
void peer_format(const peer_addr *a, char *buf, size_t len);
bool peer_equal(const peer_addr *a, const peer_addr *b);

/* The client behind a connection from tcp: the last entry of forwarded (an
 * X-Forwarded-For value, entries separated by commas; NULL when absent)
 * when tcp is one of the trusted proxies and that entry is an address;
 * otherwise tcp itself. */
peer_addr peer_client(const peer_addr *tcp, const char *forwarded, const peer_addr *trusted,
                      int trusted_count);

/* Open connections per address. */
typedef struct peer_counts peer_counts;

peer_counts *peer_counts_new(void);
void peer_counts_free(peer_counts *t);
/* How many a's group holds. */
int peer_counts_get(const peer_counts *t, const peer_addr *a);
/* One more (delta 1) or one fewer (-1) for a's group.  False: out of
 * memory (nothing changed). */
bool peer_counts_add(peer_counts *t, const peer_addr *a, int delta);

#endif
