/*
 * test_special_moves.c — the moves no playout and no tree node holds
 * (src/engine/special.c): a suicide of two stones or more where the rules
 * allow it, and the capture choice of capture=choose (002 §4.3) where the
 * caller can relay it.  Which are found, in which order, under which
 * rules; a tree kept from an earlier search is never taken for the
 * position after a capture choice, whose point it holds as the ordinary
 * capture; the tree's lines never repeat a situation; the search plays
 * the capture choice and a plain suicide where each alone wins (positions
 * solved exactly) and keeps the ordinary move where that wins.
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
#include "gtp_session.h"
#include "test_support.h"

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

/* A search of one thread with a tree of `mib` MiB and the seed. */
static tg_search *new_search(unsigned mib, uint64_t seed)
{
    tg_search_options opt;
    tg_search_options_default(&opt);
    opt.max_memory = (size_t)mib << 20;
    opt.seed = seed;
    tg_search *s = tg_search_new(&opt);
    assert_non_null(s);
    return s;
}

/* The tree's child for B1 is the ordinary capture of A1: after Black takes
 * the capture choice at B1 instead, the next search starts afresh. */
static void test_no_tree_reuse_after_the_capture_choice(void **state)
{
    (void)state;
    tg_game *g = position("suicide=any capture=choose ko=situational repetition=lose");
    tg_search *s = new_search(16, 1);
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
    assert_true(ts_root_visits(s) <= tg_search_last_report(s)->playouts);
    /* the ordinary capture at B1 is followed into the kept tree */
    tg_game_free(g);
    g = position("suicide=any capture=choose ko=situational repetition=lose");
    limits.playouts = 1500;
    assert_int_equal(tg_search_genmove(s, g, TG_BLACK, &limits, false, &move), TG_OK);
    assert_int_equal(tg_game_play(g, TG_BLACK, at(g, "B1"), 0), TG_OK);
    limits.playouts = 100;
    assert_int_equal(tg_search_genmove(s, g, TG_WHITE, &limits, false, &move), TG_OK);
    assert_true(ts_root_visits(s) > tg_search_last_report(s)->playouts);
    tg_search_free(s);
    tg_game_free(g);
}

/* Replay "W:B1 B:A2 ..." (B! for the capture choice) on a new 2x2 game
 * under free-opening with the given komi. */
static tg_game *replay(const char *moves, const char *komi)
{
    tg_rules r;
    char err[160];
    assert_int_equal(tg_rules_preset(&r, "free-opening"), TG_OK);
    assert_int_equal(tg_rules_apply(&r, komi, err, sizeof err), TG_OK);
    tg_game *g = tg_game_new(2, &r);
    assert_non_null(g);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *save, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        tg_color c = w[0] == 'B' ? TG_BLACK : TG_WHITE;
        unsigned flags = w[1] == '!' ? TG_PLAY_CAPTURE_OWN : 0;
        assert_int_equal(tg_game_play(g, c, at(g, w + 2), flags), TG_OK);
    }
    return g;
}

/* Positions where the capture choice is the only winning move, found and
 * checked by exact solving of the whole game tree under free-opening
 * (every ordinary move and the pass lose: a retake they lead to would
 * repeat a situation; the choice makes the board new).  Values are the
 * solver's, the area margin for the mover in half points.  The search
 * finds them with the superko of its tree and the probe of special.c:
 * with 10,000 playouts (2,500 for the probe) on every seed tried. */
static void test_plays_the_capture_choice_where_it_alone_wins(void **state)
{
    (void)state;
    static const struct {
        const char *moves, *komi;
        tg_color mover;
        const char *answer;
    } cases[] = {
        /* pass -2, B2 -2, B2 own +2 */
        {"W:B1 B:A2 W:A1 B:B2 W:pass B:B1 W:A1 B:B1 W:A2", "komi=0", TG_BLACK, "B2"},
        /* pass -2, A2 -2, A2 own 0 (komi -0.5: a win) */
        {"W:A2 B:B2 W:A1 B:B1 W:pass B:A2 W:A1 B:B2 W:B1", "komi=-0.5", TG_BLACK, "A2"},
        /* for White: pass -2, B2 -2, B2 own +2 */
        {"W:A1 B:B1 W:A2 B!B2 W:B1 B!B2 W:B2 B:A1 W:A2 B:B1", "komi=0.5", TG_WHITE, "B2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (uint64_t seed = 1; seed <= 2; seed++) {
            tg_game *g = replay(cases[i].moves, cases[i].komi);
            tg_search *s = new_search(32, seed);
            tg_search_limits limits = {10000, 0, 0};
            unsigned flags = TG_PLAY_CAPTURE_OWN;
            tg_point move;
            assert_int_equal(tg_search_genmove_choice(s, g, cases[i].mover, &limits, false, &flags, &move), TG_OK);
            if (move != at(g, cases[i].answer) || flags != TG_PLAY_CAPTURE_OWN)
                fail_msg("case %zu, seed %llu: move %d flags %u, expected %s own", i, (unsigned long long)seed,
                         move, flags, cases[i].answer);
            /* the caller that cannot relay the choice gets an ordinary move */
            flags = 0;
            assert_int_equal(tg_search_genmove_choice(s, g, cases[i].mover, &limits, false, &flags, &move), TG_OK);
            assert_int_equal(flags, 0);
            assert_int_equal(tg_game_check(g, cases[i].mover, move, 0), TG_OK);
            tg_search_free(s);
            tg_game_free(g);
        }
    }
}

/* The tree knows the rule against repetition below its root too: in a
 * 2x2 game full of cycles every principal variation the search reports
 * replays move by move under the game's own rules (situational superko
 * here; without the tree's check, lines retaking into an earlier
 * situation came out on top). */
static void test_tree_lines_never_repeat(void **state)
{
    (void)state;
    tg_game *g = replay("W:B1 B:A2 W:A1 B:B2 W:pass B:B1 W:A1 B:B1 W:A2", "komi=0");
    tg_search *s = new_search(32, 1);
    tg_search_limits limits = {20000, 0, 0};
    assert_int_equal(tg_search_run(s, g, TG_BLACK, &limits, 0, NULL, NULL, NULL), TG_OK);
    const tg_search_report *r = tg_search_last_report(s);
    assert_true(r->candidate_count > 0);
    int longest = 0;
    for (int i = 0; i < r->candidate_count; i++) {
        const tg_search_candidate *c = &r->candidates[i];
        tg_game *line = tg_game_clone(g);
        assert_non_null(line);
        tg_color to_move = TG_BLACK;
        for (int k = 0; k < c->pv_length && !tg_game_over(line); k++) {
            tg_status st = tg_game_play(line, to_move, c->pv[k], 0);
            if (st != TG_OK)
                fail_msg("candidate %d, move %d of its line: %s", i, k + 1, tg_status_text(st));
            to_move = tg_opponent(to_move);
        }
        longest = c->pv_length > longest ? c->pv_length : longest;
        tg_game_free(line);
    }
    assert_true(longest >= 6); /* lines deep enough to meet the cycles */
    tg_search_free(s);
    tg_game_free(g);
}

/* A game from a file of GTP commands (tests/data/special), played through
 * tengen's GTP engine itself. */
static tg_game *load_gtp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    tg_gtp *e = gs_new_engine(19);
    char line[128];
    while (fgets(line, sizeof line, f))
        gs_ok(e, line);
    fclose(f);
    tg_game *g = tg_game_clone(tg_gtp_game(e));
    assert_non_null(g);
    tg_gtp_free(e);
    return g;
}

/* A plain suicide where it alone wins, in two 3x3 positions after long
 * histories full of cycles (found by a search over histories and solved
 * exactly), Black to move, komi -6.5.  suicide_3x3 (995 moves): the
 * suicide of C1 and C2 wins; the pass loses by 9 points (White fills its
 * own eye at A3, which makes its capture at C2 legal again), the one-stone
 * suicide at A3 as much.  suicide_3x3_two (603 moves): of two suicides of
 * two stones, A1 wins (White's capture of B3 would then repeat a
 * situation) and A3 loses, as the pass does.  The tree sees White's eye
 * fill only because, where a repetition has refused every other move, it
 * gives the own eyes as moves. */
static void test_plays_a_suicide_where_it_alone_wins(void **state)
{
    (void)state;
    static const struct {
        const char *path;
        int moves;
        const char *answer;
    } cases[] = {
        {"data/special/suicide_3x3.gtp", 995, "C2"},
        {"data/special/suicide_3x3_two.gtp", 603, "A1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tg_game *g = load_gtp(cases[i].path);
        assert_int_equal(tg_game_move_count(g), cases[i].moves);
        assert_int_equal(tg_game_to_move(g), TG_BLACK);
        for (uint64_t seed = 1; seed <= 2; seed++) {
            tg_search *s = new_search(16, seed);
            tg_search_limits limits = {2000, 0, 0};
            unsigned flags = TG_PLAY_CAPTURE_OWN;
            tg_point move;
            assert_int_equal(tg_search_genmove_choice(s, g, TG_BLACK, &limits, false, &flags, &move), TG_OK);
            if (move != at(g, cases[i].answer) || flags != 0)
                fail_msg("%s, seed %llu: move %d flags %u, expected %s", cases[i].path, (unsigned long long)seed,
                         move, flags, cases[i].answer);
            tg_search_free(s);
        }
        tg_game_free(g);
    }
}

/* Where the ordinary move wins, the choice is not taken: the capture at B1
 * (White A1 goes) rather than losing B1 and C1. */
static void test_keeps_the_ordinary_move_where_it_wins(void **state)
{
    (void)state;
    tg_game *g = position("suicide=any capture=choose ko=situational repetition=lose");
    tg_search *s = new_search(16, 1);
    tg_search_limits limits = {2000, 0, 0};
    unsigned flags = TG_PLAY_CAPTURE_OWN;
    tg_point move;
    assert_int_equal(tg_search_genmove_choice(s, g, TG_BLACK, &limits, false, &flags, &move), TG_OK);
    assert_int_equal(flags, 0);
    assert_int_equal(tg_game_check(g, TG_BLACK, move, 0), TG_OK);
    tg_search_free(s);
    tg_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_which_moves),
        cmocka_unit_test(test_no_tree_reuse_after_the_capture_choice),
        cmocka_unit_test(test_tree_lines_never_repeat),
        cmocka_unit_test(test_plays_the_capture_choice_where_it_alone_wins),
        cmocka_unit_test(test_plays_a_suicide_where_it_alone_wins),
        cmocka_unit_test(test_keeps_the_ordinary_move_where_it_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
