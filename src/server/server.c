/*
 * server.c — the server's life and its front door: connections come and
 * go, each message is parsed (proto.c), rate-limited and dispatched to the
 * handler that owns it; answers and broadcasts; the loop's metrics.
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auth.h"

int64_t server_now_ms(void) { return tg_clock_now_ms(); }

int64_t server_unix_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool take_token(rate_bucket *b, int64_t now, double per_second, double burst)
{
    if (b->at_ms == 0)
        b->tokens = burst;
    else
        b->tokens += (double)(now - b->at_ms) * per_second / 1000.0;
    if (b->tokens > burst)
        b->tokens = burst;
    b->at_ms = now;
    if (b->tokens < 1.0)
        return false;
    b->tokens -= 1.0;
    return true;
}

bool grow_array(void **items, int *cap, int count, size_t elem)
{
    if (count < *cap)
        return true;
    int more = *cap ? 2 * *cap : 8;
    void *grown = realloc(*items, (size_t)more * elem);
    if (!grown)
        return false;
    *items = grown;
    *cap = more;
    return true;
}

bool ptr_list_add(ptr_list *l, void *p)
{
    if (!grow_array((void **)&l->items, &l->cap, l->count, sizeof *l->items))
        return false;
    l->items[l->count++] = p;
    return true;
}

void ptr_list_remove(ptr_list *l, void *p)
{
    for (int i = 0; i < l->count; i++)
        if (l->items[i] == p) {
            l->items[i] = l->items[--l->count];
            return;
        }
}

const double metric_bounds[METRIC_BUCKETS] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 15000};

void histogram_add(histogram *h, double ms)
{
    int i = 0;
    while (i < METRIC_BUCKETS && ms > metric_bounds[i])
        i++;
    h->count[i]++;
    h->sum += ms;
    h->n++;
    if (ms > h->max)
        h->max = ms;
}

/* ---- answers ------------------------------------------------------------------ */

static net_msg *msg_text(json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text)
        return NULL;
    net_msg *m = net_msg_new(text, strlen(text));
    free(text);
    return m;
}

static void send_with(client *c, json_t *msg, uint64_t dep, json_t *fallback)
{
    net_msg *m = msg_text(msg), *f = fallback ? msg_text(fallback) : NULL;
    if (m && !c->closed)
        net_send_after(c->conn, m, dep, f);
    net_msg_unref(m);
    net_msg_unref(f);
}

void send_json(client *c, json_t *msg) { send_with(c, msg, 0, NULL); }

void send_json_after(client *c, json_t *msg, uint64_t dep) { send_with(c, msg, dep, NULL); }

static json_t *error_json(const proto_request *rq, const char *code, const char *message)
{
    json_t *msg = json_pack("{s:s, s:s, s:s}", "type", "error", "code", code, "message", message);
    if (rq && rq->has_id)
        json_object_set_new(msg, "id", json_integer(rq->id));
    return msg;
}

/* What a client hears instead of an answer whose writes failed. */
static json_t *failure_json(const proto_request *rq)
{
    return error_json(rq, "internal", "the server could not store it: nothing of it was kept");
}

void reply_ok(client *c, const proto_request *rq, json_t *fields, uint64_t dep)
{
    json_t *msg = fields ? fields : json_object();
    json_object_set_new(msg, "type", json_string("ok"));
    if (rq->has_id)
        json_object_set_new(msg, "id", json_integer(rq->id));
    send_with(c, msg, dep, dep ? failure_json(rq) : NULL);
}

void reply_error(client *c, const proto_request *rq, const char *code, const char *message,
                 uint64_t dep)
{
    send_with(c, error_json(rq, code, message), dep, dep ? failure_json(rq) : NULL);
}

void send_ok(client *c, const proto_request *rq, json_t *fields) { reply_ok(c, rq, fields, 0); }

void send_error(client *c, const proto_request *rq, const char *code, const char *message)
{
    reply_error(c, rq, code, message, 0);
}

void lobby_broadcast(server *s, json_t *msg, uint64_t dep)
{
    net_msg *m = msg_text(msg);
    if (!m)
        return;
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->clients, &i, &id, &v);) {
        client *c = v;
        if (c->lobby && !c->closed)
            net_send_after(c->conn, m, dep, NULL);
    }
    net_msg_unref(m);
}

client *client_by_id(server *s, int64_t id)
{
    client *c = imap_get(&s->clients, id);
    return c && !c->closed ? c : NULL;
}

/* ---- addresses ---------------------------------------------------------------- */

int64_t address_key(const char *text)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = text; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    return (int64_t)(h >> 2) + 1;
}

address *address_of(server *s, int64_t key)
{
    address *a = imap_get(&s->addresses, key);
    if (!a) {
        a = calloc(1, sizeof *a);
        if (!a || !imap_put(&s->addresses, key, a)) {
            free(a);
            return NULL;
        }
        a->key = key;
    }
    a->seen_ms = server_now_ms();
    return a;
}

/* ---- dispatch ----------------------------------------------------------------- */

static void dispatch(server *s, client *c, const proto_request *rq)
{
    bool open = rq->type == P_HELLO || rq->type == P_REGISTER || rq->type == P_LOGIN ||
                rq->type == P_GUEST || rq->type == P_PING || rq->type == P_LOBBY_SUBSCRIBE ||
                rq->type == P_LOBBY_UNSUBSCRIBE || rq->type == P_WATCH ||
                rq->type == P_UNWATCH;
    if (!open && !c->user)
        return send_error(c, rq, "auth_required", "log in or play as a guest first");
    s->requests++;
    switch (rq->type) {
    case P_HELLO:
    case P_REGISTER:
    case P_LOGIN:
    case P_GUEST:
    case P_LOGOUT: return session_handle(s, c, rq);
    case P_PING: return send_json(c, json_pack("{s:s, s:I}", "type", "pong", "id",
                                               (json_int_t)(rq->has_id ? rq->id : 0)));
    case P_LOBBY_SUBSCRIBE:
    case P_LOBBY_UNSUBSCRIBE:
    case P_CHALLENGE_CREATE:
    case P_CHALLENGE_CANCEL:
    case P_CHALLENGE_ACCEPT:
    case P_ENGINE_PLAY: return lobby_handle(s, c, rq);
    case P_MATCH_SEEK:
    case P_MATCH_CANCEL: return quickmatch_handle(s, c, rq);
    case P_TOUR_CREATE:
    case P_TOUR_JOIN:
    case P_TOUR_LEAVE:
    case P_TOUR_PAIR:
    case P_TOUR_START:
    case P_TOUR_RESULT: return tournament_handle(s, c, rq);
    default: return game_handle(s, c, rq);
    }
}

static void handle_message(server *s, client *c, const char *data, size_t len)
{
    int64_t now = server_now_ms();
    account *a = c->user ? account_of(s, c->user) : NULL;
    proto_request rq;
    char err[200];
    int parsed = proto_parse(data, len, &rq, err, sizeof err);
    /* parsed first (at most 8 KiB), so that the refusal answers its id */
    if (!take_token(&c->rate, now, RATE_PER_S, RATE_BURST) ||
        (a && !take_token(&a->rate, now, RATE_PER_S, RATE_BURST)))
        send_error(c, &rq, "rate_limited", "too many messages: slow down");
    else if (parsed != 0 && analysis_request(s, c, data, len))
        ; /* analysis.*: server_analysis.c's own messages */
    else if (parsed != 0)
        send_error(c, &rq, "bad_request", err);
    else
        dispatch(s, c, &rq);
    json_decref(rq.root);
}

#define INBOX_MAX 32

static void on_message(void *ctx, net_conn *conn, const char *data, size_t len)
{
    server *s = ctx;
    client *c = net_conn_data(conn);
    if (!c || c->closed)
        return;
    if (c->waiting) { /* a session request is being stored: this one waits its turn */
        if (c->inbox_count >= INBOX_MAX ||
            !grow_array((void **)&c->inbox, &c->inbox_cap, c->inbox_count, sizeof *c->inbox)) {
            net_close(conn, 1008, "too many messages while logging in");
            return;
        }
        char *copy = malloc(len + 1);
        if (!copy)
            return;
        memcpy(copy, data, len);
        copy[len] = '\0';
        c->inbox[c->inbox_count++] = copy;
        return;
    }
    handle_message(s, c, data, len);
}

bool client_park(client *c, const proto_request *rq)
{
    char *text = rq->root ? json_dumps(rq->root, JSON_COMPACT) : NULL;
    if (!client_park_text(c, text)) {
        free(text);
        return false;
    }
    return true;
}

bool client_park_text(client *c, char *text)
{
    if (!text || c->inbox_count >= INBOX_MAX ||
        !grow_array((void **)&c->inbox, &c->inbox_cap, c->inbox_count, sizeof *c->inbox))
        return false; /* text stays the caller's */
    memmove(c->inbox + 1, c->inbox, (size_t)c->inbox_count * sizeof *c->inbox);
    c->inbox[0] = text;
    c->inbox_count++;
    c->waiting = true;
    return true;
}

void client_resume(server *s, client *c)
{
    /* each message leaves the inbox before it is handled: handling it may
     * park it again (client_park puts it first) */
    while (!c->waiting && !c->closed && c->inbox_count > 0) {
        char *m = c->inbox[0];
        memmove(c->inbox, c->inbox + 1, (size_t)(c->inbox_count - 1) * sizeof *c->inbox);
        c->inbox_count--;
        handle_message(s, c, m, strlen(m));
        free(m);
    }
}

static void on_open(void *ctx, net_conn *conn)
{
    server *s = ctx;
    client *c = calloc(1, sizeof *c);
    if (!c || !imap_put(&s->clients, ++s->next_client, c)) {
        free(c);
        net_close(conn, 1011, "server full");
        return;
    }
    c->id = s->next_client;
    c->conn = conn;
    char peer[128] = "";
    net_conn_peer(conn, peer, sizeof peer);
    c->addr = address_key(peer);
    address_of(s, c->addr);
    net_conn_set_data(conn, c);
    send_json(c, json_pack("{s:s, s:i, s:s}", "type", "welcome", "protocol", PROTO_VERSION,
                           "server", "tengen 0.1.0"));
    if (s->store_failing)
        send_json(c, json_pack("{s:s, s:s, s:s}", "type", "server", "store", "failing", "message",
                               "the server cannot store anything now: games wait"));
}

/* A closed connection leaves its games and its account now, and memory at
 * the end of the turn. */
static void on_closed(void *ctx, net_conn *conn)
{
    server *s = ctx;
    client *c = net_conn_data(conn);
    net_conn_set_data(conn, NULL);
    if (!c || c->closed)
        return;
    game_client_gone(s, c);
    quickmatch_client_gone(s, c);
    analysis_client_gone(s, c);
    session_closed(s, c);
    c->closed = true;
    c->conn = NULL;
    imap_del(&s->clients, c->id);
    if (!ptr_list_add(&s->closing, c)) { /* no room to defer: nothing refers to it now */
        for (int i = 0; i < c->inbox_count; i++)
            free(c->inbox[i]);
        free(c->inbox);
        free(c->watching);
        free(c);
    }
}

static int collect(server *s)
{
    store_job *job;
    int n = 0;
    for (; (job = store_async_done(s->db)); n++)
        turn_store_done(s, job);
    return n;
}

static void on_wake(void *ctx)
{
    server *s = ctx;
    if (!s->db) /* stopping: the store's threads are gone */
        return;
    collect(s);
    nodes_heard(s);
    game_engine_answers(s);
    analysis_answers(s);
}

static void on_stopping(void *ctx)
{
    server *s = ctx;
    s->stopping = true;
    turn_end(s);
}

static void before_wait(void *ctx) { turn_end(ctx); }

static void wake_loop(void *arg)
{
    server *s = arg;
    net_wake(s->net);
}

/* ---- the loop's health ------------------------------------------------------- */

#define LAG_PERIOD_MS 50

static void on_lag_timer(void *arg)
{
    server *s = arg;
    int64_t now = server_now_ms();
    if (s->lag_expected_ms)
        histogram_add(&s->loop_lag, (double)(now > s->lag_expected_ms ? now - s->lag_expected_ms : 0));
    s->lag_expected_ms = now + LAG_PERIOD_MS;
    net_timer_set(s->lag_timer, LAG_PERIOD_MS);
}

static void on_sweep_timer(void *arg)
{
    server *s = arg;
    accounts_sweep(s);
    /* addresses not seen for an hour, and with nothing going, are forgotten */
    int64_t now = server_now_ms(), key;
    void *v;
    int64_t stale[256];
    int n = 0;
    for (size_t i = 0; n < 256 && imap_next(&s->addresses, &i, &key, &v);) {
        address *a = v;
        if (now - a->seen_ms > 3600 * 1000 && a->challenges == 0)
            stale[n++] = key;
    }
    for (int i = 0; i < n; i++)
        free(imap_del(&s->addresses, stale[i]));
    net_timer_set(s->sweep_timer, 30000);
}

/* ---- life ---------------------------------------------------------------------- */

server *server_new(const server_config *cfg, char *err, size_t errlen)
{
    if (!auth_init()) {
        snprintf(err, errlen, "libsodium cannot start");
        return NULL;
    }
    server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    store *writer = store_open(cfg->db_path, err, errlen);
    store *reader = writer ? store_open(cfg->db_path, err, errlen) : NULL;
    s->api_db = reader ? store_open(cfg->db_path, err, errlen) : NULL;
    if (!s->api_db) {
        store_close(writer);
        store_close(reader);
        goto fail;
    }
    if (cfg->fault_injection)
        writer = s->faulty = store_faulty_wrap(writer);
    net_callbacks cb = {s, on_open, on_message, on_closed, http_answer, on_wake, on_stopping,
                        before_wait};
    s->net = net_new(cfg->listen_addr, cfg->port, cfg->max_connections, &cb, err, errlen);
    net_options no = {cfg->ws_ping_s, cfg->ws_hangup_s, cfg->max_connections_per_ip,
                      cfg->trusted_proxies, cfg->trusted_proxy_count};
    if (!s->net || net_set_options(s->net, &no, err, errlen) != 0) {
        store_close(writer);
        store_close(reader);
        goto fail;
    }
    s->db = store_async_new(writer, reader, wake_loop, s);
    if (!s->db) {
        snprintf(err, errlen, "cannot start the store's threads");
        goto fail;
    }
    s->engines = engine_pool_new(cfg->engines > 0 ? cfg->engines : 1, 256, s->net);
    if (!s->engines) {
        snprintf(err, errlen, "cannot start the engine workers");
        goto fail;
    }
    if (!analysis_start(s, err, errlen))
        goto fail;
    int64_t max_game = 0, max_challenge = 0;
    if (s->api_db->ops->max_ids(s->api_db, &max_game, &max_challenge) != 0) {
        snprintf(err, errlen, "cannot read the database: %s", s->api_db->ops->error(s->api_db));
        goto fail;
    }
    s->next_game = max_game;
    s->next_challenge = max_challenge;
    if (!nodes_start(s, wake_loop, err, errlen))
        goto fail;
    if (!games_restore(s, err, errlen) || !lobby_restore(s, err, errlen) ||
        !tournaments_restore(s, err, errlen))
        goto fail;
    s->lag_timer = net_timer_new(s->net, on_lag_timer, s);
    s->sweep_timer = net_timer_new(s->net, on_sweep_timer, s);
    if (!s->lag_timer || !s->sweep_timer) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    net_timer_set(s->lag_timer, LAG_PERIOD_MS);
    net_timer_set(s->sweep_timer, 30000);
    turn_end(s); /* what the restore wrote (an engine's placement) goes out */
    return s;
fail:
    server_free(s);
    return NULL;
}

int server_port(const server *s) { return net_port(s->net); }

void server_run(server *s) { net_run(s->net); }

void server_settle(server *s)
{
    for (int round = 0; round < 1000; round++) {
        turn_end(s);
        /* every job submitted so far is finished and waits to be collected;
         * collecting may submit the next step of a chain (a login's read,
         * then its password check, then its write): settled only when a
         * round collects nothing */
        store_async_drain(s->db);
        if (!collect(s) && !s->pending && !s->open)
            break;
    }
    turn_end(s);
}

void server_inject_fault(server *s, long nth_write)
{
    if (s->faulty)
        store_faulty_arm(s->faulty, nth_write);
}

long server_store_writes(server *s) { return s->faulty ? store_faulty_writes(s->faulty) : 0; }

void server_free(server *s)
{
    if (!s)
        return;
    if (s->db && s->net) { /* what was played is stored before the end */
        turn_end(s);
        store_async_drain(s->db);
        collect(s);
    }
    engine_pool_free(s->engines);
    s->engines = NULL; /* a wake-up still pending finds no pool */
    analysis_free(s);
    games_free(s);
    lobby_free(s);
    quickmatch_free(s);
    tournaments_free(s);
    turn_end(s);
    int64_t key;
    void *v;
    for (size_t i = 0; imap_next(&s->clients, &i, &key, &v);) {
        client *c = v;
        net_conn_set_data(c->conn, NULL);
        for (int k = 0; k < c->inbox_count; k++)
            free(c->inbox[k]);
        free(c->inbox);
        free(c->watching);
        free(c);
    }
    imap_free(&s->clients);
    for (size_t i = 0; imap_next(&s->accounts, &i, &key, &v);)
        free(v);
    imap_free(&s->accounts);
    for (size_t i = 0; imap_next(&s->addresses, &i, &key, &v);)
        free(v);
    imap_free(&s->addresses);
    free(s->closing.items);
    free(s->releasing.items);
    for (int i = 0; i < 64; i++)
        free(s->cache[i].state);
    if (s->db) {
        store_async_drain(s->db);
        collect(s);
    }
    store_async_free(s->db);
    s->db = NULL; /* a wake-up still pending in net_free finds no store */
    nodes_free(s);
    if (s->net)
        http_release_all(s);
    net_timer_free(s->lag_timer);
    net_timer_free(s->sweep_timer);
    net_free(s->net);
    store_close(s->api_db);
    free(s);
}
