/*
 * test_free_opening.c — the free-opening ruleset's sealed predictions
 * (002 §5.3, RULES.md §4.3) and its results stated against the threshold
 * (002 §5.5), named after the points of issue 43: F3 with 002's three
 * examples and the GTP examples of tengen-predictions, F9 with 002's
 * example 4.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tengen/free_opening.h"

static int pred(const char *text)
{
    int v;
    assert_int_equal(tg_prediction_parse(text, &v), TG_OK);
    return v;
}

static void decide(const char *first, const char *second, const char *threshold, bool first_white)
{
    tg_predictions p;
    tg_predictions_decide(pred(first), pred(second), &p);
    char buf[32];
    tg_threshold_format(p.threshold4, buf, sizeof buf);
    assert_string_equal(buf, threshold);
    assert_int_equal(p.first_takes_white, first_white);
}

/* 002 example 1: W+7 and W+6 -> the first (who said 7) takes White, and
 * White must end more than 6.5 ahead (White 183.75 of 361). */
static void test_F3_example1(void **state)
{
    (void)state;
    decide("W+7", "W+6", "W+6.5", true);
}

/* 002 example 2: W+7 and B+6 -> W+0.5 (White 180.75). */
static void test_F3_example2(void **state)
{
    (void)state;
    decide("W+7", "B+6", "W+0.5", true);
}

/* 002 example 3: both W+7 -> W+7, and the first player takes White. */
static void test_F3_example3_equal(void **state)
{
    (void)state;
    decide("W+7", "W+7", "W+7", true);
}

/* The tengen-predictions examples. */
static void test_F3_gtp_examples(void **state)
{
    (void)state;
    decide("W+7", "W+6", "W+6.5", true);
    decide("W+6", "W+7", "W+6.5", false);
    decide("B+2", "W+1", "B+0.5", false);
    decide("0", "0", "0", true);
    decide("W+6.5", "W+6", "W+6.25", true);
    decide("B+1", "W+1", "0", false);
}

static void test_F3_prediction_syntax(void **state)
{
    (void)state;
    assert_int_equal(pred("W+7"), 14);
    assert_int_equal(pred("b+6"), -12);
    assert_int_equal(pred("W+6.5"), 13);
    assert_int_equal(pred("W+6.0"), 12);
    assert_int_equal(pred("0"), 0);
    const char *bad[] = {"", "7", "W7", "W+", "W+6.25", "W+6.", "W+-1", "X+1", "W+1001", "W+ 1", "W+1x", "B+0.7"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int v;
        assert_int_equal(tg_prediction_parse(bad[i], &v), TG_ERR_PARSE);
    }
    char buf[16];
    tg_prediction_format(-13, buf, sizeof buf);
    assert_string_equal(buf, "B+6.5");
    tg_prediction_format(14, buf, sizeof buf);
    assert_string_equal(buf, "W+7");
}

/* 002 example 4: threshold W+6.5, White ends 7 ahead: "White wins by 0.5
 * stone", 白0.5子胜; exactly at the threshold a draw, or under a decisive
 * competition a win for White; below it Black wins. */
static void test_F9_example4(void **state)
{
    (void)state;
    int by4;
    char buf[64];
    tg_color w = tg_threshold_verdict(26, 14, false, &by4);
    assert_int_equal(w, TG_WHITE);
    assert_int_equal(by4, 2);
    tg_threshold_result_text(w, by4, false, buf, sizeof buf);
    assert_string_equal(buf, "White wins by 0.5 stone");
    tg_threshold_result_text(w, by4, true, buf, sizeof buf);
    assert_string_equal(buf, "白0.5子胜");
    /* a threshold of W+7 met exactly */
    assert_int_equal(tg_threshold_verdict(28, 14, false, &by4), TG_EMPTY);
    tg_threshold_result_text(TG_EMPTY, 0, true, buf, sizeof buf);
    assert_string_equal(buf, "和");
    assert_int_equal(tg_threshold_verdict(28, 14, true, &by4), TG_WHITE);
    assert_int_equal(tg_threshold_verdict(-8, -4, true, &by4), TG_BLACK); /* B+2 met exactly */
    w = tg_threshold_verdict(26, 10, false, &by4); /* White only 5 ahead */
    assert_int_equal(w, TG_BLACK);
    tg_threshold_result_text(w, by4, false, buf, sizeof buf);
    assert_string_equal(buf, "Black wins by 1.5 stones");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_F3_example1),
        cmocka_unit_test(test_F3_example2),
        cmocka_unit_test(test_F3_example3_equal),
        cmocka_unit_test(test_F3_gtp_examples),
        cmocka_unit_test(test_F3_prediction_syntax),
        cmocka_unit_test(test_F9_example4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
