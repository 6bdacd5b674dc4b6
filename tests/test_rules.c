/*
 * test_rules.c — unit tests of rules.h: the presets and what RULES.md and
 * CASES.md say each one is, the key=value language (every key, every value,
 * left-to-right application, and errors that change nothing), komi parsing
 * and formatting (CASES.md T22), handicap compensation points, the SGF RU
 * mapping both ways, and the one-line description.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tengen/rules.h"

static const char *const PRESETS[] = {"chinese", "japanese", "korean", "aga", "new-zealand", "tromp-taylor", "ancient"};
#define NPRESETS (sizeof PRESETS / sizeof PRESETS[0])

static tg_rules preset(const char *name)
{
    tg_rules r;
    memset(&r, 0x5a, sizeof r);
    if (tg_rules_preset(&r, name) != TG_OK)
        fail_msg("preset %s refused", name);
    return r;
}

/* The options that matter to play and counting (not the name). */
static bool same_options(const tg_rules *a, const tg_rules *b)
{
    return a->ko == b->ko && a->suicide == b->suicide && a->scoring == b->scoring && a->tax == b->tax &&
           a->cycle == b->cycle && a->handicap_comp == b->handicap_comp && a->illegal == b->illegal &&
           a->dead_removed == b->dead_removed && a->komi2 == b->komi2;
}

/* ---- Presets ------------------------------------------------------------------ */

static void test_rules_presets(void **state)
{
    (void)state;
    tg_rules r = preset("chinese");
    assert_int_equal(r.ko, TG_KO_POSITIONAL);
    assert_false(r.suicide);
    assert_int_equal(r.scoring, TG_SCORING_AREA);
    assert_int_equal(r.tax, TG_TAX_NONE);
    assert_int_equal(r.handicap_comp, TG_HCOMP_N);
    assert_int_equal(r.komi2, 15);
    assert_int_equal(r.illegal, TG_ILLEGAL_VOID); /* R6: void and counted as a pass */
    assert_true(r.dead_removed);
    assert_string_equal(r.name, "chinese");

    r = preset("japanese");
    assert_int_equal(r.ko, TG_KO_SIMPLE);
    assert_false(r.suicide);
    assert_int_equal(r.scoring, TG_SCORING_TERRITORY);
    assert_int_equal(r.tax, TG_TAX_SEKI);
    assert_int_equal(r.cycle, TG_CYCLE_NO_RESULT);
    assert_int_equal(r.handicap_comp, TG_HCOMP_NONE);
    assert_true(r.dead_removed);

    r = preset("korean");
    assert_int_equal(r.ko, TG_KO_SIMPLE);
    assert_false(r.suicide);
    assert_int_equal(r.scoring, TG_SCORING_TERRITORY);
    assert_int_equal(r.cycle, TG_CYCLE_NO_RESULT);

    r = preset("aga");
    assert_int_equal(r.ko, TG_KO_SITUATIONAL);
    assert_false(r.suicide);
    assert_int_equal(r.scoring, TG_SCORING_AREA);
    assert_int_equal(r.handicap_comp, TG_HCOMP_N_MINUS_1);

    r = preset("new-zealand");
    assert_int_equal(r.ko, TG_KO_SITUATIONAL);
    assert_true(r.suicide);
    assert_int_equal(r.scoring, TG_SCORING_AREA);
    assert_int_equal(r.handicap_comp, TG_HCOMP_NONE);

    r = preset("tromp-taylor");
    assert_int_equal(r.ko, TG_KO_POSITIONAL);
    assert_true(r.suicide);
    assert_int_equal(r.scoring, TG_SCORING_AREA);
    assert_int_equal(r.handicap_comp, TG_HCOMP_NONE);
    assert_false(r.dead_removed); /* every stone on the board counts as alive */

    r = preset("ancient");
    assert_int_equal(r.scoring, TG_SCORING_AREA);
    assert_int_equal(r.tax, TG_TAX_ALL);
    assert_false(r.suicide);

    /* every preset names itself; suicide only in new-zealand and tromp-taylor */
    for (size_t i = 0; i < NPRESETS; i++) {
        r = preset(PRESETS[i]);
        assert_string_equal(r.name, PRESETS[i]);
        assert_int_equal(r.suicide, !strcmp(PRESETS[i], "new-zealand") || !strcmp(PRESETS[i], "tromp-taylor"));
        assert_true(r.komi2 >= -800 && r.komi2 <= 800);
    }
    assert_int_equal(tg_rules_preset(&r, "klingon"), TG_ERR_INVALID);
    assert_int_equal(tg_rules_preset(&r, ""), TG_ERR_INVALID);

    tg_rules d;
    tg_rules_default(&d);
    r = preset("chinese");
    assert_true(same_options(&d, &r));
    assert_string_equal(d.name, "chinese");
}

/* ---- key=value -------------------------------------------------------------------- */

static void test_rules_apply_every_key(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        size_t offset, size;
        int value;
    } cases[] = {
#define FIELD(f) offsetof(tg_rules, f), sizeof(((tg_rules *)0)->f)
        {"ko=simple", FIELD(ko), TG_KO_SIMPLE},
        {"ko=positional", FIELD(ko), TG_KO_POSITIONAL},
        {"ko=situational", FIELD(ko), TG_KO_SITUATIONAL},
        {"suicide=yes", FIELD(suicide), 1},
        {"suicide=no", FIELD(suicide), 0},
        {"scoring=territory", FIELD(scoring), TG_SCORING_TERRITORY},
        {"scoring=area", FIELD(scoring), TG_SCORING_AREA},
        {"tax=seki", FIELD(tax), TG_TAX_SEKI},
        {"tax=all", FIELD(tax), TG_TAX_ALL},
        {"tax=none", FIELD(tax), TG_TAX_NONE},
        {"cycle=draw", FIELD(cycle), TG_CYCLE_DRAW},
        {"cycle=no-result", FIELD(cycle), TG_CYCLE_NO_RESULT},
        {"handicap=0", FIELD(handicap_comp), TG_HCOMP_NONE},
        {"handicap=N-1", FIELD(handicap_comp), TG_HCOMP_N_MINUS_1},
        {"handicap=N", FIELD(handicap_comp), TG_HCOMP_N},
        {"illegal=reject", FIELD(illegal), TG_ILLEGAL_REJECT},
        {"illegal=lose", FIELD(illegal), TG_ILLEGAL_LOSE},
        {"illegal=void", FIELD(illegal), TG_ILLEGAL_VOID},
        {"dead=keep", FIELD(dead_removed), 0},
        {"dead=remove", FIELD(dead_removed), 1},
        {"komi=6.5", FIELD(komi2), 13},
        {"komi=-3.5", FIELD(komi2), -7},
        {"komi=0", FIELD(komi2), 0},
#undef FIELD
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (size_t start = 0; start < NPRESETS; start++) {
            tg_rules r = preset(PRESETS[start]), before = r;
            char err[128] = "";
            if (tg_rules_apply(&r, cases[i].text, err, sizeof err) != TG_OK)
                fail_msg("%s over %s refused: %s", cases[i].text, PRESETS[start], err);
            int got = 0;
            if (cases[i].size == sizeof(bool))
                got = *(bool *)((char *)&r + cases[i].offset);
            else
                got = *(int *)((char *)&r + cases[i].offset);
            if (got != cases[i].value)
                fail_msg("%s over %s gives %d", cases[i].text, PRESETS[start], got);
            /* nothing else changes */
            memcpy((char *)&before + cases[i].offset, (char *)&r + cases[i].offset, cases[i].size);
            assert_true(same_options(&before, &r));
        }
    }
}

static void test_rules_apply_left_to_right(void **state)
{
    (void)state;
    tg_rules r;
    tg_rules_default(&r);
    assert_int_equal(tg_rules_apply(&r, "japanese ko=positional", NULL, 0), TG_OK);
    assert_int_equal(r.ko, TG_KO_POSITIONAL);
    assert_int_equal(r.scoring, TG_SCORING_TERRITORY);
    assert_string_equal(r.name, "custom");
    /* a later preset resets everything before it */
    assert_int_equal(tg_rules_apply(&r, "ko=simple suicide=yes tromp-taylor", NULL, 0), TG_OK);
    tg_rules tt = preset("tromp-taylor");
    assert_true(same_options(&r, &tt));
    assert_string_equal(r.name, "tromp-taylor");
    /* a later key wins */
    assert_int_equal(tg_rules_apply(&r, "komi=5 komi=6.5 ko=situational ko=simple", NULL, 0), TG_OK);
    assert_int_equal(r.komi2, 13);
    assert_int_equal(r.ko, TG_KO_SIMPLE);
    /* extra spaces and the empty text are harmless */
    tg_rules before = r;
    assert_int_equal(tg_rules_apply(&r, "", NULL, 0), TG_OK);
    assert_true(same_options(&before, &r));
    assert_int_equal(tg_rules_apply(&r, "  aga   komi=0.5 ", NULL, 0), TG_OK);
    assert_int_equal(r.ko, TG_KO_SITUATIONAL);
    assert_int_equal(r.komi2, 1);
}

static void test_rules_apply_errors_change_nothing(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "klingon",        "ko=fast",          "ko=",         "=simple",       "suicide=maybe",
        "scoring=stones", "tax=some",         "cycle=never", "handicap=N+1",  "handicap=2",
        "illegal=ignore", "dead=maybe",       "komi=7.25",   "komi=abc",      "komi=401",
        "komi=-400.5",    "komi=",            "colour=black", "japanese ko=bogus", "ko=simple komi=7.1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tg_rules r = preset("chinese"), before = r;
        char err[128] = "";
        tg_status s = tg_rules_apply(&r, bad[i], err, sizeof err);
        if (s == TG_OK)
            fail_msg("\"%s\" accepted", bad[i]);
        if (!same_options(&before, &r) || strcmp(before.name, r.name))
            fail_msg("\"%s\" refused but changed the rules", bad[i]);
        if (!err[0])
            fail_msg("\"%s\" refused without a message", bad[i]);
        /* a NULL or tiny message buffer is allowed */
        assert_int_not_equal(tg_rules_apply(&r, bad[i], NULL, 0), TG_OK);
        char tiny[4];
        memset(tiny, 'x', sizeof tiny);
        assert_int_not_equal(tg_rules_apply(&r, bad[i], tiny, sizeof tiny), TG_OK);
        assert_non_null(memchr(tiny, 0, sizeof tiny));
    }
}

/* ---- Komi (T22) ------------------------------------------------------------------ */

static void test_T22_komi_parse(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int komi2;
    } good[] = {{"7.5", 15}, {"7", 14},      {"0", 0},       {"-3.5", -7}, {"0.5", 1},
                {"-0.5", -1}, {"400", 800},  {"-400", -800}, {"6.5", 13},  {"375.5", 751}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        int k = 12345;
        if (tg_komi_parse(good[i].text, &k) != TG_OK)
            fail_msg("komi %s refused", good[i].text);
        assert_int_equal(k, good[i].komi2);
    }
    static const char *const bad[] = {"7.25", "7.1", "400.5", "401", "-401", "1000000", "abc", "", "7.5x", "--1", "7..5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int k = 12345;
        if (tg_komi_parse(bad[i], &k) == TG_OK)
            fail_msg("komi \"%s\" accepted", bad[i]);
        assert_int_equal(k, 12345);
    }
}

static void test_T22_komi_format(void **state)
{
    (void)state;
    static const struct {
        int komi2;
        const char *text;
    } cases[] = {{15, "7.5"}, {-6, "-3"}, {1, "0.5"}, {-1, "-0.5"}, {0, "0"}, {14, "7"}, {-7, "-3.5"}, {800, "400"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[16];
        tg_komi_format(cases[i].komi2, buf, sizeof buf);
        assert_string_equal(buf, cases[i].text);
        int back;
        assert_int_equal(tg_komi_parse(buf, &back), TG_OK);
        assert_int_equal(back, cases[i].komi2);
    }
}

/* ---- Handicap compensation (T21) ----------------------------------------------------- */

static void test_T21_handicap_points(void **state)
{
    (void)state;
    tg_rules r = preset("chinese");
    for (int comp = TG_HCOMP_NONE; comp <= TG_HCOMP_N_MINUS_1; comp++) {
        r.handicap_comp = (tg_handicap_comp)comp;
        for (int n = 0; n <= 9; n++) {
            int expected = n < 2 ? 0 : comp == TG_HCOMP_N ? n : comp == TG_HCOMP_N_MINUS_1 ? n - 1 : 0;
            assert_int_equal(tg_rules_handicap_points(&r, n), expected);
        }
    }
}

/* ---- SGF RU ---------------------------------------------------------------------- */

static void test_rules_from_sgf(void **state)
{
    (void)state;
    static const struct {
        const char *ru, *preset;
    } known[] = {{"Chinese", "chinese"}, {"Japanese", "japanese"},  {"AGA", "aga"},
                 {"NZ", "new-zealand"},   {"Tromp-Taylor", "tromp-taylor"}, {"Korean", "korean"},
                 {"chinese", "chinese"}, {"japanese", "japanese"},
                 /* issue 41, item 8: spellings found in real records */
                 {"Tromp/Taylor", "tromp-taylor"}, {"TT--", "tromp-taylor"}, {"TT", "tromp-taylor"},
                 {"Tromp Taylor", "tromp-taylor"}, {"Chinese rules", "chinese"},
                 {"JAPANESE", "japanese"}, {"New Zealand", "new-zealand"}, {"nz-rules", "new-zealand"},
                 {"Korean Rules", "korean"}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        tg_rules r, expected = preset(known[i].preset);
        if (tg_rules_from_sgf(&r, known[i].ru) != TG_OK)
            fail_msg("RU[%s] not known", known[i].ru);
        if (r.ko != expected.ko || r.suicide != expected.suicide || r.scoring != expected.scoring ||
            r.tax != expected.tax)
            fail_msg("RU[%s] is not %s", known[i].ru, known[i].preset);
    }
    /* Ing (GOE): positional superko, suicide allowed, area (CASES T5, T10) */
    tg_rules r;
    assert_int_equal(tg_rules_from_sgf(&r, "Ing's"), TG_OK);
    assert_int_equal(r.ko, TG_KO_POSITIONAL);
    assert_int_equal(tg_rules_from_sgf(&r, "GOE"), TG_OK);
    assert_int_equal(r.ko, TG_KO_POSITIONAL);
    assert_true(r.suicide);
    assert_int_equal(r.scoring, TG_SCORING_AREA);
    /* unknown: the default, and an error */
    tg_rules d;
    tg_rules_default(&d);
    assert_int_equal(tg_rules_from_sgf(&r, "Klingon"), TG_ERR_INVALID);
    assert_true(same_options(&r, &d));
    assert_int_equal(tg_rules_from_sgf(&r, ""), TG_ERR_INVALID);
    assert_true(same_options(&r, &d));
}

static void test_rules_sgf_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < NPRESETS; i++) {
        tg_rules r = preset(PRESETS[i]), back;
        char ru[256];
        tg_rules_to_sgf(&r, ru, sizeof ru);
        assert_true(ru[0] != 0);
        if (tg_rules_from_sgf(&back, ru) != TG_OK)
            fail_msg("RU[%s] written for %s is not read back", ru, PRESETS[i]);
        if (back.ko != r.ko || back.suicide != r.suicide || back.scoring != r.scoring || back.tax != r.tax ||
            back.handicap_comp != r.handicap_comp || back.dead_removed != r.dead_removed)
            fail_msg("RU[%s] written for %s reads back as other rules", ru, PRESETS[i]);
    }
    /* a mix no preset names still survives a record */
    tg_rules r = preset("japanese"), back;
    assert_int_equal(tg_rules_apply(&r, "ko=situational suicide=yes tax=all", NULL, 0), TG_OK);
    char ru[256];
    tg_rules_to_sgf(&r, ru, sizeof ru);
    if (tg_rules_from_sgf(&back, ru) != TG_OK)
        fail_msg("RU[%s] written for a custom ruleset is not read back", ru);
    assert_int_equal(back.ko, TG_KO_SITUATIONAL);
    assert_true(back.suicide);
    assert_int_equal(back.tax, TG_TAX_ALL);
    assert_int_equal(back.scoring, TG_SCORING_TERRITORY);
}

/* ---- describe ---------------------------------------------------------------------- */

static void test_rules_describe(void **state)
{
    (void)state;
    tg_rules r;
    tg_rules_default(&r);
    char line[256];
    tg_rules_describe(&r, line, sizeof line);
    assert_string_equal(line, "ko=positional suicide=no scoring=area tax=none cycle=no-result handicap=N "
                              "illegal=void dead=remove komi=7.5");
    /* the description is itself a valid rules text giving the same options */
    for (size_t i = 0; i < NPRESETS; i++) {
        tg_rules p = preset(PRESETS[i]), again;
        tg_rules_describe(&p, line, sizeof line);
        tg_rules_default(&again);
        if (tg_rules_apply(&again, line, NULL, 0) != TG_OK)
            fail_msg("description of %s is not a rules text: %s", PRESETS[i], line);
        assert_true(same_options(&p, &again));
    }
    assert_int_equal(tg_rules_apply(&r, "ko=simple suicide=yes scoring=territory tax=all cycle=draw handicap=N-1 "
                                        "illegal=lose dead=keep komi=-2",
                                    NULL, 0),
                     TG_OK);
    tg_rules_describe(&r, line, sizeof line);
    assert_string_equal(line, "ko=simple suicide=yes scoring=territory tax=all cycle=draw handicap=N-1 "
                              "illegal=lose dead=keep komi=-2");
    /* a short buffer is cut, never overrun */
    char small[10];
    memset(small, 'x', sizeof small);
    tg_rules_describe(&r, small, sizeof small);
    assert_true(memchr(small, 0, sizeof small) != NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_presets),
        cmocka_unit_test(test_rules_apply_every_key),
        cmocka_unit_test(test_rules_apply_left_to_right),
        cmocka_unit_test(test_rules_apply_errors_change_nothing),
        cmocka_unit_test(test_T22_komi_parse),
        cmocka_unit_test(test_T22_komi_format),
        cmocka_unit_test(test_T21_handicap_points),
        cmocka_unit_test(test_rules_from_sgf),
        cmocka_unit_test(test_rules_sgf_round_trip),
        cmocka_unit_test(test_rules_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
