/*
 * fuzz_server.c — the server's message parser and game logic under a
 * fuzzer.  The input is lines of client messages (docs/protocol.md); each
 * goes through proto_parse as the server's loop gives it; settings go
 * through room_settings_from_json; game requests become room events
 * applied to one 9x9 game, alternately by Black and White (and a
 * spectator), at increasing times.  After each, the game's state and its
 * SGF record must be writable, the record must load back with the game's
 * moves, and the stored form of every applied event must read back.
 * An input that opens with an empty line is played under the free-opening
 * ruleset, where no state a player or a spectator is sent may hold the
 * other player's prediction before both are sealed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/proto.h"
#include "server/room.h"

static void check_record(const room *r)
{
    json_t *st = room_state_json(r, TG_BLACK, r->last_at);
    if (!st)
        abort();
    json_decref(st);
    char *sgf = room_sgf(r, "2026-12-05");
    if (!sgf)
        abort();
    tg_game *g = NULL;
    tg_sgf_error err;
    if (tg_sgf_load_game(sgf, strlen(sgf), -1, &g, NULL, &err) != TG_OK)
        abort();
    if (tg_game_move_count(g) != tg_game_move_count(r->game))
        abort();
    tg_game_free(g);
    free(sgf);
}

/* 002 §5.3: sealed means sealed. */
static void check_sealed(const room *r)
{
    if (room_revealed(r))
        return;
    for (tg_color viewer = TG_EMPTY; viewer <= TG_WHITE; viewer++) {
        json_t *st = room_state_json(r, viewer, r->last_at);
        json_t *fo = json_object_get(st, "free_opening");
        json_t *mine = json_object_get(fo, "mine");
        int seat = viewer == room_first_colour(r) ? 0 : 1;
        if (!json_is_null(json_object_get(fo, "predictions")) ||
            (!json_is_null(mine) && (viewer == TG_EMPTY || !r->predicted[seat])))
            abort();
        json_decref(st);
    }
}

static bool event_of(const room *r, const proto_request *rq, room_event *ev)
{
    const tg_board *b = tg_game_board(r->game);
    switch (rq->type) {
    case P_MOVE:
        ev->kind = EV_MOVE;
        ev->own = rq->own;
        return tg_vertex_parse(b, rq->move, &ev->point) == TG_OK;
    case P_TOGGLE:
        ev->kind = EV_TOGGLE;
        return tg_vertex_parse(b, rq->point, &ev->point) == TG_OK && ev->point != TG_PASS;
    case P_RESIGN: ev->kind = EV_RESIGN; return true;
    case P_ACCEPT: ev->kind = EV_ACCEPT; return true;
    case P_CONCEDE: ev->kind = EV_CONCEDE; return true;
    case P_CANCEL: ev->kind = EV_CANCEL; return true;
    case P_REQUEST:
    case P_ANSWER:
        ev->kind = rq->type == P_REQUEST ? EV_REQUEST : EV_ANSWER;
        ev->accept = rq->accept;
        return room_request_parse(rq->what, &ev->what);
    case P_CHAT:
        ev->kind = EV_CHAT;
        strncpy(ev->text, rq->text, sizeof ev->text - 1);
        strcpy(ev->from, "fuzz");
        return true;
    case P_WATCH: ev->kind = EV_ARRIVE; return true;
    case P_CLAIM: ev->kind = EV_TICK; return true;
    case P_PREDICT:
        ev->kind = EV_PREDICT;
        return tg_prediction_parse(rq->prediction, &ev->prediction2) == TG_OK;
    default: return false;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    room_settings st;
    char err[256];
    room_settings_from_json(NULL, &st, err, sizeof err);
    st.size = 9;
    st.time.system = TG_CLOCK_BYOYOMI;
    st.time.main_ms = 2000;
    st.time.periods = 2;
    st.time.period_ms = 1000;
    bool free_opening = size > 0 && data[0] == '\n';
    if (free_opening) {
        tg_rules_preset(&st.rules, "free-opening");
        strcpy(st.rules_text, "free-opening");
        st.prediction_ms = tg_prediction_time_ms(&st.time);
    }
    room *r = room_new(1, &st);
    room *copy = room_new(1, &st);
    room_event *ev = malloc(sizeof *ev), *back = malloc(sizeof *back);
    if (!r || !copy || !ev || !back)
        abort();
    int64_t at = 0;
    int turn = 0;
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && data[i] != '\n')
            continue;
        proto_request rq;
        if (proto_parse((const char *)data + start, i - start, &rq, err, sizeof err) == 0) {
            if (rq.settings) {
                room_settings other;
                room_settings_from_json(rq.settings, &other, err, sizeof err);
            }
            memset(ev, 0, sizeof *ev);
            ev->color = (tg_color)(turn++ % 3);
            if (event_of(r, &rq, ev)) {
                at += rq.has_n ? rq.n % 5000 : 700;
                room_result res;
                room_apply(r, ev, at, &res);
                if (res.code == 0) {
                    json_t *stored = room_event_to_json(r, ev);
                    if (!room_event_from_json(copy, ev->kind, stored, back))
                        abort();
                    room_apply(copy, back, at, &res);
                    json_decref(stored);
                    if (res.code != 0) /* the copy replays what the original accepted */
                        abort();
                }
                check_record(r);
                if (free_opening)
                    check_sealed(r);
            }
            json_decref(rq.root);
        }
        start = i + 1;
    }
    room_free(r);
    room_free(copy);
    free(ev);
    free(back);
    return 0;
}
