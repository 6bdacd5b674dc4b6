/*
 * server_nodes.c — several servers (nodes) on one PostgreSQL database.
 *
 * Every node holds every live game (a room is small) and judges the
 * requests of its own clients at once, as a single server does.  The
 * database keeps one truth per game: an event is (game, seq), and of two
 * nodes writing the same seq the second finds it taken (store.h:
 * event_add's 1).  That node's writes of the game are then skipped (the
 * writer's skip list, until the room is rebuilt), what told of them is
 * not sent (their epoch is dropped), the requests hear not_your_turn, and
 * the room is read again from the store.
 *
 * Each committed batch tells the others what it wrote (pg_notify in the
 * same transaction: heard at commit, in commit order, about 1 ms later);
 * a node applies another's events to its room at the times they carry,
 * so every node shows the same clocks.  A game made elsewhere, a gap in
 * the seqs, an event too large for a notification, or events heard while
 * our own writes of the game wait: the game is read from the store.
 * Notifications lost (the listener's connection broke): everything held
 * is read again.
 *
 * Timers run on every node: the game's home (the node that made it, or
 * any that restored it at start) decides a loss on time or an absence
 * first, the others 500 ms later unless they heard of it meanwhile; ties
 * are settled by the seq as any race.  An engine is asked by the game's
 * home, and by any node where one of its players is connected (their
 * node may be gone).  Ids come in blocks taken from the database.
 */
#include "server_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "store_listen.h"

/* Ids are taken 256 at a time, and twice as many each time a burst
 * emptied the block before the next came (up to 4096). */
#define ID_BLOCK 256
#define ID_BLOCK_MAX 4096
/* A notification's payload is at most 8000 bytes: larger ones say only
 * which game to read. */
#define NOTE_MAX 7800

static const char *id_kind[2] = {"game", "challenge"};

/* ---- ids ----------------------------------------------------------------------- */

typedef struct ids_job {
    store_job job;
    int kind, count;
    int64_t first;
} ids_job;

static int run_ids(store *db, store_job *job)
{
    ids_job *j = (ids_job *)job;
    return db->ops->ids_take(db, id_kind[j->kind], j->count, &j->first);
}

static void ids_taken(void *ctx, store_job *job)
{
    server *s = ctx;
    ids_job *j = (ids_job *)job;
    struct id_block *b = &s->ids[j->kind];
    b->asking = false;
    if (job->rc == 0) {
        if (b->next >= b->end) { /* empty: the new block at once */
            b->next = j->first;
            b->end = j->first + j->count;
        } else { /* what is left is used first: the new block waits behind it */
            b->spare_first = j->first;
            b->spare_count = j->count;
        }
    }
    free(j);
}

static void ask_ids(server *s, int kind)
{
    struct id_block *b = &s->ids[kind];
    ids_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->kind = kind;
    j->count = b->size;
    j->job.run = run_ids;
    j->job.done = ids_taken;
    j->job.transaction = true;
    b->asking = true;
    store_async_submit(s->db, STORE_WRITE, &j->job);
}

int64_t nodes_take_id(server *s, int kind)
{
    int64_t *known = kind == 0 ? &s->next_game : &s->next_challenge;
    if (!s->listen)
        return ++*known;
    struct id_block *b = &s->ids[kind];
    if (b->next >= b->end && b->spare_count) { /* the next block, asked for earlier */
        b->next = b->spare_first;
        b->end = b->spare_first + b->spare_count;
        b->spare_count = 0;
    }
    if (b->next >= b->end) {
        if (b->size < ID_BLOCK_MAX)
            b->size *= 2; /* a burst: larger blocks from now on */
        if (!b->asking)
            ask_ids(s, kind);
        return 0;
    }
    if (b->end - b->next <= b->size / 2 && !b->asking && !b->spare_count)
        ask_ids(s, kind);
    int64_t id = b->next++;
    if (id > *known)
        *known = id;
    return id;
}

/* ---- the writer's skip list -------------------------------------------------------- */

bool nodes_skipping(server *s, int64_t game)
{
    for (int i = 0; i < s->nwconflict; i++)
        if (s->wconflict[i] == game)
            return true;
    return false;
}

void nodes_skip(server *s, int64_t game)
{
    if (nodes_skipping(s, game))
        return;
    if (s->nwconflict == (int)(sizeof s->wconflict / sizeof s->wconflict[0]))
        s->nwconflict--; /* the oldest stays out by its batch's own list */
    memmove(s->wconflict + 1, s->wconflict, (size_t)s->nwconflict * sizeof *s->wconflict);
    s->wconflict[0] = game;
    s->nwconflict++;
}

typedef struct unskip_job {
    store_job job;
    server *srv;
    int64_t game;
} unskip_job;

static int run_unskip(store *db, store_job *job)
{
    (void)db;
    unskip_job *j = (unskip_job *)job;
    server *s = j->srv;
    for (int i = 0; i < s->nwconflict; i++)
        if (s->wconflict[i] == j->game) {
            s->wconflict[i] = s->wconflict[--s->nwconflict];
            break;
        }
    return 0;
}

static void unskipped(void *ctx, store_job *job)
{
    (void)ctx;
    free(job);
}

void nodes_unskip(server *s, int64_t game)
{
    if (!s->listen)
        return;
    unskip_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->srv = s;
    j->game = game;
    j->job.run = run_unskip;
    j->job.done = unskipped;
    /* after every batch queued before the rebuilt room was in place */
    store_async_submit(s->db, STORE_WRITE, &j->job);
}

/* ---- telling the others (the writer thread) ----------------------------------------- */

static int send_note(store *db, json_t *note)
{
    char *text = note ? json_dumps(note, JSON_COMPACT) : NULL;
    json_decref(note);
    int rc = text ? db->ops->notify(db, text) : -1;
    free(text);
    return rc;
}

static json_t *game_note(const batch *b, int64_t game)
{
    json_t *events = json_array();
    bool made = false;
    size_t size = 0;
    int last_seq = 0;
    for (int i = 0; i < b->nops; i++) {
        const write_op *op = &b->ops[i];
        if (op->game != game)
            continue;
        if (op->kind == W_GAME_ADD)
            made = true;
        if (op->kind != W_EVENT)
            continue;
        last_seq = op->event.seq;
        size += strlen(op->event.data_json) + 48;
        json_array_append_new(events, json_pack("[i, I, s, s]", op->event.seq,
                                                (json_int_t)op->event.at_ms, op->event.kind,
                                                op->event.data_json));
    }
    json_t *note = json_pack("{s:s, s:I}", "n", b->srv->node, "g", (json_int_t)game);
    if (made) /* the others read it whole */
        json_object_set_new(note, "new", json_true());
    else if (size > NOTE_MAX)
        json_object_set_new(note, "s", json_integer(last_seq));
    else
        json_object_set(note, "e", events);
    json_decref(events);
    return note;
}

int nodes_notify_batch(store *db, batch *b)
{
    for (int i = 0; i < b->ngames; i++)
        if (!b->games[i].lost &&
            send_note(db, b->games[i].id < 0 /* a tournament's document */
                              ? json_pack("{s:s, s:I}", "n", b->srv->node, "t", (json_int_t)-b->games[i].id)
                              : game_note(b, b->games[i].id)) != 0)
            return -1;
    for (int i = 0; i < b->nops; i++)
        if (b->ops[i].kind == W_CHALLENGE_REMOVE &&
            send_note(db, json_pack("{s:s, s:I}", "n", b->srv->node, "c-",
                                    (json_int_t)b->ops[i].game)) != 0)
            return -1;
    return 0;
}

char *nodes_challenge_note(server *s, const challenge *ch, json_t *shown)
{
    if (!s->listen) {
        json_decref(shown);
        return NULL;
    }
    json_object_set_new(shown, "by", json_integer(ch->challenger));
    json_t *note = json_pack("{s:s, s:o}", "n", s->node, "c+", shown);
    char *text = note ? json_dumps(note, JSON_COMPACT) : NULL;
    json_decref(note);
    return text;
}

/* ---- reading a game another node made ------------------------------------------- */

typedef struct load_job {
    store_job job;
    int64_t game;
    room *r;
    engine_spec engines[3];
    int64_t created;
    int found;               /* 0 live, 1 none, 2 finished */
} load_job;

typedef struct loading {
    bool again;              /* heard of it again meanwhile: read once more */
    int64_t *parked;         /* clients whose request waits for it */
    int nparked, parked_cap;
} loading;

bool nodes_park_on_load(server *s, client *c, const proto_request *rq)
{
    if (!s->listen || c->waiting || rq->game <= 0)
        return false;
    if (c->read_for == rq->game) { /* read once for this request: it is what it is */
        c->read_for = 0;
        return false;
    }
    /* a number not heard of yet may be a game another node made a moment
     * ago (its notification on the way): read it (at most 256 at once) */
    if (rq->game > s->next_game && !imap_get(&s->loading, rq->game) && s->loading.count < 256)
        game_load(s, rq->game);
    loading *l = imap_get(&s->loading, rq->game);
    if (!l || !grow_array((void **)&l->parked, &l->parked_cap, l->nparked, sizeof *l->parked) ||
        !client_park(c, rq))
        return false;
    l->parked[l->nparked++] = c->id;
    return true;
}

static void loading_done(server *s, int64_t game)
{
    loading *l = imap_del(&s->loading, game);
    if (!l)
        return;
    for (int i = 0; i < l->nparked; i++) {
        client *c = client_by_id(s, l->parked[i]);
        if (c && !c->closed) {
            c->waiting = false;
            c->read_for = game;
            client_resume(s, c);
            c->read_for = 0;
        }
    }
    free(l->parked);
    free(l);
}

static int run_load(store *db, store_job *job)
{
    load_job *j = (load_job *)job;
    store_game g;
    memset(&g, 0, sizeof g);
    int rc = db->ops->game_get(db, j->game, &g);
    if (rc != 0) {
        j->found = 1;
        return rc < 0 ? -1 : 0;
    }
    j->created = g.created_unix_ms;
    if (g.finished) {
        j->found = 2;
        store_game_clear(&g);
        return 0;
    }
    j->r = game_replay(db, &g, j->engines);
    store_game_clear(&g);
    return j->r ? 0 : -1;
}

static void loaded(void *ctx, store_job *job);

static void load_submit(server *s, int64_t game)
{
    load_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->game = game;
    j->job.run = run_load;
    j->job.done = loaded;
    store_async_submit(s->db, STORE_READ, &j->job);
}

void game_load(server *s, int64_t game)
{
    loading *l = imap_get(&s->loading, game);
    if (l) {
        l->again = true;
        return;
    }
    if (!(l = calloc(1, sizeof *l)) || !imap_put(&s->loading, game, l)) {
        free(l);
        return;
    }
    load_submit(s, game);
}

static void loaded(void *ctx, store_job *job)
{
    server *s = ctx;
    load_job *j = (load_job *)job;
    loading *l = imap_get(&s->loading, j->game);
    if (l && l->again && job->rc == 0) { /* heard of again meanwhile: read again */
        l->again = false;
        room_free(j->r);
        int64_t game = j->game;
        free(j);
        load_submit(s, game);
        return;
    }
    if (j->found != 1 && j->game > s->next_game)
        s->next_game = j->game;
    live *lv = j->r && !live_get(s, j->game) ? game_live_new(s, j->r, j->created) : NULL;
    if (!lv) {
        room_free(j->r);
        loading_done(s, j->game); /* what waited finds it finished, or not there */
        free(j);
        return;
    }
    memcpy(lv->engine, j->engines, sizeof lv->engine);
    if (room_seats_swapped(lv->r))
        swap_engines(lv);
    lv->offset_ms = server_now_ms() - lv->r->last_at;
    free(j);
    lobby_broadcast(s, json_pack("{s:s, s:o}", "type", "lobby.update", "game",
                                 room_summary_json(lv->r)), 0);
    schedule(s, lv);
    ask_engine(s, lv);
    loading_done(s, lv->r->id);
}

/* ---- hearing the others ------------------------------------------------------------ */

/* What the last game.move or game.state told of the game, from events of
 * another node's: applied as they were judged there. */
static bool apply_events(server *s, live *lv, json_t *events)
{
    room_result all;
    memset(&all, 0, sizeof all);
    int applied = 0;
    int64_t last_at = 0;
    size_t i;
    json_t *e;
    room_event *ev = malloc(sizeof *ev);
    if (!ev)
        return false;
    json_array_foreach(events, i, e) {
        int seq = (int)json_integer_value(json_array_get(e, 0));
        json_int_t at = json_integer_value(json_array_get(e, 1));
        const char *kind_name = json_string_value(json_array_get(e, 2));
        const char *text = json_string_value(json_array_get(e, 3));
        if (seq <= lv->r->seq)
            continue; /* had it already */
        if (seq != lv->r->seq + 1 || !kind_name || !text)
            goto reread;
        room_event_kind kind;
        json_error_t err;
        json_t *data = json_loads(text, 0, &err);
        bool ok = data && room_event_kind_parse(kind_name, &kind) &&
                  room_event_from_json(lv->r, kind, data, ev);
        json_decref(data);
        if (!ok)
            goto reread;
        bool swapped = room_seats_swapped(lv->r);
        room_result res;
        room_apply(lv->r, ev, at, &res);
        if (res.code || lv->r->seq != seq)
            goto reread; /* judged otherwise here: the store decides */
        if (room_seats_swapped(lv->r) != swapped)
            swap_engines(lv);
        if (kind == EV_PROPOSAL) {
            lv->estimating = false;
            lv->awaiting_proposal_ms = 0;
        }
        if (kind == EV_CHAT) /* said on another node: its watchers here hear it */
            game_chat_broadcast(lv, ev, NULL);
        all.played |= res.played;
        all.state_changed |= res.state_changed;
        all.ended |= res.ended;
        all.needs_proposal |= res.needs_proposal;
        if (kind != EV_CHAT && kind != EV_ARRIVE)
            lv->epoch++;
        last_at = at;
        applied++;
    }
    free(ev);
    if (!applied)
        return true;
    /* the clock goes on from the committed time of the last event */
    lv->offset_ms = server_now_ms() - last_at;
    if (applied > 1 && all.played)
        all.state_changed = true; /* one game.move tells of one move */
    if (all.needs_proposal && lv->r->phase == ROOM_REMOVAL && !lv->r->has_proposal) {
        lv->estimating = true; /* the node that judged it proposes: shown with it */
        lv->awaiting_proposal_ms = server_now_ms();
    }
    announce(s, lv, &all); /* a job asked before these events is now stale: asked again */
    return true;
reread:
    free(ev);
    return false;
}

static void heard_game(server *s, int64_t game, json_t *note)
{
    live *lv = live_get(s, game);
    if (game > s->next_game)
        s->next_game = game;
    if (!lv) {
        game_load(s, game);
        return;
    }
    if (lv->recovering) {
        lv->refresh = true;
        return;
    }
    if (lv->dep > s->committed) { /* ours wait: whichever came first, the store says */
        lv->behind = true;
        return;
    }
    json_t *events = json_object_get(note, "e");
    if (!json_is_array(events) || !apply_events(s, lv, events))
        game_recover(s, lv);
}

static void heard_challenge(server *s, json_t *c)
{
    json_int_t id = json_integer_value(json_object_get(c, "id"));
    if (id <= 0 || imap_get(&s->challenges, id))
        return;
    challenge *ch = calloc(1, sizeof *ch);
    char why[200];
    const char *name = json_string_value(json_object_get(c, "challenger"));
    const char *opponent = json_string_value(json_object_get(c, "opponent"));
    if (!ch || !name || !room_settings_from_json(json_object_get(c, "settings"), &ch->settings, why,
                                                 sizeof why)) {
        free(ch);
        return;
    }
    ch->id = id;
    ch->challenger = json_integer_value(json_object_get(c, "by"));
    snprintf(ch->challenger_name, sizeof ch->challenger_name, "%s", name);
    snprintf(ch->opponent, sizeof ch->opponent, "%s", opponent ? opponent : "");
    ch->created_unix_ms = json_integer_value(json_object_get(c, "created"));
    ch->remote = true;
    const char *rank = json_string_value(json_object_get(c, "challenger_rank"));
    snprintf(ch->rank, sizeof ch->rank, "%s", rank ? rank : "");
    if (id > s->next_challenge)
        s->next_challenge = id;
    lobby_challenge_back(s, ch);
}

static void heard_challenge_gone(server *s, int64_t id)
{
    challenge *ch = imap_get(&s->challenges, id);
    if (!ch)
        return;
    lobby_challenge_gone(s, ch);
}

/* ---- reading everything again --------------------------------------------------------- */

typedef struct resync_job {
    store_job job;
    store_game *games;
    int ngames;
    store_challenge *challenges;
    int nchallenges;
} resync_job;

static int run_resync(store *db, store_job *job)
{
    resync_job *j = (resync_job *)job;
    if (db->ops->games_list(db, false, 0, 0, &j->games, &j->ngames) != 0)
        return -1;
    return db->ops->challenges_list(db, &j->challenges, &j->nchallenges);
}

static void resync_submit(server *s);

static void resynced(void *ctx, store_job *job)
{
    server *s = ctx;
    resync_job *j = (resync_job *)job;
    if (job->rc == 0) {
        for (int i = 0; i < j->ngames; i++)
            if (!live_get(s, j->games[i].id))
                game_load(s, j->games[i].id);
        /* challenges gone meanwhile leave; new ones come */
        int64_t gone[256], id;
        int n = 0;
        void *v;
        for (size_t i = 0; n < 256 && imap_next(&s->challenges, &i, &id, &v);) {
            bool found = false;
            for (int k = 0; k < j->nchallenges && !found; k++)
                found = j->challenges[k].id == id;
            if (!found)
                gone[n++] = id;
        }
        for (int i = 0; i < n; i++)
            heard_challenge_gone(s, gone[i]);
        for (int k = 0; k < j->nchallenges; k++) {
            store_challenge *c = &j->challenges[k];
            json_error_t e;
            json_t *settings = json_loads(c->settings_json, 0, &e);
            json_t *shown = json_pack("{s:I, s:s, s:s, s:o, s:I, s:I}", "id", (json_int_t)c->id,
                                      "challenger", c->challenger_name, "opponent", c->opponent,
                                      "settings", settings ? settings : json_null(), "created",
                                      (json_int_t)c->created_unix_ms, "by", (json_int_t)c->challenger);
            if (shown)
                heard_challenge(s, shown);
            json_decref(shown);
        }
    }
    store_games_free(j->games, j->ngames);
    store_challenges_free(j->challenges, j->nchallenges);
    bool failed = job->rc != 0;
    free(j);
    if (failed && !s->stopping)
        resync_submit(s); /* the reader waits out the database's absence */
}

static void resync_submit(server *s)
{
    resync_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->job.run = run_resync;
    j->job.done = resynced;
    store_async_submit(s->db, STORE_READ, &j->job);
}

static void resync(server *s)
{
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->lives, &i, &id, &v);) {
        live *lv = v;
        if (lv->recovering)
            lv->refresh = true;
        else if (lv->dep > s->committed)
            lv->behind = true;
        else
            game_recover(s, lv);
    }
    tournaments_reread_all(s);
    resync_submit(s);
}

void nodes_heard(server *s)
{
    if (!s->listen)
        return;
    bool lost = false;
    char *text;
    for (int n = 0; n < 10000; n++) {
        bool gap = false;
        text = store_listen_next(s->listen, &gap);
        lost |= gap;
        if (!text)
            break;
        json_error_t err;
        json_t *note = json_loads(text, 0, &err);
        free(text);
        const char *from = json_string_value(json_object_get(note, "n"));
        if (!note || !from || strcmp(from, s->node) == 0) {
            json_decref(note);
            continue;
        }
        s->notes_heard++;
        json_t *g = json_object_get(note, "g"), *add = json_object_get(note, "c+"),
               *gone = json_object_get(note, "c-"), *tour = json_object_get(note, "t");
        if (json_is_integer(g) && json_integer_value(g) > 0)
            heard_game(s, json_integer_value(g), note);
        else if (json_is_object(add))
            heard_challenge(s, add);
        else if (json_is_integer(gone))
            heard_challenge_gone(s, json_integer_value(gone));
        else if (json_is_integer(tour) && json_integer_value(tour) > 0)
            tournament_reread(s, json_integer_value(tour));
        json_decref(note);
    }
    if (lost) {
        fprintf(stderr, "tengen serve: the other nodes' writes may have been missed: reading every game again\n");
        resync(s);
    }
}

void nodes_after_write(server *s, live *lv)
{
    if (lv->behind && !lv->recovering) {
        lv->behind = false;
        game_recover(s, lv);
    }
}

void live_ask(live *lv, client *c, const proto_request *rq)
{
    if (!lv->srv->listen || lv->dep <= lv->srv->committed || !rq->root)
        return; /* one node: nobody writes first */
    waiting_ask(&lv->wait, c, rq, lv->dep);
}

bool nodes_may_ask_engine(server *s, const live *lv)
{
    if (!s->listen || lv->home)
        return true;
    for (int i = 0; i < lv->watcher_count; i++)
        if (room_color_of(lv->r, lv->watchers[i]->user) != TG_EMPTY)
            return true;
    return false;
}

int64_t nodes_tick_grace_ms(const server *s, const live *lv)
{
    return s->listen && !lv->home ? 500 : 0;
}

/* How long an engine's move may take on the node that asks it before
 * another node asks its own engine: a generous multiple of the engine's
 * time (playouts: a move's worth at a slow rate), never under 15 s.
 * TENGEN_ENGINE_TAKEOVER_MS sets it (the tests). */
static int64_t engine_takeover_ms(const live *lv, tg_color c)
{
    const char *env = getenv("TENGEN_ENGINE_TAKEOVER_MS");
    if (env && atoll(env) > 0)
        return atoll(env);
    const engine_spec *e = &lv->engine[c];
    int64_t ms = e->seconds > 0 ? (int64_t)(e->seconds * 3000) : e->playouts / 5;
    return ms > 15000 ? ms : 15000;
}

int64_t nodes_engine_due_ms(server *s, live *lv)
{
    tg_color c = room_engine_to_move(lv->r);
    if (!s->listen || lv->home || c == TG_EMPTY || lv->adjourned[0] || nodes_may_ask_engine(s, lv)) {
        lv->engine_wait_ms = 0;
        return INT64_MAX;
    }
    if (!lv->engine_wait_ms || lv->engine_wait_seq != lv->r->seq) {
        lv->engine_wait_ms = server_now_ms();
        lv->engine_wait_seq = lv->r->seq;
    }
    return lv->engine_wait_ms + engine_takeover_ms(lv, c);
}

bool nodes_engine_takeover(server *s, live *lv)
{
    if (nodes_engine_due_ms(s, lv) > server_now_ms())
        return false;
    /* nobody asked the engine in time (its home is gone): this node is
     * the game's home from now on; should two take over at once, the seq
     * keeps one move */
    fprintf(stderr, "tengen serve: game %lld: no node asked its engine in time: this node takes it over\n",
            (long long)lv->r->id);
    lv->home = true;
    lv->engine_wait_ms = 0;
    return true;
}

/* ---- starting and stopping ------------------------------------------------------------ */

bool nodes_start(server *s, void (*wake)(void *), char *err, size_t errlen)
{
    if (!s->api_db->shared)
        return true;
    snprintf(s->node, sizeof s->node, "%016" PRIx64, auth_random_u64());
    s->listen = store_listen_new(s->cfg.db_path, wake, s, err, errlen);
    if (!s->listen)
        return false;
    for (int k = 0; k < 2; k++) {
        int64_t first;
        if (s->api_db->ops->ids_take(s->api_db, id_kind[k], ID_BLOCK, &first) != 0) {
            snprintf(err, errlen, "cannot take ids: %s", s->api_db->ops->error(s->api_db));
            return false;
        }
        s->ids[k].next = first;
        s->ids[k].end = first + ID_BLOCK;
        s->ids[k].size = ID_BLOCK;
    }
    return true;
}

void nodes_free(server *s)
{
    store_listen_free(s->listen);
    s->listen = NULL;
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->loading, &i, &id, &v);) {
        free(((loading *)v)->parked); /* their clients are freed with the server */
        free(v);
    }
    imap_free(&s->loading);
}
