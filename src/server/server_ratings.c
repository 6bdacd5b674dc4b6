/*
 * server_ratings.c — Glicko-2 ratings of accounts (issue 52), kept in the
 * store for both back ends.  A rated game (room_rated: two accounts, an
 * even game, not made "rated": false) that ends with a result (a win or a
 * jigo; not a game without result) is rated in the same transaction as its
 * result is written, on the node that wrote it: each player's rating is
 * locked (lower account first, so that nodes rating at once never wait on
 * each other in a circle), both are updated as one rating period of one
 * game against the other's rating before it (tg_glicko2_update, tau 0.5),
 * and a point of each one's history is kept.  A game whose result another
 * node wrote first is not rated twice: its writes are skipped whole.
 *
 * Ranks are OGS's mapping of the rating (tg_glicko_rank: 1500 about 6k,
 * 2000 about 1d); a rating whose deviation is 160 or more is provisional
 * ("?" after the rank).  A game keeps its players' ranks as they began,
 * with its settings, so that every node and every later reader shows them.
 */
#include "server_internal.h"

#include <stdio.h>
#include <string.h>

#include "tengen/tournament.h"

#define GLICKO_TAU 0.5

void rating_rank_text(const store_rating *r, char *out, size_t len)
{
    char rank[8];
    tg_rank_text(tg_glicko_rank(r->rating), rank, sizeof rank);
    snprintf(out, len, "%s%s", rank, r->deviation >= TG_GLICKO_PROVISIONAL_DEVIATION ? "?" : "");
}

json_t *rating_json(const store_rating *r)
{
    char rank[16];
    rating_rank_text(r, rank, sizeof rank);
    return json_pack("{s:f, s:f, s:f, s:i, s:s, s:b}", "rating", r->rating, "deviation", r->deviation,
                     "volatility", r->volatility, "games", r->games, "rank", rank, "provisional",
                     r->deviation >= TG_GLICKO_PROVISIONAL_DEVIATION);
}

/* The score for Black of a result as SGF writes it: 1, 0, 0.5 (jigo), or
 * -1 for a game without a result (not rated). */
static double black_score(const char *re)
{
    if (strncmp(re, "B+", 2) == 0)
        return 1;
    if (strncmp(re, "W+", 2) == 0)
        return 0;
    if (strcmp(re, "0") == 0 || strcmp(re, "Draw") == 0)
        return 0.5;
    return -1;
}

bool game_rate(server *s, live *lv, const char *re)
{
    double score = black_score(re);
    if (!room_rated(lv->r) || score < 0)
        return true; /* nothing to rate */
    return batch_rate(s, lv, score);
}

/* The writer thread, in the batch's transaction. */
int ratings_apply(store *db, write_op *op)
{
    store_rating before[2];
    int first = op->players[0] < op->players[1] ? 0 : 1;
    for (int k = 0; k < 2; k++) {
        int i = k == 0 ? first : 1 - first;
        if (db->ops->rating_lock(db, op->players[i], &before[i]) != 0)
            return -1;
    }
    for (int i = 0; i < 2; i++) {
        const store_rating *me = &before[i], *other = &before[1 - i];
        tg_glicko player = {me->rating, me->deviation, me->volatility};
        tg_glicko opponent = {other->rating, other->deviation, other->volatility};
        double score = i == 0 ? op->score : 1 - op->score;
        tg_glicko after;
        tg_glicko2_update(&player, &opponent, &score, 1, GLICKO_TAU, &after);
        op->rated[i] = (store_rating){after.rating, after.deviation, after.volatility, me->games + 1};
    }
    for (int i = 0; i < 2; i++)
        if (db->ops->rating_put(db, op->players[i], op->game, op->at_unix_ms, &op->rated[i]) != 0)
            return -1;
    op->rated_done = true;
    return 0;
}

/* After the commit: the players' accounts here know their new ratings. */
void ratings_committed(server *s, const write_op *op)
{
    if (!op->rated_done)
        return;
    for (int i = 0; i < 2; i++) {
        account *a = account_of(s, op->players[i]);
        if (a) {
            a->rating = op->rated[i];
            a->rating_known = true;
        }
    }
}

void ratings_rank_of(server *s, int64_t user, char *out, size_t len)
{
    account *a = user > 0 ? account_of(s, user) : NULL;
    out[0] = '\0';
    if (a && a->rating_known)
        rating_rank_text(&a->rating, out, len);
}
