/*
 * gtp_player.h — the GTP engine's move generator (tg_gtp_player), handed
 * to tg_gtp_new by its caller: the tree search with its options (threads,
 * memory, playouts, time), or the baseline player (player.h) for
 * `--player baseline` and the tests.
 */
#ifndef TENGEN_ENGINE_GTP_GTP_PLAYER_H
#define TENGEN_ENGINE_GTP_GTP_PLAYER_H

#include "tengen/gtp.h"
#include "tengen/search.h"

typedef struct gtp_player_config {
    bool baseline;              /* --player baseline: the flat Monte-Carlo player */
    tg_search_options search;   /* --threads, --max-memory, --resign-threshold, --seed (the
                                   baseline player's seed too) */
    int playouts;               /* --playouts per move (0: time decides; the baseline
                                   player: its defaults) */
    double time_per_move;       /* --time-per-move seconds (0: the clock or defaults decide) */
    double lag;                 /* --lag seconds kept in reserve for the controller's lag */
    double default_seconds;     /* without a clock or a budget: at most this a move */
} gtp_player_config;

/* Defaults: the search, 1 thread, 256 MiB; without a clock or budget,
 * 10,000 playouts or 10 s a move, whichever comes first. */
void gtp_player_config_default(gtp_player_config *cfg);

typedef struct gtp_player {
    gtp_player_config cfg;
    tg_search *search;          /* NULL for the baseline player */
    tg_rng rng;                 /* the baseline player's */
} gtp_player;

/* false when out of memory. */
bool gtp_player_init(gtp_player *p, const gtp_player_config *cfg);
void gtp_player_free(gtp_player *p);
/* The limits of genmove's search for color in g: --playouts and
 * --time-per-move, else the plan for color's time, else the defaults (for
 * the genmove_analyze commands, which search as genmove does). */
tg_search_limits gtp_player_limits(const gtp_player *p, const tg_game *g, const tg_time_state *time);
/* p's move for color in g, with color's time (none: system TG_CLOCK_NONE):
 * the search's (tg_search_genmove, cleanup for kgs-genmove_cleanup) or the
 * baseline player's.  TG_OK, or why the search could not run. */
tg_status gtp_player_genmove(gtp_player *p, const tg_game *g, tg_color color, const tg_time_state *time,
                             bool cleanup, unsigned *flags, tg_point *move);
/* The GTP engine's move generator (tg_gtp_options.player): p's genmove. */
void gtp_player_hook(gtp_player *p, tg_gtp_player *hook);

#endif
