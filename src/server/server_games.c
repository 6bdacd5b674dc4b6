/*
 * server_games.c — the registry of live games, the one owner of their
 * lifetimes.  Every change is an event that the room judges (room_apply);
 * the turn's batch carries it to the store, and the players and
 * spectators hear of it once it is durable (server_turn.c).  The clock's
 * deadlines are timers on the loop; an engine's move is asked of the
 * engine pool and comes back as an event like a person's.  At start,
 * unfinished games are rebuilt by replaying their events; the game time
 * an outage took is not counted (README), nor the time the store kept a
 * game's writes waiting.
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "tengen/gtp.h"

/* A store slower than this hands the time back to the game's clock. */
#define STALL_GIVEN_BACK_MS 50
/* While a game's writes wait longer than this, its clock does not run out. */
#define STALL_HOLDS_TICKS_MS 1000


live *live_get(server *s, int64_t game) { return imap_get(&s->lives, game); }

static void live_free(server *s, live *lv)
{
    if (live_get(s, lv->r->id) == lv)
        imap_del(&s->lives, lv->r->id);
    for (int i = 0; i < lv->watcher_count; i++) {
        client *c = lv->watchers[i];
        for (int k = 0; k < c->watch_count; k++)
            if (c->watching[k] == lv->r->id)
                c->watching[k] = c->watching[--c->watch_count];
    }
    net_timer_free(lv->timer);
    free(lv->recover_retry); /* a rebuild's read never asked again (its room is not made yet) */
    room_free(lv->r);
    free(lv->watchers);
    waiting_free(s, &lv->wait);
    free(lv);
}

int64_t game_now(const live *lv) { return server_now_ms() - lv->offset_ms; }

/* ---- what watchers see --------------------------------------------------------- */

static net_msg *msg_of(json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!text)
        return NULL;
    net_msg *m = net_msg_new(text, strlen(text));
    free(text);
    return m;
}

/* Whether each player is connected: the room does not know, the server does. */
static void add_presence(server *s, const live *lv, json_t *game)
{
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        const account *a = lv->r->user[c] ? account_of(s, lv->r->user[c]) : NULL;
        bool online = lv->r->engine[c][0] || (a && a->connections > 0);
        json_object_set_new(json_object_get(game, c == TG_BLACK ? "black" : "white"), "online",
                            json_boolean(online));
    }
    if (lv->adjourned[0])
        json_object_set_new(game, "adjourned", json_string(lv->adjourned));
}

static json_t *state_message(const live *lv, tg_color you)
{
    json_t *game = room_state_json(lv->r, you, game_now(lv));
    add_presence(lv->srv, lv, game);
    return json_pack("{s:s, s:o}", "type", "game.state", "game", game);
}

/* One serialisation per point of view: black, white, spectators. */
void broadcast_state(live *lv)
{
    net_msg *views[3] = {NULL, NULL, NULL};
    for (int i = 0; i < lv->watcher_count; i++) {
        client *c = lv->watchers[i];
        tg_color you = room_color_of(lv->r, c->user);
        if (!views[you])
            views[you] = msg_of(state_message(lv, you));
        if (views[you] && !c->closed)
            net_send_after(c->conn, views[you], lv->dep, NULL);
    }
    for (int i = 0; i < 3; i++)
        net_msg_unref(views[i]);
}

void game_broadcast(live *lv, json_t *j, bool spectators_only)
{
    net_msg *m = msg_of(j);
    if (!m)
        return;
    for (int i = 0; i < lv->watcher_count; i++) {
        client *c = lv->watchers[i];
        if ((!spectators_only || room_color_of(lv->r, c->user) == TG_EMPTY) && !c->closed)
            net_send_after(c->conn, m, lv->dep, NULL);
    }
    net_msg_unref(m);
}

static void broadcast_move(live *lv)
{
    const room *r = lv->r;
    const tg_board *b = tg_game_board(r->game);
    int n = tg_game_move_count(r->game);
    const tg_move *m = tg_game_move(r->game, n - 1);
    char vertex[8], board[TG_MAX_POINTS + 1];
    tg_point_to_vertex(b, m->point, vertex);
    room_board_string(r, board);
    json_t *captured = json_array();
    for (int i = 0; i < r->last_captured_count; i++) {
        char v[8];
        tg_point_to_vertex(b, r->last_captured[i], v);
        json_array_append_new(captured, json_string(v));
    }
    tg_color next = tg_game_to_move(r->game);
    json_t *msg =
              json_pack("{s:s, s:I, s:i, s:s, s:s, s:o, s:s, s:{s:i, s:i}, s:s, s:o, s:n}",
                        "type", "game.move", "game", (json_int_t)r->id, "n", n, "color",
                        m->color == TG_BLACK ? "black" : "white", "move", vertex, "captured",
                        captured, "board", board, "captures", "black", b->captures[TG_BLACK],
                        "white", b->captures[TG_WHITE], "to_move",
                        next == TG_BLACK ? "black" : "white", "clock",
                        room_clock_json(r, game_now(lv)), "warning");
    if (msg && tg_game_move_captured_own(r->game, n - 1))
        json_object_set_new(msg, "own", json_true());
    game_broadcast(lv, msg, false);
}

/* ---- events -------------------------------------------------------------------- */

static char *date_text(int64_t unix_ms, char *buf, size_t len)
{
    time_t t = (time_t)(unix_ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%d", &tm);
    return buf;
}

char *game_sgf_live(live *lv)
{
    char date[16];
    return room_sgf(lv->r, date_text(lv->created_unix_ms, date, sizeof date));
}

/* The state a finished game keeps in the store and the cache: the API's. */
static char *final_state_text(server *s, live *lv)
{
    json_t *state = game_state_public(s, lv);
    char *text = state ? json_dumps(state, JSON_COMPACT) : NULL;
    json_decref(state);
    return text;
}

static bool finish_in_batch(server *s, live *lv)
{
    char re[32];
    tg_result_to_sgf(tg_game_result(lv->r->game), re, sizeof re);
    return batch_finish(s, lv, re, tg_game_move_count(lv->r->game), game_sgf_live(lv),
                        final_state_text(s, lv)) &&
           (!room_seats_swapped(lv->r) || batch_swap(s, lv)) && game_rate(s, lv, re) &&
           tournament_game_over(s, lv);
}

void swap_engines(live *lv)
{
    engine_spec e = lv->engine[TG_BLACK];
    lv->engine[TG_BLACK] = lv->engine[TG_WHITE];
    lv->engine[TG_WHITE] = e;
}

static void propose_dead(server *s, live *lv);

/* Apply an event and put it in the turn's batch; res says what happened.
 * When it cannot even be queued (out of memory), the game is rebuilt from
 * the store and the event refused as the server's fault. */
void commit(server *s, live *lv, const room_event *ev, int64_t at, room_result *res)
{
    bool swapped = room_seats_swapped(lv->r);
    room_apply(lv->r, ev, at, res);
    if (res->code)
        return;
    if (room_seats_swapped(lv->r) != swapped)
        swap_engines(lv);
    json_t *data = room_event_to_json(lv->r, ev);
    char *text = data ? json_dumps(data, JSON_COMPACT) : NULL;
    json_decref(data);
    store_event se = {lv->r->seq, at, "", text};
    snprintf(se.kind, sizeof se.kind, "%s", room_event_kind_name(ev->kind));
    bool queued = text && batch_event(s, lv, &se);
    free(text);
    if (queued && ev->kind == EV_MOVE)
        s->moves++;
    if (queued && ev->kind != EV_CHAT && ev->kind != EV_ARRIVE)
        lv->epoch++;
    if (queued && res->needs_proposal)
        propose_dead(s, lv);
    if (queued && !res->code && res->ended)
        queued = finish_in_batch(s, lv);
    if (!queued) {
        game_recover(s, lv);
        memset(res, 0, sizeof *res);
        res->code = ROOM_ERR_INTERNAL;
        snprintf(res->message, sizeof res->message, "the server could not record it");
    }
}

/* Stone removal begins: the library's estimate is the proposal (an event,
 * so that a rebuilt game shows the same even if the estimate changes).  It
 * takes up to about 90 ms on 25x25: the worker thread estimates a copy of
 * the position, and the proposal is judged when it comes back. */
typedef struct estimate_job {
    store_job job;
    int64_t game;
    int epoch;
    tg_game *copy;
    uint8_t dead[TG_MAX_POINTS];
} estimate_job;

static int run_estimate(store *db, store_job *job)
{
    (void)db;
    estimate_job *j = (estimate_job *)job;
    /* the position's own estimate, the one `tengen score`, GTP final_score
     * and the referee give for it */
    tg_game_estimate_dead(j->copy, 0, 0, j->dead);
    return 0;
}

static void estimated(void *ctx, store_job *job)
{
    server *s = ctx;
    estimate_job *j = (estimate_job *)job;
    live *lv = live_get(s, j->game);
    if (lv && lv->estimating && lv->epoch == j->epoch && !lv->recovering &&
        lv->r->phase == ROOM_REMOVAL && !lv->r->has_proposal) {
        lv->estimating = false;
        room_event *ev = calloc(1, sizeof *ev);
        if (ev) {
            ev->kind = EV_PROPOSAL;
            const tg_board *b = tg_game_board(lv->r->game);
            for (tg_point p = 0; p < b->npoints; p++)
                if (j->dead[p] && tg_on_board(b, p) && tg_board_at(b, p) != TG_EMPTY)
                    ev->points[ev->npoints++] = p;
            room_result res;
            commit(s, lv, ev, game_now(lv), &res);
            if (!res.code)
                announce(s, lv, &res);
            free(ev);
        }
    } else if (lv && lv->epoch != j->epoch) {
        lv->estimating = false;
    }
    tg_game_free(j->copy);
    free(j);
}

static void propose_dead(server *s, live *lv)
{
    estimate_job *j = calloc(1, sizeof *j);
    if (!j || !(j->copy = tg_game_clone(lv->r->game))) {
        free(j);
        return; /* out of memory: the players mark the stones themselves */
    }
    j->game = lv->r->id;
    j->epoch = lv->epoch;
    j->job.run = run_estimate;
    j->job.done = estimated;
    lv->estimating = true;
    store_async_submit(s->db, STORE_WORK, &j->job);
}

/* Removal without a proposal (rebuilt at start, or after a failed write):
 * the estimate is asked again. */
void game_propose_if_missing(server *s, live *lv)
{
    if (lv->r->phase == ROOM_REMOVAL && !lv->r->has_proposal && !lv->estimating)
        propose_dead(s, lv);
}

/* After a change: tell the watchers, the lobby when the game ended, set
 * the timer, and ask the engine when it is its move. */
void announce(server *s, live *lv, const room_result *res)
{
    if (lv->estimating && !res->ended) {
        /* stone removal is shown with its proposal, when the estimate
         * returns: nobody marks or accepts a list that is about to change */
        schedule(s, lv);
        return;
    }
    if (res->played && !res->state_changed)
        broadcast_move(lv);
    else if (res->played || res->state_changed || res->ended)
        broadcast_state(lv);
    if (res->ended)
        lobby_broadcast(s, json_pack("{s:s, s:o}", "type", "lobby.update", "game",
                                     room_summary_json(lv->r)), lv->dep);
    schedule(s, lv);
    ask_engine(s, lv);
    if (res->ended) /* over with nobody watching here (ended by a clock, or on another node) */
        game_release_if_idle(s, lv);
}

/* Whether the game's clock is held: being rebuilt, adjourned, or its
 * writes waiting long for the store (that time is given back). */
static bool clock_held(const server *s, const live *lv)
{
    return lv->recovering || lv->adjourned[0] ||
           (lv->dep > s->committed && lv->stall_from &&
            server_now_ms() - lv->stall_from > STALL_HOLDS_TICKS_MS);
}

/* The deadline due before anything else is judged: a move arriving after
 * the clock ran out finds the game already lost on time. */
void tick_if_due(server *s, live *lv, int64_t at)
{
    if (clock_held(s, lv) || !room_tick_due(lv->r, at))
        return;
    room_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = EV_TICK;
    room_result res;
    commit(s, lv, &ev, at, &res);
    if (!res.code)
        announce(s, lv, &res);
}

/* How long a node waits for another's dead-stone proposal before making
 * its own. */
#define PROPOSAL_WAIT_MS 3000

static void on_timer(void *arg)
{
    live *lv = arg;
    server *s = lv->srv;
    if (lv->recovering) { /* a rebuild whose read failed is asked again */
        if (lv->recover_retry)
            store_async_submit(s->db, STORE_READ, lv->recover_retry);
        lv->recover_retry = NULL;
        return;
    }
    if (lv->awaiting_proposal_ms && (lv->r->phase != ROOM_REMOVAL || lv->r->has_proposal)) {
        lv->awaiting_proposal_ms = 0;
    } else if (lv->awaiting_proposal_ms &&
               server_now_ms() - lv->awaiting_proposal_ms >= PROPOSAL_WAIT_MS) {
        /* the node whose double pass began removal said nothing (gone?):
         * this one estimates; should both propose, the seq settles it */
        lv->awaiting_proposal_ms = 0;
        lv->estimating = false;
        propose_dead(s, lv);
    }
    tick_if_due(s, lv, game_now(lv));
    nodes_engine_takeover(s, lv);
    schedule(s, lv);
    ask_engine(s, lv); /* also the retry of an engine move the full queue refused */
}

void schedule(server *s, live *lv)
{
    int64_t deadline = room_next_deadline(lv->r);
    if (lv->recovering && lv->recover_retry)
        return; /* the timer asks the rebuild again */
    if (lv->awaiting_proposal_ms && (lv->r->phase != ROOM_REMOVAL || lv->r->has_proposal))
        lv->awaiting_proposal_ms = 0;
    if (lv->awaiting_proposal_ms && !lv->recovering) { /* looked at again when it is due */
        int64_t wait = lv->awaiting_proposal_ms + PROPOSAL_WAIT_MS - server_now_ms();
        net_timer_set(lv->timer, wait > 0 ? wait : 0);
    } else if (deadline == INT64_MAX || lv->recovering || lv->adjourned[0])
        net_timer_cancel(lv->timer);
    else if (clock_held(s, lv))
        net_timer_set(lv->timer, 100); /* looked at again when its writes are durable */
    else
        net_timer_set(lv->timer, deadline - game_now(lv) + nodes_tick_grace_ms(s, lv));
    /* several nodes: looked at again when this node is to take over the engine */
    int64_t engine_due = lv->recovering || lv->awaiting_proposal_ms ? INT64_MAX : nodes_engine_due_ms(s, lv);
    if (engine_due != INT64_MAX) {
        int64_t wait = engine_due - server_now_ms();
        if (deadline == INT64_MAX || lv->adjourned[0] || wait < deadline - game_now(lv))
            net_timer_set(lv->timer, wait > 0 ? wait : 0);
    }
}

void game_durable(server *s, live *lv)
{
    if (lv->stall_from) {
        int64_t stalled = server_now_ms() - lv->stall_from;
        if (stalled > STALL_GIVEN_BACK_MS) {
            /* the players could not see the position meanwhile: the time is
             * not counted, as far as the game's last event allows */
            int64_t since_last = game_now(lv) - lv->r->last_at;
            lv->offset_ms += stalled < since_last ? stalled : since_last > 0 ? since_last : 0;
        }
        lv->stall_from = 0;
    }
    schedule(s, lv);
}

/* ---- starting and rebuilding ----------------------------------------------------- */

live *game_live_new(server *s, room *r, int64_t created_unix_ms)
{
    live *lv = calloc(1, sizeof *lv);
    if (!lv)
        return NULL;
    lv->r = r;
    lv->srv = s;
    lv->created_unix_ms = created_unix_ms;
    lv->timer = net_timer_new(s->net, on_timer, lv);
    if (!lv->timer || !imap_put(&s->lives, r->id, lv)) {
        net_timer_free(lv->timer);
        free(lv);
        return NULL;
    }
    return lv;
}

static void fill_players(room *r, const store_game *g)
{
    r->user[TG_BLACK] = g->black;
    r->user[TG_WHITE] = g->white;
    snprintf(r->name[TG_BLACK], ROOM_NAME_MAX, "%s", g->black_name);
    snprintf(r->name[TG_WHITE], ROOM_NAME_MAX, "%s", g->white_name);
    snprintf(r->engine[TG_BLACK], ROOM_NAME_MAX, "%s", g->black_engine);
    snprintf(r->engine[TG_WHITE], ROOM_NAME_MAX, "%s", g->white_engine);
    snprintf(r->nigiri, sizeof r->nigiri, "%s", g->nigiri);
    r->seats_final = g->finished; /* see store_ops.game_swap_colors */
}

/* A room from its stored game and events (any thread); engines into e. */
room *game_replay(store *db, const store_game *g, engine_spec e[3])
{
    json_error_t err_j;
    json_t *wrap = json_loads(g->settings_json, 0, &err_j);
    room_settings st;
    char err[200];
    json_t *settings = json_object_get(wrap, "settings"), *engines = json_object_get(wrap, "engines");
    room *r = NULL;
    if (wrap && room_settings_from_json(settings, &st, err, sizeof err))
        r = room_new(g->id, &st);
    if (r) {
        fill_players(r, g);
        json_t *ranks = json_object_get(wrap, "ranks"), *tour = json_object_get(wrap, "tournament");
        if (json_is_object(tour)) {
            r->tour = json_integer_value(json_object_get(tour, "id"));
            r->tour_round = (int)json_integer_value(json_object_get(tour, "round"));
            r->tour_board = (int)json_integer_value(json_object_get(tour, "board"));
        }
        for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
            const char *rank = json_string_value(json_object_get(ranks, c == TG_BLACK ? "black" : "white"));
            snprintf(r->rank[c], sizeof r->rank[c], "%s", rank ? rank : "");
        }
        if (e) {
            engine_spec_read(json_object_get(engines, "black"), g->black_engine, &e[TG_BLACK]);
            engine_spec_read(json_object_get(engines, "white"), g->white_engine, &e[TG_WHITE]);
        }
    }
    json_decref(wrap);
    if (!r)
        return NULL;
    store_event *events = NULL;
    int count = 0;
    if (db->ops->events(db, g->id, &events, &count) != 0) {
        store_events_free(events, count);
        room_free(r);
        return NULL;
    }
    room_event *ev = malloc(sizeof *ev);
    for (int i = 0; ev && i < count; i++) {
        room_event_kind kind;
        json_t *data = json_loads(events[i].data_json, 0, &err_j);
        room_result res;
        if (data && room_event_kind_parse(events[i].kind, &kind) &&
            room_event_from_json(r, kind, data, ev))
            room_apply(r, ev, events[i].at_ms, &res);
        json_decref(data);
    }
    free(ev);
    store_events_free(events, count);
    return r;
}

bool games_restore(server *s, char *err, size_t errlen)
{
    store *db = s->api_db; /* at start, before the loop runs */
    store_game *games = NULL;
    int count = 0;
    if (db->ops->games_list(db, false, 0, 0, &games, &count) != 0) {
        snprintf(err, errlen, "cannot read the games: %s", db->ops->error(db));
        store_games_free(games, count);
        return false;
    }
    for (int i = 0; i < count; i++) {
        engine_spec e[3];
        memset(e, 0, sizeof e);
        room *r = game_replay(db, &games[i], e);
        live *lv = r ? game_live_new(s, r, games[i].created_unix_ms) : NULL;
        if (!lv) {
            room_free(r);
            continue;
        }
        memcpy(lv->engine, e, sizeof e);
        lv->home = true; /* every node restoring it times it and asks its engine */
        if (room_seats_swapped(r)) /* the stored engines are the opening's seats */
            swap_engines(lv);
        /* the game's clock goes on from its last event: an outage is not
         * counted against anyone */
        lv->offset_ms = server_now_ms() - r->last_at;
        schedule(s, lv);
        game_propose_if_missing(s, lv);
        ask_engine(s, lv);
    }
    store_games_free(games, count);
    db->ops->idle(db);
    return true;
}

live *game_start(server *s, const room_settings *settings, int64_t black, const char *black_name,
                 int64_t white, const char *white_name, const char *nigiri,
                 const engine_spec engines[3], const char *const ranks[3], char *err, size_t errlen)
{
    return game_start_for(s, settings, black, black_name, white, white_name, nigiri, engines, ranks, NULL,
                          err, errlen);
}

live *game_start_for(server *s, const room_settings *settings, int64_t black, const char *black_name,
                     int64_t white, const char *white_name, const char *nigiri, const engine_spec engines[3],
                     const char *const ranks[3], const int64_t link[3], char *err, size_t errlen)
{
    char rank[3][12];
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        int64_t user = c == TG_BLACK ? black : white;
        if (ranks && ranks[c] && ranks[c][0])
            snprintf(rank[c], sizeof rank[c], "%s", ranks[c]);
        else if (!engines[c].name[0])
            ratings_rank_of(s, user, rank[c], sizeof rank[c]);
        else
            rank[c][0] = '\0';
    }
    store_game g;
    memset(&g, 0, sizeof g);
    if (!(g.id = nodes_take_id(s, 0))) {
        snprintf(err, errlen, "the server is short of game numbers for a moment: try again");
        return NULL;
    }
    g.black = black;
    g.white = white;
    snprintf(g.black_name, sizeof g.black_name, "%s", black_name);
    snprintf(g.white_name, sizeof g.white_name, "%s", white_name);
    snprintf(g.black_engine, sizeof g.black_engine, "%s", engines[TG_BLACK].name);
    snprintf(g.white_engine, sizeof g.white_engine, "%s", engines[TG_WHITE].name);
    snprintf(g.nigiri, sizeof g.nigiri, "%s", nigiri ? nigiri : "");
    g.created_unix_ms = server_unix_ms();
    json_t *wrap = json_pack("{s:o, s:{s:o, s:o}}", "settings", room_settings_to_json(settings),
                             "engines", "black", engine_spec_json(&engines[TG_BLACK]), "white",
                             engine_spec_json(&engines[TG_WHITE]));
    if (wrap && (rank[TG_BLACK][0] || rank[TG_WHITE][0]))
        json_object_set_new(wrap, "ranks", json_pack("{s:s, s:s}", "black", rank[TG_BLACK], "white",
                                                     rank[TG_WHITE]));
    if (wrap && link)
        json_object_set_new(wrap, "tournament", json_pack("{s:I, s:I, s:I}", "id", (json_int_t)link[0], "round",
                                                          (json_int_t)link[1], "board", (json_int_t)link[2]));
    g.settings_json = wrap ? json_dumps(wrap, JSON_COMPACT) : NULL;
    json_decref(wrap);
    room *r = g.settings_json ? room_new(g.id, settings) : NULL;
    live *lv = r ? game_live_new(s, r, g.created_unix_ms) : NULL;
    if (!lv || !batch_game_add(s, lv, &g)) {
        if (lv)
            imap_del(&s->lives, g.id), net_timer_free(lv->timer), free(lv);
        room_free(r);
        free(g.settings_json);
        snprintf(err, errlen, "cannot start the game");
        return NULL;
    }
    free(g.settings_json);
    fill_players(r, &g);
    memcpy(r->rank, rank, sizeof r->rank);
    if (link) {
        r->tour = link[0];
        r->tour_round = (int)link[1];
        r->tour_board = (int)link[2];
    }
    memcpy(lv->engine, engines, sizeof lv->engine);
    lv->home = true;
    lv->offset_ms = server_now_ms();
    lobby_broadcast(s, json_pack("{s:s, s:o}", "type", "lobby.update", "game",
                                 room_summary_json(r)), lv->dep);
    schedule(s, lv);
    ask_engine(s, lv);
    return lv;
}

/* ---- for the requests and the API ------------------------------------------------ */

void game_commit_and_announce(server *s, live *lv, const room_event *ev, room_result *res)
{
    int64_t at = game_now(lv);
    if (ev->kind != EV_CHAT)
        tick_if_due(s, lv, at);
    commit(s, lv, ev, at, res);
    if (!res->code)
        announce(s, lv, res);
}

json_t *game_state_message(const live *lv, tg_color you) { return state_message(lv, you); }

void game_release_if_idle(server *s, live *lv)
{
    if (lv->r->phase == ROOM_OVER && lv->watcher_count == 0 && !lv->release) {
        lv->release = true;
        if (!ptr_list_add(&s->releasing, lv))
            lv->release = false;
    }
}

/* Finished games nobody watches leave memory once their writes are
 * durable; the store keeps them, and the cache their final state. */
void games_release_durable(server *s)
{
    for (int i = s->releasing.count - 1; i >= 0; i--) {
        live *lv = s->releasing.items[i];
        if (lv->recovering || lv->dep > s->committed)
            continue; /* not yet */
        s->releasing.items[i] = s->releasing.items[--s->releasing.count];
        lv->release = false;
        if (lv->r->phase != ROOM_OVER || lv->watcher_count > 0)
            continue; /* watched again meanwhile */
        if (strcmp(lv->r->reason, "internal") != 0) {
            char *state = final_state_text(s, lv);
            if (state)
                cache_put(s, lv->r->id, state);
            free(state);
        }
        live_free(s, lv);
    }
}

json_t *game_state_public(server *s, live *lv)
{
    json_t *game = room_state_json(lv->r, TG_EMPTY, game_now(lv));
    add_presence(s, lv, game);
    json_object_del(game, "you");
    if (lv->r->phase != ROOM_OVER) { /* the spectators' channel stays theirs during play */
        json_t *chat = json_object_get(game, "chat");
        for (size_t i = json_array_size(chat); i-- > 0;) {
            const char *channel = json_string_value(json_object_get(json_array_get(chat, i), "channel"));
            if (channel && !strcmp(channel, "spectators"))
                json_array_remove(chat, i);
        }
    }
    return game;
}

const char *cache_get(server *s, int64_t game)
{
    for (int i = 0; i < 64; i++)
        if (s->cache[i].id == game && s->cache[i].state)
            return s->cache[i].state;
    return NULL;
}

void cache_put(server *s, int64_t game, const char *state)
{
    if (cache_get(s, game))
        return;
    char *copy = strdup(state);
    if (!copy)
        return;
    struct cached_game *slot = &s->cache[s->cache_next];
    s->cache_next = (s->cache_next + 1) % 64;
    free(slot->state);
    slot->id = game;
    slot->state = copy;
}

/* ---- finished games, read off the loop ------------------------------------------ */

typedef struct read_job {
    store_job job;
    stored_read r;
    stored_game_fn fn;
} read_job;

int stored_state_text(store *db, int64_t game, char **state)
{
    *state = NULL;
    int found = db->ops->game_state(db, game, state);
    if (found != 1)
        return found;
    /* finished before the state was kept (or unfinished): replayed */
    store_game g;
    found = db->ops->game_get(db, game, &g);
    if (found != 0)
        return found;
    room *r = game_replay(db, &g, NULL);
    store_game_clear(&g);
    if (!r)
        return -1;
    json_t *st = room_state_json(r, TG_EMPTY, r->last_at);
    json_object_del(st, "you");
    *state = json_dumps(st, JSON_COMPACT);
    json_decref(st);
    room_free(r);
    return *state ? 0 : -1;
}

static int run_read(store *db, store_job *job)
{
    read_job *j = (read_job *)job;
    j->r.found = stored_state_text(db, j->r.game, &j->r.state);
    return j->r.found < 0 ? -1 : 0;
}

static void read_done(void *ctx, store_job *job)
{
    server *s = ctx;
    read_job *j = (read_job *)job;
    if (job->rc != 0)
        j->r.found = -1;
    if (j->r.found == 0 && j->r.state)
        cache_put(s, j->r.game, j->r.state);
    j->fn(s, &j->r);
    free(j->r.state);
    free(j);
}

void game_read_stored(server *s, client *c, const proto_request *rq, int64_t game,
                      stored_game_fn fn)
{
    read_job *j = calloc(1, sizeof *j);
    if (!j) {
        stored_read r = {c->id, rq->has_id, rq->id, rq->type, game, -1, false, NULL};
        return fn(s, &r);
    }
    j->r.client = c->id;
    j->r.has_id = rq->has_id;
    j->r.id = rq->id;
    j->r.type = rq->type;
    j->r.game = game;
    const char *cached = cache_get(s, game);
    j->fn = fn;
    if (cached && (j->r.state = strdup(cached))) { /* no need to ask the store */
        j->r.found = 0;
        fn(s, &j->r);
        free(j->r.state);
        free(j);
        return;
    }
    j->job.run = run_read;
    j->job.done = read_done;
    s->store_reads++;
    store_async_submit(s->db, STORE_READ, &j->job);
}

json_t *game_summaries(server *s)
{
    json_t *a = json_array();
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->lives, &i, &id, &v);)
        if (((live *)v)->r->phase != ROOM_OVER)
            json_array_append_new(a, room_summary_json(((live *)v)->r));
    return a;
}

int game_engine_games_of(server *s, int64_t user)
{
    int going = 0;
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->lives, &i, &id, &v);) {
        const live *lv = v;
        if (lv->r->phase != ROOM_OVER && room_color_of(lv->r, user) != TG_EMPTY &&
            (lv->r->engine[TG_BLACK][0] || lv->r->engine[TG_WHITE][0]))
            going++;
    }
    return going;
}

void games_free(server *s)
{
    live *all[64];
    for (;;) {
        int n = 0;
        int64_t id;
        void *v;
        for (size_t i = 0; n < 64 && imap_next(&s->lives, &i, &id, &v);)
            all[n++] = v;
        if (!n)
            break;
        for (int i = 0; i < n; i++)
            live_free(s, all[i]);
    }
    imap_free(&s->lives);
    s->releasing.count = 0;
}
