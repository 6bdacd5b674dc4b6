/*
 * playout.c — the playout policy of the ownership estimate.
 *
 * Uniformly random playouts (tg_board_playout) misjudge finished positions
 * in two ways that matter for counting: a side with no other move left
 * fills a shared liberty of a seki and gets captured, and a living group
 * that has to play somewhere puts itself in atari.  So here a move is chosen
 * uniformly among the legal moves that
 *   - do not fill the mover's own eye (as tg_board_random_move), and
 *   - do not put a chain of two or more stones in atari without capturing
 *     (a lone stone may still be thrown in: that is how eyes are destroyed),
 * and a player with no such move passes.  Before that, the mover answers
 * the obvious: it captures the stones the opponent's last move left in atari,
 * or saves a chain of its own that move put in atari.  Tactics this simple
 * make hopeless stones in open areas die more often and living groups less,
 * which is what the counting needs (measured against GNU Go, see
 * tests/scripts/gnugo_agreement.sh).
 */
#include "score/playout.h"
#include "score/regions.h"

typedef struct mover {
    tg_color color;
    tg_suicide_rule suicide;
} mover;

static bool acceptable(const tg_board *b, tg_point p, void *context)
{
    const mover *m = context;
    int stones;
    return !tg_board_is_eye(b, p, m->color) && tg_board_check(b, p, m->color, m->suicide) == TG_OK &&
           !(tg_board_is_self_atari(b, p, m->color, &stones) && stones > 1);
}

/* A random acceptable move (the first from a random start), or TG_PASS. */
static tg_point random_move(const tg_board *b, tg_color c, tg_suicide_rule suicide, tg_rng *rng)
{
    mover m = {c, suicide};
    return tg_board_random_empty(b, rng, acceptable, &m);
}

/* The obvious answers to the last move: capture the stones it left in
 * atari, or save a chain of the mover it put in atari by extending when
 * that gives two liberties or more.  TG_PASS when there is none. */
static tg_point answer_last_move(const tg_board *b, tg_color c, tg_suicide_rule suicide)
{
    tg_point last = b->last_move, nb[4];
    if (last < 0 || b->color[last] != tg_opponent(c))
        return TG_PASS;
    const tg_chain *played = tg_chain_at(b, last);
    if (tg_chain_in_atari(played)) {
        tg_point lib = tg_chain_atari_point(played);
        if (tg_board_check(b, lib, c, suicide) == TG_OK)
            return lib;
    }
    score_neighbours(b, last, nb);
    for (int i = 0; i < 4; i++) {
        if (b->color[nb[i]] != c || !tg_chain_in_atari(tg_chain_at(b, nb[i])))
            continue;
        tg_point lib = tg_chain_atari_point(tg_chain_at(b, nb[i]));
        if (tg_board_check(b, lib, c, suicide) == TG_OK && !tg_board_is_self_atari(b, lib, c, NULL))
            return lib;
    }
    return TG_PASS;
}

void score_playout(tg_board *b, tg_color to_move, tg_suicide_rule suicide, tg_rng *rng)
{
    int max_moves = 3 * b->size * b->size + 20, passes = 0;
    tg_color c = to_move;
    for (int moves = 0; moves < max_moves && passes < 2; moves++) {
        tg_point p = answer_last_move(b, c, suicide);
        if (p == TG_PASS)
            p = random_move(b, c, suicide, rng);
        if (p == TG_PASS) {
            tg_board_pass(b);
            passes++;
        } else {
            tg_board_play(b, p, c);
            passes = 0;
        }
        c = tg_opponent(c);
    }
}
