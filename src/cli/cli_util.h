/*
 * cli_util.h — small helpers the front ends share: option values, reading
 * a whole file, drawing the board.
 */
#ifndef TENGEN_CLI_UTIL_H
#define TENGEN_CLI_UTIL_H

#include <stdbool.h>
#include <stdio.h>

#include "tengen/game.h"
#include "tengen/sgf.h"

/* Parse a decimal integer in [lo, hi]; 0 on success. */
int cli_parse_int(const char *text, int lo, int hi, int *out);
/* Print "tengen CMD: bad value V for OPTION" and return -1. */
int cli_bad_value(const char *cmd, const char *option, const char *value);
/* The whole file (or standard input for "-"), malloc'd and ended by a NUL
 * not counted in its length, *length; NULL with errno set. */
char *cli_read_file(const char *path, size_t *length);
/* --model FILE or --value-net FILE (option names which): read the
 * weights file and hand it to the search; 0, or -1 after saying why. */
int cli_load_weights(const char *cmd, const char *option, const char *path);
/* The board with coordinates, star points, the last move in brackets,
 * captures and the side to move. */
void cli_print_board(FILE *out, const tg_game *g);
/* The SGF reader's notes on standard error, "PATH:LINE:COL: warning: ...",
 * with a last line for those not kept. */
void cli_print_sgf_notes(const char *path, const tg_sgf_notes *notes);

#endif
