/*
 * test_board.c — unit tests of board.h: the padded layout, vertices,
 * chains and liberties (exact, and the pseudo-liberty atari test), the eye
 * test, legality at the board level, captures and suicide, Zobrist hashing
 * (tg_board_hash_after included), set_point, copy, the neighbour counts and
 * the list of empty points, the consistency check, and playouts.
 *
 * Where a fact can be recomputed simply (liberties by flood fill, the hash
 * as an xor of tg_zobrist keys, neighbour counts), random positions are
 * checked against that recomputation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tengen/board.h"
#include "test_support.h"

static uint64_t rng_state = 0xb0a4du;
static uint32_t next_random(uint32_t below)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 11) % below);
}

#define at ts_at

static void board_of(tg_board *b, const char *diagram)
{
    if (!ts_board_new_from_diagram(b, diagram))
        fail_msg("bad diagram:\n%s", diagram);
}

/* Play random legal moves (captures, and suicides when allowed). */
static void random_position(tg_board *b, int size, int moves, tg_suicide_rule suicide)
{
    assert_int_equal(tg_board_init(b, size), TG_OK);
    tg_color c = TG_BLACK;
    for (int i = 0; i < moves; i++, c = tg_opponent(c)) {
        for (int tries = 0; tries < 20; tries++) {
            tg_point p = tg_point_at(b, (int)next_random((uint32_t)size), (int)next_random((uint32_t)size));
            if (tg_board_check(b, p, c, suicide) == TG_OK) {
                tg_board_play(b, p, c);
                break;
            }
        }
    }
}

/* ---- Layout and vertices --------------------------------------------------- */

static void test_board_init_and_layout(void **state)
{
    (void)state;
    static tg_board b;
    for (int size = TG_MIN_SIZE; size <= TG_MAX_SIZE; size++) {
        assert_int_equal(tg_board_init(&b, size), TG_OK);
        assert_int_equal(b.size, size);
        assert_int_equal(b.stride, size + 1);
        assert_int_equal(b.empty_count, size * size);
        assert_int_equal(b.ko_point, TG_NO_POINT);
        assert_int_equal(b.captures[TG_BLACK] + b.captures[TG_WHITE], 0);
        assert_true(b.npoints <= TG_MAX_POINTS);
        int on_board = 0;
        for (tg_point p = 0; p < b.npoints; p++)
            if (tg_on_board(&b, p)) {
                on_board++;
                assert_int_equal(tg_board_at(&b, p), TG_EMPTY);
                assert_int_equal(tg_point_at(&b, tg_point_x(&b, p), tg_point_y(&b, p)), p);
                /* every on-board point has four neighbours without bounds checks */
                assert_true(p - b.stride >= 0 && p + b.stride < b.npoints);
            } else {
                assert_int_equal(tg_board_at(&b, p), TG_OFFBOARD);
            }
        assert_int_equal(on_board, size * size);
        assert_false(tg_on_board(&b, -1));
        assert_false(tg_on_board(&b, b.npoints));
        assert_int_equal(tg_board_stone_count(&b, TG_BLACK), 0);
        assert_true(tg_board_consistent(&b));
    }
    assert_int_equal(tg_board_init(&b, 1), TG_ERR_INVALID);
    assert_int_equal(tg_board_init(&b, 26), TG_ERR_INVALID);
}

static void test_board_vertices(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 19);
    char buf[8];
    tg_point_to_vertex(&b, tg_point_at(&b, 0, 0), buf);
    assert_string_equal(buf, "A1");
    tg_point_to_vertex(&b, tg_point_at(&b, 7, 0), buf);
    assert_string_equal(buf, "H1");
    tg_point_to_vertex(&b, tg_point_at(&b, 8, 0), buf); /* no I */
    assert_string_equal(buf, "J1");
    tg_point_to_vertex(&b, tg_point_at(&b, 18, 18), buf);
    assert_string_equal(buf, "T19");
    tg_point_to_vertex(&b, tg_point_at(&b, 9, 9), buf);
    assert_string_equal(buf, "K10");
    tg_point_to_vertex(&b, TG_PASS, buf);
    assert_string_equal(buf, "pass");

    tg_point p;
    assert_int_equal(tg_vertex_parse(&b, "A1", &p), TG_OK);
    assert_int_equal(p, tg_point_at(&b, 0, 0));
    assert_int_equal(tg_vertex_parse(&b, "j1", &p), TG_OK);
    assert_int_equal(p, tg_point_at(&b, 8, 0));
    assert_int_equal(tg_vertex_parse(&b, "t19", &p), TG_OK);
    assert_int_equal(p, tg_point_at(&b, 18, 18));
    assert_int_equal(tg_vertex_parse(&b, "pass", &p), TG_OK);
    assert_int_equal(p, TG_PASS);
    assert_int_equal(tg_vertex_parse(&b, "PASS", &p), TG_OK);
    assert_int_equal(p, TG_PASS);
    assert_int_equal(tg_vertex_parse(&b, "I5", &p), TG_ERR_PARSE);
    assert_int_equal(tg_vertex_parse(&b, "", &p), TG_ERR_PARSE);
    assert_int_equal(tg_vertex_parse(&b, "A", &p), TG_ERR_PARSE);
    assert_int_equal(tg_vertex_parse(&b, "1A", &p), TG_ERR_PARSE);
    assert_int_equal(tg_vertex_parse(&b, "A1x", &p), TG_ERR_PARSE);
    assert_int_equal(tg_vertex_parse(&b, "A-1", &p), TG_ERR_PARSE);
    assert_int_equal(tg_vertex_parse(&b, "U1", &p), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_vertex_parse(&b, "A20", &p), TG_ERR_OFF_BOARD);
    assert_int_not_equal(tg_vertex_parse(&b, "A0", &p), TG_OK);

    /* every vertex of every size prints and parses back */
    for (int size = TG_MIN_SIZE; size <= TG_MAX_SIZE; size++) {
        tg_board_init(&b, size);
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                tg_point q = tg_point_at(&b, x, y);
                tg_point_to_vertex(&b, q, buf);
                char mine[8];
                ts_vertex_name(size, q, mine);
                assert_string_equal(buf, mine);
                assert_int_equal(tg_vertex_parse(&b, buf, &p), TG_OK);
                assert_int_equal(p, q);
            }
    }
    tg_board_init(&b, 25);
    tg_point_to_vertex(&b, tg_point_at(&b, 24, 24), buf);
    assert_string_equal(buf, "Z25");
}

/* ---- Chains and liberties -------------------------------------------------- */

/* Liberties of the chain at p by flood fill, for comparison. */
static int flood_liberties(const tg_board *b, tg_point start)
{
    bool seen[TG_MAX_POINTS] = {false}, lib[TG_MAX_POINTS] = {false};
    tg_point stack[TG_MAX_POINTS];
    int n = 0, libs = 0;
    stack[n++] = start;
    seen[start] = true;
    while (n) {
        tg_point p = stack[--n];
        const tg_point nbrs[4] = {p - 1, p + 1, p - b->stride, p + b->stride};
        for (int k = 0; k < 4; k++) {
            tg_point q = nbrs[k];
            if (b->color[q] == TG_EMPTY && !lib[q]) {
                lib[q] = true;
                libs++;
            } else if (b->color[q] == b->color[start] && !seen[q]) {
                seen[q] = true;
                stack[n++] = q;
            }
        }
    }
    return libs;
}

static void test_board_liberties_and_atari(void **state)
{
    (void)state;
    tg_board b;
    board_of(&b, " 5 . . . . .\n"
                 " 4 . X X . .\n"
                 " 3 O X O O .\n"
                 " 2 X . X . .\n"
                 " 1 . X . . .\n");
    assert_int_equal(tg_chain_liberties(&b, at(&b, "A2"), NULL, 0), 2);
    assert_int_equal(tg_chain_liberties(&b, at(&b, "A3"), NULL, 0), 1);
    assert_true(tg_chain_in_atari(tg_chain_at(&b, at(&b, "A3"))));
    assert_int_equal(tg_chain_atari_point(tg_chain_at(&b, at(&b, "A3"))), at(&b, "A4"));
    assert_int_equal(tg_chain_liberties(&b, at(&b, "B3"), NULL, 0), 5);
    assert_false(tg_chain_in_atari(tg_chain_at(&b, at(&b, "C4"))));
    assert_int_equal(tg_chain_liberties(&b, at(&b, "D3"), NULL, 0), 3);
    assert_int_equal(tg_chain_liberties(&b, at(&b, "C2"), NULL, 0), 3);
    tg_point libs[2];
    assert_int_equal(tg_chain_liberties(&b, at(&b, "B4"), libs, 2), 5); /* exact count even if truncated */
    assert_true(b.color[libs[0]] == TG_EMPTY && b.color[libs[1]] == TG_EMPTY && libs[0] != libs[1]);

    /* one liberty touched by two stones of the chain is still atari */
    board_of(&b, " 4 . . . .\n"
                 " 3 X X . .\n"
                 " 2 O O X .\n"
                 " 1 . O X .\n");
    assert_int_equal(tg_chain_liberties(&b, at(&b, "B1"), NULL, 0), 1);
    assert_true(tg_chain_in_atari(tg_chain_at(&b, at(&b, "A2"))));
    assert_int_equal(tg_chain_atari_point(tg_chain_at(&b, at(&b, "B2"))), at(&b, "A1"));

    /* random positions: exact liberties, atari, stones, against flood fill */
    for (int round = 0; round < 200; round++) {
        random_position(&b, 2 + round % 18, (int)next_random(300), round % 2 ? TG_SUICIDE_MULTI_STONE
                                                                             : TG_SUICIDE_FORBIDDEN);
        assert_true(tg_board_consistent(&b));
        int stones = 0;
        for (tg_point p = 0; p < b.npoints; p++) {
            if (b.color[p] != TG_BLACK && b.color[p] != TG_WHITE)
                continue;
            stones++;
            int libs_exact = flood_liberties(&b, p);
            assert_int_equal(tg_chain_liberties(&b, p, NULL, 0), libs_exact);
            assert_true(libs_exact >= 1);
            assert_int_equal(tg_chain_in_atari(tg_chain_at(&b, p)), libs_exact == 1);
            if (libs_exact == 1) {
                tg_point lib;
                tg_chain_liberties(&b, p, &lib, 1);
                assert_int_equal(tg_chain_atari_point(tg_chain_at(&b, p)), lib);
            }
            /* the early-stopping count: min(exact, max) distinct liberties */
            tg_point all_libs[TG_MAX_POINTS];
            tg_chain_liberties(&b, p, all_libs, TG_MAX_POINTS);
            assert_int_equal(tg_chain_liberties_upto(&b, p, NULL, 0), 0);
            assert_int_equal(tg_chain_liberties_upto(&b, p, NULL, 20), libs_exact < 8 ? libs_exact : 8);
            for (int max = 1; max <= 8; max++) {
                tg_point some[8];
                int k = tg_chain_liberties_upto(&b, p, some, max);
                assert_int_equal(k, libs_exact < max ? libs_exact : max);
                for (int i = 0; i < k; i++) {
                    bool listed = false;
                    for (int j = 0; j < libs_exact; j++)
                        listed |= all_libs[j] == some[i];
                    assert_true(listed);
                    for (int j = 0; j < i; j++)
                        assert_int_not_equal(some[j], some[i]);
                }
            }
            tg_point members[TG_MAX_POINTS];
            int n = tg_chain_stones(&b, p, members);
            assert_int_equal(n, tg_chain_at(&b, p)->stones);
            for (int i = 0; i < n; i++)
                assert_int_equal(b.chain_of[members[i]], b.chain_of[p]);
        }
        assert_int_equal(stones, tg_board_stone_count(&b, TG_BLACK) + tg_board_stone_count(&b, TG_WHITE));
        assert_int_equal(b.empty_count, b.size * b.size - stones);
    }
}

/* ---- Neighbour counts and the empty list ----------------------------------- */

static void test_board_neighbour_counts_and_empty_list(void **state)
{
    (void)state;
    tg_board b;
    for (int round = 0; round < 100; round++) {
        random_position(&b, 2 + round % 18, (int)next_random(200), TG_SUICIDE_MULTI_STONE);
        bool listed[TG_MAX_POINTS] = {false};
        for (int i = 0; i < b.empty_count; i++) {
            tg_point p = b.empty[i];
            assert_true(tg_on_board(&b, p));
            assert_int_equal(b.color[p], TG_EMPTY);
            assert_false(listed[p]);
            listed[p] = true;
            assert_int_equal(b.empty_index[p], i);
        }
        for (tg_point p = 0; p < b.npoints; p++) {
            if (!tg_on_board(&b, p))
                continue;
            assert_int_equal(listed[p], b.color[p] == TG_EMPTY);
            int count[4] = {0, 0, 0, 0};
            const tg_point nbrs[4] = {p - 1, p + 1, p - b.stride, p + b.stride};
            for (int k = 0; k < 4; k++)
                count[b.color[nbrs[k]]]++;
            for (int c = TG_EMPTY; c <= TG_OFFBOARD; c++)
                assert_int_equal(tg_nbr_count(&b, p, (tg_color)c), count[c]);
        }
    }
}

/* ---- Eyes -------------------------------------------------------------------- */

static void test_board_is_eye(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 5);
    /* corner: own neighbours, and no enemy diagonal allowed */
    tg_board_set_point(&b, at(&b, "A2"), TG_BLACK);
    tg_board_set_point(&b, at(&b, "B1"), TG_BLACK);
    assert_true(tg_board_is_eye(&b, at(&b, "A1"), TG_BLACK));
    assert_false(tg_board_is_eye(&b, at(&b, "A1"), TG_WHITE));
    tg_board_set_point(&b, at(&b, "B2"), TG_WHITE);
    assert_false(tg_board_is_eye(&b, at(&b, "A1"), TG_BLACK));
    tg_board_set_point(&b, at(&b, "B2"), TG_BLACK);
    assert_true(tg_board_is_eye(&b, at(&b, "A1"), TG_BLACK));
    assert_false(tg_board_is_eye(&b, at(&b, "B1"), TG_BLACK)); /* occupied */
    /* centre: at most one enemy diagonal */
    tg_board_set_point(&b, at(&b, "C2"), TG_BLACK);
    tg_board_set_point(&b, at(&b, "C4"), TG_BLACK);
    tg_board_set_point(&b, at(&b, "B3"), TG_BLACK);
    tg_board_set_point(&b, at(&b, "D3"), TG_BLACK);
    assert_true(tg_board_is_eye(&b, at(&b, "C3"), TG_BLACK));
    tg_board_set_point(&b, at(&b, "D4"), TG_WHITE);
    assert_true(tg_board_is_eye(&b, at(&b, "C3"), TG_BLACK));
    tg_board_set_point(&b, at(&b, "D2"), TG_WHITE);
    assert_false(tg_board_is_eye(&b, at(&b, "C3"), TG_BLACK));
    tg_board_set_point(&b, at(&b, "D2"), TG_EMPTY);
    assert_true(tg_board_is_eye(&b, at(&b, "C3"), TG_BLACK));
    /* an enemy or empty neighbour: no eye */
    tg_board_set_point(&b, at(&b, "C2"), TG_WHITE);
    assert_false(tg_board_is_eye(&b, at(&b, "C3"), TG_BLACK));
    tg_board_set_point(&b, at(&b, "C2"), TG_EMPTY);
    assert_false(tg_board_is_eye(&b, at(&b, "C3"), TG_BLACK));
    /* edge: no enemy diagonal allowed */
    tg_board_set_point(&b, at(&b, "A3"), TG_BLACK);
    tg_board_set_point(&b, at(&b, "A5"), TG_BLACK);
    tg_board_set_point(&b, at(&b, "B4"), TG_BLACK);
    assert_true(tg_board_is_eye(&b, at(&b, "A4"), TG_BLACK));
    tg_board_set_point(&b, at(&b, "B5"), TG_WHITE);
    assert_false(tg_board_is_eye(&b, at(&b, "A4"), TG_BLACK));
    /* White's eyes likewise */
    tg_board_init(&b, 3);
    tg_board_set_point(&b, at(&b, "B1"), TG_WHITE);
    tg_board_set_point(&b, at(&b, "A2"), TG_WHITE);
    tg_board_set_point(&b, at(&b, "C2"), TG_WHITE);
    tg_board_set_point(&b, at(&b, "B3"), TG_WHITE);
    assert_true(tg_board_is_eye(&b, at(&b, "B2"), TG_WHITE));
    assert_false(tg_board_is_eye(&b, at(&b, "B2"), TG_BLACK));
}

/* ---- Legality, captures, suicide, ko --------------------------------------- */

static void test_board_check_and_play(void **state)
{
    (void)state;
    tg_board b;
    /* T3: capture before suicide, then the ko */
    board_of(&b, " 4 . . . .\n"
                 " 3 . . . .\n"
                 " 2 O X . .\n"
                 " 1 . O X .\n");
    assert_int_equal(tg_board_check(&b, at(&b, "B1"), TG_BLACK, TG_SUICIDE_FORBIDDEN), TG_ERR_OCCUPIED);
    assert_int_equal(tg_board_check(&b, 0, TG_BLACK, TG_SUICIDE_FORBIDDEN), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_board_check(&b, at(&b, "A1"), TG_BLACK, TG_SUICIDE_FORBIDDEN), TG_OK);
    assert_int_equal(tg_board_play(&b, at(&b, "A1"), TG_BLACK), 1);
    assert_int_equal(b.captures[TG_BLACK], 1);
    assert_int_equal(b.last_move, at(&b, "A1"));
    assert_int_equal(b.ko_point, at(&b, "B1"));
    assert_int_equal(b.ko_color, TG_WHITE);
    assert_int_equal(tg_board_check(&b, at(&b, "B1"), TG_WHITE, TG_SUICIDE_FORBIDDEN), TG_ERR_KO);
    assert_int_equal(tg_board_check(&b, at(&b, "B1"), TG_WHITE, TG_SUICIDE_MULTI_STONE), TG_ERR_KO);
    assert_int_equal(tg_board_check(&b, at(&b, "B1"), TG_BLACK, TG_SUICIDE_FORBIDDEN), TG_OK);
    /* a move elsewhere lifts the ban */
    tg_board_play(&b, at(&b, "D4"), TG_WHITE);
    tg_board_play(&b, at(&b, "D3"), TG_BLACK);
    assert_int_equal(b.ko_point, TG_NO_POINT);
    assert_int_equal(tg_board_check(&b, at(&b, "B1"), TG_WHITE, TG_SUICIDE_FORBIDDEN), TG_OK);

    /* single-stone suicide never, multi-stone only when allowed */
    board_of(&b, " 4 . . . .\n"
                 " 3 O O . .\n"
                 " 2 X X O .\n"
                 " 1 . O . O\n");
    assert_int_equal(tg_board_check(&b, at(&b, "A1"), TG_BLACK, TG_SUICIDE_FORBIDDEN), TG_ERR_SUICIDE);
    assert_int_equal(tg_board_check(&b, at(&b, "C1"), TG_BLACK, TG_SUICIDE_MULTI_STONE), TG_ERR_SUICIDE);
    assert_int_equal(tg_board_check(&b, at(&b, "A1"), TG_BLACK, TG_SUICIDE_MULTI_STONE), TG_OK);
    uint64_t expected = tg_board_hash_after(&b, at(&b, "A1"), TG_BLACK);
    assert_int_equal(tg_board_play(&b, at(&b, "A1"), TG_BLACK), 3);
    assert_true(b.hash == expected);
    assert_int_equal(tg_board_stone_count(&b, TG_BLACK), 0);
    assert_int_equal(b.captures[TG_WHITE], 3);
    assert_int_equal(b.captures[TG_BLACK], 0);
    assert_int_equal(b.ko_point, TG_NO_POINT);
    assert_true(tg_board_consistent(&b));

    /* a capture of two chains at once (T7) */
    board_of(&b, " 4 . . . .\n"
                 " 3 . . . .\n"
                 " 2 O X O .\n"
                 " 1 X . X O\n");
    assert_int_equal(tg_board_play(&b, at(&b, "B1"), TG_WHITE), 2);
    assert_int_equal(b.ko_point, TG_NO_POINT);
    assert_int_equal(b.captures[TG_WHITE], 2);
}

/* ---- Hashing ---------------------------------------------------------------- */

static uint64_t xor_of_keys(const tg_board *b)
{
    uint64_t h = 0;
    for (tg_point p = 0; p < b->npoints; p++)
        if (b->color[p] == TG_BLACK || b->color[p] == TG_WHITE)
            h ^= tg_zobrist(p, (tg_color)b->color[p]);
    return h;
}

static uint64_t empty_hash(int size)
{
    tg_board b;
    tg_board_init(&b, size);
    return b.hash;
}

static void test_board_hashing(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 19);
    uint64_t empty19 = b.hash;
    /* keys are distinct and not zero */
    static uint64_t keys[2 * TG_MAX_POINTS];
    int n = 0;
    tg_board_init(&b, TG_MAX_SIZE);
    for (tg_point p = 0; p < b.npoints; p++)
        if (tg_on_board(&b, p)) {
            keys[n++] = tg_zobrist(p, TG_BLACK);
            keys[n++] = tg_zobrist(p, TG_WHITE);
        }
    for (int i = 0; i < n; i++) {
        assert_true(keys[i] != 0);
        for (int j = i + 1; j < n; j++)
            assert_true(keys[i] != keys[j]);
    }
    /* the hash is the xor of the stones' keys, and hash_after predicts it */
    for (int round = 0; round < 60; round++) {
        int size = 2 + round % 18;
        tg_board_init(&b, size);
        uint64_t base = b.hash;
        tg_color c = TG_BLACK;
        tg_suicide_rule suicide = round % 2 ? TG_SUICIDE_MULTI_STONE : TG_SUICIDE_FORBIDDEN;
        for (int i = 0; i < 3 * size * size; i++, c = tg_opponent(c)) {
            tg_point p = tg_point_at(&b, (int)next_random((uint32_t)size), (int)next_random((uint32_t)size));
            if (tg_board_check(&b, p, c, suicide) != TG_OK)
                continue;
            uint64_t predicted = tg_board_hash_after(&b, p, c);
            tg_board_play(&b, p, c);
            assert_true(b.hash == predicted);
            assert_true(b.hash == (xor_of_keys(&b) ^ base));
        }
    }
    tg_board_init(&b, 19);
    assert_true(b.hash == empty19);
}

/* ---- set_point and copy ------------------------------------------------------- */

static void test_board_set_point(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 5);
    /* a chain of three, then its middle removed: two chains */
    assert_int_equal(tg_board_set_point(&b, at(&b, "B3"), TG_BLACK), TG_OK);
    assert_int_equal(tg_board_set_point(&b, at(&b, "C3"), TG_BLACK), TG_OK);
    assert_int_equal(tg_board_set_point(&b, at(&b, "D3"), TG_BLACK), TG_OK);
    assert_int_equal(tg_chain_at(&b, at(&b, "B3"))->stones, 3);
    assert_int_equal(tg_chain_liberties(&b, at(&b, "B3"), NULL, 0), 8);
    assert_int_equal(tg_board_set_point(&b, at(&b, "C3"), TG_EMPTY), TG_OK);
    assert_int_equal(tg_chain_at(&b, at(&b, "B3"))->stones, 1);
    assert_int_equal(tg_chain_at(&b, at(&b, "D3"))->stones, 1);
    assert_int_equal(b.empty_count, 23);
    assert_true(tg_board_consistent(&b));
    /* replacing a colour */
    assert_int_equal(tg_board_set_point(&b, at(&b, "C3"), TG_WHITE), TG_OK);
    assert_int_equal(tg_board_set_point(&b, at(&b, "C3"), TG_BLACK), TG_OK);
    assert_int_equal(tg_chain_at(&b, at(&b, "B3"))->stones, 3);
    assert_int_equal(tg_board_stone_count(&b, TG_WHITE), 0);
    assert_true(b.hash == (xor_of_keys(&b) ^ empty_hash(5)));
    /* nothing is captured, the ko is cleared */
    board_of(&b, " 4 . . . .\n"
                 " 3 . . . .\n"
                 " 2 O X . .\n"
                 " 1 . O X .\n");
    tg_board_play(&b, at(&b, "A1"), TG_BLACK);
    assert_int_not_equal(b.ko_point, TG_NO_POINT);
    assert_int_equal(tg_board_set_point(&b, at(&b, "D4"), TG_WHITE), TG_OK);
    assert_int_equal(b.ko_point, TG_NO_POINT);
    assert_int_equal(tg_board_set_point(&b, at(&b, "B1"), TG_WHITE), TG_OK);
    assert_int_equal(tg_board_at(&b, at(&b, "A1")), TG_BLACK); /* A1 now has no liberty but stays */
    assert_int_equal(tg_chain_liberties(&b, at(&b, "A1"), NULL, 0), 0);
    assert_int_equal(tg_board_set_point(&b, 0, TG_BLACK), TG_ERR_OFF_BOARD);
    assert_int_not_equal(tg_board_set_point(&b, at(&b, "C3"), TG_OFFBOARD), TG_OK);
    /* random edits keep the board consistent */
    for (int round = 0; round < 50; round++) {
        int size = 2 + round % 18;
        tg_board_init(&b, size);
        for (int i = 0; i < 4 * size * size; i++) {
            tg_point p = tg_point_at(&b, (int)next_random((uint32_t)size), (int)next_random((uint32_t)size));
            assert_int_equal(tg_board_set_point(&b, p, (tg_color)next_random(3)), TG_OK);
        }
        assert_true(tg_board_consistent(&b));
        assert_true(b.hash == (xor_of_keys(&b) ^ empty_hash(size)));
    }
}

static void test_board_copy(void **state)
{
    (void)state;
    static tg_board a, b;
    for (int round = 0; round < 40; round++) {
        random_position(&a, 2 + round % 24, (int)next_random(300), TG_SUICIDE_FORBIDDEN);
        memset(&b, 0xab, sizeof b); /* the copy must not rely on what was there */
        tg_board_copy(&b, &a);
        assert_true(tg_board_consistent(&b));
        assert_int_equal(b.size, a.size);
        assert_true(b.hash == a.hash);
        assert_int_equal(b.ko_point, a.ko_point);
        assert_int_equal(b.empty_count, a.empty_count);
        assert_memory_equal(b.color, a.color, (size_t)a.npoints);
        /* the same moves on both give the same boards; the original is untouched */
        tg_color c = TG_BLACK;
        for (int i = 0; i < 30; i++, c = tg_opponent(c)) {
            tg_point p = tg_board_random_move(&a, c, TG_SUICIDE_FORBIDDEN, &(tg_rng){{(uint64_t)i + 1, 7}});
            if (p == TG_PASS)
                continue;
            assert_int_equal(tg_board_check(&b, p, c, TG_SUICIDE_FORBIDDEN), TG_OK);
            tg_board_play(&a, p, c);
            tg_board_play(&b, p, c);
            assert_memory_equal(b.color, a.color, (size_t)a.npoints);
            assert_true(b.hash == a.hash);
        }
        uint64_t hash = b.hash;
        tg_board_play(&a, a.empty[0], TG_BLACK);
        assert_true(b.hash == hash);
    }
}

/* ---- Playouts --------------------------------------------------------------- */

static void test_board_random_move_and_playout(void **state)
{
    (void)state;
    tg_board b;
    tg_rng rng;
    tg_rng_seed(&rng, 12345);
    for (int round = 0; round < 60; round++) {
        int size = 2 + round % 18;
        tg_board_init(&b, size);
        tg_suicide_rule suicide = round % 2 ? TG_SUICIDE_MULTI_STONE : TG_SUICIDE_FORBIDDEN;
        tg_color c = TG_BLACK;
        for (int i = 0; i < 2 * size * size; i++, c = tg_opponent(c)) {
            tg_point p = tg_board_random_move(&b, c, suicide, &rng);
            if (p == TG_PASS) {
                /* nothing left but own eyes and illegal points */
                for (int k = 0; k < b.empty_count; k++)
                    assert_true(tg_board_check(&b, b.empty[k], c, suicide) != TG_OK ||
                                tg_board_is_eye(&b, b.empty[k], c));
                tg_board_pass(&b);
                continue;
            }
            assert_int_equal(tg_board_check(&b, p, c, suicide), TG_OK);
            assert_false(tg_board_is_eye(&b, p, c));
            tg_board_play(&b, p, c);
        }
        assert_true(tg_board_consistent(&b));
        tg_board_init(&b, size);
        int moves = tg_board_playout(&b, TG_BLACK, suicide, &rng, 10 * size * size);
        assert_true(moves >= 0 && moves <= 10 * size * size);
        assert_true(tg_board_consistent(&b));
        if (moves < 10 * size * size) {
            /* ended by two passes: neither side has a useful move */
            assert_int_equal(tg_board_random_move(&b, TG_BLACK, suicide, &rng), TG_PASS);
            assert_int_equal(tg_board_random_move(&b, TG_WHITE, suicide, &rng), TG_PASS);
        }
    }
}

static void test_board_consistent_detects_corruption(void **state)
{
    (void)state;
    tg_board b;
    random_position(&b, 9, 60, TG_SUICIDE_FORBIDDEN);
    assert_true(tg_board_consistent(&b));
    tg_point p = TG_NO_POINT;
    for (tg_point q = 0; q < b.npoints; q++)
        if (b.color[q] == TG_BLACK) {
            p = q;
            break;
        }
    assert_int_not_equal(p, TG_NO_POINT);
    tg_board bad;
    tg_board_copy(&bad, &b);
    bad.chain[bad.chain_of[p]].libs += tg_lib_code(p); /* a pseudo-liberty too many */
    assert_false(tg_board_consistent(&bad));
    tg_board_copy(&bad, &b);
    bad.hash ^= 1;
    assert_false(tg_board_consistent(&bad));
    tg_board_copy(&bad, &b);
    bad.color[p] = TG_WHITE;
    assert_false(tg_board_consistent(&bad));
}

/* tg_board_playout has its own copies of the move loop (for 9x9 and
 * 19x19, and by colour); they must play exactly the moves of
 * tg_board_random_move and tg_board_play, the generic path, given the same
 * random numbers: same positions, same move count, same generator state,
 * from either colour, under both suicide rules, cut short or played out. */
static void test_board_playout_matches_generic_moves(void **state)
{
    (void)state;
    const int sizes[] = {2, 5, 9, 13, 19, 25};
    int round = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (int k = 0; k < 12; k++, round++) {
            int size = sizes[si];
            tg_suicide_rule suicide = k % 2 ? TG_SUICIDE_MULTI_STONE : TG_SUICIDE_FORBIDDEN;
            tg_color to_move = k % 4 < 2 ? TG_BLACK : TG_WHITE;
            int max_moves = k < 4 ? 1 + k * size : 3 * size * size;
            tg_board a, b;
            tg_rng start;
            tg_rng_seed(&start, 1000 + (uint64_t)round);
            random_position(&a, size, k % 3 == 0 ? 0 : size * size / 3, suicide);
            tg_board_copy(&b, &a);
            tg_rng ra = start, rb = start;
            int moves_a = tg_board_playout(&a, to_move, suicide, &ra, max_moves);
            int moves_b = 0, passes = 0;
            for (tg_color c = to_move; moves_b < max_moves && passes < 2; moves_b++, c = tg_opponent(c)) {
                tg_point p = tg_board_random_move(&b, c, suicide, &rb);
                if (p == TG_PASS) {
                    tg_board_pass(&b);
                    passes++;
                } else {
                    assert_int_equal(tg_board_check(&b, p, c, suicide), TG_OK);
                    tg_board_play(&b, p, c);
                    passes = 0;
                }
            }
            assert_int_equal(moves_a, moves_b);
            assert_true(a.hash == b.hash);
            assert_memory_equal(a.color, b.color, (size_t)a.npoints);
            assert_true(ra.s[0] == rb.s[0] && ra.s[1] == rb.s[1]);
            assert_true(tg_board_consistent(&a));
        }
    }
}

/* The packed pseudo-liberty word (count, sum, sum of squares in one
 * uint64_t) must not overflow a field on the largest board: a comb-shaped
 * chain on 25x25, the stones on every other row joined by the first
 * column, touches nearly every empty point twice.  Its liberties are then
 * filled one by one; after every move the packed figures must equal a
 * recount from the stones, and atari must be seen exactly at the last. */
static void test_board_packed_liberties_largest_board(void **state)
{
    (void)state;
    static tg_board b;
    assert_int_equal(tg_board_init(&b, TG_MAX_SIZE), TG_OK);
    for (int y = 0; y < TG_MAX_SIZE; y++)
        for (int x = 0; x < TG_MAX_SIZE; x++)
            if (y % 2 == 0 || x == 0)
                tg_board_play(&b, tg_point_at(&b, x, y), TG_BLACK);
    tg_point head = tg_point_at(&b, 0, 0);
    int filled = 0, max_count = 0;
    for (;;) {
        /* recount: every (stone, empty neighbour) adjacency of the chain */
        uint64_t count = 0, sum = 0, sum_sq = 0;
        for (tg_point s = 0; s < b.npoints; s++) {
            if (b.color[s] != TG_BLACK)
                continue;
            const int d[4] = {-1, 1, -b.stride, b.stride};
            for (int i = 0; i < 4; i++)
                if (b.color[s + d[i]] == TG_EMPTY) {
                    count++;
                    sum += (uint64_t)(s + d[i]);
                    sum_sq += (uint64_t)(s + d[i]) * (uint64_t)(s + d[i]);
                }
        }
        const tg_chain *ch = tg_chain_at(&b, head);
        assert_int_equal(tg_chain_pseudo_libs(ch), (int)count);
        assert_true(ch->libs == (count << TG_LIB_COUNT_SHIFT | sum << TG_LIB_SUM_SHIFT | sum_sq));
        int libs = tg_chain_liberties(&b, head, NULL, 0);
        assert_int_equal(tg_chain_in_atari(ch), libs == 1);
        if (count > (uint64_t)max_count)
            max_count = (int)count;
        if (libs == 1) {
            tg_point last;
            tg_chain_liberties(&b, head, &last, 1);
            assert_int_equal(tg_chain_atari_point(ch), last);
            break;
        }
        /* fill the first empty point */
        tg_point p = b.empty[0];
        tg_board_play(&b, p, TG_BLACK);
        filled++;
    }
    assert_int_equal(filled, 12 * 24 - 1);
    assert_true(max_count > 500); /* the word held a large count */
    assert_true(tg_board_consistent(&b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board_init_and_layout),
        cmocka_unit_test(test_board_vertices),
        cmocka_unit_test(test_board_liberties_and_atari),
        cmocka_unit_test(test_board_neighbour_counts_and_empty_list),
        cmocka_unit_test(test_board_is_eye),
        cmocka_unit_test(test_board_check_and_play),
        cmocka_unit_test(test_board_hashing),
        cmocka_unit_test(test_board_set_point),
        cmocka_unit_test(test_board_copy),
        cmocka_unit_test(test_board_random_move_and_playout),
        cmocka_unit_test(test_board_consistent_detects_corruption),
        cmocka_unit_test(test_board_packed_liberties_largest_board),
        cmocka_unit_test(test_board_playout_matches_generic_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
