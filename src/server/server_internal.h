/*
 * server_internal.h — what the server's files share: connections
 * (client), accounts seen online, live games (live: a room, its watchers,
 * its timer) and open challenges.  server.c dispatches requests and keeps
 * accounts and the lobby; server_game.c runs live games; server_http.c
 * answers HTTP.
 */
#ifndef TENGEN_SERVER_INTERNAL_H
#define TENGEN_SERVER_INTERNAL_H

#include <jansson.h>

#include "engines.h"
#include "net.h"
#include "proto.h"
#include "room.h"
#include "server.h"
#include "store.h"

/* A token bucket: RATE_PER_S requests a second, bursts of RATE_BURST. */
#define RATE_PER_S 20.0
#define RATE_BURST 40.0

typedef struct rate_bucket {
    double tokens;
    int64_t at_ms;
} rate_bucket;

typedef struct account {
    int64_t user;
    int connections;
    int64_t gone_since_ms;   /* when its last connection closed */
    rate_bucket rate;
} account;

typedef struct client {
    net_conn *conn;
    int64_t user;            /* 0: not logged in */
    char name[32];
    bool guest;
    bool lobby;
    int guests_made;
    rate_bucket rate;
    int64_t *watching;
    int watch_count, watch_cap;
} client;

typedef struct live {
    room *r;
    client **watchers;
    int watcher_count, watcher_cap;
    net_timer *timer;
    int64_t offset_ms;       /* game ms = monotonic ms - offset */
    bool engine_asked;
    bool touched;
    int epoch;               /* counts changes of position: an engine's stale answer is dropped */
    int64_t created_unix_ms;
    char engine_command[3][512];
    struct server *srv;
} live;

typedef struct challenge {
    int64_t id;
    int64_t challenger;
    char challenger_name[32];
    char opponent[32];       /* "" for anyone */
    room_settings settings;
    int64_t created_unix_ms;
} challenge;

/* A growable array of pointers, indexed by position. */
typedef struct ptr_list {
    void **items;
    int count, cap;
} ptr_list;
bool ptr_list_add(ptr_list *l, void *p);
/* Take one token from a bucket refilled at per_second up to burst; false
 * when it is empty. */
bool take_token(rate_bucket *b, int64_t now, double per_second, double burst);
/* Room for one more element in a growable array (*items, *cap), holding count. */
bool grow_array(void **items, int *cap, int count, size_t elem);
void ptr_list_remove(ptr_list *l, void *p);

struct server {
    server_config cfg;
    store *db;
    net *net;
    engine_pool *engines;
    ptr_list clients;        /* client* */
    ptr_list accounts;       /* account* (online now or recently) */
    live **lives;            /* indexed by game id (ids are small and dense) */
    int64_t lives_cap;
    ptr_list challenges;     /* challenge* */
    int64_t next_challenge;
    bool stopping;
    bool in_transaction;     /* this turn of the loop has written: commit before release */
    rate_bucket password_rate; /* Argon2id work, for the whole server */
    rate_bucket api_rate;      /* HTTP API requests, for the whole server */
    ptr_list touched;        /* live* changed in the open transaction */
};

/* Writes of this turn of the loop go into one transaction (group commit):
 * store_write_begin before any write; server_flush commits it and lets the
 * messages out (also before an HTTP answer that reads what was written). */
bool store_write_begin(server *s);
void server_flush(server *s);
void live_touch(server *s, live *lv);
/* The store failed: drop the turn's messages and rebuild what it changed. */
void games_rollback(server *s);

int64_t server_now_ms(void);
int64_t server_unix_ms(void);

/* Answers. */
void send_json(client *c, json_t *msg);           /* steals msg */
void send_ok(client *c, const proto_request *rq, json_t *fields); /* steals fields (may be NULL) */
void send_error(client *c, const proto_request *rq, const char *code, const char *message);
void lobby_broadcast(server *s, json_t *msg);     /* steals msg */
account *account_of(server *s, int64_t user);

/* server_game.c */
live *live_get(server *s, int64_t game);
/* Rebuild every unfinished game from the store. */
bool games_restore(server *s, char *err, size_t errlen);
/* A new game from settings; names and nigiri filled in; the engine's
 * command for a colour played by an engine. */
live *game_start(server *s, const room_settings *settings, int64_t black, const char *black_name,
                 int64_t white, const char *white_name, const char *nigiri,
                 const char *engine_name[3], const char *engine_command[3], char *err,
                 size_t errlen);
/* Judge, commit and announce an event at the game's time now. */
void game_commit_and_announce(server *s, live *lv, const room_event *ev, room_result *res);
json_t *game_state_message(const live *lv, tg_color you);
void game_release_if_idle(server *s, live *lv);
void game_handle(server *s, client *c, const proto_request *rq);
void game_client_gone(server *s, client *c);
void game_engine_answers(server *s);
void games_free(server *s);
json_t *game_summaries(server *s);
/* The game as the API shows it: live or rebuilt from the store; NULL: none. */
json_t *game_state_any(server *s, int64_t id);
char *game_sgf_any(server *s, int64_t id);

/* server_http.c */
void http_answer(void *ctx, const char *path, const char *query, net_http_response *out);

#endif
