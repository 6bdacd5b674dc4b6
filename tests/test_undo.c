/*
 * test_undo.c — undo consistency, at both layers.
 *
 * Random games are played while the full state is recorded at every ply
 * (stones, Zobrist hash, captures, ko point, side to move, passes, the
 * end); then every move is undone back to the start and the state must
 * equal the record at each ply, and replaying the same moves must give the
 * same states again.  tg_game_undo is tested under every ko rule (captures,
 * ko, superko refusals, games ended by passes or cycles), and
 * tg_board_undo with a tg_undo_log under both suicide rules, so multi-stone
 * suicides (New Zealand, Tromp-Taylor) are undone too (CASES.md T25).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tengen/game.h"
#include "test_support.h"

#define MAX_PLIES 600

typedef struct snapshot {
    tg_board board;
    uint64_t game_hash;
    tg_color to_move;
    int move_count, passes;
    bool over;
    tg_result_kind result;
} snapshot;

static uint64_t rng_state = 0x5eed0f0u;
static uint32_t next_random(uint32_t below)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 11) % below);
}

/* Compare two boards on everything a player or the rules can observe. */
static void expect_same_board(const tg_board *a, const tg_board *b, const char *where, int ply)
{
    for (int p = 0; p < a->npoints; p++)
        if (a->color[p] != b->color[p])
            fail_msg("%s, ply %d: stone at point %d differs (%d, %d)", where, ply, p, a->color[p], b->color[p]);
    if (a->hash != b->hash)
        fail_msg("%s, ply %d: hash differs", where, ply);
    if (a->captures[TG_BLACK] != b->captures[TG_BLACK] || a->captures[TG_WHITE] != b->captures[TG_WHITE])
        fail_msg("%s, ply %d: captures differ (B %d/%d, W %d/%d)", where, ply, a->captures[TG_BLACK],
                 b->captures[TG_BLACK], a->captures[TG_WHITE], b->captures[TG_WHITE]);
    if (a->ko_point != b->ko_point || (a->ko_point != TG_NO_POINT && a->ko_color != b->ko_color))
        fail_msg("%s, ply %d: ko differs (%d/%d, %d/%d)", where, ply, a->ko_point, b->ko_point, a->ko_color,
                 b->ko_color);
    if (a->empty_count != b->empty_count)
        fail_msg("%s, ply %d: empty count differs", where, ply);
    if (a->last_move != b->last_move)
        fail_msg("%s, ply %d: last move differs (%d, %d)", where, ply, a->last_move, b->last_move);
    if (!tg_board_consistent(b))
        fail_msg("%s, ply %d: board inconsistent", where, ply);
}

static void take_snapshot(const tg_game *g, snapshot *s)
{
    tg_board_copy(&s->board, tg_game_board(g));
    s->game_hash = tg_game_hash(g);
    s->to_move = tg_game_to_move(g);
    s->move_count = tg_game_move_count(g);
    s->passes = tg_game_consecutive_passes(g);
    s->over = tg_game_over(g);
    s->result = tg_game_result(g)->kind;
}

static void expect_snapshot(const tg_game *g, const snapshot *s, const char *where, int ply)
{
    expect_same_board(&s->board, tg_game_board(g), where, ply);
    if (tg_game_hash(g) != s->game_hash)
        fail_msg("%s, ply %d: game hash differs", where, ply);
    if (tg_game_to_move(g) != s->to_move || tg_game_move_count(g) != s->move_count ||
        tg_game_consecutive_passes(g) != s->passes)
        fail_msg("%s, ply %d: to move %d/%d, moves %d/%d, passes %d/%d", where, ply, s->to_move,
                 tg_game_to_move(g), s->move_count, tg_game_move_count(g), s->passes,
                 tg_game_consecutive_passes(g));
    if (tg_game_over(g) != s->over || tg_game_result(g)->kind != s->result)
        fail_msg("%s, ply %d: end of game differs", where, ply);
}

/* A random move for the side to move: usually a legal point, sometimes a pass. */
static tg_point random_legal(const tg_game *g, int pass_percent)
{
    const tg_board *b = tg_game_board(g);
    tg_point legal[TG_MAX_POINTS];
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            tg_point p = tg_point_at(b, x, y);
            if (tg_game_check(g, tg_game_to_move(g), p, 0) == TG_OK)
                legal[n++] = p;
        }
    if (!n || (int)next_random(100) < pass_percent)
        return TG_PASS;
    return legal[next_random((uint32_t)n)];
}

typedef struct undo_tally {
    int plies, captures, suicides, games_ended;
} undo_tally;

static void undo_random_game(const char *rules_text, int size, undo_tally *t)
{
    static snapshot shots[MAX_PLIES + 1];
    static tg_move moves[MAX_PLIES];
    tg_rules rules;
    tg_rules_default(&rules);
    assert_int_equal(tg_rules_apply(&rules, rules_text, NULL, 0), TG_OK);
    tg_game *g = tg_game_new(size, &rules);
    assert_non_null(g);
    char where[96];
    snprintf(where, sizeof where, "%s %dx%d", rules_text, size, size);
    int plies = 0;
    take_snapshot(g, &shots[0]);
    int limit = 2 * size * size + 10 < MAX_PLIES ? 2 * size * size + 10 : MAX_PLIES;
    while (plies < limit && !tg_game_over(g)) {
        tg_color c = tg_game_to_move(g);
        tg_point p = random_legal(g, size <= 3 ? 15 : 4);
        int stones_before = tg_board_stone_count(tg_game_board(g), c);
        int caught_before = tg_game_board(g)->captures[c];
        assert_int_equal(tg_game_play(g, c, p, 0), TG_OK);
        if (tg_game_board(g)->captures[c] > caught_before)
            t->captures++;
        if (p != TG_PASS && tg_board_stone_count(tg_game_board(g), c) < stones_before + 1)
            t->suicides++;
        moves[plies++] = (tg_move){c, p};
        take_snapshot(g, &shots[plies]);
    }
    t->games_ended += tg_game_over(g);
    t->plies += plies;
    /* a clone undoes independently of the original */
    tg_game *copy = tg_game_clone(g);
    assert_non_null(copy);
    for (int i = plies; i > 0; i--) {
        expect_snapshot(g, &shots[i], where, i);
        assert_int_equal(tg_game_undo(g), TG_OK);
        expect_snapshot(g, &shots[i - 1], where, i - 1);
    }
    assert_int_equal(tg_game_undo(g), TG_ERR_NOT_ALLOWED);
    expect_snapshot(copy, &shots[plies], "the clone", plies);
    /* replaying gives the same states */
    for (int i = 0; i < plies; i++) {
        assert_int_equal(tg_game_play(g, moves[i].color, moves[i].point, 0), TG_OK);
        expect_snapshot(g, &shots[i + 1], "replay", i + 1);
    }
    /* undo half way and replay again: the history after an undo is forgotten */
    for (int i = plies; i > plies / 2; i--)
        assert_int_equal(tg_game_undo(g), TG_OK);
    for (int i = plies / 2; i < plies; i++)
        assert_int_equal(tg_game_play(g, moves[i].color, moves[i].point, 0), TG_OK);
    expect_snapshot(g, &shots[plies], "second replay", plies);
    /* a cleared game is a new game */
    tg_game_clear(g);
    expect_snapshot(g, &shots[0], "cleared", 0);
    for (int i = 0; i < plies; i++) {
        assert_int_equal(tg_game_play(g, moves[i].color, moves[i].point, 0), TG_OK);
        expect_snapshot(g, &shots[i + 1], "after clear", i + 1);
    }
    tg_game_free(copy);
    tg_game_free(g);
}

static void test_undo_game_random(void **state)
{
    (void)state;
    static const char *const rulesets[] = {"chinese",      "japanese",       "aga",    "new-zealand",
                                           "tromp-taylor", "japanese suicide=yes"};
    static const int sizes[] = {2, 3, 4, 5, 7, 9, 13, 19};
    undo_tally t = {0};
    for (int round = 0; round < 3; round++)
        for (size_t r = 0; r < sizeof rulesets / sizeof rulesets[0]; r++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                undo_random_game(rulesets[r], sizes[s], &t);
    printf("undo (game): %d plies undone and replayed, %d captures, %d suicides, %d games ended\n", t.plies,
           t.captures, t.suicides, t.games_ended);
    assert_true(t.captures > 100);
    assert_true(t.suicides > 10);
}

/* ---- The board layer with its undo log ------------------------------------ */

static void undo_board_random(int size, tg_suicide_rule suicide, undo_tally *t)
{
    static tg_board shots[MAX_PLIES + 1];
    tg_board b;
    assert_int_equal(tg_board_init(&b, size), TG_OK);
    tg_undo_log log;
    tg_undo_log_init(&log);
    tg_color c = TG_BLACK;
    int plies = 0, passes = 0;
    tg_board_copy(&shots[0], &b);
    int limit = 3 * size * size < MAX_PLIES ? 3 * size * size : MAX_PLIES;
    while (plies < limit && passes < 2) {
        tg_point legal[TG_MAX_POINTS];
        int n = 0;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++)
                if (tg_board_check(&b, tg_point_at(&b, x, y), c, suicide) == TG_OK)
                    legal[n++] = tg_point_at(&b, x, y);
        if (!n || next_random(100) < 5) {
            assert_int_equal(tg_board_pass_logged(&b, &log), 0);
            passes++;
        } else {
            tg_point p = legal[next_random((uint32_t)n)];
            uint64_t expected_hash = tg_board_hash_after(&b, p, c);
            int stones_before = tg_board_stone_count(&b, c);
            int removed = tg_board_play_logged(&b, p, c, &log);
            assert_true(removed >= 0);
            if (b.hash != expected_hash)
                fail_msg("tg_board_hash_after differs from the hash after playing");
            if (tg_board_stone_count(&b, c) < stones_before + 1) {
                t->suicides++;
                assert_int_equal(tg_board_stone_count(&b, c), stones_before + 1 - removed);
            } else if (removed) {
                t->captures++;
            }
            passes = 0;
        }
        c = tg_opponent(c);
        tg_board_copy(&shots[++plies], &b);
    }
    t->plies += plies;
    for (int i = plies; i > 0; i--) {
        expect_same_board(&shots[i], &b, "board undo", i);
        assert_int_equal(tg_board_undo(&b, &log), TG_OK);
        expect_same_board(&shots[i - 1], &b, "board undo", i - 1);
    }
    assert_int_equal(tg_board_undo(&b, &log), TG_ERR_NOT_ALLOWED);
    tg_undo_log_free(&log);
}

static void test_undo_board_log(void **state)
{
    (void)state;
    undo_tally t = {0};
    for (int round = 0; round < 6; round++)
        for (int size = 2; size <= 19; size += (size < 7 ? 1 : 6)) {
            undo_board_random(size, TG_SUICIDE_FORBIDDEN, &t);
            undo_board_random(size, TG_SUICIDE_MULTI_STONE, &t);
        }
    printf("undo (board): %d plies undone, %d captures, %d suicides\n", t.plies, t.captures, t.suicides);
    assert_true(t.suicides > 10);
}

/* T25 and T5 in one: a capture, a ko and a suicide undone at the board layer. */
static void test_T25_board_undo_capture_ko_suicide(void **state)
{
    (void)state;
    tg_board b, before;
    assert_true(ts_board_new_from_diagram(&b, " 4 . . . .\n"
                                              " 3 O O . .\n"
                                              " 2 X X O .\n"
                                              " 1 . O . .\n"));
    tg_board_copy(&before, &b);
    tg_undo_log log;
    tg_undo_log_init(&log);
    tg_point a1 = ts_vertex(4, "A1");
    assert_int_equal(tg_board_check(&b, a1, TG_BLACK, TG_SUICIDE_FORBIDDEN), TG_ERR_SUICIDE);
    assert_int_equal(tg_board_check(&b, a1, TG_BLACK, TG_SUICIDE_MULTI_STONE), TG_OK);
    assert_int_equal(tg_board_play_logged(&b, a1, TG_BLACK, &log), 3);
    assert_int_equal(tg_board_stone_count(&b, TG_BLACK), 0);
    assert_int_equal(b.captures[TG_WHITE], 3);
    assert_int_equal(b.captures[TG_BLACK], 0);
    assert_int_equal(tg_board_undo(&b, &log), TG_OK);
    expect_same_board(&before, &b, "suicide undone", 1);

    /* T3: the capture that makes a ko, undone */
    assert_true(ts_board_new_from_diagram(&b, " 4 . . . .\n"
                                              " 3 . . . .\n"
                                              " 2 O X . .\n"
                                              " 1 . O X .\n"));
    tg_board_copy(&before, &b);
    assert_int_equal(tg_board_play_logged(&b, a1, TG_BLACK, &log), 1);
    assert_int_equal(b.ko_point, ts_vertex(4, "B1"));
    assert_int_equal(b.ko_color, TG_WHITE);
    assert_int_equal(tg_board_check(&b, ts_vertex(4, "B1"), TG_WHITE, TG_SUICIDE_FORBIDDEN), TG_ERR_KO);
    tg_board after_capture;
    tg_board_copy(&after_capture, &b);
    assert_int_equal(tg_board_pass_logged(&b, &log), 0);
    assert_int_equal(tg_board_undo(&b, &log), TG_OK);
    expect_same_board(&after_capture, &b, "pass undone", 2);
    assert_int_equal(tg_board_undo(&b, &log), TG_OK);
    expect_same_board(&before, &b, "ko capture undone", 1);
    assert_int_equal(tg_board_undo(&b, &log), TG_ERR_NOT_ALLOWED);
    tg_undo_log_free(&log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_undo_game_random),
        cmocka_unit_test(test_undo_board_log),
        cmocka_unit_test(test_T25_board_undo_capture_ko_suicide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
