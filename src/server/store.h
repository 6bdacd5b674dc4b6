/*
 * store.h — where the server keeps accounts, sessions and games: one
 * interface, so that the server never names its database.  The default
 * implementation is SQLite (store_sqlite.c, WAL, synchronous=FULL: a
 * committed event survives kill -9 and power loss); PostgreSQL
 * (store_pg.c) implements the same table of operations, for one node
 * today and several later; store_open picks one by the database's name.
 *
 * A game is its settings, its players and its event log (room.h).  The
 * server groups the writes of one turn of its loop into one transaction
 * (begin ... commit: one fsync for all of them) and tells nobody of them
 * before commit returns.  The calls are synchronous and made from the
 * store's own threads (store_async.h: one writer, one reader, each with a
 * store of its own), never from the event loop.
 *
 * Return values: 0 success, 1 "not found" / "already exists" where said,
 * -1 an error (the message in store_error).
 */
#ifndef TENGEN_SERVER_STORE_H
#define TENGEN_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct store store;

typedef struct store_user {
    int64_t id;
    char name[32];
    char password_hash[160]; /* crypto_pwhash_str's text; "" for guests */
    bool guest;
} store_user;

typedef struct store_game {
    int64_t id;
    int64_t black, white;          /* account ids, 0 for an engine */
    char black_name[32], white_name[32];
    char black_engine[32], white_engine[32];
    char nigiri[160];
    char *settings_json;           /* malloc'd */
    int64_t created_unix_ms;
    bool finished;
    char result[32];
    int moves;                     /* of a finished game */
} store_game;

typedef struct store_challenge {
    int64_t id;
    int64_t challenger;
    char challenger_name[32];
    char opponent[32];             /* "" for anyone */
    char *settings_json;           /* malloc'd */
    int64_t created_unix_ms;
} store_challenge;

typedef struct store_event {
    int seq;
    int64_t at_ms;
    char kind[16];
    char *data_json;               /* malloc'd */
} store_event;

/* A player's Glicko-2 rating (the Glicko scale: 1500, 350, 0.06 at the
 * start); games: rated games played. */
typedef struct store_rating {
    double rating, deviation, volatility;
    int games;
} store_rating;

typedef struct store_rating_point {
    int64_t game, at_unix_ms;
    double rating, deviation;
} store_rating_point;

/* A document of the features built on the store's generic table (docs):
 * tournaments, engine analyses.  summary is a short JSON object for
 * lists; the body is the feature's own JSON. */
typedef struct store_doc {
    int64_t id, updated_unix_ms;
    char *summary;                 /* malloc'd */
} store_doc;

typedef struct store_ops {
    void (*close)(store *s);
    const char *(*error)(store *s);
    int (*begin)(store *s);
    int (*commit)(store *s);
    int (*rollback)(store *s);
    int (*user_add)(store *s, const store_user *u, int64_t *id);   /* 1: name taken */
    int (*user_by_name)(store *s, const char *name, store_user *out); /* 1: none */
    int (*user_by_id)(store *s, int64_t id, store_user *out);       /* 1: none */
    int (*token_add)(store *s, const uint8_t hash[32], int64_t user);
    int (*token_user)(store *s, const uint8_t hash[32], int64_t *user); /* 1: none */
    int (*tokens_revoke)(store *s, int64_t user);
    /* g->id is given (the server numbers games); 1: that id exists */
    int (*game_add)(store *s, const store_game *g);
    /* 1: the game has an event at that seq already (written by another
     * server on the same database): nothing written, the transaction
     * goes on */
    int (*event_add)(store *s, int64_t game, const store_event *e);
    /* The result, the record and the final state (game.state's game
     * object, as JSON) kept with the game: a finished game is then read,
     * never replayed. */
    int (*game_finish)(store *s, int64_t game, const char *result, int moves, const char *sgf,
                       const char *state_json);
    /* The players change colours (the free opening's predictions gave the
     * first player Black): written with the result, so that a finished
     * game's row names the colours played while a live one keeps the
     * seats of its opening, which its events replay from. */
    int (*game_swap_colors)(store *s, int64_t game);
    /* games: `finished` false gives every unfinished game (the server
     * rebuilds them at start), true the last `limit` finished; user > 0
     * restricts to that player's.  *out malloc'd (store_games_free). */
    int (*games_list)(store *s, bool finished, int64_t user, int limit, store_game **out,
                      int *count);
    int (*game_get)(store *s, int64_t id, store_game *out);         /* 1: none */
    int (*events)(store *s, int64_t game, store_event **out, int *count);
    int (*game_sgf)(store *s, int64_t game, char **sgf);            /* 1: none stored */
    int (*game_state)(store *s, int64_t game, char **state_json);   /* 1: none stored */
    /* The largest game and challenge ids ever stored (0: none). */
    int (*max_ids)(store *s, int64_t *game, int64_t *challenge);
    int (*challenge_add)(store *s, const store_challenge *c);
    int (*challenge_remove)(store *s, int64_t id);                  /* 1: none */
    int (*challenges_list)(store *s, store_challenge **out, int *count);
    /* For several servers on one database (store.shared): a block of
     * count ids of kind ("game", "challenge") never given to anyone else,
     * [*first, *first + count).  A store that is not shared answers -1. */
    int (*ids_take)(store *s, const char *kind, int count, int64_t *first);
    /* Tell the other servers on the database (LISTEN tengen), when the
     * transaction commits; a store that is not shared does nothing. */
    int (*notify)(store *s, const char *payload);
    /* Ratings.  rating_lock, in the writer's transaction: the player's
     * rating (made at the start values when none), held until commit so
     * that nodes rating games at once take turns.  rating_put: the new
     * rating, and a point of its history for the game that made it. */
    int (*rating_lock)(store *s, int64_t user, store_rating *out);
    int (*rating_put)(store *s, int64_t user, int64_t game, int64_t at_unix_ms,
                      const store_rating *r);
    /* 1: no rated game yet (out at the start values) */
    int (*rating_get)(store *s, int64_t user, store_rating *out);
    /* the newest `limit` points, oldest first; *out malloc'd */
    int (*rating_history)(store *s, int64_t user, int limit, store_rating_point **out, int *count);
    /* Documents (version 4 of SQLite's schema, 5 of PostgreSQL's): kind
     * ("tournament", "analysis", ...) and id name one.  doc_new_id: an id
     * of that kind never given before, on every node.  doc_get with lock,
     * in the writer's transaction, holds the row until commit (nodes
     * changing one tournament at once take turns); *body malloc'd; 1:
     * none.  doc_list: the newest `limit` by update, newest first. */
    int (*doc_new_id)(store *s, const char *kind, int64_t *id);
    int (*doc_put)(store *s, const char *kind, int64_t id, const char *summary, const char *body,
                   int64_t at_unix_ms);
    int (*doc_get)(store *s, const char *kind, int64_t id, bool lock, char **body,
                   int64_t *updated_unix_ms);
    int (*doc_list)(store *s, const char *kind, int limit, store_doc **out, int *count);
    /* Give back what a long-lived connection holds (a read snapshot, the
     * WAL's growth): called by the store's threads when idle. */
    void (*idle)(store *s);
} store_ops;

struct store {
    const store_ops *ops;
    bool shared;          /* several servers may use the database at once (PostgreSQL) */
};

/* Open (and create, and migrate to STORE_SCHEMA_VERSION) the SQLite store
 * at path; NULL with err on failure, and on a file it cannot write. */
#define STORE_SCHEMA_VERSION 4
/* PostgreSQL's schema: SQLite's version-2 tables (2), what several nodes
 * share (3: id_blocks), the ratings (4, SQLite's 3). */
#define STORE_PG_SCHEMA_VERSION 5
#define STORE_RATING_START {1500.0, 350.0, 0.06, 0}
store *store_sqlite_open(const char *path, char *err, size_t errlen);
/* What store_sqlite_open does to the file, and no more (`tengen serve
 * --migrate-only`): *before the version it had (0: a new file; 1: tables
 * with no version, as 2323faa and before wrote them), *after the version
 * it has now.  0, or -1 with err. */
int store_sqlite_migrate(const char *path, int *before, int *after, char *err, size_t errlen);

/* The store on PostgreSQL (store_pg.c): url is a libpq connection URI,
 * postgresql://[user[:password]@][host][:port][/dbname][?param=value...],
 * whose missing parts come from the PG* environment variables (PGHOST,
 * PGPORT, PGUSER, PGPASSWORD, PGDATABASE, ...) as in psql.  Opening
 * creates or migrates the schema (under an advisory lock: servers starting
 * at once are safe).  Any number of servers may share one database: see
 * store_listen.h for how each hears of the others' writes.  NULL with err
 * on failure. */
store *store_pg_open(const char *url, char *err, size_t errlen);
/* store_sqlite_migrate's counterpart (*before 0: no tables yet). */
int store_pg_migrate(const char *url, int *before, int *after, char *err, size_t errlen);

/* The back end a database names (store_open.c): PostgreSQL for a
 * postgresql:// or postgres:// URI, else the SQLite file at that path.
 * An empty name is refused: SQLite stays the default, and the PG*
 * variables alone never choose PostgreSQL (--db postgresql:// takes
 * everything from them). */
bool store_is_postgres(const char *db);
store *store_open(const char *db, char *err, size_t errlen);
int store_migrate(const char *db, int *before, int *after, char *err, size_t errlen);
/* db as it may be shown and logged: a URI's password left out. */
void store_shown_name(const char *db, char *out, size_t len);

/* Backups of the SQLite store (store_backup.c, `tengen backup`). */
typedef struct store_copy_report {
    int schema_version;            /* of the copy (as *before above) */
    long long pages, bytes;        /* copied */
    long long users, games;        /* rows in the copy */
    char path[4096];               /* the file written (a dated name in a folder) */
} store_copy_report;

/* A consistent copy of the database at db_path, taken while servers write
 * to it: one read snapshot copied a few pages at a time with pauses
 * between (in WAL mode a reader never holds up a writer), written to a
 * temporary file beside out_path, checked by PRAGMA integrity_check, made
 * a self-contained file (no WAL) and renamed to out_path.  When out_path
 * is a folder the copy is named tengen-YYYYMMDD-HHMMSS.db (UTC) in it and,
 * keep > 0, only the keep newest such copies stay there.  0, or -1 with
 * err (and nothing left behind). */
int store_sqlite_backup(const char *db_path, const char *out_path, int keep,
                        store_copy_report *report, char *err, size_t errlen);
/* Whether another process has the database at path open (a running
 * `tengen serve`): 1 yes (why in err), 0 no (or no such file), -1 error. */
int store_sqlite_in_use(const char *path, char *err, size_t errlen);
/* Replace the contents of the database at db_path (made if absent) with
 * those of backup_path, checked first (integrity, a tengen schema no newer
 * than this one), in one transaction.  The caller makes sure no server has
 * db_path open (store_sqlite_in_use): a server's memory would no longer
 * match its file.  0, or -1 with err. */
int store_sqlite_restore(const char *backup_path, const char *db_path, store_copy_report *report,
                         char *err, size_t errlen);
/* A store that fails the n-th write (counting every write call and commit
 * from now, 1-based; 0: never) with "injected fault", passing everything
 * else to inner; for the fault-injection tests.  Takes inner. */
store *store_faulty_wrap(store *inner);
void store_faulty_arm(store *s, long nth_write);
long store_faulty_writes(store *s);

static inline void store_close(store *s) { if (s) s->ops->close(s); }

void store_game_clear(store_game *g);
void store_games_free(store_game *games, int count);
void store_events_free(store_event *events, int count);
void store_challenges_free(store_challenge *c, int count);
void store_docs_free(store_doc *docs, int count);

#endif
