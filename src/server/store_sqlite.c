/*
 * store_sqlite.c — the store on SQLite: one file, WAL journal,
 * synchronous=FULL (an event reported committed is on disk), every
 * statement prepared once and bound, never a query built from text.
 * Every statement is reset as soon as its rows are read, so that no
 * connection holds a read snapshot between calls: the WAL is then
 * checkpointed (automatically, and by `idle`) and stays bounded.  The
 * schema carries a version (PRAGMA user_version) and is migrated forward
 * at open.
 */
#include "store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    Q_USER_ADD, Q_USER_BY_NAME, Q_USER_BY_ID, Q_TOKEN_ADD, Q_TOKEN_USER, Q_TOKENS_REVOKE,
    Q_GAME_ADD, Q_EVENT_ADD, Q_GAME_FINISH, Q_GAMES_LIVE, Q_GAMES_FINISHED, Q_GAMES_USER,
    Q_GAME_GET, Q_EVENTS, Q_GAME_SGF, Q_GAME_SWAP, Q_GAME_STATE, Q_MAX_GAME, Q_MAX_CHALLENGE,
    Q_CHALLENGE_ADD, Q_CHALLENGE_REMOVE, Q_CHALLENGES, Q_RATING_GET, Q_RATING_PUT, Q_RATING_POINT,
    Q_RATING_HISTORY, Q_DOC_NEW_ID, Q_DOC_PUT, Q_DOC_GET, Q_DOC_LIST, Q_COUNT_
};

static const char *const sql_text[Q_COUNT_] = {
    "INSERT INTO users(name, password_hash, guest, created) VALUES(?1, ?2, ?3, strftime('%s','now'))",
    "SELECT id, name, password_hash, guest FROM users WHERE name = ?1 COLLATE NOCASE",
    "SELECT id, name, password_hash, guest FROM users WHERE id = ?1",
    "INSERT INTO tokens(hash, user_id, created) VALUES(?1, ?2, strftime('%s','now'))",
    "SELECT user_id FROM tokens WHERE hash = ?1",
    "DELETE FROM tokens WHERE user_id = ?1",
    "INSERT INTO games(black, white, black_name, white_name, black_engine, white_engine, nigiri,"
    " settings, created, id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    /* an event already at that seq: 1, as on PostgreSQL (one server per
     * file, so it never happens unless the file is shared by mistake) */
    "INSERT INTO events(game_id, seq, at_ms, kind, data) VALUES(?1, ?2, ?3, ?4, ?5)"
    " ON CONFLICT(game_id, seq) DO NOTHING",
    "UPDATE games SET finished = 1, result = ?2, sgf = ?3, moves = ?4, state = ?5 WHERE id = ?1",
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
    "SELECT state FROM games WHERE id = ?1 AND state IS NOT NULL",
    "SELECT coalesce(max(id), 0) FROM games",
    "SELECT coalesce(max(id), 0) FROM challenge_ids",
    "INSERT INTO challenges(id, challenger, challenger_name, opponent, settings, created)"
    " VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
    "DELETE FROM challenges WHERE id = ?1",
    "SELECT id, challenger, challenger_name, opponent, settings, created FROM challenges ORDER BY id",
    "SELECT rating, deviation, volatility, games FROM ratings WHERE user_id = ?1",
    "INSERT INTO ratings(user_id, rating, deviation, volatility, games, updated) VALUES(?1, ?2, ?3, ?4, ?5, ?6)"
    " ON CONFLICT(user_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,"
    " volatility = excluded.volatility, games = excluded.games, updated = excluded.updated",
    "INSERT OR REPLACE INTO rating_history(user_id, game_id, at, rating, deviation) VALUES(?1, ?2, ?3, ?4, ?5)",
    "SELECT game_id, at, rating, deviation FROM (SELECT * FROM rating_history WHERE user_id = ?1"
    " ORDER BY at DESC, game_id DESC LIMIT ?2) ORDER BY at, game_id",
    "INSERT INTO doc_ids(kind, last) VALUES(?1, 1)"
    " ON CONFLICT(kind) DO UPDATE SET last = last + 1 RETURNING last",
    "INSERT INTO docs(kind, id, summary, body, updated) VALUES(?1, ?2, ?3, ?4, ?5)"
    " ON CONFLICT(kind, id) DO UPDATE SET summary = excluded.summary, body = excluded.body,"
    " updated = excluded.updated",
    "SELECT body, updated FROM docs WHERE kind = ?1 AND id = ?2",
    "SELECT id, updated, summary FROM docs WHERE kind = ?1 ORDER BY updated DESC, id DESC LIMIT ?2",
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
    " PRIMARY KEY(game_id, seq));"
    "CREATE TABLE IF NOT EXISTS challenges(id INTEGER PRIMARY KEY, challenger INTEGER NOT NULL,"
    " challenger_name TEXT NOT NULL, opponent TEXT NOT NULL, settings TEXT NOT NULL,"
    " created INTEGER NOT NULL);"
    /* every challenge id ever given, so that ids are never used twice */
    "CREATE TABLE IF NOT EXISTS challenge_ids(id INTEGER PRIMARY KEY);"
    "CREATE TRIGGER IF NOT EXISTS challenge_id_kept AFTER INSERT ON challenges"
    " BEGIN INSERT OR IGNORE INTO challenge_ids(id) VALUES(new.id);"
    " DELETE FROM challenge_ids WHERE id < new.id; END;"
    /* version 3: Glicko-2 ratings of accounts, and their history */
    "CREATE TABLE IF NOT EXISTS ratings(user_id INTEGER PRIMARY KEY REFERENCES users(id),"
    " rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,"
    " games INTEGER NOT NULL, updated INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS rating_history(user_id INTEGER NOT NULL REFERENCES users(id),"
    " game_id INTEGER NOT NULL, at INTEGER NOT NULL, rating REAL NOT NULL, deviation REAL NOT NULL,"
    " PRIMARY KEY(user_id, game_id));"
    /* version 4: documents of later features (tournaments, analyses) */
    "CREATE TABLE IF NOT EXISTS docs(kind TEXT NOT NULL, id INTEGER NOT NULL, summary TEXT NOT NULL,"
    " body TEXT NOT NULL, updated INTEGER NOT NULL, PRIMARY KEY(kind, id));"
    "CREATE INDEX IF NOT EXISTS docs_updated ON docs(kind, updated);"
    "CREATE TABLE IF NOT EXISTS doc_ids(kind TEXT PRIMARY KEY, last INTEGER NOT NULL);";

/* From version 1 (2323faa and before) to 2: finished games keep their
 * final state; names are unique whatever their case (a file holding both
 * "ana" and "ANA" keeps them, and new ones are refused). */
static const char migrate_1_to_2[] =
    "ALTER TABLE games ADD COLUMN state TEXT;";

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

/* Done with a statement's rows: its read snapshot is let go. */
static int done(sqlite3_stmt *st, int rc)
{
    sqlite3_reset(st);
    return rc;
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
    return done(st, rc == SQLITE_DONE ? 0 : rc == SQLITE_CONSTRAINT ? 1 : -1);
}

static int sq_exec(store *s, const char *sql)
{
    return sqlite3_exec(S(s)->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int sq_begin(store *s) { return sq_exec(s, "BEGIN IMMEDIATE"); }
static int sq_commit(store *s) { return sq_exec(s, "COMMIT"); }
static int sq_rollback(store *s)
{
    /* a failed COMMIT may have rolled back already */
    return sqlite3_get_autocommit(S(s)->db) ? 0 : sq_exec(s, "ROLLBACK");
}

static void sq_idle(store *s)
{
    sqlite_store *q = S(s);
    for (int i = 0; i < Q_COUNT_; i++)
        sqlite3_reset(q->q[i]);
    /* a passive checkpoint never waits for anyone: the WAL is copied back
     * as far as readers allow, and journal_size_limit trims the file */
    sqlite3_wal_checkpoint_v2(q->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
}

static int sq_user_add(store *s, const store_user *u, int64_t *id)
{
    sqlite3_stmt *st = stmt(s, Q_USER_ADD);
    sqlite3_bind_text(st, 1, u->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, u->password_hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, u->guest);
    int rc = sqlite3_step(st);
    rc = rc == SQLITE_DONE ? 0 : rc == SQLITE_CONSTRAINT ? 1 : -1;
    if (rc == 0)
        *id = sqlite3_last_insert_rowid(S(s)->db);
    return done(st, rc);
}

static int read_user(sqlite3_stmt *st, store_user *out)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
        return done(st, 1);
    if (rc != SQLITE_ROW)
        return done(st, -1);
    out->id = sqlite3_column_int64(st, 0);
    copy_text(out->name, sizeof out->name, st, 1);
    copy_text(out->password_hash, sizeof out->password_hash, st, 2);
    out->guest = sqlite3_column_int(st, 3) != 0;
    return done(st, 0);
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
        return done(st, 1);
    if (rc != SQLITE_ROW)
        return done(st, -1);
    *user = sqlite3_column_int64(st, 0);
    return done(st, 0);
}

static int sq_tokens_revoke(store *s, int64_t user)
{
    sqlite3_stmt *st = stmt(s, Q_TOKENS_REVOKE);
    sqlite3_bind_int64(st, 1, user);
    return run(st) == 0 ? 0 : -1;
}

static int sq_game_add(store *s, const store_game *g)
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
    sqlite3_bind_int64(st, 10, g->id);
    return run(st);
}

static int sq_event_add(store *s, int64_t game, const store_event *e)
{
    sqlite3_stmt *st = stmt(s, Q_EVENT_ADD);
    sqlite3_bind_int64(st, 1, game);
    sqlite3_bind_int(st, 2, e->seq);
    sqlite3_bind_int64(st, 3, e->at_ms);
    sqlite3_bind_text(st, 4, e->kind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, e->data_json, -1, SQLITE_TRANSIENT);
    if (run(st) != 0)
        return -1;
    return sqlite3_changes(S(s)->db) ? 0 : 1;
}

static int sq_game_finish(store *s, int64_t game, const char *result, int moves, const char *sgf,
                          const char *state_json)
{
    sqlite3_stmt *st = stmt(s, Q_GAME_FINISH);
    sqlite3_bind_int64(st, 1, game);
    sqlite3_bind_int(st, 4, moves);
    sqlite3_bind_text(st, 2, result, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, sgf, -1, SQLITE_TRANSIENT);
    if (state_json)
        sqlite3_bind_text(st, 5, state_json, -1, SQLITE_TRANSIENT);
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
    return done(st, rc == SQLITE_DONE ? 0 : -1);
}

static int sq_game_get(store *s, int64_t id, store_game *out)
{
    sqlite3_stmt *st = stmt(s, Q_GAME_GET);
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
        return done(st, 1);
    return done(st, rc == SQLITE_ROW ? read_game(st, out) : -1);
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
    return done(st, rc == SQLITE_DONE ? 0 : -1);
}

static int read_text(store *s, int which, int64_t id, char **out)
{
    sqlite3_stmt *st = stmt(s, which);
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
        return done(st, 1);
    if (rc != SQLITE_ROW)
        return done(st, -1);
    *out = dup_text(st, 0);
    return done(st, *out ? 0 : -1);
}

static int sq_game_sgf(store *s, int64_t game, char **sgf) { return read_text(s, Q_GAME_SGF, game, sgf); }

static int sq_game_state(store *s, int64_t game, char **state)
{
    return read_text(s, Q_GAME_STATE, game, state);
}

static int read_int(store *s, int which, int64_t *out)
{
    sqlite3_stmt *st = stmt(s, which);
    if (sqlite3_step(st) != SQLITE_ROW)
        return done(st, -1);
    *out = sqlite3_column_int64(st, 0);
    return done(st, 0);
}

static int sq_max_ids(store *s, int64_t *game, int64_t *challenge)
{
    return read_int(s, Q_MAX_GAME, game) || read_int(s, Q_MAX_CHALLENGE, challenge) ? -1 : 0;
}

static int sq_challenge_add(store *s, const store_challenge *c)
{
    sqlite3_stmt *st = stmt(s, Q_CHALLENGE_ADD);
    sqlite3_bind_int64(st, 1, c->id);
    sqlite3_bind_int64(st, 2, c->challenger);
    sqlite3_bind_text(st, 3, c->challenger_name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, c->opponent, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, c->settings_json, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 6, c->created_unix_ms);
    return run(st) == 0 ? 0 : -1;
}

static int sq_challenge_remove(store *s, int64_t id)
{
    sqlite3_stmt *st = stmt(s, Q_CHALLENGE_REMOVE);
    sqlite3_bind_int64(st, 1, id);
    if (run(st) != 0)
        return -1;
    return sqlite3_changes(S(s)->db) ? 0 : 1;
}

static int sq_challenges_list(store *s, store_challenge **out, int *count)
{
    sqlite3_stmt *st = stmt(s, Q_CHALLENGES);
    store_challenge *list = NULL;
    int n = 0, cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            store_challenge *grown = realloc(list, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            list = grown;
        }
        store_challenge *c = &list[n];
        c->id = sqlite3_column_int64(st, 0);
        c->challenger = sqlite3_column_int64(st, 1);
        copy_text(c->challenger_name, sizeof c->challenger_name, st, 2);
        copy_text(c->opponent, sizeof c->opponent, st, 3);
        c->settings_json = dup_text(st, 4);
        c->created_unix_ms = sqlite3_column_int64(st, 5);
        if (!c->settings_json)
            break;
        n++;
    }
    *out = list;
    *count = n;
    return done(st, rc == SQLITE_DONE ? 0 : -1);
}

/* ---- ratings ------------------------------------------------------------------- */

static int sq_rating_get(store *s, int64_t user, store_rating *out)
{
    *out = (store_rating)STORE_RATING_START;
    sqlite3_stmt *st = stmt(s, Q_RATING_GET);
    sqlite3_bind_int64(st, 1, user);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
        return done(st, 1);
    if (rc != SQLITE_ROW)
        return done(st, -1);
    out->rating = sqlite3_column_double(st, 0);
    out->deviation = sqlite3_column_double(st, 1);
    out->volatility = sqlite3_column_double(st, 2);
    out->games = sqlite3_column_int(st, 3);
    return done(st, 0);
}

/* The writer's transaction (BEGIN IMMEDIATE) holds the file's write lock:
 * nobody rates meanwhile. */
static int sq_rating_lock(store *s, int64_t user, store_rating *out)
{
    return sq_rating_get(s, user, out) < 0 ? -1 : 0;
}

static int sq_rating_put(store *s, int64_t user, int64_t game, int64_t at, const store_rating *r)
{
    sqlite3_stmt *st = stmt(s, Q_RATING_PUT);
    sqlite3_bind_int64(st, 1, user);
    sqlite3_bind_double(st, 2, r->rating);
    sqlite3_bind_double(st, 3, r->deviation);
    sqlite3_bind_double(st, 4, r->volatility);
    sqlite3_bind_int(st, 5, r->games);
    sqlite3_bind_int64(st, 6, at);
    if (run(st) != 0)
        return -1;
    st = stmt(s, Q_RATING_POINT);
    sqlite3_bind_int64(st, 1, user);
    sqlite3_bind_int64(st, 2, game);
    sqlite3_bind_int64(st, 3, at);
    sqlite3_bind_double(st, 4, r->rating);
    sqlite3_bind_double(st, 5, r->deviation);
    return run(st) == 0 ? 0 : -1;
}

static int sq_rating_history(store *s, int64_t user, int limit, store_rating_point **out, int *count)
{
    sqlite3_stmt *st = stmt(s, Q_RATING_HISTORY);
    sqlite3_bind_int64(st, 1, user);
    sqlite3_bind_int(st, 2, limit);
    store_rating_point *list = NULL;
    int n = 0, cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            store_rating_point *grown = realloc(list, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            list = grown;
        }
        list[n++] = (store_rating_point){sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                                         sqlite3_column_double(st, 2), sqlite3_column_double(st, 3)};
    }
    *out = list;
    *count = n;
    return done(st, rc == SQLITE_DONE ? 0 : -1);
}

/* ---- documents ----------------------------------------------------------------- */

static int sq_doc_new_id(store *s, const char *kind, int64_t *id)
{
    sqlite3_stmt *st = stmt(s, Q_DOC_NEW_ID);
    sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_ROW)
        return done(st, -1);
    *id = sqlite3_column_int64(st, 0);
    /* RETURNING's statement finishes its write when stepped to the end */
    return done(st, sqlite3_step(st) == SQLITE_DONE ? 0 : -1);
}

static int sq_doc_put(store *s, const char *kind, int64_t id, const char *summary, const char *body,
                      int64_t at)
{
    sqlite3_stmt *st = stmt(s, Q_DOC_PUT);
    sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, id);
    sqlite3_bind_text(st, 3, summary, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, body, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, at);
    return run(st) == 0 ? 0 : -1;
}

/* The writer's transaction holds the file's write lock: lock needs nothing more. */
static int sq_doc_get(store *s, const char *kind, int64_t id, bool lock, char **body, int64_t *updated)
{
    (void)lock;
    *body = NULL;
    sqlite3_stmt *st = stmt(s, Q_DOC_GET);
    sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
        return done(st, 1);
    if (rc != SQLITE_ROW || !(*body = dup_text(st, 0)))
        return done(st, -1);
    if (updated)
        *updated = sqlite3_column_int64(st, 1);
    return done(st, 0);
}

static int sq_doc_list(store *s, const char *kind, int limit, store_doc **out, int *count)
{
    sqlite3_stmt *st = stmt(s, Q_DOC_LIST);
    sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, limit);
    store_doc *list = NULL;
    int n = 0, cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            store_doc *grown = realloc(list, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            list = grown;
        }
        list[n] = (store_doc){sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), dup_text(st, 2)};
        if (!list[n].summary)
            break;
        n++;
    }
    *out = list;
    *count = n;
    return done(st, rc == SQLITE_DONE ? 0 : -1);
}

/* One server per file: nothing to share, nobody to tell. */
static int sq_ids_take(store *s, const char *kind, int count, int64_t *first)
{
    (void)s, (void)kind, (void)count, (void)first;
    return -1;
}

static int sq_notify(store *s, const char *payload)
{
    (void)s, (void)payload;
    return 0;
}

static const store_ops sqlite_ops = {
    sq_close, sq_error, sq_begin, sq_commit, sq_rollback, sq_user_add, sq_user_by_name, sq_user_by_id, sq_token_add, sq_token_user,
    sq_tokens_revoke, sq_game_add, sq_event_add, sq_game_finish, sq_game_swap_colors, sq_games_list, sq_game_get,
    sq_events, sq_game_sgf, sq_game_state, sq_max_ids, sq_challenge_add, sq_challenge_remove,
    sq_challenges_list, sq_ids_take, sq_notify, sq_rating_lock, sq_rating_put, sq_rating_get,
    sq_rating_history, sq_doc_new_id, sq_doc_put, sq_doc_get, sq_doc_list, sq_idle,
};

/* Create the tables of a new file, or bring an older one to this version;
 * *found is the version the file had: 0 for a new one, 1 for one with
 * tables and no version (2323faa and before wrote none). */
static int migrate(sqlite3 *db, int *found)
{
    sqlite3_stmt *st;
    int version = 0;
    bool fresh = true;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name = 'games'", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    fresh = sqlite3_step(st) != SQLITE_ROW;
    sqlite3_finalize(st);
    *found = fresh ? 0 : version < 1 ? 1 : version;
    if (version > STORE_SCHEMA_VERSION)
        return -2; /* written by a newer tengen */
    if (version == STORE_SCHEMA_VERSION)
        return 0;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_exec(db, schema, NULL, NULL, NULL);
    if (rc == SQLITE_OK && !fresh && version < 2)
        rc = sqlite3_exec(db, migrate_1_to_2, NULL, NULL, NULL);
    /* 2 to 3 (ratings) and 3 to 4 (docs): tables made by the schema above */
    if (rc == SQLITE_OK && fresh)
        rc = sqlite3_exec(db, "ALTER TABLE games ADD COLUMN state TEXT;", NULL, NULL, NULL);
    /* names unique whatever their case, where the file allows it */
    if (rc == SQLITE_OK)
        sqlite3_exec(db, "CREATE UNIQUE INDEX IF NOT EXISTS users_name_nocase ON users(name COLLATE NOCASE)",
                     NULL, NULL, NULL);
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : -1;
}

static store *open_store(const char *path, int *found, char *err, size_t errlen)
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
    /* the store's threads wait for another process's write lock; the loop
     * never does */
    const char *busy = getenv("TENGEN_STORE_BUSY_MS");
    sqlite3_busy_timeout(q->db, busy ? atoi(busy) : 15000);
    if (sqlite3_db_readonly(q->db, "main") == 1) {
        snprintf(err, errlen, "%s: the database is read-only", path);
        sq_close(&q->base);
        return NULL;
    }
    if (sqlite3_exec(q->db,
                     "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"
                     " PRAGMA journal_size_limit=8388608; PRAGMA wal_autocheckpoint=1000;",
                     NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    int m = migrate(q->db, found);
    if (m == -2) {
        snprintf(err, errlen, "%s: written by a newer tengen (schema version above %d)", path,
                 STORE_SCHEMA_VERSION);
        sq_close(&q->base);
        return NULL;
    }
    if (m != 0)
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

store *store_sqlite_open(const char *path, char *err, size_t errlen)
{
    int found;
    return open_store(path, &found, err, errlen);
}

int store_sqlite_migrate(const char *path, int *before, int *after, char *err, size_t errlen)
{
    store *s = open_store(path, before, err, errlen);
    if (!s)
        return -1;
    store_close(s);
    *after = STORE_SCHEMA_VERSION;
    return 0;
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

void store_challenges_free(store_challenge *c, int count)
{
    for (int i = 0; i < count; i++)
        free(c[i].settings_json);
    free(c);
}

void store_docs_free(store_doc *docs, int count)
{
    for (int i = 0; i < count; i++)
        free(docs[i].summary);
    free(docs);
}

void store_events_free(store_event *events, int count)
{
    for (int i = 0; i < count; i++)
        free(events[i].data_json);
    free(events);
}
