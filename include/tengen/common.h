/*
 * common.h — the vocabulary every layer of libtengen shares: colours, points,
 * status codes and a small deterministic random number generator.
 *
 * Library code never prints or exits; every fallible function returns a
 * tg_status and the caller turns it into words with tg_status_text().
 */
#ifndef TENGEN_COMMON_H
#define TENGEN_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TG_MIN_SIZE 2
#define TG_MAX_SIZE 25

/* The board is a padded one-dimensional array: row r (0..size+1) and column
 * c (0..size) map to r * (size + 1) + c.  Column 0 and rows 0 and size+1 are
 * off the board; the last column of a row shares its right border with the
 * next row's left border, so every on-board point has four neighbours at
 * fixed offsets (+-1, +-stride) without bounds checks. */
#define TG_MAX_POINTS ((TG_MAX_SIZE + 2) * (TG_MAX_SIZE + 1) + 1)

typedef enum tg_color {
    TG_EMPTY = 0,
    TG_BLACK = 1,
    TG_WHITE = 2,
    TG_OFFBOARD = 3
} tg_color;

static inline tg_color tg_opponent(tg_color c) { return (tg_color)(3 - c); }

/* A point is an index into the padded array; pass and resign are negative. */
typedef int tg_point;
#define TG_PASS (-1)
#define TG_RESIGN (-2)
#define TG_NO_POINT (-3)

typedef enum tg_status {
    TG_OK = 0,
    TG_ERR_OCCUPIED,      /* the point holds a stone */
    TG_ERR_OFF_BOARD,     /* the vertex is not on this board */
    TG_ERR_SUICIDE,       /* forbidden point: the move's chain has no liberty and captures nothing */
    TG_ERR_KO,            /* immediate recapture of a ko */
    TG_ERR_SUPERKO,       /* the move recreates an earlier whole-board position (or situation) */
    TG_ERR_WRONG_PLAYER,  /* it is the other colour's turn */
    TG_ERR_GAME_OVER,     /* the game has ended; no further moves */
    TG_ERR_INVALID,       /* an argument is malformed (bad colour, size, komi, ...) */
    TG_ERR_NOT_ALLOWED,   /* not possible in this state (handicap after moves, undo at start, ...) */
    TG_ERR_NO_MEMORY,
    TG_ERR_PARSE,         /* malformed text (SGF, rules string, ...) */
    TG_ERR_IO
} tg_status;

/* A short English description of a status, suitable for a GTP error answer. */
const char *tg_status_text(tg_status s);

/* xoshiro-style generator: deterministic for a seed, no global state. */
typedef struct tg_rng {
    uint64_t s[2];
} tg_rng;

void tg_rng_seed(tg_rng *rng, uint64_t seed);

static inline uint64_t tg_rng_next(tg_rng *rng)
{
    uint64_t s0 = rng->s[0], s1 = rng->s[1];
    uint64_t result = s0 + s1;
    s1 ^= s0;
    rng->s[0] = ((s0 << 24) | (s0 >> 40)) ^ s1 ^ (s1 << 16);
    rng->s[1] = (s1 << 37) | (s1 >> 27);
    return result;
}

/* Uniform integer in [0, n) for n > 0 (multiply-shift; bias < 2^-32 for n < 2^32). */
static inline uint32_t tg_rng_below(tg_rng *rng, uint32_t n)
{
    return (uint32_t)(((tg_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

#endif
