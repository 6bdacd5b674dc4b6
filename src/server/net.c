/*
 * net.c — libwebsockets (bookworm's 4.1) on a libuv loop that this module
 * owns.  The loop is ours, not lws's, for the traps measured on this
 * machine (../shared/research/server-stack.md): signals come into the loop
 * as uv_signal handles (a flag set in a handler does not stop an event-lib
 * loop), the loop is stopped with uv_stop and lws is destroyed after it,
 * LWS_SERVER_OPTION_DISABLE_IPV6 makes a given address bind that address
 * only, and fd_limit_per_thread is set from the connection budget.
 *
 * What lws 4.1 lets through is refused here, at the callback that sees it:
 * a handshake with another Sec-WebSocket-Version (426), a malformed key,
 * a body or two lengths (400; lws would read the bytes after a first
 * length as a second request, and a pipelined request with a body spins
 * its loop for good), too many WebSockets from one address (429), a close
 * frame with an invalid code (1002, where lws would echo it).  What it
 * cannot be asked at all (an unmasked frame, a head too long for its
 * buffer) is caught in the bytes it reads (wire.h).  Dead peers: lws pings
 * a WebSocket not heard from for ws_ping_s and hangs up after ws_hangup_s
 * (its retry-and-idle policy), and TCP keepalive covers the rest.
 */
#include "net.h"

#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <uv.h>

#include "peers.h"
#include "wire.h"

#include "net_internal.h"

#define NET_KEEPALIVE_INTERVAL_S 10

net_msg *net_msg_new(const char *data, size_t len)
{
    net_msg *m = malloc(sizeof *m + LWS_PRE + len + 1);
    if (!m)
        return NULL;
    m->refs = 1;
    m->len = len;
    memcpy(m->buf + LWS_PRE, data, len);
    m->buf[LWS_PRE + len] = '\0';
    return m;
}

void net_msg_unref(net_msg *m)
{
    if (m && --m->refs == 0)
        free(m);
}

static void queue_clear(net_conn *c)
{
    while (c->head) {
        queue_item *it = c->head;
        c->head = it->next;
        net_msg_unref(it->msg);
        net_msg_unref(it->fallback);
        free(it);
    }
    c->tail = NULL;
    c->queued = 0;
}

/* c has messages waiting for the next net_release. */
static void hold(net *n, net_conn *c)
{
    if (c->held_index >= 0 && c->held_index < n->held_count && n->held[c->held_index] == c)
        return;
    if (n->held_count == n->held_cap) {
        int cap = n->held_cap ? 2 * n->held_cap : 64;
        net_conn **grown = realloc(n->held, (size_t)cap * sizeof *grown);
        if (!grown) { /* no room to wait: send at the next release of anyone */
            lws_callback_on_writable(c->wsi);
            return;
        }
        n->held = grown;
        n->held_cap = cap;
    }
    c->held_index = n->held_count;
    n->held[n->held_count++] = c;
}

static void unhold(net *n, net_conn *c)
{
    int i = c->held_index;
    if (i >= 0 && i < n->held_count && n->held[i] == c) {
        n->held[i] = n->held[--n->held_count];
        n->held[i]->held_index = i;
    }
    c->held_index = -1;
}

void net_release_through(net *n, uint64_t epoch)
{
    if (epoch > n->released)
        n->released = epoch;
    int kept = 0;
    for (int i = 0; i < n->held_count; i++) {
        net_conn *c = n->held[i];
        bool waiting = false;
        for (queue_item *it = c->head; it; it = it->next)
            waiting |= it->epoch > n->released;
        lws_callback_on_writable(c->wsi);
        if (waiting) { /* still holds messages of a later epoch */
            c->held_index = kept;
            n->held[kept++] = c;
        } else {
            c->held_index = -1;
        }
    }
    n->held_count = kept;
}


/* What waits for an epoch in [from, to] goes: replaced by its fallback
 * where it has one and fallbacks are wanted. */
static void drop_epochs(net *n, uint64_t from, uint64_t to, bool fallbacks)
{
    for (int i = 0; i < n->held_count; i++) {
        net_conn *c = n->held[i];
        queue_item **link = &c->head;
        c->tail = NULL;
        while (*link) {
            queue_item *it = *link;
            if (it->epoch >= from && it->epoch <= to && it->epoch > n->released) {
                c->queued -= it->msg->len;
                net_msg_unref(it->msg);
                if (it->fallback && fallbacks) { /* the answer that tells the truth instead */
                    it->msg = it->fallback;
                    it->fallback = NULL;
                    it->epoch = 0;
                    c->queued += it->msg->len;
                    c->tail = it;
                    link = &it->next;
                    continue;
                }
                net_msg_unref(it->fallback);
                *link = it->next;
                free(it);
            } else {
                c->tail = it;
                link = &it->next;
            }
        }
        lws_callback_on_writable(c->wsi);
    }
}

void net_drop_from(net *n, uint64_t epoch) { drop_epochs(n, epoch, UINT64_MAX, true); }

void net_drop_epoch(net *n, uint64_t epoch) { drop_epochs(n, epoch, epoch, false); }

void net_close(net_conn *c, int code, const char *reason)
{
    if (c->close_code)
        return;
    c->close_code = code;
    snprintf(c->close_reason, sizeof c->close_reason, "%s", reason ? reason : "");
    lws_callback_on_writable(c->wsi);
}

bool net_send_after(net_conn *c, net_msg *m, uint64_t epoch, net_msg *fallback)
{
    if (c->close_code || !c->is_ws)
        return false;
    if (c->queued + m->len > NET_QUEUE_MAX) {
        queue_clear(c);
        net_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too slow");
        return false;
    }
    queue_item *it = malloc(sizeof *it);
    if (!it)
        return false;
    net *n = c->owner;
    it->next = NULL;
    it->msg = m;
    it->epoch = epoch > n->released ? epoch : 0;
    it->fallback = it->epoch ? fallback : NULL;
    m->refs++;
    if (it->fallback)
        it->fallback->refs++;
    if (c->tail)
        c->tail->next = it;
    else
        c->head = it;
    c->tail = it;
    c->queued += m->len;
    if (it->epoch)
        hold(n, c);
    else
        lws_callback_on_writable(c->wsi);
    return true;
}

bool net_send(net_conn *c, net_msg *m) { return net_send_after(c, m, 0, NULL); }

bool net_send_text(net_conn *c, const char *text)
{
    net_msg *m = net_msg_new(text, strlen(text));
    if (!m)
        return false;
    bool ok = net_send(c, m);
    net_msg_unref(m);
    return ok;
}

void net_conn_set_data(net_conn *c, void *data) { c->data = data; }
void *net_conn_data(const net_conn *c) { return c->data; }

void net_conn_peer(const net_conn *c, char *buf, size_t len)
{
    peer_format(&c->client, buf, len);
}

/* ---- who the client is ------------------------------------------------------ */

/* The client behind wsi: its TCP peer, or what a trusted proxy says. */
peer_addr client_of(const net *n, struct lws *wsi)
{
    char text[PEER_TEXT_MAX], forwarded[1024];
    peer_addr tcp;
    lws_get_peer_simple(wsi, text, sizeof text);
    if (!peer_parse(text, &tcp))
        memset(&tcp, 0, sizeof tcp);
    bool has_forwarded = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR) > 0 &&
                         lws_hdr_copy(wsi, forwarded, sizeof forwarded, WSI_TOKEN_X_FORWARDED_FOR) > 0;
    return peer_client(&tcp, has_forwarded ? forwarded : NULL, n->trusted, n->trusted_count);
}

/* ---- WebSocket ------------------------------------------------------------- */

static int ws_receive(net *n, net_conn *c, struct lws *wsi, const void *in, size_t len)
{
    if (lws_frame_is_binary(wsi)) {
        lws_close_reason(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, (unsigned char *)"text only", 9);
        return -1;
    }
    if (lws_is_first_fragment(wsi))
        c->rx_len = 0;
    if (c->rx_len + len > NET_MESSAGE_MAX) {
        lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)"too large", 9);
        return -1;
    }
    if (!c->rx) {
        c->rx = malloc(NET_MESSAGE_MAX + 1);
        if (!c->rx)
            return -1;
    }
    memcpy(c->rx + c->rx_len, in, len);
    c->rx_len += len;
    if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
        c->rx[c->rx_len] = '\0';
        n->cb.message(n->cb.ctx, c, c->rx, c->rx_len);
        c->rx_len = 0;
    }
    return 0;
}

/* The first message that may go: in order, except that a message depending
 * on nothing passes those still waiting for the store. */
static queue_item **next_ready(net_conn *c)
{
    for (queue_item **link = &c->head; *link; link = &(*link)->next)
        if ((*link)->epoch <= c->owner->released)
            return link;
    return NULL;
}

static int ws_writeable(net_conn *c, struct lws *wsi)
{
    queue_item **link = next_ready(c);
    if (link) {
        queue_item *it = *link;
        net_msg *m = it->msg;
        if (lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len)
            return -1;
        *link = it->next;
        if (c->tail == it) {
            c->tail = NULL;
            for (queue_item *t = c->head; t; t = t->next)
                c->tail = t;
        }
        c->queued -= m->len;
        net_msg_unref(m);
        net_msg_unref(it->fallback);
        free(it);
        if (next_ready(c) || (c->close_code && !c->head))
            lws_callback_on_writable(wsi);
        return 0;
    }
    if (c->close_code && !c->head) {
        lws_close_reason(wsi, (enum lws_close_status)c->close_code,
                         (unsigned char *)c->close_reason, strlen(c->close_reason));
        return -1;
    }
    return 0;
}

/* Closes wsi with a close frame, from a callback other than the ones that
 * read it.  Returning -1 from SERVER_WRITEABLE would lose the frame:
 * Debian builds lws 4.1 with _DEBUG, and then lws_service_fd_tsi closes a
 * libuv connection a second time ("uv repeat test"), which kills it before
 * the frame is sent.  A timeout of this kind, due at once, closes it once
 * and politely. */
static void close_politely(struct lws *wsi, enum lws_close_status code, const char *reason)
{
    lws_close_reason(wsi, code, (unsigned char *)reason, strlen(reason));
    lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_KEEPALIVE_IDLE, LWS_TO_KILL_ASYNC);
    wire_guard_closing(lws_get_socket_fd(wsi));
}

/* The guard saw an unmasked frame on wsi's socket: close it with 1002. */
static bool wire_unmasked(struct lws *wsi)
{
    const wire_state *w = wire_guard_state(lws_get_socket_fd(wsi));
    return w && w->fault == WIRE_UNMASKED;
}

static void on_unmasked(void *wsi) { lws_callback_on_writable(wsi); }

/* A 431 may be written raw on wsi's socket: no response is under way. */
static bool may_answer(void *wsi)
{
    net_conn *c = lws_wsi_user(wsi);
    return !lws_partial_buffered(wsi) && !(c && !c->is_ws && (c->body || c->pending || c->head_due));
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    net *n = lws_context_user(lws_get_context(wsi));
    net_conn *c = user;
    switch (reason) {
    case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
        wire_guard_adopt(lws_get_socket_fd(wsi), wsi);
        break;
    case LWS_CALLBACK_HTTP: {
        const refusal *r = body_refusal(wsi);
        if (r)
            return net_refuse(wsi, r);
        c->wsi = wsi;
        c->owner = n;
        c->client = client_of(n, wsi);
        return http_request(n, c, wsi, in ? (const char *)in : "/");
    }
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: {
        const refusal *r = handshake_refusal(n, wsi, in);
        return r ? net_refuse(wsi, r) : 0;
    }
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: /* the same, on any way lws has to a WebSocket */
        return handshake_refusal(n, wsi, "websocket") ? 1 : 0;
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if (c->head_due)
            return http_head(c, wsi);
        return c->body ? http_writeable(c, wsi) : 0;
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
    case LWS_CALLBACK_CLOSED_HTTP:
        if (c && !c->is_ws) {
            free(c->body);
            c->body = NULL;
            c->head_due = false;
            if (c->pending) { /* answered later into nothing */
                c->pending->closed = true;
                c->pending = NULL;
            }
        }
        break;
    case LWS_CALLBACK_ESTABLISHED:
        free(c->body);
        memset(c, 0, sizeof *c);
        c->wsi = wsi;
        c->owner = n;
        c->is_ws = true;
        c->held_index = -1;
        c->client = client_of(n, wsi);
        c->counted = peer_counts_add(n->per_address, &c->client, 1);
        if (wire_unmasked(wsi)) /* in the handshake's own packet */
            lws_callback_on_writable(wsi);
        n->cb.open(n->cb.ctx, c);
        break;
    case LWS_CALLBACK_RECEIVE:
        return ws_receive(n, c, wsi, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE:
        if (wire_unmasked(wsi))
            net_close(c, LWS_CLOSE_STATUS_PROTOCOL_ERR, "unmasked frame");
        if (c->close_code && !c->head) { /* what was queued is written */
            close_politely(wsi, (enum lws_close_status)c->close_code, c->close_reason);
            return 0;
        }
        return ws_writeable(c, wsi);
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        if (!wire_close_payload_valid(in, len)) {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_PROTOCOL_ERR, (unsigned char *)"invalid close code", 18);
            return -1;
        }
        break;
    case LWS_CALLBACK_CLOSED:
        if (c->counted) {
            peer_counts_add(n->per_address, &c->client, -1);
            c->counted = false;
        }
        if (c->is_ws) {
            n->cb.closed(n->cb.ctx, c);
            unhold(n, c);
            queue_clear(c);
            free(c->rx);
            c->rx = NULL;
            c->is_ws = false;
        }
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols protocols[] = {
    {"tengen.v1", callback, sizeof(net_conn), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- the loop --------------------------------------------------------------- */

static void on_signal(uv_signal_t *h, int signum)
{
    (void)signum;
    net *n = h->data;
    if (!n->stopping) {
        n->stopping = true;
        if (n->cb.stopping)
            n->cb.stopping(n->cb.ctx);
    }
    uv_stop(&n->loop);
}

/* The loop is about to wait: the server commits what this turn did, then
 * the messages about it go out. */
static void on_prepare(uv_prepare_t *h)
{
    net *n = h->data;
    if (n->cb.before_wait)
        n->cb.before_wait(n->cb.ctx);
}

static void on_async(uv_async_t *h)
{
    net *n = h->data;
    if (n->cb.wake)
        n->cb.wake(n->cb.ctx);
}

net *net_new(const char *addr, int port, int max_connections, const net_callbacks *cb,
             char *err, size_t errlen)
{
    net *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    n->cb = *cb;
    uv_loop_init(&n->loop);
    uv_signal_init(&n->loop, &n->sigint);
    uv_signal_init(&n->loop, &n->sigterm);
    uv_async_init(&n->loop, &n->async, on_async);
    uv_prepare_init(&n->loop, &n->prepare);
    n->sigint.data = n->sigterm.data = n->async.data = n->prepare.data = n;
    uv_prepare_start(&n->prepare, on_prepare);
    uv_signal_start(&n->sigint, on_signal, SIGINT);
    uv_signal_start(&n->sigterm, on_signal, SIGTERM);

    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    void *loops[1] = {&n->loop};
    info.port = port;
    info.iface = addr;
    info.protocols = protocols;
    info.user = n;
    info.foreign_loops = loops;
    info.fd_limit_per_thread = (unsigned)(max_connections + 64);
    info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_DISABLE_IPV6 |
                   LWS_SERVER_OPTION_VALIDATE_UTF8 |
                   LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
    info.timeout_secs = 30;
    /* an idle HTTP/1.1 connection is kept longer than clients and proxies
     * keep theirs (Node's agent and nginx: 5 s and 60 s), so that the
     * server never closes one at the moment a client sends on it (a
     * request lost as "socket hang up"; lws's default was 5 s) */
    info.keepalive_timeout = 65;
    /* heads are limited by wire.h, well within lws's buffer: lws drops a
     * connection whose head overflows it, with no answer */
    info.max_http_header_data = 4 * WIRE_HEAD_MAX;
    info.ka_time = NET_KEEPALIVE_S;
    info.ka_probes = NET_KEEPALIVE_PROBES;
    info.ka_interval = NET_KEEPALIVE_INTERVAL_S;
    n->idle_policy.secs_since_valid_ping = NET_WS_PING_S;
    n->idle_policy.secs_since_valid_hangup = NET_WS_HANGUP_S;
    info.retry_and_idle_policy = &n->idle_policy;
    n->max_per_address = NET_PER_ADDRESS_MAX;
    n->per_address = peer_counts_new();
    if (!n->per_address || !wire_guard_open((int)info.fd_limit_per_thread, on_unmasked, may_answer)) {
        snprintf(err, errlen, "out of memory");
        net_free(n);
        return NULL;
    }
    n->ctx = lws_create_context(&info);
    if (!n->ctx) {
        snprintf(err, errlen, "cannot start the network layer");
        net_free(n);
        return NULL;
    }
    n->vhost = lws_get_vhost_by_name(n->ctx, "default");
    n->port = n->vhost ? lws_get_vhost_listen_port(n->vhost) : port;
    if (!n->vhost || n->port <= 0) {
        snprintf(err, errlen, "cannot listen on %s:%d", addr, port);
        net_free(n);
        return NULL;
    }
    return n;
}

int net_set_options(net *n, const net_options *o, char *err, size_t errlen)
{
    int ping = o->ws_ping_s ? o->ws_ping_s : NET_WS_PING_S;
    int hangup = o->ws_hangup_s ? o->ws_hangup_s : NET_WS_HANGUP_S;
    if (ping < 1 || hangup <= ping || hangup > 65535) {
        snprintf(err, errlen, "the WebSocket ping (%d s) must come before the hangup (%d s, at most 65535)",
                 ping, hangup);
        return -1;
    }
    if (o->max_per_address < 0 || o->trusted_proxy_count < 0 ||
        o->trusted_proxy_count > NET_TRUSTED_PROXIES_MAX) {
        snprintf(err, errlen, "at most %d trusted proxies", NET_TRUSTED_PROXIES_MAX);
        return -1;
    }
    for (int i = 0; i < o->trusted_proxy_count; i++)
        if (!peer_parse(o->trusted_proxies[i], &n->trusted[i])) {
            snprintf(err, errlen, "trusted proxy %s: not an IPv4 or IPv6 address", o->trusted_proxies[i]);
            return -1;
        }
    n->trusted_count = o->trusted_proxy_count;
    n->idle_policy.secs_since_valid_ping = (uint16_t)ping;
    n->idle_policy.secs_since_valid_hangup = (uint16_t)hangup;
    n->max_per_address = o->max_per_address ? o->max_per_address : NET_PER_ADDRESS_MAX;
    return 0;
}

int net_port(const net *n) { return n->port; }

void net_run(net *n) { uv_run(&n->loop, UV_RUN_DEFAULT); }

void net_stop(net *n) { uv_stop(&n->loop); }

void net_wake(net *n) { uv_async_send(&n->async); }

static void close_handle(uv_handle_t *h, void *arg)
{
    (void)arg;
    if (!uv_is_closing(h))
        uv_close(h, NULL);
}

void net_free(net *n)
{
    if (!n)
        return;
    /* libuv closes handles only as its loop turns: lws is destroyed once,
     * the loop turns until its handles are closed, and lws is destroyed a
     * second time to finish; then our own handles close.  The turns are
     * bounded, so that a handle that never closes cannot hang the exit. */
    if (n->ctx) {
        lws_context_destroy(n->ctx);
        for (int i = 0; i < 50 && uv_run(&n->loop, UV_RUN_NOWAIT); i++)
            ;
        lws_context_destroy(n->ctx);
    }
    n->ctx = NULL;
    uv_walk(&n->loop, close_handle, NULL);
    for (int i = 0; i < 50 && uv_run(&n->loop, UV_RUN_NOWAIT); i++)
        ;
    uv_loop_close(&n->loop);
    wire_guard_close();
    peer_counts_free(n->per_address);
    free(n->held);
    free(n);
}

/* ---- timers ----------------------------------------------------------------- */

static void on_timer(uv_timer_t *h)
{
    net_timer *t = h->data;
    t->fn(t->arg);
}

net_timer *net_timer_new(net *n, net_timer_fn fn, void *arg)
{
    net_timer *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    uv_timer_init(&n->loop, &t->handle);
    t->handle.data = t;
    t->fn = fn;
    t->arg = arg;
    return t;
}

void net_timer_set(net_timer *t, int64_t delay_ms)
{
    uv_timer_start(&t->handle, on_timer, delay_ms < 0 ? 0 : (uint64_t)delay_ms, 0);
}

void net_timer_cancel(net_timer *t) { uv_timer_stop(&t->handle); }

static void free_timer(uv_handle_t *h) { free(h->data); }

void net_timer_free(net_timer *t)
{
    if (t)
        uv_close((uv_handle_t *)&t->handle, free_timer);
}
