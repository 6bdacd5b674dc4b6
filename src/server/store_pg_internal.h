/*
 * store_pg_internal.h — what the files of the PostgreSQL store share:
 * store_pg.c (connections, statements, accounts, games, challenges, the
 * table of operations, opening), store_pg_schema.c (the schema's versions
 * and migrations), store_pg_shared.c (what several nodes share: ids,
 * notifications; and the ratings).
 */
#ifndef TENGEN_SERVER_STORE_PG_INTERNAL_H
#define TENGEN_SERVER_STORE_PG_INTERNAL_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "store.h"

/* The PostgreSQL schema: SQLite's tables and columns (version 2), what
 * nodes share (3), the ratings (4: SQLite's 3).  Whoever raises
 * STORE_SCHEMA_VERSION adds a step in store_pg_schema.c too. */
#define PG_SCHEMA_VERSION STORE_PG_SCHEMA_VERSION
_Static_assert(STORE_SCHEMA_VERSION == 4, "store_pg_schema.c needs a migration step to SQLite's new tables");

/* The statements, prepared on each connection at first use (store_pg.c's
 * sql_text); those from Q_FIRST_READ_ on only read. */
enum {
    Q_USER_ADD, Q_TOKEN_ADD, Q_TOKENS_REVOKE, Q_GAME_ADD, Q_EVENT_ADD, Q_GAME_FINISH, Q_GAME_SWAP,
    Q_CHALLENGE_ADD, Q_CHALLENGE_REMOVE, Q_IDS_TAKE, Q_NOTIFY, Q_RATING_MAKE, Q_RATING_LOCK,
    Q_RATING_PUT, Q_RATING_POINT, Q_DOC_NEW_ID, Q_DOC_PUT, Q_DOC_LOCK,
    Q_FIRST_READ_,
    Q_USER_BY_NAME = Q_FIRST_READ_, Q_USER_BY_ID, Q_TOKEN_USER, Q_GAMES_LIVE, Q_GAMES_FINISHED,
    Q_GAMES_USER, Q_GAME_GET, Q_EVENTS, Q_GAME_SGF, Q_GAME_STATE, Q_MAX_IDS, Q_CHALLENGES,
    Q_RATING_GET, Q_RATING_HISTORY, Q_DOC_GET, Q_DOC_LIST, Q_COUNT_
};

typedef struct pg_store {
    store base;
    PGconn *conn;
    bool prepared[Q_COUNT_];   /* on this connection (a new one has none) */
    bool in_transaction;       /* between a BEGIN that worked and its end */
    int retry_pause_ms;        /* 0 while connected */
    int64_t retry_at_ms;       /* no attempt to connect before */
    char error[512];
} pg_store;

static inline pg_store *P(store *s) { return (pg_store *)s; }

/* ---- statements (store_pg.c) ---- */

enum { MAX_PARAMS = 10 };

/* A statement's values, as text (binary for bytes); NULL is SQL's NULL. */
typedef struct params {
    int n;
    const char *value[MAX_PARAMS];
    int length[MAX_PARAMS];
    int format[MAX_PARAMS];
    char number[MAX_PARAMS][24];
} params;

void pg_param_text(params *p, const char *text);
void pg_param_int(params *p, int64_t v);
void pg_param_bytes(params *p, const uint8_t *bytes, int length);
void pg_keep_error(pg_store *q, const char *message);
void pg_keep_result_error(pg_store *q, const PGresult *r);
/* Run statement `which` with values p: its result when it has the status
 * wanted (to PQclear), else NULL with the error kept. */
PGresult *pg_run(pg_store *q, int which, const params *p, ExecStatusType want);
/* A statement that returns no rows: 0, or 1 when it touched none; -1. */
int pg_run_command(pg_store *q, int which, const params *p);
/* Plain SQL of our own with no values (transactions, migrations). */
int pg_exec_sql(pg_store *q, const char *sql);
void pg_copy_value(char *dst, size_t len, const PGresult *r, int row, int col);
int64_t pg_int_value(const PGresult *r, int row, int col);
bool pg_bool_value(const PGresult *r, int row, int col);
int pg_commit(store *s);

/* ---- store_pg_schema.c ---- */

/* Create the tables, or bring them to this version, in one transaction
 * that holds the migration lock; *found is the version they had.  0, -1
 * with the error. */
int pg_migrate(pg_store *q, int *found);

/* ---- store_pg_shared.c ---- */

int pg_ids_take(store *s, const char *kind, int count, int64_t *first);
int pg_notify(store *s, const char *payload);
int pg_rating_lock(store *s, int64_t user, store_rating *out);
int pg_rating_put(store *s, int64_t user, int64_t game, int64_t at, const store_rating *r);
int pg_rating_get(store *s, int64_t user, store_rating *out);
int pg_rating_history(store *s, int64_t user, int limit, store_rating_point **out, int *count);
int pg_doc_new_id(store *s, const char *kind, int64_t *id);
int pg_doc_put(store *s, const char *kind, int64_t id, const char *summary, const char *body, int64_t at);
int pg_doc_get(store *s, const char *kind, int64_t id, bool lock, char **body, int64_t *updated);
int pg_doc_list(store *s, const char *kind, int limit, store_doc **out, int *count);

#endif
