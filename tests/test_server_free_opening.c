/*
 * test_server_free_opening.c — the free-opening ruleset of 002 in a server
 * room (issue 43), without a socket: the four opening stones placed by the
 * seats §5.2 names in their fixed colours, no pass among them; the sealed
 * predictions (§5.3), which no one but their author sees before both are
 * in; the reveal deciding the colours (seats swapped when the first player
 * takes Black), the threshold and the komi; the prediction clock (§5.3.3);
 * the count stated against the threshold (§5.5 example 4); undo never
 * taking back an opening stone; a game rebuilt from its events.
 *
 * new_room's players: ana (account 11) in the Black seat, the second
 * player; bo (22) in the White seat, the first player.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "room_fixture.h"
#include "server/room.h"

static room *new_room(const char *settings_json) { return room_fixture(9, settings_json); }

/* Every event applied is also logged as the store keeps it. */
static json_t *event_log;

static bool next_own; /* the next EV_MOVE takes the capture choice */

static room_result event(room *r, room_event_kind kind, tg_color seat, const char *arg, int64_t at)
{
    room_event *ev = calloc(1, sizeof *ev);
    assert_non_null(ev);
    ev->kind = kind;
    ev->color = seat;
    ev->own = next_own;
    next_own = false;
    if (kind == EV_PREDICT)
        assert_int_equal(tg_prediction_parse(arg, &ev->prediction2), TG_OK);
    else if (arg)
        assert_int_equal(tg_vertex_parse(tg_game_board(r->game), arg, &ev->point), TG_OK);
    room_result res;
    room_apply(r, ev, at, &res);
    if (res.code == 0 && event_log)
        json_array_append_new(event_log, json_pack("{s:s, s:I, s:o}", "kind", room_event_kind_name(kind),
                                                   "at", (json_int_t)at, "data", room_event_to_json(r, ev)));
    free(ev);
    return res;
}

static void ok(room *r, room_event_kind kind, tg_color seat, const char *arg, int64_t at)
{
    assert_int_equal(event(r, kind, seat, arg, at).code, 0);
}

static tg_color stone_at(const room *r, const char *vertex)
{
    tg_point p;
    assert_int_equal(tg_vertex_parse(tg_game_board(r->game), vertex, &p), TG_OK);
    return tg_board_at(tg_game_board(r->game), p);
}

/* The state as `you` sees it, as text. */
static char *seen_by(const room *r, tg_color you)
{
    json_t *state = room_state_json(r, you, 0);
    char *text = json_dumps(state, JSON_COMPACT);
    json_decref(state);
    return text;
}

static const char *fo_text(const room *r, tg_color you, const char *key, char *buf, size_t len)
{
    json_t *state = room_state_json(r, you, 0);
    json_t *v = json_object_get(json_object_get(state, "free_opening"), key);
    snprintf(buf, len, "%s", json_is_string(v) ? json_string_value(v) : "null");
    json_decref(state);
    return buf;
}

/* F2: stones 1 (White) and 4 (Black) by the first player, 2 (Black) and 3
 * (White) by the second, on any points, never a pass. */
static void test_F2_opening_seats_and_colours(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9,\"rules\":\"free-opening\"}");
    assert_int_equal(r->phase, ROOM_OPENING);
    assert_int_equal(room_opening_placer(r), TG_WHITE);
    assert_int_equal(event(r, EV_MOVE, TG_BLACK, "E5", 10).code, ROOM_ERR_NOT_YOUR_TURN);
    assert_int_equal(event(r, EV_MOVE, TG_WHITE, "pass", 10).code, ROOM_ERR_ILLEGAL);
    ok(r, EV_MOVE, TG_WHITE, "E5", 10);
    assert_int_equal(event(r, EV_MOVE, TG_WHITE, "D5", 20).code, ROOM_ERR_NOT_YOUR_TURN);
    ok(r, EV_MOVE, TG_BLACK, "D5", 20);
    /* stone 3 is White's, placed by the second player (the Black seat) */
    assert_int_equal(room_opening_placer(r), TG_BLACK);
    assert_int_equal(event(r, EV_MOVE, TG_BLACK, "D5", 30).code, ROOM_ERR_ILLEGAL);
    ok(r, EV_MOVE, TG_BLACK, "C3", 30);
    assert_int_equal(stone_at(r, "C3"), TG_WHITE);
    /* the first player may seal its prediction from the third stone on, the
     * second only from the fourth */
    assert_int_equal(event(r, EV_PREDICT, TG_BLACK, "W+1", 35).code, ROOM_ERR_WRONG_PHASE);
    ok(r, EV_PREDICT, TG_WHITE, "W+2", 36);
    assert_int_equal(event(r, EV_PREDICT, TG_WHITE, "W+3", 37).code, ROOM_ERR_WRONG_PHASE);
    ok(r, EV_MOVE, TG_WHITE, "G7", 40);
    assert_int_equal(stone_at(r, "G7"), TG_BLACK);
    assert_int_equal(r->phase, ROOM_PREDICTION);
    assert_int_equal(room_opening_placer(r), TG_EMPTY);
    assert_int_equal(event(r, EV_MOVE, TG_WHITE, "A1", 50).code, ROOM_ERR_WRONG_PHASE);
    /* no request before play */
    room_event undo = {.kind = EV_REQUEST, .color = TG_WHITE, .what = REQ_UNDO};
    room_result res;
    room_apply(r, &undo, 55, &res);
    assert_int_equal(res.code, ROOM_ERR_WRONG_PHASE);
    room_free(r);
}

static void opening(room *r)
{
    ok(r, EV_MOVE, TG_WHITE, "B1", 10);
    ok(r, EV_MOVE, TG_BLACK, "C1", 20);
    ok(r, EV_MOVE, TG_BLACK, "B2", 30);
    ok(r, EV_MOVE, TG_WHITE, "C2", 40);
}

/* F3: sealed predictions — each player sees its own, no one sees the other's
 * before both are in; then both, the threshold, the colours. */
static void test_F3_predictions_sealed_then_revealed(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":5,\"rules\":\"free-opening\"}");
    opening(r);
    char buf[32];
    ok(r, EV_PREDICT, TG_WHITE, "W+7", 50);
    for (tg_color viewer = TG_EMPTY; viewer <= TG_WHITE; viewer++) {
        char *seen = seen_by(r, viewer);
        if (viewer == TG_WHITE)
            assert_non_null(strstr(seen, "W+7"));
        else
            assert_null(strstr(seen, "W+7")); /* the opponent and the spectators */
        free(seen);
    }
    assert_string_equal(fo_text(r, TG_WHITE, "mine", buf, sizeof buf), "W+7");
    assert_string_equal(fo_text(r, TG_BLACK, "mine", buf, sizeof buf), "null");
    assert_string_equal(fo_text(r, TG_BLACK, "threshold", buf, sizeof buf), "null");
    char *sgf = room_sgf(r, "2026-12-06");
    assert_null(strstr(sgf, "W+7")); /* the record is public: nothing sealed in it */
    free(sgf);
    /* 002 example 2: W+7 and B+6 -> the first player White, threshold W+0.5 */
    ok(r, EV_PREDICT, TG_BLACK, "B+6", 60);
    assert_int_equal(r->phase, ROOM_PLAY);
    assert_string_equal(fo_text(r, TG_EMPTY, "threshold", buf, sizeof buf), "W+0.5");
    assert_int_equal(tg_game_rules(r->game)->komi2, -1);
    assert_int_equal(r->user[TG_WHITE], 22); /* no swap */
    assert_int_equal(tg_game_to_move(r->game), TG_WHITE);
    assert_int_equal(r->ctl.clock.running, TG_WHITE);
    char *seen = seen_by(r, TG_BLACK);
    assert_non_null(strstr(seen, "\"predictions\":{\"first\":\"W+7\",\"second\":\"B+6\"}"));
    free(seen);
    room_free(r);
}

/* F3: the second player rates White higher and takes it: the seats swap,
 * the first player now plays Black; the record says so. */
static void test_F3_reveal_swaps_seats(void **state)
{
    (void)state;
    event_log = json_array();
    room *r = new_room("{\"size\":5,\"rules\":\"free-opening\",\"time\":\"absolute:600\"}");
    opening(r);
    ok(r, EV_PREDICT, TG_WHITE, "W+6", 50);
    ok(r, EV_PREDICT, TG_BLACK, "W+7", 60);
    assert_true(room_seats_swapped(r));
    assert_int_equal(room_first_colour(r), TG_BLACK);
    assert_int_equal(r->user[TG_WHITE], 11);
    assert_string_equal(r->name[TG_WHITE], "ana");
    assert_int_equal(r->user[TG_BLACK], 22);
    assert_int_equal(room_color_of(r, 11), TG_WHITE);
    char buf[32];
    assert_string_equal(fo_text(r, TG_EMPTY, "threshold", buf, sizeof buf), "W+6.5");
    assert_string_equal(fo_text(r, TG_EMPTY, "first", buf, sizeof buf), "black");
    assert_string_equal(fo_text(r, TG_BLACK, "mine", buf, sizeof buf), "W+6"); /* bo's, now Black */
    ok(r, EV_MOVE, TG_WHITE, "D4", 70);
    char *sgf = room_sgf(r, "2026-12-06");
    assert_non_null(strstr(sgf, "PF[W+6]"));
    assert_non_null(strstr(sgf, "PS[W+7]"));
    assert_non_null(strstr(sgf, "FC[B]"));
    assert_non_null(strstr(sgf, "KM[-6.5]"));
    assert_non_null(strstr(sgf, "RU[free-opening]"));
    assert_non_null(strstr(sgf, "PW[ana]"));
    free(sgf);

    /* rebuilt from its events: the same game, the same seats */
    room *copy = new_room("{\"size\":5,\"rules\":\"free-opening\",\"time\":\"absolute:600\"}");
    /* and rebuilt from a finished game's row, whose colours are already the final ones */
    room *finished = new_room("{\"size\":5,\"rules\":\"free-opening\",\"time\":\"absolute:600\"}");
    finished->user[TG_BLACK] = 22;
    finished->user[TG_WHITE] = 11;
    snprintf(finished->name[TG_BLACK], ROOM_NAME_MAX, "bo");
    snprintf(finished->name[TG_WHITE], ROOM_NAME_MAX, "ana");
    finished->seats_final = true;
    size_t i;
    json_t *item;
    json_array_foreach(event_log, i, item) {
        room_event_kind kind;
        assert_true(room_event_kind_parse(json_string_value(json_object_get(item, "kind")), &kind));
        room *targets[2] = {copy, finished};
        for (int t = 0; t < 2; t++) {
            room_event back;
            room_result res;
            assert_true(room_event_from_json(targets[t], kind, json_object_get(item, "data"), &back));
            room_apply(targets[t], &back, json_integer_value(json_object_get(item, "at")), &res);
            assert_int_equal(res.code, 0);
        }
    }
    for (tg_color viewer = TG_EMPTY; viewer <= TG_WHITE; viewer++) {
        json_t *a = room_state_json(r, viewer, 100), *b = room_state_json(copy, viewer, 100),
               *c = room_state_json(finished, viewer, 100);
        assert_true(json_equal(a, b));
        assert_true(json_equal(a, c));
        json_decref(a);
        json_decref(b);
        json_decref(c);
    }
    assert_false(room_seats_swapped(finished));
    json_decref(event_log);
    event_log = NULL;
    room_free(r);
    room_free(copy);
    room_free(finished);
}

/* F4: one tenth of the total time, from the third stone for the first
 * player and the fourth for the second; running out loses. */
static void test_F4_prediction_time(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9,\"rules\":\"free-opening\",\"time\":\"byoyomi:600+5x30\"}");
    assert_int_equal(r->settings.prediction_ms, 75000); /* (600 + 5 x 30) / 10 s */
    ok(r, EV_MOVE, TG_WHITE, "E5", 1000);
    ok(r, EV_MOVE, TG_BLACK, "D5", 2000);
    assert_true(room_next_deadline(r) > 100000); /* no prediction clock yet */
    ok(r, EV_MOVE, TG_BLACK, "C3", 3000);
    assert_int_equal(room_next_deadline(r), 3000 + 75000 + 1);
    assert_false(room_tick_due(r, 78000));
    assert_true(room_tick_due(r, 78001));
    room_result res;
    room_event tick = {.kind = EV_TICK};
    room_apply(r, &tick, 78001, &res);
    assert_int_equal(res.code, 0);
    assert_true(res.ended);
    assert_int_equal(r->phase, ROOM_OVER);
    assert_string_equal(r->reason, "time");
    const tg_result *result = tg_game_result(r->game);
    assert_int_equal(result->kind, TG_RESULT_TIME);
    assert_int_equal(result->winner, TG_BLACK); /* the first player, in the White seat, lost */
    room_free(r);

    /* an explicit prediction time; the second player's runs from stone 4 */
    r = new_room("{\"size\":9,\"rules\":\"free-opening\",\"time\":\"absolute:600\",\"prediction_s\":20}");
    opening(r);
    ok(r, EV_PREDICT, TG_WHITE, "W+1", 45);
    assert_int_equal(room_next_deadline(r), 40 + 20000 + 1);
    room_apply(r, &tick, 20041, &res);
    assert_int_equal(tg_game_result(r->game)->winner, TG_WHITE);
    room_free(r);
}

/* F8, F9: counted against the threshold, stated as 002 §5.5 states it. */
static void test_F9_count_against_the_threshold(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":5,\"rules\":\"free-opening\"}");
    opening(r); /* White B1 B2, Black C1 C2 */
    /* first B+4, second B+5: the second rates Black higher and takes it;
     * the threshold is B+4.5 */
    ok(r, EV_PREDICT, TG_WHITE, "B+4", 50);
    ok(r, EV_PREDICT, TG_BLACK, "B+5", 60);
    assert_false(room_seats_swapped(r));
    const char *moves[] = {"B3", "C3", "B4", "C4", "B5", "C5"};
    for (int i = 0; i < 6; i++)
        ok(r, EV_MOVE, i % 2 ? TG_BLACK : TG_WHITE, moves[i], 100 + i);
    /* undo never takes back an opening stone */
    room_event undo = {.kind = EV_REQUEST, .color = TG_WHITE, .what = REQ_UNDO};
    room_result res;
    room_apply(r, &undo, 110, &res);
    assert_int_equal(res.code, 0);
    room_event no = {.kind = EV_ANSWER, .color = TG_BLACK, .what = REQ_UNDO, .accept = false};
    room_apply(r, &no, 111, &res);
    ok(r, EV_MOVE, TG_WHITE, "pass", 120);
    ok(r, EV_MOVE, TG_BLACK, "pass", 130);
    assert_int_equal(r->phase, ROOM_REMOVAL);
    ok(r, EV_ACCEPT, TG_WHITE, NULL, 140);
    ok(r, EV_ACCEPT, TG_BLACK, NULL, 150);
    assert_int_equal(r->phase, ROOM_OVER);
    /* White 10, Black 15: Black ahead by 5, beyond B+4.5 by 0.5 stone */
    json_t *st = room_state_json(r, TG_EMPTY, 200);
    assert_string_equal(json_string_value(json_object_get(st, "result")), "B+0.5");
    assert_string_equal(json_string_value(json_object_get(st, "result_text")), "Black wins by 0.5 stone");
    assert_string_equal(json_string_value(json_object_get(st, "result_text_zh")), "黑0.5子胜");
    json_decref(st);
    room_free(r);
}

/* F5 in the room: game.move's "own" takes the capture choice where the
 * move leaves both sides' chains without liberties (5x5: White A1 B2 C2
 * D1, Black A2 C1; Black B1 own removes B1 and C1, A1 stays); it is kept
 * in the event, the state, the SGF and a rebuilt room, and refused where
 * the rules have no choice, where there is none to take, and against an
 * engine that could not be told it. */
static void test_F5_capture_choice(void **state)
{
    (void)state;
    const char *settings = "{\"size\":5,\"rules\":\"chinese capture=choose\"}";
    event_log = json_array();
    room *r = new_room(settings);
    const char *moves[] = {"A2", "A1", "C1", "B2", "E5", "C2", "E4", "D1"};
    for (int i = 0; i < 8; i++)
        ok(r, EV_MOVE, i % 2 ? TG_WHITE : TG_BLACK, moves[i], 10 + i);
    next_own = true;
    room_result res = event(r, EV_MOVE, TG_BLACK, "D5", 20);
    assert_int_equal(res.code, ROOM_ERR_ILLEGAL); /* no choice to take there */
    assert_non_null(strstr(res.message, "both sides"));
    r->engine[TG_WHITE][0] = 'g'; /* an engine other than tengen */
    r->engine[TG_WHITE][1] = '\0';
    next_own = true;
    assert_int_equal(event(r, EV_MOVE, TG_BLACK, "B1", 21).code, ROOM_ERR_ILLEGAL);
    r->engine[TG_WHITE][0] = '\0';
    next_own = true;
    ok(r, EV_MOVE, TG_BLACK, "B1", 22);
    assert_int_equal(stone_at(r, "B1"), TG_EMPTY);
    assert_int_equal(stone_at(r, "C1"), TG_EMPTY);
    assert_int_equal(stone_at(r, "A1"), TG_WHITE);
    assert_int_equal(r->last_captured_count, 1); /* the stones the move removed: its own C1 */
    char *text = seen_by(r, TG_EMPTY);
    assert_non_null(strstr(text, "\"capture_choice\":true"));
    assert_non_null(strstr(text, "{\"n\":9,\"color\":\"black\",\"move\":\"B1\",\"own\":true}"));
    free(text);
    char *sgf = room_sgf(r, "2026-12-06");
    assert_non_null(strstr(sgf, ";B[be]CC[own]"));
    free(sgf);
    ok(r, EV_MOVE, TG_WHITE, "B1", 23); /* White connects: an ordinary move */

    room *copy = new_room(settings);
    size_t i;
    json_t *item;
    json_array_foreach(event_log, i, item) {
        room_event_kind kind;
        room_event back;
        assert_true(room_event_kind_parse(json_string_value(json_object_get(item, "kind")), &kind));
        assert_true(room_event_from_json(copy, kind, json_object_get(item, "data"), &back));
        room_apply(copy, &back, json_integer_value(json_object_get(item, "at")), &res);
        assert_int_equal(res.code, 0);
    }
    json_t *a = room_state_json(r, TG_EMPTY, 100), *b = room_state_json(copy, TG_EMPTY, 100);
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    json_decref(event_log);
    event_log = NULL;
    room_free(r);
    room_free(copy);

    /* no capture choice under the Chinese rules */
    r = new_room("{\"size\":5}");
    for (int k = 0; k < 8; k++)
        ok(r, EV_MOVE, k % 2 ? TG_WHITE : TG_BLACK, moves[k], 10 + k);
    next_own = true;
    res = event(r, EV_MOVE, TG_BLACK, "B1", 20);
    assert_int_equal(res.code, ROOM_ERR_ILLEGAL);
    assert_non_null(strstr(res.message, "no capture choice"));
    room_free(r);
}

/* Undo reaches back to the opening's last stone and no further. */
static void test_undo_stops_at_the_opening(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":5,\"rules\":\"free-opening\"}");
    opening(r);
    ok(r, EV_PREDICT, TG_WHITE, "0", 50);
    ok(r, EV_PREDICT, TG_BLACK, "0", 60);
    ok(r, EV_MOVE, TG_WHITE, "D4", 70);
    /* Black's last stone is opening stone 4: nothing of Black's to undo */
    room_event undo = {.kind = EV_REQUEST, .color = TG_BLACK, .what = REQ_UNDO};
    room_result res;
    room_apply(r, &undo, 80, &res);
    assert_int_equal(res.code, ROOM_ERR_WRONG_PHASE);
    undo.color = TG_WHITE;
    room_apply(r, &undo, 90, &res);
    assert_int_equal(res.code, 0);
    room_event yes = {.kind = EV_ANSWER, .color = TG_BLACK, .what = REQ_UNDO, .accept = true};
    room_apply(r, &yes, 95, &res);
    assert_int_equal(res.code, 0);
    assert_int_equal(tg_game_move_count(r->game), 4);
    room_free(r);
}

static void test_settings(void **state)
{
    (void)state;
    const char *refused[] = {
        "{\"rules\":\"free-opening\",\"handicap\":2}",
        "{\"rules\":\"free-opening\",\"komi\":6.5}",
        "{\"rules\":\"chinese\",\"prediction_s\":30}",
        "{\"rules\":\"free-opening\",\"prediction_s\":-1}",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        json_error_t e;
        json_t *j = json_loads(refused[i], 0, &e);
        room_settings st;
        char err[200];
        assert_false(room_settings_from_json(j, &st, err, sizeof err));
        json_decref(j);
    }
    room *r = new_room("{\"rules\":\"free-opening\"}"); /* untimed: no prediction clock */
    assert_int_equal(r->settings.prediction_ms, 0);
    json_t *back = room_settings_to_json(&r->settings);
    assert_int_equal(json_integer_value(json_object_get(back, "prediction_s")), 0);
    /* the settings as stored read back (a game is rebuilt from them) */
    room_settings again;
    char err[200];
    assert_true(room_settings_from_json(back, &again, err, sizeof err));
    assert_true(again.rules.free_opening);
    json_decref(back);
    room_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_F2_opening_seats_and_colours),
        cmocka_unit_test(test_F3_predictions_sealed_then_revealed),
        cmocka_unit_test(test_F3_reveal_swaps_seats),
        cmocka_unit_test(test_F4_prediction_time),
        cmocka_unit_test(test_F9_count_against_the_threshold),
        cmocka_unit_test(test_F5_capture_choice),
        cmocka_unit_test(test_undo_stops_at_the_opening),
        cmocka_unit_test(test_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
