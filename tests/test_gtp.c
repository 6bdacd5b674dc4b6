/*
 * test_gtp.c — the GTP engine (tengen/gtp.h) as a protocol: the protocol
 * commands, ids, the preprocessing of input, byte streams cut anywhere,
 * lines no controller should send (NUL bytes, a mebibyte long), and the
 * setup commands (boardsize, komi, rules, handicap, time) with their error
 * answers, each refusal leaving the position exactly as it was.
 * Playing, scoring and SGF files are in test_gtp_play.c.
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

/* ---- Protocol ------------------------------------------------------------ */

static void test_protocol_commands(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    assert_string_equal(gs_run(e, "protocol_version"), "= 2\n\n");
    assert_string_equal(gs_run(e, "42 protocol_version"), "=42 2\n\n");
    assert_string_equal(gs_run(e, "name"), "= tengen\n\n");
    assert_true(strlen(gs_ok(e, "version")) > 0);
    assert_string_equal(gs_run(e, "known_command play"), "= true\n\n");
    assert_string_equal(gs_run(e, "known_command tengen-rules"), "= true\n\n");
    assert_string_equal(gs_run(e, "known_command frobnicate"), "= false\n\n");
    gs_refused(e, "frobnicate", "unknown command");
    assert_string_equal(gs_run(e, "7 frobnicate"), "?7 unknown command\n\n");
    gs_refused(e, "PLAY b d4", "unknown command");
    gs_refused(e, "known_command", "syntax error");
    gs_refused(e, "name extra", "syntax error");
    assert_string_equal(gs_run(e, "9 clear_board"), "=9\n\n");
    tg_gtp_free(e);
}

static void test_list_commands_has_every_command(void **state)
{
    (void)state;
    static const char *const required[] = {
        "protocol_version", "name", "version", "known_command", "list_commands", "quit",
        "boardsize", "clear_board", "komi", "play", "genmove", "undo", "fixed_handicap",
        "place_free_handicap", "set_free_handicap", "final_score", "final_status_list",
        "time_settings", "time_left", "loadsgf", "showboard", "reg_genmove", "kgs-rules",
        "kgs-time_settings", "kgs-genmove_cleanup", "printsgf", "is_legal", "list_stones",
        "captures", "tengen-rules"};
    tg_gtp *e = gs_new_engine(19);
    char list[4096];
    snprintf(list, sizeof list, "\n%s\n", gs_ok(e, "list_commands"));
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "\n%s\n", required[i]);
        if (!strstr(list, needle))
            fail_msg("list_commands lacks %s", required[i]);
        snprintf(needle, sizeof needle, "known_command %s", required[i]);
        assert_string_equal(gs_ok(e, needle), "true");
    }
    tg_gtp_free(e);
}

static void test_quit(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    tg_gtp_answer a;
    assert_true(tg_gtp_execute(e, "3 quit", 6, &a));
    assert_int_equal(a.len, 4);
    assert_memory_equal(a.text, "=3\n\n", 4);
    tg_gtp_free(e);

    e = gs_new_engine(19);
    gs_collected c = {.len = 0};
    const char input[] = "name\nquit\nname\n";
    assert_true(tg_gtp_feed(e, input, sizeof input - 1, gs_collect, &c));
    assert_int_equal(c.count, 2);
    assert_string_equal(c.text, "= tengen\n\n=\n\n");
    assert_true(tg_gtp_feed(e, "name\n", 5, gs_collect, &c));
    assert_true(tg_gtp_finish(e, gs_collect, &c));
    assert_int_equal(c.count, 2);
    tg_gtp_free(e);
}

/* ---- Preprocessing ------------------------------------------------------- */

static void test_preprocessing(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    assert_string_equal(gs_run(e, ""), "");
    assert_string_equal(gs_run(e, "   \t  "), "");
    assert_string_equal(gs_run(e, "# a comment"), "");
    assert_string_equal(gs_run(e, "   # indented comment"), "");
    assert_string_equal(gs_run(e, "\tprotocol_version\t# why not"), "= 2\n\n");
    assert_string_equal(gs_run(e, "proto\x01\x1f""col_version\r"), "= 2\n\n");
    assert_string_equal(gs_run(e, "5\tname"), "=5 tengen\n\n");
    assert_string_equal(gs_run(e, "  12   known_command    play   "), "=12 true\n\n");
    assert_string_equal(gs_run(e, "play\tb\t\tD4"), "=\n\n");
    assert_string_equal(gs_ok(e, "list_stones black"), "D4");
    tg_gtp_free(e);
}

static void test_nul_byte_gets_an_error(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    gs_ok(e, "play b c3");
    gs_snapshot before;
    gs_take(e, &before);
    assert_int_equal(gs_run_len(e, "name\0", 5)[0], '?');
    assert_int_equal(gs_run_len(e, "\0", 1)[0], '?');
    assert_int_equal(gs_run_len(e, "play w d4\0", 10)[0], '?');
    const char *a = gs_run_len(e, "8 play w\0 d4", 12);
    assert_memory_equal(a, "?8 ", 3);
    gs_assert_unchanged(e, &before);

    gs_collected c = {.len = 0};
    const char input[] = "name\n\0\nplay b\0 e5\nlist_stones black\n";
    tg_gtp_feed(e, input, sizeof input - 1, gs_collect, &c);
    assert_int_equal(c.count, 4);
    assert_true(strstr(c.text, "= C3\n\n") != NULL);
    tg_gtp_free(e);
}

static void test_stream_in_any_chunks(void **state)
{
    (void)state;
    const char input[] = "name\r\n\n# comment\n  \t\n1 protocol_version\nplay b d4\n"
                         "2 list_stones black\nknown_command x";
    const char expected[] = "= tengen\n\n=1 2\n\n=\n\n=2 D4\n\n= false\n\n";
    for (size_t chunk = 1; chunk <= sizeof input; chunk++) {
        tg_gtp *e = gs_new_engine(19);
        gs_collected c = {.len = 0};
        gs_feed_in_chunks(e, input, sizeof input - 1, chunk, &c);
        assert_int_equal(c.count, 4);
        assert_false(tg_gtp_finish(e, gs_collect, &c));
        assert_string_equal(c.text, expected);
        tg_gtp_free(e);
    }
}

static char *repeated(const char *head, char fill, size_t n, const char *tail)
{
    size_t h = strlen(head), t = strlen(tail);
    char *s = malloc(h + n + t + 1);
    assert_non_null(s);
    memcpy(s, head, h);
    memset(s + h, fill, n);
    memcpy(s + h + n, tail, t + 1);
    return s;
}

static void test_mebibyte_lines(void **state)
{
    (void)state;
    const size_t mib = 1 << 20;
    tg_gtp *e = gs_new_engine(19);
    gs_ok(e, "play b d4");
    gs_snapshot before;
    gs_take(e, &before);

    /* one answer for the long line, then the engine is in step */
    gs_collected c = {.len = 0};
    char *line = repeated("play w ", 'A', mib, "\n3 list_stones black\n");
    gs_feed_in_chunks(e, line, strlen(line), 4096, &c);
    assert_int_equal(c.count, 2);
    assert_int_equal(c.text[0], '?');
    assert_true(strstr(c.text, "\n\n=3 D4\n\n") != NULL);
    free(line);

    /* with an id, the error carries it */
    c = (gs_collected){.len = 0};
    line = repeated("77 known_command ", 'x', mib, "\n");
    gs_feed_in_chunks(e, line, strlen(line), 65536, &c);
    assert_int_equal(c.count, 1);
    assert_memory_equal(c.text, "?77 ", 4);
    assert_int_equal(gs_run(e, line)[0], '?');
    free(line);

    /* whitespace and comments do not count towards the limit */
    c = (gs_collected){.len = 0};
    line = repeated("name", ' ', mib, "\n");
    gs_feed_in_chunks(e, line, strlen(line), 1000, &c);
    free(line);
    line = repeated("# ", 'z', mib, "\n");
    gs_feed_in_chunks(e, line, strlen(line), 1000, &c);
    free(line);
    line = repeated("", '\t', mib, "\n");
    gs_feed_in_chunks(e, line, strlen(line), 1000, &c);
    free(line);
    assert_int_equal(c.count, 1);
    assert_string_equal(c.text, "= tengen\n\n");
    gs_assert_unchanged(e, &before);

    /* a long line without a final newline is answered at the end of input */
    c = (gs_collected){.len = 0};
    line = repeated("", 'q', mib, "");
    gs_feed_in_chunks(e, line, strlen(line), 3000, &c);
    assert_int_equal(c.count, 0);
    tg_gtp_finish(e, gs_collect, &c);
    assert_int_equal(c.count, 1);
    assert_int_equal(c.text[0], '?');
    free(line);
    gs_assert_unchanged(e, &before);
    tg_gtp_free(e);
}

/* ---- Setup commands ------------------------------------------------------ */

static void test_boardsize(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    gs_ok(e, "play b c3");
    gs_refused_unchanged(e, "boardsize 1", "unacceptable size");
    gs_refused_unchanged(e, "boardsize 26", "unacceptable size");
    gs_refused_unchanged(e, "boardsize 0", "unacceptable size");
    gs_refused_unchanged(e, "boardsize -9", "unacceptable size");
    gs_refused_unchanged(e, "boardsize 99999999999999999999", "syntax error");
    gs_refused_unchanged(e, "boardsize nine", "syntax error");
    gs_refused_unchanged(e, "boardsize 9 13", "unacceptable size");
    gs_refused_unchanged(e, "boardsize 9:13", "unacceptable size");
    gs_refused_unchanged(e, "boardsize", "syntax error");
    gs_ok(e, "boardsize 9:9");
    assert_int_equal(tg_game_size(tg_gtp_game(e)), 9);
    gs_ok(e, "boardsize 2");
    assert_int_equal(tg_game_size(tg_gtp_game(e)), 2);
    gs_ok(e, "boardsize 25");
    assert_int_equal(tg_game_size(tg_gtp_game(e)), 25);
    assert_string_equal(gs_ok(e, "list_stones black"), "");
    gs_ok(e, "play b z25");
    assert_string_equal(gs_ok(e, "list_stones b"), "Z25");
    gs_ok(e, "clear_board");
    assert_string_equal(gs_ok(e, "list_stones b"), "");
    assert_int_equal(tg_game_move_count(tg_gtp_game(e)), 0);
    tg_gtp_free(e);
}

static void test_komi(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    gs_ok(e, "komi 6.5");
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->komi2, 13);
    gs_ok(e, "komi 7");
    gs_ok(e, "komi 0");
    gs_ok(e, "komi -3.5");
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->komi2, -7);
    gs_refused(e, "komi 7.25", "unacceptable komi");
    gs_refused(e, "komi 401", "unacceptable komi");
    gs_refused(e, "komi seven", "syntax error");
    gs_refused(e, "komi", "syntax error");
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->komi2, -7);
    assert_non_null(strstr(gs_ok(e, "tengen-rules"), "komi=-3.5"));
    tg_gtp_free(e);
}

static void test_rules_commands(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    const char *rules = gs_ok(e, "tengen-rules");
    assert_non_null(strstr(rules, "ko=positional"));
    assert_non_null(strstr(rules, "scoring=area"));
    assert_non_null(strstr(gs_ok(e, "tengen-rules japanese"), "scoring=territory"));
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->scoring, TG_SCORING_TERRITORY);
    rules = gs_ok(e, "tengen-rules chinese ko=simple komi=5.5");
    assert_non_null(strstr(rules, "ko=simple"));
    assert_non_null(strstr(rules, "komi=5.5"));
    char before[256];
    snprintf(before, sizeof before, "%s", gs_ok(e, "tengen-rules"));
    assert_int_equal(gs_run(e, "tengen-rules no-such-rules")[0], '?');
    assert_int_equal(gs_run(e, "tengen-rules ko=sideways")[0], '?');
    assert_string_equal(gs_ok(e, "tengen-rules"), before);

    gs_ok(e, "komi 0.5");
    gs_ok(e, "kgs-rules japanese");
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->scoring, TG_SCORING_TERRITORY);
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->komi2, 1);
    gs_ok(e, "kgs-rules new_zealand");
    assert_true(tg_game_rules(tg_gtp_game(e))->suicide);
    gs_ok(e, "kgs-rules aga");
    gs_ok(e, "kgs-rules chinese");
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->ko, TG_KO_POSITIONAL);
    gs_refused(e, "kgs-rules ing", "unknown rules");
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->komi2, 1);
    tg_gtp_free(e);
}

static void test_fixed_handicap(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    gs_refused_unchanged(e, "fixed_handicap 10", "invalid number of stones");
    gs_refused_unchanged(e, "fixed_handicap 1", "invalid number of stones");
    gs_refused_unchanged(e, "fixed_handicap 0", "invalid number of stones");
    gs_refused_unchanged(e, "fixed_handicap -4", "invalid number of stones");
    gs_refused_unchanged(e, "fixed_handicap many", "syntax error");
    const char *stones = gs_ok(e, "fixed_handicap 9");
    assert_int_equal(gs_count_words(stones), 9);
    assert_non_null(strstr(stones, "D4"));
    assert_non_null(strstr(stones, "Q16"));
    assert_non_null(strstr(stones, "K10"));
    assert_int_equal(gs_count_words(gs_ok(e, "list_stones black")), 9);
    assert_int_equal(tg_game_to_move(tg_gtp_game(e)), TG_WHITE);
    assert_int_equal(tg_game_handicap(tg_gtp_game(e)), 9);
    gs_refused_unchanged(e, "fixed_handicap 2", "board not empty");
    gs_refused_unchanged(e, "place_free_handicap 2", "board not empty");
    gs_refused_unchanged(e, "set_free_handicap a1 b2", "board not empty");
    gs_ok(e, "clear_board");
    gs_ok(e, "play b a1");
    gs_refused_unchanged(e, "fixed_handicap 2", "board not empty");
    tg_gtp_free(e);
}

static void test_free_handicap(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    gs_refused_unchanged(e, "place_free_handicap 1", "invalid number of stones");
    gs_refused_unchanged(e, "place_free_handicap 361", "invalid number of stones");
    gs_refused_unchanged(e, "place_free_handicap x", "syntax error");
    assert_int_equal(gs_count_words(gs_ok(e, "place_free_handicap 4")), 4);
    assert_int_equal(gs_count_words(gs_ok(e, "list_stones black")), 4);
    gs_ok(e, "clear_board");
    assert_int_equal(gs_count_words(gs_ok(e, "place_free_handicap 25")), 25);
    assert_int_equal(gs_count_words(gs_ok(e, "list_stones black")), 25);
    gs_ok(e, "clear_board");
    gs_ok(e, "boardsize 3");
    assert_int_equal(gs_count_words(gs_ok(e, "place_free_handicap 8")), 8);
    gs_ok(e, "boardsize 19");

    gs_refused_unchanged(e, "set_free_handicap a1", "bad vertex list");
    gs_refused_unchanged(e, "set_free_handicap a1 a1", "bad vertex list");
    gs_refused_unchanged(e, "set_free_handicap a1 pass", "bad vertex list");
    gs_refused_unchanged(e, "set_free_handicap a1 z99", "bad vertex list");
    gs_refused_unchanged(e, "set_free_handicap a1 i5", "bad vertex list");
    gs_refused_unchanged(e, "set_free_handicap", "syntax error");
    assert_string_equal(gs_run(e, "set_free_handicap a1 T19 k10"), "=\n\n");
    assert_string_equal(gs_ok(e, "list_stones black"), "T19 K10 A1");
    assert_int_equal(tg_game_handicap(tg_gtp_game(e)), 3);
    tg_gtp_free(e);
}

static void test_time_commands(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    const tg_time_state *black = tg_gtp_time_of(e, TG_BLACK), *white = tg_gtp_time_of(e, TG_WHITE);
    const tg_time_control *tc = &white->control;
    assert_int_equal(tc->system, TG_CLOCK_NONE);
    gs_ok(e, "time_settings 300 30 5");
    assert_int_equal(tc->system, TG_CLOCK_CANADIAN);
    assert_true(tc->main_ms == 300000 && tc->period_ms == 30000 && tc->stones == 5);
    gs_ok(e, "time_settings 600 0 0");
    assert_int_equal(tc->system, TG_CLOCK_ABSOLUTE);
    gs_ok(e, "time_settings 0 1 0");
    assert_int_equal(tc->system, TG_CLOCK_NONE);
    gs_refused(e, "time_settings 300 30", "syntax error");
    gs_refused(e, "time_settings -1 30 5", "syntax error");
    gs_refused(e, "time_settings 300 30 five", "syntax error");
    gs_ok(e, "kgs-time_settings byoyomi 600 30 5");
    assert_int_equal(tc->system, TG_CLOCK_BYOYOMI);
    assert_true(tc->main_ms == 600000 && tc->period_ms == 30000 && tc->periods == 5);
    assert_int_equal(black->control.system, TG_CLOCK_BYOYOMI);
    gs_ok(e, "kgs-time_settings canadian 60 300 25");
    assert_int_equal(tc->system, TG_CLOCK_CANADIAN);
    assert_int_equal(tc->stones, 25);
    gs_ok(e, "kgs-time_settings absolute 900");
    assert_int_equal(tc->system, TG_CLOCK_ABSOLUTE);
    gs_ok(e, "kgs-time_settings none");
    assert_int_equal(tc->system, TG_CLOCK_NONE);
    gs_refused(e, "kgs-time_settings byoyomi 600", "syntax error");
    gs_refused(e, "kgs-time_settings hourglass 60", "syntax error");
    gs_refused(e, "kgs-time_settings none 5", "syntax error");

    /* until time_left speaks, all of the time is left; new settings forget it */
    gs_ok(e, "kgs-time_settings byoyomi 600 30 5");
    assert_true(white->view.main_left_ms == 600000 && !white->view.in_overtime);
    gs_ok(e, "time_left white 20 3"); /* in byo-yomi: 20 s of the period, 3 periods */
    assert_true(white->view.in_overtime && white->view.period_left_ms == 20000);
    assert_int_equal(white->view.periods_left, 3);
    assert_int_equal(black->view.main_left_ms, 600000);
    gs_ok(e, "time_left B 30.5 0"); /* in main time */
    assert_true(!black->view.in_overtime && black->view.main_left_ms == 30500);
    gs_ok(e, "kgs-time_settings canadian 60 300 25");
    assert_true(white->view.main_left_ms == 60000 && !white->view.in_overtime);
    gs_ok(e, "time_left w 100 7"); /* in a block: 100 s for 7 stones */
    assert_true(white->view.in_overtime && white->view.period_left_ms == 100000);
    assert_int_equal(white->view.stones_left, 7);
    gs_refused(e, "time_left x 1 1", "invalid color");
    gs_refused(e, "time_left b soon 1", "syntax error");
    tg_gtp_free(e);
}

static void test_options(void **state)
{
    (void)state;
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    assert_int_equal(opt.size, 19);
    opt.size = 1;
    assert_null(tg_gtp_new(&opt));
    opt.size = 26;
    assert_null(tg_gtp_new(&opt));
    opt.size = 13;
    assert_int_equal(tg_rules_apply(&opt.rules, "japanese komi=0.5", NULL, 0), TG_OK);
    tg_gtp *e = tg_gtp_new(&opt);
    assert_non_null(e);
    assert_int_equal(tg_game_size(tg_gtp_game(e)), 13);
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->komi2, 1);
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->scoring, TG_SCORING_TERRITORY);
    tg_gtp_free(e);
    tg_gtp_free(NULL);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_protocol_commands),
        cmocka_unit_test(test_list_commands_has_every_command),
        cmocka_unit_test(test_quit),
        cmocka_unit_test(test_preprocessing),
        cmocka_unit_test(test_nul_byte_gets_an_error),
        cmocka_unit_test(test_stream_in_any_chunks),
        cmocka_unit_test(test_mebibyte_lines),
        cmocka_unit_test(test_boardsize),
        cmocka_unit_test(test_komi),
        cmocka_unit_test(test_rules_commands),
        cmocka_unit_test(test_fixed_handicap),
        cmocka_unit_test(test_free_handicap),
        cmocka_unit_test(test_time_commands),
        cmocka_unit_test(test_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
