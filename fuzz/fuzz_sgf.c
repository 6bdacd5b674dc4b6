/*
 * fuzz_sgf.c — libFuzzer target for the SGF reader, writer and loader.
 *
 * For any input: parsing either fails with a position and a message or
 * gives a tree; a tree written and parsed again writes the same text; each
 * game that loads saves to a text that loads again into the same position.
 * Any crash, sanitizer report or broken invariant (abort) is a bug.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/sgf.h"

static void require(bool condition)
{
    if (!condition)
        abort();
}

static void check_error(const tg_sgf_error *err)
{
    require(err->line >= 1 && err->column >= 1 && err->message[0]);
}

/* write(parse(write(tree))) == write(tree) */
static void check_round_trip(const tg_sgf_tree *tree)
{
    size_t length, again_length;
    char *text = tg_sgf_write(tree, &length);
    require(text != NULL);
    tg_sgf_tree *again;
    tg_sgf_error err;
    require(tg_sgf_parse(text, length, &again, &err) == TG_OK);
    require(tg_sgf_tree_node_count(again) == tg_sgf_tree_node_count(tree));
    char *again_text = tg_sgf_write(again, &again_length);
    require(again_text && again_length == length && !memcmp(text, again_text, length));
    free(again_text);
    tg_sgf_tree_free(again);
    free(text);
}

/* A loaded game saves to a text that loads into the same position. */
static void check_save(const tg_game *g, const tg_sgf_info *info)
{
    char *text = tg_sgf_save_game(g, info);
    require(text != NULL);
    tg_game *back;
    tg_sgf_error err;
    require(tg_sgf_load_game(text, strlen(text), -1, &back, NULL, &err) == TG_OK);
    const tg_board *a = tg_game_board(g), *b = tg_game_board(back);
    require(tg_game_move_count(back) == tg_game_move_count(g));
    require(a->size == b->size && !memcmp(a->color, b->color, (size_t)a->npoints));
    tg_game_free(back);
    free(text);
}

/* Every node of the collection through the value decoders, walking the
 * tree without recursion as a user of the tree API would. */
static void decode_everything(const tg_sgf_tree *tree)
{
    static tg_board board;
    static tg_point points[TG_MAX_POINTS];
    if (!board.size)
        tg_board_init(&board, 19);
    const tg_sgf_node *node = tg_sgf_tree_games(tree);
    while (node) {
        double time;
        int moves, number;
        tg_status st;
        tg_point p;
        tg_sgf_node_clock(node, TG_BLACK, &time, &moves);
        tg_sgf_node_clock(node, TG_WHITE, &time, &moves);
        for (const tg_sgf_property *prop = node->properties; prop; prop = prop->next) {
            require(prop->values && prop->id[0]);
            int n = tg_sgf_decode_points(&board, prop, points, &st);
            require(n >= -1 && n <= 19 * 19);
            tg_sgf_decode_move(&board, prop->values->text, &p);
            tg_sgf_decode_komi(prop->values->text, &number);
            tg_sgf_decode_size(prop->values->text, &number);
        }
        if (node->child) {
            node = node->child;
            continue;
        }
        while (node && !node->sibling)
            node = node->parent;
        if (node)
            node = node->sibling;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    tg_sgf_tree *tree;
    tg_sgf_error err;
    if (tg_sgf_parse(text, size, &tree, &err) != TG_OK) {
        check_error(&err);
        return 0;
    }
    check_round_trip(tree);
    decode_everything(tree);
    int games = 0;
    for (const tg_sgf_node *root = tg_sgf_tree_games(tree); root && games < 4;
         root = root->sibling, games++) {
        tg_game *g;
        tg_sgf_info info;
        if (tg_sgf_game_from_tree(root, -1, &g, &info, &err) != TG_OK) {
            check_error(&err);
            continue;
        }
        check_save(g, &info);
        tg_game_free(g);
    }
    tg_sgf_tree_free(tree);
    return 0;
}
