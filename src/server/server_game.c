/*
 * server_game.c — live games: every change is an event that the room
 * judges (room_apply), the store commits, and only then the players and
 * spectators hear of; the clock's deadlines are timers on the loop; an
 * engine's move is asked of the engine pool and comes back as an event
 * like a person's.  At start, unfinished games are rebuilt by replaying
 * their events; the game time an outage took is not counted (README).
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "tengen/gtp.h"

static void schedule(server *s, live *lv);
static void ask_engine(server *s, live *lv);
static void swap_commands(live *lv);

live *live_get(server *s, int64_t game)
{
    return game > 0 && game < s->lives_cap ? s->lives[game] : NULL;
}

static bool live_put(server *s, live *lv)
{
    int64_t id = lv->r->id;
    if (id >= s->lives_cap) {
        int64_t cap = s->lives_cap ? s->lives_cap : 64;
        while (cap <= id)
            cap *= 2;
        live **grown = realloc(s->lives, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        memset(grown + s->lives_cap, 0, (size_t)(cap - s->lives_cap) * sizeof *grown);
        s->lives = grown;
        s->lives_cap = cap;
    }
    s->lives[id] = lv;
    return true;
}

static void live_free(server *s, live *lv)
{
    if (live_get(s, lv->r->id) == lv)
        s->lives[lv->r->id] = NULL;
    for (int i = 0; i < lv->watcher_count; i++) {
        client *c = lv->watchers[i];
        for (int k = 0; k < c->watch_count; k++)
            if (c->watching[k] == lv->r->id)
                c->watching[k] = c->watching[--c->watch_count];
    }
    net_timer_free(lv->timer);
    room_free(lv->r);
    free(lv->watchers);
    free(lv);
}

static int64_t game_now(const live *lv) { return server_now_ms() - lv->offset_ms; }

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
}

static json_t *state_message(const live *lv, tg_color you)
{
    json_t *game = room_state_json(lv->r, you, game_now(lv));
    add_presence(lv->srv, lv, game);
    return json_pack("{s:s, s:o}", "type", "game.state", "game", game);
}

/* One serialisation per point of view: black, white, spectators. */
static void broadcast_state(live *lv)
{
    net_msg *views[3] = {NULL, NULL, NULL};
    for (int i = 0; i < lv->watcher_count; i++) {
        client *c = lv->watchers[i];
        tg_color you = room_color_of(lv->r, c->user);
        if (!views[you])
            views[you] = msg_of(state_message(lv, you));
        if (views[you])
            net_send(c->conn, views[you]);
    }
    for (int i = 0; i < 3; i++)
        net_msg_unref(views[i]);
}

static void broadcast(live *lv, json_t *j, bool spectators_only)
{
    net_msg *m = msg_of(j);
    if (!m)
        return;
    for (int i = 0; i < lv->watcher_count; i++) {
        client *c = lv->watchers[i];
        if (!spectators_only || room_color_of(lv->r, c->user) == TG_EMPTY)
            net_send(c->conn, m);
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
    broadcast(lv, msg, false);
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

static bool finish_in_store(server *s, live *lv)
{
    char re[32], date[16];
    tg_result_to_sgf(tg_game_result(lv->r->game), re, sizeof re);
    char *sgf = room_sgf(lv->r, date_text(lv->created_unix_ms, date, sizeof date));
    bool ok = s->db->ops->game_finish(s->db, lv->r->id, re, tg_game_move_count(lv->r->game),
                                      sgf ? sgf : "") == 0 &&
              (!room_seats_swapped(lv->r) || s->db->ops->game_swap_colors(s->db, lv->r->id) == 0);
    if (!ok && !s->cfg.quiet)
        fprintf(stderr, "tengen serve: game %lld: cannot record the result: %s\n",
                (long long)lv->r->id, s->db->ops->error(s->db));
    free(sgf);
    return ok;
}

static void propose_dead(server *s, live *lv, int64_t at, room_result *res);

/* Apply and commit one event; res says what happened.  When the store
 * fails, the room is rebuilt from what was committed and the event is
 * refused as the server's fault. */
static bool rebuild_room(server *s, live *lv);
static void commit(server *s, live *lv, const room_event *ev, int64_t at, room_result *res)
{
    bool swapped = room_seats_swapped(lv->r);
    room_apply(lv->r, ev, at, res);
    if (res->code)
        return;
    if (room_seats_swapped(lv->r) != swapped)
        swap_commands(lv);
    json_t *data = room_event_to_json(lv->r, ev);
    char *text = data ? json_dumps(data, JSON_COMPACT) : NULL;
    json_decref(data);
    store_event se = {lv->r->seq, at, "", text};
    snprintf(se.kind, sizeof se.kind, "%s", room_event_kind_name(ev->kind));
    live_touch(s, lv);
    int rc = text && store_write_begin(s) ? s->db->ops->event_add(s->db, lv->r->id, &se) : -1;
    free(text);
    if (rc != 0) {
        if (!s->cfg.quiet)
            fprintf(stderr, "tengen serve: game %lld: cannot store an event: %s\n",
                    (long long)lv->r->id, s->db->ops->error(s->db));
        games_rollback(s);
        memset(res, 0, sizeof *res);
        res->code = ROOM_ERR_INTERNAL;
        snprintf(res->message, sizeof res->message, "the server could not record it");
        return;
    }
    if (ev->kind != EV_CHAT && ev->kind != EV_ARRIVE)
        lv->epoch++;
    if (res->needs_proposal)
        propose_dead(s, lv, at, res);
    if (!res->code && res->ended && !finish_in_store(s, lv)) {
        games_rollback(s); /* the turn is undone as a whole, the result with it */
        memset(res, 0, sizeof *res);
        res->code = ROOM_ERR_INTERNAL;
        snprintf(res->message, sizeof res->message, "the server could not record it");
    }
}

/* Stone removal begins: the library's estimate is the proposal (an event,
 * so that a rebuilt game shows the same even if the estimate changes). */
static void propose_dead(server *s, live *lv, int64_t at, room_result *res)
{
    const room *r = lv->r;
    uint8_t dead[TG_MAX_POINTS];
    /* the position's own estimate, the one `tengen score`, GTP final_score
     * and the referee give for it (about 33 ms on a 19x19 board mid-game,
     * on the loop: a worker thread would be kinder under load) */
    tg_game_estimate_dead(r->game, 0, 0, dead);
    room_event *ev = calloc(1, sizeof *ev);
    if (!ev)
        return;
    ev->kind = EV_PROPOSAL;
    const tg_board *b = tg_game_board(r->game);
    for (tg_point p = 0; p < b->npoints; p++)
        if (dead[p] && tg_on_board(b, p) && tg_board_at(b, p) != TG_EMPTY)
            ev->points[ev->npoints++] = p;
    room_result sub;
    commit(s, lv, ev, at, &sub);
    free(ev);
    if (sub.code) { /* the store failed: the whole turn was rolled back */
        *res = sub;
        return;
    }
    res->state_changed = true;
    res->ended |= sub.ended;
}

/* After a change: tell the watchers, the lobby when the game ended, set
 * the timer, and ask the engine when it is its move. */
static void announce(server *s, live *lv, const room_result *res)
{
    if (res->played && !res->state_changed)
        broadcast_move(lv);
    else if (res->played || res->state_changed || res->ended)
        broadcast_state(lv);
    if (res->ended)
        lobby_broadcast(s, json_pack("{s:s, s:o}", "type", "lobby.update", "game",
                                     room_summary_json(lv->r)));
    schedule(s, lv);
    ask_engine(s, lv);
}

/* The deadline due before anything else is judged: a move arriving after
 * the clock ran out finds the game already lost on time. */
static void tick_if_due(server *s, live *lv, int64_t at)
{
    if (!room_tick_due(lv->r, at))
        return;
    room_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = EV_TICK;
    room_result res;
    commit(s, lv, &ev, at, &res);
    if (!res.code)
        announce(s, lv, &res);
}

static void on_timer(void *arg)
{
    live *lv = arg;
    tick_if_due(lv->srv, lv, game_now(lv));
    schedule(lv->srv, lv);
    ask_engine(lv->srv, lv); /* also the retry of an engine move the full queue refused */
}

static void schedule(server *s, live *lv)
{
    (void)s;
    int64_t deadline = room_next_deadline(lv->r);
    if (deadline == INT64_MAX)
        net_timer_cancel(lv->timer);
    else
        net_timer_set(lv->timer, deadline - game_now(lv));
}

/* ---- engines ------------------------------------------------------------------ */

static char *engine_setup(const room *r, bool tengen)
{
    const tg_board *b = tg_game_board(r->game);
    size_t cap = 256 + 32 * (size_t)(tg_game_move_count(r->game) + tg_game_setup_count(r->game));
    char *text = malloc(cap + sizeof r->settings.rules_text);
    if (!text)
        return NULL;
    char komi[16];
    /* the komi in force (under free-opening the threshold's), after the
     * rules, whose preset would set its own */
    tg_komi_format(tg_game_rules(r->game)->komi2, komi, sizeof komi);
    size_t n = (size_t)sprintf(text, "boardsize %d\nclear_board\n", b->size);
    if (tengen)
        n += (size_t)sprintf(text + n, "tengen-rules %s\n", r->settings.rules_text);
    n += (size_t)sprintf(text + n, "komi %s\n", komi);
    if (tengen && room_revealed(r)) {
        char first[16], second[16];
        tg_prediction_format(r->prediction2[0], first, sizeof first);
        tg_prediction_format(r->prediction2[1], second, sizeof second);
        n += (size_t)sprintf(text + n, "tengen-predictions %s %s\n", first, second);
    }
    if (tg_game_setup_count(r->game) > 0) {
        n += (size_t)sprintf(text + n, "set_free_handicap");
        for (int i = 0; i < tg_game_setup_count(r->game); i++) {
            char v[8];
            tg_point_to_vertex(b, tg_game_setup_at(r->game, i)->point, v);
            n += (size_t)sprintf(text + n, " %s", v);
        }
        text[n++] = '\n';
    }
    for (int i = 0; i < tg_game_move_count(r->game); i++) {
        const tg_move *m = tg_game_move(r->game, i);
        tg_gtp_move_command(b, m->color, m->point, tg_game_move_captured_own(r->game, i) ? TG_PLAY_CAPTURE_OWN : 0,
                            text + n, 32);
        n += strlen(text + n);
        text[n++] = '\n';
    }
    text[n] = '\0';
    return text;
}

static void ask_engine(server *s, live *lv)
{
    room *r = lv->r;
    if (r->phase == ROOM_PLACEMENT && r->engine[TG_BLACK][0]) {
        /* an engine places free handicap stones where fixed ones go */
        room_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = EV_PLACE;
        ev.color = TG_BLACK;
        ev.npoints = tg_fixed_handicap_points(tg_game_board(r->game), r->settings.handicap,
                                              ev.points);
        room_result res;
        commit(s, lv, &ev, game_now(lv), &res);
        if (!res.code)
            return announce(s, lv, &res);
        return; /* the store failed: lv->r was rebuilt */
    }
    r = lv->r;
    tg_color c = room_engine_to_move(r);
    if (c == TG_EMPTY || lv->engine_asked || s->stopping)
        return;
    engine_job *job = calloc(1, sizeof *job);
    if (!job)
        return;
    job->game = r->id;
    job->epoch = lv->epoch;
    snprintf(job->command, sizeof job->command, "%s", lv->engine_command[c]);
    snprintf(job->name, sizeof job->name, "%s", r->engine[c]);
    job->setup = engine_setup(r, strcmp(r->engine[c], "tengen") == 0);
    job->predict = room_engine_predicts(r);
    if (job->predict) /* komi 0 until the reveal: final_score is then the count difference */
        snprintf(job->genmove, sizeof job->genmove, "%s",
                 strcmp(r->engine[c], "tengen") == 0 ? "tengen-predict" : "final_score");
    else /* an opening stone has the colour of its number, whoever places it; tengen
            may take the capture choice where the opponent can be told it */
        snprintf(job->genmove, sizeof job->genmove, "%s %c",
                 room_opening_placer(r) == TG_EMPTY && tg_game_rules(r->game)->capture_choice &&
                         strcmp(r->engine[c], "tengen") == 0 && !room_engine_lacks_choice(r, tg_opponent(c))
                     ? "tengen-genmove_choice"
                     : "genmove",
                 (room_opening_placer(r) == TG_EMPTY ? c : tg_game_to_move(r->game)) == TG_BLACK ? 'b' : 'w');
    job->timeout_ms = 180000;
    if (!job->setup || !engine_pool_submit(s->engines, job)) {
        engine_job_free(job);
        net_timer_set(lv->timer, 1000); /* the queue is full: ask again in a second */
        return;
    }
    lv->engine_asked = true;
}

/* An engine's sealed prediction: tengen-predict's answer, else the margin
 * of final_score (komi 0), else "0"; an engine that failed loses. */
static void engine_prediction(const engine_job *job, room_event *ev)
{
    ev->kind = job->ok ? EV_PREDICT : EV_RESIGN;
    if (job->ok && tg_prediction_from_engine(job->move, &ev->prediction2) != TG_OK)
        ev->prediction2 = 0;
}

/* An engine's answer as a move: a vertex, "VERTEX own" where
 * tengen-genmove_choice asked; false for resign or garbage. */
static bool engine_move(const room *r, const engine_job *job, room_event *ev)
{
    unsigned flags;
    bool choice = !strncmp(job->genmove, "tengen-genmove_choice", 21);
    if (tg_move_parse(tg_game_board(r->game), job->move, choice, &ev->point, &flags) != TG_OK)
        return false; /* resign, or not a move */
    ev->own = flags & TG_PLAY_CAPTURE_OWN;
    return true;
}

void game_engine_answers(server *s)
{
    engine_job *job;
    if (!s->engines)
        return;
    while ((job = engine_pool_done(s->engines))) {
        live *lv = live_get(s, job->game);
        if (lv)
            lv->engine_asked = false;
        if (!lv || job->epoch != lv->epoch || room_engine_to_move(lv->r) == TG_EMPTY) {
            if (lv)
                ask_engine(s, lv);
            engine_job_free(job);
            continue;
        }
        room_event ev;
        memset(&ev, 0, sizeof ev);
        ev.color = room_engine_to_move(lv->r);
        ev.kind = EV_MOVE;
        if (job->predict != room_engine_predicts(lv->r)) {
            ask_engine(s, lv);
            engine_job_free(job);
            continue;
        }
        if (job->predict)
            engine_prediction(job, &ev);
        else if (!job->ok || !engine_move(lv->r, job, &ev))
            ev.kind = EV_RESIGN; /* an engine that fails or resigns loses */
        int64_t at = game_now(lv);
        tick_if_due(s, lv, at);
        room_result res;
        commit(s, lv, &ev, at, &res);
        if (res.code == ROOM_ERR_ILLEGAL) { /* an illegal move from an engine forfeits */
            ev.kind = EV_RESIGN;
            commit(s, lv, &ev, at, &res);
        }
        if (!res.code)
            announce(s, lv, &res);
        engine_job_free(job);
    }
}

/* ---- starting and rebuilding ----------------------------------------------------- */

static live *live_new(server *s, room *r, int64_t created_unix_ms)
{
    live *lv = calloc(1, sizeof *lv);
    if (!lv)
        return NULL;
    lv->r = r;
    lv->srv = s;
    lv->created_unix_ms = created_unix_ms;
    lv->timer = net_timer_new(s->net, on_timer, lv);
    if (!lv->timer || !live_put(s, lv)) {
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

static void swap_commands(live *lv)
{
    char command[512];
    memcpy(command, lv->engine_command[TG_BLACK], sizeof command);
    memcpy(lv->engine_command[TG_BLACK], lv->engine_command[TG_WHITE], sizeof command);
    memcpy(lv->engine_command[TG_WHITE], command, sizeof command);
}

/* A room from its stored game and events; engine commands into cmd. */
static room *replay(server *s, const store_game *g, char cmd[3][512])
{
    json_error_t e;
    json_t *wrap = json_loads(g->settings_json, 0, &e);
    room_settings st;
    char err[200];
    json_t *settings = json_object_get(wrap, "settings"), *engines = json_object_get(wrap, "engines");
    room *r = NULL;
    if (wrap && room_settings_from_json(settings, &st, err, sizeof err))
        r = room_new(g->id, &st);
    if (r) {
        fill_players(r, g);
        const char *b = json_string_value(json_object_get(engines, "black"));
        const char *w = json_string_value(json_object_get(engines, "white"));
        if (cmd) {
            snprintf(cmd[TG_BLACK], 512, "%s", b ? b : "");
            snprintf(cmd[TG_WHITE], 512, "%s", w ? w : "");
        }
    }
    json_decref(wrap);
    if (!r)
        return NULL;
    store_event *events = NULL;
    int count = 0;
    if (s->db->ops->events(s->db, g->id, &events, &count) != 0) {
        store_events_free(events, count);
        room_free(r);
        return NULL;
    }
    room_event *ev = malloc(sizeof *ev);
    for (int i = 0; ev && i < count; i++) {
        room_event_kind kind;
        json_t *data = json_loads(events[i].data_json, 0, &e);
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

static bool rebuild_room(server *s, live *lv)
{
    store_game g;
    room *r = NULL;
    if (s->db->ops->game_get(s->db, lv->r->id, &g) == 0) {
        r = replay(s, &g, NULL);
        store_game_clear(&g);
    }
    if (!r) { /* the game itself was not committed: it never was */
        tg_game_no_result(lv->r->game);
        lv->r->phase = ROOM_OVER;
        snprintf(lv->r->reason, sizeof lv->r->reason, "internal");
        return false;
    }
    if (room_seats_swapped(r) != room_seats_swapped(lv->r)) /* the reveal was not committed */
        swap_commands(lv);
    room_free(lv->r);
    lv->r = r;
    return true;
}

void live_touch(server *s, live *lv)
{
    if (!lv->touched && ptr_list_add(&s->touched, lv))
        lv->touched = true;
}

void games_rollback(server *s)
{
    if (s->in_transaction)
        s->db->ops->rollback(s->db);
    s->in_transaction = false;
    net_drop_unreleased(s->net);
    for (int i = 0; i < s->touched.count; i++) {
        live *lv = s->touched.items[i];
        lv->touched = false;
        rebuild_room(s, lv);
        lv->engine_asked = false;
        lv->epoch++;
        schedule(s, lv);
        broadcast_state(lv);
    }
    s->touched.count = 0;
}

bool games_restore(server *s, char *err, size_t errlen)
{
    store_game *games = NULL;
    int count = 0;
    if (s->db->ops->games_list(s->db, false, 0, 0, &games, &count) != 0) {
        snprintf(err, errlen, "cannot read the games: %s", s->db->ops->error(s->db));
        store_games_free(games, count);
        return false;
    }
    for (int i = 0; i < count; i++) {
        char cmd[3][512] = {"", "", ""};
        room *r = replay(s, &games[i], cmd);
        live *lv = r ? live_new(s, r, games[i].created_unix_ms) : NULL;
        if (!lv) {
            room_free(r);
            continue;
        }
        memcpy(lv->engine_command, cmd, sizeof cmd);
        if (room_seats_swapped(r)) /* the stored commands are the opening's seats */
            swap_commands(lv);
        /* the game's clock goes on from its last event: an outage is not
         * counted against anyone */
        lv->offset_ms = server_now_ms() - r->last_at;
        schedule(s, lv);
        ask_engine(s, lv);
    }
    store_games_free(games, count);
    return true;
}

live *game_start(server *s, const room_settings *settings, int64_t black, const char *black_name,
                 int64_t white, const char *white_name, const char *nigiri,
                 const char *engine_name[3], const char *engine_command[3], char *err,
                 size_t errlen)
{
    store_game g;
    memset(&g, 0, sizeof g);
    g.black = black;
    g.white = white;
    snprintf(g.black_name, sizeof g.black_name, "%s", black_name);
    snprintf(g.white_name, sizeof g.white_name, "%s", white_name);
    snprintf(g.black_engine, sizeof g.black_engine, "%s", engine_name[TG_BLACK] ? engine_name[TG_BLACK] : "");
    snprintf(g.white_engine, sizeof g.white_engine, "%s", engine_name[TG_WHITE] ? engine_name[TG_WHITE] : "");
    snprintf(g.nigiri, sizeof g.nigiri, "%s", nigiri ? nigiri : "");
    g.created_unix_ms = server_unix_ms();
    json_t *wrap = json_pack("{s:o, s:{s:s, s:s}}", "settings", room_settings_to_json(settings),
                             "engines", "black",
                             engine_command[TG_BLACK] ? engine_command[TG_BLACK] : "", "white",
                             engine_command[TG_WHITE] ? engine_command[TG_WHITE] : "");
    g.settings_json = wrap ? json_dumps(wrap, JSON_COMPACT) : NULL;
    json_decref(wrap);
    int rc = g.settings_json && store_write_begin(s) ? s->db->ops->game_add(s->db, &g) : -1;
    free(g.settings_json);
    room *r = rc == 0 ? room_new(g.id, settings) : NULL;
    live *lv = r ? live_new(s, r, g.created_unix_ms) : NULL;
    if (!lv) {
        room_free(r);
        snprintf(err, errlen, "cannot start the game");
        return NULL;
    }
    fill_players(r, &g);
    live_touch(s, lv);
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        snprintf(lv->engine_command[c], sizeof lv->engine_command[c], "%s",
                 engine_command[c] ? engine_command[c] : "");
    lv->offset_ms = server_now_ms();
    lobby_broadcast(s, json_pack("{s:s, s:o}", "type", "lobby.update", "game",
                                 room_summary_json(r)));
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

/* A finished game leaves memory when its last watcher does; the store
 * keeps it. */
void game_release_if_idle(server *s, live *lv)
{
    if (lv->r->phase == ROOM_OVER && lv->watcher_count == 0)
        live_free(s, lv);
}

static room *stored_room(server *s, int64_t id, int64_t *created)
{
    store_game g;
    if (id <= 0 || s->db->ops->game_get(s->db, id, &g) != 0)
        return NULL;
    room *r = replay(s, &g, NULL);
    *created = g.created_unix_ms;
    store_game_clear(&g);
    return r;
}

json_t *game_state_any(server *s, int64_t id)
{
    live *lv = live_get(s, id);
    if (lv) {
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
    int64_t created;
    room *r = stored_room(s, id, &created);
    if (!r)
        return NULL;
    json_t *state = room_state_json(r, TG_EMPTY, r->last_at);
    json_object_del(state, "you");
    room_free(r);
    return state;
}

char *game_sgf_any(server *s, int64_t id)
{
    char date[16];
    live *lv = live_get(s, id);
    if (lv)
        return room_sgf(lv->r, date_text(lv->created_unix_ms, date, sizeof date));
    char *sgf = NULL;
    if (id > 0 && s->db->ops->game_sgf(s->db, id, &sgf) == 0 && sgf && sgf[0])
        return sgf;
    free(sgf);
    int64_t created;
    room *r = stored_room(s, id, &created);
    if (!r)
        return NULL;
    sgf = room_sgf(r, date_text(created, date, sizeof date));
    room_free(r);
    return sgf;
}

json_t *game_summaries(server *s)
{
    json_t *a = json_array();
    for (int64_t id = 1; id < s->lives_cap; id++)
        if (s->lives[id] && s->lives[id]->r->phase != ROOM_OVER)
            json_array_append_new(a, room_summary_json(s->lives[id]->r));
    return a;
}

void games_free(server *s)
{
    for (int64_t id = 1; id < s->lives_cap; id++)
        if (s->lives[id])
            live_free(s, s->lives[id]);
    free(s->lives);
    s->lives = NULL;
    s->lives_cap = 0;
}
