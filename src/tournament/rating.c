/*
 * rating.c — Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2
 * system", 2013) with one rating period per round, and the map from a
 * rating to a kyu/dan rank.
 *
 * tengen's system constant tau is 0.5 (settings.glicko_tau; Glickman
 * suggests 0.3..1.2).  New players start from their declared rank's
 * rating with deviation 350 and volatility 0.06; a rating is provisional
 * while its deviation is TG_GLICKO_PROVISIONAL_DEVIATION (160) or more.
 * Ranks follow OGS: rank = 23.15 ln(rating / 525), where 30 is 1d, 29 1k
 * (1500 is about 6k, 2000 about 1d... see tests/test_tournament_rating.c).
 */
#include <math.h>
#include <stdlib.h>

#include "tengen/tournament.h"
#include "tournament/internal.h"

#define GLICKO2_SCALE 173.7178
#define VOLATILITY_EPSILON 0.000001
#define PI 3.14159265358979323846

static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

static double expected(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* Step 5: the new volatility by the Illinois algorithm. */
static double new_volatility(double phi, double sigma, double delta, double v, double tau)
{
    double a = log(sigma * sigma);
    double d2 = delta * delta, p2 = phi * phi;
#define F(x) (exp(x) * (d2 - p2 - v - exp(x)) / (2.0 * (p2 + v + exp(x)) * (p2 + v + exp(x))) - \
              ((x) - a) / (tau * tau))
    double A = a, B;
    if (d2 > p2 + v) {
        B = log(d2 - p2 - v);
    } else {
        int k = 1;
        while (F(a - k * tau) < 0 && k < 1000)
            k++;
        B = a - k * tau;
    }
    double fA = F(A), fB = F(B);
    for (int i = 0; i < 200 && fabs(B - A) > VOLATILITY_EPSILON; i++) {
        double C = A + (A - B) * fA / (fB - fA);
        double fC = F(C);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2;
        }
        B = C;
        fB = fC;
    }
#undef F
    return exp(A / 2);
}

void tg_glicko2_update(const tg_glicko *player, const tg_glicko *opponents, const double *scores,
                       int count, double tau, tg_glicko *out)
{
    double mu = (player->rating - 1500.0) / GLICKO2_SCALE;
    double phi = player->deviation / GLICKO2_SCALE;
    double sigma = player->volatility;
    if (count <= 0) {
        *out = *player;
        out->deviation = sqrt(phi * phi + sigma * sigma) * GLICKO2_SCALE;
        if (out->deviation > 350)
            out->deviation = 350;
        return;
    }
    double v_inverse = 0, improvement = 0;
    for (int j = 0; j < count; j++) {
        double mu_j = (opponents[j].rating - 1500.0) / GLICKO2_SCALE;
        double phi_j = opponents[j].deviation / GLICKO2_SCALE;
        double g = g_of(phi_j), e = expected(mu, mu_j, phi_j);
        v_inverse += g * g * e * (1 - e);
        improvement += g * (scores[j] - e);
    }
    double v = 1.0 / v_inverse, delta = v * improvement;
    double sigma_new = new_volatility(phi, sigma, delta, v, tau);
    double phi_star = sqrt(phi * phi + sigma_new * sigma_new);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * improvement;
    out->rating = 1500.0 + GLICKO2_SCALE * mu_new;
    out->deviation = GLICKO2_SCALE * phi_new;
    out->volatility = sigma_new;
}

int tg_glicko_rank(double rating)
{
    if (rating < 1)
        rating = 1;
    double ogs = 23.15 * log(rating / 525.0);
    int rank = (int)floor(ogs) - 30;
    if (rank < TG_RANK_MIN)
        rank = TG_RANK_MIN;
    if (rank > TG_RANK_MAX)
        rank = TG_RANK_MAX;
    return rank;
}

/* Games that rate: played to an end with a winner or a jigo. */
static bool rated(const tg_tour_game *g)
{
    tg_outcome o = g->result.outcome;
    if (o != TG_OUTCOME_BLACK_WINS && o != TG_OUTCOME_WHITE_WINS && o != TG_OUTCOME_JIGO)
        return false;
    return g->result.reason != TG_REASON_FORFEIT && g->result.reason != TG_REASON_ABSENCE;
}

tg_status tg_tour_update_ratings(tg_tournament *t, int round)
{
    if (round < 1 || round > t->round_count)
        return TG_ERR_INVALID;
    const tg_tour_round *r = &t->rounds[round - 1];
    int n = t->player_count;
    tg_glicko *before = malloc(((size_t)n + 1) * sizeof *before);
    if (!before)
        return TG_ERR_NO_MEMORY;
    for (int p = 0; p < n; p++)
        before[p] = (tg_glicko){t->players[p].rating, t->players[p].deviation,
                                t->players[p].volatility};
    for (int p = 0; p < n; p++) {
        tg_glicko opponent = {0}, after;
        double score = 0;
        int count = 0;
        for (int i = 0; i < r->game_count && count == 0; i++) {
            const tg_tour_game *g = &r->games[i];
            if ((g->black != p && g->white != p) || !rated(g))
                continue;
            bool black = g->black == p;
            opponent = before[black ? g->white : g->black];
            score = g->result.outcome == TG_OUTCOME_JIGO                      ? 0.5
                    : (g->result.outcome == TG_OUTCOME_BLACK_WINS) == black ? 1.0
                                                                             : 0.0;
            count = 1;
        }
        tg_glicko2_update(&before[p], &opponent, &score, count, t->settings.glicko_tau, &after);
        t->players[p].rating = after.rating;
        t->players[p].deviation = after.deviation;
        t->players[p].volatility = after.volatility;
    }
    free(before);
    return TG_OK;
}
