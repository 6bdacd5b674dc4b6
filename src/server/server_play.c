/*
 * server_play.c — the game.* requests of docs/protocol.md: who may do
 * what, turned into room events for the registry (server_games.c);
 * watching and leaving.  Leaving never frees a game here: the registry
 * does, after the turn.
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static bool watching(const client *c, int64_t game)
{
    for (int i = 0; i < c->watch_count; i++)
        if (c->watching[i] == game)
            return true;
    return false;
}

static bool add_watcher(live *lv, client *c)
{
    if (!grow_array((void **)&c->watching, &c->watch_cap, c->watch_count, sizeof *c->watching) ||
        !grow_array((void **)&lv->watchers, &lv->watcher_cap, lv->watcher_count, sizeof *lv->watchers))
        return false;
    c->watching[c->watch_count++] = lv->r->id;
    lv->watchers[lv->watcher_count++] = c;
    return true;
}

static void remove_watcher(live *lv, client *c)
{
    for (int i = 0; i < lv->watcher_count; i++)
        if (lv->watchers[i] == c) {
            lv->watchers[i] = lv->watchers[--lv->watcher_count];
            break;
        }
    for (int k = 0; k < c->watch_count; k++)
        if (c->watching[k] == lv->r->id) {
            c->watching[k] = c->watching[--c->watch_count];
            break;
        }
}

static json_t *rq_error(const stored_read *r, const char *code, const char *message)
{
    json_t *msg = json_pack("{s:s, s:s, s:s}", "type", "error", "code", code, "message", message);
    if (r->has_id)
        json_object_set_new(msg, "id", json_integer(r->id));
    return msg;
}

/* A finished game's state once, read off the loop. */
static void watched_stored(server *s, stored_read *r)
{
    client *c = client_by_id(s, r->client);
    if (!c)
        return;
    if (r->found != 0) {
        send_json(c, r->found == 1 ? rq_error(r, "not_found", "no such game")
                                   : rq_error(r, "internal", "the server could not read the game: try again later"));
        return;
    }
    json_error_t e;
    json_t *state = json_loads(r->state, 0, &e);
    if (!state)
        return send_json(c, rq_error(r, "internal", "the server could not read the game"));
    const char *you = NULL;
    if (c->user && json_integer_value(json_object_get(json_object_get(state, "black"), "id")) == c->user)
        you = "black";
    else if (c->user && json_integer_value(json_object_get(json_object_get(state, "white"), "id")) == c->user)
        you = "white";
    json_object_set_new(state, "you", you ? json_string(you) : json_null());
    json_t *ok = json_pack("{s:s}", "type", "ok");
    if (r->has_id)
        json_object_set_new(ok, "id", json_integer(r->id));
    send_json(c, ok);
    send_json(c, json_pack("{s:s, s:o}", "type", "game.state", "game", state));
}

/* Reading a finished game costs the store: a budget per address. */
static bool read_allowed(server *s, client *c, const proto_request *rq)
{
    address *a = address_of(s, c->addr);
    if (cache_get(s, rq->game) || (a && take_token(&a->reads, server_now_ms(), 5, 20)))
        return true;
    send_error(c, rq, "rate_limited", "too many finished games read from your address: slow down");
    return false;
}

static void on_watch(server *s, client *c, const proto_request *rq)
{
    live *lv = live_get(s, rq->game);
    if (!lv && nodes_park_on_load(s, c, rq))
        return; /* made on another node a moment ago: judged once it is read */
    if (!lv) { /* a finished game: its state once, from the store */
        if (rq->game <= 0 || rq->game > s->next_game)
            return send_error(c, rq, "not_found", "no such game");
        if (read_allowed(s, c, rq))
            game_read_stored(s, c, rq, rq->game, watched_stored);
        return;
    }
    if (!watching(c, rq->game) && !add_watcher(lv, c))
        return send_error(c, rq, "internal", "out of memory");
    reply_ok(c, rq, NULL, lv->dep);
    live_ask(lv, c, rq);
    tg_color you = room_color_of(lv->r, c->user);
    if (you != TG_EMPTY && !lv->r->arrived[you] && lv->r->phase != ROOM_OVER && !lv->recovering) {
        room_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = EV_ARRIVE;
        ev.color = you;
        room_result res;
        game_commit_and_announce(s, lv, &ev, &res);
    }
    send_json_after(c, game_state_message(lv, you), lv->dep);
}

static void on_unwatch(server *s, client *c, const proto_request *rq)
{
    live *lv = live_get(s, rq->game);
    if (lv && watching(c, rq->game)) {
        remove_watcher(lv, c);
        game_release_if_idle(s, lv);
    }
    send_ok(c, rq, NULL);
}

void game_client_gone(server *s, client *c)
{
    while (c->watch_count > 0) {
        live *lv = live_get(s, c->watching[c->watch_count - 1]);
        if (!lv) {
            c->watch_count--;
            continue;
        }
        remove_watcher(lv, c);
        game_release_if_idle(s, lv);
    }
}

static bool read_vertex(const live *lv, const char *text, tg_point *p)
{
    return tg_vertex_parse(tg_game_board(lv->r->game), text, p) == TG_OK;
}

/* A claim (R8 online): against an opponent gone for the absence delay
 * while no clock can decide (an untimed game, stone removal, a pause). */
static bool claim_allowed(server *s, const live *lv, tg_color you)
{
    const room *r = lv->r;
    tg_color other = tg_opponent(you);
    bool no_clock = r->settings.time.system == TG_CLOCK_NONE || r->phase == ROOM_REMOVAL || r->paused ||
                    r->phase == ROOM_OPENING || r->phase == ROOM_PREDICTION;
    if (!no_clock || r->engine[other][0])
        return false;
    account *a = account_of(s, r->user[other]);
    int64_t gone = a ? (a->connections > 0 ? -1 : a->gone_since_ms) : 0;
    if (gone < 0)
        return false;
    if (!a) /* never seen since the server started: count from the game's last event */
        return lv->r->settings.absence_ms <= server_now_ms() - lv->offset_ms - r->last_at;
    return server_now_ms() - gone >= r->settings.absence_ms;
}

/* Build the room event a request asks for; false with an answer sent. */
static bool event_of(server *s, client *c, const proto_request *rq, live *lv, room_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->color = room_color_of(lv->r, c->user);
    if (rq->type != P_CHAT && ev->color == TG_EMPTY) {
        send_error(c, rq, "forbidden", "only the game's players may do that");
        return false;
    }
    switch (rq->type) {
    case P_MOVE:
        ev->kind = EV_MOVE;
        ev->own = rq->own;
        if (!read_vertex(lv, rq->move, &ev->point)) {
            send_error(c, rq, "bad_request", "not a vertex of this board");
            return false;
        }
        if (rq->has_n && rq->n != tg_game_move_count(lv->r->game) + 1) {
            send_error(c, rq, "not_your_turn", "that move was meant for another position");
            return false;
        }
        return true;
    case P_PLACE: {
        ev->kind = EV_PLACE;
        if (!room_points_from_json(lv->r, rq->points, ev->points, ROOM_MAX_HANDICAP, &ev->npoints)) {
            send_error(c, rq, "bad_request", "points: a list of vertices");
            return false;
        }
        return true;
    }
    case P_RESIGN: ev->kind = EV_RESIGN; return true;
    case P_TOGGLE:
        ev->kind = EV_TOGGLE;
        if (!read_vertex(lv, rq->point, &ev->point) || ev->point == TG_PASS) {
            send_error(c, rq, "bad_request", "not a vertex of this board");
            return false;
        }
        return true;
    case P_ACCEPT: ev->kind = EV_ACCEPT; return true;
    case P_CONCEDE: ev->kind = EV_CONCEDE; return true;
    case P_REQUEST:
    case P_ANSWER:
        ev->kind = rq->type == P_REQUEST ? EV_REQUEST : EV_ANSWER;
        ev->accept = rq->accept;
        if (!room_request_parse(rq->what, &ev->what)) {
            send_error(c, rq, "bad_request", "what: undo, pause or resume");
            return false;
        }
        return true;
    case P_CANCEL:
        if (lv->r->tour) { /* a pairing is the organiser's to undo */
            send_error(c, rq, "forbidden", "a tournament game cannot be cancelled: ask the organiser");
            return false;
        }
        ev->kind = EV_CANCEL;
        return true;
    case P_PREDICT:
        ev->kind = EV_PREDICT;
        if (tg_prediction_parse(rq->prediction, &ev->prediction2) != TG_OK) {
            send_error(c, rq, "bad_request",
                       "prediction: W+N, B+N or 0 (N stones of difference, halves allowed)");
            return false;
        }
        return true;
    case P_CLAIM:
        ev->kind = EV_CLAIM;
        if (!claim_allowed(s, lv, ev->color)) {
            send_error(c, rq, "wrong_phase",
                       "a claim needs an opponent gone for the absence delay while no clock runs");
            return false;
        }
        return true;
    case P_CHAT: {
        size_t n = strlen(rq->text);
        if (n == 0 || n > 500) {
            send_error(c, rq, "bad_request", "a chat line is 1 to 500 bytes");
            return false;
        }
        ev->kind = EV_CHAT;
        snprintf(ev->from, sizeof ev->from, "%s", c->name);
        snprintf(ev->text, sizeof ev->text, "%s", rq->text);
        return true;
    }
    default:
        send_error(c, rq, "bad_request", "unknown request");
        return false;
    }
}

void game_chat_broadcast(live *lv, const room_event *ev, client *also)
{
    json_t *msg = json_pack("{s:s, s:I, s:s, s:s, s:s, s:I}", "type", "game.chat", "game",
                            (json_int_t)lv->r->id, "channel", ev->color ? "players" : "spectators",
                            "from", ev->from, "text", ev->text, "at", (json_int_t)server_unix_ms());
    for (int i = 0; i < lv->watcher_count; i++) {
        client *w = lv->watchers[i];
        if (ev->color || room_color_of(lv->r, w->user) == TG_EMPTY)
            send_json_after(w, json_incref(msg), lv->dep);
    }
    if (also)
        send_json_after(also, json_incref(msg), lv->dep);
    json_decref(msg);
}

void game_handle(server *s, client *c, const proto_request *rq)
{
    if (rq->type == P_WATCH)
        return on_watch(s, c, rq);
    if (rq->type == P_UNWATCH)
        return on_unwatch(s, c, rq);
    live *lv = live_get(s, rq->game);
    if (!lv && nodes_park_on_load(s, c, rq))
        return;
    if (!lv) { /* ids are given in order: one not live was finished, or never made */
        if (rq->game <= 0 || rq->game > s->next_game)
            return send_error(c, rq, "not_found", "no such game");
        return send_error(c, rq, "wrong_phase", "the game is over");
    }
    if (lv->recovering && s->listen && !s->store_failing && waiting_park(&lv->wait, c, rq))
        return; /* another node wrote first and the room is read again (a few ms):
                   the request is judged on the game as it is then */
    if (lv->recovering)
        return send_error(c, rq, "unavailable",
                          "the server is rebuilding this game after a failed write: try again in a moment");
    if (lv->estimating && (rq->type == P_TOGGLE || rq->type == P_ACCEPT || rq->type == P_CONCEDE))
        return send_error(c, rq, "unavailable",
                          "the server is still estimating the dead stones: try again in a moment");
    room_event *ev = malloc(sizeof *ev);
    if (!ev)
        return send_error(c, rq, "internal", "out of memory");
    if (event_of(s, c, rq, lv, ev)) {
        room_result res;
        game_commit_and_announce(s, lv, ev, &res);
        if (res.code) {
            reply_error(c, rq, room_error_code(res.code), res.message, lv->dep);
            live_ask(lv, c, rq);
        } else {
            json_t *fields = NULL;
            if (ev->kind == EV_MOVE)
                fields = json_pack("{s:i}", "n", tg_game_move_count(lv->r->game));
            reply_ok(c, rq, fields, lv->dep);
            live_ask(lv, c, rq);
            if (ev->kind == EV_CHAT)
                game_chat_broadcast(lv, ev, watching(c, lv->r->id) ? NULL : c);
        }
    }
    free(ev);
}
