/*
 * test_gtp_extensions.c — the commands a front end adds to the GTP engine
 * (tg_gtp_extension, tengen/gtp.h): listed and known, argument counts
 * checked, errors, and streamed answers (tg_gtp_reply_flush) — sent in
 * parts under tg_gtp_feed, whole under tg_gtp_execute, always one answer
 * per line with its id and no empty line before the closing one; and
 * tg_gtp_genmove_with, genmove with the front end's move generator; the
 * move generator the caller gives tg_gtp_new, and none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gtp_session.h"

/* "stream N": N parts "part i\n", each flushed, then "done". */
static bool cmd_stream(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    int *calls = ctx;
    (void)gtp, (void)argc;
    ++*calls;
    int n = atoi(argv[0]);
    for (int i = 0; i < n; i++) {
        tg_gtp_reply_printf(reply, "part %d\n\n", i); /* the empty line must not get through */
        tg_gtp_reply_flush(reply);
    }
    tg_gtp_reply_printf(reply, "done\n");
    return true;
}

/* "echo ARG": a one-part answer, or an error for "bad" (after a flush
 * when the argument is "late"). */
static bool cmd_echo(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    (void)ctx, (void)gtp, (void)argc;
    if (!strcmp(argv[0], "late")) {
        tg_gtp_reply_printf(reply, "started");
        tg_gtp_reply_flush(reply);
        return tg_gtp_reply_fail(reply, "failed late");
    }
    if (!strcmp(argv[0], "bad"))
        return tg_gtp_reply_fail(reply, "bad argument");
    tg_gtp_reply_printf(reply, "%s", argv[0]);
    return true;
}

/* What the move generator of x-genmove answers, and what it was asked. */
typedef struct fixed_move {
    tg_point move;
    int asked;
    bool had_clock;
    tg_color color;              /* of the last question */
    bool cleanup;
    const tg_time_state *time;
    unsigned allowed;            /* the play flags the command could carry */
    unsigned flags;              /* the flags answered with the move */
} fixed_move;

static tg_status answer_fixed_move(void *ctx, const tg_game *g, tg_color color, const tg_time_state *time,
                                   bool cleanup, unsigned *flags, tg_point *move)
{
    fixed_move *f = ctx;
    (void)g;
    f->asked++;
    f->had_clock = time != NULL;
    f->color = color;
    f->cleanup = cleanup;
    f->time = time;
    f->allowed = *flags;
    *flags = f->flags;
    *move = f->move;
    return f->move == TG_NO_POINT ? TG_ERR_NO_MEMORY : TG_OK;
}

/* "x-genmove COLOR MOVE": tg_gtp_genmove_with a generator answering MOVE
 * (a vertex, "resign", "fail" for a generator that fails for want of
 * memory, or "engine" for the engine's own player); answers the move and
 * how often the generator was asked. */
static bool cmd_genmove(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    (void)ctx, (void)argc;
    tg_color color = argv[0][0] == 'w' ? TG_WHITE : TG_BLACK;
    fixed_move f = {.move = TG_RESIGN};
    bool engine = !strcmp(argv[1], "engine");
    if (!strcmp(argv[1], "fail"))
        f.move = TG_NO_POINT;
    else if (!engine && strcmp(argv[1], "resign") &&
        tg_vertex_parse(tg_game_board(tg_gtp_game(gtp)), argv[1], &f.move) != TG_OK)
        return tg_gtp_reply_fail(reply, "bad move");
    tg_point move;
    if (tg_gtp_genmove_with(gtp, color, false, engine ? NULL : answer_fixed_move, &f, &move) != TG_OK)
        return tg_gtp_reply_fail(reply, "not played");
    char vertex[8];
    tg_point_to_vertex(tg_game_board(tg_gtp_game(gtp)), move, vertex);
    assert_true(f.asked == 0 || f.had_clock);
    tg_gtp_reply_printf(reply, "%s %d", vertex, f.asked);
    return true;
}

/* "name" cannot be replaced: the engine's own answers. */
static const tg_gtp_extension extensions[] = {
    {"x-stream", 1, 1, cmd_stream},
    {"x-echo", 1, 1, cmd_echo},
    {"name", 0, 0, cmd_echo},
    {"x-genmove", 2, 2, cmd_genmove},
};

static tg_gtp *new_engine(int *calls)
{
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    opt.size = 9;
    gs_use_baseline(&opt, 50);
    opt.extensions = extensions;
    opt.extension_count = 4;
    opt.extension_ctx = calls;
    tg_gtp *e = tg_gtp_new(&opt);
    assert_non_null(e);
    return e;
}

static void test_listed_and_known(void **state)
{
    (void)state;
    int calls = 0;
    tg_gtp *e = new_engine(&calls);
    char list[8192];
    snprintf(list, sizeof list, "\n%s\n", gs_ok(e, "list_commands"));
    assert_non_null(strstr(list, "\nx-stream\n"));
    assert_non_null(strstr(list, "\nx-echo\n"));
    assert_null(strstr(strstr(list, "\nname\n") + 1, "\nname\n")); /* listed once */
    assert_string_equal(gs_run(e, "known_command x-echo"), "= true\n\n");
    assert_string_equal(gs_run(e, "name"), "= tengen\n\n");
    tg_gtp_free(e);
}

static void test_arguments_and_errors(void **state)
{
    (void)state;
    int calls = 0;
    tg_gtp *e = new_engine(&calls);
    assert_string_equal(gs_run(e, "7 x-echo hello"), "=7 hello\n\n");
    assert_string_equal(gs_run(e, "8 x-echo bad"), "?8 bad argument\n\n");
    assert_string_equal(gs_run(e, "9 x-stream"), "?9 syntax error\n\n");
    assert_string_equal(gs_run(e, "x-stream 1 2"), "? syntax error\n\n");
    assert_int_equal(calls, 0);
    tg_gtp_free(e);
}

static void test_streamed_whole_under_execute(void **state)
{
    (void)state;
    int calls = 0;
    tg_gtp *e = new_engine(&calls);
    assert_string_equal(gs_run(e, "5 x-stream 2"), "=5\npart 0\npart 1\ndone\n\n");
    assert_string_equal(gs_run(e, "x-stream 0"), "= done\n\n"); /* never flushed: one part */
    assert_string_equal(gs_run(e, "x-echo late"), "=\nstarted\nfailed late\n\n");
    assert_int_equal(calls, 2);
    tg_gtp_free(e);
}

typedef struct collected {
    char text[4096];
    size_t len;
    int parts;
} collected;

static void collect(void *ctx, const char *text, size_t len)
{
    collected *c = ctx;
    assert_true(c->len + len < sizeof c->text);
    memcpy(c->text + c->len, text, len);
    c->len += len;
    c->text[c->len] = '\0';
    c->parts++;
}

static void test_streamed_in_parts_under_feed(void **state)
{
    (void)state;
    int calls = 0;
    tg_gtp *e = new_engine(&calls);
    collected c = {0};
    static const char input[] = "3 x-stream 2\n4 name\n";
    tg_gtp_feed(e, input, sizeof input - 1, collect, &c);
    assert_string_equal(c.text, "=3\npart 0\npart 1\ndone\n\n=4 tengen\n\n");
    assert_int_equal(c.parts, 4); /* two flushes, the end, and name */
    tg_gtp_free(e);
}

static int move_count(tg_gtp *e) { return tg_game_move_count(tg_gtp_game(e)); }

/* The front end's move is played as genmove plays it: on the board, and
 * undo takes it back. */
static void test_genmove_with_plays_and_undoes(void **state)
{
    (void)state;
    int calls = 0;
    tg_gtp *e = new_engine(&calls);
    assert_string_equal(gs_ok(e, "x-genmove b C3"), "C3 1");
    assert_string_equal(gs_ok(e, "list_stones black"), "C3");
    assert_int_equal(move_count(e), 1);
    gs_ok(e, "undo");
    assert_string_equal(gs_ok(e, "list_stones black"), "");
    assert_int_equal(move_count(e), 0);
    tg_gtp_free(e);
}

/* An illegal answer becomes a pass (played), a resignation plays
 * nothing, and without a generator the engine's player moves. */
static void test_genmove_with_checks_the_move(void **state)
{
    (void)state;
    int calls = 0;
    tg_gtp *e = new_engine(&calls);
    gs_ok(e, "play b D4");
    assert_string_equal(gs_ok(e, "x-genmove w D4"), "pass 1");
    assert_int_equal(move_count(e), 2);
    assert_string_equal(gs_ok(e, "x-genmove b resign"), "resign 1");
    assert_int_equal(move_count(e), 2);
    char answer[64];
    snprintf(answer, sizeof answer, "%s", gs_ok(e, "x-genmove b engine"));
    assert_int_equal(move_count(e), 3);
    assert_non_null(strstr(answer, " 0")); /* the generator given was not asked */
    tg_gtp_free(e);
}

/* A generator that fails (the search out of memory) plays nothing, and
 * genmove through the engine's player answers "? out of memory". */
static void test_genmove_with_a_failing_generator(void **state)
{
    (void)state;
    int calls = 0;
    tg_gtp *e = new_engine(&calls);
    gs_ok(e, "play b D4");
    gs_refused(e, "x-genmove w fail", "not played");
    assert_int_equal(move_count(e), 1);
    tg_gtp_free(e);

    fixed_move failing = {.move = TG_NO_POINT};
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    opt.size = 9;
    opt.player = (tg_gtp_player){.ctx = &failing, .genmove = answer_fixed_move};
    e = tg_gtp_new(&opt);
    assert_non_null(e);
    gs_refused(e, "genmove b", "out of memory");
    gs_refused(e, "kgs-genmove_cleanup b", "out of memory");
    assert_int_equal(move_count(e), 0);
    assert_int_equal(failing.asked, 2);
    tg_gtp_free(e);
}

/* After two passes the game goes on, as with genmove. */
static void test_genmove_with_resumes_an_ended_game(void **state)
{
    (void)state;
    int calls = 0;
    tg_gtp *e = new_engine(&calls);
    gs_ok(e, "play b pass");
    gs_ok(e, "play w pass");
    assert_string_equal(gs_ok(e, "x-genmove b E5"), "E5 1");
    assert_string_equal(gs_ok(e, "list_stones black"), "E5");
    tg_gtp_free(e);
}

/* genmove, reg_genmove and kgs-genmove_cleanup ask the generator the
 * caller gave tg_gtp_new, with the colour's time as the controller set it. */
static void test_callers_generator_answers_genmove(void **state)
{
    (void)state;
    fixed_move f = {.move = TG_PASS};
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    opt.size = 9;
    opt.player.genmove = answer_fixed_move;
    opt.player.ctx = &f;
    tg_gtp *e = tg_gtp_new(&opt);
    assert_non_null(e);
    assert_true(tg_vertex_parse(tg_game_board(tg_gtp_game(e)), "C3", &f.move) == TG_OK);
    gs_ok(e, "kgs-time_settings byoyomi 600 30 5");
    gs_ok(e, "time_left w 25 3");
    assert_string_equal(gs_ok(e, "genmove b"), "C3");
    assert_true(f.asked == 1 && f.color == TG_BLACK && !f.cleanup);
    assert_ptr_equal(f.time, tg_gtp_time_of(e, TG_BLACK));
    assert_true(f.time->control.system == TG_CLOCK_BYOYOMI && f.time->view.main_left_ms == 600000);
    f.move = TG_PASS;
    assert_string_equal(gs_ok(e, "reg_genmove w"), "pass");
    assert_true(f.asked == 2 && f.color == TG_WHITE);
    assert_true(f.time->view.in_overtime && f.time->view.period_left_ms == 25000 && f.time->view.periods_left == 3);
    assert_int_equal(move_count(e), 1); /* reg_genmove plays nothing */
    assert_string_equal(gs_ok(e, "kgs-genmove_cleanup w"), "pass");
    assert_true(f.asked == 3 && f.cleanup);
    assert_int_equal(move_count(e), 2);
    tg_gtp_free(e);
}

/* tengen-genmove_choice offers the generator the capture choice and
 * answers "VERTEX own" when it is taken; genmove offers nothing, and a
 * move taking a choice it was not offered is played as a pass, never
 * answered.  The position (5x5, capture=choose): White A1, B2, C2, D1,
 * Black A2, C1; Black at B1 leaves both sides' chains without liberties. */
static void test_genmove_choice(void **state)
{
    (void)state;
    fixed_move f = {.move = TG_PASS, .flags = TG_PLAY_CAPTURE_OWN};
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    opt.size = 5;
    opt.player.genmove = answer_fixed_move;
    opt.player.ctx = &f;
    tg_gtp *e = tg_gtp_new(&opt);
    assert_non_null(e);
    assert_true(tg_vertex_parse(tg_game_board(tg_gtp_game(e)), "B1", &f.move) == TG_OK);
    gs_ok(e, "tengen-rules capture=choose");
    const char *moves[] = {"b A2", "w A1", "b C1", "w B2", "b E5", "w C2", "b E4", "w D1"};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        char line[32];
        snprintf(line, sizeof line, "play %s", moves[i]);
        gs_ok(e, line);
    }
    /* genmove cannot say it: the answer is a pass, the choice never offered */
    assert_string_equal(gs_ok(e, "genmove b"), "pass");
    assert_int_equal(f.allowed, 0);
    gs_ok(e, "undo");
    assert_string_equal(gs_ok(e, "tengen-genmove_choice b"), "B1 own");
    assert_int_equal(f.allowed, TG_PLAY_CAPTURE_OWN);
    const tg_game *g = tg_gtp_game(e);
    assert_true(tg_game_move_captured_own(g, tg_game_move_count(g) - 1));
    const tg_board *b = tg_game_board(g);
    assert_int_equal(tg_board_at(b, tg_point_at(b, 1, 0)), TG_EMPTY); /* B1 and C1 went */
    assert_int_equal(tg_board_at(b, tg_point_at(b, 2, 0)), TG_EMPTY);
    assert_int_equal(tg_board_at(b, tg_point_at(b, 0, 0)), TG_WHITE); /* A1 stays */
    /* an ordinary answer is answered as genmove answers it */
    gs_ok(e, "undo");
    f.flags = 0;
    assert_string_equal(gs_ok(e, "tengen-genmove_choice b"), "B1");
    assert_int_equal(tg_board_at(tg_game_board(tg_gtp_game(e)), tg_point_at(b, 0, 0)), TG_EMPTY);
    /* where the rules have no choice, the flag makes the move illegal: a pass */
    gs_ok(e, "undo");
    gs_ok(e, "tengen-rules capture=opponent");
    f.flags = TG_PLAY_CAPTURE_OWN;
    assert_string_equal(gs_ok(e, "tengen-genmove_choice b"), "pass");
    char list[8192];
    snprintf(list, sizeof list, "\n%s\n", gs_ok(e, "list_commands"));
    assert_non_null(strstr(list, "\ntengen-genmove_choice\n"));
    tg_gtp_free(e);
}

/* Without a generator the engine plays no move of its own: genmove and its
 * variants are refused and change nothing; so is tg_gtp_genmove_with asked
 * for the engine's. */
static void test_no_generator(void **state)
{
    (void)state;
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    opt.size = 9;
    opt.extensions = extensions;
    opt.extension_count = 4;
    tg_gtp *e = tg_gtp_new(&opt);
    assert_non_null(e);
    gs_ok(e, "play b E5");
    gs_refused_unchanged(e, "genmove w", "no move generator");
    gs_refused_unchanged(e, "reg_genmove w", "no move generator");
    gs_refused_unchanged(e, "kgs-genmove_cleanup w", "no move generator");
    gs_refused_unchanged(e, "x-genmove w engine", "not played");
    assert_string_equal(gs_ok(e, "x-genmove w C3"), "C3 1"); /* a generator given still answers */
    tg_gtp_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listed_and_known),
        cmocka_unit_test(test_genmove_with_a_failing_generator),
        cmocka_unit_test(test_arguments_and_errors),
        cmocka_unit_test(test_streamed_whole_under_execute),
        cmocka_unit_test(test_streamed_in_parts_under_feed),
        cmocka_unit_test(test_genmove_with_plays_and_undoes),
        cmocka_unit_test(test_genmove_with_checks_the_move),
        cmocka_unit_test(test_genmove_with_resumes_an_ended_game),
        cmocka_unit_test(test_callers_generator_answers_genmove),
        cmocka_unit_test(test_no_generator),
        cmocka_unit_test(test_genmove_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
