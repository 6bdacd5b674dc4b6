/*
 * ladder.c — reading ladders (shicho) for the playouts, the move model's
 * features and the priors: is a chain in atari captured however it runs?
 *
 * The chain's side extends on its last liberty (or captures an attacker in
 * atari, which ends the ladder); with three liberties or more it has
 * escaped, with one it is lost; with two the attacker tries an atari on
 * each of them in turn, and the reading goes on.  The moves are played on a
 * private board and taken back with the undo log, so one copy serves the
 * whole reading.  A reading deeper than MAX_DEPTH counts as an escape.
 */
#include "tactics/ladder.h"

#define MAX_DEPTH 60

/* Whether a chain of the attacker next to the chain at q is in atari. */
static bool attacker_in_atari(const tg_board *b, tg_point q)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    tg_color attacker = tg_opponent((tg_color)b->color[q]);
    int s = b->chain_of[q], head = s;
    do {
        for (int i = 0; i < 4; i++) {
            int n = s + d[i];
            if (b->color[n] == attacker && tg_chain_in_atari(tg_chain_at(b, n)))
                return true;
        }
        s = b->next_stone[s];
    } while (s != head);
    return false;
}

static bool escape_fails(tg_board *b, tg_point q, tg_undo_log *log, int depth);

/* The attacker, to move, has the chain at q down to two liberties: does an
 * atari on one of them capture it? */
static bool attack_succeeds(tg_board *b, tg_point q, tg_undo_log *log, int depth)
{
    tg_point libs[3];
    if (tg_chain_liberties_upto(b, q, libs, 3) != 2)
        return false;
    tg_color attacker = tg_opponent((tg_color)b->color[q]);
    for (int i = 0; i < 2; i++) {
        if (tg_board_check(b, libs[i], attacker, TG_SUICIDE_FORBIDDEN) != TG_OK)
            continue;
        if (tg_board_play_logged(b, libs[i], attacker, log) < 0)
            return false;
        bool captured = tg_chain_in_atari(tg_chain_at(b, q)) && escape_fails(b, q, log, depth + 1);
        tg_board_undo(b, log);
        if (captured)
            return true;
    }
    return false;
}

/* The chain at q is in atari and its side is to move: is it lost? */
static bool escape_fails(tg_board *b, tg_point q, tg_undo_log *log, int depth)
{
    if (depth > MAX_DEPTH || attacker_in_atari(b, q))
        return false;
    tg_color runner = (tg_color)b->color[q];
    tg_point lib = tg_chain_atari_point(tg_chain_at(b, q));
    if (tg_board_check(b, lib, runner, TG_SUICIDE_FORBIDDEN) != TG_OK)
        return true;
    if (tg_board_play_logged(b, lib, runner, log) < 0)
        return false;
    int libs = tg_chain_liberties_upto(b, q, NULL, 3);
    bool lost = libs <= 1 || (libs == 2 && attack_succeeds(b, q, log, depth));
    tg_board_undo(b, log);
    return lost;
}

/* Run one reading on a private copy of b (on the stack, as the search's
 * other work boards are: a reading is too short to pay for a malloc). */
static bool read(const tg_board *b, tg_point q, bool attacker_to_move)
{
    tg_board work;
    tg_board_copy(&work, b);
    tg_undo_log log;
    tg_undo_log_init(&log);
    bool result = attacker_to_move ? attack_succeeds(&work, q, &log, 0) : escape_fails(&work, q, &log, 0);
    tg_undo_log_free(&log);
    return result;
}

bool ladder_captured(const tg_board *b, tg_point q)
{
    return tg_chain_in_atari(tg_chain_at(b, q)) && read(b, q, false);
}

bool ladder_attack_works(const tg_board *b, tg_point q)
{
    return read(b, q, true);
}
