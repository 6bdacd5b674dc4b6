/*
 * test_server_logic.c — the server's logic (accounts, lobby, the registry
 * of live games, the commit-and-release turn, the store off the loop) with
 * no socket: tests/fake_net gives it a network the test drives, message by
 * message and turn by turn, so that it runs under AddressSanitizer in CI.
 *
 *   - a finished game unwatched in the same turn as it ended is freed after
 *     the turn, not inside it (issue 48, fault 1);
 *   - the store failing at each of the writes a short session makes, one
 *     after the other: every request is answered, nothing that was not
 *     stored is acknowledged, memory equals the store afterwards (a server
 *     started again on the same file sees the same games and challenges,
 *     and every logged-in connection's account is stored), and the server
 *     works again by itself (faults 3 and 10);
 *   - statements give back their read snapshots (fault 2);
 *   - names are unique whatever their case, and guest- is reserved (13);
 *   - a game against an engine keeps the engine's name, never a command
 *     line, and waits adjourned where the engine is gone (8);
 *   - open challenges survive a restart;
 *   - on PostgreSQL, a connection the database closed is made again, and
 *     while the database refuses connections writes are refused truthfully
 *     until it is back, when the server recovers by itself.
 *
 * With TENGEN_TEST_PG_URL set (tests/scripts/server_logic_pg.sh: a libpq
 * URI of a throwaway server's database postgres) every test runs on
 * PostgreSQL instead, each on a database of its own made here; the WAL
 * checkpoint test is SQLite's alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include "net_fake.h"
#include "server/server_internal.h"

typedef struct peer {
    net_conn *c;
    json_t *got;             /* every message delivered, in order */
} peer;

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/tengen-logic-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* The throwaway PostgreSQL's URI, or NULL for SQLite. */
static const char *pg_url(void)
{
    const char *url = getenv("TENGEN_TEST_PG_URL");
    return url && url[0] ? url : NULL;
}

static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* SQL of the test's own (never values from elsewhere) on the database
 * postgres, as its owner. */
static void pg_admin(const char *fmt, ...)
{
    char sql[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    PGconn *conn = PQconnectdb(pg_url());
    if (PQstatus(conn) != CONNECTION_OK)
        fail_msg("PostgreSQL: %s", PQerrorMessage(conn));
    PQsetNoticeProcessor(conn, quiet, NULL); /* "does not exist, skipping" */
    PGresult *r = PQexec(conn, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
    PQfinish(conn);
}

/* The database of test n: a file in dir, or a new PostgreSQL database t_n
 * (the base URI with its path replaced). */
static void db_path(char *out, size_t len, int n)
{
    const char *url = pg_url();
    if (!url) {
        snprintf(out, len, "%s/t%d.db", dir, n);
        return;
    }
    pg_admin("DROP DATABASE IF EXISTS t_%d", n);
    pg_admin("CREATE DATABASE t_%d STRATEGY FILE_COPY", n); /* faster than WAL_LOG here */
    const char *authority = strstr(url, "://");
    assert_non_null(authority);
    authority += 3;
    size_t head = (size_t)(authority - url) + strcspn(authority, "/?");
    const char *query = strchr(url + head, '?');
    snprintf(out, len, "%.*s/t_%d%s", (int)head, url, n, query ? query : "");
}

/* A server on db offering one engine beside tengen (engine_name, NULL for
 * none), run by command. */
static server *start_engine(const char *db, bool faults, const char *engine_name,
                            const char *command)
{
    server_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.db_path = db;
    cfg.listen_addr = "127.0.0.1";
    cfg.engines = 1;
    cfg.tengen_command = "/bin/false";
    cfg.max_connections = 100;
    cfg.quiet = true;
    cfg.fault_injection = faults;
    if (engine_name) {
        cfg.extra[0].name = engine_name;
        cfg.extra[0].command = command;
        cfg.extra_count = 1;
    }
    char err[256];
    server *s = server_new(&cfg, err, sizeof err);
    if (!s)
        fail_msg("server_new: %s", err);
    return s;
}

static server *start_with(const char *db, bool faults, const char *engine_name)
{
    return start_engine(db, faults, engine_name, "/bin/false");
}

static server *start(const char *db, bool faults) { return start_with(db, faults, NULL); }

static peer connect_peer(const char *addr)
{
    peer p = {fake_connect(fake_net(), addr), json_array()};
    assert_non_null(p.c);
    return p;
}

static void pump(peer *p)
{
    char *text;
    while ((text = fake_next(p->c))) {
        json_error_t e;
        json_t *j = json_loads(text, 0, &e);
        assert_non_null(j);
        json_array_append_new(p->got, j);
        free(text);
    }
}

/* One turn: the messages said together, then the server settles. */
static void turn(server *s, peer **who, const char **texts, int n)
{
    for (int i = 0; i < n; i++)
        fake_say(who[i]->c, texts[i]);
    fake_turn(fake_net());
    server_settle(s);
}

static void say(server *s, peer *p, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    const char *t = text;
    turn(s, &p, &t, 1);
    pump(p);
}

/* The answers (ok or error) to request id. */
static int answers(peer *p, int64_t id, json_t **first)
{
    pump(p);
    int n = 0;
    size_t i;
    json_t *m = NULL;
    json_array_foreach(p->got, i, m) {
        const char *type = json_string_value(json_object_get(m, "type"));
        json_t *mid = json_object_get(m, "id");
        if (mid && json_integer_value(mid) == id && type &&
            (!strcmp(type, "ok") || !strcmp(type, "error"))) {
            if (!n && first)
                *first = m;
            n++;
        }
    }
    return n;
}

static bool answered_ok(peer *p, int64_t id, json_t **msg)
{
    json_t *m = NULL;
    if (answers(p, id, &m) != 1)
        return false;
    if (msg)
        *msg = m;
    return !strcmp(json_string_value(json_object_get(m, "type")), "ok");
}

static void drop(peer *p) { json_decref(p->got); }

/* p becomes a guest (request id); its session token into token. */
static void guest_token(server *s, peer *p, int id, char *token, size_t len)
{
    json_t *m = NULL;
    say(s, p, "{\"type\":\"guest\",\"id\":%d}", id);
    assert_true(answered_ok(p, id, &m));
    snprintf(token, len, "%s", json_string_value(json_object_get(m, "token")));
}

/* p, a guest (its token into token), begins a 9x9 game against engine,
 * playing color (requests 1 and 2); the game's id. */
static json_int_t engine_game(server *s, peer *p, const char *engine, const char *color,
                              char *token, size_t len)
{
    json_t *m = NULL;
    guest_token(s, p, 1, token, len);
    say(s, p, "{\"type\":\"engine.play\",\"id\":2,\"engine\":\"%s\",\"settings\":{\"size\":9,\"color\":\"%s\"}}",
        engine, color);
    assert_true(answered_ok(p, 2, &m));
    return json_integer_value(json_object_get(m, "game"));
}

/* A 9x9 challenge by a (Black; settings extra, "" or ",\"key\":value")
 * accepted by b: requests id and id + 1, both asserted answered ok; the
 * game's id. */
static json_int_t new_game(server *s, peer *a, peer *b, int id, const char *extra)
{
    json_t *m = NULL;
    say(s, a, "{\"type\":\"challenge.create\",\"id\":%d,\"settings\":{\"size\":9,\"color\":\"black\"%s}}",
        id, extra);
    assert_true(answered_ok(a, id, &m));
    json_int_t ch = json_integer_value(json_object_get(json_object_get(m, "challenge"), "id"));
    say(s, b, "{\"type\":\"challenge.accept\",\"id\":%d,\"challenge\":%lld}", id + 1, (long long)ch);
    assert_true(answered_ok(b, id + 1, &m));
    return json_integer_value(json_object_get(m, "game"));
}

/* The last message of a type p received, or NULL. */
static json_t *last_of(peer *p, const char *type)
{
    json_t *last = NULL, *msg;
    size_t i;
    json_array_foreach(p->got, i, msg)
        if (!strcmp(json_string_value(json_object_get(msg, "type")), type))
            last = msg;
    return last;
}

/* ---- fault 1 ----------------------------------------------------------------- */

static void test_game_freed_after_the_turn(void **state)
{
    (void)state;
    char db[256];
    db_path(db, sizeof db, 1);
    server *s = start(db, false);
    peer a = connect_peer("10.0.0.1"), b = connect_peer("10.0.0.2");
    say(s, &a, "{\"type\":\"guest\",\"id\":1}");
    say(s, &b, "{\"type\":\"guest\",\"id\":1}");
    assert_true(answered_ok(&a, 1, NULL));
    assert_true(answered_ok(&b, 1, NULL));
    json_int_t g = new_game(s, &a, &b, 2, "");
    say(s, &b, "{\"type\":\"game.watch\",\"id\":4,\"game\":%lld}", (long long)g);
    assert_true(answered_ok(&b, 4, NULL));
    /* resign and unwatch in one write: the game ends and nobody watches it */
    char resign[128], unwatch[128];
    snprintf(resign, sizeof resign, "{\"type\":\"game.resign\",\"id\":5,\"game\":%lld}", (long long)g);
    snprintf(unwatch, sizeof unwatch, "{\"type\":\"game.unwatch\",\"id\":6,\"game\":%lld}", (long long)g);
    peer *who[2] = {&b, &b};
    const char *texts[2] = {resign, unwatch};
    turn(s, who, texts, 2);
    assert_true(answered_ok(&b, 5, NULL));
    assert_true(answered_ok(&b, 6, NULL));
    assert_null(live_get(s, g)); /* freed, after the turn, once durable */
    /* and kept: watching it again reads it from the store */
    say(s, &a, "{\"type\":\"game.watch\",\"id\":7,\"game\":%lld}", (long long)g);
    assert_true(answered_ok(&a, 7, NULL));
    json_t *last = last_of(&a, "game.state");
    assert_non_null(last);
    json_t *game = json_object_get(last, "game");
    assert_string_equal(json_string_value(json_object_get(game, "phase")), "over");
    assert_string_equal(json_string_value(json_object_get(game, "result")), "B+R");
    drop(&a);
    drop(&b);
    server_free(s);
}

/* ---- faults 3 and 10: the store failing at each write in turn -------------------- */

/* What memory says of the games and challenges, in the store's terms. */
static json_t *snapshot(server *s)
{
    json_t *games = json_array(), *challenges = json_array();
    for (int64_t id = 1; id <= s->next_game; id++) {
        live *lv = live_get(s, id);
        json_t *state = NULL;
        if (lv) {
            state = game_state_public(s, lv);
        } else {
            char *text = NULL;
            if (s->api_db->ops->game_state(s->api_db, id, &text) == 0) {
                json_error_t e;
                state = json_loads(text, 0, &e);
            }
            free(text);
        }
        if (!state)
            continue;
        json_array_append_new(games, json_pack("{s:I, s:O, s:O, s:O, s:O}", "id", (json_int_t)id,
                                               "phase", json_object_get(state, "phase"), "board",
                                               json_object_get(state, "board"), "result",
                                               json_object_get(state, "result"), "moves",
                                               json_object_get(state, "moves")));
        json_decref(state);
    }
    for (int64_t id = 1; id <= s->next_challenge; id++)
        if (imap_get(&s->challenges, id))
            json_array_append_new(challenges, json_integer(id));
    s->api_db->ops->idle(s->api_db);
    return json_pack("{s:o, s:o}", "games", games, "challenges", challenges);
}

enum { SCRIPT_REQUESTS = 12 };

/* A short session: two guests, a challenge accepted, moves, chat, an
 * undo asked, a resignation.  Returns the peers (ids 1..12 asked). */
static void script(server *s, peer *a, peer *b)
{
    json_t *m = NULL;
    say(s, a, "{\"type\":\"guest\",\"id\":1}");
    say(s, b, "{\"type\":\"guest\",\"id\":2}");
    say(s, a, "{\"type\":\"challenge.create\",\"id\":3,\"settings\":{\"size\":9,\"color\":\"black\"}}");
    json_int_t ch = answered_ok(a, 3, &m) ? json_integer_value(json_object_get(json_object_get(m, "challenge"), "id")) : 1;
    say(s, b, "{\"type\":\"challenge.accept\",\"id\":4,\"challenge\":%lld}", (long long)ch);
    json_int_t g = answered_ok(b, 4, &m) ? json_integer_value(json_object_get(m, "game")) : s->next_game;
    say(s, a, "{\"type\":\"game.watch\",\"id\":5,\"game\":%lld}", (long long)g);
    say(s, b, "{\"type\":\"game.watch\",\"id\":6,\"game\":%lld}", (long long)g);
    say(s, a, "{\"type\":\"game.move\",\"id\":7,\"game\":%lld,\"move\":\"E5\"}", (long long)g);
    say(s, b, "{\"type\":\"game.move\",\"id\":8,\"game\":%lld,\"move\":\"C3\"}", (long long)g);
    say(s, a, "{\"type\":\"game.chat\",\"id\":9,\"game\":%lld,\"text\":\"hi\"}", (long long)g);
    say(s, a, "{\"type\":\"game.move\",\"id\":10,\"game\":%lld,\"move\":\"G7\"}", (long long)g);
    say(s, a, "{\"type\":\"challenge.create\",\"id\":11,\"settings\":{\"size\":13}}");
    say(s, b, "{\"type\":\"game.resign\",\"id\":12,\"game\":%lld}", (long long)g);
}

static void test_store_fails_at_each_write(void **state)
{
    (void)state;
    char db[256];
    db_path(db, sizeof db, 2);
    server *s = start(db, true);
    peer a = connect_peer("10.0.0.1"), b = connect_peer("10.0.0.2");
    script(s, &a, &b);
    long writes = server_store_writes(s);
    for (int id = 1; id <= SCRIPT_REQUESTS; id++)
        assert_true(answered_ok(id % 2 == 0 && id != 10 && id != 12 ? &b : &a, id, NULL) ||
                    answered_ok(&a, id, NULL) || answered_ok(&b, id, NULL));
    drop(&a);
    drop(&b);
    server_free(s);
    assert_true(writes >= 10);
    print_message("the session makes %ld writes: each fails in turn\n", writes);

    for (long nth = 1; nth <= writes; nth++) {
        db_path(db, sizeof db, 100 + (int)nth);
        s = start(db, true);
        server_inject_fault(s, nth);
        a = connect_peer("10.0.0.1");
        b = connect_peer("10.0.0.2");
        script(s, &a, &b);
        /* every request answered, once */
        for (int id = 1; id <= SCRIPT_REQUESTS; id++) {
            int n = answers(&a, id, NULL) + answers(&b, id, NULL);
            if (n != 1)
                fail_msg("fault at write %ld: request %d answered %d times", nth, id, n);
        }
        /* the store works again: the server too, by itself */
        peer c = connect_peer("10.0.0.3");
        say(s, &c, "{\"type\":\"guest\",\"id\":20}");
        say(s, &c, "{\"type\":\"challenge.create\",\"id\":21,\"settings\":{\"size\":19}}");
        if (!answered_ok(&c, 20, NULL) || !answered_ok(&c, 21, NULL))
            fail_msg("fault at write %ld: the server did not recover", nth);
        assert_false(s->store_failing);
        /* every connection logged in is a stored account */
        peer *all[3] = {&a, &b, &c};
        for (int i = 0; i < 3; i++) {
            client *cl = net_conn_data(all[i]->c);
            store_user u;
            if (cl && cl->user &&
                (s->api_db->ops->user_by_id(s->api_db, cl->user, &u) != 0 || strcmp(u.name, cl->name)))
                fail_msg("fault at write %ld: a connection is logged in as an account not stored", nth);
        }
        json_t *before = snapshot(s);
        drop(&a);
        drop(&b);
        drop(&c);
        server_free(s);
        s = start(db, false);
        json_t *after = snapshot(s);
        if (!json_equal(before, after)) {
            char *x = json_dumps(before, JSON_COMPACT), *y = json_dumps(after, JSON_COMPACT);
            fail_msg("fault at write %ld: memory %s, store %s", nth, x, y);
        }
        json_decref(before);
        json_decref(after);
        server_free(s);
        if (!pg_url())
            unlink(db);
    }
}

/* ---- fault 2 and names ---------------------------------------------------------- */

static void test_wal_checkpointed_after_token_hellos(void **state)
{
    (void)state;
    if (pg_url())
        skip(); /* SQLite's WAL */
    char db[256], wal[300];
    db_path(db, sizeof db, 3);
    snprintf(wal, sizeof wal, "%s-wal", db);
    server *s = start(db, false);
    peer a = connect_peer("10.0.0.1");
    char token[128];
    guest_token(s, &a, 1, token, sizeof token);
    /* a connection says hello with the token, then makes guests: before,
     * the token's statement kept a read snapshot and the WAL never shrank */
    for (int i = 0; i < 300; i++) {
        char addr[32];
        snprintf(addr, sizeof addr, "10.1.%d.%d", i / 200, i % 200);
        peer p = connect_peer(addr);
        say(s, &p, "{\"type\":\"hello\",\"id\":1,\"token\":\"%s\"}", token);
        assert_true(answered_ok(&p, 1, NULL));
        say(s, &p, "{\"type\":\"guest\",\"id\":2}");
        fake_disconnect(p.c);
        drop(&p);
    }
    server_settle(s);
    /* nobody holds a read snapshot: a checkpoint copies back every frame */
    sqlite3 *other;
    assert_int_equal(sqlite3_open(db, &other), SQLITE_OK);
    sqlite3_busy_timeout(other, 5000);
    assert_int_equal(sqlite3_exec(other, "SELECT count(*) FROM users", NULL, NULL, NULL), SQLITE_OK);
    int frames = -1, copied = -2;
    assert_int_equal(sqlite3_wal_checkpoint_v2(other, NULL, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied),
                     SQLITE_OK);
    assert_int_equal(frames, copied);
    sqlite3_close(other);
    struct stat st;
    assert_int_equal(stat(wal, &st), 0);
    assert_true(st.st_size < 4 * 1024 * 1024);
    drop(&a);
    server_free(s);
}

static void test_names_unique_whatever_their_case(void **state)
{
    (void)state;
    char db[256];
    db_path(db, sizeof db, 4);
    server *s = start(db, false);
    peer a = connect_peer("10.0.0.1"), b = connect_peer("10.0.0.2"), c = connect_peer("10.0.0.3");
    json_t *m = NULL;
    say(s, &a, "{\"type\":\"register\",\"id\":1,\"name\":\"ana\",\"password\":\"correct horse\"}");
    assert_true(answered_ok(&a, 1, NULL));
    say(s, &b, "{\"type\":\"register\",\"id\":2,\"name\":\"ANA\",\"password\":\"correct horse\"}");
    assert_false(answered_ok(&b, 2, &m));
    assert_string_equal(json_string_value(json_object_get(m, "code")), "name_taken");
    say(s, &c, "{\"type\":\"register\",\"id\":3,\"name\":\"Guest-abcdef\",\"password\":\"correct horse\"}");
    assert_false(answered_ok(&c, 3, &m));
    assert_string_equal(json_string_value(json_object_get(m, "code")), "bad_request");
    /* logging in is by the name whatever its case */
    say(s, &c, "{\"type\":\"login\",\"id\":4,\"name\":\"Ana\",\"password\":\"correct horse\"}");
    assert_true(answered_ok(&c, 4, NULL));
    drop(&a);
    drop(&b);
    drop(&c);
    server_free(s);
}

/* ---- fault 8: engines by name ------------------------------------------------------ */

static void test_engine_stored_by_name_and_adjourned(void **state)
{
    (void)state;
    char db[256];
    db_path(db, sizeof db, 5);
    server *s = start_with(db, false, "ghost");
    peer a = connect_peer("10.0.0.1");
    char token[128];
    json_int_t g = engine_game(s, &a, "ghost", "black", token, sizeof token);
    /* the game keeps the engine's name and strength, never its command line */
    store_game sg;
    assert_int_equal(s->api_db->ops->game_get(s->api_db, g, &sg), 0);
    assert_non_null(strstr(sg.settings_json, "\"name\":\"ghost\""));
    assert_null(strstr(sg.settings_json, "/bin/false"));
    store_game_clear(&sg);
    drop(&a);
    server_free(s);

    /* the server comes back without that engine: the game waits, untimed */
    s = start(db, false);
    a = connect_peer("10.0.0.1");
    say(s, &a, "{\"type\":\"hello\",\"id\":3,\"token\":\"%s\"}", token);
    assert_true(answered_ok(&a, 3, NULL));
    say(s, &a, "{\"type\":\"game.watch\",\"id\":4,\"game\":%lld}", (long long)g);
    assert_true(answered_ok(&a, 4, NULL));
    say(s, &a, "{\"type\":\"game.move\",\"id\":5,\"game\":%lld,\"move\":\"E5\"}", (long long)g);
    assert_true(answered_ok(&a, 5, NULL));
    live *lv = live_get(s, g);
    assert_non_null(lv);
    assert_int_equal(lv->r->phase, ROOM_PLAY);
    assert_non_null(strstr(lv->adjourned, "ghost"));
    json_t *last = last_of(&a, "game.state");
    assert_non_null(last); /* the players are told why the game waits */
    const char *why = json_string_value(json_object_get(json_object_get(last, "game"), "adjourned"));
    assert_non_null(why);
    assert_non_null(strstr(why, "ghost"));
    drop(&a);
    server_free(s);
}

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, ms % 1000 * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- one engine job a game at a time -------------------------------------------- */

/* The scripted engine (tests/fake_engines/fake_gtp.sh) with its words. */
static void fake_engine(char *out, size_t len, const char *words)
{
    const char *src = getenv("TENGEN_SOURCE_DIR");
    snprintf(out, len, "sh %s%sfake_engines/fake_gtp.sh %s", src && src[0] ? src : "",
             src && src[0] ? "/tests/" : "", words);
}

/* A job still waiting in the pool's queue is taken back; one a worker has
 * (or one never submitted) is not, and only the jobs not taken back are
 * answered. */
static void test_engine_pool_cancel(void **state)
{
    (void)state;
    engine_pool *p = engine_pool_new(1, 4, fake_net());
    assert_non_null(p);
    engine_job *job[2];
    for (int i = 0; i < 2; i++) {
        job[i] = calloc(1, sizeof *job[i]);
        assert_non_null(job[i]);
        job[i]->id = (uint64_t)i + 1;
        job[i]->game = 7;
        fake_engine(job[i]->command, sizeof job[i]->command, "moves=E5 slow=1");
        snprintf(job[i]->name, sizeof job[i]->name, "slow");
        job[i]->setup = strdup("clear_board");
        snprintf(job[i]->genmove, sizeof job[i]->genmove, "genmove b");
        job[i]->timeout_ms = 30000;
        assert_true(engine_pool_submit(p, job[i]));
    }
    /* the one worker has the first (or has not begun): the second waits */
    assert_true(engine_pool_cancel(p, 2));
    assert_false(engine_pool_cancel(p, 2));
    assert_false(engine_pool_cancel(p, 99));
    engine_job *done = NULL;
    for (int i = 0; i < 600 && !done; i++) {
        done = engine_pool_done(p);
        if (!done)
            pause_ms(50);
    }
    assert_non_null(done);
    assert_int_equal(done->id, 1);
    assert_true(done->ok);
    assert_string_equal(done->move, "E5");
    assert_false(engine_pool_cancel(p, 1)); /* answered */
    engine_job_free(done);
    engine_pool_free(p);
}

/* The position changes while the engine thinks (here the game is read
 * again from the store, as after a write another node won): the stale
 * answer is dropped and the engine asked once more, never a second job
 * beside the first; asking beside it once filled the queue with stale
 * searches that each asked again when they came back (serve_nodes). */
static void test_engine_asked_once_when_the_position_changes(void **state)
{
    (void)state;
    char db[256];
    db_path(db, sizeof db, 13);
    char log[128], words[192], command[512];
    snprintf(log, sizeof log, "%s/slow-engine.log", dir);
    snprintf(words, sizeof words, "moves=E5,C3,G7 slow=1 log=%s", log);
    fake_engine(command, sizeof command, words);
    server *s = start_engine(db, false, "slow", command);
    peer a = connect_peer("10.0.0.1");
    char token[128];
    json_int_t g = engine_game(s, &a, "slow", "white", token, sizeof token);
    live *lv = live_get(s, g);
    assert_non_null(lv);
    uint64_t first = lv->engine_job;
    assert_int_not_equal(first, 0);
    assert_int_equal(s->engine_jobs, 1);
    /* the engine has the job: its genmove (of a second) has begun */
    bool thinking = false;
    for (int i = 0; i < 600 && !thinking; i++) {
        FILE *f = fopen(log, "r");
        char line[256];
        while (f && fgets(line, sizeof line, f))
            thinking |= !strncmp(line, "genmove", 7);
        if (f)
            fclose(f);
        if (!thinking)
            pause_ms(20);
    }
    assert_true(thinking);
    int epoch = lv->epoch;
    game_recover(s, lv);
    server_settle(s);
    lv = live_get(s, g);
    assert_non_null(lv);
    assert_int_not_equal(lv->epoch, epoch);
    /* the job the engine has is awaited, not asked again beside it */
    assert_int_equal(lv->engine_job, first);
    assert_int_equal(s->engine_jobs, 1);
    ask_engine(s, lv);
    assert_int_equal(s->engine_jobs, 1);
    for (int i = 0; i < 600 && tg_game_move_count(lv->r->game) == 0; i++) {
        pause_ms(50);
        game_engine_answers(s);
        server_settle(s);
        lv = live_get(s, g);
        assert_non_null(lv);
    }
    assert_int_equal(tg_game_move_count(lv->r->game), 1);
    assert_int_equal(lv->engine_job, 0); /* White's turn: nothing asked */
    assert_int_equal(s->engine_jobs, 2); /* the stale search and the one answered */
    drop(&a);
    server_free(s);
}

/* ---- open challenges survive a restart ------------------------------------------- */

static void test_challenges_survive_a_restart(void **state)
{
    (void)state;
    char db[256];
    db_path(db, sizeof db, 6);
    server *s = start(db, false);
    peer a = connect_peer("10.0.0.1");
    json_t *m = NULL;
    char token[128];
    guest_token(s, &a, 1, token, sizeof token);
    say(s, &a, "{\"type\":\"challenge.create\",\"id\":2,\"settings\":{\"size\":13,\"komi\":0.5}}");
    assert_true(answered_ok(&a, 2, &m));
    json_int_t ch = json_integer_value(json_object_get(json_object_get(m, "challenge"), "id"));
    drop(&a);
    server_free(s); /* the connection goes with the server: not a player leaving */

    s = start(db, false);
    peer b = connect_peer("10.0.0.2");
    say(s, &b, "{\"type\":\"lobby.subscribe\",\"id\":3}");
    assert_true(answered_ok(&b, 3, NULL));
    json_t *lobby = last_of(&b, "lobby");
    assert_non_null(lobby);
    json_t *list = json_object_get(lobby, "challenges");
    assert_int_equal(json_array_size(list), 1);
    json_t *c0 = json_array_get(list, 0);
    assert_int_equal(json_integer_value(json_object_get(c0, "id")), ch);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(c0, "settings"), "size")), 13);
    /* its challenger comes back and can cancel it; a new one gets a new id */
    peer a2 = connect_peer("10.0.0.1");
    say(s, &a2, "{\"type\":\"hello\",\"id\":4,\"token\":\"%s\"}", token);
    assert_true(answered_ok(&a2, 4, NULL));
    say(s, &a2, "{\"type\":\"challenge.create\",\"id\":5,\"settings\":{\"size\":9}}");
    assert_true(answered_ok(&a2, 5, &m));
    assert_true(json_integer_value(json_object_get(json_object_get(m, "challenge"), "id")) > ch);
    say(s, &a2, "{\"type\":\"challenge.cancel\",\"id\":6,\"challenge\":%lld}", (long long)ch);
    assert_true(answered_ok(&a2, 6, NULL));
    drop(&b);
    drop(&a2);
    server_free(s);
}

/* ---- ratings (issue 52): a rated game's result rates both accounts, once --------- */

/* A 9x9 game a (Black) against b, settings extra, that b resigns. */
static json_int_t resigned_game(server *s, peer *a, peer *b, int id, const char *extra)
{
    json_int_t g = new_game(s, a, b, id, extra);
    say(s, b, "{\"type\":\"game.watch\",\"id\":%d,\"game\":%lld}", id + 2, (long long)g);
    assert_true(answered_ok(b, id + 2, NULL));
    say(s, b, "{\"type\":\"game.resign\",\"id\":%d,\"game\":%lld}", id + 3, (long long)g);
    assert_true(answered_ok(b, id + 3, NULL));
    return g;
}

static void test_rated_games(void **state)
{
    (void)state;
    char db[256];
    db_path(db, sizeof db, 8);
    server *s = start(db, false);
    peer a = connect_peer("10.0.0.1"), b = connect_peer("10.0.0.2"), c = connect_peer("10.0.0.3");
    say(s, &a, "{\"type\":\"register\",\"id\":1,\"name\":\"ana\",\"password\":\"correct horse\"}");
    say(s, &b, "{\"type\":\"register\",\"id\":1,\"name\":\"bo\",\"password\":\"correct horse\"}");
    say(s, &c, "{\"type\":\"guest\",\"id\":1}");
    assert_true(answered_ok(&a, 1, NULL) && answered_ok(&b, 1, NULL) && answered_ok(&c, 1, NULL));
    json_int_t g = resigned_game(s, &a, &b, 10, "");
    /* the game showed the players' (provisional) ranks as they began */
    json_t *st = last_of(&b, "game.state");
    assert_non_null(st);
    const char *rank = json_string_value(json_object_get(json_object_get(json_object_get(st, "game"), "black"), "rank"));
    assert_non_null(rank);
    assert_int_equal(rank[strlen(rank) - 1], '?');
    resigned_game(s, &a, &b, 20, ",\"rated\":false"); /* changes nothing */
    resigned_game(s, &a, &c, 30, "");                 /* a guest: nothing */
    server_settle(s);

    char err[256];
    store *db_ = store_open(db, err, sizeof err);
    assert_non_null(db_);
    store_user ana, bo;
    assert_int_equal(db_->ops->user_by_name(db_, "ana", &ana), 0);
    assert_int_equal(db_->ops->user_by_name(db_, "bo", &bo), 0);
    store_rating ra, rb;
    assert_int_equal(db_->ops->rating_get(db_, ana.id, &ra), 0);
    assert_int_equal(db_->ops->rating_get(db_, bo.id, &rb), 0);
    /* two new players (1500, 350, 0.06), one win: Glickman's formulas give
     * 1662.31 and 1337.69, both 290.32 */
    assert_int_equal(ra.games, 1);
    assert_int_equal(rb.games, 1);
    assert_true(fabs(ra.rating - 1662.31) < 0.01 && fabs(rb.rating - 1337.69) < 0.01);
    assert_true(fabs(ra.deviation - 290.32) < 0.01 && fabs(rb.deviation - 290.32) < 0.01);
    store_rating_point *h = NULL;
    int n = 0;
    assert_int_equal(db_->ops->rating_history(db_, ana.id, 10, &h, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(h[0].game, g);
    free(h);
    store_close(db_);
    drop(&a);
    drop(&b);
    drop(&c);
    server_free(s);
}

/* ---- documents (tournaments, analyses) on both back ends -------------------------- */

static void test_documents(void **state)
{
    (void)state;
    char db[256], err[256];
    db_path(db, sizeof db, 9);
    store *st = store_open(db, err, sizeof err);
    assert_non_null(st);
    int64_t id1 = 0, id2 = 0, other = 0;
    assert_int_equal(st->ops->begin(st), 0);
    assert_int_equal(st->ops->doc_new_id(st, "tournament", &id1), 0);
    assert_int_equal(st->ops->doc_new_id(st, "tournament", &id2), 0);
    assert_int_equal(st->ops->doc_new_id(st, "analysis", &other), 0);
    assert_true(id1 > 0 && id2 == id1 + 1 && other == 1);
    assert_int_equal(st->ops->doc_put(st, "tournament", id1, "{\"n\":1}", "{\"body\":1}", 1000), 0);
    assert_int_equal(st->ops->doc_put(st, "tournament", id2, "{\"n\":2}", "{\"body\":2}", 2000), 0);
    assert_int_equal(st->ops->commit(st), 0);
    /* a locked read in a writer's transaction, then a replacement */
    char *body = NULL;
    int64_t at = 0;
    assert_int_equal(st->ops->begin(st), 0);
    assert_int_equal(st->ops->doc_get(st, "tournament", id1, true, &body, &at), 0);
    assert_string_equal(body, "{\"body\":1}");
    assert_int_equal(at, 1000);
    free(body);
    assert_int_equal(st->ops->doc_put(st, "tournament", id1, "{\"n\":3}", "{\"body\":3}", 3000), 0);
    assert_int_equal(st->ops->commit(st), 0);
    /* a rolled-back write leaves nothing */
    assert_int_equal(st->ops->begin(st), 0);
    assert_int_equal(st->ops->doc_put(st, "tournament", 99, "{}", "{}", 4000), 0);
    assert_int_equal(st->ops->rollback(st), 0);
    assert_int_equal(st->ops->doc_get(st, "tournament", 99, false, &body, NULL), 1);
    assert_null(body);
    assert_int_equal(st->ops->doc_get(st, "analysis", id1, false, &body, NULL), 1);
    /* newest first */
    store_doc *list = NULL;
    int n = 0;
    assert_int_equal(st->ops->doc_list(st, "tournament", 10, &list, &n), 0);
    assert_int_equal(n, 2);
    assert_true(list[0].id == id1 && list[0].updated_unix_ms == 3000 && !strcmp(list[0].summary, "{\"n\":3}"));
    assert_true(list[1].id == id2 && !strcmp(list[1].summary, "{\"n\":2}"));
    store_docs_free(list, n);
    assert_int_equal(st->ops->doc_list(st, "tournament", 1, &list, &n), 0);
    assert_int_equal(n, 1);
    store_docs_free(list, n);
    store_close(st);
    /* ids are never given twice, across connections (nodes) */
    st = store_open(db, err, sizeof err);
    assert_non_null(st);
    int64_t id3 = 0;
    assert_int_equal(st->ops->begin(st), 0);
    assert_int_equal(st->ops->doc_new_id(st, "tournament", &id3), 0);
    assert_int_equal(st->ops->commit(st), 0);
    assert_int_equal(id3, id2 + 1);
    store_close(st);
}

/* ---- a tournament in the server (issue 52) ------------------------------------------ */

/* The tournament as the API shows it. */
static json_t *tour_view(server *s, json_int_t id)
{
    uint64_t dep = 0;
    json_t *v = tournament_view(s, id, &dep);
    assert_non_null(v);
    return v;
}

static json_t *board_of(json_t *view, int round, int board)
{
    json_t *games = json_object_get(json_array_get(json_object_get(view, "rounds_list"), (size_t)round - 1), "games");
    return json_array_get(games, (size_t)board - 1);
}

static peer *peer_named(peer *ps, const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return &ps[i];
    fail_msg("no peer %s", name);
    return NULL;
}

/* The player of round/board playing colour ("black", "white") resigns. */
static void tour_resign(server *s, json_t *view, int round, int board, const char *colour, peer *ps,
                        const char *const *names, int id)
{
    json_t *g = board_of(view, round, board);
    peer *p = peer_named(ps, names, 4, json_string_value(json_object_get(g, colour)));
    say(s, p, "{\"type\":\"game.resign\",\"id\":%d,\"game\":%lld}", id,
        (long long)json_integer_value(json_object_get(g, "game")));
    assert_true(answered_ok(p, id, NULL));
}

static void test_tournament(void **state)
{
    (void)state;
    char db[256];
    db_path(db, sizeof db, 10);
    server *s = start(db, false);
    const char *names[4] = {"ana", "bo", "cy", "di"}, *ranks[4] = {"3k", "5k", "1d", "2k"};
    peer ps[4], g = connect_peer("10.0.0.9");
    json_t *m = NULL;
    for (int i = 0; i < 4; i++) {
        char addr[16];
        snprintf(addr, sizeof addr, "10.0.0.%d", i + 1);
        ps[i] = connect_peer(addr);
        say(s, &ps[i], "{\"type\":\"register\",\"id\":1,\"name\":\"%s\",\"password\":\"correct horse\"}", names[i]);
        assert_true(answered_ok(&ps[i], 1, NULL));
    }
    say(s, &g, "{\"type\":\"guest\",\"id\":1}");
    /* a guest cannot organise; a bad system is refused with its reason */
    say(s, &g, "{\"type\":\"tournament.create\",\"id\":2,\"settings\":{\"name\":\"x\"}}");
    assert_false(answered_ok(&g, 2, NULL));
    say(s, &ps[0], "{\"type\":\"tournament.create\",\"id\":2,\"settings\":{\"name\":\"x\",\"system\":\"knockout\"}}");
    assert_false(answered_ok(&ps[0], 2, &m));
    assert_string_equal(json_string_value(json_object_get(m, "code")), "bad_request");
    say(s, &ps[0], "{\"type\":\"tournament.create\",\"id\":3,\"settings\":{\"name\":\"Club cup\",\"system\":\"swiss\","
                   "\"rounds\":3,\"games\":{\"size\":9,\"absence_s\":10}}}");
    assert_true(answered_ok(&ps[0], 3, &m));
    json_int_t t = json_integer_value(json_object_get(m, "tournament"));
    assert_true(t > 0);
    /* registration: a rank is needed while a rating is not established */
    say(s, &ps[1], "{\"type\":\"tournament.join\",\"id\":4,\"tournament\":%lld}", (long long)t);
    assert_false(answered_ok(&ps[1], 4, NULL));
    for (int i = 0; i < 4; i++) {
        say(s, &ps[i], "{\"type\":\"tournament.join\",\"id\":5,\"tournament\":%lld,\"rank\":\"%s\"}", (long long)t, ranks[i]);
        assert_true(answered_ok(&ps[i], 5, NULL));
    }
    say(s, &g, "{\"type\":\"tournament.join\",\"id\":5,\"tournament\":%lld,\"rank\":\"1k\"}", (long long)t);
    assert_false(answered_ok(&g, 5, NULL));
    /* only the organiser pairs */
    say(s, &ps[1], "{\"type\":\"tournament.pair\",\"id\":6,\"tournament\":%lld}", (long long)t);
    assert_false(answered_ok(&ps[1], 6, &m));
    assert_string_equal(json_string_value(json_object_get(m, "code")), "forbidden");

    /* round 1: a resignation, and a board where nobody comes: both lose */
    say(s, &ps[0], "{\"type\":\"tournament.pair\",\"id\":7,\"tournament\":%lld}", (long long)t);
    assert_true(answered_ok(&ps[0], 7, NULL));
    say(s, &ps[0], "{\"type\":\"tournament.start\",\"id\":8,\"tournament\":%lld}", (long long)t);
    assert_true(answered_ok(&ps[0], 8, &m));
    assert_int_equal(json_integer_value(json_object_get(m, "games")), 2);
    json_t *v = tour_view(s, t);
    assert_string_equal(json_string_value(json_object_get(v, "state")), "running");
    live *lv2 = live_get(s, json_integer_value(json_object_get(board_of(v, 1, 2), "game")));
    assert_non_null(lv2);
    assert_int_equal(lv2->r->tour, t);
    assert_int_equal(lv2->r->tour_round, 1);
    assert_int_equal(lv2->r->tour_board, 2);
    /* a tournament game is not the players' to cancel */
    peer *b2 = peer_named(ps, names, 4, json_string_value(json_object_get(board_of(v, 1, 2), "black")));
    say(s, b2, "{\"type\":\"game.cancel\",\"id\":9,\"game\":%lld}", (long long)lv2->r->id);
    assert_false(answered_ok(b2, 9, NULL));
    tour_resign(s, v, 1, 1, "black", ps, names, 10);
    tick_if_due(s, lv2, lv2->r->settings.absence_ms + 1); /* the lateness delay is over */
    turn_end(s);
    server_settle(s);
    json_decref(v);
    v = tour_view(s, t);
    assert_string_equal(json_string_value(json_object_get(board_of(v, 1, 1), "result")), "W+R");
    assert_string_equal(json_string_value(json_object_get(board_of(v, 1, 2), "result")), "BL");

    /* round 2: the organiser rules both lose on board 1 (the ruling ends
     * its game, whose end changes nothing); board 2 by resignation */
    say(s, &ps[0], "{\"type\":\"tournament.pair\",\"id\":11,\"tournament\":%lld}", (long long)t);
    assert_true(answered_ok(&ps[0], 11, NULL));
    say(s, &ps[0], "{\"type\":\"tournament.start\",\"id\":12,\"tournament\":%lld}", (long long)t);
    assert_true(answered_ok(&ps[0], 12, NULL));
    json_decref(v);
    v = tour_view(s, t);
    json_int_t game21 = json_integer_value(json_object_get(board_of(v, 2, 1), "game"));
    say(s, &g, "{\"type\":\"game.watch\",\"id\":30,\"game\":%lld}", (long long)game21); /* a spectator */
    assert_true(answered_ok(&g, 30, NULL));
    say(s, &ps[0], "{\"type\":\"tournament.result\",\"id\":13,\"tournament\":%lld,\"round\":2,\"board\":1,"
                   "\"result\":\"both-lose\",\"note\":\"both consulted a phone\"}", (long long)t);
    assert_true(answered_ok(&ps[0], 13, NULL));
    json_decref(v);
    v = tour_view(s, t);
    /* the spectator saw the ruling end the game */
    pump(&g);
    json_t *ruled = json_object_get(last_of(&g, "game.state"), "game");
    assert_string_equal(json_string_value(json_object_get(ruled, "phase")), "over");
    assert_string_equal(json_string_value(json_object_get(ruled, "reason")), "ruling");
    assert_string_equal(json_string_value(json_object_get(ruled, "result")), "Void");
    peer *w1 = peer_named(ps, names, 4, json_string_value(json_object_get(board_of(v, 2, 1), "white")));
    say(s, w1, "{\"type\":\"game.resign\",\"id\":14,\"game\":%lld}", (long long)game21);
    assert_false(answered_ok(w1, 14, NULL)); /* over */
    tour_resign(s, v, 2, 2, "white", ps, names, 15);
    json_decref(v);
    v = tour_view(s, t);
    assert_string_equal(json_string_value(json_object_get(board_of(v, 2, 1), "result")), "BL");
    assert_string_equal(json_string_value(json_object_get(board_of(v, 2, 2), "result")), "B+R");
    /* no pairing repeats a game of the rounds before */
    json_t *seen = json_object();
    for (int r = 1; r <= 2; r++)
        for (int k = 1; k <= 2; k++) {
            const char *bn = json_string_value(json_object_get(board_of(v, r, k), "black")),
                       *wn = json_string_value(json_object_get(board_of(v, r, k), "white"));
            char key[80];
            snprintf(key, sizeof key, "%s-%s", strcmp(bn, wn) < 0 ? bn : wn, strcmp(bn, wn) < 0 ? wn : bn);
            assert_null(json_object_get(seen, key));
            json_object_set_new(seen, key, json_true());
        }
    json_decref(seen);

    /* round 3 to the end */
    say(s, &ps[0], "{\"type\":\"tournament.pair\",\"id\":16,\"tournament\":%lld}", (long long)t);
    assert_true(answered_ok(&ps[0], 16, NULL));
    say(s, &ps[0], "{\"type\":\"tournament.start\",\"id\":17,\"tournament\":%lld}", (long long)t);
    assert_true(answered_ok(&ps[0], 17, NULL));
    json_decref(v);
    v = tour_view(s, t);
    tour_resign(s, v, 3, 1, "black", ps, names, 18);
    tour_resign(s, v, 3, 2, "black", ps, names, 19);
    json_decref(v);
    v = tour_view(s, t);
    assert_string_equal(json_string_value(json_object_get(v, "state")), "finished");
    say(s, &ps[0], "{\"type\":\"tournament.pair\",\"id\":20,\"tournament\":%lld}", (long long)t);
    assert_false(answered_ok(&ps[0], 20, NULL));
    /* the standings: four players; the wins are the games won (1 + 1 + 2) */
    json_t *st = json_object_get(v, "standings");
    assert_int_equal(json_array_size(st), 4);
    int wins = 0;
    for (size_t i = 0; i < 4; i++)
        wins += (int)json_integer_value(json_object_get(json_array_get(st, i), "wins"));
    assert_int_equal(wins, 4);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(st, 0), "place")), 1);
    assert_int_equal(json_array_size(json_object_get(v, "corrections")), 0);
    char *before = json_dumps(json_object_get(v, "standings"), JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(v);

    /* a correction by the organiser is logged */
    say(s, &ps[0], "{\"type\":\"tournament.result\",\"id\":21,\"tournament\":%lld,\"round\":1,\"board\":1,"
                   "\"result\":\"B+A\",\"note\":\"appeal upheld\"}", (long long)t);
    assert_true(answered_ok(&ps[0], 21, NULL));
    v = tour_view(s, t);
    assert_int_equal(json_array_size(json_object_get(v, "corrections")), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(v, "corrections"), 0), "note")),
                        "appeal upheld");
    char *after = json_dumps(json_object_get(v, "standings"), JSON_COMPACT | JSON_SORT_KEYS);
    json_int_t version = json_integer_value(json_object_get(v, "version"));
    json_decref(v);
    assert_string_not_equal(before, after);
    free(before);

    /* all of it was stored: a new server holds the same tournament */
    for (int i = 0; i < 4; i++)
        drop(&ps[i]);
    drop(&g);
    server_free(s);
    s = start(db, false);
    v = tour_view(s, t);
    char *again = json_dumps(json_object_get(v, "standings"), JSON_COMPACT | JSON_SORT_KEYS);
    assert_string_equal(after, again);
    assert_int_equal(json_integer_value(json_object_get(v, "version")), version);
    assert_string_equal(json_string_value(json_object_get(v, "state")), "finished");
    free(after);
    free(again);
    json_decref(v);
    const char *type = NULL;
    uint64_t dep;
    char *html = tournament_export(s, t, "standings.html", &type, &dep);
    assert_non_null(html);
    assert_non_null(strstr(html, "Club cup"));
    free(html);
    char *xml = tournament_export(s, t, "opengotha.xml", &type, &dep);
    assert_non_null(xml);
    assert_non_null(strstr(xml, "<Tournament"));
    free(xml);
    server_free(s);
}

/* ---- PostgreSQL: connections lost and made again -------------------------------- */

static void move(server *s, peer *p, int id, json_int_t game, const char *vertex)
{
    say(s, p, "{\"type\":\"game.move\",\"id\":%d,\"game\":%lld,\"move\":\"%s\"}", id,
        (long long)game, vertex);
}

/* A tournament's engines, its registration window and a round begun at its time. */
static void test_tournament_engines_and_times(void **state)
{
    (void)state;
    char db[256];
    db_path(db, sizeof db, 11);
    server *s = start(db, false);
    peer a = connect_peer("10.0.0.1"), b = connect_peer("10.0.0.2");
    json_t *m = NULL;
    say(s, &a, "{\"type\":\"register\",\"id\":1,\"name\":\"ana\",\"password\":\"correct horse\"}");
    say(s, &b, "{\"type\":\"register\",\"id\":1,\"name\":\"bo\",\"password\":\"correct horse\"}");
    long long now = (long long)server_unix_ms();
    say(s, &a, "{\"type\":\"tournament.create\",\"id\":2,\"settings\":{\"name\":\"past\",\"registration_until\":%lld}}",
        now - 1000);
    assert_false(answered_ok(&a, 2, NULL));
    say(s, &a, "{\"type\":\"tournament.create\",\"id\":3,\"settings\":{\"name\":\"Engines\",\"system\":\"round-robin\","
               "\"rounds\":3,\"registration_until\":%lld,\"games\":{\"size\":9}}}", now + 3600 * 1000);
    assert_true(answered_ok(&a, 3, &m));
    json_int_t t = json_integer_value(json_object_get(m, "tournament"));
    say(s, &a, "{\"type\":\"tournament.join\",\"id\":4,\"tournament\":%lld,\"rank\":\"3k\"}", (long long)t);
    assert_true(answered_ok(&a, 4, NULL));
    /* engines: entered by the organiser only, named apart */
    say(s, &b, "{\"type\":\"tournament.join\",\"id\":5,\"tournament\":%lld,\"engine\":\"tengen\",\"rank\":\"1k\"}", (long long)t);
    assert_false(answered_ok(&b, 5, &m));
    assert_string_equal(json_string_value(json_object_get(m, "code")), "forbidden");
    say(s, &a, "{\"type\":\"tournament.join\",\"id\":6,\"tournament\":%lld,\"engine\":\"nobody\",\"rank\":\"1k\"}", (long long)t);
    assert_false(answered_ok(&a, 6, NULL));
    for (int i = 0; i < 2; i++) {
        say(s, &a, "{\"type\":\"tournament.join\",\"id\":%d,\"tournament\":%lld,\"engine\":\"tengen\",\"rank\":\"1k\","
                   "\"playouts\":50}", 7 + i, (long long)t);
        assert_true(answered_ok(&a, 7 + i, NULL));
    }
    json_t *v = tour_view(s, t);
    json_t *pl = json_object_get(v, "players_list");
    assert_int_equal(json_array_size(pl), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(pl, 2), "name")), "tengen-2");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(pl, 1), "engine"), "playouts")), 50);
    json_decref(v);
    /* a round begun at its time, not before */
    say(s, &a, "{\"type\":\"tournament.pair\",\"id\":9,\"tournament\":%lld}", (long long)t);
    assert_true(answered_ok(&a, 9, NULL));
    say(s, &a, "{\"type\":\"tournament.start\",\"id\":10,\"tournament\":%lld,\"at\":%lld}", (long long)t,
        (long long)server_unix_ms() + 300);
    assert_true(answered_ok(&a, 10, &m));
    assert_true(json_integer_value(json_object_get(m, "at")) > 0);
    v = tour_view(s, t);
    json_t *r1 = json_array_get(json_object_get(v, "rounds_list"), 0);
    assert_int_equal(json_integer_value(json_object_get(r1, "started")), 0);
    assert_true(json_integer_value(json_object_get(r1, "start_at")) > 0);
    json_decref(v);
    json_int_t game = 0;
    for (int i = 0; i < 100 && !game; i++) {
        pause_ms(20);
        fake_run_timers(fake_net());
        server_settle(s);
        v = tour_view(s, t);
        r1 = json_array_get(json_object_get(v, "rounds_list"), 0);
        if (json_integer_value(json_object_get(r1, "started")))
            game = json_integer_value(json_object_get(json_array_get(json_object_get(r1, "games"), 0), "game"));
        json_decref(v);
    }
    assert_true(game > 0);
    /* the game of an engine names it, with its strength */
    live *lv = live_get(s, game);
    assert_non_null(lv);
    bool engine = false;
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        engine |= !strcmp(lv->engine[c].name, "tengen") && lv->engine[c].playouts == 50;
    assert_true(engine);
    /* round 2 paired by hand: the organiser's pairs and byes, by name */
    say(s, &a, "{\"type\":\"tournament.result\",\"id\":13,\"tournament\":%lld,\"round\":1,\"board\":1,"
               "\"result\":\"B+F\"}", (long long)t);
    assert_true(answered_ok(&a, 13, NULL));
    say(s, &a, "{\"type\":\"tournament.pair\",\"id\":14,\"tournament\":%lld,\"pairs\":[[\"tengen\",\"nobody\"]]}",
        (long long)t);
    assert_false(answered_ok(&a, 14, &m));
    assert_non_null(strstr(json_string_value(json_object_get(m, "message")), "pairs[0]"));
    say(s, &a, "{\"type\":\"tournament.pair\",\"id\":15,\"tournament\":%lld,\"pairs\":[[\"tengen-2\",\"ana\"]],"
               "\"byes\":[\"tengen\"]}", (long long)t);
    assert_true(answered_ok(&a, 15, NULL));
    v = tour_view(s, t);
    json_t *r2 = json_array_get(json_object_get(v, "rounds_list"), 1);
    json_t *g2 = json_array_get(json_object_get(r2, "games"), 0);
    assert_string_equal(json_string_value(json_object_get(g2, "black")), "tengen-2");
    assert_string_equal(json_string_value(json_object_get(g2, "white")), "ana");
    assert_string_equal(json_string_value(json_array_get(json_object_get(r2, "byes"), 0)), "tengen");
    json_decref(v);
    /* registration closes at its time (for all but the organiser) */
    say(s, &a, "{\"type\":\"tournament.create\",\"id\":11,\"settings\":{\"name\":\"Soon\",\"registration_until\":%lld}}",
        (long long)server_unix_ms() + 100);
    assert_true(answered_ok(&a, 11, &m));
    json_int_t t2 = json_integer_value(json_object_get(m, "tournament"));
    pause_ms(150);
    say(s, &b, "{\"type\":\"tournament.join\",\"id\":12,\"tournament\":%lld,\"rank\":\"2k\"}", (long long)t2);
    assert_false(answered_ok(&b, 12, &m));
    assert_string_equal(json_string_value(json_object_get(m, "code")), "wrong_phase");
    drop(&a);
    drop(&b);
    server_free(s);
}

/* Hostile tournament requests: refused with a reason, nothing changed. */
static void test_tournament_hostile(void **state)
{
    (void)state;
    char db[256];
    db_path(db, sizeof db, 12);
    server *s = start(db, false);
    peer a = connect_peer("10.0.0.1"), b = connect_peer("10.0.0.2");
    json_t *m = NULL;
    say(s, &a, "{\"type\":\"register\",\"id\":1,\"name\":\"ana\",\"password\":\"correct horse\"}");
    say(s, &b, "{\"type\":\"register\",\"id\":1,\"name\":\"bo\",\"password\":\"correct horse\"}");
    const char *bad_creates[] = {
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"rounds\":\"three\"}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"rounds\":0}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"rounds\":21}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"\"}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"games\":\"9x9\"}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"games\":{\"size\":99}}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"games\":{\"color\":\"black\"}}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"games\":{\"rules\":\"free-opening\"}}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"bar\":\"20k\",\"floor\":\"5d\"}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"handicap\":\"lots\"}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"max_handicap\":10}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"x\",\"admin\":true}}",
        "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":[1,2]}",
        "{\"type\":\"tournament.create\",\"id\":%d}",
    };
    for (int i = 0; i < (int)(sizeof bad_creates / sizeof *bad_creates); i++) {
        say(s, &a, bad_creates[i], 10 + i);
        assert_false(answered_ok(&a, 10 + i, &m));
        assert_string_equal(json_string_value(json_object_get(m, "code")), "bad_request");
    }
    uint64_t dep;
    assert_null(tournament_view(s, 1, &dep)); /* none was made */
    say(s, &a, "{\"type\":\"tournament.create\",\"id\":30,\"settings\":{\"name\":\"ok\",\"games\":{\"size\":9}}}");
    assert_true(answered_ok(&a, 30, &m));
    json_int_t t = json_integer_value(json_object_get(m, "tournament"));
    json_t *v = tour_view(s, t);
    json_int_t version = json_integer_value(json_object_get(v, "version"));
    json_decref(v);
    const char *bad[] = {
        "{\"type\":\"tournament.join\",\"id\":%d,\"tournament\":%lld,\"rank\":\"99k\"}",
        "{\"type\":\"tournament.join\",\"id\":%d,\"tournament\":%lld,\"rank\":7}",
        "{\"type\":\"tournament.join\",\"id\":%d,\"tournament\":999999,\"rank\":\"3k\"}",
        "{\"type\":\"tournament.pair\",\"id\":%d,\"tournament\":%lld,\"pairs\":\"ana-bo\"}",
        "{\"type\":\"tournament.pair\",\"id\":%d,\"tournament\":%lld,\"pairs\":[[1,2,3]]}",
        "{\"type\":\"tournament.start\",\"id\":%d,\"tournament\":%lld}",
        "{\"type\":\"tournament.result\",\"id\":%d,\"tournament\":%lld,\"round\":999999999999,\"board\":-1,\"result\":\"B+R\"}",
        "{\"type\":\"tournament.result\",\"id\":%d,\"tournament\":%lld,\"round\":1,\"board\":1,\"result\":\"B+many\"}",
        "{\"type\":\"tournament.leave\",\"id\":%d,\"tournament\":%lld}",
    };
    for (int i = 0; i < (int)(sizeof bad / sizeof *bad); i++) {
        say(s, &a, bad[i], 40 + i, (long long)t);
        assert_false(answered_ok(&a, 40 + i, NULL));
    }
    /* another account cannot organise it */
    say(s, &b, "{\"type\":\"tournament.result\",\"id\":60,\"tournament\":%lld,\"round\":1,\"board\":1,\"result\":\"B+R\"}",
        (long long)t);
    assert_false(answered_ok(&b, 60, &m));
    v = tour_view(s, t);
    assert_int_equal(json_integer_value(json_object_get(v, "version")), version);
    assert_int_equal(json_array_size(json_object_get(v, "players_list")), 0);
    json_decref(v);
    /* an organiser's limit of tournaments under way */
    int refused = 0;
    for (int i = 0; i < 8; i++) {
        say(s, &a, "{\"type\":\"tournament.create\",\"id\":%d,\"settings\":{\"name\":\"n%d\"}}", 70 + i, i);
        if (!answered_ok(&a, 70 + i, &m))
            refused += !strcmp(json_string_value(json_object_get(m, "code")), "limit");
    }
    assert_int_equal(refused, 4); /* 5 under way: the one above and four more */
    drop(&a);
    drop(&b);
    server_free(s);
}

static void test_pg_connections_lost_and_back(void **state)
{
    (void)state;
    if (!pg_url())
        skip();
    char db[256];
    db_path(db, sizeof db, 7);
    server *s = start(db, false);
    peer a = connect_peer("10.0.0.1"), b = connect_peer("10.0.0.2");
    json_t *m = NULL;
    char token[128];
    guest_token(s, &a, 1, token, sizeof token);
    say(s, &b, "{\"type\":\"guest\",\"id\":2}");
    json_int_t g = new_game(s, &a, &b, 3, "");
    move(s, &a, 5, g, "E5");
    assert_true(answered_ok(&a, 5, NULL));

    /* the database closes every connection of the server's (a restart):
     * the next calls connect again, and nothing is refused */
    const char *kill = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 't_7'";
    pg_admin(kill);
    move(s, &b, 6, g, "C3");
    assert_true(answered_ok(&b, 6, NULL));
    peer c = connect_peer("10.0.0.3");
    say(s, &c, "{\"type\":\"hello\",\"id\":7,\"token\":\"%s\"}", token);
    assert_true(answered_ok(&c, 7, NULL));
    assert_false(s->store_failing);

    /* the database away: writes are refused, and said to be */
    pg_admin("ALTER DATABASE t_7 ALLOW_CONNECTIONS false");
    pg_admin(kill);
    move(s, &a, 8, g, "G7");
    assert_false(answered_ok(&a, 8, &m));
    assert_string_equal(json_string_value(json_object_get(m, "code")), "internal");
    say(s, &a, "{\"type\":\"challenge.create\",\"id\":9,\"settings\":{\"size\":13}}");
    assert_false(answered_ok(&a, 9, NULL));
    assert_true(s->store_failing);

    /* back: the server works again by itself, the game as stored (the
     * store tries to connect again after pauses that grow to a second) */
    pg_admin("ALTER DATABASE t_7 ALLOW_CONNECTIONS true");
    bool stored = false;
    for (int id = 100; id < 200 && !stored; id++) {
        pause_ms(50);
        say(s, &a, "{\"type\":\"challenge.create\",\"id\":%d,\"settings\":{\"size\":13}}", id);
        stored = answered_ok(&a, id, NULL);
    }
    assert_true(stored);
    assert_false(s->store_failing);
    for (int i = 0; i < 100 && live_get(s, g)->recovering; i++) {
        pause_ms(50);
        fake_run_timers(fake_net()); /* a rebuild whose read failed is asked again */
        server_settle(s);
    }
    move(s, &a, 10, g, "G7");
    assert_true(answered_ok(&a, 10, NULL));
    json_t *before = snapshot(s);
    drop(&a);
    drop(&b);
    drop(&c);
    server_free(s);
    s = start(db, false);
    json_t *after = snapshot(s);
    assert_true(json_equal(before, after));
    json_t *moves = json_object_get(json_array_get(json_object_get(after, "games"), 0), "moves");
    assert_int_equal(json_array_size(moves), 3);
    json_decref(before);
    json_decref(after);
    server_free(s);
}

static int setup(void **state)
{
    (void)state;
    make_dir();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_freed_after_the_turn),
        cmocka_unit_test(test_store_fails_at_each_write),
        cmocka_unit_test(test_wal_checkpointed_after_token_hellos),
        cmocka_unit_test(test_names_unique_whatever_their_case),
        cmocka_unit_test(test_engine_stored_by_name_and_adjourned),
        cmocka_unit_test(test_engine_pool_cancel),
        cmocka_unit_test(test_engine_asked_once_when_the_position_changes),
        cmocka_unit_test(test_challenges_survive_a_restart),
        cmocka_unit_test(test_rated_games),
        cmocka_unit_test(test_documents),
        cmocka_unit_test(test_tournament),
        cmocka_unit_test(test_tournament_engines_and_times),
        cmocka_unit_test(test_tournament_hostile),
        cmocka_unit_test(test_pg_connections_lost_and_back),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
