/*
 * play_agreement.h — the end of a game of `tengen play` after two passes:
 * the dead-stone agreement of C9 (002 §6 under the free-opening ruleset)
 * between the person and tengen, through game control (tengen/control.h).
 */
#ifndef TENGEN_CLI_PLAY_AGREEMENT_H
#define TENGEN_CLI_PLAY_AGREEMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "tengen/control.h"

/* One line the person typed into line (len bytes); false at the end of input. */
typedef bool (*play_read_fn)(void *ctx, char *line, size_t len);

/* In the agreement phase: tengen states the dead stones of the position's
 * estimate (tg_game_estimate_dead, as tengen score counts) and shows them
 * with the count they give; the person marks chains dead or alive by a
 * vertex, then states theirs with `done` (or `accept` at once).  The same
 * stones: the game is counted (TG_PHASE_OVER).  Others: play resumes
 * (TG_PHASE_PLAY) with the claimant of a disputed stone to move, as C9
 * says, or in turn order under dispute=turn (002 §6.3); what is printed
 * says which.
 * At the end of input or `quit` the person concedes tengen's statement;
 * `resign` resigns.  Returns the phase after. */
tg_control_phase play_agree_dead_stones(tg_control *ctl, tg_color human, int64_t now_ms,
                                        play_read_fn read, void *ctx);

#endif
