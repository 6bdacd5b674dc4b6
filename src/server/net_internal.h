/*
 * net_internal.h — what net.c (connections, WebSockets, the loop) and
 * net_http.c (HTTP answers, deferred answers, and the refusals made at a
 * request's or a handshake's head) share: the structures behind net.h.
 * Only these two files name libwebsockets.
 */
#ifndef TENGEN_SERVER_NET_INTERNAL_H
#define TENGEN_SERVER_NET_INTERNAL_H

#include <libwebsockets.h>
#include <uv.h>

#include "net.h"
#include "peers.h"
#include "wire.h"

/* TCP keepalive: a peer silent this long is probed, and dropped after the
 * probes go unanswered (a WebSocket's pings find it sooner). */
#define NET_KEEPALIVE_S 60
#define NET_KEEPALIVE_PROBES 3
struct net_msg {
    int refs;
    size_t len;
    unsigned char buf[]; /* LWS_PRE bytes of headroom, then the text */
};

typedef struct queue_item {
    struct queue_item *next;
    net_msg *msg;
    net_msg *fallback;       /* sent instead when the epoch is dropped (NULL: nothing) */
    uint64_t epoch;          /* written only once the store has committed it; 0: at once */
} queue_item;

/* Per-connection data: lws allocates and zeroes it (one per wsi). */
struct net_conn {
    struct lws *wsi;
    net *owner;
    void *data;
    queue_item *head, *tail;
    size_t queued;
    int close_code;          /* > 0: close once the queue is written */
    int held_index;          /* position in net->held, -1 when not there */
    char close_reason[64];
    bool is_ws;
    /* a WebSocket message being received */
    char *rx;
    size_t rx_len;
    /* an HTTP response being written */
    char *body;
    size_t body_len, body_sent;
    /* a response deferred (net_http_defer), then its head waiting to be written */
    struct net_http_pending *pending;
    bool head_due;
    int status;
    const char *content_type;
    bool cache;
    char disposition[128];
    /* who the client is (a WebSocket's, from its handshake) */
    peer_addr client;
    bool counted;            /* in net->per_address */
};

struct net_timer {
    uv_timer_t handle;
    net_timer_fn fn;
    void *arg;
};

struct net {
    uv_loop_t loop;
    uv_signal_t sigint, sigterm;
    uv_async_t async;
    uv_prepare_t prepare;
    /* the gate: a message that depends on epoch e goes out only once
     * net_release_through(e) has said the store committed what it reports */
    uint64_t released;
    net_conn **held;
    int held_count, held_cap;
    struct lws_context *ctx;
    struct lws_vhost *vhost;
    net_callbacks cb;
    int port;
    bool stopping;
    /* lws reads the idle policy through this pointer at every connection */
    lws_retry_bo_t idle_policy;
    int max_per_address;
    peer_addr trusted[NET_TRUSTED_PROXIES_MAX];
    int trusted_count;
    peer_counts *per_address; /* open WebSockets per client address */
};

/* A deferred HTTP answer (net_http_defer): freed by net_http_finish. */
struct net_http_pending {
    net_conn *c;
    bool closed;             /* the connection went first */
};

/* net.c */
peer_addr client_of(const net *n, struct lws *wsi);

/* net_http.c */
typedef struct refusal refusal;
int net_refuse(struct lws *wsi, const refusal *r);
/* What a request's head asks that is refused (a body, two lengths), or NULL. */
const refusal *body_refusal(struct lws *wsi);
/* What a WebSocket handshake asks that is refused, or NULL. */
const refusal *handshake_refusal(net *n, struct lws *wsi, const char *upgrade);
int http_request(net *n, net_conn *c, struct lws *wsi, const char *path);
int http_head(net_conn *c, struct lws *wsi);
int http_writeable(net_conn *c, struct lws *wsi);

#endif
