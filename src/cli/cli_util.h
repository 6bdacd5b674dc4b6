/*
 * cli_util.h — small helpers the front ends share: an integer option value,
 * reading a whole file, drawing the board (the options themselves:
 * cli_options.h).
 */
#ifndef TENGEN_CLI_UTIL_H
#define TENGEN_CLI_UTIL_H

#include <stdbool.h>
#include <stdio.h>

#include "tengen/game.h"
#include "tengen/sgf.h"

/* Parse a decimal integer in [lo, hi]; 0 on success. */
int cli_parse_int(const char *text, int lo, int hi, int *out);
/* The whole file (or standard input for "-"), malloc'd and ended by a NUL
 * not counted in its length, *length; NULL with errno set. */
char *cli_read_file(const char *path, size_t *length);
/* The board with coordinates, star points, the last move in brackets,
 * captures and the side to move. */
void cli_print_board(FILE *out, const tg_game *g);
/* The SGF reader's notes on standard error, "PATH:LINE:COL: warning: ...",
 * with a last line for those not kept. */
void cli_print_sgf_notes(const char *path, const tg_sgf_notes *notes);

#endif
