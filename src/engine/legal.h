/*
 * legal.h — the game's own legality (superko, the suicide rule) as a
 * legality test of the tactics layer (tactics_legal_fn), for the moves the
 * engine answers with in the game itself rather than in a playout: the
 * baseline player's and the cleanup of dead stones.
 */
#ifndef TENGEN_ENGINE_LEGAL_H
#define TENGEN_ENGINE_LEGAL_H

#include "tactics/tactics.h"
#include "tengen/game.h"

/* game: the tg_game the board b belongs to. */
static inline bool engine_legal_in_game(const void *game, const tg_board *b, tg_point p, tg_color color)
{
    (void)b;
    return tg_game_check(game, color, p, TG_PLAY_ANY_ORDER) == TG_OK;
}

#endif
