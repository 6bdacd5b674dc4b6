/*
 * prediction.c — the free opening's sealed prediction from a search's
 * ownership map (prediction.h).
 */
#include <math.h>

#include "engine_gtp/prediction.h"

int predicted_white_margin2(const tg_search *search, const tg_board *b)
{
    const float *own = tg_search_ownership(search);
    double black_minus_white = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            black_minus_white += own[tg_point_at(b, x, y)];
    return (int)lround(-2 * black_minus_white);
}
