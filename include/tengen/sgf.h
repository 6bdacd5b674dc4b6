/*
 * sgf.h — Smart Game Format FF[4]: a tolerant, non-recursive reader of
 * collections, variations and properties; a writer; and the bridge between an
 * SGF game tree and a tg_game (replayed under the rules its RU names).
 *
 * (The tree-level API below the marker is the SGF layer's own and is
 *  documented where it is declared.)
 */
#ifndef TENGEN_SGF_H
#define TENGEN_SGF_H

#include "game.h"

typedef struct tg_sgf_error {
    int line, column;      /* 1-based position of the problem in the input */
    char message[160];
} tg_sgf_error;

/* Game information kept beside a tg_game when loading or saving. */
typedef struct tg_sgf_info {
    char black[128], white[128];     /* PB PW */
    char black_rank[32], white_rank[32]; /* BR WR */
    char date[64], event[128], round[64]; /* DT EV RO */
    char result[64];                 /* RE as written */
    char rules[64];                  /* RU as written */
    char overtime[128];              /* OT */
    double main_time;                /* TM, seconds; < 0 when absent */
} tg_sgf_info;

/* Load the first game of an SGF collection and replay its main line, at
 * most `max_moves` moves (< 0: all), under the rules its RU names (komi from
 * KM, handicap from HA/AB).  On error *out is NULL, err says where and why,
 * and nothing else changes.  info may be NULL. */
tg_status tg_sgf_load_game(const char *data, size_t len, int max_moves, tg_game **out,
                           tg_sgf_info *info, tg_sgf_error *err);

/* Write a game (its setup, moves and result) as an SGF FF[4] text,
 * malloc'd and NUL-terminated; NULL when out of memory.  info may be NULL. */
char *tg_sgf_save_game(const tg_game *g, const tg_sgf_info *info);

/* ---- tree-level API (SGF layer) ---- */

#endif
