/*
 * test_referee.c — unit tests of referee.h: engine processes (answers,
 * failures, garbage, crash, timeout, known_command), one refereed game
 * between scripted engines, the schedule (pairings, colours, openings,
 * determinism), openings, the JSON record both ways, Elo and the SPRT.
 * The end-to-end edges (clocks, policies, disputes) are in
 * tests/scripts/match_faults.sh; tests never time things.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tengen/referee.h"
#include "tengen/score.h"
#include "tengen/sgf.h"

static tg_engine *start(const char *command)
{
    tg_engine_config cfg = {.name = "t", .command = command, .quit_grace_ms = 200};
    tg_engine *e = NULL;
    char err[128];
    assert_int_equal(tg_engine_start(&cfg, &e, err, sizeof err), TG_OK);
    return e;
}

static int64_t soon(void) { return tg_clock_now_ms() + 5000; }

static void test_engine_answers(void **state)
{
    (void)state;
    tg_engine *e = start("sh fake_engines/fake_gtp.sh lacks=undo");
    char answer[64];
    assert_int_equal(tg_engine_send(e, "name", soon(), answer, sizeof answer), TG_REPLY_OK);
    assert_string_equal(answer, "fake");
    assert_true(tg_engine_knows(e, "genmove", soon()));
    assert_false(tg_engine_knows(e, "undo", soon()));
    assert_int_equal(tg_engine_send(e, "undo", soon(), answer, sizeof answer), TG_REPLY_FAILURE);
    assert_string_equal(answer, "unknown command");
    tg_engine_free(e);
}

static void test_engine_failures(void **state)
{
    (void)state;
    char answer[64];
    tg_engine *e = start("printf 'hello\\n\\n'; sleep 5");
    assert_int_equal(tg_engine_send(e, "name", soon(), answer, sizeof answer), TG_REPLY_GARBAGE);
    tg_engine_free(e);
    e = start("exit 0");
    assert_int_equal(tg_engine_send(e, "name", soon(), answer, sizeof answer), TG_REPLY_DIED);
    char err[128];
    assert_int_equal(tg_engine_restart(e, err, sizeof err), TG_OK);
    assert_int_equal(tg_engine_send(e, "name", soon(), answer, sizeof answer), TG_REPLY_DIED);
    tg_engine_free(e);
    e = start("sleep 10");
    assert_int_equal(tg_engine_send(e, "name", tg_clock_now_ms() + 50, answer, sizeof answer),
                     TG_REPLY_TIMEOUT);
    tg_engine_free(e);
    e = start("/nonexistent/engine");
    assert_int_equal(tg_engine_send(e, "name", soon(), answer, sizeof answer), TG_REPLY_DIED);
    tg_engine_free(e);
    tg_engine_free(NULL);
}

static void test_engine_stop_flag(void **state)
{
    (void)state;
    atomic_int stop = 1;
    tg_engine_config cfg = {.name = "t", .command = "sleep 10", .stop = &stop};
    tg_engine *e;
    char err[64], answer[16];
    assert_int_equal(tg_engine_start(&cfg, &e, err, sizeof err), TG_OK);
    assert_int_equal(tg_engine_send(e, "name", -1, answer, sizeof answer), TG_REPLY_STOPPED);
    tg_engine_free(e);
}

static void test_referee_play(void **state)
{
    (void)state;
    tg_engine *b = start("sh fake_engines/fake_gtp.sh moves=C3");
    tg_engine *w = start("sh fake_engines/fake_gtp.sh fail=1:garbage");
    tg_referee_config cfg = {.size = 5, .timeout_ms = 5000, .black_name = "b", .white_name = "w"};
    tg_rules_default(&cfg.rules);
    tg_referee_outcome out;
    char *sgf;
    assert_int_equal(tg_referee_play(&cfg, b, w, NULL, &out, &sgf), TG_OK);
    assert_string_equal(out.result_text, "B+F");
    assert_int_equal(out.reason, TG_END_GARBAGE);
    assert_int_equal(out.culprit, TG_WHITE);
    assert_true(out.restart[TG_WHITE]);
    assert_non_null(strstr(sgf, "RE[B+F]"));
    assert_non_null(strstr(sgf, "PB[b]"));
    free(sgf);
    char err[64];
    assert_int_equal(tg_engine_restart(w, err, sizeof err), TG_OK);
    assert_int_equal(tg_referee_play(&cfg, w, b, NULL, &out, NULL), TG_OK);
    assert_int_equal(out.reason, TG_END_GARBAGE); /* a fresh process fails afresh */
    assert_string_equal(out.result_text, "W+F");
    tg_engine_free(b);
    tg_engine_free(w);
}

/* The whole of a small file, for the engines' logs. */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Under capture=choose the referee asks an engine with
 * tengen-genmove_choice where the opponent knows tengen-capture_own,
 * plays "B1 own" as the capture choice, tells the opponent with
 * tengen-capture_own, and records CC[own]; where the opponent lacks the
 * command, plain genmove is asked, and an "own" answer is not a move. */
static void test_referee_capture_choice(void **state)
{
    (void)state;
    char blog[] = "/tmp/tengen-referee-bXXXXXX", wlog[] = "/tmp/tengen-referee-wXXXXXX";
    int fd1 = mkstemp(blog), fd2 = mkstemp(wlog);
    assert_true(fd1 >= 0 && fd2 >= 0);
    close(fd1);
    close(fd2);
    char bcmd[160], wcmd[160];
    snprintf(bcmd, sizeof bcmd, "sh fake_engines/fake_gtp.sh moves=A2,C1,E5,E4,B1:own log=%s", blog);
    snprintf(wcmd, sizeof wcmd, "sh fake_engines/fake_gtp.sh moves=A1,B2,C2,D1 log=%s", wlog);
    tg_engine *b = start(bcmd), *w = start(wcmd);
    tg_referee_config cfg = {.size = 5, .timeout_ms = 5000, .black_name = "b", .white_name = "w"};
    tg_rules_default(&cfg.rules);
    char err[128];
    assert_int_equal(tg_rules_apply(&cfg.rules, "capture=choose", err, sizeof err), TG_OK);
    tg_referee_outcome out;
    char *sgf;
    assert_int_equal(tg_referee_play(&cfg, b, w, NULL, &out, &sgf), TG_OK);
    assert_int_equal(out.reason, TG_END_SCORE);
    assert_non_null(strstr(sgf, ";B[be]CC[own]"));
    free(sgf);
    assert_non_null(strstr(read_all(blog), "tengen-genmove_choice b\n"));
    assert_null(strstr(read_all(blog), "\ngenmove b\n"));
    assert_non_null(strstr(read_all(wlog), "tengen-capture_own b B1\n"));
    tg_engine_free(b);
    tg_engine_free(w);

    /* the opponent cannot be told: genmove, and "B1 own" is garbage */
    snprintf(wcmd, sizeof wcmd, "sh fake_engines/fake_gtp.sh moves=A1,B2,C2,D1 lacks=tengen-capture_own");
    b = start(bcmd);
    w = start(wcmd);
    assert_int_equal(tg_referee_play(&cfg, b, w, NULL, &out, NULL), TG_OK);
    assert_int_equal(out.reason, TG_END_GARBAGE);
    assert_int_equal(out.culprit, TG_BLACK);
    assert_non_null(strstr(read_all(blog), "\ngenmove b\n"));
    tg_engine_free(b);
    tg_engine_free(w);
    remove(blog);
    remove(wlog);
}

/* Issue 48: a counted game's record carries the dead stones the engines
 * agreed on (TB/TW on its last node, the writer tg_sgf_info.has_dead is
 * for), so that counting it again gives its RE, where the estimate would
 * take D5 and E5 dead as well and count another result. */
static void test_referee_record_recounts(void **state)
{
    (void)state;
    tg_engine *b = start("sh fake_engines/fake_gtp.sh moves=C1,C2,C3,C4,C5 dead=B2");
    tg_engine *w = start("sh fake_engines/fake_gtp.sh moves=E5,D5,B2 dead=B2");
    tg_referee_config cfg = {.size = 5, .timeout_ms = 5000, .black_name = "b", .white_name = "w"};
    tg_rules_default(&cfg.rules);
    tg_referee_outcome out;
    char *sgf;
    assert_int_equal(tg_referee_play(&cfg, b, w, NULL, &out, &sgf), TG_OK);
    assert_int_equal(out.reason, TG_END_SCORE);
    assert_non_null(strstr(sgf, "TB[aa][ba][ab][bb][ac][bc][ad][bd][ae][be]TW[]"));
    tg_game *g = NULL;
    tg_sgf_info *info = malloc(sizeof *info);
    assert_non_null(info);
    assert_int_equal(tg_sgf_load_game(sgf, strlen(sgf), -1, &g, info, NULL), TG_OK);
    assert_true(info->has_dead);
    tg_score count;
    char again[32];
    tg_score_game(g, info->dead, &count);
    tg_result_to_sgf(&count.result, again, sizeof again);
    assert_string_equal(again, out.result_text);
    uint8_t estimate[TG_MAX_POINTS];
    tg_game_estimate_dead(g, 0, 0, estimate);
    tg_score_game(g, estimate, &count);
    tg_result_to_sgf(&count.result, again, sizeof again);
    assert_string_not_equal(again, out.result_text);
    tg_game_free(g);
    free(info);
    free(sgf);
    tg_engine_free(b);
    tg_engine_free(w);
}

static void test_schedule(void **state)
{
    (void)state;
    tg_schedule_config cfg = {.tournament = TG_TOURNAMENT_MATCH, .engines = 2, .games = 4,
                              .openings = 3, .seed = 9};
    tg_scheduled_game *a, *b;
    int n, m;
    assert_int_equal(tg_schedule_make(&cfg, &a, &n), TG_OK);
    assert_int_equal(n, 4);
    for (int i = 0; i < n; i++) {
        assert_int_equal(a[i].game, i + 1);
        assert_int_equal(a[i].black, i % 2);     /* colours alternate */
        assert_int_equal(a[i].opening, i / 2);   /* each opening with both colours */
    }
    assert_int_equal(tg_schedule_make(&cfg, &b, &m), TG_OK);
    assert_memory_equal(a, b, sizeof *a * (size_t)n); /* deterministic */
    free(a);
    free(b);
    cfg.fixed = true; /* a handicap match: the first engine Black every game */
    assert_int_equal(tg_schedule_make(&cfg, &a, &n), TG_OK);
    for (int i = 0; i < n; i++) {
        assert_int_equal(a[i].black, 0);
        assert_int_equal(a[i].white, 1);
    }
    free(a);
    cfg.nigiri = true; /* both: no colours at all */
    assert_int_equal(tg_schedule_make(&cfg, &a, &n), TG_ERR_INVALID);
    cfg.nigiri = cfg.fixed = false;
    cfg.tournament = TG_TOURNAMENT_ROUND_ROBIN;
    cfg.engines = 4;
    cfg.games = 2;
    assert_int_equal(tg_schedule_make(&cfg, &a, &n), TG_OK);
    assert_int_equal(n, 12);
    free(a);
    cfg.tournament = TG_TOURNAMENT_GAUNTLET;
    cfg.nigiri = true;
    assert_int_equal(tg_schedule_make(&cfg, &a, &n), TG_OK);
    assert_int_equal(n, 6);
    for (int i = 0; i < n; i++) {
        assert_true(a[i].black == 0 || a[i].white == 0);
        assert_in_range(a[i].nigiri_guess, 1, 2);
        assert_true(a[i].nigiri_stones >= 1);
    }
    free(a);
    cfg.tournament = TG_TOURNAMENT_MATCH;
    assert_int_equal(tg_schedule_make(&cfg, &a, &n), TG_ERR_INVALID); /* 4 engines */
}

static void test_openings(void **state)
{
    (void)state;
    tg_rules rules;
    tg_rules_default(&rules);
    tg_openings o;
    char err[128];
    const char *list = "# two openings\nE5 C3\n\nD4 pass F6\n";
    assert_int_equal(tg_openings_parse(list, strlen(list), 9, &rules, -1, &o, err, sizeof err), TG_OK);
    assert_int_equal(o.count, 2);
    assert_int_equal(o.len[1], 3);
    assert_int_equal(o.moves[1][1].point, TG_PASS);
    assert_int_equal(o.moves[1][2].color, TG_BLACK);
    tg_openings_free(&o);
    const char *sgf = "(;SZ[9];B[ee];W[cc];B[gg])(;SZ[9];B[dd])";
    assert_int_equal(tg_openings_parse(sgf, strlen(sgf), 9, &rules, 2, &o, err, sizeof err), TG_OK);
    assert_int_equal(o.count, 2);
    assert_int_equal(o.len[0], 2);
    tg_openings_free(&o);
    const char *bad = "E5 E5\n";
    assert_int_not_equal(tg_openings_parse(bad, strlen(bad), 9, &rules, -1, &o, err, sizeof err), TG_OK);
    assert_non_null(strstr(err, "line 1"));
}

static void test_record_json(void **state)
{
    (void)state;
    tg_game_record r = {.game = 7, .result = "W+T", .reason = TG_END_TIME, .culprit = TG_BLACK,
                        .moves = 31, .seed = 0xfedcba9876543210ull, .opening = 2,
                        .sgf = "d/game-00007.sgf", .detail = "a \"quoted\" detail",
                        .duration_ms = 1234, .black_name = "x", .white_name = "y"};
    char *line = tg_game_record_to_json(&r);
    assert_non_null(line);
    assert_null(strchr(line, '\n'));
    tg_game_record back;
    assert_int_equal(tg_game_record_from_json(line, &back), TG_OK);
    free(line);
    assert_int_equal(back.game, 7);
    assert_string_equal(back.result, "W+T");
    assert_int_equal(back.reason, TG_END_TIME);
    assert_int_equal(back.culprit, TG_BLACK);
    assert_true(back.seed == r.seed);
    assert_string_equal(back.detail, r.detail);
    assert_int_equal(tg_game_record_black_wins(&back), 0);
    assert_int_not_equal(tg_game_record_from_json("{\"game\":1}", &back), TG_OK);
    assert_int_not_equal(tg_game_record_from_json("not json", &back), TG_OK);
    for (int i = 0; i < TG_END_COUNT_; i++)
        assert_int_equal(tg_end_reason_parse(tg_end_reason_name((tg_end_reason)i)), i);
}

/* An engine's answer quoted in the detail can be any bytes, and JSON
 * strings are UTF-8: the record is still written (the bad bytes as '?'),
 * never dropped, which had stopped a whole match ("cannot write"). */
static void test_record_json_any_bytes(void **state)
{
    (void)state;
    tg_game_record r = {.game = 2, .result = "W+F", .reason = TG_END_GARBAGE, .culprit = TG_BLACK,
                        .moves = 0, .black_name = "x", .white_name = "\xe5\xa4\xa9\xe5\x85\x83"};
    snprintf(r.detail, sizeof r.detail, "x: genmove -> '\xff\xfe D4 \xc3\xa9 \xe5\xa4' is not a move");
    char *line = tg_game_record_to_json(&r);
    assert_non_null(line);
    tg_game_record back;
    assert_int_equal(tg_game_record_from_json(line, &back), TG_OK);
    free(line);
    assert_string_equal(back.detail, "x: genmove -> '?\? D4 \xc3\xa9 ?\?' is not a move");
    assert_string_equal(back.white_name, "\xe5\xa4\xa9\xe5\x85\x83"); /* valid UTF-8 is kept */
    /* a name cut inside a character by its field's size */
    memset(r.black_name, 'a', sizeof r.black_name);
    memcpy(r.black_name + sizeof r.black_name - 3, "\xe5\xa4", 2);
    r.black_name[sizeof r.black_name - 1] = 0;
    line = tg_game_record_to_json(&r);
    assert_non_null(line);
    assert_int_equal(tg_game_record_from_json(line, &back), TG_OK);
    free(line);
    assert_int_equal(strlen(back.black_name), sizeof r.black_name - 1);
    assert_string_equal(back.black_name + sizeof r.black_name - 3, "??");
}

static void test_elo(void **state)
{
    (void)state;
    tg_score_line s = {60, 0, 40};
    double elo, low, high;
    tg_elo(&s, &elo, &low, &high);
    assert_true(fabs(elo - 70.4) < 0.1);  /* -400 log10(1/0.6 - 1) */
    assert_true(low < elo && elo < high);
    assert_true(fabs(low - 0.0) < 1.0 || low > -10); /* about [-0.3, 143] */
    tg_score_line even = {10, 10, 10};
    tg_elo(&even, &elo, &low, &high);
    assert_true(fabs(elo) < 1e-9 && fabs(low + high) < 1e-6);
    tg_score_line none = {0, 0, 0};
    tg_elo(&none, &elo, &low, &high);
    assert_true(isinf(low) && isinf(high));
    assert_true(fabs(tg_elo_los(&even) - 0.5) < 1e-9);
    assert_true(tg_elo_los(&s) > 0.97);
}

static void test_sprt(void **state)
{
    (void)state;
    tg_sprt sprt;
    assert_int_equal(tg_sprt_parse("0,10,0.05,0.05", &sprt), TG_OK);
    assert_int_not_equal(tg_sprt_parse("10,0,0.05,0.05", &sprt), TG_OK);
    assert_int_not_equal(tg_sprt_parse("0,10,0.05", &sprt), TG_OK);
    double llr, lower, upper;
    tg_score_line start = {0, 0, 0};
    assert_int_equal(tg_sprt_test(&sprt, &start, &llr, &lower, &upper), TG_SPRT_CONTINUE);
    assert_true(fabs(upper - log(0.95 / 0.05)) < 1e-9 && fabs(lower + upper) < 1e-9);
    tg_score_line strong = {700, 0, 300}, equal = {5000, 0, 5000}, one = {0, 0, 1};
    assert_int_equal(tg_sprt_test(&sprt, &strong, &llr, &lower, &upper), TG_SPRT_H1);
    assert_int_equal(tg_sprt_test(&sprt, &equal, &llr, &lower, &upper), TG_SPRT_H0);
    assert_int_equal(tg_sprt_test(&sprt, &one, &llr, &lower, &upper), TG_SPRT_CONTINUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_answers),
        cmocka_unit_test(test_engine_failures),
        cmocka_unit_test(test_engine_stop_flag),
        cmocka_unit_test(test_referee_play),
        cmocka_unit_test(test_referee_capture_choice),
        cmocka_unit_test(test_referee_record_recounts),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_openings),
        cmocka_unit_test(test_record_json),
        cmocka_unit_test(test_record_json_any_bytes),
        cmocka_unit_test(test_elo),
        cmocka_unit_test(test_sprt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
