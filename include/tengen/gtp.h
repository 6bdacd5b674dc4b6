/*
 * gtp.h — the Go Text Protocol version 2 engine as a library object.
 *
 * A tg_gtp holds one game and answers GTP command lines about it.  It never
 * reads or writes a stream itself: the front end (the `tengen gtp` command,
 * a test, a fuzzer) hands it bytes and receives each answer as text, ready to
 * be written out ("=id result\n\n" or "?id message\n\n").
 *
 * Input is preprocessed as the specification says: control characters other
 * than HT and LF are removed, HT becomes a space, everything from '#' on is a
 * comment, and empty lines are ignored.  Every other line gets exactly one
 * answer whatever its bytes: a line holding a NUL byte, or one longer than
 * TG_GTP_MAX_LINE characters after preprocessing, is answered with an error
 * and changes nothing.
 *
 * Files (loadsgf, printsgf FILE) are reached only through the callbacks in
 * tg_gtp_options, so an engine without them touches no file; moves likewise
 * come only from the caller's move generator (tg_gtp_player): the protocol
 * knows no player, and its clock is the clock layer's time model (clock.h).
 *
 * The front end may add commands of its own (tg_gtp_extension), which can
 * answer while they run: `tengen gtp` streams lz-analyze this way.
 */
#ifndef TENGEN_GTP_H
#define TENGEN_GTP_H

#include "clock.h"
#include "game.h"

/* Longest command line accepted, counted after preprocessing (runs of
 * spaces count as one, comments not at all).  Longer lines are refused. */
#define TG_GTP_MAX_LINE 65536

/* Read a whole file: on TG_OK *data is malloc'd (the engine frees it). */
typedef tg_status (*tg_gtp_read_fn)(void *ctx, const char *path, char **data, size_t *len);
/* Write a whole file. */
typedef tg_status (*tg_gtp_write_fn)(void *ctx, const char *path, const char *data, size_t len);
/* Receives one complete answer (tg_gtp_feed). */
typedef void (*tg_gtp_answer_fn)(void *ctx, const char *text, size_t len);

/* A move for color in g in *move: a legal point, TG_PASS or TG_RESIGN.
 * time is color's time: the time settings and what time_left last said of
 * it (tg_gtp_time_of); cleanup is set for kgs-genmove_cleanup.  *flags
 * holds on entry the play flags (game.h) the command can answer with:
 * TG_PLAY_CAPTURE_OWN for tengen-genmove_choice, none for genmove; the
 * generator sets it to the move's (a flag it was not offered makes the
 * move illegal, and a pass is played).  TG_OK, or
 * why there is no move (the command then fails: TG_ERR_NO_MEMORY answers
 * "? out of memory"). */
typedef tg_status (*tg_gtp_genmove_fn)(void *ctx, const tg_game *g, tg_color color, const tg_time_state *time,
                                       bool cleanup, unsigned *flags, tg_point *move);

/* The move generator behind genmove, reg_genmove and kgs-genmove_cleanup,
 * supplied by the caller (`tengen gtp`: the tree search or the baseline
 * player): the protocol knows no player of its own.  With no genmove those
 * commands answer "no move generator". */
typedef struct tg_gtp_player {
    void *ctx;
    tg_gtp_genmove_fn genmove;
    /* Dead stones for final_score and final_status_list (dead[p] = 1),
     * asked once per position: the engine keeps the answer until a move or
     * the rules change it.  NULL: the position's estimate of score.h
     * (tg_game_estimate_dead), as `tengen score` counts. */
    void (*dead_stones)(void *ctx, const tg_game *g, uint8_t *dead);
} tg_gtp_player;

typedef struct tg_gtp tg_gtp;

/* The command that tells an engine c's move p: "play b D4", or with
 * TG_PLAY_CAPTURE_OWN in flags "tengen-capture_own b D4". */
void tg_gtp_move_command(const tg_board *b, tg_color c, tg_point p, unsigned flags, char *buf, size_t len);

/* ---- Commands added by the front end ------------------------------------ */

/* The answer of a front-end command while it is being written. */
typedef struct tg_gtp_reply tg_gtp_reply;

/* A command the front end adds to the engine (the analysis commands of
 * `tengen gtp`): listed by list_commands and known_command after the
 * engine's own, which it cannot replace.  run gets the arguments after the
 * name (their count already checked against min_args..max_args), writes
 * its answer with tg_gtp_reply_printf and returns true, or returns
 * tg_gtp_reply_fail(reply, message). */
typedef struct tg_gtp_extension {
    const char *name;
    int min_args, max_args;
    bool (*run)(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply);
} tg_gtp_extension;

/* Append to the answer's text. */
void tg_gtp_reply_printf(tg_gtp_reply *reply, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Send the text written so far now, for commands that answer while they
 * run (lz-analyze).  The first flush makes the answer a success whose
 * header "=id" stands on a line of its own, every line of text following
 * it; under tg_gtp_feed each flush goes to `emit` at once (under
 * tg_gtp_execute the parts make up one answer), and the closing empty line
 * follows when the command returns.  A failure after a flush ends the
 * answer with the message as its last line. */
void tg_gtp_reply_flush(tg_gtp_reply *reply);

/* Make the answer an error with this message (unless already flushed);
 * returns false, for `return tg_gtp_reply_fail(reply, "...")`. */
bool tg_gtp_reply_fail(tg_gtp_reply *reply, const char *message);

/* genmove for a front-end command that chooses the move its own way
 * (lz-genmove_analyze reports the search as it goes): the move for color
 * is asked of `genmove` (NULL: the engine's move generator, as genmove
 * does) and then handled exactly as genmove handles it — asked on the same
 * game (resumed when two passes had ended it), an illegal answer made a
 * pass, played so that undo takes it back; TG_RESIGN is not played.  kgs-
 * genmove_cleanup's variant when cleanup is set.  *move is the move; a
 * game that cannot go on (a cycle ended it without result) gets TG_PASS
 * without asking.  TG_OK, or why the move was not played: a checked move
 * fails only for want of memory (TG_ERR_NO_MEMORY), and TG_ERR_NOT_ALLOWED
 * when there is no generator to ask. */
tg_status tg_gtp_genmove_with(tg_gtp *gtp, tg_color color, bool cleanup, tg_gtp_genmove_fn genmove, void *ctx,
                              tg_point *move);

typedef struct tg_gtp_options {
    int size;                    /* initial board size, 2..25 */
    tg_rules rules;              /* initial rules, komi included */
    tg_gtp_read_fn read_file;    /* NULL: loadsgf answers "cannot load file" */
    tg_gtp_write_fn write_file;  /* NULL: printsgf FILE answers "cannot save file" */
    void *file_ctx;              /* passed to both */
    tg_gtp_player player;        /* the move generator (zeroed: none) */
    const tg_gtp_extension *extensions; /* the front end's own commands */
    int extension_count;
    void *extension_ctx;         /* passed to their run */
    /* Warnings for the person behind the controller, which the protocol
     * has no room for (loadsgf: rules the record names that tengen does
     * not know, what the reader repaired), one sentence each; the front
     * end shows them on standard error.  NULL: dropped. */
    void (*warn)(void *ctx, const char *message);
    void *warn_ctx;
} tg_gtp_options;

/* 19x19, Chinese rules, no move generator, no file access. */
void tg_gtp_options_default(tg_gtp_options *opt);

/* NULL when out of memory or the options are invalid (size not 2..25). */
tg_gtp *tg_gtp_new(const tg_gtp_options *opt);
void tg_gtp_free(tg_gtp *gtp);

typedef struct tg_gtp_answer {
    const char *text;  /* the whole answer with its closing blank line, or NULL
                          when the line was empty or a comment; valid until the
                          next call on this engine */
    size_t len;
    bool error;        /* a '?' answer */
} tg_gtp_answer;

/* Execute one command line (len bytes, need not be NUL-terminated; an LF
 * inside it counts as a space).  Returns true when it was `quit`: the answer
 * is then given and the front end should stop. */
bool tg_gtp_execute(tg_gtp *gtp, const char *line, size_t len, tg_gtp_answer *answer);

/* Stream interface: feed bytes as they arrive, in chunks of any size; each
 * line is executed when its LF arrives and its answer passed to `emit`.
 * Returns true once `quit` has been executed; later bytes are ignored. */
bool tg_gtp_feed(tg_gtp *gtp, const char *data, size_t len, tg_gtp_answer_fn emit, void *ctx);
/* End of input: a last line without its LF is executed.  Returns as feed. */
bool tg_gtp_finish(tg_gtp *gtp, tg_gtp_answer_fn emit, void *ctx);

/* ---- State, for front ends, tests and the search ------------------------ */

const tg_game *tg_gtp_game(const tg_gtp *gtp);

/* The time of `color` (TG_BLACK or TG_WHITE) in the clock layer's model:
 * the settings of time_settings / kgs-time_settings (none, absolute,
 * byo-yomi, Canadian; "time_settings M P 0" with P > 0 means no limit) and
 * what time_left last said (until it speaks, all of the time is left; new
 * settings forget it).  Times are kept to the millisecond. */
const tg_time_state *tg_gtp_time_of(const tg_gtp *gtp, tg_color color);

#endif
