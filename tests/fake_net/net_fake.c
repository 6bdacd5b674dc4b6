/*
 * net_fake.c — see net_fake.h.
 */
#include "net_fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct net_msg {
    int refs;
    size_t len;
    char text[];
};

typedef struct item {
    struct item *next;
    net_msg *msg, *fallback;
    uint64_t epoch;
} item;

struct net_conn {
    net *owner;
    void *data;
    char peer[64];
    item *head;
    bool closed;
    int close_code;
    struct net_conn *next_conn;
};

struct net_timer {
    net *owner;
    net_timer_fn fn;
    void *arg;
    int64_t due_ms;          /* -1: not set */
    struct net_timer *next;
};

struct net {
    net_callbacks cb;
    uint64_t released;
    net_conn *conns;
    net_timer *timers;
    int port;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static net *last;

net *fake_net(void) { return last; }

net *net_new(const char *addr, int port, int max_connections, const net_callbacks *cb, char *err,
             size_t errlen)
{
    (void)addr, (void)max_connections, (void)err, (void)errlen;
    net *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->cb = *cb;
    n->port = port;
    last = n;
    return n;
}

int net_port(const net *n) { return n->port; }

int net_set_options(net *n, const net_options *o, char *err, size_t errlen)
{
    (void)n, (void)o, (void)err, (void)errlen;
    return 0;
}
void net_run(net *n) { (void)n; }
void net_stop(net *n) { (void)n; }
void net_wake(net *n) { (void)n; } /* the test collects with server_settle */

static void clear(net_conn *c)
{
    while (c->head) {
        item *it = c->head;
        c->head = it->next;
        net_msg_unref(it->msg);
        net_msg_unref(it->fallback);
        free(it);
    }
}

void net_free(net *n)
{
    if (!n)
        return;
    while (n->timers) { /* the server frees its own; what is left goes with the net */
        net_timer *t = n->timers;
        n->timers = t->next;
        free(t);
    }
    while (n->conns) {
        net_conn *c = n->conns;
        n->conns = c->next_conn;
        clear(c);
        free(c);
    }
    if (last == n)
        last = NULL;
    free(n);
}

net_msg *net_msg_new(const char *data, size_t len)
{
    net_msg *m = malloc(sizeof *m + len + 1);
    if (!m)
        return NULL;
    m->refs = 1;
    m->len = len;
    memcpy(m->text, data, len);
    m->text[len] = '\0';
    return m;
}

void net_msg_unref(net_msg *m)
{
    if (m && --m->refs == 0)
        free(m);
}

void net_release_through(net *n, uint64_t epoch)
{
    if (epoch > n->released)
        n->released = epoch;
}


static void drop_epochs(net *n, uint64_t from, uint64_t to, bool fallbacks)
{
    for (net_conn *c = n->conns; c; c = c->next_conn)
        for (item **link = &c->head; *link;) {
            item *it = *link;
            if (it->epoch >= from && it->epoch <= to && it->epoch > n->released) {
                net_msg_unref(it->msg);
                if (it->fallback && fallbacks) {
                    it->msg = it->fallback;
                    it->fallback = NULL;
                    it->epoch = 0;
                    link = &it->next;
                    continue;
                }
                net_msg_unref(it->fallback);
                *link = it->next;
                free(it);
            } else {
                link = &it->next;
            }
        }
}

void net_drop_from(net *n, uint64_t epoch) { drop_epochs(n, epoch, UINT64_MAX, true); }

void net_drop_epoch(net *n, uint64_t epoch) { drop_epochs(n, epoch, epoch, false); }

bool net_send_after(net_conn *c, net_msg *m, uint64_t epoch, net_msg *fallback)
{
    if (c->closed)
        return false;
    item *it = calloc(1, sizeof *it);
    if (!it)
        return false;
    it->msg = m;
    m->refs++;
    it->epoch = epoch > c->owner->released ? epoch : 0;
    if (it->epoch && fallback) {
        it->fallback = fallback;
        fallback->refs++;
    }
    item **link = &c->head;
    while (*link)
        link = &(*link)->next;
    *link = it;
    return true;
}

bool net_send(net_conn *c, net_msg *m) { return net_send_after(c, m, 0, NULL); }

bool net_send_text(net_conn *c, const char *text)
{
    net_msg *m = net_msg_new(text, strlen(text));
    bool ok = m && net_send(c, m);
    net_msg_unref(m);
    return ok;
}

void net_close(net_conn *c, int code, const char *reason)
{
    (void)reason;
    if (!c->close_code)
        c->close_code = code;
}

/* The tests of the logic do not speak HTTP. */
net_http_pending *net_http_defer(net_http_response *out)
{
    (void)out;
    return NULL;
}

void net_http_finish(net_http_pending *p, net_http_response *r)
{
    (void)p;
    free(r->body);
}

void net_conn_peer(const net_conn *c, char *buf, size_t len) { snprintf(buf, len, "%s", c->peer); }
void net_conn_set_data(net_conn *c, void *data) { c->data = data; }
void *net_conn_data(const net_conn *c) { return c->data; }

net_timer *net_timer_new(net *n, net_timer_fn fn, void *arg)
{
    net_timer *t = calloc(1, sizeof *t);
    if (t) {
        t->owner = n;
        t->fn = fn;
        t->arg = arg;
        t->due_ms = -1;
        t->next = n->timers;
        n->timers = t;
    }
    return t;
}

void net_timer_set(net_timer *t, int64_t delay_ms) { t->due_ms = now_ms() + (delay_ms > 0 ? delay_ms : 0); }
void net_timer_cancel(net_timer *t) { t->due_ms = -1; }

void net_timer_free(net_timer *t)
{
    if (!t)
        return;
    for (net_timer **link = &t->owner->timers; *link; link = &(*link)->next)
        if (*link == t) {
            *link = t->next;
            break;
        }
    free(t);
}

void fake_run_timers(net *n)
{
    /* one at a time from the start: a timer's function may make or free others */
    for (int fired = 0; fired < 10000; fired++) {
        int64_t now = now_ms();
        net_timer *due = NULL;
        for (net_timer *t = n->timers; t && !due; t = t->next)
            if (t->due_ms >= 0 && t->due_ms <= now)
                due = t;
        if (!due)
            return;
        due->due_ms = -1;
        due->fn(due->arg);
    }
}

/* ---- the test's side ------------------------------------------------------------ */

net_conn *fake_connect(net *n, const char *peer)
{
    net_conn *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->owner = n;
    snprintf(c->peer, sizeof c->peer, "%s", peer);
    c->next_conn = n->conns;
    n->conns = c;
    n->cb.open(n->cb.ctx, c);
    return c;
}

void fake_say(net_conn *c, const char *text)
{
    if (!c->closed)
        c->owner->cb.message(c->owner->cb.ctx, c, text, strlen(text));
}

void fake_disconnect(net_conn *c)
{
    if (c->closed)
        return;
    c->owner->cb.closed(c->owner->cb.ctx, c);
    c->closed = true;
    clear(c);
}

void fake_turn(net *n)
{
    if (n->cb.before_wait)
        n->cb.before_wait(n->cb.ctx);
}

char *fake_next(net_conn *c)
{
    for (item **link = &c->head; *link; link = &(*link)->next) {
        item *it = *link;
        if (it->epoch <= c->owner->released) {
            *link = it->next;
            char *text = strdup(it->msg->text);
            net_msg_unref(it->msg);
            net_msg_unref(it->fallback);
            free(it);
            return text;
        }
    }
    return NULL;
}

int fake_held(const net_conn *c)
{
    int n = 0;
    for (const item *it = c->head; it; it = it->next)
        n += it->epoch > c->owner->released;
    return n;
}

int fake_close_code(const net_conn *c) { return c->close_code; }
