/*
 * policy.c — the playout policy of the search, in the spirit of MoGo's:
 * moves near the last one first, because that is where the fight is.
 *
 * For the side to move, in order:
 *   1. capture the chain the opponent's last move left in atari;
 *   1b. (up to 11x11) capture a chain the mover's own previous move put in
 *      atari, when the opponent answered elsewhere;
 *   2. save an own chain the last move put in atari, by capturing one of
 *      its attackers that is in atari, or by extending when that gives it
 *      three liberties, or two and (up to 11x11) no ladder that works;
 *   2a. play the vital point of the opponent's small eye space (three to
 *      five points) next to the last move: nakade;
 *   2b. (half the time) when the last move left a chain next to it with two
 *      liberties: gain liberties for it if it is the mover's, atari it if
 *      it is the opponent's;
 *   3. (nine times in ten) play one of the good 3x3 shapes (pattern.c) on the
 *      eight points around the last move, chosen at random;
 *   3b. from 13x13 up, a point in an empty area (fill_board), when a few
 *      random tries find one (on 9x9 it lost 42-58 in self-play);
 *   4. otherwise a random move that is legal, not an own eye, and not a
 *      self-atari of a chain (a lone stone may still be thrown in, half the
 *      time: that is how false eyes and nakade happen; a chain of two to
 *      five whose capture leaves a dead eye space always may);
 *   5. pass when there is none.
 * (On the small boards the search draws a playout's first move from the
 * move model instead: policy_model_move.)  Two passes end the playout,
 * which is then counted by area; so does a lead of a third of the board in
 * stones (the mercy rule).  Simple ko
 * only and suicide never: superko and the ruleset's suicide option matter
 * for the moves the search plays, which the tree checks at its root.
 */
#include "engine/features.h"
#include "engine/model.h"
#include "engine/pattern.h"
#include "engine/policy.h"
#include "tactics/nakade.h"
#include "tactics/tactics.h"

/* Rules 1b and 2's ladder reading are used up to this size: they gained
 * against Pachi on 9x9, and nothing on 19x19 (49 of 100 self-play games,
 * for 4% more instructions a playout; docs/speed.md). */
#define NEW_RULES_MAX_SIZE 11

/* How the playouts answer an atari (rules 1, 1b and 2): a chain saves
 * itself by capturing an attacker in atari or by extending to three
 * liberties, or to two and (on the small boards) no working ladder. */
static tactics_answer_rule answer_rule(const tg_board *b)
{
    return (tactics_answer_rule){tactics_legal_in_playout, NULL, TACTICS_SAVE_BY_CAPTURE_OR_EXTENSION,
                                 b->size <= NEW_RULES_MAX_SIZE};
}

/* 2a: the vital point of the opponent's small eye space next to the last
 * move (the space a capture left, or one the opponent just closed), or
 * TG_PASS.  Only the killing side is told: letting the owner fill its own
 * vital point too measured -38 Elo [-88, +10] in self-play, this +21
 * [-13, +55] over 400 games (9x9, 1,000 playouts a move). */
static tg_point nakade(const tg_board *b, tg_color c)
{
    tg_point last = b->last_move;
    if (last < 0)
        return TG_PASS;
    const int d[4] = {-1, 1, -b->stride, b->stride};
    for (int i = 0; i < 4; i++) {
        int q = last + d[i];
        /* an eye space's points have at most two empty neighbours, except
         * the centre of the four and five shapes, reached through another */
        if (b->color[q] != TG_EMPTY || tg_nbr_count(b, q, c))
            continue; /* the killer's stone next to it: not the opponent's eye */
        int empty = tg_nbr_count(b, q, TG_EMPTY);
        if (empty == 0 || empty > 2)
            continue; /* a one-point eye has no vital point */
        tg_color owner;
        tg_point v = nakade_point(b, q, &owner);
        if (v != TG_PASS && owner == tg_opponent(c) && tactics_move_ok(b, v, c))
            return v;
    }
    return TG_PASS;
}

static tg_point two_liberty_fight(const tg_board *b, tg_color c, tg_rng *rng)
{
    tg_point found[10];
    int n = tactics_two_liberty_moves(b, c, found);
    return n ? found[tg_rng_below(rng, (uint32_t)n)] : TG_PASS;
}

/* 3: a good shape around the last move, or TG_PASS. */
static tg_point local_shape(const tg_board *b, tg_color c, tg_rng *rng)
{
    tg_point last = b->last_move;
    if (last < 0)
        return TG_PASS;
    const int s = b->stride;
    const int around[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
    tg_point found[8];
    int n = 0;
    for (int i = 0; i < 8; i++) {
        tg_point q = last + around[i];
        if (b->color[q] == TG_EMPTY && pattern_match(b, q) && tactics_move_ok(b, q, c) &&
            !tactics_bad_self_atari(b, q, c, 1))
            found[n++] = q;
    }
    return n ? found[tg_rng_below(rng, (uint32_t)n)] : TG_PASS;
}

/* 3b: filling the board (Chatriot, Gelly, Hoock, Perez, Rimmel and
 * Teytaud, 2008, who measured it on 19x19): a few random points, the
 * first whose eight neighbours are all empty, or TG_PASS.  Playouts then
 * spread over empty areas the way games do instead of clustering by
 * chance. */
static tg_point fill_board(const tg_board *b, tg_rng *rng)
{
    for (int k = 0; k < 4 && b->empty_count > 0; k++) {
        tg_point p = b->empty[tg_rng_below(rng, (uint32_t)b->empty_count)];
        if (pattern_key(b, p) == 0)
            return p;
    }
    return TG_PASS;
}

/* The policy's move for c on b (TG_PASS when none); last2 is c's own
 * previous move (TG_PASS or TG_NO_POINT when none or unknown). */
static tg_point choose_move(const tg_board *b, tg_color c, tg_point last2, tg_rng *rng)
{
    tactics_answer_rule rule = answer_rule(b);
    tg_point p = tactics_answer_last_move(b, c, &rule);
    if (p != TG_PASS)
        return p;
    if (last2 >= 0 && b->size <= NEW_RULES_MAX_SIZE) {
        /* 1b: the opponent let a chain the mover's own previous move put in
         * atari stand: take it */
        p = tactics_capture_next_to(b, last2, c, &rule);
        if (p != TG_PASS)
            return p;
    }
    p = nakade(b, c);
    if (p != TG_PASS)
        return p;
    if (tg_rng_below(rng, 2) == 0) {
        p = two_liberty_fight(b, c, rng);
        if (p != TG_PASS)
            return p;
    }
    if (tg_rng_below(rng, 10) != 0) {
        p = local_shape(b, c, rng);
        if (p != TG_PASS)
            return p;
    }
    if (b->size >= 13) {
        p = fill_board(b, rng);
        if (p != TG_PASS)
            return p;
    }
    return tactics_random_move(b, c, TG_SUICIDE_FORBIDDEN, TACTICS_RANDOM_PLAYOUT, rng);
}

tg_point policy_model_move(const tg_board *b, tg_color c, tg_point last2, tg_rng *rng)
{
    tg_point moves[TG_MAX_POINTS];
    float gamma[TG_MAX_POINTS];
    double upto[TG_MAX_POINTS], sum = 0;
    int n = model_candidates(b, c, last2, moves, gamma);
    for (int i = 0; i < n; i++)
        upto[i] = sum += gamma[i];
    if (n == 0)
        return TG_PASS;
    double r = (double)(tg_rng_next(rng) >> 11) * 0x1p-53 * sum;
    for (int i = 0; i < n - 1; i++)
        if (r < upto[i])
            return moves[i];
    return moves[n - 1];
}

/* A playout of the search under way. */
typedef struct search_playout {
    tg_rng *rng;
    tg_point previous, last; /* the mover's previous move, then the other side's */
    /* the mercy rule: a side ahead by a third of the board in stones has
     * won; counting it now saves the rest of a hopeless playout */
    int lead, mercy;
    policy_moves *moves;
} search_playout;

static inline __attribute__((always_inline)) tg_playout_step search_step(void *policy, tg_board *b, tg_color c)
{
    search_playout *s = policy;
    if (s->lead >= s->mercy || s->lead <= -s->mercy)
        return TG_PLAYOUT_STOPPED;
    tg_point p = choose_move(b, c, s->previous, s->rng);
    s->previous = s->last;
    s->last = p;
    tg_playout_step step = TG_PLAYOUT_PASSED;
    if (p == TG_PASS) {
        tg_board_pass(b);
    } else {
        int gained = 1 + tg_board_play(b, p, c);
        s->lead += c == TG_BLACK ? gained : -gained;
        step = TG_PLAYOUT_MOVED;
    }
    policy_moves *m = s->moves;
    if (m && m->count < 3 * TG_MAX_POINTS) {
        m->point[m->count] = (int16_t)p;
        m->color[m->count++] = (uint8_t)c;
    }
    return step;
}

int policy_playout(tg_board *b, tg_color to_move, tg_point last2, tg_rng *rng, int max_moves,
                   policy_moves *moves, uint8_t *owner)
{
    search_playout s = {rng, last2, TG_NO_POINT,
                        tg_board_stone_count(b, TG_BLACK) - tg_board_stone_count(b, TG_WHITE),
                        b->size * b->size / 3, moves};
    tg_playout_run(b, to_move, max_moves, search_step, &s);
    return tactics_area_score(b, TACTICS_OWNER_SURROUNDED, owner);
}
