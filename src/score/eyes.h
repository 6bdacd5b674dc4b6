/*
 * eyes.h — life by two eyes the opponent can never fill, where Benson's
 * test asks too much (private to the score layer; see eyes.c).
 */
#ifndef TENGEN_SCORE_EYES_H
#define TENGEN_SCORE_EYES_H

#include "tengen/board.h"

/* safe[p] = c for every stone of c that lives by two such eyes (where safe[p]
 * is still 0: Benson's verdicts stand). */
void score_two_eye_life(const tg_board *b, uint8_t *safe);

#endif
