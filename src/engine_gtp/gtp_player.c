/*
 * gtp_player.c — connects the tree search (tengen/search.h), or the
 * baseline player (tengen/player.h), to the GTP engine (tengen/gtp.h),
 * which knows no player of its own: genmove asks the search with limits
 * taken from, in order, --playouts and --time-per-move, the plan for the
 * player's time (time_settings, kgs-time_settings, time_left, in the clock
 * layer's model), or the defaults.  The dead stones of
 * final_score and final_status_list are the GTP engine's own estimate for
 * the position, the one `tengen score` and the referee make: a search's
 * ownership depends on the tree it reuses and could count one position two
 * ways.
 */
#include <string.h>

#include "engine_gtp/gtp_player.h"
#include "tengen/player.h"

#define DEFAULT_PLAYOUTS 10000

void gtp_player_config_default(gtp_player_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    tg_search_options_default(&cfg->search);
    cfg->lag = 0.3;
    cfg->default_seconds = 10.0;
}

tg_search_limits gtp_player_limits(const gtp_player *p, const tg_game *g, const tg_time_state *time)
{
    tg_search_limits l = {0};
    l.playouts = p->cfg.playouts;
    if (p->cfg.time_per_move > 0) {
        l.seconds = l.max_seconds = p->cfg.time_per_move;
    } else if (!tg_search_time_plan(time, tg_game_board(g), p->cfg.lag, &l) && l.playouts == 0) {
        l.playouts = DEFAULT_PLAYOUTS;
        l.seconds = l.max_seconds = p->cfg.default_seconds;
    }
    return l;
}

static tg_status search_genmove(void *ctx, const tg_game *g, tg_color color, const tg_time_state *time,
                                bool cleanup, unsigned *flags, tg_point *move)
{
    gtp_player *p = ctx;
    tg_search_limits l = gtp_player_limits(p, g, time);
    return tg_search_genmove_choice(p->search, g, color, &l, cleanup, flags, move);
}

/* The baseline player ignores the clock: its playouts bound it. */
static tg_status baseline_genmove(void *ctx, const tg_game *g, tg_color color, const tg_time_state *time,
                                  bool cleanup, unsigned *flags, tg_point *move)
{
    gtp_player *p = ctx;
    (void)time;
    *flags = 0;
    tg_player_options options = {.playouts = p->cfg.playouts, .cleanup = cleanup};
    *move = tg_player_genmove(g, color, &options, &p->rng);
    return TG_OK;
}

bool gtp_player_init(gtp_player *p, const gtp_player_config *cfg)
{
    p->cfg = *cfg;
    p->search = NULL;
    tg_rng_seed(&p->rng, cfg->search.seed);
    if (cfg->baseline)
        return true;
    p->search = tg_search_new(&cfg->search);
    return p->search != NULL;
}

void gtp_player_free(gtp_player *p)
{
    tg_search_free(p->search);
    p->search = NULL;
}

tg_status gtp_player_genmove(gtp_player *p, const tg_game *g, tg_color color, const tg_time_state *time,
                             bool cleanup, unsigned *flags, tg_point *move)
{
    return p->search ? search_genmove(p, g, color, time, cleanup, flags, move)
                     : baseline_genmove(p, g, color, time, cleanup, flags, move);
}

static tg_status hook_genmove(void *ctx, const tg_game *g, tg_color color, const tg_time_state *time,
                              bool cleanup, unsigned *flags, tg_point *move)
{
    return gtp_player_genmove(ctx, g, color, time, cleanup, flags, move);
}

void gtp_player_hook(gtp_player *p, tg_gtp_player *hook)
{
    memset(hook, 0, sizeof *hook);
    hook->ctx = p;
    hook->genmove = hook_genmove;
}
