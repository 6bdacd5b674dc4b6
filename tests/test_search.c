/*
 * test_search.c — correctness of the Monte-Carlo tree search (search.h),
 * never its strength (issue 4):
 *
 *   - legal moves only: short games of the search against itself and against
 *     a random player under every preset and under ko=situational and
 *     suicide=yes, and positions with ko and superko cycles (the triple ko,
 *     send-two-return-one), with and without a tree kept from earlier moves;
 *   - the ending: it never fills its own eye, never passes while a living
 *     group needs an answer, captures the big chain of a capture race,
 *     passes on a finished position it wins, and under cleanup captures the
 *     dead stones before it passes;
 *   - ownership and dead stones of an obvious position;
 *   - limits: a time limit kept within a wide margin (the only timing
 *     assertion), a playout limit kept almost exactly, and the time plan of
 *     timeman.c never spending more than the clock has left minus the lag;
 *   - threads, tree reuse (seen in the report: the root's visits exceed the
 *     decision's playouts), a tree of 1 MiB, and options out of range.
 *
 * Budgets are mostly a few hundred playouts (1,500 where a tree must fill
 * or be kept), so that the whole program stays fast under the sanitizers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tengen/score.h"
#include "tengen/search.h"
#include "test_support.h"

/* ---- Helpers -------------------------------------------------------------- */

static tg_search *search_with(int threads, size_t max_memory, uint64_t seed, bool reuse_tree)
{
    tg_search_options opt;
    tg_search_options_default(&opt);
    opt.threads = threads;
    opt.max_memory = max_memory;
    opt.seed = seed;
    opt.reuse_tree = reuse_tree;
    /* the search's own mechanics, without the learned value function that
     * the default uses on 9x9 at a playout budget (test_value tests it
     * there); under the sanitizers its network made this suite 20 times
     * slower */
    opt.value_function = TG_VALUE_OFF;
    tg_search *s = tg_search_new(&opt);
    assert_non_null(s);
    return s;
}

static tg_search *search_new(int threads, size_t max_memory, uint64_t seed)
{
    return search_with(threads, max_memory, seed, true);
}

#define MIB ((size_t)1 << 20)

static tg_search_limits playout_limit(int playouts)
{
    tg_search_limits limits = {playouts, 0, 0};
    return limits;
}

static tg_point at(const tg_game *g, const char *vertex)
{
    tg_point p = ts_vertex(tg_game_size(g), vertex);
    if (p < 0)
        fail_msg("bad vertex %s", vertex);
    return p;
}

static tg_game *empty_game(int size)
{
    tg_rules rules;
    tg_rules_default(&rules);
    tg_game *g = tg_game_new(size, &rules);
    assert_non_null(g);
    return g;
}

static tg_game *game_of(const char *rules, const char *diagram, tg_color to_move)
{
    tg_game *g = ts_game_from_diagram(rules, diagram, to_move);
    if (!g)
        fail_msg("bad diagram or rules '%s':\n%s", rules, diagram);
    return g;
}

static const char *vertex_text(const tg_game *g, tg_point p, char *buf)
{
    if (p == TG_RESIGN)
        strcpy(buf, "resign");
    else
        ts_vertex_name(tg_game_size(g), p, buf);
    return buf;
}

/* Fail with the position when the search answered an illegal move. */
static void assert_legal_answer(const tg_game *g, tg_color color, tg_point move, const char *context)
{
    if (move == TG_PASS || move == TG_RESIGN)
        return;
    tg_status st = tg_game_check(g, color, move, TG_PLAY_ANY_ORDER); /* genmove may be for either colour */
    if (st != TG_OK) {
        char board[4096], v[16];
        tg_game_render(g, board, sizeof board);
        fail_msg("%s: the search answered %s for %s, which is illegal (%s) under %s:\n%s", context,
                 vertex_text(g, move, v), color == TG_BLACK ? "B" : "W", tg_status_text(st),
                 tg_game_rules(g)->name, board);
    }
}

/* A true eye of `color`: every neighbour is its stone (or the edge) and the
 * diagonals make it a real eye (tg_board_is_eye).  Filling one is never
 * needed; the search must not do it. */
static bool is_own_true_eye(const tg_board *b, tg_point p, tg_color color)
{
    return b->color[p] == TG_EMPTY && tg_nbr_count(b, p, TG_EMPTY) == 0 &&
           tg_nbr_count(b, p, tg_opponent(color)) == 0 && tg_board_is_eye(b, p, color);
}

/* Check the search's answer and play it.  Returns false when the game is
 * over (two passes, a cycle, or a resignation). */
static bool play_answer(tg_game *g, tg_color color, tg_point move, const char *context)
{
    assert_legal_answer(g, color, move, context);
    if (move == TG_RESIGN) {
        assert_int_equal(tg_game_resign(g, color), TG_OK);
        return false;
    }
    if (move != TG_PASS && is_own_true_eye(tg_game_board(g), move, color)) {
        char board[4096], v[16];
        tg_game_render(g, board, sizeof board);
        fail_msg("%s: the search fills its own eye at %s:\n%s", context, vertex_text(g, move, v), board);
    }
    assert_int_equal(tg_game_play(g, color, move, 0), TG_OK);
    return !tg_game_over(g);
}

/* A uniformly random legal move that does not fill an own eye-like point,
 * or a pass (also, rarely, by choice: so that the search meets passes). */
static tg_point random_move(const tg_game *g, tg_color color, tg_rng *rng)
{
    const tg_board *b = tg_game_board(g);
    tg_point legal[TG_MAX_POINTS];
    int n = 0;
    for (int i = 0; i < b->empty_count; i++) {
        tg_point p = b->empty[i];
        if (!tg_board_is_eye(b, p, color) && tg_game_check(g, color, p, 0) == TG_OK)
            legal[n++] = p;
    }
    if (n == 0 || tg_rng_below(rng, 50) == 0)
        return TG_PASS;
    return legal[tg_rng_below(rng, (uint32_t)n)];
}

/* The answer of a fresh search of `playouts` (checked legal). */
static tg_point fresh_answer(const tg_game *g, tg_color color, int playouts, uint64_t seed, bool cleanup)
{
    tg_search *s = search_new(1, 16 * MIB, seed);
    tg_search_limits limits = playout_limit(playouts);
    tg_point move = ts_search_genmove(s, g, color, &limits, cleanup);
    assert_legal_answer(g, color, move, "fresh search");
    tg_search_free(s);
    return move;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Sum of the visits of the root's candidates in the last report. */
/* ---- 1. Legal moves only ---------------------------------------------------- */

typedef enum opponent_kind { AGAINST_ITSELF, AGAINST_RANDOM } opponent_kind;

/* One game on an empty board: the search plays `search_color` (both colours
 * against itself), the random player the other.  Returns the moves played. */
static int play_game(const char *rules_text, int size, opponent_kind opponent, tg_color search_color,
                     int playouts, int threads, uint64_t seed)
{
    tg_rules rules;
    tg_rules_default(&rules);
    assert_int_equal(tg_rules_apply(&rules, rules_text, NULL, 0), TG_OK);
    tg_game *g = tg_game_new(size, &rules);
    assert_non_null(g);
    tg_search *s = search_new(threads, 16 * MIB, seed);
    tg_rng rng;
    tg_rng_seed(&rng, seed * 7919u + 1);
    tg_search_limits limits = playout_limit(playouts);
    char context[128];
    int moves = 0, max_moves = 3 * size * size;
    bool going = true;
    while (going && moves < max_moves) {
        tg_color color = tg_game_to_move(g);
        snprintf(context, sizeof context, "%s %dx%d seed %llu move %d", rules_text, size, size,
                 (unsigned long long)seed, moves + 1);
        if (opponent == AGAINST_ITSELF || color == search_color) {
            going = play_answer(g, color, ts_search_genmove(s, g, color, &limits, false), context);
        } else {
            tg_point p = random_move(g, color, &rng);
            assert_int_equal(tg_game_play(g, color, p, 0), TG_OK);
            going = !tg_game_over(g);
        }
        moves++;
    }
    tg_search_free(s);
    tg_game_free(g);
    return moves;
}

static const char *const all_rules[] = {
    "chinese", "japanese", "korean", "aga", "new-zealand", "tromp-taylor", "ancient",
    "chinese ko=situational", "japanese suicide=yes", "chinese ko=situational suicide=yes",
};
#define RULES_COUNT (sizeof all_rules / sizeof all_rules[0])

static void test_search_legal_moves_every_ruleset(void **state)
{
    (void)state;
    for (size_t i = 0; i < RULES_COUNT; i++) {
        uint64_t seed = 100 + i;
        play_game(all_rules[i], 9, AGAINST_ITSELF, TG_BLACK, 32, 1, seed);
        play_game(all_rules[i], 5, AGAINST_RANDOM, TG_BLACK, 64, 1, seed);
        play_game(all_rules[i], 7, AGAINST_RANDOM, TG_WHITE, 64, 1, seed);
    }
}

/* Small boards are where suicide, ko and superko happen most. */
static void test_search_legal_moves_small_boards(void **state)
{
    (void)state;
    for (size_t i = 0; i < RULES_COUNT; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            play_game(all_rules[i], 4, AGAINST_RANDOM, seed % 2 ? TG_BLACK : TG_WHITE, 40, 1, seed);
            play_game(all_rules[i], 5, AGAINST_ITSELF, TG_BLACK, 40, 1, seed);
        }
}

/* Self-play on a small board ends by passes (or a resignation), well before
 * the move cap: the search passes when the game is over. */
static void test_search_self_play_ends(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        int moves = play_game("chinese", 5, AGAINST_ITSELF, TG_BLACK, 100, 1, seed);
        assert_true(moves < 3 * 5 * 5);
    }
}

/* The triple ko (T11): B C1, W C9, B H1, W B1, B B9 — now W G1 would
 * recreate the starting position. */
static const char triple_ko[] = " 9 O X . X . . . . .\n"
                                " 8 . O X . . . . . .\n"
                                " 7 . . . . . . . . .\n"
                                " 6 . . . . . . . . .\n"
                                " 5 . . . . . . . . .\n"
                                " 4 . . . . . . . . .\n"
                                " 3 . . . . . . . . .\n"
                                " 2 . X O . . . X O .\n"
                                " 1 X O . O . X O . O\n";
static const char *const triple_ko_moves[] = {"C1", "C9", "H1", "B1", "B9"};

/* Send two, return one (T10): W C1, B A1 — now W B1, capturing one stone,
 * would recreate the starting position (with the other side to move: a
 * positional superko, not a situational one). */
static const char send_two[] = " 5 . . . . .\n"
                               " 4 . . . . .\n"
                               " 3 O . . . .\n"
                               " 2 O X X . .\n"
                               " 1 . O . X .\n";
static const char *const send_two_moves[] = {"C1", "A1"};

/* Play the scripted moves of a cycle, asking the search (whose tree is kept
 * when `reuse`) for every move on the way, and check its answer at the end,
 * where one point is forbidden by superko. */
static void check_superko_cycle(const char *rules, const char *diagram, tg_color first, const char *const *script,
                                int script_length, const char *forbidden, bool reuse, uint64_t seed)
{
    tg_game *g = game_of(rules, diagram, first);
    tg_search *s = search_with(1, 16 * MIB, seed, reuse);
    tg_search_limits limits = playout_limit(300);
    char context[160];
    for (int i = 0; i < script_length; i++) {
        tg_color color = tg_game_to_move(g);
        snprintf(context, sizeof context, "%s before scripted move %d (reuse %d, seed %llu)", rules, i + 1, reuse,
                 (unsigned long long)seed);
        if (reuse)
            assert_legal_answer(g, color, ts_search_genmove(s, g, color, &limits, false), context);
        assert_int_equal(tg_game_play(g, color, at(g, script[i]), 0), TG_OK);
    }
    tg_color color = tg_game_to_move(g);
    if (tg_game_check(g, color, at(g, forbidden), 0) != TG_ERR_SUPERKO)
        fail_msg("fixture: %s is not a superko point under %s", forbidden, rules);
    snprintf(context, sizeof context, "%s at the superko point %s (reuse %d, seed %llu)", rules, forbidden, reuse,
             (unsigned long long)seed);
    tg_point move = ts_search_genmove(s, g, color, &limits, false);
    assert_legal_answer(g, color, move, context);
    /* analysis reports only root moves the game allows */
    const tg_search_report *r = tg_search_last_report(s);
    for (int i = 0; i < r->candidate_count; i++)
        assert_legal_answer(g, color, r->candidates[i].move, context);
    tg_search_free(s);
    tg_game_free(g);
}

static void test_search_never_plays_superko_fresh_tree(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        check_superko_cycle("chinese", triple_ko, TG_BLACK, triple_ko_moves, 5, "G1", false, seed);
        check_superko_cycle("aga", triple_ko, TG_BLACK, triple_ko_moves, 5, "G1", false, seed);
        check_superko_cycle("chinese", send_two, TG_WHITE, send_two_moves, 2, "B1", false, seed);
        check_superko_cycle("tromp-taylor", send_two, TG_WHITE, send_two_moves, 2, "B1", false, seed);
    }
}

/* The same cycles reached while the search keeps its tree from move to move:
 * the root's children then come from a node expanded deeper in an earlier
 * search, and must still be filtered by the game's superko.  (Regression:
 * a kept root once offered W G1 in the triple ko, expanded at depth >= 1
 * with the board's simple ko alone; search.c now drops such a root.) */
static void test_search_never_plays_superko_reused_tree(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        check_superko_cycle("chinese", triple_ko, TG_BLACK, triple_ko_moves, 5, "G1", true, seed);
        check_superko_cycle("aga", triple_ko, TG_BLACK, triple_ko_moves, 5, "G1", true, seed);
        check_superko_cycle("chinese", send_two, TG_WHITE, send_two_moves, 2, "B1", true, seed);
        check_superko_cycle("tromp-taylor", send_two, TG_WHITE, send_two_moves, 2, "B1", true, seed);
    }
}

/* A simple ko just taken: the immediate recapture is never answered. */
static void test_search_respects_simple_ko(void **state)
{
    (void)state;
    static const char *const rules[] = {"japanese", "chinese"};
    for (int i = 0; i < 2; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            tg_game *g = game_of(rules[i],
                                 " 5 . . . . .\n"
                                 " 4 . X O . .\n"
                                 " 3 X O . O .\n"
                                 " 2 . X O . .\n"
                                 " 1 . . . . .\n",
                                 TG_BLACK);
            assert_int_equal(tg_game_play(g, TG_BLACK, at(g, "C3"), 0), TG_OK); /* takes B3 */
            assert_int_not_equal(tg_game_check(g, TG_WHITE, at(g, "B3"), 0), TG_OK); /* the fixture */
            fresh_answer(g, TG_WHITE, 200, seed, false);
            tg_game_free(g);
        }
}

/* ---- 2. Eyes, early passes, capture races ---------------------------------- */

/* Black's only moves besides a pass are its own two eyes (A1, C2). */
static void test_search_never_fills_own_eye(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        tg_game *g = game_of("chinese komi=0",
                             " 5 . O . O O\n"
                             " 4 O O O O O\n"
                             " 3 X X X X X\n"
                             " 2 X X . X X\n"
                             " 1 . X X X X\n",
                             TG_BLACK);
        tg_point a1 = at(g, "A1"), c2 = at(g, "C2");
        /* not in play, nor under cleanup, nor after the opponent passed */
        for (int k = 0; k < 3; k++) {
            if (k == 2) {
                tg_game_set_to_move(g, TG_WHITE);
                assert_int_equal(tg_game_play(g, TG_WHITE, TG_PASS, 0), TG_OK);
            }
            tg_point move = fresh_answer(g, TG_BLACK, 200, seed, k == 1);
            assert_true(move != a1 && move != c2);
        }
        tg_game_free(g);
    }
}

/* Black's group has a straight three of eye space (B1 C1 D1): C1 makes two
 * eyes and wins; a pass lets White play C1 and kill everything. */
static void test_search_does_not_pass_before_living(void **state)
{
    (void)state;
    static const char position[] = " 7 . O O . O O .\n"
                                   " 6 O O O O O O O\n"
                                   " 5 X X X X X X X\n"
                                   " 4 X X X X X X X\n"
                                   " 3 X X X X X X X\n"
                                   " 2 X X X X X X X\n"
                                   " 1 X . . . X X X\n";
    for (uint64_t seed = 1; seed <= 3; seed++) {
        tg_game *g = game_of("chinese", position, TG_BLACK);
        assert_int_equal(fresh_answer(g, TG_BLACK, 400, seed, false), at(g, "C1"));
        tg_game_free(g);
    }
}

/* A capture race: White's six stones (A4 B4 C4 C3 C2 C1) and Black's five
 * in the corner are both in atari; Black to move captures at D1. */
static void test_search_captures_in_capture_race(void **state)
{
    (void)state;
    static const char position[] = " 7 . . . . . . .\n"
                                   " 6 . . . . . . .\n"
                                   " 5 X X X X . . .\n"
                                   " 4 O O O X . . .\n"
                                   " 3 X X O X . . .\n"
                                   " 2 X X O X . . .\n"
                                   " 1 . X O . . . .\n";
    for (uint64_t seed = 1; seed <= 3; seed++) {
        tg_game *g = game_of("chinese", position, TG_BLACK);
        const tg_board *b = tg_game_board(g);
        assert_true(tg_chain_in_atari(tg_chain_at(b, at(g, "C3"))));  /* the fixture */
        assert_true(tg_chain_in_atari(tg_chain_at(b, at(g, "B2"))));
        assert_int_equal(fresh_answer(g, TG_BLACK, 300, seed, false), at(g, "D1"));
        /* and White, to move, captures Black's five at A1 */
        tg_game_set_to_move(g, TG_WHITE);
        assert_int_equal(fresh_answer(g, TG_WHITE, 300, seed, false), at(g, "A1"));
        tg_game_free(g);
    }
}

/* ---- 3. The end of the game -------------------------------------------------- */

/* Both sides unconditionally alive, every point settled, Black far ahead. */
static const char finished[] = " 7 . O . O . O .\n"
                               " 6 O O O O O O O\n"
                               " 5 X X X X X X X\n"
                               " 4 . X . X . X .\n"
                               " 3 X X X X X X X\n"
                               " 2 . . . . . . .\n"
                               " 1 . . . . . . .\n";

static void test_search_passes_when_game_is_over(void **state)
{
    (void)state;
    for (size_t i = 0; i < RULES_COUNT; i++) {
        tg_game *g = game_of(all_rules[i], finished, TG_WHITE);
        assert_int_equal(tg_game_play(g, TG_WHITE, TG_PASS, 0), TG_OK);
        tg_point move = fresh_answer(g, TG_BLACK, 200, 1 + i, false);
        char v[16];
        if (move != TG_PASS)
            fail_msg("%s: Black wins the finished position but answered %s to White's pass", all_rules[i],
                     vertex_text(g, move, v));
        tg_game_free(g);
    }
}

/* Two unconditionally alive groups; Black's territory (rows 1-4) holds a
 * hopeless White stone at E2. */
/* A hopeless position: White resigns, but only on its third search in a row
 * below the threshold, and never before a quarter of the board is played. */
static void test_resigns_when_hopeless_three_times(void **state)
{
    (void)state;
    tg_game *g = empty_game(9);
    /* Black walls off the whole board while White passes: 40 moves */
    const char *black[20] = {"C3", "C4", "C5", "C6", "C7", "D3", "E3", "F3", "G3", "G4",
                             "G5", "G6", "G7", "D7", "E7", "F7", "B2", "H8", "B8", "H2"};
    for (int i = 0; i < 20; i++) {
        assert_int_equal(tg_game_play(g, TG_BLACK, at(g, black[i]), 0), TG_OK);
        assert_int_equal(tg_game_play(g, TG_WHITE, TG_PASS, 0), TG_OK);
    }
    assert_int_equal(tg_game_play(g, TG_BLACK, at(g, "E5"), 0), TG_OK);
    tg_search *s = search_new(1, 16 * MIB, 1);
    tg_search_limits limits = playout_limit(1000);
    const char *answers[2] = {"A9", "J1"};
    for (int turn = 0; turn < 3; turn++) {
        tg_point move = ts_search_genmove(s, g, TG_WHITE, &limits, false);
        assert_true(tg_search_last_report(s)->winrate < 0.1);
        if (turn < 2) {
            assert_int_not_equal(move, TG_RESIGN);
            assert_true(play_answer(g, TG_WHITE, move, "hopeless"));
            tg_point reply = at(g, answers[turn]);
            if (tg_game_check(g, TG_BLACK, reply, 0) != TG_OK)
                reply = TG_PASS;
            assert_int_equal(tg_game_play(g, TG_BLACK, reply, 0), TG_OK);
        } else {
            assert_int_equal(move, TG_RESIGN);
        }
    }
    tg_search_free(s);
    tg_game_free(g);
}

static const char territory[] = " 9 . . . . . . . . .\n"
                                " 8 O O . . . . . O O\n"
                                " 7 . O . . . . . O .\n"
                                " 6 O O O O O O O O O\n"
                                " 5 X X X X X X X X X\n"
                                " 4 . X . . . . . X .\n"
                                " 3 X X . . . . . X X\n"
                                " 2 . . . . O . . . .\n"
                                " 1 . . . . . . . . .\n";

/* Whether a White stone stands on rows 1-4 (Black's area). */
static bool white_stone_in_black_area(const tg_game *g)
{
    const tg_board *b = tg_game_board(g);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < b->size; x++)
            if (b->color[tg_point_at(b, x, y)] == TG_WHITE)
                return true;
    return false;
}

/* Under cleanup (kgs-genmove_cleanup) Black does not pass while the dead
 * stone is on the board, even after White's pass (White keeps passing);
 * once it is captured, Black ends the cleanup with a pass.  (Regression:
 * Black once kept playing after the capture, into both areas, because with
 * White passing every move wins and the pass is never the most visited.) */
static void test_search_cleanup_captures_dead_stones_then_passes(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        tg_game *g = game_of("chinese", territory, TG_WHITE);
        assert_int_equal(tg_game_play(g, TG_WHITE, TG_PASS, 0), TG_OK);
        tg_search *s = search_new(1, 16 * MIB, seed);
        tg_search_limits limits = playout_limit(200);
        char context[96], board[4096];
        bool passed = false;
        for (int turn = 0; turn < 24 && !passed; turn++) {
            snprintf(context, sizeof context, "cleanup seed %llu turn %d", (unsigned long long)seed, turn);
            tg_point move = ts_search_genmove(s, g, TG_BLACK, &limits, true);
            tg_game_render(g, board, sizeof board);
            if (move == TG_PASS && white_stone_in_black_area(g))
                fail_msg("%s: passed under cleanup with a dead White stone in its area:\n%s", context, board);
            assert_int_not_equal(move, TG_RESIGN);
            passed = move == TG_PASS;
            if (play_answer(g, TG_BLACK, move, context))
                assert_int_equal(tg_game_play(g, TG_WHITE, TG_PASS, 0), TG_OK);
        }
        assert_false(white_stone_in_black_area(g));
        if (!passed) {
            tg_game_render(g, board, sizeof board);
            fail_msg("cleanup seed %llu: no pass in 24 moves, nothing left to capture:\n%s",
                     (unsigned long long)seed, board);
        }
        tg_search_free(s);
        tg_game_free(g);
    }
}

/* ---- 4. Ownership and dead stones -------------------------------------------- */

static void test_search_ownership_of_obvious_position(void **state)
{
    (void)state;
    tg_game *g = game_of("chinese", territory, TG_BLACK);
    const tg_board *b = tg_game_board(g);
    uint8_t safe[TG_MAX_POINTS];
    tg_benson(b, safe); /* the fixture: both groups unconditionally alive */
    assert_int_equal(safe[at(g, "E5")], TG_BLACK);
    assert_int_equal(safe[at(g, "E6")], TG_WHITE);

    tg_search *s = search_new(1, 16 * MIB, 5);
    tg_search_limits limits = playout_limit(400);
    ts_search_genmove(s, g, TG_BLACK, &limits, false);
    const float *own = tg_search_ownership(s);
    char v[16];
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            tg_point p = tg_point_at(b, x, y);
            if (y <= 4 && own[p] <= 0.5f)
                fail_msg("Black's point %s has ownership %.2f", vertex_text(g, p, v), own[p]);
            if (y >= 5 && own[p] >= -0.5f)
                fail_msg("White's point %s has ownership %.2f", vertex_text(g, p, v), own[p]);
        }

    uint8_t dead[TG_MAX_POINTS];
    memset(dead, 0xee, sizeof dead);
    tg_search_dead_stones(s, b, dead);
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            tg_point p = tg_point_at(b, x, y);
            bool expect = p == at(g, "E2");
            if ((dead[p] != 0) != expect)
                fail_msg("dead[%s] = %d", vertex_text(g, p, v), dead[p]);
        }
    tg_search_free(s);
    tg_game_free(g);
}

/* ---- 5. Limits and the time plan --------------------------------------------- */

static void test_search_time_limit(void **state)
{
    (void)state;
    tg_game *g = empty_game(9);
    tg_search *s = search_new(1, 64 * MIB, 3);
    tg_search_limits limits = {0, 0.3, 0.6};
    double t0 = now_seconds();
    tg_point move = ts_search_run(s, g, TG_BLACK, &limits, 0, NULL, NULL);
    double elapsed = now_seconds() - t0;
    assert_legal_answer(g, TG_BLACK, move, "time limit");
    assert_true(elapsed < 1.5);
    const tg_search_report *r = tg_search_last_report(s);
    assert_true(r->playouts > 0);
    assert_true(r->seconds <= elapsed + 0.01);
    /* the hard limit given alone holds too, beside a playout count that
     * would otherwise take hours */
    tg_search_limits hard = {.playouts = 1 << 30, .max_seconds = 0.3};
    t0 = now_seconds();
    move = ts_search_run(s, g, TG_BLACK, &hard, 0, NULL, NULL);
    elapsed = now_seconds() - t0;
    assert_legal_answer(g, TG_BLACK, move, "hard time limit alone");
    assert_true(elapsed < 1.5);
    assert_true(r->playouts > 0 && r->playouts < 1 << 30);
    tg_search_free(s);
    tg_game_free(g);
}

static void test_search_playout_limit(void **state)
{
    (void)state;
    tg_game *g = empty_game(9);
    static const int budgets[] = {1, 7, 100, 333};
    for (int i = 0; i < 4; i++) {
        tg_search *s = search_new(1, 16 * MIB, 1 + (uint64_t)i);
        tg_search_limits limits = playout_limit(budgets[i]);
        ts_search_genmove(s, g, TG_BLACK, &limits, false);
        const tg_search_report *r = tg_search_last_report(s);
        if (r->playouts < budgets[i] || r->playouts > budgets[i] + 16)
            fail_msg("asked for %d playouts, the search made %d", budgets[i], r->playouts);
        /* a fresh tree: the root's children together had every playout */
        assert_true(ts_root_visits(s) <= r->playouts);
        tg_search_free(s);
    }
    tg_game_free(g);
}

/* A progress callback that asks to stop stops the search. */
typedef struct progress_log {
    int calls;
    int stop_after;
} progress_log;

static bool progress_counter(void *ctx, const tg_search_report *report)
{
    progress_log *log = ctx;
    assert_true(report->playouts >= 0);
    return ++log->calls < log->stop_after;
}

static void test_search_progress_can_stop(void **state)
{
    (void)state;
    tg_game *g = empty_game(9);
    tg_search *s = search_new(1, 16 * MIB, 3);
    tg_search_limits limits = {0, 30, 30};
    progress_log log = {0, 2};
    tg_point move = ts_search_run(s, g, TG_BLACK, &limits, 0.05, progress_counter, &log);
    assert_legal_answer(g, TG_BLACK, move, "stopped by progress");
    assert_int_equal(log.calls, 3); /* two reports, the second says stop, then the final one */
    assert_true(tg_search_last_report(s)->seconds < 20);
    tg_search_free(s);
    tg_game_free(g);
}

/* The plan on a clock (seconds; Fischer: period is the increment) whose
 * time left is told as `left` (< 0: not told) with `stones_left`, as GTP's
 * time_left tells it.  It must be positive, max >= planned, and within
 * what the clock allows for this move (`allowed`) minus the lag. */
static void check_plan(tg_clock_system system, double main_time, double period, int count, double left,
                       int stones_left, const tg_board *b, double lag, double allowed)
{
    bool fischer = system == TG_CLOCK_FISCHER;
    tg_time_control tc = {.system = system, .main_ms = (int64_t)(main_time * 1000),
                          .period_ms = fischer ? 0 : (int64_t)(period * 1000),
                          .increment_ms = fischer ? (int64_t)(period * 1000) : 0,
                          .periods = system == TG_CLOCK_BYOYOMI ? count : 0,
                          .stones = system == TG_CLOCK_BYOYOMI ? 0 : count};
    tg_time_state time;
    tg_time_state_start(&tc, &time);
    if (left >= 0)
        tg_clock_view_from_left(&tc, (int64_t)(left * 1000), stones_left, &time.view);
    tg_search_limits limits = {123, -1, -1};
    assert_true(tg_search_time_plan(&time, b, lag, &limits));
    if (!(limits.seconds > 0 && limits.max_seconds >= limits.seconds && limits.max_seconds <= allowed - lag))
        fail_msg("clock %d main %.0f period %.0f/%d, left %.1f (%d), lag %.1f, %d empty: planned %.3f s, max "
                 "%.3f s, allowed %.3f s minus the lag",
                 (int)system, main_time, period, count, left, stones_left, lag, b->empty_count, limits.seconds,
                 limits.max_seconds, allowed);
    assert_int_equal(limits.playouts, 123); /* only the times are set */
}

static void test_search_time_plan(void **state)
{
    (void)state;
    static tg_board boards[3];
    tg_board_init(&boards[0], 9);
    tg_board_init(&boards[1], 19);
    ts_board_new_from_diagram(&boards[2], finished); /* few empty points */
    static const double lags[] = {0, 0.2, 1.0};
    static const double lefts[] = {0.5, 1, 2, 5, 30, 120, 600, 3600};

    tg_search_limits limits = {0, 0, 0};
    tg_time_state none;
    tg_time_state_start(&(tg_time_control){.system = TG_CLOCK_NONE}, &none);
    assert_false(tg_search_time_plan(&none, &boards[0], 0.2, &limits));

    for (int bi = 0; bi < 3; bi++)
        for (int li = 0; li < 3; li++) {
            const tg_board *b = &boards[bi];
            double lag = lags[li];
            /* absolute: never more than what is left (when anything can be
             * done in what is left) */
            check_plan(TG_CLOCK_ABSOLUTE, 300, 0, 0, -1, 0, b, lag, 300);
            for (int i = 0; i < 8; i++)
                if (lefts[i] - lag >= 0.15)
                    check_plan(TG_CLOCK_ABSOLUTE, 300, 0, 0, lefts[i], 0, b, lag, lefts[i]);

            /* byo-yomi, 5 periods of 30 s: in main time a move may run into
             * the first period, never past it; in the periods, never past
             * the current one */
            check_plan(TG_CLOCK_BYOYOMI, 600, 30, 5, -1, 0, b, lag, 600 + 30);
            check_plan(TG_CLOCK_BYOYOMI, 0, 30, 5, -1, 0, b, lag, 30);
            check_plan(TG_CLOCK_BYOYOMI, 600, 30, 5, 0, 0, b, lag, 30); /* main time used up */
            for (int i = 0; i < 8; i++) {
                check_plan(TG_CLOCK_BYOYOMI, 600, 30, 5, lefts[i], 0, b, lag, lefts[i] + 30);
                if (lefts[i] <= 30 && lefts[i] - lag >= 0.15)
                    check_plan(TG_CLOCK_BYOYOMI, 600, 30, 5, lefts[i], 3, b, lag, lefts[i]);
            }

            /* Canadian, 25 stones in 300 s: in main time a move may take its
             * share of the period; in the period, never past it */
            check_plan(TG_CLOCK_CANADIAN, 600, 300, 25, -1, 0, b, lag, 600 + 300.0 / 25);
            check_plan(TG_CLOCK_CANADIAN, 0, 300, 25, -1, 0, b, lag, 300);
            check_plan(TG_CLOCK_CANADIAN, 600, 300, 25, 0, 0, b, lag, 300);
            for (int i = 0; i < 8; i++) {
                check_plan(TG_CLOCK_CANADIAN, 600, 300, 25, lefts[i], 0, b, lag, lefts[i] + 300.0 / 25);
                static const int stones_left[] = {1, 5, 25};
                for (int k = 0; k < 3 && lefts[i] <= 300 && lefts[i] - lag >= 0.15 * 25; k++)
                    check_plan(TG_CLOCK_CANADIAN, 600, 300, 25, lefts[i], stones_left[k], b, lag, lefts[i]);
            }

            /* Fischer, 10 s added after each move: never more than what
             * is left, whatever the increment; moves-per-period as Canadian,
             * a block holding time carried over too */
            check_plan(TG_CLOCK_FISCHER, 300, 10, 0, -1, 0, b, lag, 300);
            for (int i = 0; i < 8; i++) {
                if (lefts[i] - lag >= 0.15)
                    check_plan(TG_CLOCK_FISCHER, 300, 10, 0, lefts[i], 0, b, lag, lefts[i]);
                check_plan(TG_CLOCK_PERIODS, 600, 300, 25, lefts[i], 0, b, lag, lefts[i] + 300.0 / 25);
                if (lefts[i] - lag >= 0.15 * 25)
                    check_plan(TG_CLOCK_PERIODS, 600, 300, 25, lefts[i], 25, b, lag, lefts[i]);
            }
        }
}

/* ---- 6. Threads, tree reuse, memory -------------------------------------------- */

/* The games here keep the tree between moves with two threads (so they are
 * not deterministic); every move must still be legal under superko. */
static void test_search_two_threads(void **state)
{
    (void)state;
    play_game("chinese", 7, AGAINST_ITSELF, TG_BLACK, 100, 2, 11);
    play_game("japanese", 5, AGAINST_RANDOM, TG_WHITE, 100, 2, 12);

    tg_game *g = empty_game(9);
    tg_search *s = search_new(2, 16 * MIB, 13);
    tg_search_limits limits = playout_limit(500);
    tg_point move = ts_search_genmove(s, g, TG_BLACK, &limits, false);
    assert_legal_answer(g, TG_BLACK, move, "two threads");
    const tg_search_report *r = tg_search_last_report(s);
    if (r->playouts < 500 || r->playouts > 1000)
        fail_msg("two threads: asked for 500 playouts, made %d", r->playouts);
    tg_search_free(s);
    tg_game_free(g);
}

/* After a genmove and the opponent's answer (the reply the search expected
 * most), the next genmove starts from the kept subtree: its root's children
 * hold more visits than this decision's playouts.  Without reuse they never
 * do. */
static void test_search_tree_reuse(void **state)
{
    (void)state;
    for (int reuse = 0; reuse <= 1; reuse++) {
        tg_game *g = empty_game(5);
        tg_search *s = search_with(1, 16 * MIB, 1, reuse);
        tg_search_limits limits = playout_limit(1500);
        tg_point move = ts_search_genmove(s, g, TG_BLACK, &limits, false);
        assert_true(play_answer(g, TG_BLACK, move, "reuse, first move"));
        const tg_search_report *r = tg_search_last_report(s);
        assert_true(r->candidate_count > 0);
        assert_int_equal(r->candidates[0].move, move);
        assert_true(r->candidates[0].pv_length >= 2);
        tg_point reply = r->candidates[0].pv[1];
        assert_true(play_answer(g, TG_WHITE, reply, "reuse, the expected reply"));

        limits = playout_limit(100);
        move = ts_search_genmove(s, g, TG_BLACK, &limits, false);
        assert_legal_answer(g, TG_BLACK, move, "reuse, second move");
        long visits = ts_root_visits(s);
        if (reuse && visits <= tg_search_last_report(s)->playouts)
            fail_msg("tree reuse: the root's children have %ld visits after %d playouts", visits,
                     tg_search_last_report(s)->playouts);
        if (!reuse && visits > tg_search_last_report(s)->playouts)
            fail_msg("no reuse: the root's children have %ld visits after %d playouts", visits,
                     tg_search_last_report(s)->playouts);

        /* a different game (cleared) still works */
        tg_game_clear(g);
        tg_search_clear(s);
        move = ts_search_genmove(s, g, TG_BLACK, &limits, false);
        assert_legal_answer(g, TG_BLACK, move, "reuse, after clear");
        assert_true(ts_root_visits(s) <= tg_search_last_report(s)->playouts);
        tg_search_free(s);
        tg_game_free(g);
    }
}

/* A reused tree across an undo, a changed komi and a different board: the
 * search is given positions that are not continuations of its tree. */
static void test_search_reuse_after_unrelated_positions(void **state)
{
    (void)state;
    tg_game *g = empty_game(7);
    tg_search *s = search_new(1, 16 * MIB, 21);
    tg_search_limits limits = playout_limit(150);
    for (int i = 0; i < 4; i++) {
        tg_color c = tg_game_to_move(g);
        assert_true(play_answer(g, c, ts_search_genmove(s, g, c, &limits, false), "before undo"));
    }
    assert_int_equal(tg_game_undo(g), TG_OK);
    assert_int_equal(tg_game_undo(g), TG_OK);
    tg_color c = tg_game_to_move(g);
    assert_legal_answer(g, c, ts_search_genmove(s, g, c, &limits, false), "after undo");
    tg_rules rules = *tg_game_rules(g);
    rules.komi2 = 1;
    tg_game_set_rules(g, &rules);
    assert_legal_answer(g, c, ts_search_genmove(s, g, c, &limits, false), "after komi change");
    /* GTP may ask for the colour not to move */
    assert_legal_answer(g, tg_opponent(c), ts_search_genmove(s, g, tg_opponent(c), &limits, false), "other colour");
    tg_game *h = empty_game(9);
    assert_legal_answer(h, TG_BLACK, ts_search_genmove(s, h, TG_BLACK, &limits, false), "other board");
    tg_game_free(h);
    tg_search_free(s);
    tg_game_free(g);
}

/* A tree of 1 MiB fills after a few hundred playouts; the search goes on
 * with a full pool, keeps what fits between moves, and never crashes. */
static void test_search_tiny_memory(void **state)
{
    (void)state;
    static const int sizes[] = {9, 19};
    static const int budgets[] = {1500, 400};
    for (int i = 0; i < 2; i++) {
        tg_game *g = empty_game(sizes[i]);
        tg_search *s = search_new(2, MIB, 31 + (uint64_t)i);
        tg_search_limits limits = playout_limit(budgets[i]);
        char context[64];
        for (int m = 0; m < 3; m++) {
            tg_color color = tg_game_to_move(g);
            snprintf(context, sizeof context, "1 MiB tree, %dx%d move %d", sizes[i], sizes[i], m + 1);
            tg_point move = ts_search_genmove(s, g, color, &limits, false);
            assert_int_not_equal(move, TG_PASS); /* an early empty board: there is play */
            assert_true(play_answer(g, color, move, context));
            assert_true(tg_search_last_report(s)->playouts >= budgets[i]);
        }
        tg_search_free(s);
        tg_game_free(g);
    }
}

/* ---- 7. Options ----------------------------------------------------------------- */

static void test_search_rejects_bad_options(void **state)
{
    (void)state;
    tg_search_options opt;
    tg_search_options_default(&opt);
    assert_int_equal(opt.threads, 1);
    assert_true(opt.max_memory >= MIB);
    assert_true(opt.reuse_tree);
    static const struct {
        int threads;
        size_t max_memory;
        bool accepted;
    } cases[] = {{0, MIB, false},     {-1, MIB, false}, {65, MIB, false}, {1, MIB - 1, false},
                 {1, 0, false},       {1, MIB, true},   {64, MIB, true},  {2, 64 * MIB, true}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        opt.threads = cases[i].threads;
        opt.max_memory = cases[i].max_memory;
        tg_search *s = tg_search_new(&opt);
        if ((s != NULL) != cases[i].accepted)
            fail_msg("threads %d, max_memory %zu: %s", cases[i].threads, cases[i].max_memory,
                     s ? "accepted" : "refused");
        tg_search_free(s);
    }
    tg_search_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resigns_when_hopeless_three_times),
        cmocka_unit_test(test_search_rejects_bad_options),
        cmocka_unit_test(test_search_legal_moves_every_ruleset),
        cmocka_unit_test(test_search_legal_moves_small_boards),
        cmocka_unit_test(test_search_self_play_ends),
        cmocka_unit_test(test_search_never_plays_superko_fresh_tree),
        cmocka_unit_test(test_search_never_plays_superko_reused_tree),
        cmocka_unit_test(test_search_respects_simple_ko),
        cmocka_unit_test(test_search_never_fills_own_eye),
        cmocka_unit_test(test_search_does_not_pass_before_living),
        cmocka_unit_test(test_search_captures_in_capture_race),
        cmocka_unit_test(test_search_passes_when_game_is_over),
        cmocka_unit_test(test_search_cleanup_captures_dead_stones_then_passes),
        cmocka_unit_test(test_search_ownership_of_obvious_position),
        cmocka_unit_test(test_search_time_limit),
        cmocka_unit_test(test_search_playout_limit),
        cmocka_unit_test(test_search_progress_can_stop),
        cmocka_unit_test(test_search_time_plan),
        cmocka_unit_test(test_search_two_threads),
        cmocka_unit_test(test_search_tree_reuse),
        cmocka_unit_test(test_search_reuse_after_unrelated_positions),
        cmocka_unit_test(test_search_tiny_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
