/*
 * play_interrupt.h — Ctrl-C in `tengen play`: it ends the game as the end
 * of input does, saved.  The person's wait for a line is woken (a
 * self-pipe its poll(2) watches, and no SA_RESTART) and the engine's search
 * is stopped (tg_search_stop is async-signal-safe); a second Ctrl-C kills
 * at once (SA_RESETHAND).
 */
#ifndef TENGEN_CLI_PLAY_INTERRUPT_H
#define TENGEN_CLI_PLAY_INTERRUPT_H

#include <signal.h>
#include <stdbool.h>

#include "tengen/search.h"

/* Catch SIGINT for the game (search may be NULL: no search to stop); old
 * receives the disposition to give back.  Not where SIGINT is ignored
 * (nohup, a background job of a shell): that choice is the caller's. */
void play_interrupt_catch(tg_search *search, struct sigaction *old);
/* Give SIGINT back and close the pipe. */
void play_interrupt_release(const struct sigaction *old);
/* Whether Ctrl-C came since play_interrupt_catch. */
bool play_interrupted(void);
/* The pipe's end a wait for input also polls (readable after Ctrl-C), -1
 * when there is none (EINTR alone then ends the wait). */
int play_interrupt_fd(void);

#endif
