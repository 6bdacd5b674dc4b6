/*
 * test_ladder.c — the ladder reader behind the search's priors
 * (src/tactics/ladder.c): a ladder that works, one broken by a stone on its
 * path, and one the attacker can drive either way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tactics/ladder.h"
#include "test_support.h"

#define at ts_at

/* White K10 with two liberties (K9, L10) against Black J10, K11, L9 on an
 * otherwise empty 19x19 board, plus White ladder breakers. */
static void setup(tg_board *b, const char *breaker1, const char *breaker2)
{
    tg_board_init(b, 19);
    tg_board_play(b, at(b, "K10"), TG_WHITE);
    tg_board_play(b, at(b, "J10"), TG_BLACK);
    tg_board_play(b, at(b, "K11"), TG_BLACK);
    tg_board_play(b, at(b, "L9"), TG_BLACK);
    if (breaker1)
        tg_board_play(b, at(b, breaker1), TG_WHITE);
    if (breaker2)
        tg_board_play(b, at(b, breaker2), TG_WHITE);
}

static void test_ladder_on_empty_board_works(void **state)
{
    (void)state;
    tg_board b;
    setup(&b, NULL, NULL);
    assert_true(ladder_attack_works(&b, at(&b, "K10")));
    tg_board_play(&b, at(&b, "L10"), TG_BLACK); /* atari: the runner goes down-left */
    assert_true(ladder_captured(&b, at(&b, "K10")));
}

static void test_breaker_on_the_path_saves(void **state)
{
    (void)state;
    tg_board b;
    setup(&b, "D4", NULL);
    tg_board_play(&b, at(&b, "L10"), TG_BLACK);
    assert_false(ladder_captured(&b, at(&b, "K10")));
    /* ... but the attacker can still drive it the other way, up-right */
    setup(&b, "D4", NULL);
    assert_true(ladder_attack_works(&b, at(&b, "K10")));
}

static void test_breakers_on_both_paths(void **state)
{
    (void)state;
    tg_board b;
    setup(&b, "D4", "Q16");
    assert_false(ladder_attack_works(&b, at(&b, "K10")));
    setup(&b, "Q16", NULL);
    tg_board_play(&b, at(&b, "L10"), TG_BLACK); /* the breaker is on the other path */
    assert_true(ladder_captured(&b, at(&b, "K10")));
}

/* A runner next to an attacking stone in atari captures it and escapes. */
static void test_counter_capture_escapes(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 9);
    /* White E5 in atari (liberty E4, where extending leaves one liberty,
     * between Black D4 and F4) after Black D5, F5, E6; but Black E6 is
     * itself in atari (White D6, F6; liberty E7): White captures it */
    const char *black[] = {"D5", "F5", "D4", "F4", "E6"}, *white[] = {"E5", "D6", "F6"};
    for (int i = 0; i < 3; i++)
        tg_board_play(&b, at(&b, white[i]), TG_WHITE);
    for (int i = 0; i < 5; i++)
        tg_board_play(&b, at(&b, black[i]), TG_BLACK);
    assert_true(tg_chain_in_atari(tg_chain_at(&b, at(&b, "E6"))));
    assert_false(ladder_captured(&b, at(&b, "E5")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ladder_on_empty_board_works),
        cmocka_unit_test(test_breaker_on_the_path_saves),
        cmocka_unit_test(test_breakers_on_both_paths),
        cmocka_unit_test(test_counter_capture_escapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
