/*
 * regions.c — connected components of a set of points, by an explicit-stack
 * flood fill (no recursion: a 25x25 region would otherwise nest 625 deep).
 */
#include "score/regions.h"

static void fill_component(const tg_board *b, const uint8_t *member, int16_t *label,
                           tg_point start, int16_t id)
{
    tg_point stack[TG_MAX_POINTS];
    int top = 0;
    label[start] = id;
    stack[top++] = start;
    while (top > 0) {
        tg_point p = stack[--top], nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++) {
            /* every point is pushed at most once: it is labelled when pushed */
            if (member[nb[i]] && label[nb[i]] < 0) {
                label[nb[i]] = id;
                stack[top++] = nb[i];
            }
        }
    }
}

int score_label_components(const tg_board *b, const uint8_t *member, int16_t *label)
{
    int n = 0;
    for (tg_point p = 0; p < b->npoints; p++)
        label[p] = -1;
    for (tg_point p = 0; p < b->npoints; p++)
        if (member[p] && label[p] < 0)
            fill_component(b, member, label, p, (int16_t)n++);
    return n;
}
