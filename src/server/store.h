/*
 * store.h — where the server keeps accounts, sessions and games: one
 * interface, so that the server never names its database.  Today's
 * implementation is SQLite (store_sqlite.c, WAL, synchronous=FULL: a
 * committed event survives kill -9 and power loss); a PostgreSQL one for
 * several nodes implements the same table of operations.
 *
 * A game is its settings, its players and its event log (room.h).  The
 * server groups the writes of one turn of its loop into one transaction
 * (begin ... commit: one fsync for all of them) and tells nobody of them
 * before commit returns.  All calls are made from the server's one thread.
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

typedef struct store_event {
    int seq;
    int64_t at_ms;
    char kind[16];
    char *data_json;               /* malloc'd */
} store_event;

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
    int (*game_add)(store *s, store_game *g);                       /* sets g->id */
    int (*event_add)(store *s, int64_t game, const store_event *e);
    int (*game_finish)(store *s, int64_t game, const char *result, int moves, const char *sgf);
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
} store_ops;

struct store {
    const store_ops *ops;
};

/* Open (and create) the SQLite store at path; NULL with err on failure. */
store *store_sqlite_open(const char *path, char *err, size_t errlen);

static inline void store_close(store *s) { if (s) s->ops->close(s); }

void store_game_clear(store_game *g);
void store_games_free(store_game *games, int count);
void store_events_free(store_event *events, int count);

#endif
