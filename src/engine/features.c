/*
 * features.c — what the learned move model (model.c) knows of a candidate
 * move: the features of Coulom's "Computing Elo ratings of move patterns in
 * the game of Go" (2007), in a smaller set.
 *
 *   shape     the 3x3 neighbourhood seen from the mover (own stones, the
 *             opponent's, empty, off the board), with one bit for each of
 *             the four adjacent chains that is in atari, up to symmetry
 *   wide      the 24 points within Manhattan distance three, seen the same
 *             way, up to symmetry (Coulom's and Pachi's larger patterns, in
 *             one size)
 *   last      distance to the last move, d = |dx| + |dy| + max(|dx|, |dy|),
 *             2 to 16, 17 and more, or no last move
 *   last2     the same to the mover's own previous move
 *   line      distance to the edge (first to fifth line and beyond), and
 *             whether no stone stands within two points (Manhattan)
 *   capture   takes one stone, or more
 *   escape    extends a chain in atari: to one liberty, to two in a ladder
 *             that works, to two otherwise, to three or more
 *   selfatari a lone stone, a chain, or a chain that kills by nakade when
 *             taken (nakade_sacrifice)
 *   atari     ataris a chain: in a ladder that works, or not
 *   fight     one of the two-liberty moves (tactics_two_liberty_moves)
 *
 * Value 0 of every group but the shape means "not this feature".
 */
#include <pthread.h>
#include <string.h>

#include "engine/features.h"
#include "engine/pattern.h"
#include "tactics/ladder.h"
#include "tactics/nakade.h"

/* The key of the shape around p for mover c: the eight neighbours' colours
 * (two bits each, pattern_key's order, the mover's stones as TG_BLACK) and
 * the atari bits of the four adjacent ones (bit 16 + i for up, left,
 * right, down). */
static uint32_t shape_key(const tg_board *b, tg_point p, tg_color c)
{
    const int s = b->stride;
    const int around[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
    uint32_t key = 0;
    for (int i = 0; i < 8; i++) {
        unsigned col = b->color[p + around[i]];
        if (c == TG_WHITE && (col == TG_BLACK || col == TG_WHITE))
            col ^= TG_BLACK ^ TG_WHITE;
        key |= col << (2 * i);
    }
    const int adjacent[4] = {1, 3, 4, 6}; /* up, left, right, down */
    for (int i = 0; i < 4; i++) {
        tg_point q = p + around[adjacent[i]];
        if ((b->color[q] == TG_BLACK || b->color[q] == TG_WHITE) && tg_chain_in_atari(tg_chain_at(b, q)))
            key |= 1u << (16 + i);
    }
    return key;
}

/* Cell (row, col) of the 3x3 grid, centre excluded, to neighbour slot. */
static const int slot_of[3][3] = {{0, 1, 2}, {3, -1, 4}, {5, 6, 7}};
static const int slot_row[8] = {0, 0, 0, 1, 1, 2, 2, 2}, slot_col[8] = {0, 1, 2, 0, 2, 0, 1, 2};
static const int adjacent_slot[4] = {1, 3, 4, 6};

uint32_t features_shape_transform(uint32_t key, int t)
{
    uint32_t out = 0;
    for (int i = 0; i < 8; i++) {
        int r, col;
        pattern_transform(t, slot_row[i], slot_col[i], &r, &col);
        int to = slot_of[r][col];
        out |= ((key >> (2 * i)) & 3) << (2 * to);
        for (int k = 0; k < 4; k++)
            if (adjacent_slot[k] == i && (key >> (16 + k) & 1))
                for (int m = 0; m < 4; m++)
                    if (adjacent_slot[m] == to)
                        out |= 1u << (16 + m);
    }
    return out;
}

/* The least of a key's eight images under `transform`. */
static uint64_t least_image(uint64_t key, uint64_t (*transform)(uint64_t key, int t))
{
    uint64_t best = key;
    for (int t = 1; t < 8; t++) {
        uint64_t k = transform(key, t);
        if (k < best)
            best = k;
    }
    return best;
}

static uint64_t shape_transform64(uint64_t key, int t)
{
    return features_shape_transform((uint32_t)key, t);
}

uint32_t features_shape_canonical(uint32_t key)
{
    return (uint32_t)least_image(key, shape_transform64);
}

/* The 24 offsets (dx, dy) with 1 <= |dx| + |dy| <= 3, row by row. */
const int8_t features_wide_offsets[FEATURE_WIDE_POINTS][2] = {
    {0, -3}, {-1, -2}, {0, -2}, {1, -2}, {-2, -1}, {-1, -1}, {0, -1}, {1, -1}, {2, -1}, {-3, 0}, {-2, 0}, {-1, 0},
    {1, 0}, {2, 0}, {3, 0}, {-2, 1}, {-1, 1}, {0, 1}, {1, 1}, {2, 1}, {-1, 2}, {0, 2}, {1, 2}, {0, 3},
};

/* The colours of n consecutive points (n < 8, bytes of 0..3) packed two
 * bits each, the first point lowest.  Reads 8 bytes from color. */
static inline uint64_t pack_row(const uint8_t *color, int n)
{
    uint64_t w;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&w, color, sizeof w);
#else
    w = 0;
    for (int i = 0; i < 8; i++)
        w |= (uint64_t)color[i] << (8 * i);
#endif
    w &= ((uint64_t)1 << (8 * n)) - 1;
    w = (w | w >> 6) & 0x000f000f000f000full;
    w = (w | w >> 12) & 0x000000ff000000ffull;
    return (w | w >> 24) & 0xffff;
}

void features_board_init(features_board *fb, const tg_board *b)
{
    const int n = b->size, w = n + 6;
    fb->stride = w;
    memset(fb->color, TG_OFFBOARD, sizeof fb->color);
    for (int y = 1; y <= n; y++)
        memcpy(fb->color + (y + 2) * w + 3, b->color + y * b->stride + 1, (size_t)n);
}

static uint64_t board_wide_key(const features_board *fb, tg_point p, tg_color c)
{
    /* the diamond's rows are runs of 1, 3, 5, 7 (less the centre), 5, 3
     * and 1 points, read a run at a time; the three-point border keeps
     * every read inside the array */
    const int s = fb->stride, board_stride = s - 5, x = p % board_stride, y = p / board_stride;
    const uint8_t *col = fb->color + (y + 2) * s + x + 2;
    uint64_t mid = pack_row(col - 3, 7);
    uint64_t key = (uint64_t)col[-3 * s] | pack_row(col - 2 * s - 1, 3) << 2 | pack_row(col - s - 2, 5) << 8 |
                   ((mid & 0x3f) | (mid >> 8) << 6) << 18 | pack_row(col + s - 2, 5) << 30 |
                   pack_row(col + 2 * s - 1, 3) << 40 | (uint64_t)col[3 * s] << 46;
    if (c == TG_WHITE) {
        /* seen from the mover: swap 1 and 2, the fields whose two bits differ */
        uint64_t differ = (key ^ key >> 1) & 0x555555555555ull;
        key ^= differ | differ << 1;
    }
    return key;
}

static uint64_t wide_key(const tg_board *b, tg_point p, tg_color c)
{
    features_board fb;
    features_board_init(&fb, b);
    return board_wide_key(&fb, p, c);
}

/* wide_image[t][i]: where the point of slot i goes under symmetry t. */
static int8_t wide_image[8][FEATURE_WIDE_POINTS];
static pthread_once_t wide_once = PTHREAD_ONCE_INIT;

static void wide_images_fill(void)
{
    for (int t = 0; t < 8; t++)
        for (int i = 0; i < FEATURE_WIDE_POINTS; i++) {
            /* the 3x3 grid's transform, about the centre cell (1, 1) */
            int r, col;
            pattern_transform(t, features_wide_offsets[i][1] + 1, features_wide_offsets[i][0] + 1, &r, &col);
            int dx = col - 1, dy = r - 1;
            for (int j = 0; j < FEATURE_WIDE_POINTS; j++)
                if (features_wide_offsets[j][0] == dx && features_wide_offsets[j][1] == dy)
                    wide_image[t][i] = (int8_t)j;
        }
}

uint64_t features_wide_transform(uint64_t key, int t)
{
    pthread_once(&wide_once, wide_images_fill);
    uint64_t out = 0;
    for (int i = 0; i < FEATURE_WIDE_POINTS; i++)
        out |= ((key >> (2 * i)) & 3) << (2 * wide_image[t][i]);
    return out;
}

uint64_t features_wide_canonical(uint64_t key)
{
    return least_image(key, features_wide_transform);
}

/* Distance bucket from p to q (q a pass or none: FEATURE_DIST_NONE). */
static int distance_bucket(const tg_board *b, tg_point p, tg_point q)
{
    if (q <= 0)
        return FEATURE_DIST_NONE;
    int dx = p % b->stride - q % b->stride, dy = p / b->stride - q / b->stride;
    dx = dx < 0 ? -dx : dx;
    dy = dy < 0 ? -dy : dy;
    int d = dx + dy + (dx > dy ? dx : dy);
    if (d < 2)
        d = 2; /* p itself: the mover's previous stone was captured there */
    if (d > 17)
        d = 17;
    return d - 2; /* 0..15 */
}

/* Distance from p to the nearest edge: 0 on the first line. */
static int line_of(const tg_board *b, tg_point p)
{
    int row = p / b->stride, col = p % b->stride;
    int d = row - 1;
    if (b->size - row < d)
        d = b->size - row;
    if (col - 1 < d)
        d = col - 1;
    if (b->size - col < d)
        d = b->size - col;
    return d;
}

/* No stone within Manhattan distance two of p: none among the eight
 * neighbours of the shape key (a slot holding 1 or 2), none two points
 * away in a straight line. */
static bool quiet(const tg_board *b, tg_point p, uint32_t key)
{
    if ((key ^ key >> 1) & 0x5555)
        return false;
    const int s = b->stride;
    const int far[4] = {-2, 2, -2 * s, 2 * s};
    for (int i = 0; i < 4; i++) {
        int q = p + far[i];
        if (q >= 0 && q < b->npoints && (unsigned)b->color[q] - TG_BLACK < 2u)
            return false;
    }
    return true;
}

void features_compute(const tg_board *b, const features_board *fb, tg_point p, tg_color c, tg_point last2,
                      const tg_point *fight, int fights, move_features *f)
{
    memset(f, 0, sizeof *f);
    f->shape_key = shape_key(b, p, c); /* model.c indexes every symmetric image */
    /* so it does for the wide shapes */
    f->wide_key = fb ? board_wide_key(fb, p, c) : wide_key(b, p, c);
    f->value[FEATURE_LAST] = (uint8_t)distance_bucket(b, p, b->last_move);
    f->value[FEATURE_LAST2] = (uint8_t)distance_bucket(b, p, last2);
    int line = line_of(b, p);
    f->value[FEATURE_LINE] = (uint8_t)((line > 4 ? 4 : line) * 2 + quiet(b, p, f->shape_key));

    const int d[4] = {-1, 1, -b->stride, b->stride};
    const tg_color opp = tg_opponent(c);
    int taken = 0;
    bool rescues = false, ataris = false;
    for (int i = 0; i < 4; i++) {
        tg_point q = p + d[i];
        if (b->color[q] != TG_BLACK && b->color[q] != TG_WHITE)
            continue;
        const tg_chain *ch = tg_chain_at(b, q);
        if (b->color[q] == opp) {
            if (tg_chain_in_atari(ch)) {
                bool seen = false; /* a chain touching p twice counts once */
                for (int k = 0; k < i; k++)
                    seen |= b->color[p + d[k]] == opp && b->chain_of[p + d[k]] == b->chain_of[q];
                if (!seen)
                    taken += ch->stones;
            } else if (!tg_chain_more_libs_than(ch, 2) && tg_chain_liberties_upto(b, q, NULL, 3) == 2) {
                ataris = true;
            }
        } else if (tg_chain_in_atari(ch)) {
            rescues = true;
        }
    }
    if (taken)
        f->value[FEATURE_CAPTURE] = taken > 1 ? 2 : 1;
    for (int i = 0; i < fights; i++)
        if (fight[i] == p)
            f->value[FEATURE_FIGHT] = 1;

    int stones;
    if (!taken && tg_board_is_self_atari(b, p, c, &stones))
        f->value[FEATURE_SELF_ATARI] = stones == 1 ? 1 : nakade_sacrifice(b, p, c) ? 3 : 2;

    if (!rescues && !ataris)
        return;
    tg_board after;
    tg_board_copy(&after, b);
    tg_board_play(&after, p, c);
    if (after.color[p] != c)
        return;
    if (rescues) {
        int libs = tg_chain_liberties_upto(&after, p, NULL, 3);
        f->value[FEATURE_ESCAPE] = libs >= 3 ? 4 : libs == 2 ? (ladder_attack_works(&after, p) ? 2 : 3) : 1;
    }
    for (int i = 0; ataris && i < 4; i++) {
        tg_point q = p + d[i];
        if (after.color[q] == opp && tg_chain_in_atari(tg_chain_at(&after, q))) {
            uint8_t v = ladder_captured(&after, q) ? 1 : 2;
            if (f->value[FEATURE_ATARI] == 0 || v < f->value[FEATURE_ATARI])
                f->value[FEATURE_ATARI] = v;
        }
    }
}
