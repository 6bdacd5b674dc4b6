/*
 * gtp_analyze.h — the analysis commands of `tengen gtp`, for GUIs:
 * lz-analyze and kata-analyze (the streaming analysis of Leela Zero and
 * KataGo that Sabaki and Lizzie show), lz-genmove_analyze and
 * kata-genmove_analyze (genmove showing its search the same way), and
 * GoGui's analyze commands (gogui-analyze_commands, gogui-ownership,
 * tengen-candidates, gogui-interrupt).  They are GTP extensions
 * (tengen/gtp.h) that run the GTP player's tree search; lz-analyze and
 * kata-analyze answer while they search and stop when the controller's
 * next line arrives, the genmove ones stream until the move is chosen.
 */
#ifndef TENGEN_ENGINE_GTP_GTP_ANALYZE_H
#define TENGEN_ENGINE_GTP_GTP_ANALYZE_H

#include "engine_gtp/gtp_player.h"
#include "tengen/gtp.h"

typedef struct gtp_analyzer {
    gtp_player *player;
    /* Whether input is waiting (or has ended), after waiting for it up to
     * timeout_ms milliseconds (-1: as long as it takes).  The front end
     * owns the input; an analysis runs until this says true. */
    bool (*input_waiting)(void *ctx, int timeout_ms);
    /* Whether GoGui's "# interrupt" line, which asks a long command to
     * stop, has arrived (other lines wait their turn). */
    bool (*interrupt_requested)(void *ctx);
    void *input_ctx;            /* passed to both */
} gtp_analyzer;

/* The commands, for tg_gtp_options.extensions with the analyzer as
 * extension_ctx.  Without a tree search (--player baseline) only
 * gogui-analyze_commands is offered. */
const tg_gtp_extension *gtp_analyze_extensions(const gtp_analyzer *a, int *count);

#endif
