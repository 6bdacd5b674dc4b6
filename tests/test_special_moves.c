/*
 * test_special_moves.c — the moves no playout and no tree node holds
 * (src/engine/special.c): a suicide of two stones or more where the rules
 * allow it, and the capture choice of capture=choose (002 §4.3) where the
 * caller can relay it.  Which are found, in which order, under which
 * rules; a tree kept from an earlier search is never taken for the
 * position after a capture choice, whose point it holds as the ordinary
 * capture; and the search plays such a move where it alone wins.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/search_internal.h"
#include "tengen/search.h"

static tg_point at(const tg_game *g, const char *vertex)
{
    tg_point p;
    assert_int_equal(tg_vertex_parse(tg_game_board(g), vertex, &p), TG_OK);
    return p;
}

/* 5x5, Black to move: Black B1 is the capture choice (White A1 B2 C2 D1,
 * Black A2 C1: both sides' chains without liberties, two Black stones
 * lost); Black D5 a suicide of two stones (Black E5 inside White C5 D4
 * E4); Black A5 a suicide of one stone (White A4 B5), left out. */
static tg_game *position(const char *rules_text)
{
    tg_rules r;
    char err[160];
    tg_rules_default(&r);
    if (rules_text)
        assert_int_equal(tg_rules_apply(&r, rules_text, err, sizeof err), TG_OK);
    tg_game *g = tg_game_new(5, &r);
    assert_non_null(g);
    const char *white[] = {"A1", "B2", "C2", "D1", "C5", "D4", "E4", "A4", "B5"};
    const char *black[] = {"A2", "C1", "E5"};
    for (size_t i = 0; i < sizeof white / sizeof white[0]; i++)
        assert_int_equal(tg_game_setup(g, at(g, white[i]), TG_WHITE), TG_OK);
    for (size_t i = 0; i < sizeof black / sizeof black[0]; i++)
        assert_int_equal(tg_game_setup(g, at(g, black[i]), TG_BLACK), TG_OK);
    tg_game_set_to_move(g, TG_BLACK);
    return g;
}

static void test_which_moves(void **state)
{
    (void)state;
    tg_point p[8];
    unsigned f[8];
    tg_game *g = position("suicide=any capture=choose ko=situational repetition=lose");
    assert_int_equal(search_special_moves(g, TG_BLACK, TG_PLAY_CAPTURE_OWN, p, f, 8), 2);
    assert_int_equal(p[0], at(g, "B1"));
    assert_int_equal(f[0], TG_PLAY_CAPTURE_OWN);
    assert_int_equal(p[1], at(g, "D5"));
    assert_int_equal(f[1], 0);
    /* the caller cannot relay the choice: the suicide alone */
    assert_int_equal(search_special_moves(g, TG_BLACK, 0, p, f, 8), 1);
    assert_int_equal(p[0], at(g, "D5"));
    /* at most max */
    assert_int_equal(search_special_moves(g, TG_BLACK, TG_PLAY_CAPTURE_OWN, p, f, 1), 1);
    assert_int_equal(p[0], at(g, "B1"));
    tg_game_free(g);

    /* multi-stone suicide allowed, no capture choice (New Zealand) */
    g = position("suicide=yes");
    assert_int_equal(search_special_moves(g, TG_BLACK, TG_PLAY_CAPTURE_OWN, p, f, 8), 1);
    assert_int_equal(p[0], at(g, "D5"));
    assert_int_equal(f[0], 0);
    tg_game_free(g);

    /* the Chinese rules: none */
    g = position(NULL);
    assert_int_equal(search_special_moves(g, TG_BLACK, TG_PLAY_CAPTURE_OWN, p, f, 8), 0);
    tg_game_free(g);
}

static long root_visits(const tg_search *s)
{
    const tg_search_report *r = tg_search_last_report(s);
    long sum = 0;
    for (int i = 0; i < r->candidate_count; i++)
        sum += r->candidates[i].visits;
    return sum;
}

/* The tree's child for B1 is the ordinary capture of A1: after Black takes
 * the capture choice at B1 instead, the next search starts afresh. */
static void test_no_tree_reuse_after_the_capture_choice(void **state)
{
    (void)state;
    tg_game *g = position("suicide=any capture=choose ko=situational repetition=lose");
    tg_search_options opt;
    tg_search_options_default(&opt);
    opt.max_memory = 16u << 20;
    tg_search *s = tg_search_new(&opt);
    assert_non_null(s);
    tg_search_limits limits = {1500, 0, 0};
    tg_point move;
    assert_int_equal(tg_search_genmove(s, g, TG_BLACK, &limits, false, &move), TG_OK);
    const tg_search_report *r = tg_search_last_report(s);
    long b1 = 0;
    for (int i = 0; i < r->candidate_count; i++)
        if (r->candidates[i].move == at(g, "B1"))
            b1 = r->candidates[i].visits;
    assert_true(b1 > 200); /* the kept child would be felt */
    assert_int_equal(tg_game_play(g, TG_BLACK, at(g, "B1"), TG_PLAY_CAPTURE_OWN), TG_OK);
    limits.playouts = 100;
    assert_int_equal(tg_search_genmove(s, g, TG_WHITE, &limits, false, &move), TG_OK);
    assert_true(root_visits(s) <= tg_search_last_report(s)->playouts);
    /* the ordinary capture at B1 is followed into the kept tree */
    tg_game_free(g);
    g = position("suicide=any capture=choose ko=situational repetition=lose");
    limits.playouts = 1500;
    assert_int_equal(tg_search_genmove(s, g, TG_BLACK, &limits, false, &move), TG_OK);
    assert_int_equal(tg_game_play(g, TG_BLACK, at(g, "B1"), 0), TG_OK);
    limits.playouts = 100;
    assert_int_equal(tg_search_genmove(s, g, TG_WHITE, &limits, false, &move), TG_OK);
    assert_true(root_visits(s) > tg_search_last_report(s)->playouts);
    tg_search_free(s);
    tg_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_which_moves),
        cmocka_unit_test(test_no_tree_reuse_after_the_capture_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
