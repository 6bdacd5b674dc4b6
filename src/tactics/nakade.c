/*
 * nakade.c — small eye spaces, read from the shape of the points alone:
 * the vital point of an enclosed space of three to five points, and the
 * sacrifices whose capture leaves such a space dead.
 */
#include "tactics/nakade.h"

/* A self-atari is all its chain's neighbours but one liberty, so once the
 * opponent captures the chain, the stones' points are an eye space of the
 * opponent's.  The sacrifice kills when that space is one eye or cannot
 * make two: two or three points, the square or pyramid four, the bulky or
 * crossed five.  The playouts need it: without it a group whose only
 * other eye space sits in a false seki (two shared liberties, one of them
 * next to a chain of the opponent's that throws in and captures back)
 * lives in every playout and dies in the game. */
bool nakade_sacrifice(const tg_board *b, tg_point p, tg_color c)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    tg_point shape[6];
    int n = 0;
    shape[n++] = p;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (b->color[q] != c)
            continue;
        bool seen = false;
        for (int k = 1; k < n; k++)
            seen |= shape[k] == q;
        if (seen)
            continue; /* a chain met again through another side */
        if (n + tg_chain_at(b, q)->stones > 5)
            return false;
        n += tg_chain_stones(b, q, shape + n);
    }
    int links = 0, max_degree = 0;
    for (int k = 0; k < n; k++) {
        int degree = 0;
        for (int j = 0; j < n; j++) {
            int diff = shape[j] - shape[k];
            degree += diff == 1 || diff == -1 || diff == b->stride || diff == -b->stride;
        }
        links += degree;
        if (degree > max_degree)
            max_degree = degree;
    }
    links /= 2;
    if (n <= 3)
        return true;
    if (n == 4)
        return max_degree == 3 || links == 4;
    return max_degree == 4 || links == 5;
}

/* The vital point of the small eye space holding the empty point q, or
 * TG_PASS: the empty region around q (three to five points) must be
 * enclosed by the stones of one colour and the board's edge, and one of
 * its points must touch more of the region than every other point: the
 * middle of a straight or bent three, the centre of a pyramid four, a
 * bulky five or a crossed five.  Whoever plays there first decides the
 * group's life: the owner makes two eyes, the other side kills by nakade.
 * (The T-shaped five also qualifies; playing its centre is harmless.) */
tg_point nakade_point(const tg_board *b, tg_point q, tg_color *owner_out)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    tg_point region[6];
    int n = 0, degrees = 0;
    unsigned owner = TG_EMPTY;
    if (b->color[q] != TG_EMPTY)
        return TG_PASS;
    region[n++] = q;
    for (int k = 0; k < n; k++) {
        /* a closed region's points touch only each other, so a point's
         * empty neighbours are its neighbours in the region; five points
         * have at most five links (ten ends) between them */
        degrees += tg_nbr_count(b, region[k], TG_EMPTY);
        if (degrees > 10)
            return TG_PASS;
        for (int i = 0; i < 4; i++) {
            int r = region[k] + d[i];
            unsigned rc = b->color[r];
            if (rc == TG_OFFBOARD)
                continue;
            if (rc != TG_EMPTY) {
                if (owner != TG_EMPTY && owner != rc)
                    return TG_PASS; /* both colours around: no one's eye */
                owner = rc;
                continue;
            }
            bool seen = false;
            for (int j = 0; j < n; j++)
                seen |= region[j] == r;
            if (seen)
                continue;
            if (n == 5)
                return TG_PASS; /* too big to be killed by one point */
            region[n++] = r;
        }
    }
    if (n < 3 || owner == TG_EMPTY)
        return TG_PASS;
    int best = -1, best_degree = 0, ties = 0;
    for (int k = 0; k < n; k++) {
        int degree = tg_nbr_count(b, region[k], TG_EMPTY);
        if (degree > best_degree) {
            best = k;
            best_degree = degree;
            ties = 0;
        } else if (degree == best_degree) {
            ties++;
        }
    }
    if (ties || best_degree < (n == 3 ? 2 : 3))
        return TG_PASS;
    if (owner_out)
        *owner_out = (tg_color)owner;
    return region[best];
}
