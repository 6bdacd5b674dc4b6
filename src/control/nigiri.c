/*
 * nigiri.c — choosing colours by nigiri (RULES.md R1): the senior player's
 * hidden handful, the other player's guess of odd or even, and a record of
 * the draw that a caller can write to SGF GC or a results file.
 */
#include <stdio.h>

#include "tengen/control.h"

tg_status tg_nigiri_decide(int stones, bool guess_even, tg_nigiri *out)
{
    if (stones < 1)
        return TG_ERR_INVALID;
    bool right = (stones % 2 == 0) == guess_even;
    *out = (tg_nigiri){
        .stones = stones,
        .guess_even = guess_even,
        .guess_right = right,
        .senior_black = !right, /* guessing right takes Black */
    };
    return TG_OK;
}

void tg_nigiri_draw(tg_rng *rng, tg_nigiri *out)
{
    /* 10..39: fifteen odd and fifteen even handfuls, so neither guess is favoured */
    int stones = 10 + (int)tg_rng_below(rng, 30);
    bool guess_even = tg_rng_below(rng, 2) == 1;
    tg_nigiri_decide(stones, guess_even, out);
}

void tg_nigiri_format(const tg_nigiri *n, char *buf, size_t len)
{
    snprintf(buf, len, "nigiri: %d stones, guess %s (%s): the senior player takes %s", n->stones,
             n->guess_even ? "even" : "odd", n->guess_right ? "right" : "wrong",
             n->senior_black ? "Black" : "White");
}
