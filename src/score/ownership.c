/*
 * ownership.c — who owns each point at the end, estimated by Monte-Carlo
 * playouts.
 *
 * Each playout plays a copy of the position to the end (playout.c); at the
 * end every point belongs to the colour of its stone, or of all the stones
 * around it (an eye), or to nobody.  The mean over playouts, +1 for Black
 * and -1 for White, is the ownership.
 */
#include <string.h>

#include "tengen/score.h"
#include "score/playout.h"

/* +1 Black, -1 White, 0 nobody: the owner of p in a finished playout. */
static int final_owner(const tg_board *b, tg_point p)
{
    tg_color c = tg_board_at(b, p);
    if (c == TG_BLACK)
        return 1;
    if (c == TG_WHITE)
        return -1;
    bool black = tg_nbr_count(b, p, TG_BLACK) > 0, white = tg_nbr_count(b, p, TG_WHITE) > 0;
    return black == white ? 0 : black ? 1 : -1;
}

void tg_ownership(const tg_board *b, tg_color to_move, const tg_rules *r, int playouts,
                  tg_rng *rng, float *ownership)
{
    int sum[TG_MAX_POINTS];
    tg_board copy;
    tg_suicide_rule suicide = r->suicide ? TG_SUICIDE_MULTI_STONE : TG_SUICIDE_FORBIDDEN;
    memset(sum, 0, sizeof sum);
    if (to_move != TG_WHITE)
        to_move = TG_BLACK;
    for (int i = 0; i < playouts; i++) {
        tg_board_copy(&copy, b);
        score_playout(&copy, to_move, suicide, rng);
        for (tg_point p = 0; p < b->npoints; p++)
            if (tg_board_at(b, p) != TG_OFFBOARD)
                sum[p] += final_owner(&copy, p);
    }
    for (int p = 0; p < TG_MAX_POINTS; p++)
        ownership[p] = playouts > 0 ? (float)sum[p] / (float)playouts : 0.0f;
}
