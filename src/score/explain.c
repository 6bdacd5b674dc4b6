/*
 * explain.c — a count as the rules state it, for a person to check: each
 * side's points and what they are made of (C10: stones, territory, half the
 * dame; or territory and prisoners), the komi and the compensation, the
 * difference, and the result in points and, under area counting, in stones
 * (C11: 1 stone = 2 points).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tengen/free_opening.h"
#include "tengen/score.h"

/* Half points as a person writes them: "40", "40.5", "-8.5". */
static void points_text(int half_points, char *buf, size_t len)
{
    int a = half_points < 0 ? -half_points : half_points;
    snprintf(buf, len, "%s%d%s", half_points < 0 ? "-" : "", a / 2, a % 2 ? ".5" : "");
}

typedef struct text {
    char *buf;
    size_t len, used;
} text;

static void put(text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *format, ...)
{
    if (t->used >= t->len)
        return;
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(t->buf + t->used, t->len - t->used, format, ap);
    va_end(ap);
    if (n > 0)
        t->used += (size_t)n < t->len - t->used ? (size_t)n : t->len - t->used - 1;
}

static void put_side(text *t, const tg_score *s, const tg_rules *r, tg_color c)
{
    char total[16];
    points_text(c == TG_BLACK ? s->black2 : s->white2, total, sizeof total);
    put(t, "%s %s = ", c == TG_BLACK ? "Black" : "White", total);
    if (r->scoring == TG_SCORING_AREA) {
        put(t, "%d stone%s + %d territory", s->stones[c], s->stones[c] == 1 ? "" : "s", s->territory[c]);
        if (r->tax == TG_TAX_NONE && s->dame) {
            char half[16];
            points_text(s->dame, half, sizeof half);
            put(t, " + %s (half of %d dame)", half, s->dame);
        }
    } else {
        put(t, "%d territory + %d prisoners", s->territory[c], s->prisoners[c]);
    }
    if (s->groups_taxed[c])
        put(t, " - %d (tax on %d group%s)", 2 * s->groups_taxed[c], s->groups_taxed[c],
            s->groups_taxed[c] == 1 ? "" : "s");
    put(t, "\n");
}

size_t tg_score_explain(const tg_score *s, const tg_rules *r, char *buf, size_t len)
{
    text t = {buf, len, 0};
    if (len)
        buf[0] = 0;
    const char *heading = r->scoring == TG_SCORING_AREA ? "Count (area counting): "
                                                        : "Count (territory counting): ";
    put(&t, "%s", heading);
    put_side(&t, s, r, TG_BLACK);
    put(&t, "%*s", (int)strlen(heading), "");   /* White's line under Black's */
    put_side(&t, s, r, TG_WHITE);
    char black[16], white[16], komi[16], comp[16], diff[16];
    points_text(s->black2, black, sizeof black);
    points_text(s->white2, white, sizeof white);
    points_text(s->komi2, komi, sizeof komi);
    points_text(2 * s->handicap_points, comp, sizeof comp);
    if (r->revealed) {
        /* 002 §5.5: the count difference against the predictions' mean,
         * exactly, not the komi that stands for it */
        tg_predictions p;
        char threshold[16];
        tg_predictions_decide(r->prediction_first2, r->prediction_second2, &p);
        tg_threshold_format(p.threshold4, threshold, sizeof threshold);
        points_text(s->black2 - s->white2 - 2 * s->handicap_points, diff, sizeof diff);
        put(&t, "Black %s - White %s = %s points for Black, against the threshold %s\n", black, white,
            diff, threshold);
    } else {
        int difference2 = s->black2 - s->white2 - s->komi2 - 2 * s->handicap_points;
        points_text(difference2, diff, sizeof diff);
        put(&t, "Black %s - White %s - komi %s", black, white, komi);
        if (s->handicap_points)
            put(&t, " - handicap compensation %s", comp);
        put(&t, " = %s points for Black\n", diff);
    }
    char re[32], en[96], zh[96];
    tg_result_to_sgf(&s->result, re, sizeof re);
    if (r->scoring == TG_SCORING_AREA) {
        tg_result_stated(r, &s->result, false, en, sizeof en);
        tg_result_stated(r, &s->result, true, zh, sizeof zh);
        put(&t, "Result: %s — %s (%s; %s)", re, en, zh,
            r->free_opening ? "beyond the threshold, in stones of count difference"
                            : "1 stone = 2 points");
    } else {
        put(&t, "Result: %s", re);
    }
    return t.used;
}
