/*
 * ownership.c — who owns each point at the end, estimated by Monte-Carlo
 * playouts.
 *
 * Each playout plays a copy of the position to the end (playout.c); at the
 * end every point belongs to the colour of its stone, or of the one colour
 * next to it (TACTICS_OWNER_TOUCHED), or to nobody.  The mean over playouts, +1 for Black
 * and -1 for White, is the ownership.
 */
#include <string.h>

#include "tengen/score.h"
#include "score/playout.h"
#include "tactics/tactics.h"

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
        for (tg_point p = 0; p < b->npoints; p++) {
            if (tg_board_at(b, p) == TG_OFFBOARD)
                continue;
            tg_color owner = tactics_final_owner(&copy, p, TACTICS_OWNER_TOUCHED);
            sum[p] += (owner == TG_BLACK) - (owner == TG_WHITE);
        }
    }
    for (int p = 0; p < TG_MAX_POINTS; p++)
        ownership[p] = playouts > 0 ? (float)sum[p] / (float)playouts : 0.0f;
}
