/*
 * store_sqlite.c — the store on SQLite: one file, WAL journal,
 * synchronous=FULL (an event reported committed is on disk), every
 * statement prepared once and bound, never a query built from text.
 */
#include "store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    Q_USER_ADD, Q_USER_BY_NAME, Q_USER_BY_ID, Q_TOKEN_ADD, Q_TOKEN_USER, Q_TOKENS_REVOKE,
    Q_GAME_ADD, Q_EVENT_ADD, Q_GAME_FINISH, Q_GAMES_LIVE, Q_GAMES_FINISHED, Q_GAMES_USER,
    Q_GAME_GET, Q_EVENTS, Q_GAME_SGF, Q_GAME_SWAP, Q_COUNT_
};

static const char *const sql_text[Q_COUNT_] = {
    "INSERT INTO users(name, password_hash, guest, created) VALUES(?1, ?2, ?3, strftime('%s','now'))",
    "SELECT id, name, password_hash, guest FROM users WHERE name = ?1",
    "SELECT id, name, password_hash, guest FROM users WHERE id = ?1",
    "INSERT INTO tokens(hash, user_id, created) VALUES(?1, ?2, strftime('%s','now'))",
    "SELECT user_id FROM tokens WHERE hash = ?1",
    "DELETE FROM tokens WHERE user_id = ?1",
    "INSERT INTO games(black, white, black_name, white_name, black_engine, white_engine, nigiri,"
    " settings, created) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    "INSERT INTO events(game_id, seq, at_ms, kind, data) VALUES(?1, ?2, ?3, ?4, ?5)",
    "UPDATE games SET finished = 1, result = ?2, sgf = ?3, moves = ?4 WHERE id = ?1",
    "SELECT " "id, black, white, black_name, white_name, black_engine, white_engine, nigiri,"
    " settings, created, finished, result, moves FROM games WHERE finished = 0 ORDER BY id",
    "SELECT id, black, white, black_name, white_name, black_engine, white_engine, nigiri,"
    " settings, created, finished, result, moves FROM games WHERE finished = 1 ORDER BY id DESC LIMIT ?1",
    "SELECT id, black, white, black_name, white_name, black_engine, white_engine, nigiri,"
    " settings, created, finished, result, moves FROM games WHERE (black = ?2 OR white = ?2)"
    " ORDER BY id DESC LIMIT ?1",
    "SELECT id, black, white, black_name, white_name, black_engine, white_engine, nigiri,"
    " settings, created, finished, result, moves FROM games WHERE id = ?1",
    "SELECT seq, at_ms, kind, data FROM events WHERE game_id = ?1 ORDER BY seq",
    "SELECT sgf FROM games WHERE id = ?1 AND sgf IS NOT NULL",
    /* every right-hand side reads the row as it was: a swap in one statement */
    "UPDATE games SET black = white, white = black, black_name = white_name,"
    " white_name = black_name, black_engine = white_engine, white_engine = black_engine WHERE id = ?1",
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS users(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE,"
    " password_hash TEXT NOT NULL, guest INTEGER NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tokens(hash BLOB PRIMARY KEY, user_id INTEGER NOT NULL"
    " REFERENCES users(id), created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS games(id INTEGER PRIMARY KEY AUTOINCREMENT, black INTEGER NOT NULL,"
    " white INTEGER NOT NULL, black_name TEXT NOT NULL, white_name TEXT NOT NULL,"
    " black_engine TEXT NOT NULL, white_engine TEXT NOT NULL, nigiri TEXT NOT NULL,"
    " settings TEXT NOT NULL, created INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0,"
    " result TEXT NOT NULL DEFAULT '', sgf TEXT, moves INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX IF NOT EXISTS games_black ON games(black);"
    "CREATE INDEX IF NOT EXISTS games_white ON games(white);"
    "CREATE TABLE IF NOT EXISTS events(game_id INTEGER NOT NULL REFERENCES games(id),"
    " seq INTEGER NOT NULL, at_ms INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,"
    " PRIMARY KEY(game_id, seq));";

typedef struct sqlite_store {
    store base;
    sqlite3 *db;
    sqlite3_stmt *q[Q_COUNT_];
} sqlite_store;

static sqlite_store *S(store *s) { return (sqlite_store *)s; }

static const char *sq_error(store *s) { return sqlite3_errmsg(S(s)->db); }

static void sq_close(store *s)
{
    sqlite_store *q = S(s);
    for (int i = 0; i < Q_COUNT_; i++)
        sqlite3_finalize(q->q[i]);
    sqlite3_close(q->db);
    free(q);
}

/* The statement, reset and ready to bind. */
static sqlite3_stmt *stmt(store *s, int which)
{
    sqlite3_stmt *st = S(s)->q[which];
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return st;
}

static void copy_text(char *dst, size_t len, sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, len, "%s", t ? (const char *)t : "");
}

static char *dup_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    size_t n = (size_t)sqlite3_column_bytes(st, col);
    char *out = malloc(n + 1);
    if (out) {
        if (t)
            memcpy(out, t, n);
        out[n] = '\0';
    }
    return out;
}

/* Run a statement that returns no rows. */
static int run(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    return rc == SQLITE_DONE ? 0 : rc == SQLITE_CONSTRAINT ? 1 : -1;
}

static int sq_exec(store *s, const char *sql)
{
    return sqlite3_exec(S(s)->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int sq_begin(store *s) { return sq_exec(s, "BEGIN IMMEDIATE"); }
static int sq_commit(store *s) { return sq_exec(s, "COMMIT"); }
static int sq_rollback(store *s) { return sq_exec(s, "ROLLBACK"); }

static int sq_user_add(store *s, const store_user *u, int64_t *id)
{
    sqlite3_stmt *st = stmt(s, Q_USER_ADD);
    sqlite3_bind_text(st, 1, u->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, u->password_hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, u->guest);
    int rc = run(st);
    if (rc == 0)
        *id = sqlite3_last_insert_rowid(S(s)->db);
    return rc;
}

static int read_user(sqlite3_stmt *st, store_user *out)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
        return 1;
    if (rc != SQLITE_ROW)
        return -1;
    out->id = sqlite3_column_int64(st, 0);
    copy_text(out->name, sizeof out->name, st, 1);
    copy_text(out->password_hash, sizeof out->password_hash, st, 2);
    out->guest = sqlite3_column_int(st, 3) != 0;
    return 0;
}

static int sq_user_by_name(store *s, const char *name, store_user *out)
{
    sqlite3_stmt *st = stmt(s, Q_USER_BY_NAME);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    return read_user(st, out);
}

static int sq_user_by_id(store *s, int64_t id, store_user *out)
{
    sqlite3_stmt *st = stmt(s, Q_USER_BY_ID);
    sqlite3_bind_int64(st, 1, id);
    return read_user(st, out);
}

static int sq_token_add(store *s, const uint8_t hash[32], int64_t user)
{
    sqlite3_stmt *st = stmt(s, Q_TOKEN_ADD);
    sqlite3_bind_blob(st, 1, hash, 32, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, user);
    return run(st) == 0 ? 0 : -1;
}

static int sq_token_user(store *s, const uint8_t hash[32], int64_t *user)
{
    sqlite3_stmt *st = stmt(s, Q_TOKEN_USER);
    sqlite3_bind_blob(st, 1, hash, 32, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
        return 1;
    if (rc != SQLITE_ROW)
        return -1;
    *user = sqlite3_column_int64(st, 0);
    return 0;
}

static int sq_tokens_revoke(store *s, int64_t user)
{
    sqlite3_stmt *st = stmt(s, Q_TOKENS_REVOKE);
    sqlite3_bind_int64(st, 1, user);
    return run(st) == 0 ? 0 : -1;
}

static int sq_game_add(store *s, store_game *g)
{
    sqlite3_stmt *st = stmt(s, Q_GAME_ADD);
    sqlite3_bind_int64(st, 1, g->black);
    sqlite3_bind_int64(st, 2, g->white);
    sqlite3_bind_text(st, 3, g->black_name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, g->white_name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, g->black_engine, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, g->white_engine, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 7, g->nigiri, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 8, g->settings_json, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 9, g->created_unix_ms);
    if (run(st) != 0)
        return -1;
    g->id = sqlite3_last_insert_rowid(S(s)->db);
    return 0;
}

static int sq_event_add(store *s, int64_t game, const store_event *e)
{
    sqlite3_stmt *st = stmt(s, Q_EVENT_ADD);
    sqlite3_bind_int64(st, 1, game);
    sqlite3_bind_int(st, 2, e->seq);
    sqlite3_bind_int64(st, 3, e->at_ms);
    sqlite3_bind_text(st, 4, e->kind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, e->data_json, -1, SQLITE_TRANSIENT);
    return run(st) == 0 ? 0 : -1;
}

static int sq_game_finish(store *s, int64_t game, const char *result, int moves, const char *sgf)
{
    sqlite3_stmt *st = stmt(s, Q_GAME_FINISH);
    sqlite3_bind_int64(st, 1, game);
    sqlite3_bind_int(st, 4, moves);
    sqlite3_bind_text(st, 2, result, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, sgf, -1, SQLITE_TRANSIENT);
    return run(st) == 0 ? 0 : -1;
}

static int sq_game_swap_colors(store *s, int64_t game)
{
    sqlite3_stmt *st = stmt(s, Q_GAME_SWAP);
    sqlite3_bind_int64(st, 1, game);
    return run(st) == 0 ? 0 : -1;
}

static int read_game(sqlite3_stmt *st, store_game *g)
{
    memset(g, 0, sizeof *g);
    g->id = sqlite3_column_int64(st, 0);
    g->black = sqlite3_column_int64(st, 1);
    g->white = sqlite3_column_int64(st, 2);
    copy_text(g->black_name, sizeof g->black_name, st, 3);
    copy_text(g->white_name, sizeof g->white_name, st, 4);
    copy_text(g->black_engine, sizeof g->black_engine, st, 5);
    copy_text(g->white_engine, sizeof g->white_engine, st, 6);
    copy_text(g->nigiri, sizeof g->nigiri, st, 7);
    g->settings_json = dup_text(st, 8);
    g->created_unix_ms = sqlite3_column_int64(st, 9);
    g->finished = sqlite3_column_int(st, 10) != 0;
    copy_text(g->result, sizeof g->result, st, 11);
    g->moves = sqlite3_column_int(st, 12);
    return g->settings_json ? 0 : -1;
}

static int sq_games_list(store *s, bool finished, int64_t user, int limit, store_game **out,
                         int *count)
{
    sqlite3_stmt *st = stmt(s, user > 0 ? Q_GAMES_USER : finished ? Q_GAMES_FINISHED : Q_GAMES_LIVE);
    sqlite3_bind_int(st, 1, limit);
    if (user > 0)
        sqlite3_bind_int64(st, 2, user);
    store_game *games = NULL;
    int n = 0, cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            store_game *grown = realloc(games, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            games = grown;
        }
        if (read_game(st, &games[n]) != 0)
            break;
        n++;
    }
    *out = games;
    *count = n;
    return rc == SQLITE_DONE ? 0 : -1;
}

static int sq_game_get(store *s, int64_t id, store_game *out)
{
    sqlite3_stmt *st = stmt(s, Q_GAME_GET);
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
        return 1;
    return rc == SQLITE_ROW ? read_game(st, out) : -1;
}

static int sq_events(store *s, int64_t game, store_event **out, int *count)
{
    sqlite3_stmt *st = stmt(s, Q_EVENTS);
    sqlite3_bind_int64(st, 1, game);
    store_event *events = NULL;
    int n = 0, cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            store_event *grown = realloc(events, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            events = grown;
        }
        store_event *e = &events[n];
        e->seq = sqlite3_column_int(st, 0);
        e->at_ms = sqlite3_column_int64(st, 1);
        copy_text(e->kind, sizeof e->kind, st, 2);
        e->data_json = dup_text(st, 3);
        if (!e->data_json)
            break;
        n++;
    }
    *out = events;
    *count = n;
    return rc == SQLITE_DONE ? 0 : -1;
}

static int sq_game_sgf(store *s, int64_t game, char **sgf)
{
    sqlite3_stmt *st = stmt(s, Q_GAME_SGF);
    sqlite3_bind_int64(st, 1, game);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
        return 1;
    if (rc != SQLITE_ROW)
        return -1;
    *sgf = dup_text(st, 0);
    return *sgf ? 0 : -1;
}

static const store_ops sqlite_ops = {
    sq_close, sq_error, sq_begin, sq_commit, sq_rollback, sq_user_add, sq_user_by_name, sq_user_by_id, sq_token_add, sq_token_user,
    sq_tokens_revoke, sq_game_add, sq_event_add, sq_game_finish, sq_game_swap_colors, sq_games_list, sq_game_get,
    sq_events, sq_game_sgf,
};

store *store_sqlite_open(const char *path, char *err, size_t errlen)
{
    sqlite_store *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    q->base.ops = &sqlite_ops;
    if (sqlite3_open_v2(path, &q->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK)
        goto fail;
    sqlite3_busy_timeout(q->db, 5000);
    if (sqlite3_exec(q->db,
                     "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
                     NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(q->db, schema, NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    for (int i = 0; i < Q_COUNT_; i++)
        if (sqlite3_prepare_v3(q->db, sql_text[i], -1, SQLITE_PREPARE_PERSISTENT, &q->q[i], NULL) !=
            SQLITE_OK)
            goto fail;
    return &q->base;
fail:
    snprintf(err, errlen, "%s: %s", path, q->db ? sqlite3_errmsg(q->db) : "cannot open");
    sq_close(&q->base);
    return NULL;
}

void store_game_clear(store_game *g)
{
    free(g->settings_json);
    g->settings_json = NULL;
}

void store_games_free(store_game *games, int count)
{
    for (int i = 0; i < count; i++)
        store_game_clear(&games[i]);
    free(games);
}

void store_events_free(store_event *events, int count)
{
    for (int i = 0; i < count; i++)
        free(events[i].data_json);
    free(events);
}
