/*
 * free_opening.h — the sealed predictions of the free-opening ruleset of
 * 002 (§5.3; RULES.md §4): after the four opening stones each player
 * states the final margin they expect as "a colour ahead by N stones"
 * (the difference of the two sides' counts on the board: 002's "white
 * ahead by 7" is White 184 to Black 177 on 19x19), without seeing the
 * other's.  The player who rates a colour higher takes it (equal: the
 * first player takes White and moves first); the threshold is the mean of
 * the two predictions, and that colour wins when the actual margin is
 * greater, loses when smaller, and draws when equal (or, where a decision
 * is required, wins when greater or equal).
 *
 * Margins are signed for White: W+7 is +7, B+6 is -6.  A prediction is in
 * half stones (halves allowed), a threshold, a mean of two, in quarters.
 */
#ifndef TENGEN_FREE_OPENING_H
#define TENGEN_FREE_OPENING_H

#include "common.h"
#include "game.h"
#include "rules.h"

/* The free opening's stone i (0..3): who places it, 0 the first player
 * and 1 the second (002 §5.2: stones 1 and 4 are the first player's, 2 and
 * 3 the second's), and its fixed colour (White, Black, White, Black). */
int tg_opening_placer(int i);
tg_color tg_opening_colour(int i);

/* "W+7", "B+6", "W+6.5", "0" (case-insensitive; at most 1000 stones) to
 * half stones for White.  TG_ERR_PARSE for anything else. */
tg_status tg_prediction_parse(const char *text, int *white_margin2);
/* An engine's answer as its prediction: tengen-predict's ("W+7"), or a
 * final_score given at komi 0 ("W+3.5", "0"), whose margin in points is the
 * difference of the counts.  TG_ERR_PARSE for anything else (a resignation,
 * a margin over 1000 stones). */
tg_status tg_prediction_from_engine(const char *answer, int *white_margin2);
/* Half stones back to "W+7", "B+6.5", "0". */
void tg_prediction_format(int white_margin2, char *buf, size_t len);

typedef struct tg_predictions {
    int first2, second2;        /* the first and the second player's, half stones */
    int threshold4;             /* their mean, quarter stones, for White */
    bool first_takes_white;     /* the first player takes White (and moves first) */
} tg_predictions;

/* Reveal both predictions (002 §5.3.1-2). */
void tg_predictions_decide(int first2, int second2, tg_predictions *out);
/* The komi (half points, given to White) that counts against a threshold
 * in quarter stones: the threshold with its sign turned; a quarter decides
 * as the half stone between its whole neighbours, as the difference of the
 * counts on the board is a whole number of stones. */
int tg_threshold_komi2(int threshold4);
/* The same where a decision is required (the rules' decide=yes): a count
 * equal to a whole threshold wins for the colour it favours (White when it
 * is 0 or more), so the komi moves half a point that colour's way. */
int tg_threshold_komi2_decisive(int threshold4, bool decisive);
/* The predictions revealed into a ruleset (002 §5.3.2): r keeps both, a
 * count is then against their mean exactly (tg_result_of_count), and the
 * komi becomes tg_threshold_komi2_decisive of it, for the engine and SGF
 * KM.  Every front end reveals through this one function. */
void tg_rules_reveal(tg_rules *r, int first2, int second2);
/* The same on a game's rules (a record read back with its PF and PS, a
 * GTP controller's tengen-predictions); nothing where they have no free
 * opening. */
void tg_game_reveal(tg_game *g, int first2, int second2);
/* A threshold in quarter stones as "W+6.5", "B+0.5", "W+6.25", "0". */
void tg_threshold_format(int threshold4, char *buf, size_t len);

/* The verdict on an actual margin (White's, half stones counted on the
 * board): the winner (TG_EMPTY: a draw) and by how much beyond the
 * threshold, in quarter stones.  `decisive`: equal is a win for the
 * colour the threshold favours (White when it is 0 or more). */
tg_color tg_threshold_verdict(int threshold4, int white_margin2, bool decisive, int *by4);
/* "White wins by 0.5 stone" / "白0.5子胜" (002 §5.5 example 4), a quarter
 * as a quarter, "Black wins by ¼ stone" / "黑1/4子胜", "White wins by
 * 34¼ stones" / "白34又1/4子胜"; a count equal to the threshold decided by
 * decide=yes, "White wins by 0 stones" / "白0子胜"; "Draw" / "和". */
void tg_threshold_result_text(tg_color winner, int by4, bool chinese, char *buf, size_t len);

#endif
