/*
 * stats.c — what a score line says about two engines: the Elo difference
 * with its 95% interval, the likelihood of superiority, and the sequential
 * probability ratio test that stops a match as soon as it can tell "at
 * least elo1" from "at most elo0" with error rates alpha and beta.
 *
 * Draws count half.  The interval and the SPRT both use the normal
 * approximation of the mean score with the trinomial (win/draw/loss)
 * variance measured in the games themselves, as cutechess and fishtest do.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tengen/referee.h"

static double elo_of_score(double score)
{
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

static double score_of_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* Mean score and the variance of one game's score. */
static int mean_and_variance(const tg_score_line *s, double *mean, double *variance)
{
    int n = s->wins + s->draws + s->losses;
    if (n == 0)
        return 0;
    double m = (s->wins + 0.5 * s->draws) / n;
    double w = (double)s->wins / n, d = (double)s->draws / n, l = (double)s->losses / n;
    *mean = m;
    *variance = w * (1 - m) * (1 - m) + d * (0.5 - m) * (0.5 - m) + l * m * m;
    return n;
}

void tg_elo(const tg_score_line *s, double *elo, double *low, double *high)
{
    double mean, variance;
    int n = mean_and_variance(s, &mean, &variance);
    if (n == 0) {
        *elo = 0;
        *low = -INFINITY;
        *high = INFINITY;
        return;
    }
    double margin = 1.959963985 * sqrt(variance / n);
    *elo = elo_of_score(mean);
    *low = elo_of_score(mean - margin);
    *high = elo_of_score(mean + margin);
    if (variance == 0) { /* all won, all lost or all drawn: nothing bounds it */
        *low = mean > 0.5 ? *elo : -INFINITY;
        *high = mean < 0.5 ? *elo : INFINITY;
        if (mean == 0.5)
            *low = -INFINITY;
    }
}

double tg_elo_los(const tg_score_line *s)
{
    int decisive = s->wins + s->losses;
    if (decisive == 0)
        return 0.5;
    return 0.5 * (1.0 + erf((s->wins - s->losses) / sqrt(2.0 * decisive)));
}

tg_status tg_sprt_parse(const char *text, tg_sprt *out)
{
    tg_sprt s;
    char end;
    if (sscanf(text, "%lf,%lf,%lf,%lf%c", &s.elo0, &s.elo1, &s.alpha, &s.beta, &end) != 4)
        return TG_ERR_PARSE;
    if (!(s.elo0 < s.elo1) || !(s.alpha > 0 && s.alpha < 0.5) || !(s.beta > 0 && s.beta < 0.5))
        return TG_ERR_INVALID;
    *out = s;
    return TG_OK;
}

tg_sprt_verdict tg_sprt_test(const tg_sprt *sprt, const tg_score_line *s, double *llr,
                             double *lower, double *upper)
{
    *lower = log(sprt->beta / (1 - sprt->alpha));
    *upper = log((1 - sprt->beta) / sprt->alpha);
    *llr = 0;
    if (s->wins + s->draws + s->losses == 0)
        return TG_SPRT_CONTINUE;
    /* Half a win and half a loss of prior: a run of wins only (no spread
     * yet) still decides, without dividing by zero, and one game never does. */
    double w = s->wins + 0.5, d = s->draws, l = s->losses + 0.5, n = w + d + l;
    double mean = (w + 0.5 * d) / n;
    double variance = (w * (1 - mean) * (1 - mean) + d * (0.5 - mean) * (0.5 - mean) +
                       l * mean * mean) / n;
    double s0 = score_of_elo(sprt->elo0), s1 = score_of_elo(sprt->elo1);
    *llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance);
    if (*llr >= *upper)
        return TG_SPRT_H1;
    if (*llr <= *lower)
        return TG_SPRT_H0;
    return TG_SPRT_CONTINUE;
}
