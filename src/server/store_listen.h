/*
 * store_listen.h — hearing what the other servers (nodes) on one
 * PostgreSQL database wrote: a thread of its own holds one connection that
 * LISTENs on the channel tengen (store_pg.c's notify sends on it, inside
 * the writing transaction, so a node hears of a write only once it is
 * committed, and in commit order).  What it hears waits in a queue; the
 * loop is woken to take it.
 *
 * When the connection breaks (the database restarted, the network went),
 * notifications sent meanwhile are lost: the thread connects again by
 * itself (pauses doubling up to a second) and the next store_listen_next
 * says `lost`, so that the server reads again whatever it holds.
 */
#ifndef TENGEN_SERVER_STORE_LISTEN_H
#define TENGEN_SERVER_STORE_LISTEN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct store_listener store_listener;
struct pg_conn;

/* libpq's connection with tengen's settings (connect timeout, keepalives,
 * application_name, UTF-8): store_pg.c's, shared. */
struct pg_conn *store_pg_connect(const char *url);

/* Connects and listens before returning (so that nothing committed after
 * it is missed); wake(arg) is called from the thread when something
 * waits.  NULL with err. */
store_listener *store_listen_new(const char *url, void (*wake)(void *), void *arg, char *err,
                                 size_t errlen);
/* The next payload heard (malloc'd), or NULL when none waits.  *lost is
 * set when notifications may have been missed since the last call (the
 * connection broke, or the queue overflowed). */
char *store_listen_next(store_listener *l, bool *lost);
/* Whether the connection is up now. */
bool store_listen_connected(store_listener *l);
void store_listen_free(store_listener *l);

#endif
