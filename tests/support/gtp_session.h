/*
 * gtp_session.h — helpers for the GTP tests: run a line through a tg_gtp,
 * expect success or a given error, and check that a refused command changed
 * nothing.  Every answer is checked for form as it passes: '=' or '?', no
 * empty line inside, no NUL, closed by exactly one empty line.
 *
 * Returned strings live in static buffers, valid until the next call.
 */
#ifndef TENGEN_TEST_GTP_SESSION_H
#define TENGEN_TEST_GTP_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "tengen/gtp.h"

/* A 19x19 (or `size`) Chinese-rules engine with few playouts. */
tg_gtp *gs_new_engine(int size);
/* Give opt the baseline player (player.h) as its move generator, with this
 * many playouts and seed 1: a fresh one for every engine, as long as no
 * test keeps more than 16 engines at once (they are freed by tg_gtp_free,
 * which knows nothing of the generator). */
void gs_use_baseline(tg_gtp_options *opt, int playouts);

/* Fails the test unless text is one well-formed GTP answer. */
void gs_check_form(const char *text, size_t len);
/* The whole answer to one line, or "" when the line gets none. */
const char *gs_run_len(tg_gtp *e, const char *line, size_t len);
const char *gs_run(tg_gtp *e, const char *line);
/* The answer's text after "= "; fails the test on a '?' answer. */
const char *gs_ok(tg_gtp *e, const char *line);
/* Expects exactly "? message". */
void gs_refused(tg_gtp *e, const char *line, const char *message);

/* Everything a refused command must not change. */
typedef struct gs_snapshot {
    uint64_t hash;
    int moves, size;
    tg_color to_move;
    char board[4096];   /* showboard */
} gs_snapshot;

void gs_take(tg_gtp *e, gs_snapshot *s);
void gs_assert_unchanged(tg_gtp *e, const gs_snapshot *before);
/* gs_refused, and the position is as before. */
void gs_refused_unchanged(tg_gtp *e, const char *line, const char *message);

/* Collects the answers of a byte stream (a tg_gtp_answer_fn). */
typedef struct gs_collected {
    char text[1 << 16];
    size_t len;
    int count;
} gs_collected;

void gs_collect(void *ctx, const char *text, size_t len);
/* Feed len bytes in pieces of `chunk` bytes. */
void gs_feed_in_chunks(tg_gtp *e, const char *data, size_t len, size_t chunk, gs_collected *c);

/* Words in a vertex list (separated by spaces or newlines). */
int gs_count_words(const char *s);

#endif
