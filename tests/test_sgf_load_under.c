/*
 * test_sgf_load_under.c — tg_sgf_load_game_under (issue 41): a record is
 * replayed under the rules it is to be counted by, given on top of those
 * its RU names, so that a position repeated under a superko the record
 * never played by (a triple ko) loads under simple ko; the record's komi
 * stays unless the rules set one; rules the library refuses are an error
 * that says why.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tengen/sgf.h"

/* Three kos on 9x9: six ko captures bring back the starting position. */
static const char triple_ko[] =
    "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Chinese]"
    "AB[ag][bf][bh][fg][gf][gh][hg][ab][ba][bc]AW[bg][dg][cf][ch][ig][hf][hh][bb][db][ca][cc]"
    ";B[cg];W[gg];B[cb];W[bg];B[hg];W[bb])";

static void test_repetition_loads_under_simple_ko(void **state)
{
    (void)state;
    tg_game *g = NULL;
    tg_sgf_error err;
    assert_int_equal(tg_sgf_load_game(triple_ko, strlen(triple_ko), -1, &g, NULL, &err), TG_ERR_PARSE);
    assert_null(g);
    assert_non_null(strstr(err.message, "repetition"));
    assert_int_equal(tg_sgf_load_game_under(triple_ko, strlen(triple_ko), -1, "japanese", &g, NULL, &err),
                     TG_OK);
    assert_int_equal(tg_game_move_count(g), 6);
    assert_int_equal(tg_game_rules(g)->ko, TG_KO_SIMPLE);
    assert_int_equal(tg_game_rules(g)->komi2, 13); /* KM[6.5] kept */
    tg_game_free(g);
    assert_int_equal(tg_sgf_load_game_under(triple_ko, strlen(triple_ko), -1, "ko=simple komi=0", &g, NULL, &err),
                     TG_OK);
    assert_int_equal(tg_game_rules(g)->komi2, 0);
    assert_int_equal(tg_game_rules(g)->scoring, TG_SCORING_AREA); /* the rest as RU names */
    tg_game_free(g);
    /* NULL: the record's own rules, as tg_sgf_load_game */
    assert_int_equal(tg_sgf_load_game_under(triple_ko, strlen(triple_ko), 5, NULL, &g, NULL, &err), TG_OK);
    assert_int_equal(tg_game_rules(g)->ko, TG_KO_POSITIONAL);
    tg_game_free(g);
}

static void test_bad_rules_refused(void **state)
{
    (void)state;
    tg_game *g = NULL;
    tg_sgf_error err;
    assert_int_equal(tg_sgf_load_game_under(triple_ko, strlen(triple_ko), -1, "ko=sometimes", &g, NULL, &err),
                     TG_ERR_INVALID);
    assert_null(g);
    assert_non_null(strstr(err.message, "rules:"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repetition_loads_under_simple_ko),
        cmocka_unit_test(test_bad_rules_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
