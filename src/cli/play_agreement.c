/*
 * play_agreement.c — the dead-stone agreement of `tengen play` (C9, or
 * 002 §6 under the free-opening ruleset): after two passes tengen proposes
 * the dead stones, the person accepts them or marks chains dead or alive
 * and says so, and game control counts the game or, on a dispute, resumes
 * play.  See play_agreement.h.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/play_agreement.h"
#include "tengen/score.h"

static const char *color_name(tg_color c) { return c == TG_BLACK ? "Black" : "White"; }

/* "C3 D3" for the dead stones of one colour, or "none". */
static void put_dead(const tg_board *b, const uint8_t *dead, tg_color color)
{
    bool any = false;
    for (int y = b->size - 1; y >= 0; y--)
        for (int x = 0; x < b->size; x++) {
            tg_point p = tg_point_at(b, x, y);
            if (!dead[p] || tg_board_at(b, p) != color)
                continue;
            char v[8];
            tg_point_to_vertex(b, p, v);
            printf(" %s", v);
            any = true;
        }
    if (!any)
        printf(" none");
}

static void show_statement(const tg_game *g, const char *whose, const uint8_t *dead)
{
    const tg_board *b = tg_game_board(g);
    printf("%s dead stones: Black", whose);
    put_dead(b, dead, TG_BLACK);
    printf("; White");
    put_dead(b, dead, TG_WHITE);
    printf("\n");
    tg_score score;
    tg_score_game(g, dead, &score);
    char count[1024];
    tg_score_explain(&score, tg_game_rules(g), count, sizeof count);
    printf("%s\n", count);
}

/* Mark the chain on the vertex dead, or alive again; false when the text
 * is not a vertex with a stone (said). */
static bool toggle_chain(const tg_game *g, const char *text, uint8_t *dead)
{
    const tg_board *b = tg_game_board(g);
    tg_point p, stones[TG_MAX_SIZE * TG_MAX_SIZE];
    if (tg_vertex_parse(b, text, &p) != TG_OK || p == TG_PASS) {
        printf("'%s' is neither a vertex nor done, accept, resign (type help).\n", text);
        return false;
    }
    if (tg_board_at(b, p) != TG_BLACK && tg_board_at(b, p) != TG_WHITE) {
        printf("There is no stone on %s.\n", text);
        return false;
    }
    uint8_t mark = dead[p] ? 0 : 1;
    int n = tg_chain_stones(b, p, stones);
    for (int i = 0; i < n; i++)
        dead[stones[i]] = mark;
    printf("The %s chain on %s (%d stone%s) is now %s.\n", color_name(tg_board_at(b, p)), text, n,
           n == 1 ? "" : "s", mark ? "dead" : "alive");
    return true;
}

/* What a disagreement does under the rules: C9's claimer of "dead" moves
 * first, or 002 §6.3's turn order (dispute=turn). */
static void explain_commands(const tg_rules *rules)
{
    printf("Type a vertex to mark its chain dead (or alive again), then done; accept takes\n"
           "tengen's dead stones as they are; resign.  If you and tengen disagree, play\n"
           "%s\n",
           rules->dispute_in_turn ? "resumes in turn order (002 §6.3)."
                                  : "resumes and whoever claims a disputed stone dead moves first (C9).");
}

tg_control_phase play_agree_dead_stones(tg_control *ctl, tg_color human, int64_t now_ms,
                                        play_read_fn read, void *ctx)
{
    const tg_game *g = ctl->game;
    uint8_t proposed[TG_MAX_POINTS], marked[TG_MAX_POINTS];
    tg_control_phase phase = tg_control_phase_of(ctl);
    tg_game_estimate_dead(g, 0, 0, proposed);
    if (tg_control_state_dead(ctl, tg_opponent(human), proposed, now_ms, &phase) != TG_OK)
        return phase;
    memcpy(marked, proposed, sizeof marked);
    const tg_rules *rules = tg_game_rules(g);
    printf("Both sides passed: the dead stones are agreed before the count (%s).\n",
           rules->dispute_in_turn ? "002 §6" : "C9");
    show_statement(g, "tengen's", proposed);
    explain_commands(rules);
    char line[256];
    for (;;) {
        printf("dead stones > ");
        fflush(stdout);
        if (!read(ctx, line, sizeof line) || !strcasecmp(line, "quit") || !strcasecmp(line, "exit")) {
            printf("\nYou accept tengen's dead stones.\n");
            tg_control_concede(ctl, human, now_ms, &phase);
            return phase;
        }
        if (!strcasecmp(line, "help") || !strcmp(line, "?")) {
            explain_commands(rules);
        } else if (!strcasecmp(line, "resign")) {
            tg_control_resign(ctl, human);
            return tg_control_phase_of(ctl);
        } else if (!strcasecmp(line, "done") || !strcasecmp(line, "accept")) {
            tg_control_state_dead(ctl, human, !strcasecmp(line, "accept") ? proposed : marked, now_ms,
                                  &phase);
            if (phase == TG_PHASE_PLAY)
                printf("You and tengen disagree about the dead stones: play resumes%s, %s to move.\n",
                       rules->dispute_in_turn ? " in turn order" : "", color_name(tg_game_to_move(g)));
            return phase;
        } else if (line[0] && toggle_chain(g, line, marked)) {
            show_statement(g, "Your", marked);
        }
    }
}
