/*
 * gtp_player.c — connects the tree search (tengen/search.h) to the GTP
 * engine (tengen/gtp.h): genmove asks the search with limits taken from,
 * in order, --playouts and --time-per-move, the GTP clock (time_settings,
 * kgs-time_settings, time_left), or the defaults.  The dead stones of
 * final_score and final_status_list are the GTP engine's own estimate for
 * the position, the one `tengen score` and the referee make: a search's
 * ownership depends on the tree it reuses and could count one position two
 * ways.
 */
#include <string.h>

#include "cli/gtp_player.h"
#include "tengen/score.h"

#define DEFAULT_PLAYOUTS 10000
#define DEFAULT_SECONDS 10.0

void gtp_player_config_default(gtp_player_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    tg_search_options_default(&cfg->search);
    cfg->lag = 0.3;
}

tg_search_limits gtp_player_limits(const gtp_player *p, const tg_game *g, tg_color color,
                                   const tg_gtp_clock *clock)
{
    tg_search_limits l = {0};
    l.playouts = p->cfg.playouts;
    if (p->cfg.time_per_move > 0) {
        l.seconds = l.max_seconds = p->cfg.time_per_move;
    } else if (!tg_search_time_plan(clock, color, tg_game_board(g), p->cfg.lag, &l) && l.playouts == 0) {
        l.playouts = DEFAULT_PLAYOUTS;
        l.seconds = l.max_seconds = DEFAULT_SECONDS;
    }
    return l;
}

static tg_status genmove(void *ctx, const tg_game *g, tg_color color, const tg_gtp_clock *clock, bool cleanup,
                         tg_point *move)
{
    gtp_player *p = ctx;
    tg_search_limits l = gtp_player_limits(p, g, color, clock);
    return tg_search_genmove(p->search, g, color, &l, cleanup, move);
}

bool gtp_player_init(gtp_player *p, const gtp_player_config *cfg)
{
    p->cfg = *cfg;
    p->search = NULL;
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

void gtp_player_hook(gtp_player *p, tg_gtp_player *hook)
{
    memset(hook, 0, sizeof *hook);
    if (!p->search)
        return;
    hook->ctx = p;
    hook->genmove = genmove;
}
