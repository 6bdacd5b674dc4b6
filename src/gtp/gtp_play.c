/*
 * gtp_play.c — the commands that make or test moves: play (strict: an
 * illegal move is refused and changes nothing), genmove and its variants
 * reg_genmove (does not play) and kgs-genmove_cleanup (captures dead stones
 * before passing), undo, and is_legal; and tg_gtp_genmove_with, the
 * genmove of front-end commands that choose the move their own way.
 *
 * The colour always comes from the command (GTP lets the controller decide
 * who moves), and a game ended by two passes or by a cycle goes on when a
 * move arrives: in GTP the controller is the referee (a cycle's outcome is
 * kept for final_score).
 */
#include <stdio.h>

#include "gtp/gtp_internal.h"

/* The arguments COLOR VERTEX of play and is_legal. */
static int move_arguments(tg_gtp *e, char **argv, tg_color *color, tg_point *point)
{
    return gtp_arg_color(e, argv[0], color) || gtp_arg_vertex(e, argv[1], point) ? -1 : 0;
}

static int play_with(tg_gtp *e, char **argv, unsigned flags)
{
    tg_color color;
    tg_point point;
    if (move_arguments(e, argv, &color, &point))
        return -1;
    tg_game *g = gtp_game_in_play(e, color);
    if (!g)
        return gtp_fail(e, "illegal move");
    tg_status st = tg_game_play(g, color, point, TG_PLAY_ANY_ORDER | flags);
    if (st != TG_OK) {
        gtp_drop_game(e, g);
        return gtp_fail(e, st == TG_ERR_NO_MEMORY ? "out of memory" : "illegal move");
    }
    gtp_commit_game(e, g);
    return 0;
}

int gtp_cmd_play(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    return play_with(e, argv, 0);
}

void tg_gtp_move_command(const tg_board *b, tg_color c, tg_point p, unsigned flags, char *buf, size_t len)
{
    char vertex[8];
    tg_point_to_vertex(b, p, vertex);
    snprintf(buf, len, "%s %c %s", flags & TG_PLAY_CAPTURE_OWN ? "tengen-capture_own" : "play",
             c == TG_BLACK ? 'b' : 'w', vertex);
}

/* tengen-capture_own COLOR VERTEX: the move with the free-opening ruleset's
 * capture choice, the mover's own chains removed (002 §4.3). */
int gtp_cmd_tengen_capture_own(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    return play_with(e, argv, TG_PLAY_CAPTURE_OWN);
}

/* genmove and its variants: ask `genmove` (the caller's move generator
 * when NULL) for a move, offering it the play flags in *flags, and play it
 * when `play` is set.  *flags: the move's.  TG_OK, or why nothing was
 * played. */
static tg_status generate_move(tg_gtp *e, tg_color color, bool cleanup, bool play, tg_gtp_genmove_fn genmove,
                               void *ctx, unsigned *flags, tg_point *move)
{
    unsigned offered = *flags;
    *flags = 0;
    if (!genmove) {
        genmove = e->player.genmove;
        ctx = e->player.ctx;
    }
    if (!genmove)
        return TG_ERR_NOT_ALLOWED;
    tg_game *g = gtp_game_in_play(e, color);
    if (!g) {
        *move = TG_PASS; /* the game cannot go on (out of memory for its copy) */
        return TG_OK;
    }
    unsigned taken = offered;
    tg_status asked = genmove(ctx, g, color, tg_gtp_time_of(e, color), cleanup, &taken, move);
    if (asked != TG_OK) {
        gtp_drop_game(e, g);
        return asked;
    }
    /* never answer an illegal move, or one the command cannot say, whatever the player says */
    if (*move != TG_RESIGN && *move != TG_PASS &&
        ((taken & ~offered) || tg_game_check(g, color, *move, taken | TG_PLAY_ANY_ORDER) != TG_OK)) {
        *move = TG_PASS;
        taken = 0;
    }
    if (*move == TG_RESIGN || *move == TG_PASS)
        taken = 0;
    tg_status st = TG_OK;
    if (play && *move != TG_RESIGN)
        st = tg_game_play(g, color, *move, taken | TG_PLAY_ANY_ORDER);
    if (play && st == TG_OK && *move != TG_RESIGN)
        gtp_commit_game(e, g);
    else
        gtp_drop_game(e, g);
    *flags = taken;
    return st;
}

tg_status tg_gtp_genmove_with(tg_gtp *gtp, tg_color color, bool cleanup, tg_gtp_genmove_fn genmove, void *ctx,
                              tg_point *move)
{
    unsigned flags = 0;
    return generate_move(gtp, color, cleanup, true, genmove, ctx, &flags, move);
}

/* The command: the move as a vertex, "pass" or "resign"; with the capture
 * choice offered (tengen-genmove_choice), " own" after the vertex of a
 * move that takes it. */
static int answer_generated_move(tg_gtp *e, const char *color_arg, bool cleanup, bool play, unsigned offered)
{
    tg_color color;
    if (gtp_arg_color(e, color_arg, &color))
        return -1;
    tg_point move;
    unsigned flags = offered;
    tg_status st = generate_move(e, color, cleanup, play, NULL, NULL, &flags, &move);
    if (st != TG_OK)
        return gtp_fail(e, st == TG_ERR_NO_MEMORY     ? "out of memory"
                           : st == TG_ERR_NOT_ALLOWED ? "no move generator"
                                                      : "generated an illegal move");
    gtp_put_vertex(e, move);
    if (flags & TG_PLAY_CAPTURE_OWN)
        gtp_text_puts(&e->body, " own");
    return 0;
}

int gtp_cmd_genmove(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    return answer_generated_move(e, argv[0], false, true, 0);
}

int gtp_cmd_reg_genmove(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    return answer_generated_move(e, argv[0], false, false, 0);
}

int gtp_cmd_genmove_cleanup(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    return answer_generated_move(e, argv[0], true, true, 0);
}

/* tengen-genmove_choice COLOR: genmove that may take the free-opening
 * ruleset's capture choice (002 §4.3), answered "VERTEX own"; for a
 * controller that can play it (tengen-capture_own) and tell the opponent. */
int gtp_cmd_tengen_genmove_choice(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    return answer_generated_move(e, argv[0], false, true, TG_PLAY_CAPTURE_OWN);
}

int gtp_cmd_undo(tg_gtp *e, int argc, char **argv)
{
    (void)argc, (void)argv;
    if (tg_game_undo(e->game) != TG_OK)
        return gtp_fail(e, "cannot undo");
    return 0;
}

int gtp_cmd_is_legal(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    tg_color color;
    tg_point point;
    if (move_arguments(e, argv, &color, &point))
        return -1;
    tg_game *g = gtp_game_in_play(e, color);
    bool legal = g && tg_game_check(g, color, point, TG_PLAY_ANY_ORDER) == TG_OK;
    if (g)
        gtp_drop_game(e, g);
    gtp_text_puts(&e->body, legal ? "1" : "0");
    return 0;
}
