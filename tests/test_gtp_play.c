/*
 * test_gtp_play.c — the GTP engine's game commands: play (strict: every
 * illegal move refused with the position unchanged; colour from the
 * command; play resumes a game ended by two passes), genmove and its
 * variants, undo, is_legal, list_stones, captures, final_score,
 * final_status_list, showboard, loadsgf and printsgf.
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
#include "tengen/score.h"

/* ---- Playing ------------------------------------------------------------- */

static void test_play_argument_errors(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    gs_ok(e, "play b d4");
    gs_refused_unchanged(e, "play x a1", "invalid color");
    gs_refused_unchanged(e, "play blackish a1", "invalid color");
    gs_refused_unchanged(e, "play b z1", "invalid coordinate");
    gs_refused_unchanged(e, "play b a20", "invalid coordinate");
    gs_refused_unchanged(e, "play b i5", "invalid coordinate");
    gs_refused_unchanged(e, "play b a0", "invalid coordinate");
    gs_refused_unchanged(e, "play b 44", "invalid coordinate");
    gs_refused_unchanged(e, "play b", "syntax error");
    gs_refused_unchanged(e, "play", "syntax error");
    gs_refused_unchanged(e, "play b a1 a2", "syntax error");
    gs_refused_unchanged(e, "genmove", "syntax error");
    gs_refused_unchanged(e, "genmove purple", "invalid color");
    gs_refused_unchanged(e, "is_legal b", "syntax error");
    gs_refused_unchanged(e, "is_legal b j99", "invalid coordinate");
    gs_refused_unchanged(e, "list_stones grey", "invalid color");
    gs_refused_unchanged(e, "captures", "syntax error");
    gs_ok(e, "play WHITE j10");
    gs_ok(e, "play Black pass");
    gs_ok(e, "play w T19");
    assert_string_equal(gs_ok(e, "list_stones white"), "T19 J10");
    tg_gtp_free(e);
}

static void test_play_refuses_illegal_moves(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(5);
    /* occupied, and single-stone suicide in the corner */
    gs_ok(e, "play w a2");
    gs_ok(e, "play w b1");
    gs_refused_unchanged(e, "play b a2", "illegal move");
    gs_refused_unchanged(e, "play w b1", "illegal move");
    assert_string_equal(gs_ok(e, "is_legal b a1"), "0");
    assert_string_equal(gs_ok(e, "is_legal w a1"), "1");
    gs_refused_unchanged(e, "play b a1", "illegal move");

    /* simple ko: White takes, Black may not retake at once */
    gs_ok(e, "clear_board");
    const char *setup[] = {"play b b4", "play b a3", "play b c3", "play b b2",
                           "play w c4", "play w d3", "play w c2"};
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++)
        gs_ok(e, setup[i]);
    gs_ok(e, "play w b3");
    assert_string_equal(gs_ok(e, "captures white"), "1");
    assert_string_equal(gs_ok(e, "captures black"), "0");
    assert_string_equal(gs_ok(e, "is_legal b c3"), "0");
    gs_refused_unchanged(e, "play b c3", "illegal move");
    gs_ok(e, "play b e5");
    gs_ok(e, "play w e1");
    assert_string_equal(gs_ok(e, "is_legal b c3"), "1");
    gs_ok(e, "play b c3");
    assert_string_equal(gs_ok(e, "captures black"), "1");
    tg_gtp_free(e);
}

/* CASES.md T10: sending two and returning one. */
static void send_two_return_one(tg_gtp *e)
{
    const char *moves[] = {"play w a3", "play w a2", "play w b1", "play b b2",
                           "play b c2", "play b d1", "play w c1", "play b a1"};
    gs_ok(e, "clear_board");
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        gs_ok(e, moves[i]);
    assert_string_equal(gs_ok(e, "captures black"), "2");
}

static void test_superko(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(5);
    send_two_return_one(e);
    assert_string_equal(gs_ok(e, "is_legal w b1"), "0");
    gs_refused_unchanged(e, "play w b1", "illegal move");
    gs_ok(e, "tengen-rules japanese");
    send_two_return_one(e);
    gs_ok(e, "play w b1");
    assert_string_equal(gs_ok(e, "captures white"), "1");
    tg_gtp_free(e);
}

static void test_colour_from_command_and_play_after_passes(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    gs_ok(e, "play w e5");
    gs_ok(e, "play w d4");
    assert_int_equal(tg_game_to_move(tg_gtp_game(e)), TG_BLACK);
    gs_ok(e, "play b pass");
    gs_ok(e, "play w pass");
    gs_ok(e, "play b c3");
    gs_ok(e, "play b pass");
    gs_ok(e, "play w pass");
    gs_refused(e, "play b c3", "illegal move");
    gs_ok(e, "play w pass");
    gs_ok(e, "play b g7");
    assert_string_equal(gs_ok(e, "list_stones black"), "G7 C3");
    tg_gtp_free(e);

    /* found by fuzz_gtp: a game of nothing but passes, then a move */
    e = gs_new_engine(5);
    gs_ok(e, "play b pass");
    gs_ok(e, "play w pass");
    assert_string_equal(gs_ok(e, "is_legal b c3"), "1");
    gs_ok(e, "play b c3");
    assert_string_equal(gs_ok(e, "list_stones black"), "C3");
    tg_gtp_free(e);
}

static void test_undo(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    gs_refused_unchanged(e, "undo", "cannot undo");
    gs_ok(e, "play w a2");
    gs_ok(e, "play b a1");
    gs_snapshot before;
    gs_take(e, &before);
    gs_ok(e, "play b b2");
    gs_ok(e, "play w b1");
    assert_string_equal(gs_ok(e, "captures white"), "1");
    assert_string_equal(gs_ok(e, "list_stones black"), "B2");
    gs_ok(e, "undo");
    gs_ok(e, "undo");
    gs_assert_unchanged(e, &before);
    assert_string_equal(gs_ok(e, "captures white"), "0");
    gs_ok(e, "undo");
    gs_ok(e, "undo");
    gs_refused(e, "undo", "cannot undo");
    tg_gtp_free(e);
}

static void test_stones_and_captures(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    assert_string_equal(gs_ok(e, "list_stones white"), "");
    gs_ok(e, "play b b1");
    gs_ok(e, "play b a2");
    gs_refused(e, "play w a1", "illegal move");   /* no liberty, captures nothing */
    gs_ok(e, "play w c1");
    gs_ok(e, "play w b2");
    gs_ok(e, "play w a3");
    assert_string_equal(gs_ok(e, "list_stones WHITE"), "A3 B2 C1");
    assert_string_equal(gs_ok(e, "captures w"), "0");
    gs_ok(e, "play w a1");
    assert_string_equal(gs_ok(e, "captures w"), "2");
    assert_string_equal(gs_ok(e, "captures b"), "0");
    assert_string_equal(gs_ok(e, "list_stones black"), "");
    tg_gtp_free(e);
}

static bool is_answer_move(const char *s, tg_gtp *e)
{
    if (!strcmp(s, "pass") || !strcmp(s, "resign"))
        return true;
    tg_point p;
    return tg_vertex_parse(tg_game_board(tg_gtp_game(e)), s, &p) == TG_OK;
}

static void test_genmove(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    char move[16];
    snprintf(move, sizeof move, "%s", gs_ok(e, "genmove b"));
    assert_true(is_answer_move(move, e));
    if (strcmp(move, "pass") && strcmp(move, "resign")) {
        assert_string_equal(gs_ok(e, "list_stones black"), move);
        assert_int_equal(tg_game_move_count(tg_gtp_game(e)), 1);
    }
    gs_snapshot before;
    gs_take(e, &before);
    snprintf(move, sizeof move, "%s", gs_ok(e, "reg_genmove w"));
    assert_true(is_answer_move(move, e));
    gs_assert_unchanged(e, &before);
    snprintf(move, sizeof move, "%s", gs_ok(e, "kgs-genmove_cleanup w"));
    assert_true(is_answer_move(move, e));
    for (int i = 0; i < 30; i++) {
        snprintf(move, sizeof move, "%s", gs_ok(e, i % 2 ? "genmove w" : "genmove b"));
        assert_true(is_answer_move(move, e));
    }
    gs_ok(e, "play b pass");
    gs_ok(e, "play w pass");
    assert_true(is_answer_move(gs_ok(e, "genmove b"), e));
    tg_gtp_free(e);
}

/* ---- Scoring ------------------------------------------------------------- */

static void test_final_score(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(5);
    assert_string_equal(gs_ok(e, "final_score"), "W+7.5");
    gs_ok(e, "komi 0");
    assert_string_equal(gs_ok(e, "final_score"), "0");
    gs_ok(e, "tengen-rules tromp-taylor komi=7.5");
    const char *wall[] = {"play b c1", "play b c2", "play b c3", "play b c4", "play b c5"};
    for (size_t i = 0; i < 5; i++)
        gs_ok(e, wall[i]);
    assert_string_equal(gs_ok(e, "final_score"), "B+17.5");
    assert_string_equal(gs_ok(e, "final_status_list dead"), "");
    assert_string_equal(gs_ok(e, "final_status_list alive"), "C5 C4 C3 C2 C1");
    assert_string_equal(gs_ok(e, "final_status_list seki"), "");
    gs_refused(e, "final_status_list undead", "syntax error");
    gs_refused(e, "final_status_list", "syntax error");
    tg_gtp_free(e);
}

static void test_final_status_consistent_with_score(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    const char *moves[] = {"play b c3", "play w g7", "play b c7", "play w g3", "play b e5",
                           "play w f5", "play b d6", "play w e4", "play b pass", "play w pass"};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        gs_ok(e, moves[i]);
    char score[32], dead[512];
    snprintf(score, sizeof score, "%s", gs_ok(e, "final_score"));
    assert_true(score[0] == 'B' || score[0] == 'W' || score[0] == '0');
    snprintf(dead, sizeof dead, "%s", gs_ok(e, "final_status_list dead"));
    assert_string_equal(gs_ok(e, "final_score"), score);
    assert_string_equal(gs_ok(e, "final_status_list dead"), dead);
    int alive = gs_count_words(gs_ok(e, "final_status_list alive"));
    assert_int_equal(alive + gs_count_words(dead), 8);
    tg_gtp_free(e);
}

/* A front end whose dead-stone judgement changes every time it is asked
 * (a search reusing its tree does): G7 dead one time, alive the next. */
static void fickle_dead_stones(void *ctx, const tg_game *g, uint8_t *dead)
{
    int *calls = ctx;
    const tg_board *b = tg_game_board(g);
    memset(dead, 0, TG_MAX_POINTS);
    dead[tg_point_at(b, 6, 6)] = (uint8_t)(++*calls % 2);
}

/* Issue 41, item 5: final_score, final_status_list dead, final_score give
 * one count and one dead list for one position, however the estimate is
 * made, until a move changes the position. */
static void test_one_count_per_position(void **state)
{
    (void)state;
    int calls = 0;
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    opt.size = 9;
    opt.player.ctx = &calls;
    opt.player.dead_stones = fickle_dead_stones;
    tg_gtp *e = tg_gtp_new(&opt);
    assert_non_null(e);
    gs_ok(e, "komi 0");
    gs_ok(e, "play b c3");
    gs_ok(e, "play w g7");
    char score[32];
    snprintf(score, sizeof score, "%s", gs_ok(e, "final_score"));
    assert_string_equal(score, "B+81");
    assert_string_equal(gs_ok(e, "final_status_list dead"), "G7");
    assert_string_equal(gs_ok(e, "final_score"), score);
    assert_string_equal(gs_ok(e, "final_status_list dead"), "G7");
    assert_int_equal(calls, 1);
    gs_ok(e, "play b pass");   /* a move: the position is asked again */
    assert_string_equal(gs_ok(e, "final_status_list dead"), "");
    assert_string_equal(gs_ok(e, "final_score"), "0");
    assert_int_equal(calls, 2);
    tg_gtp_free(e);
}

/* Without a front end's judgement the count is the position's own estimate,
 * the one `tengen score` makes (tg_game_estimate_dead). */
static void test_count_is_the_positions_estimate(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    const char *moves[] = {"play b c3", "play w g7", "play b c7", "play w g3", "play b e5",
                           "play w f5", "play b d6", "play w e4", "play b g6", "play w pass"};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        gs_ok(e, moves[i]);
    uint8_t dead[TG_MAX_POINTS];
    tg_game_estimate_dead(tg_gtp_game(e), 0, 0, dead);
    tg_score expected;
    tg_score_game(tg_gtp_game(e), dead, &expected);
    char re[32];
    tg_result_to_sgf(&expected.result, re, sizeof re);
    assert_string_equal(gs_ok(e, "final_score"), re);
    tg_gtp_free(e);
}

/* Issue 41, item 4: under simple ko a third occurrence of a situation ends
 * the game (cycle=no-result), but in GTP the controller is the referee: its
 * later moves are played, and final_score keeps the cycle's outcome.  The
 * triple ko of CASES T11 (tests/data/golden/C7_T11_triple_ko_simple_ko.txt). */
static void test_play_goes_on_after_a_cycle(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    gs_ok(e, "kgs-rules japanese");
    const char *setup[] = {"play b B9", "play w A9", "play b D9", "play w B8", "play b C8",
                           "play w C2", "play b B2", "play w H2", "play b G2", "play w B1",
                           "play b A1", "play w D1", "play b F1", "play w G1", "play w J1"};
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++)
        gs_ok(e, setup[i]);
    const char *cycle[] = {"play b C1", "play w C9", "play b H1", "play w B1", "play b B9", "play w G1"};
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < 6; i++)
            gs_ok(e, cycle[i]);
    assert_true(tg_game_over(tg_gtp_game(e)));
    assert_int_equal(tg_game_cycle_result(tg_gtp_game(e)).kind, TG_RESULT_NO_RESULT);
    gs_refused(e, "final_score", "no result: a cycle ended the game (the rules' cycle=no-result)");
    /* the controller plays on: accepted, and the outcome stays */
    gs_ok(e, "play b E5");
    assert_int_equal(tg_game_move_count(tg_gtp_game(e)), 28);
    gs_ok(e, "play w E4");
    gs_refused(e, "final_score", "no result: a cycle ended the game (the rules' cycle=no-result)");
    /* undo back past the cycle's move forgets it */
    gs_ok(e, "undo");
    gs_ok(e, "undo");
    gs_ok(e, "undo");
    assert_int_equal(tg_game_cycle_result(tg_gtp_game(e)).kind, TG_RESULT_NONE);
    assert_false(tg_game_over(tg_gtp_game(e)));
    assert_true(strlen(gs_ok(e, "final_score")) > 0);
    tg_gtp_free(e);
}

/* ---- Showboard ----------------------------------------------------------- */

static void test_showboard(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(9);
    gs_ok(e, "play b c3");
    gs_ok(e, "play w e5");
    const char *a = gs_run(e, "showboard");
    assert_memory_equal(a, "= \n", 3);
    assert_non_null(strstr(a, "A B C D E F G H J"));
    assert_null(strstr(a, " I "));
    assert_non_null(strstr(a, "\n 3 . . X . "));
    assert_non_null(strstr(a, " 5 . . . .(O). . . . 5"));
    assert_non_null(strstr(a, "Black to move"));
    assert_non_null(strstr(a, "captured"));
    gs_ok(e, "boardsize 25");
    a = gs_run(e, "showboard");
    assert_non_null(strstr(a, "A B C D E F G H J K L M N O P Q R S T U V W X Y Z"));
    assert_non_null(strstr(a, "\n25 "));
    tg_gtp_free(e);
}

/* ---- SGF files ----------------------------------------------------------- */

typedef struct memory_file {
    const char *name;
    char data[4096];
    size_t len;
} memory_file;

typedef struct memory_files {
    memory_file files[8];
    int count;
} memory_files;

static tg_status read_memory(void *ctx, const char *path, char **data, size_t *len)
{
    memory_files *fs = ctx;
    for (int i = 0; i < fs->count; i++)
        if (!strcmp(fs->files[i].name, path)) {
            *data = malloc(fs->files[i].len + 1);
            memcpy(*data, fs->files[i].data, fs->files[i].len);
            *len = fs->files[i].len;
            return TG_OK;
        }
    return TG_ERR_IO;
}

static tg_status write_memory(void *ctx, const char *path, const char *data, size_t len)
{
    memory_files *fs = ctx;
    if (fs->count == 8 || len >= sizeof fs->files[0].data)
        return TG_ERR_IO;
    memory_file *f = &fs->files[fs->count++];
    f->name = strcmp(path, "saved.sgf") ? "other" : "saved.sgf";
    memcpy(f->data, data, len);
    f->len = len;
    return TG_OK;
}

static void add_file(memory_files *fs, const char *name, const char *text)
{
    memory_file *f = &fs->files[fs->count++];
    f->name = name;
    f->len = strlen(text);
    memcpy(f->data, text, f->len);
}

static void test_loadsgf(void **state)
{
    (void)state;
    memory_files fs = {.count = 0};
    add_file(&fs, "game.sgf", "(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc];B[gg];W[gc])");
    add_file(&fs, "truncated.sgf", "(;GM[1]FF[4]SZ[9];B[ee];W[c");
    add_file(&fs, "empty.sgf", "");
    add_file(&fs, "garbage.sgf", "this is not SGF at all");
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    opt.read_file = read_memory;
    opt.write_file = write_memory;
    opt.file_ctx = &fs;
    tg_gtp *e = tg_gtp_new(&opt);
    assert_non_null(e);
    gs_ok(e, "play b q16");
    gs_refused_unchanged(e, "loadsgf missing.sgf", "cannot load file");
    const char *bad[] = {"loadsgf truncated.sgf", "loadsgf empty.sgf", "loadsgf garbage.sgf"};
    for (int i = 0; i < 3; i++) {
        gs_snapshot before;
        gs_take(e, &before);
        const char *a = gs_run(e, bad[i]);
        assert_memory_equal(a, "? cannot load file", 18);
        gs_assert_unchanged(e, &before);
    }
    gs_refused_unchanged(e, "loadsgf game.sgf 0", "syntax error");
    gs_refused_unchanged(e, "loadsgf game.sgf two", "syntax error");
    gs_refused_unchanged(e, "loadsgf", "syntax error");

    assert_string_equal(gs_run(e, "loadsgf game.sgf"), "=\n\n");
    assert_int_equal(tg_game_size(tg_gtp_game(e)), 9);
    assert_int_equal(tg_game_rules(tg_gtp_game(e))->komi2, 13);
    assert_string_equal(gs_ok(e, "list_stones black"), "E5 G3");
    assert_string_equal(gs_ok(e, "list_stones white"), "C7 G7");
    gs_ok(e, "loadsgf game.sgf 3");
    assert_string_equal(gs_ok(e, "list_stones black"), "E5");
    assert_string_equal(gs_ok(e, "list_stones white"), "C7");
    assert_int_equal(tg_game_to_move(tg_gtp_game(e)), TG_BLACK);
    gs_ok(e, "loadsgf game.sgf 1");
    assert_string_equal(gs_ok(e, "list_stones black"), "");

    gs_ok(e, "loadsgf game.sgf");
    const char *sgf = gs_ok(e, "printsgf");
    assert_memory_equal(sgf, "(;", 2);
    assert_non_null(strstr(sgf, "SZ[9]"));
    assert_string_equal(gs_run(e, "printsgf saved.sgf"), "=\n\n");
    gs_ok(e, "clear_board");
    gs_ok(e, "loadsgf saved.sgf");
    assert_string_equal(gs_ok(e, "list_stones black"), "E5 G3");
    assert_string_equal(gs_ok(e, "list_stones white"), "C7 G7");
    tg_gtp_free(e);
}

static void test_files_disabled(void **state)
{
    (void)state;
    tg_gtp *e = gs_new_engine(19);
    gs_refused_unchanged(e, "loadsgf /etc/passwd", "cannot load file");
    gs_refused_unchanged(e, "printsgf /tmp/tengen-should-not-exist.sgf", "cannot save file");
    assert_memory_equal(gs_ok(e, "printsgf"), "(;", 2);
    tg_gtp_free(e);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_argument_errors),
        cmocka_unit_test(test_play_refuses_illegal_moves),
        cmocka_unit_test(test_superko),
        cmocka_unit_test(test_colour_from_command_and_play_after_passes),
        cmocka_unit_test(test_undo),
        cmocka_unit_test(test_stones_and_captures),
        cmocka_unit_test(test_genmove),
        cmocka_unit_test(test_final_score),
        cmocka_unit_test(test_final_status_consistent_with_score),
        cmocka_unit_test(test_one_count_per_position),
        cmocka_unit_test(test_play_goes_on_after_a_cycle),
        cmocka_unit_test(test_count_is_the_positions_estimate),
        cmocka_unit_test(test_showboard),
        cmocka_unit_test(test_loadsgf),
        cmocka_unit_test(test_files_disabled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
