/*
 * nakade.h — small eye spaces: the vital point of one (three to five
 * points), and whether a chain thrown in as a sacrifice leaves the
 * opponent an eye space that cannot make two eyes.  The playouts play the
 * vital point and allow such sacrifices; the move model tells them apart
 * from plain self-ataris.
 */
#ifndef TENGEN_TACTICS_NAKADE_H
#define TENGEN_TACTICS_NAKADE_H

#include "tengen/board.h"

/* The vital point of the 3-5 point eye space holding the empty point q,
 * or TG_PASS; *owner (may be NULL) is the colour enclosing it. */
tg_point nakade_point(const tg_board *b, tg_point q, tg_color *owner);

/* Whether c's self-atari at p sacrifices its chain (two to five stones,
 * with p) in a shape whose capture leaves the opponent a dead eye space. */
bool nakade_sacrifice(const tg_board *b, tg_point p, tg_color c);

#endif
