/*
 * cli_util.h — small helpers the front ends share: option values, reading
 * a line from a person or a whole file, drawing the board.
 */
#ifndef TENGEN_CLI_UTIL_H
#define TENGEN_CLI_UTIL_H

#include <stdbool.h>
#include <stdio.h>

#include "tengen/game.h"

/* Parse a decimal integer in [lo, hi]; 0 on success. */
int cli_parse_int(const char *text, int lo, int hi, int *out);
/* Print "tengen CMD: bad value V for OPTION" and return -1. */
int cli_bad_value(const char *cmd, const char *option, const char *value);
/* Read one line without its end of line and surrounding blanks; the rest of
 * an overlong line is discarded.  False at end of input. */
bool cli_read_line(FILE *in, char *buf, size_t len);
/* The whole file (or standard input for "-"), malloc'd, its length in
 * *length; NULL with errno set. */
char *cli_read_file(const char *path, size_t *length);
/* The board with coordinates, star points, the last move in brackets,
 * captures and the side to move. */
void cli_print_board(FILE *out, const tg_game *g);

#endif
