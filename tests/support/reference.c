/*
 * reference.c — the deliberately simple referee of reference.h: a 2-D array,
 * flood fill for every capture, whole-board comparison for every
 * repetition.  Slow on purpose and easy to check by eye; the differential
 * test compares libtengen against it move by move.
 */
#include "reference.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CELLS (TG_MAX_SIZE * TG_MAX_SIZE)

void ref_init(ref_game *g, int size, const tg_rules *rules)
{
    memset(g, 0, sizeof *g);
    g->size = size;
    g->ko = rules->ko;
    g->suicide = rules->suicide;
    g->cycle = rules->cycle;
    ref_clear(g);
}

void ref_free(ref_game *g)
{
    for (int i = 0; i < g->cap_history; i++)
        free(g->history[i].stones);
    free(g->history);
    free(g->next_with_black);
    g->history = NULL;
    g->next_with_black = NULL;
    g->nhistory = g->cap_history = 0;
}

static void push_situation(ref_game *g, bool by_pass, bool by_move)
{
    if (g->nhistory == g->cap_history) {
        int cap = g->cap_history ? 2 * g->cap_history : 64;
        g->history = realloc(g->history, (size_t)cap * sizeof *g->history);
        g->next_with_black = realloc(g->next_with_black, (size_t)cap * sizeof *g->next_with_black);
        if (!g->history || !g->next_with_black)
            abort();
        for (int i = g->cap_history; i < cap; i++)
            if (!(g->history[i].stones = malloc(MAX_CELLS)))
                abort();
        g->cap_history = cap;
    }
    ref_situation *s = &g->history[g->nhistory++];
    int cells = g->size * g->size;
    memcpy(s->stones, g->stones, (size_t)cells);
    s->to_move = g->to_move;
    s->count[TG_BLACK] = s->count[TG_WHITE] = 0;
    for (int i = 0; i < cells; i++)
        s->count[g->stones[i]]++;
    s->by_pass = by_pass;
    s->by_move = by_move;
    g->next_with_black[g->nhistory - 1] = g->first_with_black[s->count[TG_BLACK]];
    g->first_with_black[s->count[TG_BLACK]] = g->nhistory - 1;
}

/* Forget the history: the current position becomes the start. */
static void restart_history(ref_game *g)
{
    g->nhistory = 0;
    for (int i = 0; i <= MAX_CELLS; i++)
        g->first_with_black[i] = -1;
    push_situation(g, false, false);
}

void ref_clear(ref_game *g)
{
    memset(g->stones, TG_EMPTY, sizeof g->stones);
    g->captures[TG_BLACK] = g->captures[TG_WHITE] = 0;
    g->to_move = TG_BLACK;
    g->passes = 0;
    g->over = false;
    g->ending = TG_RESULT_NONE;
    restart_history(g);
}

void ref_setup(ref_game *g, int x, int y, tg_color c)
{
    g->stones[y * g->size + x] = (uint8_t)c;
    g->passes = 0;
    restart_history(g);
}

void ref_set_to_move(ref_game *g, tg_color c)
{
    g->to_move = c;
    g->history[g->nhistory - 1].to_move = c;
}

/* Flood fill the chain at `start` into `chain`; returns its size and sets
 * *has_liberty. */
static int flood_chain(const uint8_t *stones, int size, int start, int *chain, bool *has_liberty)
{
    bool seen[MAX_CELLS];
    memset(seen, 0, (size_t)(size * size));
    tg_color colour = (tg_color)stones[start];
    int n = 0;
    chain[n++] = start;
    seen[start] = true;
    *has_liberty = false;
    for (int i = 0; i < n; i++) {
        int x = chain[i] % size, y = chain[i] / size;
        const int nx[4] = {x - 1, x + 1, x, x};
        const int ny[4] = {y, y, y - 1, y + 1};
        for (int k = 0; k < 4; k++) {
            if (nx[k] < 0 || nx[k] >= size || ny[k] < 0 || ny[k] >= size)
                continue;
            int q = ny[k] * size + nx[k];
            if (stones[q] == TG_EMPTY)
                *has_liberty = true;
            else if (stones[q] == colour && !seen[q]) {
                seen[q] = true;
                chain[n++] = q;
            }
        }
    }
    return n;
}

/* Remove the chain at `start` when it has no liberty; returns the stones removed. */
static int remove_if_dead(uint8_t *stones, int size, int start)
{
    int chain[MAX_CELLS];
    bool has_liberty;
    int n = flood_chain(stones, size, start, chain, &has_liberty);
    if (has_liberty)
        return 0;
    for (int i = 0; i < n; i++)
        stones[chain[i]] = TG_EMPTY;
    return n;
}

/* The board after `c` plays at (x, y), by the rules of capture alone (C5,
 * C6): the opponent's chains without liberty go first, then the mover's own
 * chain if it still has none.  *captured counts the opponent's stones
 * removed, *suicided the mover's. */
static tg_status place(const ref_game *g, tg_color c, int x, int y, uint8_t *after, int *captured, int *suicided)
{
    int size = g->size, p = y * size + x;
    *captured = *suicided = 0;
    if (g->stones[p] != TG_EMPTY)
        return TG_ERR_OCCUPIED;
    memcpy(after, g->stones, (size_t)(size * size));
    after[p] = (uint8_t)c;
    const int nx[4] = {x - 1, x + 1, x, x};
    const int ny[4] = {y, y, y - 1, y + 1};
    for (int k = 0; k < 4; k++) {
        if (nx[k] < 0 || nx[k] >= size || ny[k] < 0 || ny[k] >= size)
            continue;
        int q = ny[k] * size + nx[k];
        if (after[q] == tg_opponent(c))
            *captured += remove_if_dead(after, size, q);
    }
    if (*captured)
        return TG_OK;
    int chain[MAX_CELLS];
    bool has_liberty;
    int n = flood_chain(after, size, p, chain, &has_liberty);
    if (has_liberty)
        return TG_OK;
    if (n == 1 || !g->suicide)
        return TG_ERR_SUICIDE;
    for (int i = 0; i < n; i++)
        after[chain[i]] = TG_EMPTY;
    *suicided = n;
    return TG_OK;
}

static bool same_board(const ref_game *g, const ref_situation *s, const uint8_t *stones, const int *count)
{
    return s->count[TG_BLACK] == count[TG_BLACK] && s->count[TG_WHITE] == count[TG_WHITE] &&
           !memcmp(s->stones, stones, (size_t)(g->size * g->size));
}

static tg_status repetition(const ref_game *g, tg_color c, const uint8_t *after, int captured, int suicided)
{
    int count[3] = {0, 0, 0};
    for (int i = 0; i < g->size * g->size; i++)
        count[after[i]]++;
    if (g->ko == TG_KO_SIMPLE) {
        /* only the immediate recapture: back to the board before the opponent's move */
        const ref_situation *now = &g->history[g->nhistory - 1];
        if (captured == 1 && !suicided && now->by_move && g->nhistory >= 2 &&
            same_board(g, &g->history[g->nhistory - 2], after, count))
            return TG_ERR_KO;
        return TG_OK;
    }
    for (int i = g->first_with_black[count[TG_BLACK]]; i >= 0; i = g->next_with_black[i]) {
        const ref_situation *s = &g->history[i];
        if (g->ko == TG_KO_SITUATIONAL && s->to_move != tg_opponent(c))
            continue;
        if (same_board(g, s, after, count))
            return TG_ERR_SUPERKO;
    }
    return TG_OK;
}

static tg_status check_into(const ref_game *g, tg_color c, int x, int y, uint8_t *after, int *captured, int *suicided)
{
    if (g->over)
        return TG_ERR_GAME_OVER;
    if (c != g->to_move)
        return TG_ERR_WRONG_PLAYER;
    if (x < 0)
        return TG_OK;
    tg_status s = place(g, c, x, y, after, captured, suicided);
    if (s != TG_OK)
        return s;
    return repetition(g, c, after, *captured, *suicided);
}

tg_status ref_check(const ref_game *g, tg_color c, int x, int y)
{
    uint8_t after[MAX_CELLS];
    int captured, suicided;
    return check_into(g, c, x, y, after, &captured, &suicided);
}

/* Occurrences of the current situation since the last pass. */
static int cycle_occurrences(const ref_game *g)
{
    const ref_situation *now = &g->history[g->nhistory - 1];
    int count = 0;
    for (int i = g->nhistory - 1; i >= 0; i--) {
        const ref_situation *s = &g->history[i];
        if (s->to_move == now->to_move && same_board(g, s, now->stones, now->count))
            count++;
        if (s->by_pass)
            break;
    }
    return count;
}

tg_status ref_play(ref_game *g, tg_color c, int x, int y)
{
    uint8_t after[MAX_CELLS];
    int captured = 0, suicided = 0;
    tg_status s = check_into(g, c, x, y, after, &captured, &suicided);
    if (s != TG_OK)
        return s;
    if (x >= 0) {
        memcpy(g->stones, after, (size_t)(g->size * g->size));
        g->captures[c] += captured;
        g->captures[tg_opponent(c)] += suicided;
        g->passes = 0;
    } else {
        g->passes++;
    }
    g->to_move = tg_opponent(c);
    push_situation(g, x < 0, x >= 0);
    if (g->passes >= 2) {
        g->over = true;
        g->ending = TG_RESULT_NONE;
    } else if (g->ko == TG_KO_SIMPLE && cycle_occurrences(g) >= 3) {
        g->over = true;
        g->ending = g->cycle == TG_CYCLE_DRAW ? TG_RESULT_SCORE : TG_RESULT_NO_RESULT;
    }
    return TG_OK;
}
