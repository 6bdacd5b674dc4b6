/*
 * server_session.c — accounts and sessions: hello (a session token),
 * register, login, guest, logout.  Argon2id runs on the store's worker
 * thread and every read and write on the store's threads, never on the
 * loop; a client sending one of these waits for its answer (its later
 * messages are held, in order) and is logged in only once what makes the
 * session is durable.  Costs are limited per connection, per account and
 * per address.
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "auth.h"

/* Per address: registrations and guests made, password checks. */
#define REGISTER_PER_S (1.0 / 10)
#define REGISTER_BURST 20
#define GUEST_PER_S (1.0 / 10)
#define GUEST_BURST 30
#define PASSWORD_PER_S 1.0
#define PASSWORD_BURST 8
/* Argon2id jobs waiting for the worker, for the whole server. */
#define PASSWORD_QUEUE_MAX 16

account *account_of(server *s, int64_t user) { return imap_get(&s->accounts, user); }

account *account_touch(server *s, int64_t user)
{
    account *a = account_of(s, user);
    if (!a) {
        a = calloc(1, sizeof *a);
        if (!a || !imap_put(&s->accounts, user, a)) {
            free(a);
            return NULL;
        }
        a->user = user;
    }
    return a;
}

/* A challenge restored at start waits this long for its challenger. */
#define CHALLENGE_GRACE_MS (2 * 60 * 1000)

/* Accounts gone for an hour, with nothing open, leave memory; challenges
 * kept across a restart whose challenger has not come back are dropped. */
void accounts_sweep(server *s)
{
    int64_t now = server_now_ms(), user, gone[256], stale[256];
    void *v;
    int n = 0, m = 0;
    for (size_t i = 0; imap_next(&s->accounts, &i, &user, &v);) {
        account *a = v;
        if (a->connections == 0 && a->challenges > 0 && now - a->gone_since_ms > CHALLENGE_GRACE_MS &&
            m < 256)
            stale[m++] = user;
        else if (a->connections == 0 && a->challenges == 0 && now - a->gone_since_ms > 3600 * 1000 &&
                 n < 256)
            gone[n++] = user;
    }
    for (int i = 0; i < m; i++)
        lobby_drop_challenges_of(s, stale[i]);
    for (int i = 0; i < n; i++)
        free(imap_del(&s->accounts, gone[i]));
}

json_t *user_json(const client *c)
{
    if (!c->user)
        return json_null();
    return json_pack("{s:I, s:s, s:b}", "id", (json_int_t)c->user, "name", c->name, "guest",
                     c->guest);
}

static void account_left(server *s, int64_t user)
{
    account *a = account_of(s, user);
    if (a && --a->connections == 0) {
        a->gone_since_ms = server_now_ms();
        lobby_drop_challenges_of(s, user);
    }
}

static void log_in(server *s, client *c, const store_user *u, const store_rating *r)
{
    if (c->user)
        account_left(s, c->user);
    c->user = u->id;
    c->guest = u->guest;
    snprintf(c->name, sizeof c->name, "%s", u->name);
    account *a = account_touch(s, u->id);
    if (a) {
        a->connections++;
        if (!u->guest) {
            a->rating = *r;
            a->rating_known = true;
        }
    }
}

static void log_out_connection(server *s, client *c)
{
    if (!c->user)
        return;
    account_left(s, c->user);
    c->user = 0;
    c->name[0] = '\0';
}

void session_closed(server *s, client *c) { log_out_connection(s, c); }

/* ---- the jobs ------------------------------------------------------------------- */

typedef enum step { S_HELLO, S_HASH, S_REGISTER, S_LOOKUP, S_CHECK, S_GRANT, S_GUEST, S_LOGOUT } step;

typedef struct session_job {
    store_job job;
    step step;
    int64_t client;
    bool has_id;
    int64_t id;
    proto_type type;
    store_user u;
    char password[260];
    uint8_t hash[32];
    char token[AUTH_TOKEN_TEXT];
    int found;               /* 0 found / done, 1 not found / taken */
    store_rating rating;     /* the account's (start values for a new one) */
} session_job;

static void session_done(void *ctx, store_job *job);

static void job_free(session_job *j)
{
    sodium_memzero(j->password, sizeof j->password);
    free(j);
}

static int run_hello(store *db, store_job *job)
{
    session_job *j = (session_job *)job;
    int64_t user = 0;
    j->found = db->ops->token_user(db, j->hash, &user);
    if (j->found == 0)
        j->found = db->ops->user_by_id(db, user, &j->u);
    if (j->found == 0 && !j->u.guest && db->ops->rating_get(db, j->u.id, &j->rating) < 0)
        return -1;
    return j->found < 0 ? -1 : 0;
}

static int run_hash(store *db, store_job *job)
{
    (void)db;
    session_job *j = (session_job *)job;
    return auth_password_hash(j->password, j->u.password_hash) ? 0 : -1;
}

static int run_check(store *db, store_job *job)
{
    (void)db;
    session_job *j = (session_job *)job;
    j->found = auth_password_check(j->u.password_hash, j->password) ? 0 : 1;
    return 0;
}

static int run_lookup(store *db, store_job *job)
{
    session_job *j = (session_job *)job;
    j->found = db->ops->user_by_name(db, j->u.name, &j->u);
    if (j->found == 0 && !j->u.guest && db->ops->rating_get(db, j->u.id, &j->rating) < 0)
        return -1;
    return j->found < 0 ? -1 : 0;
}

/* Writer, in a transaction: the account (when new) and its session. */
static int run_register(store *db, store_job *job)
{
    session_job *j = (session_job *)job;
    j->found = db->ops->user_add(db, &j->u, &j->u.id);
    if (j->found != 0)
        return j->found < 0 ? -1 : 0; /* 1: the name is taken (nothing to commit) */
    auth_token_new(j->token, j->hash);
    return db->ops->token_add(db, j->hash, j->u.id);
}

static int run_guest(store *db, store_job *job)
{
    session_job *j = (session_job *)job;
    /* a name not taken, within this one transaction */
    for (int attempt = 0; attempt < 8; attempt++) {
        char hex[16];
        auth_random_hex(hex, 3);
        snprintf(j->u.name, sizeof j->u.name, "guest-%s", hex);
        store_user other;
        int rc = db->ops->user_by_name(db, j->u.name, &other);
        if (rc < 0)
            return -1;
        if (rc == 1)
            return run_register(db, job);
    }
    snprintf(job->error, sizeof job->error, "no free guest name");
    return -1;
}

static int run_grant(store *db, store_job *job)
{
    session_job *j = (session_job *)job;
    auth_token_new(j->token, j->hash);
    return db->ops->token_add(db, j->hash, j->u.id);
}

static int run_logout(store *db, store_job *job)
{
    session_job *j = (session_job *)job;
    return db->ops->tokens_revoke(db, j->u.id);
}

static session_job *job_new(client *c, const proto_request *rq, step st)
{
    session_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->rating = (store_rating)STORE_RATING_START;
    j->job.done = session_done;
    j->step = st;
    j->client = c->id;
    j->has_id = rq->has_id;
    j->id = rq->id;
    j->type = rq->type;
    return j;
}

static void submit(server *s, session_job *j, step st, store_lane lane, store_run_fn run,
                   bool transaction)
{
    j->step = st;
    j->job.run = run;
    j->job.transaction = transaction;
    j->job.chained = false;
    store_async_submit(s->db, lane, &j->job);
}

/* The request as the answer needs it. */
static proto_request request_of(const session_job *j)
{
    proto_request rq;
    memset(&rq, 0, sizeof rq);
    rq.has_id = j->has_id;
    rq.id = j->id;
    rq.type = j->type;
    return rq;
}

static void answer_session(client *c, const proto_request *rq, const session_job *j)
{
    send_ok(c, rq, json_pack("{s:s, s:o}", "token", j->token, "user", user_json(c)));
}

static void finish(server *s, client *c, session_job *j)
{
    job_free(j);
    if (c) {
        c->waiting = false;
        client_resume(s, c);
    }
}

static void session_done(void *ctx, store_job *job)
{
    server *s = ctx;
    session_job *j = (session_job *)job;
    client *c = client_by_id(s, j->client);
    proto_request rq = request_of(j);
    if (!c) /* gone: what was stored stays (a session nobody holds) */
        return finish(s, NULL, j);
    switch (j->step) {
    case S_HELLO:
        if (job->rc != 0) { /* not "no such session": the client keeps its token */
            send_error(c, &rq, "unavailable", "the server cannot read the sessions now: try again in a moment");
            return finish(s, c, j);
        }
        if (j->found == 0)
            log_in(s, c, &j->u, &j->rating);
        send_ok(c, &rq, json_pack("{s:o, s:i}", "user", user_json(c), "protocol", PROTO_VERSION));
        return finish(s, c, j);
    case S_HASH:
        if (job->rc != 0) {
            send_error(c, &rq, "internal", "cannot hash the password");
            return finish(s, c, j);
        }
        return submit(s, j, S_REGISTER, STORE_WRITE, run_register, true);
    case S_REGISTER:
    case S_GUEST:
        if (job->rc != 0)
            send_error(c, &rq, "internal", "the server could not store the account: try again later");
        else if (j->found == 1)
            send_error(c, &rq, "name_taken", "that name is taken");
        else {
            log_in(s, c, &j->u, &j->rating);
            answer_session(c, &rq, j);
        }
        return finish(s, c, j);
    case S_LOOKUP:
        if (job->rc != 0) {
            send_error(c, &rq, "internal", "the server could not read the account: try again later");
            return finish(s, c, j);
        }
        if (j->found != 0 || j->u.guest) /* no such account: refused as a wrong password */
            j->u.password_hash[0] = '\0';
        return submit(s, j, S_CHECK, STORE_WORK, run_check, false);
    case S_CHECK:
        if (j->found != 0) {
            send_error(c, &rq, "bad_credentials", "unknown name or wrong password");
            return finish(s, c, j);
        }
        return submit(s, j, S_GRANT, STORE_WRITE, run_grant, true);
    case S_GRANT:
        if (job->rc != 0)
            send_error(c, &rq, "internal", "the server could not store the session: try again later");
        else {
            log_in(s, c, &j->u, &j->rating);
            answer_session(c, &rq, j);
        }
        return finish(s, c, j);
    case S_LOGOUT:
        if (job->rc != 0) {
            send_error(c, &rq, "internal", "the server could not revoke the session: try again later");
            return finish(s, c, j);
        }
        /* every connection of the account is logged out with its tokens */
        int64_t user = j->u.id, id;
        void *v;
        for (size_t i = 0; imap_next(&s->clients, &i, &id, &v);) {
            client *other = v;
            if (other->user == user && !other->closed)
                log_out_connection(s, other);
        }
        send_ok(c, &rq, NULL);
        return finish(s, c, j);
    }
    finish(s, c, j);
}

/* ---- the requests --------------------------------------------------------------- */

/* Argon2id is queued for the worker: per address, and a bounded queue for
 * the whole server, so that nobody can make the others wait for it. */
static bool password_work_allowed(server *s, client *c, const proto_request *rq)
{
    address *a = address_of(s, c->addr);
    if (!a || !take_token(&a->passwords, server_now_ms(), PASSWORD_PER_S, PASSWORD_BURST)) {
        send_error(c, rq, "rate_limited", "too many logins from your address: try again in a moment");
        return false;
    }
    if (store_async_pending(s->db, STORE_WORK) >= PASSWORD_QUEUE_MAX) {
        send_error(c, rq, "rate_limited", "too many logins at once: try again in a moment");
        return false;
    }
    return true;
}

static bool name_reserved(const char *name) { return strncasecmp(name, "guest-", 6) == 0; }

void session_handle(server *s, client *c, const proto_request *rq)
{
    session_job *j;
    switch (rq->type) {
    case P_HELLO: {
        uint8_t hash[32];
        if (!rq->token || !auth_token_hash(rq->token, hash))
            return send_ok(c, rq, json_pack("{s:o, s:i}", "user", user_json(c), "protocol", PROTO_VERSION));
        if (!(j = job_new(c, rq, S_HELLO)))
            return send_error(c, rq, "internal", "out of memory");
        memcpy(j->hash, hash, sizeof hash);
        c->waiting = true;
        return submit(s, j, S_HELLO, STORE_READ, run_hello, false);
    }
    case P_REGISTER: {
        size_t plen = strlen(rq->password);
        if (!auth_name_valid(rq->name) || name_reserved(rq->name))
            return send_error(c, rq, "bad_request",
                              "a name is 1-24 letters, digits, '_', '-' or '.', not guest-...");
        if (plen < 8 || plen > 256)
            return send_error(c, rq, "bad_request", "a password is 8 to 256 bytes");
        address *a = address_of(s, c->addr);
        if (!a || !take_token(&a->registrations, server_now_ms(), REGISTER_PER_S, REGISTER_BURST))
            return send_error(c, rq, "rate_limited", "too many accounts made from your address: try again later");
        if (!password_work_allowed(s, c, rq))
            return;
        if (!(j = job_new(c, rq, S_HASH)))
            return send_error(c, rq, "internal", "out of memory");
        snprintf(j->u.name, sizeof j->u.name, "%s", rq->name);
        snprintf(j->password, sizeof j->password, "%s", rq->password);
        c->waiting = true;
        return submit(s, j, S_HASH, STORE_WORK, run_hash, false);
    }
    case P_LOGIN:
        if (!password_work_allowed(s, c, rq))
            return;
        if (!(j = job_new(c, rq, S_LOOKUP)))
            return send_error(c, rq, "internal", "out of memory");
        snprintf(j->u.name, sizeof j->u.name, "%s", rq->name);
        snprintf(j->password, sizeof j->password, "%s", rq->password);
        c->waiting = true;
        return submit(s, j, S_LOOKUP, STORE_READ, run_lookup, false);
    case P_GUEST: {
        if (c->guests_made >= 3)
            return send_error(c, rq, "rate_limited", "at most 3 guests a connection");
        address *a = address_of(s, c->addr);
        if (!a || !take_token(&a->guests, server_now_ms(), GUEST_PER_S, GUEST_BURST))
            return send_error(c, rq, "rate_limited", "too many guests from your address: try again later");
        if (!(j = job_new(c, rq, S_GUEST)))
            return send_error(c, rq, "internal", "out of memory");
        c->guests_made++;
        j->u.guest = true;
        c->waiting = true;
        return submit(s, j, S_GUEST, STORE_WRITE, run_guest, true);
    }
    case P_LOGOUT:
        if (!c->user)
            return send_error(c, rq, "auth_required", "not logged in");
        if (!(j = job_new(c, rq, S_LOGOUT)))
            return send_error(c, rq, "internal", "out of memory");
        j->u.id = c->user;
        c->waiting = true;
        return submit(s, j, S_LOGOUT, STORE_WRITE, run_logout, true);
    default:
        return send_error(c, rq, "bad_request", "unknown request");
    }
}
