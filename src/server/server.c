/*
 * server.c — the server's loop side: connections come and go, each
 * message is parsed (proto.c), rate-limited and dispatched; accounts,
 * sessions and the lobby (challenges, engine games) live here, the games
 * themselves in server_game.c.
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

/* ---- answers ------------------------------------------------------------------ */

void send_json(client *c, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (text) {
        net_send_text(c->conn, text);
        free(text);
    }
}

void send_ok(client *c, const proto_request *rq, json_t *fields)
{
    json_t *msg = fields ? fields : json_object();
    json_object_set_new(msg, "type", json_string("ok"));
    if (rq->has_id)
        json_object_set_new(msg, "id", json_integer(rq->id));
    send_json(c, msg);
}

void send_error(client *c, const proto_request *rq, const char *code, const char *message)
{
    json_t *msg = json_pack("{s:s, s:s, s:s}", "type", "error", "code", code, "message", message);
    if (rq && rq->has_id)
        json_object_set_new(msg, "id", json_integer(rq->id));
    send_json(c, msg);
}

void lobby_broadcast(server *s, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text)
        return;
    net_msg *m = net_msg_new(text, strlen(text));
    free(text);
    if (!m)
        return;
    for (int i = 0; i < s->clients.count; i++) {
        client *c = s->clients.items[i];
        if (c->lobby)
            net_send(c->conn, m);
    }
    net_msg_unref(m);
}

/* ---- accounts ----------------------------------------------------------------- */

static void challenge_remove(server *s, challenge *ch);
static void drop_challenges_of(server *s, int64_t user);

account *account_of(server *s, int64_t user)
{
    for (int i = 0; i < s->accounts.count; i++) {
        account *a = s->accounts.items[i];
        if (a->user == user)
            return a;
    }
    return NULL;
}

static account *account_touch(server *s, int64_t user)
{
    account *a = account_of(s, user);
    if (!a) {
        a = calloc(1, sizeof *a);
        if (!a || !ptr_list_add(&s->accounts, a)) {
            free(a);
            return NULL;
        }
        a->user = user;
        a->rate.tokens = RATE_BURST;
        a->rate.at_ms = server_now_ms();
    }
    return a;
}

static json_t *user_json(const client *c)
{
    if (!c->user)
        return json_null();
    return json_pack("{s:I, s:s, s:b}", "id", (json_int_t)c->user, "name", c->name, "guest",
                     c->guest);
}

static void log_in(server *s, client *c, const store_user *u)
{
    if (c->user) {
        account *old = account_of(s, c->user);
        if (old && --old->connections == 0) {
            old->gone_since_ms = server_now_ms();
            drop_challenges_of(s, c->user);
        }
    }
    c->user = u->id;
    c->guest = u->guest;
    snprintf(c->name, sizeof c->name, "%s", u->name);
    account *a = account_touch(s, u->id);
    if (a)
        a->connections++;
}

/* An account gone from the server leaves no open challenge behind. */
static void drop_challenges_of(server *s, int64_t user)
{
    for (int i = s->challenges.count - 1; i >= 0; i--) {
        challenge *ch = s->challenges.items[i];
        if (ch->challenger == user)
            challenge_remove(s, ch);
    }
}

static void log_out_connection(server *s, client *c)
{
    if (!c->user)
        return;
    account *a = account_of(s, c->user);
    if (a && --a->connections == 0) {
        a->gone_since_ms = server_now_ms();
        drop_challenges_of(s, c->user);
    }
    c->user = 0;
    c->name[0] = '\0';
}

/* Give c a new session token for u and answer with it. */
static void grant_session(server *s, client *c, const proto_request *rq, const store_user *u)
{
    char token[AUTH_TOKEN_TEXT];
    uint8_t hash[32];
    auth_token_new(token, hash);
    if (!store_write_begin(s) || s->db->ops->token_add(s->db, hash, u->id) != 0)
        return send_error(c, rq, "internal", "cannot store the session");
    log_in(s, c, u);
    send_ok(c, rq, json_pack("{s:s, s:o}", "token", token, "user", user_json(c)));
}

static void on_hello(server *s, client *c, const proto_request *rq)
{
    uint8_t hash[32];
    int64_t user = 0;
    store_user u;
    if (rq->token && auth_token_hash(rq->token, hash) &&
        s->db->ops->token_user(s->db, hash, &user) == 0 &&
        s->db->ops->user_by_id(s->db, user, &u) == 0)
        log_in(s, c, &u);
    send_ok(c, rq, json_pack("{s:o, s:i}", "user", user_json(c), "protocol", PROTO_VERSION));
}

/* Argon2id costs ~30 ms of the loop: a few a second for the whole server,
 * so that nobody can stall the games (or guess passwords quickly). */
static bool password_work_allowed(server *s, client *c, const proto_request *rq)
{
    if (take_token(&s->password_rate, server_now_ms(), 5, 10))
        return true;
    send_error(c, rq, "rate_limited", "too many logins at once: try again in a moment");
    return false;
}

static void on_register(server *s, client *c, const proto_request *rq)
{
    size_t plen = strlen(rq->password);
    if (!auth_name_valid(rq->name) || strncmp(rq->name, "guest-", 6) == 0)
        return send_error(c, rq, "bad_request",
                          "a name is 1-24 letters, digits, '_', '-' or '.', not guest-...");
    if (plen < 8 || plen > 256)
        return send_error(c, rq, "bad_request", "a password is 8 to 256 bytes");
    if (!password_work_allowed(s, c, rq))
        return;
    store_user u;
    memset(&u, 0, sizeof u);
    snprintf(u.name, sizeof u.name, "%s", rq->name);
    if (!auth_password_hash(rq->password, u.password_hash))
        return send_error(c, rq, "internal", "cannot hash the password");
    int rc = store_write_begin(s) ? s->db->ops->user_add(s->db, &u, &u.id) : -1;
    if (rc == 1)
        return send_error(c, rq, "name_taken", "that name is taken");
    if (rc != 0)
        return send_error(c, rq, "internal", "cannot store the account");
    grant_session(s, c, rq, &u);
}

static void on_login(server *s, client *c, const proto_request *rq)
{
    store_user u;
    if (!password_work_allowed(s, c, rq))
        return;
    if (s->db->ops->user_by_name(s->db, rq->name, &u) != 0 || u.guest ||
        !auth_password_check(u.password_hash, rq->password))
        return send_error(c, rq, "bad_credentials", "unknown name or wrong password");
    grant_session(s, c, rq, &u);
}

static void on_guest(server *s, client *c, const proto_request *rq)
{
    if (c->guests_made >= 3)
        return send_error(c, rq, "rate_limited", "at most 3 guests a connection");
    c->guests_made++;
    store_user u;
    memset(&u, 0, sizeof u);
    u.guest = true;
    for (int attempt = 0; attempt < 5; attempt++) {
        char hex[16];
        auth_random_hex(hex, 3);
        snprintf(u.name, sizeof u.name, "guest-%s", hex);
        int rc = store_write_begin(s) ? s->db->ops->user_add(s->db, &u, &u.id) : -1;
        if (rc == 0)
            return grant_session(s, c, rq, &u);
        if (rc != 1)
            break;
    }
    send_error(c, rq, "internal", "cannot create a guest");
}

static void on_logout(server *s, client *c, const proto_request *rq)
{
    if (!c->user)
        return send_error(c, rq, "auth_required", "not logged in");
    if (!store_write_begin(s) || s->db->ops->tokens_revoke(s->db, c->user) != 0)
        return send_error(c, rq, "internal", "cannot revoke the session");
    /* every connection of the account is logged out with its tokens */
    int64_t user = c->user;
    for (int i = 0; i < s->clients.count; i++) {
        client *other = s->clients.items[i];
        if (other->user == user)
            log_out_connection(s, other);
    }
    send_ok(c, rq, NULL);
}

/* ---- the lobby ---------------------------------------------------------------- */

static json_t *challenge_json(const challenge *ch)
{
    return json_pack("{s:I, s:s, s:o, s:o, s:I}", "id", (json_int_t)ch->id, "challenger",
                     ch->challenger_name, "opponent",
                     ch->opponent[0] ? json_string(ch->opponent) : json_null(), "settings",
                     room_settings_to_json(&ch->settings), "created",
                     (json_int_t)ch->created_unix_ms);
}

static json_t *engine_names(server *s)
{
    json_t *a = json_array();
    json_array_append_new(a, json_string("tengen"));
    for (int i = 0; i < s->cfg.extra_count; i++)
        json_array_append_new(a, json_string(s->cfg.extra[i].name));
    return a;
}

static void on_lobby_subscribe(server *s, client *c, const proto_request *rq)
{
    c->lobby = true;
    send_ok(c, rq, NULL);
    json_t *list = json_array();
    for (int i = 0; i < s->challenges.count; i++)
        json_array_append_new(list, challenge_json(s->challenges.items[i]));
    send_json(c, json_pack("{s:s, s:o, s:o, s:o}", "type", "lobby", "challenges", list, "games",
                           game_summaries(s), "engines", engine_names(s)));
}

static challenge *challenge_find(server *s, int64_t id)
{
    for (int i = 0; i < s->challenges.count; i++) {
        challenge *ch = s->challenges.items[i];
        if (ch->id == id)
            return ch;
    }
    return NULL;
}

static void challenge_remove(server *s, challenge *ch)
{
    ptr_list_remove(&s->challenges, ch);
    lobby_broadcast(s, json_pack("{s:s, s:I}", "type", "lobby.update", "challenge_removed",
                                 (json_int_t)ch->id));
    free(ch);
}

static void on_challenge_create(server *s, client *c, const proto_request *rq)
{
    challenge ch;
    memset(&ch, 0, sizeof ch);
    char err[200];
    if (!room_settings_from_json(rq->settings, &ch.settings, err, sizeof err))
        return send_error(c, rq, "bad_request", err);
    if (rq->opponent && (!auth_name_valid(rq->opponent) || strcmp(rq->opponent, c->name) == 0))
        return send_error(c, rq, "bad_request", "no such opponent");
    int mine = 0;
    for (int i = 0; i < s->challenges.count; i++)
        mine += ((challenge *)s->challenges.items[i])->challenger == c->user;
    if (mine >= 10)
        return send_error(c, rq, "rate_limited", "at most 10 open challenges each");
    if (s->challenges.count >= 1000)
        return send_error(c, rq, "rate_limited", "the lobby is full: try again later");
    challenge *stored = malloc(sizeof *stored);
    if (!stored || !ptr_list_add(&s->challenges, stored)) {
        free(stored);
        return send_error(c, rq, "internal", "out of memory");
    }
    ch.id = ++s->next_challenge;
    ch.challenger = c->user;
    snprintf(ch.challenger_name, sizeof ch.challenger_name, "%s", c->name);
    snprintf(ch.opponent, sizeof ch.opponent, "%s", rq->opponent ? rq->opponent : "");
    ch.created_unix_ms = server_unix_ms();
    *stored = ch;
    send_ok(c, rq, json_pack("{s:o}", "challenge", challenge_json(stored)));
    lobby_broadcast(s, json_pack("{s:s, s:o}", "type", "lobby.update", "challenge",
                                 challenge_json(stored)));
}

static void on_challenge_cancel(server *s, client *c, const proto_request *rq)
{
    challenge *ch = challenge_find(s, rq->challenge);
    if (!ch)
        return send_error(c, rq, "not_found", "no such challenge");
    if (ch->challenger != c->user)
        return send_error(c, rq, "forbidden", "not your challenge");
    challenge_remove(s, ch);
    send_ok(c, rq, NULL);
}

/* The challenger's colour: given, or by nigiri (R1), the challenger being
 * the senior player who holds the white stones. */
static tg_color draw_color(const room_settings *st, char *nigiri, size_t len)
{
    nigiri[0] = '\0';
    if (st->color)
        return (tg_color)st->color;
    tg_rng rng;
    tg_rng_seed(&rng, auth_random_u64());
    tg_nigiri draw;
    tg_nigiri_draw(&rng, &draw);
    tg_nigiri_format(&draw, nigiri, len);
    return draw.senior_black ? TG_BLACK : TG_WHITE;
}

static void on_challenge_accept(server *s, client *c, const proto_request *rq)
{
    challenge *ch = challenge_find(s, rq->challenge);
    if (!ch)
        return send_error(c, rq, "not_found", "no such challenge");
    if (ch->challenger == c->user)
        return send_error(c, rq, "forbidden", "you cannot accept your own challenge");
    if (ch->opponent[0] && strcmp(ch->opponent, c->name) != 0)
        return send_error(c, rq, "forbidden", "this challenge is for another player");
    char nigiri[160];
    tg_color challenger = draw_color(&ch->settings, nigiri, sizeof nigiri);
    int64_t black = challenger == TG_BLACK ? ch->challenger : c->user;
    int64_t white = challenger == TG_BLACK ? c->user : ch->challenger;
    const char *black_name = challenger == TG_BLACK ? ch->challenger_name : c->name;
    const char *white_name = challenger == TG_BLACK ? c->name : ch->challenger_name;
    const char *none[3] = {NULL, NULL, NULL};
    char err[200];
    live *lv = game_start(s, &ch->settings, black, black_name, white, white_name, nigiri, none,
                          none, err, sizeof err);
    if (!lv)
        return send_error(c, rq, "internal", err);
    challenge_remove(s, ch);
    send_ok(c, rq, json_pack("{s:I}", "game", (json_int_t)lv->r->id));
}

static const char *engine_command_of(server *s, const char *name, const proto_request *rq,
                                     char *buf, size_t len)
{
    if (strcmp(name, "tengen") == 0) {
        if (rq->seconds > 0)
            snprintf(buf, len, "%s gtp --time-per-move %.3f --max-memory 128",
                     s->cfg.tengen_command, rq->seconds);
        else
            snprintf(buf, len, "%s gtp --playouts %lld --max-memory 128", s->cfg.tengen_command,
                     (long long)(rq->playouts ? rq->playouts : 1000));
        return buf;
    }
    for (int i = 0; i < s->cfg.extra_count; i++)
        if (strcmp(name, s->cfg.extra[i].name) == 0) {
            snprintf(buf, len, "%s", s->cfg.extra[i].command);
            return buf;
        }
    return NULL;
}

static void on_engine_play(server *s, client *c, const proto_request *rq)
{
    room_settings st;
    char err[200], command[512], nigiri[160];
    if (!room_settings_from_json(rq->settings, &st, err, sizeof err))
        return send_error(c, rq, "bad_request", err);
    const char *name = rq->engine ? rq->engine : "tengen";
    if (!engine_command_of(s, name, rq, command, sizeof command))
        return send_error(c, rq, "not_found", "no such engine");
    /* the engines are shared: a person has at most 3 engine games going */
    int going = 0;
    for (int64_t id = 1; id < s->lives_cap; id++) {
        const live *lv = s->lives[id];
        if (lv && lv->r->phase != ROOM_OVER && room_color_of(lv->r, c->user) != TG_EMPTY &&
            (lv->r->engine[TG_BLACK][0] || lv->r->engine[TG_WHITE][0]))
            going++;
    }
    if (going >= 3)
        return send_error(c, rq, "rate_limited", "at most 3 games against engines at once each");
    if (!engine_pool_has_room(s->engines))
        return send_error(c, rq, "busy", "the engines are all busy: try again in a moment");
    tg_color person = draw_color(&st, nigiri, sizeof nigiri);
    tg_color engine = tg_opponent(person);
    const char *names[3] = {NULL, NULL, NULL}, *commands[3] = {NULL, NULL, NULL};
    names[engine] = name;
    commands[engine] = command;
    live *lv = game_start(s, &st, person == TG_BLACK ? c->user : 0,
                          person == TG_BLACK ? c->name : name, person == TG_WHITE ? c->user : 0,
                          person == TG_WHITE ? c->name : name, nigiri, names, commands, err,
                          sizeof err);
    if (!lv)
        return send_error(c, rq, "internal", err);
    send_ok(c, rq, json_pack("{s:I}", "game", (json_int_t)lv->r->id));
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
    switch (rq->type) {
    case P_HELLO: return on_hello(s, c, rq);
    case P_REGISTER: return on_register(s, c, rq);
    case P_LOGIN: return on_login(s, c, rq);
    case P_GUEST: return on_guest(s, c, rq);
    case P_LOGOUT: return on_logout(s, c, rq);
    case P_PING: return send_json(c, json_pack("{s:s, s:I}", "type", "pong", "id",
                                               (json_int_t)(rq->has_id ? rq->id : 0)));
    case P_LOBBY_SUBSCRIBE: return on_lobby_subscribe(s, c, rq);
    case P_LOBBY_UNSUBSCRIBE: c->lobby = false; return send_ok(c, rq, NULL);
    case P_CHALLENGE_CREATE: return on_challenge_create(s, c, rq);
    case P_CHALLENGE_CANCEL: return on_challenge_cancel(s, c, rq);
    case P_CHALLENGE_ACCEPT: return on_challenge_accept(s, c, rq);
    case P_ENGINE_PLAY: return on_engine_play(s, c, rq);
    default: return game_handle(s, c, rq);
    }
}

static void on_message(void *ctx, net_conn *conn, const char *data, size_t len)
{
    server *s = ctx;
    client *c = net_conn_data(conn);
    if (!c)
        return;
    int64_t now = server_now_ms();
    account *a = c->user ? account_of(s, c->user) : NULL;
    proto_request rq;
    char err[200];
    int parsed = proto_parse(data, len, &rq, err, sizeof err);
    /* parsed first (at most 8 KiB), so that the refusal answers its id */
    if (!take_token(&c->rate, now, RATE_PER_S, RATE_BURST) ||
        (a && !take_token(&a->rate, now, RATE_PER_S, RATE_BURST)))
        send_error(c, &rq, "rate_limited", "too many messages: slow down");
    else if (parsed != 0)
        send_error(c, &rq, "bad_request", err);
    else
        dispatch(s, c, &rq);
    json_decref(rq.root);
}

static void on_open(void *ctx, net_conn *conn)
{
    server *s = ctx;
    client *c = calloc(1, sizeof *c);
    if (!c || !ptr_list_add(&s->clients, c)) {
        free(c);
        net_close(conn, 1011, "server full");
        return;
    }
    c->conn = conn;
    c->rate.tokens = RATE_BURST;
    c->rate.at_ms = server_now_ms();
    net_conn_set_data(conn, c);
    send_json(c, json_pack("{s:s, s:i, s:s}", "type", "welcome", "protocol", PROTO_VERSION,
                           "server", "tengen 0.1.0"));
}

static void on_closed(void *ctx, net_conn *conn)
{
    server *s = ctx;
    client *c = net_conn_data(conn);
    if (!c)
        return;
    game_client_gone(s, c);
    log_out_connection(s, c);
    ptr_list_remove(&s->clients, c);
    free(c->watching);
    free(c);
    net_conn_set_data(conn, NULL);
}

static void on_wake(void *ctx) { game_engine_answers(ctx); }

static void on_stopping(void *ctx)
{
    server *s = ctx;
    s->stopping = true;
    server_flush(s);
}

static void before_wait(void *ctx) { server_flush(ctx); }

/* ---- group commit ------------------------------------------------------------- */

bool store_write_begin(server *s)
{
    if (s->in_transaction)
        return true;
    if (s->db->ops->begin(s->db) != 0) {
        if (!s->cfg.quiet)
            fprintf(stderr, "tengen serve: cannot begin a transaction: %s\n", s->db->ops->error(s->db));
        return false;
    }
    s->in_transaction = true;
    return true;
}

void server_flush(server *s)
{
    if (s->in_transaction) {
        s->in_transaction = false;
        if (s->db->ops->commit(s->db) != 0) {
            if (!s->cfg.quiet)
                fprintf(stderr, "tengen serve: cannot commit: %s\n", s->db->ops->error(s->db));
            s->in_transaction = true;
            games_rollback(s);
            return;
        }
        for (int i = 0; i < s->touched.count; i++) {
            live *lv = s->touched.items[i];
            lv->touched = false;
            game_release_if_idle(s, lv); /* a finished game nobody watches leaves memory */
        }
        s->touched.count = 0;
    }
    net_release(s->net);
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
    s->db = store_sqlite_open(cfg->db_path, err, errlen);
    if (!s->db)
        goto fail;
    net_callbacks cb = {s, on_open, on_message, on_closed, http_answer, on_wake, on_stopping,
                        before_wait};
    s->net = net_new(cfg->listen_addr, cfg->port, cfg->max_connections, &cb, err, errlen);
    if (!s->net)
        goto fail;
    s->engines = engine_pool_new(cfg->engines > 0 ? cfg->engines : 1, 256, s->net);
    if (!s->engines) {
        snprintf(err, errlen, "cannot start the engine workers");
        goto fail;
    }
    if (!games_restore(s, err, errlen))
        goto fail;
    return s;
fail:
    server_free(s);
    return NULL;
}

int server_port(const server *s) { return net_port(s->net); }

void server_run(server *s) { net_run(s->net); }

void server_free(server *s)
{
    if (!s)
        return;
    if (s->db && s->net)
        server_flush(s);
    engine_pool_free(s->engines);
    s->engines = NULL; /* a wake-up still pending finds no pool */
    games_free(s);
    free(s->touched.items);
    for (int i = 0; i < s->clients.count; i++) {
        client *c = s->clients.items[i];
        net_conn_set_data(c->conn, NULL);
        free(c->watching);
        free(c);
    }
    free(s->clients.items);
    for (int i = 0; i < s->accounts.count; i++)
        free(s->accounts.items[i]);
    free(s->accounts.items);
    for (int i = 0; i < s->challenges.count; i++)
        free(s->challenges.items[i]);
    free(s->challenges.items);
    net_free(s->net);
    store_close(s->db);
    free(s);
}
