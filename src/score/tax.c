/*
 * tax.c — independent-life regions, which decide what counts under tax=seki
 * (territory inside seki groups counts nothing) and tax=all (each such region
 * pays the group tax).
 *
 * An independent-life region of colour c is a maximal connected set of
 * points that are empty or hold c's stones, containing an empty point, none
 * of whose empty points touches an opponent stone.  That definition presumes
 * the dame have been filled, as the territory rules do before counting: an
 * unfilled dame point next to a wall would otherwise make the whole wall and
 * the territory behind it "not independent".  So the dame are filled first,
 * on a copy: every empty point touching both colours that one side can fill
 * without capturing, without being left in atari and without putting an
 * opponent chain in atari gets a stone of that side, until no such point is
 * left.  What remains touching both colours are the shared liberties of
 * seki (filling them is self-atari) — exactly what must break independence.
 */
#include <string.h>

#include "score/playout.h"
#include "score/regions.h"
#include "score/tax.h"

/* Does c at p leave every opponent chain next to p with two liberties or more? */
static bool keeps_opponent_out_of_atari(const tg_board *b, tg_point p, tg_color c)
{
    tg_point nb[4];
    score_neighbours(b, p, nb);
    for (int i = 0; i < 4; i++)
        if (b->color[nb[i]] == tg_opponent(c) && tg_chain_liberties(b, nb[i], NULL, 0) <= 2)
            return false;
    return true;
}

static bool can_fill(const tg_board *b, tg_point p, tg_color c)
{
    return tg_board_check(b, p, c, TG_SUICIDE_FORBIDDEN) == TG_OK &&
           !tg_board_is_self_atari(b, p, c, NULL) && keeps_opponent_out_of_atari(b, p, c);
}

/* One sweep over the board; returns the number of points filled. */
static int fill_sweep(tg_board *b)
{
    int filled = 0;
    for (tg_point p = 0; p < b->npoints; p++) {
        if (b->color[p] != TG_EMPTY || tg_nbr_count(b, p, TG_BLACK) == 0 ||
            tg_nbr_count(b, p, TG_WHITE) == 0)
            continue;
        /* the two sides take turns, as they would filling the dame in play */
        tg_color c = filled % 2 ? TG_WHITE : TG_BLACK;
        if (!can_fill(b, p, c))
            c = tg_opponent(c);
        if (can_fill(b, p, c)) {
            tg_board_play(b, p, c);
            filled++;
        }
    }
    return filled;
}

static void fill_dame(tg_board *b)
{
    while (fill_sweep(b) > 0)
        ;
}

int score_independent_regions(const tg_board *b, const uint8_t *dead, tg_color c,
                              uint8_t *independent)
{
    tg_board filled;
    uint8_t member[TG_MAX_POINTS], has_empty[TG_MAX_POINTS], touches_opp[TG_MAX_POINTS];
    int16_t label[TG_MAX_POINTS];
    tg_color opp = tg_opponent(c);
    tg_board_copy(&filled, b);
    for (tg_point p = 0; dead && p < b->npoints; p++)
        if (dead[p] && (b->color[p] == TG_BLACK || b->color[p] == TG_WHITE))
            tg_board_set_point(&filled, p, TG_EMPTY);
    fill_dame(&filled);
    const uint8_t *col = filled.color;
    for (tg_point p = 0; p < b->npoints; p++)
        member[p] = col[p] == TG_EMPTY || col[p] == c;
    int n = score_label_components(b, member, label);
    memset(has_empty, 0, (size_t)n);
    memset(touches_opp, 0, (size_t)n);
    for (tg_point p = 0; p < b->npoints; p++) {
        if (label[p] < 0 || col[p] != TG_EMPTY)
            continue;
        has_empty[label[p]] = 1;
        touches_opp[label[p]] |= tg_nbr_count(&filled, p, opp) > 0;
    }
    int count = 0;
    for (int i = 0; i < n; i++)
        count += has_empty[i] && !touches_opp[i];
    for (tg_point p = 0; p < b->npoints; p++)
        independent[p] = label[p] >= 0 && has_empty[label[p]] && !touches_opp[label[p]];
    return count;
}
