/*
 * play_free_opening.h — the start of a game of `tengen play` under the
 * free-opening ruleset (002 §5.2-§5.3): the person and tengen place the
 * four opening stones in turn (the first player stones 1 and 4, the
 * second 2 and 3, in their fixed colours W B W B), then seal their
 * predictions — the person types one, tengen's is revealed only after —
 * and the predictions decide who plays White and the threshold.
 */
#ifndef TENGEN_CLI_PLAY_FREE_OPENING_H
#define TENGEN_CLI_PLAY_FREE_OPENING_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/play_agreement.h"
#include "tengen/free_opening.h"

typedef struct play_fo_io {
    void *ctx;
    play_read_fn read;                                   /* the person's next line */
    tg_point (*engine_stone)(void *ctx, tg_color color); /* tengen's choice of a stone */
    int (*engine_prediction)(void *ctx);                 /* tengen's, half stones for White */
    bool (*play)(void *ctx, tg_color color, tg_point p); /* make a move through game control */
    void (*show)(void *ctx);                             /* the board */
} play_fo_io;

typedef struct play_fo_result {
    tg_predictions decision;
    tg_color person;     /* the colour the person plays from move 5 */
    bool person_first;
} play_fo_result;

/* Run the opening and the predictions on ctl's game; false when the input
 * ended or the person quit first (the game then stops where it is), or
 * when the person took longer than prediction_ms (0: no limit) to predict,
 * counted from the third stone when first, else the fourth (002 §5.3.3):
 * the game is then lost on time. */
bool play_free_opening(tg_control *ctl, bool person_first, int64_t prediction_ms,
                       const play_fo_io *io, play_fo_result *out);

#endif
