/*
 * test_server_analysis.c — the analysis of a record (src/server/analysis.h)
 * that `tengen serve` runs on its worker: every position of the main line
 * analysed, with candidates, Black's win rate and lead, and an ownership
 * map of one letter a point; bad, huge and over-long records refused with
 * a reason; a stop request honoured; the worker thread's round trip.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "server/analysis.h"

static const char GAME[] = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[ana]PW[bo]RE[W+R]"
                           ";B[ee];W[gc];B[cg];W[ge];B[gg];W[hg])";

static void test_check_counts_the_moves(void **state)
{
    (void)state;
    int moves = -1;
    char err[160] = "";
    assert_int_equal(analysis_check_sgf(GAME, strlen(GAME), &moves, err, sizeof err), 0);
    assert_int_equal(moves, 6);
}

static void test_check_refuses_bad_records(void **state)
{
    (void)state;
    int moves = 0;
    char err[160] = "";
    const char *bad = "(;GM[1]SZ[9];B[ee];W[ee])"; /* the point is taken */
    assert_int_equal(analysis_check_sgf(bad, strlen(bad), &moves, err, sizeof err), -1);
    assert_true(err[0] != '\0');
    err[0] = '\0';
    assert_int_equal(analysis_check_sgf("hello", 5, &moves, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a game record"));
    /* over the size limit: refused before it is read */
    size_t huge = ANALYSIS_SGF_MAX + 1;
    char *text = malloc(huge + 1);
    assert_non_null(text);
    memset(text, ' ', huge);
    memcpy(text, "(;SZ[9]", 7);
    text[huge - 1] = ')';
    text[huge] = '\0';
    assert_int_equal(analysis_check_sgf(text, huge, &moves, err, sizeof err), -1);
    assert_non_null(strstr(err, "KiB"));
    free(text);
}

static void test_check_refuses_too_many_moves(void **state)
{
    (void)state;
    /* ANALYSIS_MOVES_MAX + 2 passes on 19x19: legal, and too long */
    size_t cap = 64 + 6 * (ANALYSIS_MOVES_MAX + 2);
    char *text = malloc(cap);
    assert_non_null(text);
    size_t n = (size_t)sprintf(text, "(;SZ[19]");
    for (int i = 0; i < ANALYSIS_MOVES_MAX + 2; i++)
        n += (size_t)sprintf(text + n, ";%c[]", i % 2 ? 'W' : 'B');
    sprintf(text + n, ")");
    int moves = 0;
    char err[160] = "";
    assert_int_equal(analysis_check_sgf(text, strlen(text), &moves, err, sizeof err), -1);
    assert_non_null(strstr(err, "too long"));
    free(text);
}

static void test_run_analyses_every_position(void **state)
{
    (void)state;
    atomic_int done, total;
    atomic_bool stop;
    atomic_init(&done, 0);
    atomic_init(&total, 0);
    atomic_init(&stop, false);
    char *json = NULL, err[160] = "";
    assert_int_equal(analysis_run(GAME, strlen(GAME), 0, 40, &done, &total, &stop, &json, err, sizeof err), 0);
    assert_int_equal(atomic_load(&total), 7);
    assert_int_equal(atomic_load(&done), 7);
    json_error_t e;
    json_t *doc = json_loads(json, 0, &e);
    assert_non_null(doc);
    assert_int_equal(json_integer_value(json_object_get(doc, "size")), 9);
    assert_string_equal(json_string_value(json_object_get(doc, "black")), "ana");
    json_t *moves = json_object_get(doc, "moves"), *positions = json_object_get(doc, "positions");
    assert_int_equal(json_array_size(moves), 6);
    assert_string_equal(json_string_value(json_object_get(json_array_get(moves, 0), "move")), "E5");
    assert_int_equal(json_array_size(positions), 7);
    size_t i;
    json_t *p;
    json_array_foreach(positions, i, p) {
        double winrate = json_number_value(json_object_get(p, "winrate"));
        assert_true(winrate >= 0 && winrate <= 1);
        assert_string_equal(json_string_value(json_object_get(p, "to_move")), i % 2 ? "white" : "black");
        json_t *candidates = json_object_get(p, "candidates");
        assert_true(json_array_size(candidates) >= 1 && json_array_size(candidates) <= ANALYSIS_CANDIDATES);
        json_t *best = json_array_get(candidates, 0);
        assert_true(json_integer_value(json_object_get(best, "visits")) > 0);
        assert_true(json_array_size(json_object_get(best, "pv")) >= 1);
        const char *own = json_string_value(json_object_get(p, "ownership"));
        assert_non_null(own);
        assert_int_equal(strlen(own), 81);
        for (const char *c = own; *c; c++)
            assert_true(*c >= 'a' && *c <= 'u');
    }
    json_decref(doc);
    free(json);
}

static void test_run_last_position_alone(void **state)
{
    (void)state;
    atomic_int done, total;
    atomic_bool stop;
    atomic_init(&done, 0);
    atomic_init(&total, 0);
    atomic_init(&stop, false);
    char *json = NULL, err[160] = "";
    assert_int_equal(analysis_run(GAME, strlen(GAME), -1, 40, &done, &total, &stop, &json, err, sizeof err), 0);
    assert_int_equal(atomic_load(&total), 1);
    json_error_t e;
    json_t *doc = json_loads(json, 0, &e);
    assert_int_equal(json_integer_value(json_object_get(doc, "first")), 6);
    json_t *positions = json_object_get(doc, "positions");
    assert_int_equal(json_array_size(positions), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(positions, 0), "to_move")), "black");
    json_decref(doc);
    free(json);
}

static void test_run_stops_when_asked(void **state)
{
    (void)state;
    atomic_int done, total;
    atomic_bool stop;
    atomic_init(&done, 0);
    atomic_init(&total, 0);
    atomic_init(&stop, true);
    char *json = NULL, err[160] = "";
    assert_int_equal(analysis_run(GAME, strlen(GAME), 0, 40, &done, &total, &stop, &json, err, sizeof err), -1);
    assert_null(json);
    assert_string_equal(err, "stopped");
}

static void test_pool_round_trip(void **state)
{
    (void)state;
    analysis_pool *p = analysis_pool_new(NULL);
    assert_non_null(p);
    analysis_job *job = calloc(1, sizeof *job);
    assert_non_null(job);
    job->task = 7;
    job->sgf = strdup("(;SZ[9];B[ee])");
    job->sgf_len = strlen(job->sgf);
    job->playouts = 20;
    assert_true(analysis_pool_submit(p, job));
    analysis_job *back;
    while (!(back = analysis_pool_done(p)))
        sched_yield(); /* the worker finishes it: a 2-position analysis */
    assert_ptr_equal(back, job);
    assert_true(back->ok);
    assert_int_equal(atomic_load(&back->positions_done), 2);
    analysis_job_free(back);
    /* a job still queued when the pool stops is freed with it */
    job = calloc(1, sizeof *job);
    job->sgf = strdup(GAME);
    job->sgf_len = strlen(GAME);
    job->playouts = 100000;
    assert_true(analysis_pool_submit(p, job));
    analysis_pool_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_counts_the_moves),
        cmocka_unit_test(test_check_refuses_bad_records),
        cmocka_unit_test(test_check_refuses_too_many_moves),
        cmocka_unit_test(test_run_analyses_every_position),
        cmocka_unit_test(test_run_last_position_alone),
        cmocka_unit_test(test_run_stops_when_asked),
        cmocka_unit_test(test_pool_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
