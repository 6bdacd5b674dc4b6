/*
 * test_differential.c — randomized differential test of the rules library
 * against the deliberately simple referee of tests/support/reference.c
 * (a 2-D array, flood fill, whole-board comparison for repetition).
 *
 * Random games on every size from 2 to 19 under every preset (and a few
 * mixes the presets leave out: simple ko with suicide, the draw cycle
 * outcome): random moves, with illegal attempts, passes, and some games
 * starting from a set-up position or handicap stones with either side to
 * move.  After every move the stones, the captures, the side to move, the
 * passes, the end of the game and the legality (tg_game_check) of every
 * point for the side to move must agree with the reference; a game that
 * ends is followed by a new one.
 *
 * The seed is fixed.  TENGEN_DIFF_MOVES sets how many moves (plays and
 * passes accepted) the main run makes — 100,000 by default, plus a quarter
 * as many on tiny boards; an AddressSanitizer build makes a tenth of that
 * unless the variable is set.  A difference fails with the game's moves so
 * far, to replay it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reference.h"
#include "tengen/game.h"
#include "test_support.h"

#define DEFAULT_MOVES 100000

/* Under AddressSanitizer the run is ten times slower: a sanitizer build makes
 * a tenth of the moves unless TENGEN_DIFF_MOVES asks for more. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
#define SCALE 10
#else
#define SCALE 1
#endif
#define SEED 0x7e46e2u

static const char *const RULESETS[] = {
    "chinese", "japanese", "korean", "aga", "new-zealand", "tromp-taylor", "ancient",
    "japanese suicide=yes", "japanese cycle=draw", "aga suicide=yes ko=positional",
};
#define NRULESETS (int)(sizeof RULESETS / sizeof RULESETS[0])

/* A small generator of the test's own, so the library's is not under test here. */
static uint64_t rng_state = SEED;
static uint32_t next_random(uint32_t below)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 11) % below);
}

/* How a run of games is drawn. */
typedef struct phase {
    const char *name;
    int min_size, sizes;     /* sizes min_size .. min_size + sizes - 1, in turn */
    int pass_percent;        /* chance of a pass; 0: 100 / (size + 2) */
    int setup_in_8;          /* games in 8 starting from a set-up position */
    int max_length;          /* plies before a game restarts; 0: 3 * size^2 + 20 */
} phase;

typedef struct duel {
    const phase *phase;
    tg_game *game;
    ref_game ref;
    int size;
    const char *rules;
    int game_number;
    tg_status verdict[TG_MAX_SIZE * TG_MAX_SIZE]; /* the reference's, for the side to move */
    char record[65536]; /* the game so far, to replay a difference */
    ts_text text;
} duel;

typedef struct tally {
    long moves, passes, illegal_attempts, legality_checks, games, cycles, setups, handicaps;
} tally;

static void record(duel *d, const char *fmt, ...)
{
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ts_text_add(&d->text, "%s", buf);
}

static void report(const duel *d, const char *what)
{
    char board[8192];
    ts_render_game(d->game, board, sizeof board);
    fail_msg("game %d, size %d, rules \"%s\": %s\nmoves: %s\nlibtengen's position:\n%s", d->game_number, d->size,
             d->rules, what, d->record, board);
}

static tg_point point_of(const duel *d, int x, int y) { return tg_point_at(tg_game_board(d->game), x, y); }

/* Statuses agree when they are equal, or when a superko rule reports an
 * immediate ko recapture with the more specific TG_ERR_KO. */
static bool same_verdict(const duel *d, tg_status ref, tg_status lib)
{
    if (ref == lib)
        return true;
    return ref == TG_ERR_SUPERKO && lib == TG_ERR_KO && d->ref.ko != TG_KO_SIMPLE;
}

static void compare_state(duel *d, tally *t)
{
    const tg_board *b = tg_game_board(d->game);
    char what[256];
    for (int y = 0; y < d->size; y++)
        for (int x = 0; x < d->size; x++)
            if (b->color[point_of(d, x, y)] != ref_at(&d->ref, x, y)) {
                char v[8];
                ts_vertex_name(d->size, point_of(d, x, y), v);
                snprintf(what, sizeof what, "stone at %s: library %d, reference %d", v, b->color[point_of(d, x, y)],
                         ref_at(&d->ref, x, y));
                report(d, what);
            }
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        if (b->captures[c] != d->ref.captures[c]) {
            snprintf(what, sizeof what, "captures by %s: library %d, reference %d", c == TG_BLACK ? "Black" : "White",
                     b->captures[c], d->ref.captures[c]);
            report(d, what);
        }
    if (tg_game_over(d->game) != d->ref.over) {
        snprintf(what, sizeof what, "game over: library %d, reference %d", tg_game_over(d->game), d->ref.over);
        report(d, what);
    }
    if (d->ref.over) {
        const tg_result *r = tg_game_result(d->game);
        bool draw = r->kind == TG_RESULT_SCORE && r->winner == TG_EMPTY;
        bool agrees = d->ref.ending == TG_RESULT_NONE      ? r->kind == TG_RESULT_NONE
                      : d->ref.ending == TG_RESULT_SCORE   ? draw
                                                           : r->kind == TG_RESULT_NO_RESULT;
        if (!agrees) {
            snprintf(what, sizeof what, "end of game: library result kind %d, reference %d", r->kind, d->ref.ending);
            report(d, what);
        }
        return;
    }
    if (tg_game_to_move(d->game) != d->ref.to_move)
        report(d, "side to move differs");
    if (tg_game_consecutive_passes(d->game) != d->ref.passes)
        report(d, "consecutive passes differ");
    if (!tg_board_consistent(b))
        report(d, "tg_board_consistent() is false");
    tg_color c = d->ref.to_move;
    for (int y = 0; y < d->size; y++)
        for (int x = 0; x < d->size; x++) {
            tg_status lib = tg_game_check(d->game, c, point_of(d, x, y), 0);
            tg_status ref = d->verdict[y * d->size + x] = ref_check(&d->ref, c, x, y);
            t->legality_checks++;
            if (!same_verdict(d, ref, lib)) {
                char v[8];
                ts_vertex_name(d->size, point_of(d, x, y), v);
                snprintf(what, sizeof what, "%s at %s: library says %s, reference %s", c == TG_BLACK ? "B" : "W", v,
                         tg_status_text(lib), tg_status_text(ref));
                report(d, what);
            }
        }
    if (tg_game_check(d->game, c, TG_PASS, 0) != TG_OK)
        report(d, "a pass is refused");
    if (tg_game_check(d->game, tg_opponent(c), TG_PASS, 0) != TG_ERR_WRONG_PLAYER)
        report(d, "a pass by the wrong colour is not refused as such");
}

/* A position to start from, made by random legal play on the reference. */
static void start_from_setup(duel *d, tally *t)
{
    tg_rules rules;
    tg_rules_default(&rules);
    ref_game scratch;
    ref_init(&scratch, d->size, &rules);
    int plies = (int)next_random((uint32_t)(d->size * d->size));
    for (int i = 0; i < plies && !scratch.over; i++) {
        int x = (int)next_random((uint32_t)d->size), y = (int)next_random((uint32_t)d->size);
        if (ref_play(&scratch, scratch.to_move, x, y) != TG_OK)
            ref_play(&scratch, scratch.to_move, -1, -1);
    }
    record(d, "setup");
    for (int y = 0; y < d->size; y++)
        for (int x = 0; x < d->size; x++) {
            tg_color c = ref_at(&scratch, x, y);
            if (c == TG_EMPTY)
                continue;
            char v[8];
            ts_vertex_name(d->size, point_of(d, x, y), v);
            record(d, " %c%s", c == TG_BLACK ? 'B' : 'W', v);
            if (tg_game_setup(d->game, point_of(d, x, y), c) != TG_OK)
                report(d, "tg_game_setup refused a stone");
            ref_setup(&d->ref, x, y, c);
        }
    tg_color first = next_random(2) ? TG_WHITE : TG_BLACK;
    tg_game_set_to_move(d->game, first);
    ref_set_to_move(&d->ref, first);
    record(d, "; %s to move;", first == TG_BLACK ? "B" : "W");
    ref_free(&scratch);
    t->setups++;
}

static void start_with_handicap(duel *d, tally *t)
{
    tg_point stones[9];
    int n = tg_fixed_handicap_points(tg_game_board(d->game), 2 + (int)next_random(8), stones);
    if (!n)
        return;
    if (tg_game_place_handicap(d->game, stones, n) != TG_OK)
        report(d, "tg_game_place_handicap refused fixed handicap points");
    int stride = d->size + 1;
    for (int i = 0; i < n; i++)
        ref_setup(&d->ref, stones[i] % stride - 1, stones[i] / stride - 1, TG_BLACK);
    ref_set_to_move(&d->ref, TG_WHITE);
    record(d, "handicap %d;", n);
    t->handicaps++;
}

static void new_game(duel *d, tally *t, int number)
{
    d->game_number = number;
    d->size = d->phase->min_size + number % d->phase->sizes;
    d->rules = RULESETS[(number / d->phase->sizes) % NRULESETS];
    tg_rules rules;
    tg_rules_default(&rules);
    if (tg_rules_apply(&rules, d->rules, NULL, 0) != TG_OK)
        fail_msg("rules \"%s\" refused", d->rules);
    if (d->game)
        tg_game_free(d->game);
    d->game = tg_game_new(d->size, &rules);
    assert_non_null(d->game);
    ref_free(&d->ref);
    ref_init(&d->ref, d->size, &rules);
    ts_text_init(&d->text, d->record, sizeof d->record);
    uint32_t opening = next_random(8);
    if (opening < (uint32_t)d->phase->setup_in_8)
        start_from_setup(d, t);
    else if (opening == 7 && d->size >= 7)
        start_with_handicap(d, t);
    t->games++;
}

/* One random action; returns true when a move or pass was accepted.
 * d->verdict holds the reference's legality of every point (compare_state). */
static bool random_action(duel *d, tally *t)
{
    tg_color c = d->ref.to_move;
    int n = d->size * d->size;
    int x = -1, y = -1;
    uint32_t kind = next_random(100);
    if (kind < 3) {
        /* the wrong colour */
        tg_point p = point_of(d, (int)next_random((uint32_t)d->size), (int)next_random((uint32_t)d->size));
        if (tg_game_play(d->game, tg_opponent(c), p, 0) != TG_ERR_WRONG_PLAYER)
            report(d, "a move by the wrong colour was not refused as such");
        t->illegal_attempts++;
        return false;
    }
    int pass_percent = d->phase->pass_percent ? d->phase->pass_percent : 100 / (d->size + 2);
    if (kind >= 3 + (uint32_t)pass_percent) {
        if (kind < 40) {
            x = (int)next_random((uint32_t)d->size); /* any point: often illegal */
            y = (int)next_random((uint32_t)d->size);
        } else {
            int legal[TG_MAX_SIZE * TG_MAX_SIZE], nlegal = 0;
            for (int i = 0; i < n; i++)
                if (d->verdict[i] == TG_OK)
                    legal[nlegal++] = i;
            if (nlegal) {
                int pick = legal[next_random((uint32_t)nlegal)];
                x = pick % d->size;
                y = pick / d->size;
            }
        }
    }
    tg_point p = x < 0 ? TG_PASS : point_of(d, x, y);
    int before = tg_game_move_count(d->game);
    tg_status ref = ref_play(&d->ref, c, x, y);
    tg_status lib = tg_game_play(d->game, c, p, 0);
    char v[8];
    ts_vertex_name(d->size, p, v);
    if (!same_verdict(d, ref, lib)) {
        char what[160];
        snprintf(what, sizeof what, "playing %s %s: library says %s, reference %s", c == TG_BLACK ? "B" : "W", v,
                 tg_status_text(lib), tg_status_text(ref));
        report(d, what);
    }
    if (ref != TG_OK) {
        if (tg_game_move_count(d->game) != before)
            report(d, "a refused move changed the move count");
        t->illegal_attempts++;
        return false;
    }
    record(d, " %c %s", c == TG_BLACK ? 'B' : 'W', v);
    if (x < 0)
        t->passes++;
    return true;
}

static long moves_wanted(long default_moves)
{
    const char *env = getenv("TENGEN_DIFF_MOVES");
    long n = env ? strtol(env, NULL, 10) * default_moves / DEFAULT_MOVES : default_moves / SCALE;
    return n > 0 ? n : 1;
}

static void run_phase(const phase *ph, long wanted)
{
    static duel d;
    memset(&d, 0, sizeof d);
    d.phase = ph;
    tally t = {0};
    int number = 0;
    new_game(&d, &t, number);
    while (t.moves < wanted) {
        compare_state(&d, &t);
        /* games that go on too long restart too, so every size gets its turn */
        int max_length = ph->max_length ? ph->max_length : 3 * d.size * d.size + 20;
        if (d.ref.over || tg_game_move_count(d.game) > max_length) {
            if (d.ref.over && d.ref.ending != TG_RESULT_NONE)
                t.cycles++;
            new_game(&d, &t, ++number);
            continue;
        }
        if (random_action(&d, &t))
            t.moves++;
    }
    compare_state(&d, &t);
    tg_game_free(d.game);
    ref_free(&d.ref);
    printf("%s: %ld moves (%ld passes), %ld illegal attempts refused alike, %ld legality checks, "
           "%ld games (%ld set up, %ld with handicap, %ld ended by a cycle)\n",
           ph->name, t.moves, t.passes, t.illegal_attempts, t.legality_checks, t.games, t.setups, t.handicaps,
           t.cycles);
    assert_true(t.moves >= wanted);
}

/* Sizes 2 to 19 under every ruleset: the 100,000 moves of the issue. */
static void test_differential_sizes_2_to_19(void **state)
{
    (void)state;
    static const phase ph = {"sizes 2-19", TG_MIN_SIZE, 18, 0, 1, 0};
    run_phase(&ph, moves_wanted(DEFAULT_MOVES));
}

/* Long games on 2x2 to 4x4 with few passes and many set-up starts, where
 * repetitions, cycles under simple ko and suicides are frequent. */
static void test_differential_tiny_boards(void **state)
{
    (void)state;
    static const phase ph = {"tiny boards", TG_MIN_SIZE, 3, 2, 4, 400};
    run_phase(&ph, moves_wanted(DEFAULT_MOVES / 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_differential_sizes_2_to_19),
        cmocka_unit_test(test_differential_tiny_boards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
