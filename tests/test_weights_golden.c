/*
 * test_weights_golden.c — the learned weights' exact evaluations on fixed
 * positions, bit for bit: the move model's strength (main table on 19x19,
 * with the small boards' corrections on 9x9) of every empty point, and
 * the value function's verdict, over positions from seeded random games.
 * Recorded before the weights moved from C source to data files, so that
 * the move is shown to change nothing.  Each figure is folded into a
 * 64-bit FNV-1a hash of the floats' bits; TENGEN_GOLDEN_PRINT=1 prints
 * the hashes instead of checking them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/features.h"
#include "engine/model.h"
#include "engine/value.h"

static uint64_t fold(uint64_t h, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    for (int i = 0; i < 4; i++) {
        h ^= (bits >> (8 * i)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* A position after `moves` random moves of a seeded game. */
static void position(tg_board *b, int size, uint64_t seed, int moves, tg_color *to_move)
{
    tg_rng rng;
    tg_rng_seed(&rng, seed);
    tg_board_init(b, size);
    tg_color c = TG_BLACK;
    for (int i = 0; i < moves; i++) {
        tg_point p = tg_board_random_move(b, c, TG_SUICIDE_FORBIDDEN, &rng);
        if (p == TG_PASS)
            tg_board_pass(b);
        else
            tg_board_play(b, p, c);
        c = tg_opponent(c);
    }
    *to_move = c;
}

static uint64_t model_hash(int size)
{
    model_init();
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        tg_board b;
        tg_color c;
        position(&b, size, seed, (int)(seed * size * size / 30), &c);
        features_board fb;
        features_board_init(&fb, &b);
        for (tg_point p = 0; p < b.npoints; p++) {
            if (!tg_on_board(&b, p) || tg_board_at(&b, p) != TG_EMPTY)
                continue;
            move_features f;
            features_compute(&b, &fb, p, c, -1, NULL, 0, &f);
            h = fold(h, model_gamma_for(&f, size));
        }
    }
    return h;
}

static uint64_t value_hash(bool portable)
{
    const value_net *net = value_net_for(9, 15);
    assert_non_null(net);
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        tg_board b;
        tg_color c;
        position(&b, 9, seed, (int)(seed * 2 % 70), &c);
        h = fold(h, portable ? value_eval_portable(net, &b, c) : value_eval(net, &b, c));
    }
    return h;
}

/* The figures of the weights as trained (see the header comment). */
#define GOLDEN_MODEL19 0x6f774b80357fd75cull
#define GOLDEN_MODEL9 0x5a36effb755d058eull
#define GOLDEN_VALUE9 0x3ef1e0ecebf1280full

static void check(const char *what, uint64_t got, uint64_t want)
{
    if (getenv("TENGEN_GOLDEN_PRINT")) {
        printf("%s 0x%016llxull\n", what, (unsigned long long)got);
        return;
    }
    if (got != want)
        fail_msg("%s: 0x%016llx, the golden figure is 0x%016llx", what, (unsigned long long)got,
                 (unsigned long long)want);
}

static void test_model_main_19x19(void **state)
{
    (void)state;
    check("GOLDEN_MODEL19", model_hash(19), GOLDEN_MODEL19);
}

static void test_model_small_9x9(void **state)
{
    (void)state;
    check("GOLDEN_MODEL9", model_hash(9), GOLDEN_MODEL9);
}

static void test_value_9x9(void **state)
{
    (void)state;
    /* the vectorised and the plain loops need not agree to the bit: the
     * golden figure is the plain one's, which every machine computes */
    check("GOLDEN_VALUE9", value_hash(true), GOLDEN_VALUE9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_main_19x19),
        cmocka_unit_test(test_model_small_9x9),
        cmocka_unit_test(test_value_9x9),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
