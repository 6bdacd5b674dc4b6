/*
 * tactics.h — the Go tactics that the engine's playouts, the move model's
 * features, the tree's priors, the dead-stone estimate and the baseline
 * player share: which moves a playout may play, self-ataris, liberties
 * after a move, the answers to an atari, the two-liberty fights, the random
 * move, the cleanup of dead stones and who owns a point when a playout
 * ends.  Ladders (ladder.h) and eye shapes (nakade.h) have their own
 * headers.
 *
 * The layer sits just above the board and below everything else.  Where
 * its users asked slightly different questions (the engine's playouts and
 * the dead-stone estimate do not save a chain or count a point quite
 * alike), the function takes the difference as a rule, so that each keeps
 * its own answers, random draws included.
 */
#ifndef TENGEN_TACTICS_H
#define TENGEN_TACTICS_H

#include "tengen/board.h"

/* ---- Acceptable moves ----------------------------------------------------- */

/* Whether c playing the empty point p is legal (simple ko, no suicide) and
 * is not one of c's own eyes: the moves the engine's playouts, priors and
 * move model consider. */
static inline bool tactics_move_ok(const tg_board *b, tg_point p, tg_color c)
{
    return b->color[p] == TG_EMPTY && tg_board_playout_move_ok(b, p, c, TG_SUICIDE_FORBIDDEN);
}

/* A legal move for c at p that leaves the chain it forms with one liberty
 * and captures nothing, for a chain of `min_stones` stones or more, unless
 * it is a sacrifice of two stones or more that kills by nakade. */
bool tactics_bad_self_atari(const tg_board *b, tg_point p, tg_color c, int min_stones);

/* Whether c at p makes a self-atari of a chain of two stones or more
 * (tg_board_is_self_atari), nakade or not. */
bool tactics_chain_self_atari(const tg_board *b, tg_point p, tg_color c);

/* How the liberties after a move are counted. */
typedef enum tactics_count {
    /* from the neighbours and their chains' liberties, without playing: a
     * captured neighbour counts as the one point it frees next to p; at
     * most 7 */
    TACTICS_COUNT_QUICK,
    /* by playing the move on a copy of the board */
    TACTICS_COUNT_PLAYED
} tactics_count;

/* Liberties (at most max) of the chain c would form at p; 0 if suicide. */
int tactics_liberties_after(const tg_board *b, tg_point p, tg_color c, int max, tactics_count how);

/* The last move (the opponent's) left a chain next to it, or itself, with
 * two liberties: the moves for c that gain liberties for it when it is
 * c's (to three or more), or atari it when it is the opponent's (from a
 * point where c's stone keeps two).  At most 10; returns how many. */
int tactics_two_liberty_moves(const tg_board *b, tg_color c, tg_point out[10]);

/* ---- Answering an atari ---------------------------------------------------- */

/* Whether c may play p, by the caller's rules. */
typedef bool (*tactics_legal_fn)(const void *context, const tg_board *b, tg_point p, tg_color c);

/* tactics_move_ok as a tactics_legal_fn (context unused). */
static inline bool tactics_legal_in_playout(const void *context, const tg_board *b, tg_point p, tg_color c)
{
    (void)context; /* inline: a playout's constant rule folds it into its callers */
    return tactics_move_ok(b, p, c);
}

/* How a chain in atari is saved. */
typedef enum tactics_save {
    /* extend on its liberty when that is no self-atari */
    TACTICS_SAVE_NO_SELF_ATARI,
    /* capture a chain of its attackers that is in atari; else extend when
     * that gives it two liberties or more (TACTICS_COUNT_QUICK), and with
     * read_ladders not to two into a ladder that works */
    TACTICS_SAVE_BY_CAPTURE_OR_EXTENSION,
    /* extend when that gives it two liberties or more (TACTICS_COUNT_PLAYED) */
    TACTICS_SAVE_BY_PLAYED_EXTENSION
} tactics_save;

typedef struct tactics_answer_rule {
    tactics_legal_fn legal;
    const void *context; /* legal's */
    tactics_save save;
    bool read_ladders;
} tactics_answer_rule;

/* The answer of c to the atari on the chain at q: its capture when it is
 * the opponent's, its rescue by the rule when it is c's; TG_PASS when the
 * rule finds none. */
tg_point tactics_answer_atari(const tg_board *b, tg_point q, tg_color c, const tactics_answer_rule *rule);

/* The next two run on every move of a playout and mostly find nothing:
 * inline, so that a playout's constant rule folds into them. */

/* A move of c capturing a chain of the opponent's next to p that is in
 * atari (the first such, by the rule's legality), or TG_PASS. */
static inline tg_point tactics_capture_next_to(const tg_board *b, tg_point p, tg_color c,
                                               const tactics_answer_rule *rule)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (b->color[q] != tg_opponent(c) || !tg_chain_in_atari(tg_chain_at(b, q)))
            continue;
        tg_point lib = tg_chain_atari_point(tg_chain_at(b, q));
        if (rule->legal(rule->context, b, lib, c))
            return lib;
    }
    return TG_PASS;
}

/* The answer of c to the opponent's last move: capture it when it stands
 * in atari, else save the first chain of c's next to it that it put in
 * atari; TG_PASS when there is none or the last move was not the
 * opponent's. */
static inline tg_point tactics_answer_last_move(const tg_board *b, tg_color c, const tactics_answer_rule *rule)
{
    tg_point last = b->last_move;
    if (last < 0 || b->color[last] != tg_opponent(c))
        return TG_PASS;
    if (tg_chain_in_atari(tg_chain_at(b, last))) {
        tg_point p = tactics_answer_atari(b, last, c, rule);
        if (p != TG_PASS)
            return p;
    }
    const int d[4] = {-1, 1, -b->stride, b->stride};
    for (int i = 0; i < 4; i++) {
        int q = last + d[i];
        if (b->color[q] != c || !tg_chain_in_atari(tg_chain_at(b, q)))
            continue;
        tg_point p = tactics_answer_atari(b, q, c, rule);
        if (p != TG_PASS)
            return p;
    }
    return TG_PASS;
}

/* ---- The random move ------------------------------------------------------- */

/* Which random moves a playout accepts. */
typedef enum tactics_random_rule {
    /* the engine's playouts: tactics_move_ok, and no self-atari of a lone
     * stone half the time (one draw of the generator after the start's,
     * even when unused) nor ever of a chain, unless a nakade sacrifice */
    TACTICS_RANDOM_PLAYOUT,
    /* the dead-stone estimate's: legal under the suicide rule, not an own
     * eye, no self-atari of a chain (a lone stone may be thrown in) */
    TACTICS_RANDOM_COUNTING
} tactics_random_rule;

/* The first acceptable empty point for c, scanning the board's empty
 * points from a random start; TG_PASS when none is (nothing drawn when
 * the board is full). */
tg_point tactics_random_move(const tg_board *b, tg_color c, tg_suicide_rule suicide, tactics_random_rule rule,
                             tg_rng *rng);

/* ---- The end of a playout -------------------------------------------------- */

/* Which colour an empty point of a finished playout belongs to. */
typedef enum tactics_owner_rule {
    /* the colour whose stones (and the edge) surround it on all four sides */
    TACTICS_OWNER_SURROUNDED,
    /* the one colour among its neighbours */
    TACTICS_OWNER_TOUCHED
} tactics_owner_rule;

/* The owner of the on-board point p at the end of a playout: its stone's
 * colour, or for an empty point the colour the rule gives, or TG_EMPTY. */
static inline tg_color tactics_final_owner(const tg_board *b, tg_point p, tactics_owner_rule rule)
{
    tg_color c = (tg_color)b->color[p];
    if (c != TG_EMPTY)
        return c;
    if (rule == TACTICS_OWNER_SURROUNDED) {
        int edge = tg_nbr_count(b, p, TG_OFFBOARD);
        if (tg_nbr_count(b, p, TG_BLACK) + edge == 4)
            return TG_BLACK;
        return tg_nbr_count(b, p, TG_WHITE) + edge == 4 ? TG_WHITE : TG_EMPTY;
    }
    int black = tg_nbr_count(b, p, TG_BLACK), white = tg_nbr_count(b, p, TG_WHITE);
    return black && !white ? TG_BLACK : white && !black ? TG_WHITE : TG_EMPTY;
}

/* The area count of a finished playout by the rule: stones plus owned
 * empty points, Black minus White, in half points (no komi).  owner (may
 * be NULL) receives every on-board point's tactics_final_owner. */
int tactics_area_score(const tg_board *b, tactics_owner_rule rule, uint8_t *owner);

/* ---- Cleanup --------------------------------------------------------------- */

typedef struct tactics_cleanup_rule {
    tactics_legal_fn legal;
    const void *context;      /* legal's */
    bool avoid_self_atari;    /* no self-atari of a chain of two stones or more */
    /* the chains in the order of their first stone on the board, rather
     * than of their heads (tg_board's chain_of) */
    bool chains_by_first_stone;
} tactics_cleanup_rule;

/* The moves of c that take dead stones off (kgs-genmove_cleanup): the
 * legal liberties of every chain of the opponent's that dead[] marks, chain
 * after chain (a liberty of two chains twice).  out has room for
 * TG_MAX_POINTS; returns how many. */
int tactics_cleanup_moves(const tg_board *b, tg_color c, const uint8_t *dead, const tactics_cleanup_rule *rule,
                          tg_point *out);

#endif
