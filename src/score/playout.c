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
 * tests/scripts/gnugo_agreement.sh).  The tactics themselves are the
 * tactics layer's, under the counting's rules (TACTICS_SAVE_NO_SELF_ATARI,
 * TACTICS_RANDOM_COUNTING).
 */
#include "score/playout.h"
#include "tactics/tactics.h"

static bool legal_under(const void *suicide_rule, const tg_board *b, tg_point p, tg_color c)
{
    return tg_board_check(b, p, c, *(const tg_suicide_rule *)suicide_rule) == TG_OK;
}

void score_playout(tg_board *b, tg_color to_move, tg_suicide_rule suicide, tg_rng *rng)
{
    /* the obvious answers: capture, or extend to two liberties or more */
    tactics_answer_rule answer = {legal_under, &suicide, TACTICS_SAVE_NO_SELF_ATARI, false};
    int max_moves = 3 * b->size * b->size + 20, passes = 0;
    tg_color c = to_move;
    for (int moves = 0; moves < max_moves && passes < 2; moves++) {
        tg_point p = tactics_answer_last_move(b, c, &answer);
        if (p == TG_PASS)
            p = tactics_random_move(b, c, suicide, TACTICS_RANDOM_COUNTING, rng);
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
