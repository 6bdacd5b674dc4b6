/*
 * player.h — the baseline move generator (`tengen gtp --player baseline`,
 * and the GTP sessions of the tests; the tree search,
 * search.h, is the engine's real player): flat Monte-Carlo over legal moves
 * only, never filling its own true eyes,
 * preferring captures and escapes from atari, passing when nothing useful is
 * left, and capturing dead stones in cleanup mode (kgs-genmove_cleanup).
 */
#ifndef TENGEN_PLAYER_H
#define TENGEN_PLAYER_H

#include "game.h"

typedef struct tg_player_options {
    int playouts;      /* playouts per move decision (0: 20 per candidate point, 400..6000);
                          the ownership estimate uses at most 64 of them */
    bool cleanup;      /* capture dead stones before passing (kgs-genmove_cleanup) */
} tg_player_options;

/* Choose a move for `color` in game g (which is not changed).  Returns a
 * point legal under the game's rules, TG_PASS, or TG_RESIGN. */
tg_point tg_player_genmove(const tg_game *g, tg_color color, const tg_player_options *opt,
                           tg_rng *rng);

#endif
