/*
 * play_free_opening.c — see play_free_opening.h.
 */
#include "cli/play_free_opening.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *colour(tg_color c) { return c == TG_BLACK ? "Black" : "White"; }

/* The person's stone of colour c; false at the end of input or quit. */
static bool person_stone(tg_control *ctl, tg_color c, int number, const play_fo_io *io)
{
    char line[256];
    for (;;) {
        io->show(io->ctx);
        printf("Place opening stone %d (%s), anywhere > ", number, colour(c));
        fflush(stdout);
        if (!io->read(io->ctx, line, sizeof line) || !strcasecmp(line, "quit"))
            return false;
        tg_point p;
        if (tg_vertex_parse(tg_game_board(ctl->game), line, &p) != TG_OK || p == TG_PASS) {
            printf("'%s': type a vertex (no pass in the opening).\n", line);
            continue;
        }
        tg_status st = tg_game_check(ctl->game, c, p, 0);
        if (st != TG_OK) {
            printf("Not there: %s.\n", tg_status_text(st));
            continue;
        }
        return io->play(io->ctx, c, p);
    }
}

/* tengen's stone: its choice, or the first empty point when it has none. */
static bool engine_stone(tg_control *ctl, tg_color c, const play_fo_io *io)
{
    tg_point p = io->engine_stone(io->ctx, c);
    const tg_board *b = tg_game_board(ctl->game);
    for (tg_point q = 0; (p < 0 || tg_game_check(ctl->game, c, p, 0) != TG_OK) && q < b->npoints; q++)
        p = tg_on_board(b, q) && tg_board_at(b, q) == TG_EMPTY ? q : TG_PASS;
    char v[8];
    tg_point_to_vertex(b, p, v);
    printf("tengen places %s at %s\n", colour(c), v);
    return io->play(io->ctx, c, p);
}

static bool read_prediction(const play_fo_io *io, int *white2)
{
    char line[256];
    for (;;) {
        printf("Your sealed prediction of the final difference of the counts\n"
               "(W+N: White ahead by N stones, B+N, or 0; halves allowed) > ");
        fflush(stdout);
        if (!io->read(io->ctx, line, sizeof line) || !strcasecmp(line, "quit"))
            return false;
        if (tg_prediction_parse(line, white2) == TG_OK)
            return true;
        printf("'%s' is not a prediction.\n", line);
    }
}

bool play_free_opening(tg_control *ctl, bool person_first, int64_t prediction_ms,
                       const play_fo_io *io, play_fo_result *out)
{
    memset(out, 0, sizeof *out);
    out->person_first = person_first;
    printf("Free opening: you are the %s player. The first places stones 1 (White) and\n"
           "4 (Black), the second stones 2 (Black) and 3 (White).\n",
           person_first ? "first" : "second");
    int64_t clock_from = 0;
    for (int i = 0; i < 4; i++) {
        tg_color c = tg_opening_colour(i);
        bool person = (tg_opening_placer(i) == 0) == person_first;
        if (person ? !person_stone(ctl, c, i + 1, io) : !engine_stone(ctl, c, io))
            return false;
        if (i == (person_first ? 2 : 3))
            clock_from = tg_clock_now_ms();
    }
    io->show(io->ctx);
    if (prediction_ms > 0)
        printf("You have %lld s to seal your prediction (002 §5.3.3).\n", (long long)(prediction_ms / 1000));
    int mine;
    if (!read_prediction(io, &mine))
        return false;
    if (prediction_ms > 0 && tg_clock_now_ms() - clock_from > prediction_ms) {
        /* until the reveal the first player sits at White */
        tg_color yours = person_first ? TG_WHITE : TG_BLACK;
        tg_result lost = {TG_RESULT_TIME, tg_opponent(yours), 0};
        tg_game_set_result(ctl->game, &lost);
        out->person = yours;
        printf("Your prediction came after the prediction time: you lose on time.\n");
        return false;
    }
    int tengens = io->engine_prediction(io->ctx);
    char a[16], b[16], t[16];
    tg_prediction_format(mine, a, sizeof a);
    tg_prediction_format(tengens, b, sizeof b);
    tg_predictions_decide(person_first ? mine : tengens, person_first ? tengens : mine, &out->decision);
    tg_threshold_format(out->decision.threshold4, t, sizeof t);
    bool first_white = out->decision.first_takes_white;
    out->person = first_white == person_first ? TG_WHITE : TG_BLACK;
    printf("You predicted %s, tengen %s: you play %s; the threshold is %s\n"
           "(%s wins by ending more than that ahead; White moves first).\n",
           a, b, colour(out->person), t, out->decision.threshold4 >= 0 ? "White" : "Black");
    tg_rules rules = *tg_game_rules(ctl->game);
    tg_rules_reveal(&rules, out->decision.first2, out->decision.second2);
    tg_game_set_rules(ctl->game, &rules);
    return true;
}
