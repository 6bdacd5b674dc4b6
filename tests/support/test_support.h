/*
 * test_support.h — helpers shared by the rules tests: positions from ASCII
 * diagrams in the CASES.md format, vertices, the KataGo-style rendering of a
 * game (board with the illegal points of the side to move marked), and the
 * golden transcript runner behind test_rules_cases.
 *
 * Diagram format (as in ../shared/rules/CASES.md): one line per row, the row
 * number first, top row first; `X` Black, `O` White, `.` empty; an optional
 * line of column letters (GTP letters, no I).  In rendered output an empty
 * point the side to move may not play is marked `*` (forbidden point:
 * suicide) or `k` (ko or superko).
 *
 * These helpers do their own vertex parsing so that a bug in the library's
 * parser cannot hide behind the tests that use them.
 */
#ifndef TENGEN_TEST_SUPPORT_H
#define TENGEN_TEST_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "tengen/game.h"
#include "tengen/score.h"
#include "tengen/search.h"

/* The column letter of x (0-based): A..H, J..Z. */
char ts_column_letter(int x);

/* Parse "C3", "c3", "pass" on a board of `size`; returns TG_NO_POINT when the
 * text is not a vertex of that board.  Uses the padded layout of common.h. */
tg_point ts_vertex(int size, const char *text);
/* Write the vertex of p (or "pass") into buf (>= 8 bytes). */
void ts_vertex_name(int size, tg_point p, char *buf);

/* Size of the board a diagram draws (number of numbered rows), 0 when malformed. */
int ts_diagram_size(const char *diagram);
/* Read a diagram into colours indexed by padded point: out[p] for every
 * on-board p (room for TG_MAX_POINTS).  Returns the size, 0 when malformed.
 * Mark characters (`*`, `k`, `+`) read as empty. */
int ts_diagram_read(const char *diagram, uint8_t *out);

/* Put the diagram's stones on an initialised board of the right size with
 * tg_board_set_point.  Returns false when the diagram is malformed. */
bool ts_board_from_diagram(tg_board *b, const char *diagram);
/* Initialise b to the diagram's size and put its stones on it. */
bool ts_board_new_from_diagram(tg_board *b, const char *diagram);

/* A new game under `rules_text` (tg_rules_apply over the default) holding the
 * diagram's stones (tg_game_setup) with `to_move` to play.  NULL on error. */
tg_game *ts_game_from_diagram(const char *rules_text, const char *diagram, tg_color to_move);

/* The point of `vertex` on b; fails the running cmocka test when it is
 * not one. */
tg_point ts_at(const tg_board *b, const char *vertex);
/* b from `size` rows, top row first ('X' Black, 'O' White, '.' empty),
 * the stones played in reading order (so the shape must capture nothing)
 * and the one at `last`, when given, played last; fails the running cmocka
 * test on a malformed row or an illegal stone. */
void ts_board_play_rows(tg_board *b, int size, const char *const *rows, const char *last);

/* Render the board alone (no marks) as a diagram. */
void ts_render_board(const tg_board *b, char *buf, size_t len);
/* Render a game: the board with the illegal empty points of the side to move
 * marked, then one status line ("B to move, captures B 1 W 0" or
 * "game over, result Void"). */
void ts_render_game(const tg_game *g, char *buf, size_t len);

/* The word a transcript uses for a status: ok, occupied, off-board, suicide,
 * ko, superko, wrong-player, game-over, invalid, not-allowed, ...  Under a
 * superko rule an immediate ko recapture is a superko violation, so TG_ERR_KO
 * reads "superko" there. */
const char *ts_status_word(tg_status s, const tg_rules *r);

/* Half points as text: 36 -> "18", 3 -> "1.5", -1 -> "-0.5". */
void ts_half_points(int half_points, char *buf, size_t len);

/* Run the golden transcript at `path` (relative to the tests directory);
 * returns the number of commands whose output differed (or -1 when the file
 * cannot be read) and prints every difference on stderr. */
int ts_golden_run(const char *path);
/* cmocka assertion around ts_golden_run. */
void ts_assert_golden(const char *path);

/* Open a test data file by its path relative to tests/, wherever the test
 * runs from (CTest runs it in tests/; TENGEN_SOURCE_DIR is the fallback). */
FILE *ts_open_data(const char *path);

/* Appending formatted text to a fixed buffer. */
typedef struct ts_text {
    char *buf;
    size_t len, used;
} ts_text;
void ts_text_init(ts_text *t, char *buf, size_t len);
void ts_text_add(ts_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* tg_search_genmove and tg_search_run that must succeed (the test fails
 * otherwise): the move. */
tg_point ts_search_genmove(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits,
                           bool cleanup);
tg_point ts_search_run(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits,
                       double interval_seconds, tg_search_progress_fn progress, void *ctx);
/* The visits of the root's children in the search's last report: more than
 * the decision's playouts when a tree kept from earlier moves was reused. */
long ts_root_visits(const tg_search *s);

#endif
