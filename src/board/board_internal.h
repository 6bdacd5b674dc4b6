/*
 * board_internal.h — helpers shared by the files of the board layer only.
 */
#ifndef TENGEN_BOARD_INTERNAL_H
#define TENGEN_BOARD_INTERNAL_H

#include "tengen/board.h"

/* Filled before any board exists (tg_board_init); read-only afterwards. */
extern uint64_t board_zobrist_table[4][TG_MAX_POINTS];
/* tg_lib_code(p) for every point, filled at the same time. */
extern uint64_t board_lib_code[TG_MAX_POINTS];

/* The neighbour-count increment for one neighbour of colour c. */
static inline uint16_t nbr_unit(int c) { return (uint16_t)(1u << (4 * c)); }

/* Adding a pseudo-liberty; the play path removes them itself.  On the
 * scratch chain 0 (empty and off-board points) the word wraps around: it is
 * never read there. */
static inline void chain_add_lib(tg_chain *ch, int lib) { ch->libs += board_lib_code[lib]; }

/* Colour, neighbour counts, empty list and hash; chains untouched.  S is
 * the board's stride. */
static inline __attribute__((always_inline)) void board_put_stone_at(tg_board *b, tg_point p, tg_color c, const int S)
{
    uint16_t delta = (uint16_t)(nbr_unit(c) - nbr_unit(TG_EMPTY));
    b->color[p] = (uint8_t)c;
    b->nbr[p - 1] += delta;
    b->nbr[p + 1] += delta;
    b->nbr[p - S] += delta;
    b->nbr[p + S] += delta;
    int i = b->empty_index[p];
    tg_point last = b->empty[--b->empty_count];
    b->empty[i] = (uint16_t)last;
    b->empty_index[last] = (uint16_t)i;
    b->hash ^= board_zobrist_table[c][p];
}

static inline void board_put_stone(tg_board *b, tg_point p, tg_color c) { board_put_stone_at(b, p, c, b->stride); }

static inline void board_lift_stone(tg_board *b, tg_point p)
{
    tg_color c = (tg_color)b->color[p];
    uint16_t delta = (uint16_t)(nbr_unit(TG_EMPTY) - nbr_unit(c));
    b->color[p] = TG_EMPTY;
    b->chain_of[p] = 0; /* empty points belong to the scratch chain */
    b->nbr[p - 1] += delta;
    b->nbr[p + 1] += delta;
    b->nbr[p - b->stride] += delta;
    b->nbr[p + b->stride] += delta;
    b->empty_index[p] = (uint16_t)b->empty_count;
    b->empty[b->empty_count++] = (uint16_t)p;
    b->hash ^= board_zobrist_table[c][p];
}

/* The play path: removed points are appended to log (room for size^2) when
 * it is not NULL; *suicide tells whether they were the mover's own. */
int board_play_move(tg_board *b, tg_point p, tg_color c, uint16_t *log, bool *suicide);

/* Rebuild, by flood fill, every chain that contains or touches one of the
 * given points (after stones were put or lifted without the play path). */
void board_rebuild_near(tg_board *b, const uint16_t *points, int n);

#endif
