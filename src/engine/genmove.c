/*
 * genmove.c — genmove's decisions on top of a search (search.c): end a
 * won game by passing after the opponent's pass, resign only after three
 * hopeless searches in a row, and in cleanup mode (kgs-genmove_cleanup)
 * capture the dead enemy stones left before passing.
 */
#include "engine/search_internal.h"
#include "tengen/score.h"

#define RESIGN_STREAK 3 /* searches in a row below the resignation threshold */

/* The game counted now with the search's dead stones: is color ahead? */
static bool counting_wins(const tg_search *s, const tg_game *g, tg_color color)
{
    uint8_t dead[TG_MAX_POINTS];
    tg_search_dead_stones(s, tg_game_board(g), dead);
    tg_score score;
    tg_score_game(g, dead, &score);
    return score.result.winner == color;
}

/* Cleanup (kgs-genmove_cleanup): a move on a liberty of an enemy chain
 * the count says is dead, the one the search likes best, or TG_PASS when
 * no dead enemy stone is left. */
static tg_point cleanup_capture(tg_search *s, const tg_game *g, tg_color color)
{
    uint8_t dead[TG_MAX_POINTS];
    const tg_board *b = tg_game_board(g);
    tg_search_dead_stones(s, b, dead);
    tree_pool *pool = search_active_pool(s);
    tg_point best = TG_PASS, libs[TG_MAX_POINTS];
    double best_value = -1;
    tactics_cleanup_rule rule = {engine_legal_in_game, g, false, false};
    int n = tactics_cleanup_moves(b, color, dead, &rule, libs);
    for (int i = 0; i < n; i++) {
        uint32_t child = search_child_for(pool, s->root, libs[i], color);
        const tree_node *c = child ? tree_at(pool, child) : NULL;
        uint32_t v = c ? stat_get((_Atomic uint32_t *)&c->visits) : 0;
        double value = v ? node_wins(c, s->lambda) / v : 0;
        if (value > best_value) {
            best_value = value;
            best = libs[i];
        }
    }
    return best;
}

/* genmove's decision after the search for color in g: the search's move,
 * or a pass that ends a won game, a resignation, a cleanup capture. */
static tg_point decide(tg_search *s, const tg_game *g, tg_color color, bool cleanup, tg_point move)
{
    const tg_search_report *r = &s->report;
    int n = tg_game_move_count(g);
    const tg_move *last = n ? tg_game_move(g, n - 1) : NULL;
    bool opponent_passed = last && last->color != color && last->point == TG_PASS;
    if (opponent_passed && counting_wins(s, g, color) && (!cleanup || cleanup_capture(s, g, color) == TG_PASS))
        return TG_PASS; /* the game ends now, and we win it (in cleanup: with nothing left to take) */
    /* resign only on the third search in a row below the threshold: one
     * search of a thousand playouts can misjudge a position, and an
     * opponent can still go wrong (at 1,000 playouts a move against GNU Go,
     * 30 of 33 losses in a sample were resignations) */
    bool low = s->opt.resign_threshold > 0 && r->winrate < s->opt.resign_threshold && r->playouts >= 1000 &&
               !cleanup && n > tg_game_size(g) * tg_game_size(g) / 4;
    if (color == TG_BLACK || color == TG_WHITE) {
        if (!low)
            s->low_streak[color] = 0;
        else
            s->low_streak[color] = s->low_streak[color] > 0 && s->low_at[color] == n - 2 ? s->low_streak[color] + 1 : 1;
        s->low_at[color] = n;
        if (s->low_streak[color] >= RESIGN_STREAK)
            return TG_RESIGN;
    }
    if (cleanup) {
        tg_point take = cleanup_capture(s, g, color);
        if (take != TG_PASS)
            return take;
    }
    return move;
}

tg_status tg_search_genmove(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits,
                            bool cleanup, tg_point *move)
{
    return tg_search_genmove_analyze(s, g, color, limits, cleanup, 0, NULL, NULL, move);
}

tg_status tg_search_genmove_analyze(tg_search *s, const tg_game *g, tg_color color,
                                    const tg_search_limits *limits, bool cleanup, double interval_seconds,
                                    tg_search_progress_fn progress, void *ctx, tg_point *move)
{
    tg_status st = tg_search_run(s, g, color, limits, interval_seconds, progress, ctx, move);
    if (st != TG_OK)
        return st;
    *move = decide(s, g, color, cleanup, *move);
    return TG_OK;
}
