/*
 * game.c — a game under a ruleset: turn order, history, superko, passes,
 * endings and undo.
 *
 * Every situation the game passes through is kept as its hash, the side to
 * move and a snapshot of the stones.  A move is a superko violation when
 * the position it would make is among them (any side to move under the
 * positional rule, the same side under the situational one); a hash hit is
 * confirmed by comparing the stones, so a Zobrist collision can never make
 * a legal move illegal.  Under simple ko the same records detect a cycle:
 * the third occurrence of a situation since the last pass ends the game
 * with the ruleset's cycle outcome.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tengen/game.h"

typedef struct situation {
    uint64_t hash;      /* stones only */
    tg_color to_move;
    int stones;         /* on the board */
} situation;

typedef struct ply {
    tg_move move;
    tg_color to_move_before;
    int passes_before;
    bool captured_own;        /* TG_PLAY_CAPTURE_OWN */
} ply;

struct tg_game {
    tg_board board;
    tg_rules rules;
    tg_color to_move;
    int handicap;
    int passes;               /* consecutive passes just played */
    bool over;
    bool ended_by_action;     /* resignation, time, forfeit, ruling: undo reopens */
    tg_result result;
    /* The last repetition that ended the game (simple ko): its outcome and
     * the number of plies then; cycle_plies 0 when none is in the history. */
    tg_result cycle_result;
    int cycle_plies;
    tg_undo_log log;
    ply *plies;
    int nplies, cap_plies;
    situation *situations;    /* situations[0] is the base position */
    uint8_t *snapshots;       /* size*size colours per situation */
    int nsituations, cap_situations;
    int base_ply;             /* plies before this were played before a setup: no undo past it */
    tg_setup *setups;         /* handicap and setup stones, in order */
    int nsetups, cap_setups;
};

static size_t area_of(const tg_game *g) { return (size_t)g->board.size * (size_t)g->board.size; }

static void snapshot(const tg_board *b, uint8_t *out)
{
    int k = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            out[k++] = b->color[tg_point_at(b, x, y)];
}

static bool grow(void **array, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return true;
    int n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *a = realloc(*array, (size_t)n * elem);
    if (!a)
        return false;
    *array = a;
    *cap = n;
    return true;
}

/* Room for one more situation (with its snapshot) and one more ply. */
static bool reserve(tg_game *g)
{
    int cap = g->cap_situations;
    if (!grow((void **)&g->situations, &g->cap_situations, g->nsituations + 1, sizeof(situation)))
        return false;
    if (cap != g->cap_situations) {
        uint8_t *s = realloc(g->snapshots, (size_t)g->cap_situations * area_of(g));
        if (!s) {
            g->cap_situations = cap;
            return false;
        }
        g->snapshots = s;
    }
    return grow((void **)&g->plies, &g->cap_plies, g->nplies + 1, sizeof(ply));
}

static void record_situation(tg_game *g)
{
    situation *s = &g->situations[g->nsituations];
    s->hash = g->board.hash;
    s->to_move = g->to_move;
    s->stones = (int)area_of(g) - g->board.empty_count;
    snapshot(&g->board, g->snapshots + (size_t)g->nsituations * area_of(g));
    g->nsituations++;
}

/* Forget the history: the current position becomes the base. */
static void rebase(tg_game *g)
{
    g->log.count = 0;
    g->log.captured_count = 0;
    g->nsituations = 0;
    record_situation(g);
}

tg_game *tg_game_new(int size, const tg_rules *rules)
{
    if (size < TG_MIN_SIZE || size > TG_MAX_SIZE)
        return NULL;
    tg_game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    if (rules)
        g->rules = *rules;
    else
        tg_rules_default(&g->rules);
    tg_board_init(&g->board, size);
    tg_undo_log_init(&g->log);
    if (!reserve(g)) {
        tg_game_free(g);
        return NULL;
    }
    tg_game_clear(g);
    return g;
}

void tg_game_free(tg_game *g)
{
    if (!g)
        return;
    tg_undo_log_free(&g->log);
    free(g->plies);
    free(g->situations);
    free(g->snapshots);
    free(g->setups);
    free(g);
}

void tg_game_clear(tg_game *g)
{
    tg_board_init(&g->board, g->board.size);
    g->to_move = g->rules.white_first ? TG_WHITE : TG_BLACK;
    g->handicap = 0;
    g->passes = 0;
    g->over = g->ended_by_action = false;
    memset(&g->result, 0, sizeof g->result);
    g->cycle_plies = 0;
    g->nplies = 0;
    g->base_ply = 0;
    g->nsetups = 0;
    rebase(g);
}

tg_game *tg_game_clone(const tg_game *g)
{
    tg_game *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = *g;
    c->plies = NULL;
    c->situations = NULL;
    c->snapshots = NULL;
    c->setups = NULL;
    c->cap_plies = c->cap_situations = c->cap_setups = 0;
    tg_undo_log_init(&c->log);
    bool ok = grow((void **)&c->plies, &c->cap_plies, g->nplies + 1, sizeof(ply)) &&
              grow((void **)&c->setups, &c->cap_setups, g->nsetups + 1, sizeof(tg_setup)) &&
              grow((void **)&c->situations, &c->cap_situations, g->nsituations + 1, sizeof(situation));
    if (ok)
        c->snapshots = malloc((size_t)c->cap_situations * area_of(g));
    if (ok && c->snapshots && g->log.count) {
        c->log.entries = malloc((size_t)g->log.capacity * sizeof *g->log.entries);
        c->log.captured = malloc((size_t)(g->log.captured_capacity ? g->log.captured_capacity : 1) *
                                 sizeof *g->log.captured);
        ok = c->log.entries && c->log.captured;
        if (ok) {
            memcpy(c->log.entries, g->log.entries, (size_t)g->log.count * sizeof *g->log.entries);
            if (g->log.captured_count)
                memcpy(c->log.captured, g->log.captured,
                       (size_t)g->log.captured_count * sizeof *g->log.captured);
            c->log.count = g->log.count;
            c->log.capacity = g->log.capacity;
            c->log.captured_count = g->log.captured_count;
            c->log.captured_capacity = g->log.captured_capacity;
        }
    }
    if (!ok || !c->snapshots) {
        tg_game_free(c);
        return NULL;
    }
    /* memcpy from a NULL array is undefined even for zero bytes */
    if (g->nplies)
        memcpy(c->plies, g->plies, (size_t)g->nplies * sizeof(ply));
    if (g->nsetups)
        memcpy(c->setups, g->setups, (size_t)g->nsetups * sizeof(tg_setup));
    memcpy(c->situations, g->situations, (size_t)g->nsituations * sizeof(situation));
    memcpy(c->snapshots, g->snapshots, (size_t)g->nsituations * area_of(g));
    return c;
}

/* ---- Accessors ------------------------------------------------------ */

const tg_board *tg_game_board(const tg_game *g) { return &g->board; }
const tg_rules *tg_game_rules(const tg_game *g) { return &g->rules; }
void tg_game_set_rules(tg_game *g, const tg_rules *rules)
{
    g->rules = *rules;
    /* before anything is played, who moves first follows the rules */
    if (g->nplies == 0 && g->nsetups == 0) {
        g->to_move = rules->white_first ? TG_WHITE : TG_BLACK;
        g->situations[g->nsituations - 1].to_move = g->to_move;
    }
}
int tg_game_size(const tg_game *g) { return g->board.size; }
tg_color tg_game_to_move(const tg_game *g) { return g->to_move; }
int tg_game_move_count(const tg_game *g) { return g->nplies; }
const tg_move *tg_game_move(const tg_game *g, int i)
{
    return i >= 0 && i < g->nplies ? &g->plies[i].move : NULL;
}
int tg_game_handicap(const tg_game *g) { return g->handicap; }
int tg_game_consecutive_passes(const tg_game *g) { return g->passes; }
bool tg_game_over(const tg_game *g) { return g->over; }
const tg_result *tg_game_result(const tg_game *g) { return &g->result; }
void tg_game_set_to_move(tg_game *g, tg_color c)
{
    if (c != TG_BLACK && c != TG_WHITE)
        return;
    g->to_move = c;
    /* the situation just recorded now has this side to move */
    g->situations[g->nsituations - 1].to_move = c;
}

int tg_game_situation_count(const tg_game *g) { return g->nsituations; }

uint64_t tg_game_situation_hash(const tg_game *g, int i, tg_color *to_move, int *stones)
{
    if (i < 0 || i >= g->nsituations)
        return 0;
    if (to_move)
        *to_move = g->situations[i].to_move;
    if (stones)
        *stones = g->situations[i].stones;
    return g->situations[i].hash;
}

uint64_t tg_game_hash(const tg_game *g)
{
    uint64_t h = g->board.hash;
    if (g->rules.ko == TG_KO_SITUATIONAL && g->to_move == TG_WHITE)
        h ^= 0x5bd1e9955bd1e995ull;
    return h;
}

/* ---- Repetition ----------------------------------------------------- */

/* Does the stored situation i have exactly the stones of board b? */
static bool same_stones(const tg_game *g, int i, const tg_board *b)
{
    uint8_t now[TG_MAX_SIZE * TG_MAX_SIZE];
    snapshot(b, now);
    return !memcmp(now, g->snapshots + (size_t)i * area_of(g), area_of(g));
}

/* Does the board after `color`'s capture choice at p recreate an earlier
 * position (or situation)? */
static bool own_capture_repeats(const tg_game *g, tg_point p, tg_color color)
{
    tg_board after;
    tg_board_copy(&after, &g->board);
    tg_board_own_capture(&after, p, color);
    bool situational = g->rules.ko == TG_KO_SITUATIONAL;
    for (int i = 0; i < g->nsituations; i++) {
        const situation *s = &g->situations[i];
        if (s->hash == after.hash && (!situational || s->to_move == tg_opponent(color)) &&
            same_stones(g, i, &after))
            return true;
    }
    return false;
}

/* Would `color` playing `p` recreate an earlier position (or situation)? */
static bool repeats_earlier(const tg_game *g, tg_point p, tg_color color)
{
    uint64_t h = tg_board_hash_after(&g->board, p, color);
    tg_color next = tg_opponent(color);
    bool situational = g->rules.ko == TG_KO_SITUATIONAL;
    tg_board after;
    bool played = false;
    for (int i = 0; i < g->nsituations; i++) {
        const situation *s = &g->situations[i];
        if (s->hash != h || (situational && s->to_move != next))
            continue;
        if (!played) {
            tg_board_copy(&after, &g->board);
            tg_board_play(&after, p, color);
            played = true;
        }
        if (same_stones(g, i, &after))
            return true;
    }
    return false;
}

/* Occurrences of the current situation since the last pass (simple ko). */
static int cycle_occurrences(const tg_game *g)
{
    int count = 0;
    for (int i = g->nsituations - 1; i >= 0; i--) {
        const situation *s = &g->situations[i];
        if (s->hash == g->board.hash && s->to_move == g->to_move && same_stones(g, i, &g->board))
            count++;
        /* situation i was reached by ply base_ply + i - 1; a pass there ends the window */
        if (i > 0 && g->plies[g->base_ply + i - 1].move.point == TG_PASS)
            break;
    }
    return count;
}

/* ---- Playing -------------------------------------------------------- */

tg_status tg_game_check(const tg_game *g, tg_color color, tg_point point, unsigned flags)
{
    if (g->over)
        return TG_ERR_GAME_OVER;
    if (color != TG_BLACK && color != TG_WHITE)
        return TG_ERR_INVALID;
    /* the free opening's stones have fixed colours (W B W B), whoever asks */
    if ((!(flags & TG_PLAY_ANY_ORDER) || g->nplies < g->rules.free_opening) && color != g->to_move)
        return TG_ERR_WRONG_PLAYER;
    if (point == TG_PASS) /* no pass among the free opening's stones (002 §5.2) */
        return (flags & TG_PLAY_CAPTURE_OWN) || g->nplies < g->rules.free_opening ? TG_ERR_NOT_ALLOWED
                                                                                  : TG_OK;
    tg_suicide_rule suicide = g->rules.suicide_any ? TG_SUICIDE_ANY
                              : g->rules.suicide   ? TG_SUICIDE_MULTI_STONE
                                                   : TG_SUICIDE_FORBIDDEN;
    tg_status st = tg_board_check(&g->board, point, color, suicide);
    /* the capture choice at a ko's point retakes nothing: its stone goes,
     * and only the rule against repetition can forbid it */
    if (st == TG_ERR_KO && (flags & TG_PLAY_CAPTURE_OWN))
        st = TG_OK;
    if (st != TG_OK)
        return st;
    if (flags & TG_PLAY_CAPTURE_OWN) {
        if (!g->rules.capture_choice || !tg_board_both_sides_dead(&g->board, point, color))
            return TG_ERR_NOT_ALLOWED;
        return g->rules.ko != TG_KO_SIMPLE && own_capture_repeats(g, point, color) ? TG_ERR_SUPERKO
                                                                                  : TG_OK;
    }
    if (g->rules.ko != TG_KO_SIMPLE && repeats_earlier(g, point, color))
        return TG_ERR_SUPERKO;
    return TG_OK;
}

static void end_game(tg_game *g, tg_result_kind kind, tg_color winner)
{
    g->over = true;
    g->result.kind = kind;
    g->result.winner = winner;
    g->result.margin4 = 0;
}

tg_status tg_game_play(tg_game *g, tg_color color, tg_point point, unsigned flags)
{
    tg_status st = tg_game_check(g, color, point, flags);
    if (st != TG_OK)
        return st;
    if (!reserve(g))
        return TG_ERR_NO_MEMORY;
    ply *pl = &g->plies[g->nplies];
    pl->move.color = color;
    pl->move.point = point;
    pl->to_move_before = g->to_move;
    pl->passes_before = g->passes;
    pl->captured_own = (flags & TG_PLAY_CAPTURE_OWN) != 0;
    int logged = point == TG_PASS      ? tg_board_pass_logged(&g->board, &g->log)
                 : pl->captured_own ? tg_board_play_own_capture_logged(&g->board, point, color, &g->log)
                                    : tg_board_play_logged(&g->board, point, color, &g->log);
    if (logged < 0)
        return TG_ERR_NO_MEMORY;
    g->nplies++;
    /* the whole board checked after every move of a game in debug builds
     * (the search's own moves, far more, are checked locally) */
    assert(tg_board_consistent(&g->board));
    g->to_move = tg_opponent(color);
    g->passes = point == TG_PASS ? g->passes + 1 : 0;
    record_situation(g);
    if (g->passes >= 2) {
        g->over = true; /* counting decides the result: tg_game_set_result */
    } else if (g->rules.ko == TG_KO_SIMPLE && cycle_occurrences(g) >= 3) {
        end_game(g, g->rules.cycle == TG_CYCLE_DRAW ? TG_RESULT_SCORE : TG_RESULT_NO_RESULT, TG_EMPTY);
        g->cycle_result = g->result;
        g->cycle_plies = g->nplies;
    }
    return TG_OK;
}

tg_status tg_move_parse(const tg_board *b, const char *text, bool own_ok, tg_point *p, unsigned *flags)
{
    char vertex[16], word[8], extra;
    *flags = 0;
    int words = sscanf(text, "%15s %7s %c", vertex, word, &extra);
    if (words == 2 && own_ok && !strcasecmp(word, "own"))
        *flags = TG_PLAY_CAPTURE_OWN;
    else if (words != 1)
        return TG_ERR_PARSE;
    return tg_vertex_parse(b, vertex, p);
}

bool tg_game_move_captured_own(const tg_game *g, int i)
{
    return i >= 0 && i < g->nplies && g->plies[i].captured_own;
}

tg_status tg_game_play_on(tg_game *g)
{
    if (!g->over || g->ended_by_action || g->cycle_plies != g->nplies || g->cycle_plies == 0)
        return TG_ERR_NOT_ALLOWED;
    g->over = false;
    memset(&g->result, 0, sizeof g->result);
    return TG_OK;
}

tg_result tg_game_cycle_result(const tg_game *g)
{
    return g->cycle_plies ? g->cycle_result : (tg_result){0};
}

tg_status tg_game_undo(tg_game *g)
{
    if (g->ended_by_action) {
        g->over = g->ended_by_action = false;
        memset(&g->result, 0, sizeof g->result);
        return TG_OK;
    }
    if (g->nplies == g->base_ply || g->log.count == 0)
        return TG_ERR_NOT_ALLOWED;
    /* 002 §2.4: a stone once placed never moves; the free opening's stones,
     * which the predictions stand on, are never taken back */
    if (g->nplies <= g->rules.free_opening)
        return TG_ERR_NOT_ALLOWED;
    const ply *pl = &g->plies[--g->nplies];
    if (g->nplies < g->cycle_plies)
        g->cycle_plies = 0;
    tg_board_undo(&g->board, &g->log);
    assert(tg_board_consistent(&g->board));
    g->nsituations--;
    g->to_move = pl->to_move_before;
    g->passes = pl->passes_before;
    g->over = false;
    memset(&g->result, 0, sizeof g->result);
    return TG_OK;
}

tg_status tg_game_resume(tg_game *g, tg_color first)
{
    if (!g->over || g->ended_by_action || g->result.kind != TG_RESULT_NONE || g->passes < 2)
        return TG_ERR_NOT_ALLOWED;
    if (first != TG_BLACK && first != TG_WHITE)
        return TG_ERR_INVALID;
    g->over = false;
    g->passes = 0;
    g->to_move = first;
    return TG_OK;
}

/* ---- Setup and handicap --------------------------------------------- */

tg_status tg_game_place_handicap(tg_game *g, const tg_point *points, int n)
{
    if (g->nplies || g->handicap || tg_board_stone_count(&g->board, TG_BLACK) ||
        tg_board_stone_count(&g->board, TG_WHITE))
        return TG_ERR_NOT_ALLOWED;
    if (n < 2 || n > g->board.size * g->board.size - 1)
        return TG_ERR_INVALID;
    for (int i = 0; i < n; i++) {
        if (!tg_on_board(&g->board, points[i]))
            return TG_ERR_OFF_BOARD;
        for (int j = 0; j < i; j++)
            if (points[j] == points[i])
                return TG_ERR_INVALID;
    }
    if (!grow((void **)&g->setups, &g->cap_setups, g->nsetups + n, sizeof(tg_setup)))
        return TG_ERR_NO_MEMORY;
    for (int i = 0; i < n; i++) {
        tg_board_set_point(&g->board, points[i], TG_BLACK);
        g->setups[g->nsetups++] = (tg_setup){points[i], TG_BLACK, 0, true};
    }
    g->handicap = n;
    g->to_move = TG_WHITE;
    rebase(g);
    return TG_OK;
}

tg_status tg_game_setup(tg_game *g, tg_point p, tg_color c)
{
    if (!tg_on_board(&g->board, p))
        return TG_ERR_OFF_BOARD;
    if (!grow((void **)&g->setups, &g->cap_setups, g->nsetups + 1, sizeof(tg_setup)))
        return TG_ERR_NO_MEMORY;
    tg_status st = tg_board_set_point(&g->board, p, c);
    if (st != TG_OK)
        return st;
    g->setups[g->nsetups++] = (tg_setup){p, c, g->nplies, false};
    /* the history before a setup cannot be undone or repeated into */
    g->base_ply = g->nplies;
    g->passes = 0;
    rebase(g);
    return TG_OK;
}

int tg_game_setup_count(const tg_game *g) { return g->nsetups; }
const tg_setup *tg_game_setup_at(const tg_game *g, int i)
{
    return i >= 0 && i < g->nsetups ? &g->setups[i] : NULL;
}

int tg_fixed_handicap_points(const tg_board *b, int n, tg_point *out)
{
    /* GTP 2 §4.1.1: star points at the third line (fourth on 13 and up),
     * none on boards under 7, the centre only on odd sizes, at most 4 on
     * 7x7 and even sizes. */
    int s = b->size;
    if (s < 7 || n < 2 || n > 9 || (s % 2 == 0 && n > 4) || (s == 7 && n > 4))
        return 0;
    int lo = s >= 13 ? 3 : 2, hi = s - 1 - lo, mid = s / 2;
    tg_point corner[4] = {tg_point_at(b, hi, hi), tg_point_at(b, lo, lo), tg_point_at(b, hi, lo),
                          tg_point_at(b, lo, hi)};
    int k = 0;
    for (int i = 0; i < 4 && k < n; i++)
        out[k++] = corner[i];
    if (k == n)
        return k;
    bool centre = n % 2 == 1;
    int sides = n - 4 - (centre ? 1 : 0);
    if (sides >= 2) {
        out[k++] = tg_point_at(b, lo, mid);
        out[k++] = tg_point_at(b, hi, mid);
    }
    if (sides >= 4) {
        out[k++] = tg_point_at(b, mid, lo);
        out[k++] = tg_point_at(b, mid, hi);
    }
    if (centre)
        out[k++] = tg_point_at(b, mid, mid);
    return k;
}

/* ---- Endings -------------------------------------------------------- */

static tg_status end_by_action(tg_game *g, tg_result_kind kind, tg_color loser)
{
    if (g->over)
        return TG_ERR_GAME_OVER;
    if (kind != TG_RESULT_NO_RESULT && loser != TG_BLACK && loser != TG_WHITE)
        return TG_ERR_INVALID;
    end_game(g, kind, kind == TG_RESULT_NO_RESULT ? TG_EMPTY : tg_opponent(loser));
    g->ended_by_action = true;
    return TG_OK;
}

tg_status tg_game_resign(tg_game *g, tg_color loser) { return end_by_action(g, TG_RESULT_RESIGN, loser); }
tg_status tg_game_lose_on_time(tg_game *g, tg_color loser) { return end_by_action(g, TG_RESULT_TIME, loser); }
tg_status tg_game_forfeit(tg_game *g, tg_color loser) { return end_by_action(g, TG_RESULT_FORFEIT, loser); }
tg_status tg_game_no_result(tg_game *g) { return end_by_action(g, TG_RESULT_NO_RESULT, TG_EMPTY); }

void tg_game_set_result(tg_game *g, const tg_result *r)
{
    g->result = *r;
    g->over = true;
}
