/*
 * game.h — a game of Go under a ruleset: turn order, the whole history,
 * superko, passes, the ways a game ends, undo, and the result.
 *
 * The game layer is what a referee or a server holds: it refuses every
 * illegal move (wrong player, occupied point, forbidden point, ko, superko,
 * moves after the end) and leaves the game unchanged when it does.
 * Superko is decided by Zobrist hash and confirmed against the stored
 * positions, never by the hash alone.
 */
#ifndef TENGEN_GAME_H
#define TENGEN_GAME_H

#include "board.h"
#include "rules.h"

typedef enum tg_result_kind {
    TG_RESULT_NONE = 0,   /* the game is not over */
    TG_RESULT_SCORE,      /* counted: winner and margin, or a draw when winner is TG_EMPTY */
    TG_RESULT_RESIGN,
    TG_RESULT_TIME,
    TG_RESULT_FORFEIT,    /* illegal move under the lose policy, second warning, ruling */
    TG_RESULT_NO_RESULT   /* a cycle under simple ko, or a ruling: SGF "Void" */
} tg_result_kind;

typedef struct tg_result {
    tg_result_kind kind;
    tg_color winner;   /* TG_EMPTY for a draw or no result */
    int margin4;       /* margin in quarter points (TG_RESULT_SCORE only): whole
                          halves against a komi, a quarter only against a free
                          opening's threshold of one (tg_result_of_count) */
} tg_result;

/* SGF RE syntax: "B+3.5", "B+0.25", "W+R", "B+T", "W+F", "0" (draw), "Void",
 * "?" (not over); a free opening's count equal to its threshold and decided
 * by decide=yes is "W+0" or "B+0": a win with no margin. */
void tg_result_to_sgf(const tg_result *r, char *buf, size_t len);
/* Parse SGF RE ("B+3.5", "B+0.25", "W+Resign", "Draw", "0", "Void", "?"). */
tg_status tg_result_from_sgf(const char *text, tg_result *r);
/* Quarter points as SGF writes a real: "7", "6.5", "0.25", "-0.75". */
void tg_margin_format(int quarter_points, char *buf, size_t len);
/* The result of a count under `rules`: lead2 is Black's total minus
 * White's in half points, the handicap compensation and any penalty taken
 * but not the komi.  Against the komi; once a free opening's predictions
 * are revealed (rules->revealed), against their mean exactly (002 §5.5:
 * the count difference minus the threshold, a quarter where it is one),
 * and a count equal to it a draw, or under decide=yes a win by 0 for the
 * colour the threshold favours (White at 0). */
tg_result tg_result_of_count(const tg_rules *rules, int lead2);
/* As the Chinese rules state it, in stones (1 stone = 2 points):
 * "Black wins by ¾ stone", "White wins by 1¾ stones" / "黑胜3/4子", "白胜1又3/4子" (chinese != 0).  Non-score results
 * are worded too ("White wins by resignation", "白中盘胜"). */
void tg_result_in_stones(const tg_result *r, bool chinese, char *buf, size_t len);
/* The same as a referee states it under `rules`: under the free-opening
 * ruleset (002 §5.5 example 4) a count is stated against the threshold,
 * "White wins by 0.5 stone" / "白0.5子胜" (the margin beyond the threshold,
 * in stones of count difference: tg_threshold_result_text), a draw as
 * "Draw" / "和"; every other ruleset and ending as tg_result_in_stones. */
void tg_result_stated(const tg_rules *rules, const tg_result *r, bool chinese, char *buf, size_t len);

typedef struct tg_move {
    tg_color color;
    tg_point point;   /* TG_PASS for a pass */
} tg_move;

typedef struct tg_game tg_game;

/* A new game on an empty board; NULL when out of memory or the size is not 2..25. */
tg_game *tg_game_new(int size, const tg_rules *rules);
void tg_game_free(tg_game *g);
/* Clear the board and the history, keeping size and rules. */
void tg_game_clear(tg_game *g);
/* A deep copy (for a search to play on). */
tg_game *tg_game_clone(const tg_game *g);

const tg_board *tg_game_board(const tg_game *g);
const tg_rules *tg_game_rules(const tg_game *g);
/* Change the rules (komi, ko rule, ...) of a game in progress. */
void tg_game_set_rules(tg_game *g, const tg_rules *rules);
int tg_game_size(const tg_game *g);
tg_color tg_game_to_move(const tg_game *g);
int tg_game_move_count(const tg_game *g);
const tg_move *tg_game_move(const tg_game *g, int i);
int tg_game_handicap(const tg_game *g);
int tg_game_consecutive_passes(const tg_game *g);
bool tg_game_over(const tg_game *g);
const tg_result *tg_game_result(const tg_game *g);

/* Flags for play/check. */
#define TG_PLAY_ANY_ORDER 1u  /* the colour need not be the side to move (GTP play) */
/* The capture choice (rules.capture_choice, 002 §4.3): where the move leaves
 * chains of both colours without liberties, the mover's own are removed
 * rather than the opponent's.  TG_ERR_NOT_ALLOWED where there is no choice. */
#define TG_PLAY_CAPTURE_OWN 2u

/* Whether `color` may play `point` now (TG_PASS is always legal while the
 * game goes on).  Changes nothing. */
tg_status tg_game_check(const tg_game *g, tg_color color, tg_point point, unsigned flags);
/* Play it: on any error the game is unchanged.  Two passes in a row end the
 * game (the result then waits for tg_game_set_score); a third occurrence of
 * a situation under simple ko ends it per the cycle option. */
tg_status tg_game_play(tg_game *g, tg_color color, tg_point point, unsigned flags);
/* Undo the last move (or the end state a resignation/time-out set).  Under
 * opening=free never one of the opening's stones (002 §2.4: the predictions
 * stand on them): TG_ERR_NOT_ALLOWED, as with nothing to undo. */
tg_status tg_game_undo(tg_game *g);
/* A move as text: a vertex ("D4", "pass") or, where own_ok, "VERTEX own"
 * for the capture choice (*flags TG_PLAY_CAPTURE_OWN; else 0); blanks
 * around the words allowed.  TG_ERR_PARSE for anything else, and
 * TG_ERR_OFF_BOARD as tg_vertex_parse. */
tg_status tg_move_parse(const tg_board *b, const char *text, bool own_ok, tg_point *p, unsigned *flags);
/* Whether move i (0-based) took the capture choice (TG_PLAY_CAPTURE_OWN). */
bool tg_game_move_captured_own(const tg_game *g, int i);

/* Handicap stones for Black, only on an empty board before any move; White
 * moves next.  n < 2 is rejected (one stone is no handicap). */
tg_status tg_game_place_handicap(tg_game *g, const tg_point *points, int n);
/* The standard fixed handicap points of GTP for n stones; returns the count
 * written, or 0 when n is not allowed on this size. */
int tg_fixed_handicap_points(const tg_board *b, int n, tg_point *out);

/* Setup outside play (SGF AB/AW/AE): stones placed without capture.  Allowed
 * at any time; the position becomes the new base for superko. */
tg_status tg_game_setup(tg_game *g, tg_point p, tg_color c);
/* The handicap and setup stones in the order they were placed; before_move
 * is the number of moves played before them.  Undo never goes back past a
 * setup made after moves. */
typedef struct tg_setup {
    tg_point point;
    tg_color color;      /* TG_EMPTY: the point was cleared (SGF AE) */
    int before_move;
    bool handicap;       /* placed by tg_game_place_handicap */
} tg_setup;
int tg_game_setup_count(const tg_game *g);
const tg_setup *tg_game_setup_at(const tg_game *g, int i);
/* Set the side to move (SGF PL). */
void tg_game_set_to_move(tg_game *g, tg_color c);

/* Ending a game other than by counting. */
tg_status tg_game_resign(tg_game *g, tg_color loser);
tg_status tg_game_lose_on_time(tg_game *g, tg_color loser);
tg_status tg_game_forfeit(tg_game *g, tg_color loser);
tg_status tg_game_no_result(tg_game *g);
/* Reopen a game ended by two passes whose dead stones are disputed (C9):
 * play resumes with `first` (the player who claims a group dead) to move.
 * Not allowed once a result is recorded. */
tg_status tg_game_resume(tg_game *g, tg_color first);
/* Play on after a repetition ended the game (simple ko, the cycle option)
 * where the referee lets play go on: in GTP the controller is the referee.
 * The game is open again, its result cleared; the cycle's outcome stays in
 * tg_game_cycle_result.  TG_ERR_NOT_ALLOWED unless the last move ended the
 * game by a cycle. */
tg_status tg_game_play_on(tg_game *g);
/* The outcome of the last cycle still in the history (undo past its move
 * forgets it): TG_RESULT_NO_RESULT, or a draw under cycle=draw; kind
 * TG_RESULT_NONE when there was none. */
tg_result tg_game_cycle_result(const tg_game *g);
/* Record the counted result of a finished game (after two passes). */
void tg_game_set_result(tg_game *g, const tg_result *r);

/* The position as text (GTP showboard, the terminal): coordinates, stones
 * X and O, star points +, the last move framed "(X)", then captures, the
 * last move and the side to move, without a final newline.  Writes at most
 * len bytes (NUL included) and returns the length the whole text needs;
 * 4096 bytes hold any board. */
size_t tg_game_render(const tg_game *g, char *buf, size_t len);
/* Star points: the fixed handicap points (9 from 13x13 up, 5 on smaller odd
 * boards, 4 on small even ones, none under 7x7). */
bool tg_board_is_star_point(const tg_board *b, tg_point p);

/* The situations of the game since its base (the last setup), oldest
 * first, the current one last: the stones' Zobrist hash (tg_board's), the
 * side to move and the number of stones on the board (either may be
 * NULL), for a search that must not repeat them. */
int tg_game_situation_count(const tg_game *g);
uint64_t tg_game_situation_hash(const tg_game *g, int i, tg_color *to_move, int *stones);

/* Hash identifying the current situation (stones, and the side to move
 * under situational superko). */
uint64_t tg_game_hash(const tg_game *g);

#endif
