/*
 * internal.h — what the files of src/tournament/ share and the public
 * header does not promise: error text, scores with lots, rounds' storage.
 */
#ifndef TENGEN_TOURNAMENT_INTERNAL_H
#define TENGEN_TOURNAMENT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "tengen/tournament.h"

void tour_error(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Copies with truncation; both make the text valid UTF-8 without
 * control characters (others become '?'). */
void tour_copy_text(char *dst, size_t size, const char *src);
void tour_clean_text(char *s);
void tour_round_clear(tg_tour_round *r);
tg_tour_game *tour_find_game(tg_tournament *t, int round, int board);
/* Points in a round and score before a round; games without a result are
 * read from lots->by_lot when lots is given (T2). */
int tour_points_in_round(const tg_tournament *t, int player, int round, const tg_tour_round *lots);
int tour_score_before(const tg_tournament *t, int player, int round, const tg_tour_round *lots);
/* Every player's points in round (points[player_count]), and every
 * player's score before round: false without memory. */
void tour_round_points(const tg_tournament *t, int round, const tg_tour_round *lots, int *points);
bool tour_scores_before(const tg_tournament *t, int round, const tg_tour_round *lots, int *scores);
/* Appends a new empty round (number round_count + 1). */
tg_tour_round *tour_append_round(tg_tournament *t);

/* A growing text buffer for the writers; on failure text is NULL. */
typedef struct tour_text {
    char *text;
    size_t length, capacity;
    bool failed;
} tour_text;
void tour_printf(tour_text *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends s with &, <, >, " and ' escaped for HTML and XML. */
void tour_escape_xml(tour_text *b, const char *s);
char *tour_text_take(tour_text *b);

#endif
