/*
 * server_internal.h — what the server's files share.  A request passes one
 * way: network (net.h) -> dispatch (server.c) -> a handler (sessions in
 * server_session.c, the lobby in server_lobby.c, game requests in
 * server_play.c) -> the game's room (server_games.c, the registry of live
 * games and the one owner of their lifetimes) -> the turn's batch of writes
 * (server_turn.c) -> the store, off the loop (store_async.h) -> release of
 * the messages that waited for it.
 *
 * Lifetimes: nothing is freed inside a handler.  A closed connection's
 * client and a finished, unwatched game are marked and freed by the turn
 * (turn_end), a game only once its last write is durable.
 *
 * Truth: a message that tells of writes not yet durable waits for them
 * (its epoch); an answer carries a fallback sent instead when the writes
 * fail.  Accounts, sessions and challenges change in memory only once their
 * own write is durable; game events are judged at once (moves must be
 * ordered) and, when their batch fails, the game is rebuilt from the store.
 */
#ifndef TENGEN_SERVER_INTERNAL_H
#define TENGEN_SERVER_INTERNAL_H

#include <jansson.h>

#include "engines.h"
#include "imap.h"
#include "net.h"
#include "proto.h"
#include "room.h"
#include "server.h"
#include "store.h"
#include "store_async.h"

/* A token bucket: RATE_PER_S requests a second, bursts of RATE_BURST. */
#define RATE_PER_S 20.0
#define RATE_BURST 40.0

typedef struct rate_bucket {
    double tokens;
    int64_t at_ms;
} rate_bucket;

/* What one address may cost the server (X-Forwarded-For from trusted
 * proxies decides the address). */
typedef struct address {
    int64_t key;
    rate_bucket guests, registrations, passwords, reads, api;
    int challenges;          /* open or being stored, over its accounts */
    int64_t seen_ms;
} address;

typedef struct account {
    int64_t user;
    int connections;
    int64_t gone_since_ms;   /* when its last connection closed */
    rate_bucket rate;
    int challenges;          /* open or being stored */
    store_rating rating;     /* as read at login, or after its last rated game here */
    bool rating_known;
} account;

typedef struct client {
    int64_t id;              /* the connection's number: jobs find it by this */
    net_conn *conn;
    int64_t user;            /* 0: not logged in */
    char name[32];
    bool guest;
    bool lobby;
    bool closed;             /* gone: freed by turn_end */
    int guests_made;
    int64_t addr;            /* address key */
    rate_bucket rate;
    int64_t *watching;
    int watch_count, watch_cap;
    /* one session request (hello, register, login, guest, logout) at a
     * time: messages arriving meanwhile wait here, in order */
    bool waiting;
    int64_t read_for;        /* the game read for its parked request (not read twice) */
    char **inbox;
    int inbox_count, inbox_cap;
} client;

/* An engine as a game stores it: its name in the server's table and its
 * strength, never a command line. */
typedef struct engine_spec {
    char name[32];           /* "" for a person */
    int64_t playouts;
    double seconds;
} engine_spec;

/* Several nodes: a request whose answer waits for a write of a game (or a
 * tournament), judged again on it as read again if another node wrote
 * first; and the clients whose requests wait for that read. */
typedef struct ask {
    int64_t client;
    uint64_t epoch;
    char *text;              /* the request (malloc'd) */
} ask;

typedef struct waiting_list {
    ask *asks;
    int nasks, asks_cap;
    int64_t *parked;         /* clients whose request waits (first in its inbox) */
    int nparked, parked_cap;
} waiting_list;

/* Remember rq (c's) as waiting for epoch (false: out of memory). */
bool waiting_ask(waiting_list *w, const client *c, const proto_request *rq, uint64_t epoch);
/* The asks through epoch were answered (durable, or failed with the truth). */
void waiting_asks_clear(waiting_list *w, uint64_t through);
/* The asks of epoch and after lost their answers: each goes back first in
 * its client's inbox, to be judged again by waiting_resume. */
void waiting_park_lost(server *s, waiting_list *w, uint64_t epoch);
/* Park c's request rq until waiting_resume (false: it could not wait). */
bool waiting_park(waiting_list *w, client *c, const proto_request *rq);
/* The parked clients' requests are handled now, in order. */
void waiting_resume(server *s, waiting_list *w);
void waiting_free(server *s, waiting_list *w);

typedef struct live {
    room *r;
    client **watchers;
    int watcher_count, watcher_cap;
    net_timer *timer;
    int64_t offset_ms;       /* game ms = monotonic ms - offset */
    uint64_t engine_job;     /* the one engine job asked for it and not yet answered (0: none) */
    int engine_epoch;        /* the epoch that job was asked at */
    int epoch;               /* counts changes of position: an engine's stale answer is dropped */
    int64_t created_unix_ms;
    engine_spec engine[3];
    char adjourned[160];     /* why the game waits ("" when it does not) */
    int64_t addr;            /* an engine game: the address of the person who began it */
    uint64_t dep;            /* the store epoch of its newest write */
    int64_t stall_from;      /* monotonic ms of its oldest write not yet durable (0: none) */
    bool recovering;         /* being rebuilt from the store after a failed write */
    store_job *recover_retry; /* the rebuild's read, to ask again when the timer fires */
    bool estimating;         /* stone removal began: the worker estimates the dead stones */
    int64_t awaiting_proposal_ms; /* since when another node's proposal is awaited (0: not) */
    int64_t engine_wait_ms;  /* several nodes: since when (monotonic) an engine is to move here
                                with no node heard asking it (0: not waiting) */
    int engine_wait_seq;     /* the room's events then: a new one starts the wait again */
    bool release;            /* over and unwatched: freed once its writes are durable */
    /* several nodes */
    bool home;               /* made here (or restored here at start): this node asks its
                                engine and times it first; the others 500 ms later */
    bool behind;             /* another node wrote while ours were pending: read again */
    bool refresh;            /* another node wrote while it was being read: read again */
    bool conflicted;         /* a write of ours lost a race: the writer skips the game's
                                writes until the rebuilt room is in place */
    waiting_list wait;       /* the requests whose answers wait for its writes (judged again
                                on the room read again if another node wrote first), and
                                the clients whose requests wait for the room being read again */
    struct server *srv;
} live;

typedef struct challenge {
    int64_t id;
    int64_t challenger;
    char challenger_name[32];
    char opponent[32];       /* "" for anyone */
    room_settings settings;
    int64_t created_unix_ms;
    int64_t addr;
    bool remote;             /* made on another node: counted and dropped there */
    char rank[12];           /* the challenger's, when made ("" unknown) */
} challenge;

/* A growable array of pointers, indexed by position. */
typedef struct ptr_list {
    void **items;
    int count, cap;
} ptr_list;
bool ptr_list_add(ptr_list *l, void *p);
void ptr_list_remove(ptr_list *l, void *p);
/* Take one token from a bucket refilled at per_second up to burst; false
 * when it is empty.  A bucket never used starts full. */
bool take_token(rate_bucket *b, int64_t now, double per_second, double burst);
/* Room for one more element in a growable array (*items, *cap), holding count. */
bool grow_array(void **items, int *cap, int count, size_t elem);

/* ---- the turn: one batch of game writes (server_turn.c) ---- */

typedef enum write_kind { W_EVENT, W_GAME_ADD, W_FINISH, W_SWAP, W_CHALLENGE_REMOVE, W_RATE, W_DOC } write_kind;

typedef struct write_op {
    write_kind kind;
    int64_t game;
    store_event event;          /* W_EVENT (data_json malloc'd) */
    store_game g;               /* W_GAME_ADD (settings_json malloc'd) */
    char result[32];            /* W_FINISH */
    int moves;
    char *sgf, *state;          /* W_FINISH, malloc'd */
    int64_t for_game;           /* W_CHALLENGE_REMOVE: the game it makes, void if the
                                   challenge is gone already (taken on another node) */
    int64_t players[2];         /* W_RATE: Black's and White's accounts */
    double score;               /* W_RATE: Black's 1, 0.5, 0 */
    int64_t at_unix_ms;
    store_rating rated[2];      /* W_RATE: their ratings after it (the writer's) */
    bool rated_done;
    int64_t needs_doc;          /* W_GAME_ADD: a tournament's game, void when that
                                   tournament's write in this batch loses (several nodes) */
    char doc_kind[16];          /* W_DOC: a document written whole (store.h doc_put) */
    int64_t doc_id, doc_version;/* W_DOC: the version it becomes (the stored must be one less) */
    char *doc_summary, *doc_body; /* W_DOC, malloc'd */
} write_op;

typedef struct batch {
    store_job job;              /* first: the store's job */
    struct server *srv;
    uint64_t epoch;             /* its first epoch: what is not a game's waits for it */
    uint64_t last;              /* its last: each game written has one of its own, */
    write_op *ops;              /* so that one game's conflict drops only its messages */
    int nops, ops_cap;
    struct batch_game {         /* the live games written */
        int64_t id;
        uint64_t epoch;         /* its own: a lost race drops only its messages */
        bool lost;              /* another node wrote it first: nothing of it kept */
    } *games;
    int ngames, games_cap;
    challenge **removed;        /* challenges this batch removes: back on failure */
    int nremoved, removed_cap;
    bool abandoned;             /* failed or discarded, already dealt with */
    struct batch *next;         /* pending batches, oldest first */
} batch;

/* ---- several nodes on one database (server_nodes.c) ---- */

bool nodes_start(server *s, void (*wake)(void *), char *err, size_t errlen);
void nodes_free(server *s);
/* What the other nodes wrote, heard since the last call (on wake). */
void nodes_heard(server *s);
/* A new id (0 game, 1 challenge); 0 when none is at hand for a moment. */
int64_t nodes_take_id(server *s, int kind);
/* The writer thread, in b's transaction, after its writes. */
int nodes_notify_batch(store *db, batch *b);
/* What tells the others of a new challenge (malloc'd; NULL with one node);
 * takes shown (challenge_json's). */
char *nodes_challenge_note(server *s, const challenge *ch, json_t *shown);
/* Whether this node asks the game's engine (its home, or a player here). */
bool nodes_may_ask_engine(server *s, const live *lv);
/* How long after a deadline this node judges it (others first at home). */
int64_t nodes_tick_grace_ms(const server *s, const live *lv);
/* Several nodes: when (monotonic ms) this node takes over asking the
 * game's engine, the node that asked (its home) having gone quiet;
 * INT64_MAX when it need not.  nodes_engine_takeover: that time has come
 * (true: this node is now the game's home and asks). */
int64_t nodes_engine_due_ms(server *s, live *lv);
bool nodes_engine_takeover(server *s, live *lv);
/* The writer thread: whether game's writes are skipped (a race lost). */
bool nodes_skipping(server *s, int64_t game);
void nodes_skip(server *s, int64_t game);
/* The rebuilt room is in place: the writer takes its writes again. */
void nodes_unskip(server *s, int64_t game);
/* A game's writes became durable, or lost a race: catch up with the others. */
void nodes_after_write(server *s, live *lv);
/* Remember rq, whose answer waits for lv's writes: if another node wrote
 * first, its answer is dropped and rq judged again on the room as the
 * store has it (several nodes only). */
void live_ask(live *lv, client *c, const proto_request *rq);
/* c's request rq for a game being read here waits for it: true when parked. */
bool nodes_park_on_load(server *s, client *c, const proto_request *rq);
/* A game another node made (or wrote while this one did not hold it). */
void game_load(server *s, int64_t id);
room *game_replay(store *db, const store_game *g, engine_spec e[3]);
live *game_live_new(server *s, room *r, int64_t created_unix_ms);

/* ---- ratings (server_ratings.c) ---- */

/* The game's result re (SGF's RE) rates it, in the turn's batch, when it
 * is rated (room_rated) and has a result.  False: out of memory. */
bool game_rate(server *s, live *lv, const char *re);
int ratings_apply(store *db, write_op *op);           /* the writer thread */
void ratings_committed(server *s, const write_op *op);
/* The rank of an account known here (rating read at login), or "". */
void ratings_rank_of(server *s, int64_t user, char *out, size_t len);
void rating_rank_text(const store_rating *r, char *out, size_t len);
json_t *rating_json(const store_rating *r);

/* ---- tournaments (server_tournament.c) ---- */

void tournament_handle(server *s, client *c, const proto_request *rq);
bool tournaments_restore(server *s, char *err, size_t errlen);
void tournaments_free(server *s);
/* lv ended: its tournament (if any) takes the result, in the turn's batch. */
bool tournament_game_over(server *s, live *lv);
/* Read the tournament again from the store (another node wrote it, or a
 * write of ours failed or lost). */
void tournament_reread(server *s, int64_t id);
void tournaments_reread_all(server *s);  /* notes from other nodes were missed */
/* Its write of epoch is durable; its write failed; another node's write of
 * it came first (the requests are judged again once it is read). */
void tournament_durable(server *s, int64_t id, uint64_t epoch);
void tournament_failed(server *s, int64_t id);
void tournament_lost(server *s, int64_t id, uint64_t epoch);
/* The writer thread: whether op's document was written by another node
 * since this node's version (*lost).  -1: the store failed. */
int tournament_doc_check(store *db, const write_op *op, bool *lost);
json_t *tournament_list(server *s);
json_t *tournament_view(server *s, int64_t id, uint64_t *dep); /* NULL: none */
/* standings.html, opengotha.xml, egf.txt, aga.txt, tournament.json; NULL: none */
char *tournament_export(server *s, int64_t id, const char *what, const char **content_type, uint64_t *dep);

/* Histograms for /metrics: counts of values <= each bound (ms). */
#define METRIC_BUCKETS 12
typedef struct histogram {
    uint64_t count[METRIC_BUCKETS + 1];
    double sum;
    uint64_t n;
    double max;
} histogram;
extern const double metric_bounds[METRIC_BUCKETS];
void histogram_add(histogram *h, double ms);

struct server {
    server_config cfg;
    net *net;
    store_async *db;
    store *faulty;              /* the writer's fault injector (tests), or NULL */
    store *api_db;              /* reads at start (the games, challenges and ids to rebuild) */
    engine_pool *engines;
    imap clients;               /* id -> client */
    int64_t next_client;
    imap accounts;              /* user -> account (online now or recently) */
    imap addresses;             /* address key -> address */
    imap lives;                 /* game id -> live */
    imap challenges;            /* id -> challenge */
    int64_t next_game, next_challenge; /* the last ids given (one node), or the largest
                                          known (several) */
    /* several nodes on one database (server_nodes.c); listen NULL: one */
    struct store_listener *listen;
    char node[24];              /* this node's name in what it tells the others */
    struct id_block {
        int64_t next, end;      /* [next, end) ours to give */
        int64_t spare_first;    /* the block after it, taken early */
        int spare_count;
        int size;               /* how many ids the next block asks for */
        bool asking;
    } ids[2];
    imap loading;               /* game id -> read of a game another node made */
    int64_t wconflict[64];      /* the writer thread's own: games whose writes it skips */
    int nwconflict;
    ptr_list closing;           /* client* closed this turn */
    ptr_list releasing;         /* live* to free once durable */
    bool stopping;
    /* the store */
    batch *open;                /* this turn's writes, or NULL */
    batch *pending, *pending_tail;
    uint64_t last_epoch;        /* the newest batch's */
    uint64_t committed;         /* every batch through this one is durable */
    bool store_failing;         /* the last write failed: clients and the log were told */
    int64_t failing_since_ms;
    char store_error[200];
    /* finished games as the API and watchers read them: a small cache */
    struct cached_game {
        int64_t id;
        char *state;            /* game.state's game object, JSON */
    } cache[64];
    int cache_next;
    struct api_job *http_waiting; /* API answers waiting for an epoch to be durable */
    /* metrics */
    net_timer *lag_timer, *sweep_timer;
    int64_t lag_expected_ms;
    histogram loop_lag, commit_ms;
    uint64_t moves, commits, commit_failures, requests, store_reads;
    uint64_t engine_jobs;       /* the last engine job's number */
    uint64_t races_lost;        /* writes another node's came before */
    uint64_t notes_heard;       /* what other nodes told */
    struct quickmatch *quickmatch; /* the seeks (server_quickmatch.c); NULL until the first */
    struct analyses *analyses;  /* analysis with the engine (server_analysis.c); NULL: none */
    struct tournaments *tours;  /* server_tournament.c */
};

/* ---- server.c ---- */
int64_t server_now_ms(void);
int64_t server_unix_ms(void);
/* Answers.  send_json: at once (it tells of nothing pending).  reply: the
 * answer to rq, after epoch `dep` is durable; should that fail, the client
 * is told so instead.  */
void send_json(client *c, json_t *msg);           /* steals msg */
void send_json_after(client *c, json_t *msg, uint64_t dep);
void send_ok(client *c, const proto_request *rq, json_t *fields); /* steals fields (may be NULL) */
void send_error(client *c, const proto_request *rq, const char *code, const char *message);
void reply_ok(client *c, const proto_request *rq, json_t *fields, uint64_t dep);
void reply_error(client *c, const proto_request *rq, const char *code, const char *message,
                 uint64_t dep);
void lobby_broadcast(server *s, json_t *msg, uint64_t dep);     /* steals msg */
client *client_by_id(server *s, int64_t id);
address *address_of(server *s, int64_t key);
/* The key of an address's text. */
int64_t address_key(const char *text);
/* Process what a client's inbox held while it waited for a session job. */
void client_resume(server *s, client *c);
/* c's request rq waits (first in c's inbox) until the client is resumed. */
bool client_park(client *c, const proto_request *rq);
/* The same with the request's text (malloc'd: the inbox's when true). */
bool client_park_text(client *c, char *text);

/* ---- server_session.c ---- */
account *account_of(server *s, int64_t user);
/* The account, made when not yet known; NULL when out of memory. */
account *account_touch(server *s, int64_t user);
void session_handle(server *s, client *c, const proto_request *rq);
void session_closed(server *s, client *c);
json_t *user_json(const client *c);
void accounts_sweep(server *s);

/* ---- server_lobby.c ---- */
void lobby_handle(server *s, client *c, const proto_request *rq);
void lobby_drop_challenges_of(server *s, int64_t user);
bool lobby_restore(server *s, char *err, size_t errlen);
void lobby_free(server *s);
/* A challenge taken on another node leaves this one's lobby. */
void lobby_challenge_gone(server *s, challenge *ch);
/* A batch that removed challenges failed: they are open again. */
void lobby_challenge_back(server *s, challenge *ch);
/* The challenger's colour as settings give it, else by nigiri (the draw
 * written into nigiri, "" when there was none). */
tg_color lobby_draw_color(const room_settings *st, char *nigiri, size_t len);

/* ---- server_quickmatch.c: quick match (issue 52) ---- */
void quickmatch_handle(server *s, client *c, const proto_request *rq);
/* The connection closed: its seek goes. */
void quickmatch_client_gone(server *s, client *c);
/* One matching pass as of monotonic time now_ms (the timer's, or a
 * test's, to stand for the waiting): the number of games made. */
int quickmatch_pass(server *s, int64_t now_ms);
int quickmatch_seeks(const server *s);
/* Tests: smaller limits of seeks (the whole server's, one address's). */
void quickmatch_limits(server *s, int total, int per_address);
void quickmatch_free(server *s);

/* ---- server_turn.c ---- */
/* This turn's batch (opened on first use), or NULL when out of memory. */
batch *turn_batch(server *s);
bool batch_event(server *s, live *lv, const store_event *e);
bool batch_game_add(server *s, live *lv, const store_game *g);
bool batch_finish(server *s, live *lv, const char *result, int moves, char *sgf, char *state);
bool batch_swap(server *s, live *lv);
bool batch_challenge_remove(server *s, challenge *ch);
/* The challenge this turn removed makes that game: when another node took
 * the challenge first, the game is void. */
void batch_challenge_makes(server *s, int64_t game);
/* A document (whole) in the turn's batch: it waits for the version before
 * it (see W_DOC); *dep becomes its epoch.  Takes summary and body. */
bool batch_doc(server *s, const char *kind, int64_t id, int64_t version, uint64_t *dep, char *summary,
               char *body);
/* The game this turn made belongs to tournament tour's write. */
void batch_game_needs_doc(server *s, int64_t game, int64_t tour);
/* Rate lv's players by its result: Black's score 1, 0.5 or 0. */
bool batch_rate(server *s, live *lv, double black_score);
/* The turn is over: its batch goes to the store, the closed and the
 * released are freed. */
void turn_end(server *s);
void turn_store_done(server *s, store_job *job);
/* The epoch a message about everything written so far depends on. */
uint64_t turn_epoch_now(server *s);

/* ---- server_games.c: the registry of live games ---- */
/* A game's clock time now. */
int64_t game_now(const live *lv);
/* Judge an event and put it in the turn's batch (res says what happened). */
void commit(server *s, live *lv, const room_event *ev, int64_t at, room_result *res);
/* After a change: the watchers told, the lobby when it ended, the timer
 * set, the engine asked. */
void announce(server *s, live *lv, const room_result *res);
void tick_if_due(server *s, live *lv, int64_t at);
void schedule(server *s, live *lv);
void broadcast_state(live *lv);
/* The reveal swapped the seats: the engines follow. */
void swap_engines(live *lv);

/* ---- server_engines.c ---- */
void ask_engine(server *s, live *lv);
json_t *engine_spec_json(const engine_spec *e);
void engine_spec_read(const json_t *j, const char *name, engine_spec *out);

live *live_get(server *s, int64_t game);
bool games_restore(server *s, char *err, size_t errlen);
/* ranks: the players' ranks to show where known elsewhere (a challenger
 * on another node), else NULL or "": from their accounts here. */
live *game_start(server *s, const room_settings *settings, int64_t black, const char *black_name,
                 int64_t white, const char *white_name, const char *nigiri,
                 const engine_spec engines[3], const char *const ranks[3], char *err, size_t errlen);
/* game_start for a tournament's game: link {tournament, round, board}. */
live *game_start_for(server *s, const room_settings *settings, int64_t black, const char *black_name,
                     int64_t white, const char *white_name, const char *nigiri, const engine_spec engines[3],
                     const char *const ranks[3], const int64_t link[3], char *err, size_t errlen);
void game_commit_and_announce(server *s, live *lv, const room_event *ev, room_result *res);
/* A chat line to the watchers who may read it (players' to all,
 * spectators' to spectators), and to `also` (the sender, not watching). */
void game_chat_broadcast(live *lv, const room_event *ev, client *also);
json_t *game_state_message(const live *lv, tg_color you);
/* A finished game nobody watches leaves memory (after the turn). */
void game_release_if_idle(server *s, live *lv);
void games_release_durable(server *s);
void game_engine_answers(server *s);
void games_free(server *s);
json_t *game_summaries(server *s);
int game_engine_games_of(server *s, int64_t user);
/* A batch that wrote to lv failed or was discarded: rebuild it. */
void game_recover(server *s, live *lv);
/* To every watcher (or the spectators only); steals j. */
void game_broadcast(live *lv, json_t *j, bool spectators_only);
/* Stone removal without the server's proposal: ask the estimate. */
void game_propose_if_missing(server *s, live *lv);
/* The game's writes are durable now (the clock's stall is given back). */
void game_durable(server *s, live *lv);
/* The game's state for the API (live), or NULL. */
json_t *game_state_public(server *s, live *lv);
char *game_sgf_live(live *lv);
bool engine_known(server *s, const char *name);
/* A finished game read off the loop (its stored state, else its events
 * replayed on the reader thread); fn runs on the loop with what was found. */
typedef struct stored_read {
    int64_t client;
    bool has_id;
    int64_t id;
    proto_type type;
    int64_t game;
    int found;               /* 0 found, 1 no such game, -1 the store failed */
    bool live_now;           /* the game became live meanwhile (never, today) */
    char *state;             /* game.state's game object as JSON, malloc'd */
} stored_read;
typedef void (*stored_game_fn)(server *s, stored_read *r);
void game_read_stored(server *s, client *c, const proto_request *rq, int64_t game,
                      stored_game_fn fn);
/* On a store thread: a finished game's state as JSON text (its stored
 * state, else its events replayed); 0, 1 none, -1 the store failed. */
int stored_state_text(store *db, int64_t game, char **state);
const char *cache_get(server *s, int64_t game);
void cache_put(server *s, int64_t game, const char *state);

/* ---- server_play.c ---- */
void game_handle(server *s, client *c, const proto_request *rq);
void game_client_gone(server *s, client *c);

/* ---- server_analysis.c: analysis with the engine (issue 51) ---- */
bool analysis_start(server *s, char *err, size_t errlen);
void analysis_free(server *s);
/* An analysis.* message (parsed there): false when data is none. */
bool analysis_request(server *s, client *c, const char *data, size_t len);
void analysis_client_gone(server *s, client *c);
/* The worker's finished analyses (on wake). */
void analysis_answers(server *s);
/* GET /api/analysis/game/ID and /api/analysis/sgf/ID. */
void analysis_http(server *s, const char *path, net_http_response *out);

/* ---- server_http.c ---- */
void http_answer(void *ctx, const char *path, const char *query, net_http_response *out);
/* API answers that waited for the store: sent once what they show is
 * durable; refused (503) when it failed; all sent at shutdown. */
void http_release(server *s);
void http_fail_from(server *s, uint64_t epoch);
void http_release_all(server *s);

#endif
