/*
 * ladder.h — reading ladders (shicho): whether a chain short of liberties
 * is captured however it runs.  The playouts read one before running from
 * an atari, the move model's features before calling an atari or an
 * escape good.
 */
#ifndef TENGEN_TACTICS_LADDER_H
#define TENGEN_TACTICS_LADDER_H

#include "tengen/board.h"

/* The chain at q is in atari and its side is to move: is it captured
 * however it runs (a ladder that works)? */
bool ladder_captured(const tg_board *b, tg_point q);
/* The chain at q has two liberties and the other side is to move: does an
 * atari on one of them capture it in a ladder? */
bool ladder_attack_works(const tg_board *b, tg_point q);

#endif
