/*
 * board_speed.c — light playouts per second of tengen's board beside a
 * minimal reference board written here only as a measuring stick, in the
 * same run, alternating, so the figure reads as a ratio that does not
 * depend on which machine (or which hour of a shared machine) measured it.
 *
 * Issue 2 states its speed targets against such a board: "a minimal
 * 150-line pseudo-liberty board written only to measure this machine
 * reaches about 115,000 on 9x9 and 29,000 on 19x19 ... tengen's target is
 * at least 150,000 on 9x9 and 35,000 on 19x19", that is 1.30 and 1.21 times
 * the minimal board.  The reference below is the plain textbook design:
 * a padded array, chains as circular stone lists with a pseudo-liberty
 * count at the head, an empty-point list, a random start and a linear scan
 * for the first move that is legal and does not fill an own eye (the same
 * eye rule as tengen's: own stones or the edge on all four sides, at most
 * one enemy diagonal, none on the edge).  Both boards use tengen's RNG.
 *
 * A benchmark: it prints `name value unit` lines and asserts nothing.
 * usage: bench_board_speed [rounds, default 7] [seconds per run, default 1]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tengen/board.h"

/* ---- The minimal reference board ------------------------------------ */

enum { REF_MAX = 21 * 21, REF_EMPTY = 0, REF_BLACK = 1, REF_WHITE = 2, REF_EDGE = 3 };

typedef struct ref_board {
    int size, stride, empty_count;
    unsigned char color[REF_MAX];
    short head[REF_MAX], next[REF_MAX], libs[REF_MAX]; /* libs valid at heads */
    short empty[REF_MAX], empty_at[REF_MAX];
    int ko;
} ref_board;

static void ref_init(ref_board *b, int size)
{
    memset(b, 0, sizeof *b);
    b->size = size;
    b->stride = size + 2;
    b->ko = -1;
    for (int y = 0; y < size + 2; y++)
        for (int x = 0; x < size + 2; x++) {
            int p = y * b->stride + x;
            bool on = x >= 1 && x <= size && y >= 1 && y <= size;
            b->color[p] = on ? REF_EMPTY : REF_EDGE;
            if (on) {
                b->empty_at[p] = (short)b->empty_count;
                b->empty[b->empty_count++] = (short)p;
            }
        }
}

static void ref_take_empty(ref_board *b, int p)
{
    int i = b->empty_at[p], last = b->empty[--b->empty_count];
    b->empty[i] = (short)last;
    b->empty_at[last] = (short)i;
}

static void ref_remove_chain(ref_board *b, int h)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    int s = h;
    do {
        b->color[s] = REF_EMPTY;
        b->empty_at[s] = (short)b->empty_count;
        b->empty[b->empty_count++] = (short)s;
        s = b->next[s];
    } while (s != h);
    do {
        for (int i = 0; i < 4; i++) {
            int q = s + d[i];
            if (b->color[q] == REF_BLACK || b->color[q] == REF_WHITE)
                b->libs[b->head[q]]++;
        }
        s = b->next[s];
    } while (s != h);
}

/* Legal for c (simple ko, no suicide) and not one of c's own eyes? */
static bool ref_move_ok(const ref_board *b, int p, int c)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    int own = 0, edge = 0;
    for (int i = 0; i < 4; i++) {
        int k = b->color[p + d[i]];
        if (k == REF_EMPTY)
            return true;
        own += k == c;
        edge += k == REF_EDGE;
    }
    if (p == b->ko)
        return false;
    if (own + edge == 4) {
        int o = 3 - c, diag = 0;
        const int dg[4] = {-b->stride - 1, -b->stride + 1, b->stride - 1, b->stride + 1};
        for (int i = 0; i < 4; i++)
            diag += b->color[p + dg[i]] == o;
        if (diag + (edge > 0) <= 1)
            return false; /* an eye */
    }
    /* count each neighbouring chain's contacts with p: a friendly chain
     * with a liberty left, or an enemy chain with none, makes it legal */
    for (int i = 0; i < 4; i++) {
        int q = p + d[i], k = b->color[q];
        if (k == REF_EDGE)
            continue;
        int h = b->head[q], touches = 0;
        for (int j = 0; j < 4; j++)
            touches += b->color[p + d[j]] == k && b->head[p + d[j]] == h;
        if ((k == c) == (b->libs[h] > touches))
            return true;
    }
    return false;
}

static void ref_play(ref_board *b, int p, int c)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    int o = 3 - c, captured = 0, last_captured = -1;
    b->color[p] = (unsigned char)c;
    ref_take_empty(b, p);
    b->head[p] = (short)p;
    b->next[p] = (short)p;
    b->libs[p] = 0;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i], k = b->color[q];
        if (k == REF_EMPTY) {
            b->libs[b->head[p]]++;
        } else if (k == c) {
            int h = b->head[q], mine = b->head[p];
            b->libs[h]--;
            if (h != mine) { /* join p's chain into q's */
                b->libs[h] += b->libs[mine];
                int s = mine;
                do {
                    b->head[s] = (short)h;
                    s = b->next[s];
                } while (s != mine);
                short t = b->next[h];
                b->next[h] = b->next[mine];
                b->next[mine] = t;
            }
        } else if (k == o) {
            int h = b->head[q];
            if (--b->libs[h] == 0) {
                int s = h, n = 0;
                do {
                    n++;
                    s = b->next[s];
                } while (s != h);
                captured += n;
                last_captured = q;
                ref_remove_chain(b, h);
            }
        }
    }
    int h = b->head[p];
    b->ko = (captured == 1 && b->next[h] == h && b->libs[h] == 1) ? last_captured : -1;
}

static int ref_playout(ref_board *b, tg_rng *rng, int max_moves)
{
    int c = REF_BLACK, passes = 0, moves = 0;
    while (passes < 2 && moves < max_moves) {
        int n = b->empty_count, p = -1;
        int i = n ? (int)tg_rng_below(rng, (uint32_t)n) : 0;
        for (int k = 0; k < n; k++) {
            if (ref_move_ok(b, b->empty[i], c)) {
                p = b->empty[i];
                break;
            }
            if (++i == n)
                i = 0;
        }
        if (p < 0) {
            passes++;
            b->ko = -1;
        } else {
            passes = 0;
            ref_play(b, p, c);
        }
        c = 3 - c;
        moves++;
    }
    return moves;
}

/* ---- Timing --------------------------------------------------------- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Playouts per second of one board for `seconds`; *moves gets the mean
 * number of moves a playout. */
static double run(bool reference, int size, double seconds, tg_rng *rng, double *moves)
{
    static tg_board empty, b;
    static ref_board rempty, rb;
    tg_board_init(&empty, size);
    ref_init(&rempty, size);
    long n = 0, m = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 100; i++, n++) {
            if (reference) {
                rb = rempty;
                m += ref_playout(&rb, rng, 3 * size * size);
            } else {
                tg_board_copy(&b, &empty);
                m += tg_board_playout(&b, TG_BLACK, TG_SUICIDE_FORBIDDEN, rng, 3 * size * size);
            }
        }
    } while ((t = now() - t0) < seconds);
    *moves = (double)m / (double)n;
    return (double)n / t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 7;
    double seconds = argc > 2 ? atof(argv[2]) : 1.0;
    if (rounds < 1 || rounds > 1000 || !(seconds > 0) || seconds > 600) {
        fprintf(stderr, "usage: bench_board_speed [rounds 1..1000] [seconds per run]\n");
        return 2;
    }
    tg_rng rng;
    tg_rng_seed(&rng, 7);
    const int sizes[2] = {9, 19};
    for (int s = 0; s < 2; s++) {
        double *tg = calloc((size_t)rounds, sizeof *tg), *ref = calloc((size_t)rounds, sizeof *ref);
        double *ratio = calloc((size_t)rounds, sizeof *ratio);
        if (!tg || !ref || !ratio)
            return 1;
        double tg_moves = 0, ref_moves = 0;
        for (int r = 0; r < rounds; r++) {
            /* alternate which board goes first, so a drift in the
             * machine's speed falls on both */
            bool ref_first = r % 2;
            if (ref_first)
                ref[r] = run(true, sizes[s], seconds, &rng, &ref_moves);
            tg[r] = run(false, sizes[s], seconds, &rng, &tg_moves);
            if (!ref_first)
                ref[r] = run(true, sizes[s], seconds, &rng, &ref_moves);
            ratio[r] = tg[r] / ref[r];
        }
        qsort(tg, (size_t)rounds, sizeof *tg, cmp_double);
        qsort(ref, (size_t)rounds, sizeof *ref, cmp_double);
        qsort(ratio, (size_t)rounds, sizeof *ratio, cmp_double);
        int z = sizes[s];
        printf("tengen_%dx%d %.0f playouts/s (median of %d; %.1f moves a playout)\n", z, z, tg[rounds / 2], rounds,
               tg_moves);
        printf("reference_%dx%d %.0f playouts/s (median of %d; %.1f moves a playout)\n", z, z, ref[rounds / 2], rounds,
               ref_moves);
        printf("ratio_%dx%d %.3f (median of the rounds' ratios; lowest %.3f, highest %.3f)\n", z, z,
               ratio[rounds / 2], ratio[0], ratio[rounds - 1]);
        fflush(stdout);
        free(tg);
        free(ref);
        free(ratio);
    }
    return 0;
}
