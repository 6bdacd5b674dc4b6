/*
 * sgf_save.c — a tg_game as an SGF tree and text: the root with the game
 * information, rules, komi, handicap and starting stones, then one node per
 * move, and a setup node (AB AW AE) wherever stones were placed or removed
 * between moves.  The game's setup history (tg_game_setup_at) says what was
 * placed when; each batch is written as its net change, each point once,
 * which is what SGF asks of a node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/free_opening.h"
#include "tengen/score.h"
#include "sgf/sgf_internal.h"

#ifndef TENGEN_VERSION
#define TENGEN_VERSION "0.1.0"
#endif

typedef struct builder {
    tg_sgf_tree *tree;
    const tg_game *game;
    const tg_sgf_info *info;   /* may be NULL */
    const tg_board *board;
    tg_status status;          /* the first failure, if any */
    int next_setup;            /* index of the first setup not yet written */
    uint8_t batch[TG_MAX_POINTS];        /* net colour + 1 of each point a batch touched */
    tg_point touched[TG_MAX_POINTS];     /* those points, in the order first touched */
} builder;

static void add(builder *bd, tg_sgf_node *node, const char *id, const char *text)
{
    if (bd->status == TG_OK && text && text[0])
        bd->status = tg_sgf_property_add(bd->tree, node, id, text, strlen(text));
}

static void add_point(builder *bd, tg_sgf_node *node, const char *id, tg_point p)
{
    char text[3];
    tg_sgf_encode_point(bd->board, p, text);
    if (bd->status == TG_OK)
        bd->status = tg_sgf_property_add(bd->tree, node, id, text, strlen(text));
}

static tg_sgf_node *add_node(builder *bd, tg_sgf_node *parent)
{
    tg_sgf_node *node = bd->status == TG_OK ? tg_sgf_node_add(bd->tree, parent) : NULL;
    if (!node && bd->status == TG_OK)
        bd->status = TG_ERR_NO_MEMORY;
    return node;
}

/* ---- the root --------------------------------------------------------- */

static void add_info(builder *bd, tg_sgf_node *root, const tg_sgf_info *info)
{
    char result[64] = "";
    const tg_result *r = tg_game_result(bd->game);
    if (r->kind != TG_RESULT_NONE)
        tg_result_to_sgf(r, result, sizeof result);
    else if (info)
        snprintf(result, sizeof result, "%s", info->result);
    if (info) {
        add(bd, root, "PB", info->black);
        add(bd, root, "BR", info->black_rank);
        add(bd, root, "PW", info->white);
        add(bd, root, "WR", info->white_rank);
        add(bd, root, "DT", info->date);
        add(bd, root, "EV", info->event);
        add(bd, root, "RO", info->round);
        if (info->main_time >= 0) {
            char tm[32];
            snprintf(tm, sizeof tm, "%.10g", info->main_time);
            add(bd, root, "TM", tm);
        }
        add(bd, root, "OT", info->overtime);
        if (info->has_predictions) {
            char pf[16], ps[16];
            tg_prediction_format(info->prediction_first2, pf, sizeof pf);
            tg_prediction_format(info->prediction_second2, ps, sizeof ps);
            add(bd, root, "PF", pf);
            add(bd, root, "PS", ps);
            add(bd, root, "FC", info->first_player == TG_BLACK ? "B" : "W");
        }
    }
    add(bd, root, "RE", result);
}

static void add_rules(builder *bd, tg_sgf_node *root)
{
    const tg_game *g = bd->game;
    char text[256]; /* a custom ruleset's RU names every option (about 200 bytes) */
    snprintf(text, sizeof text, "%d", tg_game_size(g));
    add(bd, root, "SZ", text);
    tg_rules_to_sgf(tg_game_rules(g), text, sizeof text);
    add(bd, root, "RU", text);
    tg_komi_format(tg_game_rules(g)->komi2, text, sizeof text);
    add(bd, root, "KM", text);
    int handicap = tg_game_handicap(g);
    if (handicap >= 2) {
        snprintf(text, sizeof text, "%d", handicap);
        add(bd, root, "HA", text);
    }
}

/* ---- setup ------------------------------------------------------------ */

/* Write the setups made before move `before_move` into node as their net
 * change.  Returns how many setups there were. */
static int add_setup_batch(builder *bd, tg_sgf_node *node, int before_move)
{
    static const char *const ids[] = {[TG_EMPTY] = "AE", [TG_BLACK] = "AB", [TG_WHITE] = "AW"};
    int touched = 0, first = bd->next_setup;
    const tg_setup *s;
    while ((s = tg_game_setup_at(bd->game, bd->next_setup)) && s->before_move == before_move) {
        if (!bd->batch[s->point])
            bd->touched[touched++] = s->point;
        bd->batch[s->point] = (uint8_t)(s->color + 1);
        bd->next_setup++;
    }
    for (tg_color c = TG_EMPTY; c <= TG_WHITE; c++)
        for (int i = 0; i < touched; i++)
            if (bd->batch[bd->touched[i]] == c + 1)
                add_point(bd, node, ids[c], bd->touched[i]);
    for (int i = 0; i < touched; i++)
        bd->batch[bd->touched[i]] = 0;
    return bd->next_setup - first;
}

/* The root's stones; HA was written by add_rules.  The handicap is read
 * back as such when the root holds exactly that many black stones. */
static void add_start(builder *bd, tg_sgf_node *root)
{
    add_setup_batch(bd, root, 0);
}

/* Whether the reader will take the root's stones as a handicap (see
 * sgf_load.c): HA[n] with n black stones and nothing else set up. */
static bool root_reads_as_handicap(const tg_sgf_node *root, int handicap)
{
    const tg_sgf_property *ab = tg_sgf_property_find(root, "AB");
    if (handicap < 2 || !ab || tg_sgf_property_find(root, "AW") || tg_sgf_property_find(root, "AE"))
        return false;
    int n = 0;
    for (const tg_sgf_value *v = ab->values; v; v = v->next)
        n++;
    return n == handicap;
}

/* The side the reader will have to move after the last node, compared with
 * the game's; PL settles any difference. */
static void add_player(builder *bd, tg_sgf_node *last, bool last_has_move)
{
    const tg_game *g = bd->game;
    int moves = tg_game_move_count(g);
    bool handicap = root_reads_as_handicap(tg_sgf_tree_games(bd->tree), tg_game_handicap(g));
    tg_color expected = moves ? tg_opponent(tg_game_move(g, moves - 1)->color)
                              : handicap ? TG_WHITE : TG_BLACK;
    tg_color to_move = tg_game_to_move(g);
    if (to_move == expected || (to_move != TG_BLACK && to_move != TG_WHITE))
        return;
    if (last_has_move)
        last = add_node(bd, last);
    if (last)
        add(bd, last, "PL", to_move == TG_WHITE ? "W" : "B");
}

/* ---- the count -------------------------------------------------------- */

/* TB and TW on the last node: the territory of the count with the dead
 * stones of info, and each dead stone's point as its opponent's, so that
 * the reader finds the dead stones under the other colour's mark (see
 * tg_sgf_info.has_dead). */
static void add_areas(builder *bd, tg_sgf_node *last)
{
    const tg_board *b = bd->board;
    const tg_rules *rules = tg_game_rules(bd->game);
    const uint8_t *dead = bd->info->dead;
    uint8_t area[TG_MAX_POINTS];
    tg_score_territory(b, rules, dead, area);
    for (tg_point p = 0; p < b->npoints; p++) {
        tg_color stone = tg_board_at(b, p);
        if (stone == TG_BLACK || stone == TG_WHITE)
            area[p] = dead[p] && rules->dead_removed ? (uint8_t)tg_opponent(stone) : TG_EMPTY;
    }
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        const char *id = c == TG_BLACK ? "TB" : "TW";
        for (int y = b->size - 1; y >= 0; y--)
            for (int x = 0; x < b->size; x++)
                if (area[tg_point_at(b, x, y)] == c)
                    add_point(bd, last, id, tg_point_at(b, x, y));
        /* an empty list (FF[4] elist) still says the game was counted */
        if (bd->status == TG_OK && !tg_sgf_property_find(last, id))
            bd->status = tg_sgf_property_add(bd->tree, last, id, "", 0);
    }
}

static tg_sgf_node *last_node(tg_sgf_node *root)
{
    while (root->child)
        root = root->child;
    return root;
}

/* ---- the moves -------------------------------------------------------- */

bool tg_sgf_record_clock(tg_sgf_move_clock **clocks, int *cap, int index, const tg_clock *c,
                         tg_color mover, int64_t now_ms)
{
    if (index < 0)
        return false;
    if (index >= *cap) {
        int grown = *cap ? 2 * *cap : 256;
        while (grown <= index)
            grown *= 2;
        tg_sgf_move_clock *bigger = realloc(*clocks, (size_t)grown * sizeof *bigger);
        if (!bigger)
            return false;
        memset(bigger + *cap, 0, (size_t)(grown - *cap) * sizeof *bigger);
        *clocks = bigger;
        *cap = grown;
    }
    tg_clock_view v;
    tg_clock_view_of(c, mover, now_ms, &v);
    tg_sgf_move_clock *mc = &(*clocks)[index];
    tg_clock_sgf_left(&v, &c->tc, &mc->seconds, &mc->moves);
    mc->recorded = true;
    return true;
}

/* BL/WL and OB/OW of move i, when the caller recorded them.  Seconds are
 * written with at most three decimals (the clock counts milliseconds). */
static void add_move_clock(builder *bd, tg_sgf_node *node, int i, tg_color mover)
{
    const tg_sgf_info *info = bd->info;
    if (!info || !info->clocks || i >= info->clock_count || !info->clocks[i].recorded)
        return;
    const tg_sgf_move_clock *mc = &info->clocks[i];
    char text[40];
    snprintf(text, sizeof text, "%.3f", mc->seconds > 0 ? mc->seconds : 0.0);
    size_t n = strlen(text);
    while (text[n - 1] == '0')
        text[--n] = '\0';
    if (text[n - 1] == '.')
        text[n - 1] = '\0';
    add(bd, node, mover == TG_BLACK ? "BL" : "WL", text);
    if (mc->moves >= 0) {
        snprintf(text, sizeof text, "%d", mc->moves);
        add(bd, node, mover == TG_BLACK ? "OB" : "OW", text);
    }
}

static void add_moves(builder *bd, tg_sgf_node *node)
{
    const tg_game *g = bd->game;
    bool last_has_move = false;
    for (int i = 0; i < tg_game_move_count(g) && bd->status == TG_OK; i++) {
        const tg_move *move = tg_game_move(g, i);
        node = add_node(bd, node);
        if (!node)
            return;
        add_point(bd, node, move->color == TG_BLACK ? "B" : "W", move->point);
        if (tg_game_move_captured_own(g, i))
            add(bd, node, "CC", "own");
        add_move_clock(bd, node, i, move->color);
        last_has_move = true;
        const tg_setup *s = tg_game_setup_at(g, bd->next_setup);
        if (s && s->before_move == i + 1) {
            node = add_node(bd, node);
            if (!node)
                return;
            add_setup_batch(bd, node, i + 1);
            last_has_move = false;
        }
    }
    add_player(bd, node, last_has_move);
}

tg_sgf_tree *tg_sgf_tree_from_game(const tg_game *g, const tg_sgf_info *info)
{
    builder *bd = calloc(1, sizeof *bd);
    if (!bd)
        return NULL;
    bd->tree = tg_sgf_tree_new();
    bd->game = g;
    bd->info = info;
    bd->board = tg_game_board(g);
    tg_sgf_node *root = bd->tree ? add_node(bd, NULL) : NULL;
    if (root) {
        add(bd, root, "GM", "1");
        add(bd, root, "FF", "4");
        add(bd, root, "CA", "UTF-8");
        add(bd, root, "AP", "tengen:" TENGEN_VERSION);
        add_rules(bd, root);
        add_info(bd, root, info);
        add_start(bd, root);
        add_moves(bd, root);
        if (info && info->has_dead && bd->status == TG_OK)
            add_areas(bd, last_node(root));
    }
    tg_sgf_tree *tree = bd->tree;
    if (!root || bd->status != TG_OK) {
        tg_sgf_tree_free(tree);
        tree = NULL;
    }
    free(bd);
    return tree;
}

char *tg_sgf_save_game(const tg_game *g, const tg_sgf_info *info)
{
    tg_sgf_tree *tree = tg_sgf_tree_from_game(g, info);
    if (!tree)
        return NULL;
    char *text = tg_sgf_write(tree, NULL);
    tg_sgf_tree_free(tree);
    return text;
}
