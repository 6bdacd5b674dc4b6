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

typedef struct counting_playout {
    tactics_answer_rule answer; /* the obvious answers: capture, or extend to two liberties or more */
    tg_suicide_rule suicide;
    tg_rng *rng;
} counting_playout;

static tg_playout_step counting_step(void *policy, tg_board *b, tg_color c)
{
    counting_playout *k = policy;
    tg_point p = tactics_answer_last_move(b, c, &k->answer);
    if (p == TG_PASS)
        p = tactics_random_move(b, c, k->suicide, TACTICS_RANDOM_COUNTING, k->rng);
    return tg_playout_play(b, p, c);
}

void score_playout(tg_board *b, tg_color to_move, tg_suicide_rule suicide, tg_rng *rng)
{
    counting_playout k = {{legal_under, &suicide, TACTICS_SAVE_NO_SELF_ATARI, false}, suicide, rng};
    tg_playout_run(b, to_move, 3 * b->size * b->size + 20, counting_step, &k);
}
