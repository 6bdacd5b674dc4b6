/*
 * score.h — counting a finished position: area (Chinese), territory
 * (Japanese), the group tax, and the dead stones that counting needs:
 * Benson's unconditional life and a Monte-Carlo ownership estimate.
 *
 * Dead stones are given by the caller (the players' agreement) as a mask of
 * points, or come from tg_estimate_dead().
 */
#ifndef TENGEN_SCORE_H
#define TENGEN_SCORE_H

#include "game.h"

typedef struct tg_score {
    /* indexed by TG_BLACK / TG_WHITE */
    int stones[3];      /* live stones on the board */
    int territory[3];   /* empty points surrounded by one colour only */
    int prisoners[3];   /* stones captured in play plus dead stones removed */
    int groups_taxed[3];/* independently living groups (tax=all) */
    int dame;           /* empty points touching both colours (and seki points) */
    int handicap_points;/* compensation added to White */
    int komi2;
    /* Totals in half points.  Area: stones + territory, and under tax=none
     * dame/2 (C10: dame and seki points shared half and half); under
     * tax=seki/all seki points count nothing.  Territory: territory +
     * prisoners.  Both minus 2 points per taxed group. */
    int black2, white2;
    tg_result result;   /* black2 - white2 - komi2 - 2*handicap_points decides it */
} tg_score;

/* Count the board under the rules.  dead[p] != 0 marks a dead stone
 * (may be NULL: none dead).  `handicap` is the number of handicap stones. */
void tg_score_board(const tg_board *b, const tg_rules *r, const uint8_t *dead, int handicap,
                    tg_score *out);

/* Count a game: its board, rules, handicap and prisoners. */
void tg_score_game(const tg_game *g, const uint8_t *dead, tg_score *out);

/* The territory of that count point by point: territory[p] is the colour
 * whose territory p is (an empty point, or the point of a dead stone taken
 * off, surrounded by that colour and counted to it), TG_EMPTY for live
 * stones, dame, seki points and what tg_score_board counts as dame under
 * the tax or territory counting.  territory has room for TG_MAX_POINTS.
 * (What SGF's TB and TW record at the end of a counted game.) */
void tg_score_territory(const tg_board *b, const tg_rules *r, const uint8_t *dead,
                        uint8_t *territory);

/* Benson's algorithm: safe[p] = colour whose unconditionally alive chain
 * stands on p, or whose unconditional territory (vital region) p is;
 * TG_EMPTY elsewhere.  safe has room for TG_MAX_POINTS. */
void tg_benson(const tg_board *b, uint8_t *safe);

/* Ownership in [-1, 1] per point (+1 Black) from `playouts` random playouts
 * starting with to_move.  ownership has room for TG_MAX_POINTS. */
void tg_ownership(const tg_board *b, tg_color to_move, const tg_rules *r, int playouts,
                  tg_rng *rng, float *ownership);

/* Dead stones of a finished position, judged by group (same-coloured chains
 * sharing a liberty live or die together): a group is dead when the
 * ownership of its stones and liberties leans to the opponent, or leans its
 * own way only a little while every opponent group around it leans surely
 * the other (it is surrounded for good), never when
 * Benson says it is unconditionally alive or it lives by two eyes the
 * opponent can never fill (chains joined by double connections), always when Benson gives its
 * points to the opponent; and dead when its only eye space holds opponent
 * stones short of liberties whose capture leaves it one eye (a seki that is
 * no seki, a nakade), those stones then living.  dead has room for
 * TG_MAX_POINTS.  Under dead=keep rules nothing is dead. */
void tg_estimate_dead(const tg_board *b, tg_color to_move, const tg_rules *r, int playouts,
                      tg_rng *rng, uint8_t *dead);

/* The count as the rules state it, for a person to check the arithmetic
 * (issue 41): each side's points and their parts, the komi and handicap
 * compensation, the difference, and the result in points and, under area
 * counting, in stones:
 *   Count (area counting): Black 40 = 36 stones + 3 territory + 1 (half of 2 dame)
 *                          White 41 = 35 stones + 5 territory + 1 (half of 2 dame)
 *   Black 40 - White 41 - komi 7.5 = -8.5 points for Black
 *   Result: W+8.5 — White wins by 4¼ stones (白胜4又1/4子; 1 stone = 2 points)
 * Lines end with '\n' except the last.  Writes at most len bytes (NUL
 * included) and returns the length written. */
size_t tg_score_explain(const tg_score *s, const tg_rules *r, char *buf, size_t len);

/* Ownership playouts of the position's own estimate (tg_game_estimate_dead). */
#define TG_DEAD_PLAYOUTS 1000

/* The dead stones of the game's position as every front end counts them
 * (`tengen score`, GTP final_score and final_status_list, the referee):
 * tg_estimate_dead with the rng seeded from `seed` and the position itself
 * (stones, side to move, size), so that one position gets one answer however
 * often and by whichever command it is asked.  playouts <= 0 means
 * TG_DEAD_PLAYOUTS; seed 0 is the default of every front end. */
void tg_game_estimate_dead(const tg_game *g, int playouts, uint64_t seed, uint8_t *dead);

#endif
