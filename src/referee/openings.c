/*
 * openings.c — the openings a match starts its games from: the main lines
 * of an SGF collection, or a plain list of move sequences, one a line.
 * Each is replayed under the match's rules when loaded, so an illegal
 * opening is an error at the start rather than a failure in game 57.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/referee.h"
#include "tengen/sgf.h"

void tg_openings_free(tg_openings *o)
{
    for (int i = 0; i < o->count; i++)
        free(o->moves[i]);
    free(o->moves);
    free(o->len);
    memset(o, 0, sizeof *o);
}

/* Append the moves of game g (after its setup) as one more opening. */
static tg_status add_opening(tg_openings *o, const tg_game *g)
{
    int n = tg_game_move_count(g);
    tg_move **moves = realloc(o->moves, (size_t)(o->count + 1) * sizeof *moves);
    if (!moves)
        return TG_ERR_NO_MEMORY;
    o->moves = moves;
    int *len = realloc(o->len, (size_t)(o->count + 1) * sizeof *len);
    if (!len)
        return TG_ERR_NO_MEMORY;
    o->len = len;
    tg_move *copy = malloc((size_t)(n ? n : 1) * sizeof *copy);
    if (!copy)
        return TG_ERR_NO_MEMORY;
    for (int i = 0; i < n; i++)
        copy[i] = *tg_game_move(g, i);
    o->moves[o->count] = copy;
    o->len[o->count++] = n;
    return TG_OK;
}

static tg_status from_sgf(const char *text, size_t len, int size, const tg_rules *rules,
                          int max_moves, tg_openings *out, char *err, size_t errlen)
{
    tg_sgf_tree *tree;
    tg_sgf_error e;
    if (tg_sgf_parse(text, len, &tree, &e) != TG_OK) {
        snprintf(err, errlen, "line %d, column %d: %s", e.line, e.column, e.message);
        return TG_ERR_PARSE;
    }
    tg_status st = TG_OK;
    int k = 0;
    for (tg_sgf_node *root = tg_sgf_tree_games(tree); root && st == TG_OK; root = root->sibling, k++) {
        tg_game *loaded = NULL, *replay = tg_game_new(size, rules);
        st = replay ? tg_sgf_game_from_tree(root, max_moves, &loaded, NULL, &e) : TG_ERR_NO_MEMORY;
        if (st == TG_OK && tg_game_size(loaded) != size)
            st = TG_ERR_INVALID;
        for (int i = 0; st == TG_OK && i < tg_game_move_count(loaded); i++) {
            const tg_move *m = tg_game_move(loaded, i);
            st = tg_game_play(replay, m->color, m->point, 0);
        }
        if (st == TG_OK)
            st = add_opening(out, replay);
        else
            snprintf(err, errlen, "game %d of the SGF: %s", k + 1, tg_status_text(st));
        tg_game_free(loaded);
        tg_game_free(replay);
    }
    tg_sgf_tree_free(tree);
    return st;
}

static tg_status one_line(char *line, int number, tg_game *g, tg_openings *out, char *err,
                          size_t errlen)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    tg_game_clear(g);
    char *save = NULL;
    int moves = 0;
    for (char *word = strtok_r(line, " \t\r,;", &save); word; word = strtok_r(NULL, " \t\r,;", &save)) {
        tg_point p;
        tg_status st = tg_vertex_parse(tg_game_board(g), word, &p);
        if (st == TG_OK)
            st = tg_game_play(g, tg_game_to_move(g), p, 0);
        if (st != TG_OK) {
            snprintf(err, errlen, "opening on line %d: %s: %s", number, word, tg_status_text(st));
            return st;
        }
        moves++;
    }
    return moves ? add_opening(out, g) : TG_OK;
}

static tg_status from_list(const char *text, size_t len, int size, const tg_rules *rules,
                           tg_openings *out, char *err, size_t errlen)
{
    char *copy = malloc(len + 1);
    tg_game *g = tg_game_new(size, rules);
    tg_status st = copy && g ? TG_OK : TG_ERR_NO_MEMORY;
    if (st == TG_OK) {
        memcpy(copy, text, len);
        copy[len] = 0;
        int number = 1;
        for (char *line = copy; st == TG_OK && line; number++) {
            char *next = strchr(line, '\n');
            if (next)
                *next++ = 0;
            st = one_line(line, number, g, out, err, errlen);
            line = next;
        }
    }
    free(copy);
    tg_game_free(g);
    return st;
}

tg_status tg_openings_parse(const char *text, size_t len, int size, const tg_rules *rules,
                            int max_moves, tg_openings *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
        i++;
    tg_status st = i < len && text[i] == '('
                       ? from_sgf(text, len, size, rules, max_moves, out, err, errlen)
                       : from_list(text, len, size, rules, out, err, errlen);
    if (st == TG_OK && out->count == 0) {
        snprintf(err, errlen, "no opening found");
        st = TG_ERR_PARSE;
    }
    if (st != TG_OK)
        tg_openings_free(out);
    return st;
}
