/*
 * record_line.h — what the training tools (gen_policy, train_model,
 * gen_value) share: the moves of a game record written one game a line
 * (";B[pd];W[dp]...", the computer-go-dataset's form), and an integer
 * option checked against its range.  Header only, for the programs under
 * tools/; the library's SGF reader is src/sgf.
 */
#ifndef TENGEN_TOOLS_RECORD_LINE_H
#define TENGEN_TOOLS_RECORD_LINE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/board.h"

/* The next move of the line from *s on: true with its colour and point
 * (TG_PASS for "[]" or "[tt]"), *s past its ';'; false at the line's end or
 * at anything but a move on a size x size board.  Whether the move is legal
 * on the caller's board is the caller's to check. */
static inline bool record_next_move(const char **s, int size, const tg_board *b, tg_color *c, tg_point *p)
{
    const char *m = strchr(*s, ';');
    if (!m)
        return false;
    m++;
    *s = m;
    if ((m[0] != 'B' && m[0] != 'W') || m[1] != '[')
        return false;
    *c = m[0] == 'B' ? TG_BLACK : TG_WHITE;
    if (m[2] == ']' || (m[2] == 't' && m[3] == 't')) {
        *p = TG_PASS;
        return true;
    }
    int x = m[2] - 'a', y = m[3] - 'a';
    if (x < 0 || x >= size || y < 0 || y >= size || m[4] != ']')
        return false;
    *p = tg_point_at(b, x, y);
    return true;
}

/* The integer v of option flag in lo..hi; else the program (prog) says so
 * and exits 2. */
static inline long record_option_long(const char *prog, const char *flag, const char *v, long lo, long hi)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || *end || x < lo || x > hi) {
        fprintf(stderr, "%s: %s wants an integer in %ld..%ld, not '%s'\n", prog, flag, lo, hi, v);
        exit(2);
    }
    return x;
}

#endif
