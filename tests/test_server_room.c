/*
 * test_server_room.c — the server's game logic without a socket (room.h)
 * and its message parser (proto.h): turns and illegal moves, stone
 * removal agreed and disputed (C9: the claimer of "dead" moves first),
 * undo, pause (R5), time loss under byo-yomi (R2), absence (R8),
 * cancellation, chat kept apart from the game, a game rebuilt from its
 * stored events, the SGF record (a counted game's dead stones, chat after
 * an undo), strict settings and messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "server/proto.h"
#include "tengen/score.h"
#include "room_fixture.h"
#include "server/room.h"

static room *new_room(const char *settings_json) { return room_fixture(7, settings_json); }

static tg_point vtx(const room *r, const char *v)
{
    tg_point p;
    assert_int_equal(tg_vertex_parse(tg_game_board(r->game), v, &p), TG_OK);
    return p;
}

static room_result apply(room *r, room_event_kind kind, tg_color c, const char *vertex, int64_t at)
{
    room_event *ev = calloc(1, sizeof *ev);
    assert_non_null(ev);
    ev->kind = kind;
    ev->color = c;
    if (vertex)
        ev->point = vtx(r, vertex);
    room_result res;
    room_apply(r, ev, at, &res);
    free(ev);
    return res;
}

static void play(room *r, tg_color c, const char *vertex, int64_t at)
{
    room_result res = apply(r, EV_MOVE, c, vertex, at);
    assert_int_equal(res.code, 0);
}

static void test_turns_and_illegal_moves(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9}");
    assert_int_equal(r->phase, ROOM_PLAY);
    assert_int_equal(apply(r, EV_MOVE, TG_WHITE, "E5", 10).code, ROOM_ERR_NOT_YOUR_TURN);
    assert_int_equal(apply(r, EV_MOVE, TG_EMPTY, "E5", 10).code, ROOM_ERR_FORBIDDEN);
    play(r, TG_BLACK, "E5", 10);
    assert_int_equal(apply(r, EV_MOVE, TG_WHITE, "E5", 20).code, ROOM_ERR_ILLEGAL);
    assert_int_equal(tg_game_move_count(r->game), 1);
    assert_int_equal(r->seq, 1); /* refused events are not events */
    play(r, TG_WHITE, "D5", 30);
    assert_int_equal(tg_game_move_count(r->game), 2);
    room_free(r);
}

static void test_capture_reported(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9}");
    play(r, TG_BLACK, "A2", 1);
    play(r, TG_WHITE, "A1", 2);
    room_result res = apply(r, EV_MOVE, TG_BLACK, "B1", 3);
    assert_true(res.played);
    assert_int_equal(r->last_captured_count, 1);
    assert_int_equal(r->last_captured[0], vtx(r, "A1"));
    room_free(r);
}

/* Black lives; a white stone sits alone inside Black's area. */
static room *game_to_removal(void)
{
    room *r = new_room("{\"size\":5,\"komi\":0.5}");
    const char *moves[] = {"C1", "E5", "C2", "D5", "C3", "B2", "C4", "pass", "C5", "pass"};
    int64_t at = 0;
    for (int i = 0; i < 8; i++)
        play(r, i % 2 ? TG_WHITE : TG_BLACK, moves[i], at += 10);
    room_result res = apply(r, EV_MOVE, TG_BLACK, "C5", at += 10);
    assert_int_equal(res.code, 0);
    res = apply(r, EV_MOVE, TG_WHITE, "pass", at += 10);
    assert_int_equal(res.code, 0);
    res = apply(r, EV_MOVE, TG_BLACK, "pass", at += 10);
    assert_int_equal(res.code, 0);
    assert_true(res.needs_proposal);
    assert_int_equal(r->phase, ROOM_REMOVAL);
    return r;
}

static void test_removal_agreed_is_counted(void **state)
{
    (void)state;
    room *r = game_to_removal();
    assert_int_equal(apply(r, EV_MOVE, TG_WHITE, "A1", 200).code, ROOM_ERR_WRONG_PHASE);
    /* both mark B2 dead and accept */
    assert_int_equal(apply(r, EV_TOGGLE, TG_BLACK, "B2", 210).code, 0);
    assert_int_equal(apply(r, EV_TOGGLE, TG_WHITE, "B2", 220).code, 0);
    assert_int_equal(apply(r, EV_ACCEPT, TG_BLACK, NULL, 230).code, 0);
    assert_int_equal(apply(r, EV_TOGGLE, TG_BLACK, "B2", 235).code, ROOM_ERR_WRONG_PHASE);
    room_result res = apply(r, EV_ACCEPT, TG_WHITE, NULL, 240);
    assert_int_equal(res.code, 0);
    assert_true(res.ended);
    assert_int_equal(r->phase, ROOM_OVER);
    assert_string_equal(r->reason, "score");
    const tg_result *result = tg_game_result(r->game);
    assert_int_equal(result->kind, TG_RESULT_SCORE);
    /* area: Black 5 stones + columns A, B (10 points) = 15; White D5, E5 live:
     * columns D, E are shared? No: White's two stones and the empty points
     * beside them form White's side, so Black wins by the count's margin */
    assert_int_equal(result->winner, TG_BLACK);
    json_t *st = room_state_json(r, TG_EMPTY, 250);
    assert_string_equal(json_string_value(json_object_get(st, "reason")), "score");
    assert_non_null(json_object_get(st, "count"));
    json_decref(st);
    room_free(r);
}

static void test_removal_dispute_claimer_moves_first(void **state)
{
    (void)state;
    room *r = game_to_removal();
    /* after the passes Black would move; White claims B2... no: Black
     * claims B2 dead, White says it lives: Black (the claimer) moves first */
    assert_int_equal(tg_game_to_move(r->game), TG_WHITE);
    assert_int_equal(apply(r, EV_TOGGLE, TG_BLACK, "B2", 210).code, 0);
    assert_int_equal(apply(r, EV_ACCEPT, TG_BLACK, NULL, 220).code, 0);
    room_result res = apply(r, EV_ACCEPT, TG_WHITE, NULL, 230);
    assert_int_equal(res.code, 0);
    assert_false(res.ended);
    assert_int_equal(r->phase, ROOM_PLAY);
    assert_int_equal(tg_game_to_move(r->game), TG_BLACK);
    play(r, TG_BLACK, "B1", 240);
    room_free(r);
}

static void test_concede_adopts_the_statement(void **state)
{
    (void)state;
    room *r = game_to_removal();
    assert_int_equal(apply(r, EV_CONCEDE, TG_WHITE, NULL, 205).code, ROOM_ERR_WRONG_PHASE);
    assert_int_equal(apply(r, EV_TOGGLE, TG_BLACK, "B2", 210).code, 0);
    assert_int_equal(apply(r, EV_ACCEPT, TG_BLACK, NULL, 220).code, 0);
    room_result res = apply(r, EV_CONCEDE, TG_WHITE, NULL, 230);
    assert_int_equal(res.code, 0);
    assert_true(res.ended);
    room_free(r);
}

static room_result answer(room *r, room_event_kind kind, tg_color c, room_request what,
                          bool accept, int64_t at)
{
    room_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.color = c;
    ev.what = what;
    ev.accept = accept;
    room_result res;
    room_apply(r, &ev, at, &res);
    return res;
}

static void test_undo_by_agreement(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9,\"time\":\"absolute:600\"}");
    play(r, TG_BLACK, "E5", 1000);
    play(r, TG_WHITE, "D5", 2000);
    /* White asks to take D5 back; only Black may answer */
    assert_int_equal(answer(r, EV_REQUEST, TG_WHITE, REQ_UNDO, false, 2100).code, 0);
    assert_int_equal(answer(r, EV_ANSWER, TG_WHITE, REQ_UNDO, true, 2200).code, ROOM_ERR_FORBIDDEN);
    assert_int_equal(answer(r, EV_ANSWER, TG_BLACK, REQ_UNDO, true, 2300).code, 0);
    assert_int_equal(tg_game_move_count(r->game), 1);
    assert_int_equal(tg_game_to_move(r->game), TG_WHITE);
    assert_int_equal(r->ctl.clock.running, TG_WHITE);
    /* Black asks for E5 back after White replied: two moves go */
    play(r, TG_WHITE, "C3", 3000);
    assert_int_equal(answer(r, EV_REQUEST, TG_BLACK, REQ_UNDO, false, 3100).code, 0);
    assert_int_equal(answer(r, EV_ANSWER, TG_WHITE, REQ_UNDO, false, 3200).code, 0);
    assert_int_equal(tg_game_move_count(r->game), 2); /* refused */
    assert_int_equal(answer(r, EV_REQUEST, TG_BLACK, REQ_UNDO, false, 3300).code, 0);
    assert_int_equal(answer(r, EV_ANSWER, TG_WHITE, REQ_UNDO, true, 3400).code, 0);
    assert_int_equal(tg_game_move_count(r->game), 0);
    assert_int_equal(tg_game_to_move(r->game), TG_BLACK);
    room_free(r);
}

/* A request made before a move lapses with it: an old undo request
 * cannot take back the answerer's own later move. */
static void test_request_lapses_with_a_move(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9}");
    play(r, TG_BLACK, "E5", 1);
    assert_int_equal(answer(r, EV_REQUEST, TG_BLACK, REQ_UNDO, false, 2).code, 0);
    play(r, TG_WHITE, "D5", 3);
    assert_int_equal(r->request, REQ_NONE);
    assert_int_equal(answer(r, EV_ANSWER, TG_WHITE, REQ_UNDO, true, 4).code, ROOM_ERR_WRONG_PHASE);
    assert_int_equal(tg_game_move_count(r->game), 2);
    room_free(r);
}

/* Issue 48, fault 9: the record of a counted game carries the agreed dead
 * stones and the areas (TB/TW on its last node), so that counting it again
 * (tengen score) gives its RE, where the estimate, all the record gave
 * before, also takes D5 and E5 dead and counts B+24.5. */
static void test_counted_record_recounts(void **state)
{
    (void)state;
    room *r = game_to_removal();
    assert_int_equal(apply(r, EV_TOGGLE, TG_BLACK, "B2", 210).code, 0);
    assert_int_equal(apply(r, EV_TOGGLE, TG_WHITE, "B2", 220).code, 0);
    assert_int_equal(apply(r, EV_ACCEPT, TG_BLACK, NULL, 230).code, 0);
    assert_true(apply(r, EV_ACCEPT, TG_WHITE, NULL, 240).ended);
    char re[32];
    tg_result_to_sgf(tg_game_result(r->game), re, sizeof re);
    /* Black 5 stones + 10 points, White 2 stones, 8 dame shared, komi 0.5 */
    assert_string_equal(re, "B+12.5");
    char *sgf = room_sgf(r, "2026-12-05");
    assert_non_null(sgf);
    assert_non_null(strstr(sgf, "RE[B+12.5]"));
    /* Black's columns A and B with the dead B2 on them; no White territory */
    assert_non_null(strstr(sgf, "B[]TB[aa][ba][ab][bb][ac][bc][ad][bd][ae][be]TW[])"));

    tg_game *g = NULL;
    tg_sgf_error err;
    tg_sgf_info *info = malloc(sizeof *info);
    assert_non_null(info);
    assert_int_equal(tg_sgf_load_game(sgf, strlen(sgf), -1, &g, info, &err), TG_OK);
    assert_true(info->has_dead);
    for (tg_point p = 0; p < TG_MAX_POINTS; p++)
        assert_int_equal(info->dead[p], p == vtx(r, "B2"));
    tg_score count;
    char again[32];
    tg_score_game(g, info->dead, &count);
    tg_result_to_sgf(&count.result, again, sizeof again);
    assert_string_equal(again, re);
    uint8_t estimate[TG_MAX_POINTS];
    tg_game_estimate_dead(g, 0, 0, estimate);
    tg_score_game(g, estimate, &count);
    tg_result_to_sgf(&count.result, again, sizeof again);
    assert_string_not_equal(again, re);
    free(info);
    tg_game_free(g);
    free(sgf);
    room_free(r);
}

static void say(room *r, tg_color c, const char *from, const char *text, int64_t at)
{
    room_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = EV_CHAT;
    ev.color = c;
    snprintf(ev.from, sizeof ev.from, "%s", from);
    snprintf(ev.text, sizeof ev.text, "%s", text);
    room_result res;
    room_apply(r, &ev, at, &res);
    assert_int_equal(res.code, 0);
}

/* The comment of the record's node after `moves` moves (0: the root), NULL
 * when it has none; every node of the main line has one C value at most. */
static char *record_comment(const room *r, int moves)
{
    char *sgf = room_sgf(r, "2026-12-05");
    assert_non_null(sgf);
    tg_sgf_tree *tree = NULL;
    tg_sgf_error err;
    assert_int_equal(tg_sgf_parse(sgf, strlen(sgf), &tree, &err), TG_OK);
    char *comment = NULL;
    int n = 0;
    for (const tg_sgf_node *node = tg_sgf_tree_games(tree); node; node = node->child, n++) {
        const tg_sgf_property *c = tg_sgf_property_find(node, "C");
        if (c)
            assert_null(c->values->next);
        if (n == moves && c) {
            comment = malloc(c->values->length + 1);
            assert_non_null(comment);
            memcpy(comment, c->values->text, c->values->length + 1);
        }
    }
    tg_sgf_tree_free(tree);
    free(sgf);
    return comment;
}

static void assert_comment(const room *r, int moves, const char *expected)
{
    char *comment = record_comment(r, moves);
    if (expected)
        assert_string_equal(comment, expected);
    else
        assert_null(comment);
    free(comment);
}

/* Issue 48, fault 12: chat said after a move that was then taken back
 * stays with the position that remains, saying which move it followed, and
 * every node has one comment (a line each), never a second C value. */
static void test_chat_after_undo_in_record(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9}");
    play(r, TG_BLACK, "E5", 10);
    play(r, TG_WHITE, "D5", 20);
    say(r, TG_WHITE, "bo", "hello", 25);
    play(r, TG_BLACK, "C3", 30);
    say(r, TG_BLACK, "ana", "oops", 35);
    say(r, TG_EMPTY, "kibitzer", "C3?!", 36); /* spectators' lines are not recorded */
    assert_int_equal(answer(r, EV_REQUEST, TG_BLACK, REQ_UNDO, false, 40).code, 0);
    assert_int_equal(answer(r, EV_ANSWER, TG_WHITE, REQ_UNDO, true, 50).code, 0);
    say(r, TG_WHITE, "bo", "sure", 55);
    play(r, TG_BLACK, "G7", 60);
    say(r, TG_BLACK, "ana", "better", 65);
    assert_comment(r, 0, NULL);
    assert_comment(r, 2, "bo: hello\nana: oops (said after C3, taken back)\nbo: sure");
    assert_comment(r, 3, "ana: better");
    /* game.state still says when each line was said */
    json_t *st = room_state_json(r, TG_BLACK, 70);
    json_t *oops = json_array_get(json_object_get(st, "chat"), 1);
    assert_string_equal(json_string_value(json_object_get(oops, "text")), "oops");
    assert_int_equal(json_integer_value(json_object_get(oops, "move")), 3);
    json_decref(st);

    /* a second undo takes G7 back too: its line joins the others, in order */
    play(r, TG_WHITE, "H8", 70);
    assert_int_equal(answer(r, EV_REQUEST, TG_BLACK, REQ_UNDO, false, 80).code, 0);
    assert_int_equal(answer(r, EV_ANSWER, TG_WHITE, REQ_UNDO, true, 90).code, 0);
    assert_int_equal(tg_game_move_count(r->game), 2);
    play(r, TG_BLACK, "pass", 100);
    say(r, TG_BLACK, "ana", "thinking", 105);
    assert_comment(r, 2, "bo: hello\nana: oops (said after C3, taken back)\nbo: sure\n"
                         "ana: better (said after G7, taken back)");
    assert_comment(r, 3, "ana: thinking");
    room_free(r);
}

/* A game's chat is bounded, and game.state carries only its last lines. */
static void test_chat_is_bounded(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9}");
    room_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = EV_CHAT;
    snprintf(ev.from, sizeof ev.from, "x");
    snprintf(ev.text, sizeof ev.text, "spam");
    room_result res;
    for (int i = 0; i < ROOM_CHAT_MAX; i++) {
        room_apply(r, &ev, i, &res);
        assert_int_equal(res.code, 0);
    }
    room_apply(r, &ev, ROOM_CHAT_MAX, &res);
    assert_int_equal(res.code, ROOM_ERR_TOO_LATE);
    json_t *st = room_state_json(r, TG_EMPTY, 0);
    assert_int_equal(json_array_size(json_object_get(st, "chat")), ROOM_CHAT_SHOWN);
    json_decref(st);
    room_free(r);
}

static void test_pause_stops_both_clocks(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9,\"time\":\"absolute:10\"}");
    play(r, TG_BLACK, "E5", 1000);
    assert_int_equal(answer(r, EV_REQUEST, TG_WHITE, REQ_PAUSE, false, 2000).code, 0);
    assert_int_equal(answer(r, EV_ANSWER, TG_BLACK, REQ_PAUSE, true, 3000).code, 0);
    assert_true(r->paused);
    assert_int_equal(room_next_deadline(r), INT64_MAX); /* no deadline while paused */
    assert_false(room_tick_due(r, 1000000));
    assert_int_equal(apply(r, EV_MOVE, TG_WHITE, "D5", 5000).code, ROOM_ERR_WRONG_PHASE);
    assert_int_equal(answer(r, EV_REQUEST, TG_BLACK, REQ_RESUME, false, 500000).code, 0);
    assert_int_equal(answer(r, EV_ANSWER, TG_WHITE, REQ_RESUME, true, 600000).code, 0);
    /* White had used 2 s of 10 before the pause: the deadline is 8 s (+lag) on */
    int64_t deadline = room_next_deadline(r);
    assert_true(deadline > 600000 + 7000 && deadline <= 600000 + 8000 + 1000);
    play(r, TG_WHITE, "D5", 601000);
    room_free(r);
}

static void test_time_loss_in_byoyomi(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9,\"time\":\"byoyomi:1+1x1\"}");
    int64_t deadline = room_next_deadline(r);
    assert_true(deadline > 2000 && deadline < 4000);
    assert_false(room_tick_due(r, deadline - 1));
    assert_true(room_tick_due(r, deadline));
    room_result res = apply(r, EV_TICK, TG_EMPTY, NULL, deadline);
    assert_int_equal(res.code, 0);
    assert_true(res.ended);
    assert_string_equal(r->reason, "time");
    assert_int_equal(tg_game_result(r->game)->kind, TG_RESULT_TIME);
    assert_int_equal(tg_game_result(r->game)->winner, TG_WHITE);
    room_free(r);
}

static void test_absence_at_the_start(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9,\"absence_s\":60}");
    room_result res = apply(r, EV_ARRIVE, TG_BLACK, NULL, 10);
    assert_int_equal(res.code, 0);
    assert_int_equal(room_next_deadline(r), 60000);
    assert_false(room_tick_due(r, 59999));
    res = apply(r, EV_TICK, TG_EMPTY, NULL, 60000);
    assert_true(res.ended);
    assert_string_equal(r->reason, "absence");
    assert_int_equal(tg_game_result(r->game)->winner, TG_BLACK);
    room_free(r);
}

static void test_cancel_only_in_the_first_moves(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9}");
    play(r, TG_BLACK, "E5", 1);
    play(r, TG_WHITE, "D5", 2);
    assert_int_equal(apply(r, EV_CANCEL, TG_BLACK, NULL, 3).code, ROOM_ERR_TOO_LATE);
    room_free(r);
    r = new_room("{\"size\":9}");
    play(r, TG_BLACK, "E5", 1);
    room_result res = apply(r, EV_CANCEL, TG_WHITE, NULL, 3);
    assert_true(res.ended);
    assert_string_equal(r->reason, "cancel");
    assert_int_equal(tg_game_result(r->game)->kind, TG_RESULT_NO_RESULT);
    room_free(r);
}

static void test_free_handicap_placement(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9,\"handicap\":2,\"handicap_placement\":\"free\"}");
    assert_int_equal(r->phase, ROOM_PLACEMENT);
    assert_int_equal(apply(r, EV_MOVE, TG_BLACK, "E5", 1).code, ROOM_ERR_WRONG_PHASE);
    room_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = EV_PLACE;
    ev.color = TG_BLACK;
    ev.npoints = 2;
    ev.points[0] = vtx(r, "C3");
    ev.points[1] = vtx(r, "C3");
    room_result res;
    room_apply(r, &ev, 2, &res);
    assert_int_equal(res.code, ROOM_ERR_ILLEGAL);
    ev.points[1] = vtx(r, "G7");
    room_apply(r, &ev, 3, &res);
    assert_int_equal(res.code, 0);
    assert_int_equal(r->phase, ROOM_PLAY);
    assert_int_equal(tg_game_to_move(r->game), TG_WHITE);
    room_free(r);
}

/* Store every event as the server does, rebuild, compare. */
static void test_rebuilt_from_events(void **state)
{
    (void)state;
    room *r = new_room("{\"size\":9,\"time\":\"byoyomi:5+2x3\"}");
    json_t *log = json_array();
    const char *moves[] = {"E5", "D5", "E4", "D4", "pass", "E6"};
    int64_t at = 0;
    room_event ev;
    for (int i = 0; i < 6; i++) {
        memset(&ev, 0, sizeof ev);
        ev.kind = EV_MOVE;
        ev.color = i % 2 ? TG_WHITE : TG_BLACK;
        ev.point = strcmp(moves[i], "pass") ? vtx(r, moves[i]) : TG_PASS;
        room_result res;
        room_apply(r, &ev, at += 1700, &res);
        assert_int_equal(res.code, 0);
        json_array_append_new(log, json_pack("{s:s, s:I, s:o}", "kind", room_event_kind_name(ev.kind),
                                             "at", (json_int_t)at, "data", room_event_to_json(r, &ev)));
    }
    memset(&ev, 0, sizeof ev);
    ev.kind = EV_CHAT;
    ev.color = TG_BLACK;
    snprintf(ev.from, sizeof ev.from, "ana");
    snprintf(ev.text, sizeof ev.text, "good game");
    room_result res;
    room_apply(r, &ev, at + 10, &res);
    json_array_append_new(log, json_pack("{s:s, s:I, s:o}", "kind", "chat", "at",
                                         (json_int_t)(at + 10), "data", room_event_to_json(r, &ev)));

    room *copy = new_room("{\"size\":9,\"time\":\"byoyomi:5+2x3\"}");
    size_t i;
    json_t *item;
    json_array_foreach(log, i, item) {
        room_event_kind kind;
        assert_true(room_event_kind_parse(json_string_value(json_object_get(item, "kind")), &kind));
        room_event back;
        assert_true(room_event_from_json(copy, kind, json_object_get(item, "data"), &back));
        room_apply(copy, &back, json_integer_value(json_object_get(item, "at")), &res);
        assert_int_equal(res.code, 0);
    }
    json_t *a = room_state_json(r, TG_EMPTY, at + 500), *b = room_state_json(copy, TG_EMPTY, at + 500);
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    assert_int_equal(copy->chat_count, 1);
    char *sgf = room_sgf(copy, "2026-12-05");
    assert_non_null(sgf);
    assert_non_null(strstr(sgf, "C[ana: good game]"));
    assert_non_null(strstr(sgf, "OT[2x3 byo-yomi]"));
    assert_non_null(strstr(sgf, "BL["));
    tg_game *g = NULL;
    tg_sgf_error err;
    assert_int_equal(tg_sgf_load_game(sgf, strlen(sgf), -1, &g, NULL, &err), TG_OK);
    assert_int_equal(tg_game_move_count(g), 6);
    tg_game_free(g);
    free(sgf);
    json_decref(log);
    room_free(r);
    room_free(copy);
}

static void test_settings_strict(void **state)
{
    (void)state;
    const char *bad[] = {
        "{\"size\":1}", "{\"size\":26}", "{\"colour\":\"black\"}", "{\"komi\":7.25}",
        "{\"komi\":\"7.5\"}", "{\"handicap\":1}", "{\"handicap\":10}", "{\"time\":\"byoyomi:x\"}",
        "{\"rules\":\"chinese ko=nonsense\"}", "{\"color\":\"red\"}", "{\"size\":5,\"handicap\":9}",
        "{\"absence_s\":1}", "[]", "{\"rules\":\"chinese\\nko=simple\"}",
        "{\"rules\":\"chinese  ko=simple\"}", "{\"rules\":\" chinese\"}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_error_t e;
        json_t *j = json_loads(bad[i], JSON_DECODE_ANY, &e);
        room_settings st;
        char err[200];
        assert_false(room_settings_from_json(j, &st, err, sizeof err));
        json_decref(j);
    }
    json_error_t e;
    json_t *j = json_loads("{\"size\":13,\"rules\":\"japanese\",\"komi\":6.5,\"handicap\":3,"
                           "\"time\":\"byoyomi:600+5x30,pass\",\"color\":\"white\"}", 0, &e);
    room_settings st;
    char err[200];
    assert_true(room_settings_from_json(j, &st, err, sizeof err));
    assert_int_equal(st.rules.komi2, 13);
    assert_int_equal(st.rules.scoring, TG_SCORING_TERRITORY);
    assert_true(st.time.last_period_pass);
    assert_int_equal(st.color, TG_WHITE);
    assert_int_equal(st.rules.illegal, TG_ILLEGAL_REJECT); /* online default */
    json_decref(j);
    j = json_loads("{\"rules\":\"chinese illegal=void\"}", 0, &e);
    assert_true(room_settings_from_json(j, &st, err, sizeof err));
    assert_int_equal(st.rules.illegal, TG_ILLEGAL_VOID); /* named: kept */
    json_decref(j);
}

static void test_messages_strict(void **state)
{
    (void)state;
    const char *bad[] = {
        "", "{", "[]", "42", "{\"type\":\"nope\"}", "{\"type\":7}",
        "{\"type\":\"game.move\",\"game\":1}",
        "{\"type\":\"game.move\",\"game\":1,\"move\":\"D4\",\"extra\":1}",
        "{\"type\":\"game.move\",\"game\":\"1\",\"move\":\"D4\"}",
        "{\"type\":\"ping\",\"id\":-1}", "{\"type\":\"ping\",\"type\":\"ping\"}",
        "{\"type\":\"engine.play\",\"strength\":{\"playouts\":0}}",
        "{\"type\":\"engine.play\",\"strength\":{\"playouts\":5,\"seconds\":1}}",
        "{\"type\":\"game.answer\",\"game\":1,\"what\":\"undo\"}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        proto_request rq;
        char err[200];
        assert_int_equal(proto_parse(bad[i], strlen(bad[i]), &rq, err, sizeof err), -1);
        assert_null(rq.root);
    }
    proto_request rq;
    char err[200];
    const char *ok = "{\"type\":\"game.move\",\"id\":9,\"game\":3,\"move\":\"D4\",\"n\":12}";
    assert_int_equal(proto_parse(ok, strlen(ok), &rq, err, sizeof err), 0);
    assert_int_equal(rq.type, P_MOVE);
    assert_int_equal(rq.id, 9);
    assert_int_equal(rq.game, 3);
    assert_string_equal(rq.move, "D4");
    assert_true(rq.has_n);
    assert_int_equal(rq.n, 12);
    json_decref(rq.root);
    /* an unparsable body still answers its id */
    const char *with_id = "{\"type\":\"game.move\",\"id\":5}";
    assert_int_equal(proto_parse(with_id, strlen(with_id), &rq, err, sizeof err), -1);
    assert_true(rq.has_id);
    assert_int_equal(rq.id, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turns_and_illegal_moves),
        cmocka_unit_test(test_capture_reported),
        cmocka_unit_test(test_removal_agreed_is_counted),
        cmocka_unit_test(test_removal_dispute_claimer_moves_first),
        cmocka_unit_test(test_concede_adopts_the_statement),
        cmocka_unit_test(test_undo_by_agreement),
        cmocka_unit_test(test_request_lapses_with_a_move),
        cmocka_unit_test(test_chat_is_bounded),
        cmocka_unit_test(test_counted_record_recounts),
        cmocka_unit_test(test_chat_after_undo_in_record),
        cmocka_unit_test(test_pause_stops_both_clocks),
        cmocka_unit_test(test_time_loss_in_byoyomi),
        cmocka_unit_test(test_absence_at_the_start),
        cmocka_unit_test(test_cancel_only_in_the_first_moves),
        cmocka_unit_test(test_free_handicap_placement),
        cmocka_unit_test(test_rebuilt_from_events),
        cmocka_unit_test(test_settings_strict),
        cmocka_unit_test(test_messages_strict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
