/*
 * test_tactics.c — the tactics layer's rules where its users differ: how a
 * chain in atari is saved, who owns an empty point at a playout's end, how
 * many random numbers a random move draws, the cleanup moves' two orders;
 * and the one playout loop's ends (tg_playout_run).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tactics/tactics.h"
#include "test_support.h"

#define at ts_at

static void setup(tg_board *b, const char *rows[9], const char *last)
{
    ts_board_play_rows(b, 9, rows, last);
}

static bool legal_by_board(const void *context, const tg_board *b, tg_point p, tg_color c)
{
    (void)context;
    return tg_board_check(b, p, c, TG_SUICIDE_FORBIDDEN) == TG_OK;
}

static const tactics_answer_rule playout = {tactics_legal_in_playout, NULL, TACTICS_SAVE_BY_CAPTURE_OR_EXTENSION,
                                            true};
static const tactics_answer_rule counting = {legal_by_board, NULL, TACTICS_SAVE_NO_SELF_ATARI, false};
static const tactics_answer_rule played = {legal_by_board, NULL, TACTICS_SAVE_BY_PLAYED_EXTENSION, false};

/* Black's E5 next to White's D5 and F5, F5 in atari (its liberty F4);
 * with_e6: and White's E6, which puts E5 in atari.  `last` played last. */
static void setup_atari(tg_board *b, bool with_e6, const char *last)
{
    const char *rows[9] = {".........", ".........", ".........", ".....X...", "...OXOX..",
                           ".........", ".........", ".........", "........."};
    if (with_e6)
        rows[3] = "....OX...";
    setup(b, rows, last);
}

static void test_the_save_rules_differ(void **state)
{
    (void)state;
    tg_board b;
    setup_atari(&b, true, "E6");
    /* the playouts take the attacker in atari, the others extend */
    assert_int_equal(tactics_answer_last_move(&b, TG_BLACK, &playout), at(&b, "F4"));
    assert_int_equal(tactics_answer_last_move(&b, TG_BLACK, &counting), at(&b, "E4"));
    assert_int_equal(tactics_answer_last_move(&b, TG_BLACK, &played), at(&b, "E4"));
    assert_int_equal(tactics_answer_atari(&b, at(&b, "E5"), TG_BLACK, &played), at(&b, "E4"));
    /* White's own answer: none to its own move */
    assert_int_equal(tactics_answer_last_move(&b, TG_WHITE, &playout), TG_PASS);
    /* the capture of a chain in atari next to a point */
    assert_int_equal(tactics_capture_next_to(&b, at(&b, "G5"), TG_BLACK, &playout), at(&b, "F4"));
    assert_int_equal(tactics_capture_next_to(&b, at(&b, "C5"), TG_BLACK, &playout), TG_PASS);
}

static void test_the_last_move_in_atari_is_taken(void **state)
{
    (void)state;
    tg_board b;
    setup_atari(&b, false, "F5"); /* White's F5 played into atari */
    assert_int_equal(tactics_answer_last_move(&b, TG_BLACK, &playout), at(&b, "F4"));
    assert_int_equal(tactics_answer_last_move(&b, TG_BLACK, &counting), at(&b, "F4"));
    assert_int_equal(tactics_answer_last_move(&b, TG_BLACK, &played), at(&b, "F4"));
}

static void test_final_owner_rules(void **state)
{
    (void)state;
    tg_board b;
    const char *rows[9] = {".........", ".........", ".........", "....X....", "...X.X...",
                           "....X....", ".........", ".........", "........."};
    setup(&b, rows, NULL);
    /* E5 surrounded by Black; E7 only touched by it */
    assert_int_equal(tactics_final_owner(&b, at(&b, "E5"), TACTICS_OWNER_SURROUNDED), TG_BLACK);
    assert_int_equal(tactics_final_owner(&b, at(&b, "E5"), TACTICS_OWNER_TOUCHED), TG_BLACK);
    assert_int_equal(tactics_final_owner(&b, at(&b, "E7"), TACTICS_OWNER_SURROUNDED), TG_EMPTY);
    assert_int_equal(tactics_final_owner(&b, at(&b, "E7"), TACTICS_OWNER_TOUCHED), TG_BLACK);
    assert_int_equal(tactics_final_owner(&b, at(&b, "E6"), TACTICS_OWNER_TOUCHED), TG_BLACK); /* a stone */
    /* four stones and the point they surround; touched: and the four
     * points beyond the stones and the four between two of them */
    uint8_t owner[TG_MAX_POINTS] = {0};
    assert_int_equal(tactics_area_score(&b, TACTICS_OWNER_SURROUNDED, owner), 2 * 5);
    assert_int_equal(owner[at(&b, "E5")], TG_BLACK);
    assert_int_equal(owner[at(&b, "A1")], TG_EMPTY);
    assert_int_equal(tactics_area_score(&b, TACTICS_OWNER_TOUCHED, NULL), 2 * (5 + 4 + 4));
    /* a White stone touching E7 makes it no one's */
    tg_board_play(&b, at(&b, "E8"), TG_WHITE);
    assert_int_equal(tactics_final_owner(&b, at(&b, "E7"), TACTICS_OWNER_TOUCHED), TG_EMPTY);
}

/* The engine's random move draws a second number (the throw-in's), the
 * counting's never. */
static void test_random_move_draws(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 9);
    tg_rng rng, expect;
    tg_rng_seed(&rng, 3);
    expect = rng;
    tg_point p = tactics_random_move(&b, TG_BLACK, TG_SUICIDE_FORBIDDEN, TACTICS_RANDOM_PLAYOUT, &rng);
    assert_int_equal(p, b.empty[tg_rng_below(&expect, (uint32_t)b.empty_count)]);
    tg_rng_next(&expect);
    assert_memory_equal(&rng, &expect, sizeof rng);
    p = tactics_random_move(&b, TG_BLACK, TG_SUICIDE_FORBIDDEN, TACTICS_RANDOM_COUNTING, &rng);
    assert_int_equal(p, b.empty[tg_rng_below(&expect, (uint32_t)b.empty_count)]);
    assert_memory_equal(&rng, &expect, sizeof rng);
}

/* No random move fills an own eye or makes a self-atari of a chain. */
static void test_random_move_keeps_eyes(void **state)
{
    (void)state;
    tg_board b;
    const char *rows[9] = {"XXXXXXXXX", "XXXXXXXXX", "XXXXXXXXX", "XXXXXXXXX", "XXXXXXXXX",
                           "XXXXXXXXX", "XXXXXXXXX", "X.XXXXXXX", "XXXX.XXXX"};
    setup(&b, rows, NULL);
    tg_rng rng;
    tg_rng_seed(&rng, 1);
    for (int i = 0; i < 20; i++) {
        assert_int_equal(tactics_random_move(&b, TG_BLACK, TG_SUICIDE_FORBIDDEN, TACTICS_RANDOM_PLAYOUT, &rng),
                         TG_PASS);
        assert_int_equal(tactics_random_move(&b, TG_BLACK, TG_SUICIDE_MULTI_STONE, TACTICS_RANDOM_COUNTING, &rng),
                         TG_PASS);
    }
}

static void test_cleanup_moves_in_both_orders(void **state)
{
    (void)state;
    tg_board b;
    const char *rows[9] = {".........", ".........", "..O......", ".XXX.....", ".X.X.....",
                           ".XXX.....", ".........", "......O..", "........."};
    setup(&b, rows, NULL);
    uint8_t dead[TG_MAX_POINTS] = {0};
    dead[at(&b, "C7")] = dead[at(&b, "G2")] = 1;
    tactics_cleanup_rule by_head = {legal_by_board, NULL, false, false};
    tactics_cleanup_rule by_stone = {legal_by_board, NULL, false, true};
    tg_point a[TG_MAX_POINTS], s[TG_MAX_POINTS];
    int na = tactics_cleanup_moves(&b, TG_BLACK, dead, &by_head, a);
    int ns = tactics_cleanup_moves(&b, TG_BLACK, dead, &by_stone, s);
    assert_int_equal(na, 7); /* C7's three liberties and G2's four */
    assert_int_equal(ns, 7);
    int found = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < ns; j++)
            found += a[i] == s[j];
    assert_int_equal(found, 7);
    /* Black's own dead stones are not White's to take for it */
    assert_int_equal(tactics_cleanup_moves(&b, TG_WHITE, dead, &by_head, a), 0);
}

/* A step that passes, or stops after n moves. */
static tg_playout_step passing_step(void *policy, tg_board *b, tg_color c)
{
    int *left = policy;
    (void)c;
    if ((*left)-- == 0)
        return TG_PLAYOUT_STOPPED;
    tg_board_pass(b);
    return TG_PLAYOUT_PASSED;
}

static void test_playout_loop_ends(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 9);
    int left = 10;
    assert_int_equal(tg_playout_run(&b, TG_WHITE, 100, passing_step, &left), 2); /* two passes */
    left = 1;
    assert_int_equal(tg_playout_run(&b, TG_BLACK, 100, passing_step, &left), 1); /* stopped */
    left = 0;
    assert_int_equal(tg_playout_run(&b, TG_WHITE, 100, passing_step, &left), 0);
    left = 10;
    assert_int_equal(tg_playout_run(&b, TG_BLACK, 1, passing_step, &left), 1); /* the move cap */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_save_rules_differ),
        cmocka_unit_test(test_the_last_move_in_atari_is_taken),
        cmocka_unit_test(test_final_owner_rules),
        cmocka_unit_test(test_random_move_draws),
        cmocka_unit_test(test_random_move_keeps_eyes),
        cmocka_unit_test(test_cleanup_moves_in_both_orders),
        cmocka_unit_test(test_playout_loop_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
