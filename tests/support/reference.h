/*
 * reference.h — a deliberately simple Go referee for differential testing:
 * the board is a plain 2-D array, captures and liberties are found by flood
 * fill, and repetition is decided by comparing whole boards with every
 * earlier one (no hashes, no incremental state).  It shares no code with
 * libtengen; only the rules' options (ko, suicide, cycle) are read from a
 * tg_rules.
 *
 * What it implements, from RULES.md and CASES.md:
 *   - captures before suicide; single-stone suicide never legal, multi-stone
 *     suicide only when allowed (the mover's chain is then removed and
 *     counts as captured by the opponent);
 *   - simple ko: a move that captures exactly one stone may not recreate the
 *     board as it was before the opponent's last move (when that was a move);
 *   - positional superko: no move may recreate any earlier board; situational
 *     superko: nor any earlier board with the same side to move; passes are
 *     never repetitions;
 *   - two consecutive passes end the game; under simple ko the third
 *     occurrence of a situation (board and side to move) since the last pass
 *     (counting the situation the pass made) ends it as a cycle.
 */
#ifndef TENGEN_TEST_REFERENCE_H
#define TENGEN_TEST_REFERENCE_H

#include "tengen/game.h"

typedef struct ref_situation {
    uint8_t *stones;      /* size*size colours, row-major from the bottom */
    tg_color to_move;
    int count[3];         /* stones of each colour: a cheap filter before comparing */
    bool by_pass;         /* reached by a pass */
    bool by_move;         /* reached by a move (not a pass, not the start or a setup) */
} ref_situation;

typedef struct ref_game {
    int size;
    tg_ko_rule ko;
    bool suicide;
    tg_cycle cycle;
    uint8_t stones[TG_MAX_SIZE * TG_MAX_SIZE];
    int captures[3];      /* stones captured by each colour */
    tg_color to_move;
    int passes;
    bool over;
    tg_result_kind ending; /* TG_RESULT_NONE after two passes; a cycle's outcome otherwise */
    ref_situation *history;
    int nhistory, cap_history;
    /* history entries by their number of black stones, newest first (an
     * exact index, not a hash: only boards with as many black stones can be
     * equal) */
    int first_with_black[TG_MAX_SIZE * TG_MAX_SIZE + 1];
    int *next_with_black;
} ref_game;

void ref_init(ref_game *g, int size, const tg_rules *rules);
void ref_free(ref_game *g);
/* Back to the empty board, Black to move, same size and rules. */
void ref_clear(ref_game *g);
/* Place or remove a stone outside play; the position becomes the new start. */
void ref_setup(ref_game *g, int x, int y, tg_color c);

/* Set the side to move (SGF PL, or White after handicap stones): the
 * current situation is the board with `c` to move. */
void ref_set_to_move(ref_game *g, tg_color c);

static inline tg_color ref_at(const ref_game *g, int x, int y) { return (tg_color)g->stones[y * g->size + x]; }

/* Legality of `c` at (x, y) — x < 0 for a pass — with the status the
 * referee must give: TG_OK, TG_ERR_GAME_OVER, TG_ERR_WRONG_PLAYER,
 * TG_ERR_OCCUPIED, TG_ERR_SUICIDE, TG_ERR_KO (simple ko) or
 * TG_ERR_SUPERKO. */
tg_status ref_check(const ref_game *g, tg_color c, int x, int y);
/* Play it when legal (same status); returns the status. */
tg_status ref_play(ref_game *g, tg_color c, int x, int y);

#endif
