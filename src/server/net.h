/*
 * net.h — the network under the server: HTTP requests, WebSocket
 * connections on /ws, timers and a cross-thread wake-up, all on one event
 * loop thread.  The only module that names libwebsockets (and its libuv
 * loop): a later library change touches net.c alone.
 *
 * Messages out are held until the server has committed the events they
 * tell of (net_release, once per turn of the loop: group commit).
 *
 * Messages out are shared, reference-counted byte strings (net_msg): one
 * serialisation per event, whatever the number of receivers.  Each
 * connection queues at most NET_QUEUE_MAX bytes; a reader that does not
 * keep up is closed rather than allowed to stall anyone.
 */
#ifndef TENGEN_SERVER_NET_H
#define TENGEN_SERVER_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_MESSAGE_MAX 8192          /* a larger client message closes the connection (1009) */
#define NET_QUEUE_MAX (1024 * 1024)   /* bytes queued to one connection before it is closed */

typedef struct net net;
typedef struct net_conn net_conn;
typedef struct net_timer net_timer;
typedef struct net_msg net_msg;

typedef struct net_http_response {
    int status;
    const char *content_type;
    char *body;                /* malloc'd; net frees it */
    size_t length;
    const char *disposition;   /* Content-Disposition, or NULL */
    bool cache;                /* static files may be cached briefly */
    const char *client;        /* in: the client's address, as net_conn_peer gives it */
    net_conn *conn;            /* in: net's own (net_http_defer) */
    bool deferred;             /* net_http_defer was called */
} net_http_response;

/* In the http callback: the answer will come later, from the loop thread,
 * by net_http_finish (the store is read off the loop first).  NULL when
 * out of memory: then answer at once. */
typedef struct net_http_pending net_http_pending;
net_http_pending *net_http_defer(net_http_response *out);
/* Send a deferred answer (net takes r->body and copies the other texts); a
 * connection closed meanwhile is not answered. */
void net_http_finish(net_http_pending *p, net_http_response *r);

typedef struct net_callbacks {
    void *ctx;
    void (*open)(void *ctx, net_conn *c);
    void (*message)(void *ctx, net_conn *c, const char *data, size_t len);
    void (*closed)(void *ctx, net_conn *c);
    /* An HTTP GET: fill the response (status 0 means 404). */
    void (*http)(void *ctx, const char *path, const char *query, net_http_response *out);
    /* After net_wake from another thread, on the loop thread. */
    void (*wake)(void *ctx);
    /* SIGINT or SIGTERM arrived: the loop stops after this returns. */
    void (*stopping)(void *ctx);
    /* The loop has run this turn's callbacks and is about to wait: the
     * server hands the turn's writes to the store.  May be NULL. */
    void (*before_wait)(void *ctx);
} net_callbacks;

/* Listen on addr:port (addr "0.0.0.0" or an address of this machine; port 0
 * picks a free one).  max_connections sets the descriptor budget.  The
 * options are the defaults below until net_set_options. */
net *net_new(const char *addr, int port, int max_connections, const net_callbacks *cb,
             char *err, size_t errlen);

#define NET_WS_PING_S 20          /* a WebSocket not heard from (pong) for this long is pinged */
#define NET_WS_HANGUP_S 60        /* ... and closed when still silent this long after its last pong */
#define NET_PER_ADDRESS_MAX 64    /* WebSockets open at once from one client address */
#define NET_TRUSTED_PROXIES_MAX 16
#define NET_ADDRESS_MAX 48        /* a client address as text, with its NUL */

/* How dead peers are found and what one address may hold.  A field of 0
 * (NULL) keeps the default. */
typedef struct net_options {
    int ws_ping_s;                /* 1..65534; NET_WS_PING_S */
    int ws_hangup_s;              /* > ws_ping_s, <= 65535; NET_WS_HANGUP_S */
    int max_per_address;          /* NET_PER_ADDRESS_MAX */
    /* proxies (IPv4 or IPv6 addresses) whose X-Forwarded-For is believed:
     * a connection from one of them is the client its last entry names */
    const char *const *trusted_proxies;
    int trusted_proxy_count;      /* <= NET_TRUSTED_PROXIES_MAX */
} net_options;

/* Before net_run (it applies to connections accepted afterwards).  -1 with
 * err for an option out of range or a proxy that is no address. */
int net_set_options(net *n, const net_options *o, char *err, size_t errlen);
int net_port(const net *n);
/* Run until SIGINT/SIGTERM or net_stop; then everything is closed. */
void net_run(net *n);
void net_stop(net *n);
/* From any thread: the loop calls cb->wake soon after. */
void net_wake(net *n);
void net_free(net *n);

net_msg *net_msg_new(const char *data, size_t len);
void net_msg_unref(net_msg *m);
/* Group commit: a message that tells of writes not yet durable is queued
 * with the epoch (the store's batch) it depends on, and goes out once
 * net_release_through has passed that epoch; one commit (one fsync) covers
 * a whole batch.  Messages depending on nothing (epoch 0) go out at once,
 * passing those that wait. */
void net_release_through(net *n, uint64_t epoch);
/* The store could not commit epochs >= epoch: what was queued depending on
 * them is forgotten, and each message's fallback (the answer telling of the
 * failure) goes out instead. */
void net_drop_from(net *n, uint64_t epoch);
/* Only what waits for this one epoch goes, fallbacks and all (one game's
 * writes that another node's came before: the server answers itself). */
void net_drop_epoch(net *n, uint64_t epoch);
/* Queue m to c (takes a reference; and one of fallback, which may be
 * NULL), to go once epoch is released.  False when c's queue overflowed:
 * c is then being closed. */
bool net_send_after(net_conn *c, net_msg *m, uint64_t epoch, net_msg *fallback);
/* net_send_after(c, m, 0, NULL): at once. */
bool net_send(net_conn *c, net_msg *m);
/* Send a one-off text. */
bool net_send_text(net_conn *c, const char *text);
/* Close after the queued messages, with a WebSocket close code. */
void net_close(net_conn *c, int code, const char *reason);
/* The client's address as text: the TCP peer, or the last X-Forwarded-For
 * entry when the peer is a trusted proxy (net_options).  Per-address limits
 * key on it (an IPv6 client may hold many addresses of its /64); "" when
 * unknown.  Known from the WebSocket's handshake on. */
void net_conn_peer(const net_conn *c, char *buf, size_t len);
void net_conn_set_data(net_conn *c, void *data);
void *net_conn_data(const net_conn *c);

typedef void (*net_timer_fn)(void *arg);
net_timer *net_timer_new(net *n, net_timer_fn fn, void *arg);
/* Fire once after delay_ms (replacing any earlier setting). */
void net_timer_set(net_timer *t, int64_t delay_ms);
void net_timer_cancel(net_timer *t);
void net_timer_free(net_timer *t);

#endif
