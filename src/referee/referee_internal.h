/*
 * referee_internal.h — what the files of the referee share and nobody else
 * needs: writing to a pipe without SIGPIPE, and the state of one refereed
 * game as game_runner.c and game_setup.c pass it between them.
 */
#ifndef TENGEN_REFEREE_INTERNAL_H
#define TENGEN_REFEREE_INTERNAL_H

#include <pthread.h>

#include "tengen/control.h"
#include "tengen/referee.h"
#include "tengen/sgf.h"

/* Write everything or fail (false); never raises SIGPIPE in the caller. */
bool tg_referee_write_all(int fd, const char *data, size_t len);

typedef struct game_runner {
    const tg_referee_config *cfg;
    const atomic_int *stop;
    tg_engine *engine[3];        /* [TG_BLACK], [TG_WHITE] */
    tg_game *game;
    tg_control control;          /* R6/R7, the clock and the agreement (control.h) */
    bool timed;                  /* a time system other than none */
    bool cleanup;                /* playing on to settle disputed dead stones */
    bool disputed;               /* a dispute already reopened the game once */
    tg_sgf_move_clock *clock_after; /* [move index]: the mover's clock after it (SGF BL/WL/OB/OW) */
    int clock_cap;
    tg_referee_outcome *out;
    bool over;                   /* out is final */
    bool counted;                /* the result is a count, with the dead stones below */
    uint8_t counted_dead[TG_MAX_POINTS]; /* agreed or estimated: the record's TB/TW */
} game_runner;

/* Deadline for an answer no clock bounds: now + timeout, or -1. */
int64_t runner_answer_deadline(const game_runner *r);
/* Tell an engine the board, komi, rules, time, handicap and every move so
 * far (after a restart: the whole game).  An engine failure ends the game
 * (and returns false). */
bool runner_setup_engine(game_runner *r, tg_color color);
/* Restart an engine and bring it back to the current position. */
bool runner_resync_engine(game_runner *r, tg_color color);
/* time_left for the engine about to move, if it knows the command. */
bool runner_tell_time_left(game_runner *r, tg_color color);
/* End the game by the failure of `culprit`'s engine: forfeit for most
 * reasons, loss on time for TG_END_TIME. */
void runner_forfeit(game_runner *r, tg_color culprit, tg_end_reason reason, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The reason for a reply that is not an answer. */
tg_end_reason runner_reason_of(tg_reply reply, bool timed_wait);
/* Record the clock of the player who just moved, for the SGF. */
void runner_note_clock(game_runner *r, tg_color color, int64_t now_ms);
/* The SGF record of the game as it stands. */
char *runner_sgf(const game_runner *r);

#endif
