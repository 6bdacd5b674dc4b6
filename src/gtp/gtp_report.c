/*
 * gtp_report.c — the commands that describe the position or move it in
 * and out of SGF: showboard, list_stones, captures, final_score,
 * final_status_list, loadsgf and printsgf.
 *
 * final_score and final_status_list agree on the dead stones: both take
 * them from one estimate per position (the front end's, or the estimator of
 * score.h seeded by the position itself, as `tengen score` counts), kept
 * until the position changes, so asking twice, or asking both, gives one
 * consistent answer.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtp/gtp_internal.h"
#include "tengen/free_opening.h"
#include "tengen/score.h"
#include "tengen/sgf.h"

/* ---- showboard ---------------------------------------------------------- */

int gtp_cmd_showboard(tg_gtp *e, int argc, char **argv)
{
    (void)argc, (void)argv;
    char board[4096];
    tg_game_render(e->game, board, sizeof board);
    gtp_text_puts(&e->body, "\n");
    gtp_text_puts(&e->body, board);
    return 0;
}

/* ---- Stones and captures ------------------------------------------------ */

int gtp_cmd_list_stones(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    tg_color color;
    if (gtp_arg_color(e, argv[0], &color))
        return -1;
    const tg_board *b = tg_game_board(e->game);
    bool first = true;
    for (int y = b->size - 1; y >= 0; y--)
        for (int x = 0; x < b->size; x++) {
            tg_point p = tg_point_at(b, x, y);
            if (tg_board_at(b, p) != color)
                continue;
            if (!first)
                gtp_text_append(&e->body, " ", 1);
            gtp_put_vertex(e, p);
            first = false;
        }
    return 0;
}

int gtp_cmd_captures(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    tg_color color;
    if (gtp_arg_color(e, argv[0], &color))
        return -1;
    gtp_text_printf(&e->body, "%d", tg_game_board(e->game)->captures[color]);
    return 0;
}

/* ---- Scoring ------------------------------------------------------------ */

static bool dead_cache_holds(const gtp_dead_cache *c, const tg_game *g)
{
    const tg_board *b = tg_game_board(g);
    return c->valid && c->board_hash == b->hash && c->size == b->size &&
           c->to_move == tg_game_to_move(g) && !memcmp(&c->rules, tg_game_rules(g), sizeof c->rules);
}

/* The dead stones, dead[p] != 0: none when the rules keep every stone on
 * the board (Tromp-Taylor), else the estimate for this position, made once
 * and kept while the position stands. */
static void find_dead_stones(tg_gtp *e, uint8_t *dead)
{
    const tg_game *g = e->game;
    gtp_dead_cache *c = &e->dead_cache;
    if (!dead_cache_holds(c, g)) {
        memset(c->dead, 0, sizeof c->dead);
        if (tg_game_rules(g)->dead_removed) {
            if (e->player.dead_stones)
                e->player.dead_stones(e->player.ctx, g, c->dead);
            else
                tg_game_estimate_dead(g, 0, 0, c->dead);
        }
        c->board_hash = tg_game_board(g)->hash;
        c->size = tg_game_board(g)->size;
        c->to_move = tg_game_to_move(g);
        memcpy(&c->rules, tg_game_rules(g), sizeof c->rules);
        c->valid = true;
    }
    memcpy(dead, c->dead, TG_MAX_POINTS);
}

int gtp_cmd_final_score(tg_gtp *e, int argc, char **argv)
{
    (void)argc, (void)argv;
    /* A cycle decided the game, whatever the controller played after it. */
    tg_result cycle = tg_game_cycle_result(e->game);
    if (cycle.kind == TG_RESULT_NO_RESULT)
        return gtp_fail(e, "no result: a cycle ended the game (the rules' cycle=no-result)");
    if (cycle.kind == TG_RESULT_SCORE) {
        gtp_text_puts(&e->body, "0");
        return 0;
    }
    uint8_t dead[TG_MAX_POINTS];
    find_dead_stones(e, dead);
    tg_score score;
    tg_score_game(e->game, dead, &score);
    if (score.result.kind != TG_RESULT_SCORE)
        return gtp_fail(e, "cannot score");
    char result[32];
    tg_result_to_sgf(&score.result, result, sizeof result);
    gtp_text_puts(&e->body, result);
    return 0;
}

static int ascending(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The stones of a chain in board order (top row first, left to right), as
 * list_stones gives them, so the answers do not depend on chain internals. */
static void put_chain(tg_gtp *e, const tg_point *stones, int n)
{
    const tg_board *b = tg_game_board(e->game);
    int keys[TG_MAX_SIZE * TG_MAX_SIZE];
    for (int i = 0; i < n; i++) {
        int order = (b->size - 1 - tg_point_y(b, stones[i])) * TG_MAX_SIZE + tg_point_x(b, stones[i]);
        keys[i] = order << 16 | stones[i];
    }
    qsort(keys, (size_t)n, sizeof keys[0], ascending);
    for (int i = 0; i < n; i++) {
        if (i)
            gtp_text_append(&e->body, " ", 1);
        gtp_put_vertex(e, keys[i] & 0xffff);
    }
}

/* One line per chain whose status is wanted. */
static void put_chains(tg_gtp *e, const uint8_t *dead, bool want_dead)
{
    const tg_board *b = tg_game_board(e->game);
    bool done[TG_MAX_POINTS] = {false};
    tg_point stones[TG_MAX_SIZE * TG_MAX_SIZE];
    bool first_line = true;
    for (int y = b->size - 1; y >= 0; y--)
        for (int x = 0; x < b->size; x++) {
            tg_point p = tg_point_at(b, x, y);
            if (tg_board_at(b, p) == TG_EMPTY || done[p])
                continue;
            int n = tg_chain_stones(b, p, stones);
            for (int i = 0; i < n; i++)
                done[stones[i]] = true;
            if ((dead[p] != 0) != want_dead)
                continue;
            if (!first_line)
                gtp_text_append(&e->body, "\n", 1);
            put_chain(e, stones, n);
            first_line = false;
        }
}

int gtp_cmd_final_status_list(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    bool alive = gtp_same_word(argv[0], "alive"), dead_wanted = gtp_same_word(argv[0], "dead");
    if (gtp_same_word(argv[0], "seki"))
        return 0;   /* the score layer does not single out seki groups yet */
    if (!alive && !dead_wanted)
        return gtp_fail(e, "syntax error");
    uint8_t dead[TG_MAX_POINTS];
    find_dead_stones(e, dead);
    put_chains(e, dead, dead_wanted);
    return 0;
}

/* ---- SGF files ---------------------------------------------------------- */

/* loadsgf FILE [move_number]: the position before move_number is played
 * (the whole main line without it).  Any failure keeps the old game. */
int gtp_cmd_loadsgf(tg_gtp *e, int argc, char **argv)
{
    long move_number = 0;
    if (argc == 2 && !gtp_parse_int(argv[1], 1, INT_MAX, &move_number))
        return gtp_fail(e, "syntax error");
    char *data = NULL;
    size_t len = 0;
    if (!e->read_file || e->read_file(e->file_ctx, argv[0], &data, &len) != TG_OK)
        return gtp_fail(e, "cannot load file");
    tg_game *g = NULL;
    tg_sgf_error err = {0};
    tg_sgf_info *info = malloc(sizeof *info);
    tg_status st = info ? tg_sgf_load_game(data, len, argc == 2 ? (int)move_number - 1 : -1, &g, info, &err)
                        : TG_ERR_NO_MEMORY;
    free(data);
    if (st == TG_OK && g && info->has_predictions) /* a free opening's threshold, exactly */
        tg_game_reveal(g, info->prediction_first2, info->prediction_second2);
    if (st == TG_OK && g && e->warn) {
        int kept = info->notes.count < TG_SGF_MAX_NOTES ? info->notes.count : TG_SGF_MAX_NOTES;
        for (int i = 0; i < kept; i++) {
            char line[256];
            const tg_sgf_error *n = &info->notes.note[i];
            snprintf(line, sizeof line, "%.60s:%d:%d: warning: %s", argv[0], n->line, n->column, n->message);
            e->warn(e->warn_ctx, line);
        }
    }
    free(info);
    if (st != TG_OK || !g) {
        tg_game_free(g);
        gtp_text_clear(&e->body);
        gtp_text_printf(&e->body, "cannot load file: line %d, column %d: %.160s", err.line,
                        err.column, err.message);
        return -1;
    }
    gtp_set_game(e, g);
    return 0;
}

/* printsgf [FILE]: the game as SGF, in the answer or written to FILE;
 * under a free opening whose predictions are revealed (tengen-predictions,
 * or loadsgf), with PF, PS and FC as every other front end writes them. */
int gtp_cmd_printsgf(tg_gtp *e, int argc, char **argv)
{
    tg_sgf_info info;
    memset(&info, 0, sizeof info);
    info.main_time = -1;
    const tg_rules *rules = tg_game_rules(e->game);
    if (rules->revealed) {
        tg_predictions p;
        tg_predictions_decide(rules->prediction_first2, rules->prediction_second2, &p);
        info.has_predictions = true;
        info.prediction_first2 = p.first2;
        info.prediction_second2 = p.second2;
        info.first_player = p.first_takes_white ? TG_WHITE : TG_BLACK;
    }
    char *sgf = tg_sgf_save_game(e->game, &info);
    if (!sgf)
        return gtp_fail(e, "out of memory");
    int status = 0;
    if (argc == 0)
        gtp_text_puts(&e->body, sgf);
    else if (!e->write_file || e->write_file(e->file_ctx, argv[0], sgf, strlen(sgf)) != TG_OK)
        status = gtp_fail(e, "cannot save file");
    free(sgf);
    return status;
}
