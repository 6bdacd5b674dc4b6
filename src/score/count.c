/*
 * count.c — counting a finished position under the rules: area (stones plus
 * surrounded points, dame shared half and half), territory (surrounded points
 * plus prisoners), and the seki / group tax.
 *
 * The count works on a copy of the stones from which the dead stones have
 * been taken off (they become prisoners of the opponent and their points
 * empty; under dead=keep rules, Tromp-Taylor's, the mask is ignored and every
 * stone counts).  Then:
 *   - an empty region (maximal connected set of empty points) bordered by one
 *     colour only is that colour's territory; any other empty region is dame;
 *   - under tax=seki and tax=all, territory counts only inside an
 *     *independent-life region* of its owner (tax.c: roughly, a group with its
 *     territory that shares no liberty with the opponent once the dame are
 *     filled).  Surrounded points outside such regions (eyes of groups in
 *     seki) are reported with the dame;
 *   - under tax=all each independent-life region costs its owner 2 points;
 *   - under territory counting a point its owner still has to fill (the
 *     last liberty of a chain once the dame are filled) is not territory.
 *
 * Totals are in half points.  Area with tax=none: 2*(stones + territory) +
 * dame, so each side gets half of every dame and seki point (C10; T16:
 * B 15 + 2 and W 14 + 2 whole points, plus 1 each for the shared D5 and D2).
 * Area with tax=seki or tax=all: 2*(stones + territory), the dame and seki
 * points counting nothing (rules.h), less 4 per taxed region (T16 under
 * tax=all: exactly B 15 + 2 - 2 and W 14 + 2 - 2).  Territory:
 * 2*(territory + prisoners); dame count nothing.  Handicap compensation
 * (tg_rules_handicap_points) is given to White under area counting only:
 * there each handicap stone is one more point of Black's area, while under
 * territory counting stones are not counted and White gets none, whatever
 * the handicap option says.
 */
#include <string.h>

#include "tengen/score.h"
#include "score/regions.h"
#include "score/tax.h"

/* The stones that count: the board with the dead stones taken off. */
static void remove_dead(const tg_board *b, const tg_rules *r, const uint8_t *dead,
                        uint8_t *col, tg_score *out)
{
    memcpy(col, b->color, (size_t)b->npoints);
    if (!dead || !r->dead_removed)
        return;
    for (tg_point p = 0; p < b->npoints; p++) {
        if (dead[p] && (col[p] == TG_BLACK || col[p] == TG_WHITE)) {
            out->prisoners[tg_opponent((tg_color)col[p])]++;
            col[p] = TG_EMPTY;
        }
    }
}

/* Colours (bit 1 << colour) of the stones next to each empty region. */
static void region_borders(const tg_board *b, const uint8_t *col, const int16_t *region,
                           uint8_t *borders)
{
    for (tg_point p = 0; p < b->npoints; p++) {
        if (region[p] < 0)
            continue;
        tg_point nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++)
            if (col[nb[i]] == TG_BLACK || col[nb[i]] == TG_WHITE)
                borders[region[p]] |= (uint8_t)(1u << col[nb[i]]);
    }
}

/* Under territory counting, the points a player still has to fill
 * (must_fill[p] = 1): once the dame are filled, a chain of C whose only
 * liberty left is a point of C's territory is in atari there, and C must
 * connect on it (the false eye of a cutting stone) before the count, as
 * the Japanese rules' players do and CGoban counts.  region_owner[r] is the
 * owner of empty region r, TG_EMPTY for dame. */
static void find_points_to_fill(const tg_board *b, const uint8_t *col, const int16_t *region,
                                const uint8_t *region_owner, uint8_t *must_fill)
{
    memset(must_fill, 0, TG_MAX_POINTS);
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        uint8_t member[TG_MAX_POINTS];
        int16_t chain[TG_MAX_POINTS];
        tg_point only_liberty[TG_MAX_POINTS];
        int liberties[TG_MAX_POINTS];
        for (tg_point p = 0; p < b->npoints; p++)
            member[p] = col[p] == c;
        int chains = score_label_components(b, member, chain);
        memset(liberties, 0, sizeof liberties[0] * (size_t)chains);
        for (tg_point p = 0; p < b->npoints; p++) {
            if (region[p] < 0 || region_owner[region[p]] != c)
                continue;
            tg_point nb[4];
            int16_t seen[4];   /* the chains already counted at this liberty */
            score_neighbours(b, p, nb);
            int k = 0;
            for (int i = 0; i < 4; i++) {
                if (col[nb[i]] != c)
                    continue;
                int16_t ch = chain[nb[i]];
                bool again = false;
                for (int j = 0; j < k; j++)
                    again |= seen[j] == ch;
                if (again)
                    continue;
                seen[k++] = ch;
                liberties[ch]++;
                only_liberty[ch] = p;
            }
        }
        for (int ch = 0; ch < chains; ch++)
            if (liberties[ch] == 1)
                must_fill[only_liberty[ch]] = 1;
    }
}

/* Territory and dame of the stones col, with the tax of the rules; when
 * territory is not NULL, territory[p] = the colour whose territory p is
 * (TG_EMPTY elsewhere). */
static void count_empty_points(const tg_board *b, const tg_rules *r, const uint8_t *dead,
                               const uint8_t *col, tg_score *out, uint8_t *territory)
{
    uint8_t empty[TG_MAX_POINTS], borders[TG_MAX_POINTS];
    uint8_t independent[3][TG_MAX_POINTS];
    int16_t region[TG_MAX_POINTS];
    for (tg_point p = 0; p < b->npoints; p++)
        empty[p] = col[p] == TG_EMPTY;
    int n = score_label_components(b, empty, region);
    memset(borders, 0, (size_t)n);
    region_borders(b, col, region, borders);
    if (r->tax != TG_TAX_NONE) {
        for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
            int regions = score_independent_regions(b, dead, c, independent[c]);
            if (r->tax == TG_TAX_ALL)
                out->groups_taxed[c] = regions;
        }
    }
    uint8_t owner[TG_MAX_POINTS], must_fill[TG_MAX_POINTS];
    for (int i = 0; i < n; i++)
        owner[i] = borders[i] == (1u << TG_BLACK) ? TG_BLACK
                   : borders[i] == (1u << TG_WHITE) ? TG_WHITE : TG_EMPTY;
    memset(must_fill, 0, sizeof must_fill);
    if (r->scoring == TG_SCORING_TERRITORY)
        find_points_to_fill(b, col, region, owner, must_fill);
    for (tg_point p = 0; p < b->npoints; p++) {
        if (territory)
            territory[p] = TG_EMPTY;
        if (region[p] < 0)
            continue;
        tg_color c = owner[region[p]];
        if (c != TG_EMPTY && !must_fill[p] && (r->tax == TG_TAX_NONE || independent[c][p])) {
            out->territory[c]++;
            if (territory)
                territory[p] = (uint8_t)c;
        } else {
            out->dame++;
        }
    }
}

static void totals(const tg_rules *r, int handicap, tg_score *out)
{
    int side2[3] = {0, 0, 0};
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        if (r->scoring == TG_SCORING_AREA)
            side2[c] = 2 * (out->stones[c] + out->territory[c]) +
                       (r->tax == TG_TAX_NONE ? out->dame : 0);
        else
            side2[c] = 2 * (out->territory[c] + out->prisoners[c]);
        side2[c] -= 4 * out->groups_taxed[c];
    }
    out->black2 = side2[TG_BLACK];
    out->white2 = side2[TG_WHITE];
    out->komi2 = r->komi2;
    out->handicap_points =
        r->scoring == TG_SCORING_AREA ? tg_rules_handicap_points(r, handicap) : 0;
    out->result = tg_result_of_count(r, out->black2 - out->white2 - 2 * out->handicap_points);
}

void tg_score_board(const tg_board *b, const tg_rules *r, const uint8_t *dead, int handicap,
                    tg_score *out)
{
    uint8_t col[TG_MAX_POINTS];
    memset(out, 0, sizeof *out);
    out->prisoners[TG_BLACK] = b->captures[TG_BLACK];
    out->prisoners[TG_WHITE] = b->captures[TG_WHITE];
    remove_dead(b, r, dead, col, out);
    for (tg_point p = 0; p < b->npoints; p++)
        if (col[p] == TG_BLACK || col[p] == TG_WHITE)
            out->stones[col[p]]++;
    count_empty_points(b, r, r->dead_removed ? dead : NULL, col, out, NULL);
    totals(r, handicap, out);
}

void tg_score_territory(const tg_board *b, const tg_rules *r, const uint8_t *dead,
                        uint8_t *territory)
{
    uint8_t col[TG_MAX_POINTS];
    tg_score unused;
    memset(&unused, 0, sizeof unused);
    remove_dead(b, r, dead, col, &unused);
    count_empty_points(b, r, r->dead_removed ? dead : NULL, col, &unused, territory);
    for (tg_point p = b->npoints; p < TG_MAX_POINTS; p++)
        territory[p] = TG_EMPTY;
}

void tg_score_game(const tg_game *g, const uint8_t *dead, tg_score *out)
{
    tg_score_board(tg_game_board(g), tg_game_rules(g), dead, tg_game_handicap(g), out);
}
