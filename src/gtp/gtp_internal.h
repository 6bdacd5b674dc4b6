/*
 * gtp_internal.h — what the files of the GTP layer share: the engine
 * struct, the growable text buffer answers are written into, argument
 * parsing helpers, and the command handlers the dispatch table points to.
 *
 *   gtp.c          the engine object, line preprocessing, dispatch, answers
 *   gtp_commands.c the command table and the protocol commands (name, ...)
 *                  and the front end's commands (tg_gtp_extension)
 *   gtp_setup.c    board size, komi, rules, handicap, time settings
 *   gtp_play.c     play, genmove and its variants (tg_gtp_genmove_with), undo,
 *                  is_legal
 *   gtp_report.c   showboard, stones, captures, scoring, SGF files
 */
#ifndef TENGEN_GTP_INTERNAL_H
#define TENGEN_GTP_INTERNAL_H

#include <stdarg.h>

#include "tengen/gtp.h"

/* A growable text buffer; after a failed allocation `failed` stays set and
 * further appends are dropped, so the caller checks once at the end. */
typedef struct gtp_text {
    char *data;
    size_t len, cap;
    bool failed;
} gtp_text;

void gtp_text_append(gtp_text *t, const char *s, size_t n);
void gtp_text_vprintf(gtp_text *t, const char *fmt, va_list ap);
void gtp_text_puts(gtp_text *t, const char *s);
void gtp_text_printf(gtp_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void gtp_text_clear(gtp_text *t);
void gtp_text_free(gtp_text *t);

/* The line being assembled from the input, already preprocessed. */
typedef struct gtp_line {
    char text[TG_GTP_MAX_LINE + 1];
    size_t len;
    bool overlong;       /* more than TG_GTP_MAX_LINE characters arrived */
    bool has_nul;        /* a NUL byte arrived */
    bool in_comment;     /* a '#' arrived: the rest of the line is ignored */
    bool pending_space;  /* whitespace seen after some text, not yet stored */
} gtp_line;

#define GTP_MAX_ARGS 1024

/* The answer of a front-end command (tg_gtp_reply_flush): where it goes
 * while the line is being answered, and how much has gone. */
struct tg_gtp_reply {
    tg_gtp *engine;
    const char *id;           /* the line's id, id_len characters */
    size_t id_len;
    tg_gtp_answer_fn emit;    /* NULL under tg_gtp_execute: flushes collect */
    void *emit_ctx;
    bool streaming;           /* flushed: the header "=id" line has been written */
    bool after_newline;       /* the text sent so far ends a line */
};

/* The dead stones final_score and final_status_list last answered from, and
 * the position they belong to: one position gets one dead list, whichever
 * command asks, until a move (or a change of rules) changes it. */
typedef struct gtp_dead_cache {
    bool valid;
    uint64_t board_hash;
    int size;
    tg_color to_move;
    tg_rules rules;
    uint8_t dead[TG_MAX_POINTS];
} gtp_dead_cache;

struct tg_gtp {
    tg_game *game;
    tg_gtp_read_fn read_file;
    tg_gtp_write_fn write_file;
    void *file_ctx;
    tg_gtp_player player;
    const tg_gtp_extension *extensions;
    int extension_count;
    void *extension_ctx;
    void (*warn)(void *ctx, const char *message);
    void *warn_ctx;
    tg_time_state time[3];  /* [TG_BLACK], [TG_WHITE]: the time settings, what time_left said */
    gtp_dead_cache dead_cache;
    bool quit;
    gtp_line line;
    gtp_text body;      /* the answer's text, written by the handler */
    gtp_text answer;    /* the whole answer, as sent */
    char *argv[GTP_MAX_ARGS];
    tg_gtp_reply reply;       /* of the front-end command running, if any */
    tg_gtp_answer_fn emit;    /* tg_gtp_feed's, while it runs */
    void *emit_ctx;
};

/* A command handler gets the arguments after the command name, writes its
 * result into e->body and returns 0, or returns gtp_fail(e, message). */
typedef int (*gtp_handler)(tg_gtp *e, int argc, char **argv);

typedef struct gtp_command {
    const char *name;
    gtp_handler run;
    int min_args, max_args;   /* anything else is a syntax error */
} gtp_command;

/* Look a command up by name (NULL when unknown). */
const gtp_command *gtp_find_command(const char *name);
/* A front-end command by name (NULL when there is none). */
const tg_gtp_extension *gtp_find_extension(const tg_gtp *e, const char *name);

/* Replace the answer body by an error message; returns -1. */
int gtp_fail(tg_gtp *e, const char *message);

/* ---- Arguments ---------------------------------------------------------- */

/* Equal ignoring ASCII case. */
bool gtp_same_word(const char *a, const char *b);
/* "b", "black", "w", "white" in any case. */
bool gtp_parse_color(const char *s, tg_color *out);
/* A decimal integer in [min, max], the whole token. */
bool gtp_parse_int(const char *s, long min, long max, long *out);
/* A non-negative decimal number of seconds. */
bool gtp_parse_seconds(const char *s, double *out);
/* Seconds as the clock layer counts them (to the millisecond: a time of at
 * most three decimals comes back from tg_time_state exactly as given). */
int64_t gtp_milliseconds(double seconds);
/* New time settings for both colours, nothing said yet of what is left. */
void gtp_set_time_control(tg_gtp *e, const tg_time_control *tc);
/* Colour argument, failing with "invalid color". */
int gtp_arg_color(tg_gtp *e, const char *s, tg_color *out);
/* Vertex argument on the current board, failing with "invalid coordinate". */
int gtp_arg_vertex(tg_gtp *e, const char *s, tg_point *out);

/* Write a point as a vertex ("D4", "pass") into the body. */
void gtp_put_vertex(tg_gtp *e, tg_point p);

/* ---- Game ----------------------------------------------------------------- */

/* Replace the engine's game (the old one is freed). */
void gtp_set_game(tg_gtp *e, tg_game *g);
/* The game a move by `color` is tried on: the engine's own while it is in
 * play, or a resumed copy once two passes or a cycle have ended it (in GTP
 * the controller is the referee, so play goes on; a cycle's outcome stays
 * for final_score).  NULL when that fails.
 * Keep the copy with gtp_commit_game, or drop it with gtp_drop_game. */
tg_game *gtp_game_in_play(tg_gtp *e, tg_color color);
void gtp_commit_game(tg_gtp *e, tg_game *g);
void gtp_drop_game(tg_gtp *e, tg_game *g);

/* ---- Handlers --------------------------------------------------------- */

int gtp_cmd_boardsize(tg_gtp *e, int argc, char **argv);
int gtp_cmd_clear_board(tg_gtp *e, int argc, char **argv);
int gtp_cmd_komi(tg_gtp *e, int argc, char **argv);
int gtp_cmd_kgs_rules(tg_gtp *e, int argc, char **argv);
int gtp_cmd_tengen_rules(tg_gtp *e, int argc, char **argv);
int gtp_cmd_fixed_handicap(tg_gtp *e, int argc, char **argv);
int gtp_cmd_place_free_handicap(tg_gtp *e, int argc, char **argv);
int gtp_cmd_set_free_handicap(tg_gtp *e, int argc, char **argv);
int gtp_cmd_time_settings(tg_gtp *e, int argc, char **argv);
int gtp_cmd_kgs_time_settings(tg_gtp *e, int argc, char **argv);
int gtp_cmd_time_left(tg_gtp *e, int argc, char **argv);

int gtp_cmd_play(tg_gtp *e, int argc, char **argv);
int gtp_cmd_tengen_capture_own(tg_gtp *e, int argc, char **argv);
int gtp_cmd_tengen_genmove_choice(tg_gtp *e, int argc, char **argv);
int gtp_cmd_tengen_predictions(tg_gtp *e, int argc, char **argv);
int gtp_cmd_genmove(tg_gtp *e, int argc, char **argv);
int gtp_cmd_reg_genmove(tg_gtp *e, int argc, char **argv);
int gtp_cmd_genmove_cleanup(tg_gtp *e, int argc, char **argv);
int gtp_cmd_undo(tg_gtp *e, int argc, char **argv);
int gtp_cmd_is_legal(tg_gtp *e, int argc, char **argv);

int gtp_cmd_showboard(tg_gtp *e, int argc, char **argv);
int gtp_cmd_list_stones(tg_gtp *e, int argc, char **argv);
int gtp_cmd_captures(tg_gtp *e, int argc, char **argv);
int gtp_cmd_final_score(tg_gtp *e, int argc, char **argv);
int gtp_cmd_final_status_list(tg_gtp *e, int argc, char **argv);
int gtp_cmd_loadsgf(tg_gtp *e, int argc, char **argv);
int gtp_cmd_printsgf(tg_gtp *e, int argc, char **argv);

#endif
