/*
 * board_rebuild.c — the slow, simple paths of the board: undo, setup
 * (stones placed or removed outside play) and the invariant check used by
 * tests and debug builds.  All of them recompute chains by flood fill near
 * the points that changed, so they cannot disagree with the fast play path
 * about what a chain is.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "board/board_internal.h"

static const int *offsets(const tg_board *b, int d[4])
{
    d[0] = -1;
    d[1] = 1;
    d[2] = -b->stride;
    d[3] = b->stride;
    return d;
}

/* Flood-fill the chain through `seed`, relinking it with `seed` as head. */
static void rebuild_chain(tg_board *b, int seed, uint8_t *seen)
{
    int d[4];
    offsets(b, d);
    tg_color c = (tg_color)b->color[seed];
    uint16_t stack[TG_MAX_POINTS];
    int top = 0, prev = seed;
    tg_chain *ch = &b->chain[seed];
    memset(ch, 0, sizeof *ch);
    stack[top++] = (uint16_t)seed;
    seen[seed] = 1;
    b->next_stone[seed] = (uint16_t)seed;
    while (top) {
        int s = stack[--top];
        b->chain_of[s] = (uint16_t)seed;
        if (s != seed) {
            b->next_stone[s] = b->next_stone[prev];
            b->next_stone[prev] = (uint16_t)s;
            prev = s;
        }
        ch->stones++;
        for (int i = 0; i < 4; i++) {
            int q = s + d[i];
            if (b->color[q] == TG_EMPTY) {
                chain_add_lib(ch, q);
            } else if (b->color[q] == c && !seen[q]) {
                seen[q] = 1;
                stack[top++] = (uint16_t)q;
            }
        }
    }
}

void board_rebuild_near(tg_board *b, const uint16_t *points, int n)
{
    int d[4];
    offsets(b, d);
    uint8_t seen[TG_MAX_POINTS];
    memset(seen, 0, (size_t)b->npoints);
    for (int k = 0; k < n; k++) {
        int p = points[k];
        for (int i = -1; i < 4; i++) {
            int q = i < 0 ? p : p + d[i];
            if ((b->color[q] == TG_BLACK || b->color[q] == TG_WHITE) && !seen[q])
                rebuild_chain(b, q, seen);
        }
    }
}

tg_status tg_board_set_point(tg_board *b, tg_point p, tg_color c)
{
    if (!tg_on_board(b, p))
        return TG_ERR_OFF_BOARD;
    if (c != TG_EMPTY && c != TG_BLACK && c != TG_WHITE)
        return TG_ERR_INVALID;
    if (b->color[p] != TG_EMPTY)
        board_lift_stone(b, p);
    if (c != TG_EMPTY)
        board_put_stone(b, p, c);
    uint16_t point = (uint16_t)p;
    board_rebuild_near(b, &point, 1);
    b->ko_point = TG_NO_POINT;
    b->ko_color = TG_EMPTY;
    return TG_OK;
}

/* ---- Undo ----------------------------------------------------------- */

void tg_undo_log_init(tg_undo_log *log) { memset(log, 0, sizeof *log); }

void tg_undo_log_free(tg_undo_log *log)
{
    free(log->entries);
    free(log->captured);
    memset(log, 0, sizeof *log);
}

/* Room for one more entry and `stones` more captured points. */
static bool log_reserve(tg_undo_log *log, int stones)
{
    if (log->count == log->capacity) {
        int cap = log->capacity ? log->capacity * 2 : 64;
        tg_undo_entry *e = realloc(log->entries, (size_t)cap * sizeof *e);
        if (!e)
            return false;
        log->entries = e;
        log->capacity = cap;
    }
    if (log->captured_count + stones > log->captured_capacity) {
        int cap = log->captured_capacity ? log->captured_capacity : 256;
        while (cap < log->captured_count + stones)
            cap *= 2;
        uint16_t *c = realloc(log->captured, (size_t)cap * sizeof *c);
        if (!c)
            return false;
        log->captured = c;
        log->captured_capacity = cap;
    }
    return true;
}

static tg_undo_entry *log_push(const tg_board *b, tg_undo_log *log, tg_point p, tg_color c)
{
    tg_undo_entry *e = &log->entries[log->count++];
    e->point = p;
    e->color = c;
    e->ko_point = b->ko_point;
    e->ko_color = b->ko_color;
    e->last_move = b->last_move;
    e->hash = b->hash;
    e->captured_start = log->captured_count;
    e->captured_count = 0;
    e->suicide = false;
    e->joined = 0;
    return e;
}

/* How many distinct chains of c's are next to p (0 to 4). */
static int chains_joined(const tg_board *b, tg_point p, tg_color c)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    int heads[4], n = 0;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (b->color[q] != c)
            continue;
        int h = b->chain_of[q], k = 0;
        while (k < n && heads[k] != h)
            k++;
        if (k == n)
            heads[n++] = h;
    }
    return n;
}

#ifndef NDEBUG
/* The play path's local invariants around p, for assert() in debug
 * builds (cheap enough for the ladder reader's every move): no chain next
 * to p is left without a pseudo-liberty, p's own chain included (it was
 * captured or it has one), and every stone's chain head holds its colour. */
static bool local_invariants(const tg_board *b, tg_point p)
{
    const int d[5] = {0, -1, 1, -b->stride, b->stride};
    for (int i = 0; i < 5; i++) {
        tg_point q = p + d[i];
        tg_color qc = (tg_color)b->color[q];
        if (qc != TG_BLACK && qc != TG_WHITE)
            continue;
        int head = b->chain_of[q];
        if (b->color[head] != qc || tg_chain_pseudo_libs(&b->chain[head]) == 0 ||
            b->chain[head].stones == 0)
            return false;
    }
    return true;
}
#endif

int tg_board_play_logged(tg_board *b, tg_point p, tg_color c, tg_undo_log *log)
{
    if (!log_reserve(log, b->size * b->size))
        return -1;
    tg_undo_entry *e = log_push(b, log, p, c);
    e->joined = chains_joined(b, p, c);
    bool suicide;
    int n = board_play_move(b, p, c, log->captured + log->captured_count, &suicide);
    e->captured_count = n;
    e->suicide = suicide;
    log->captured_count += n;
    assert(local_invariants(b, p));
    return n;
}

bool tg_board_both_sides_dead(const tg_board *b, tg_point p, tg_color c)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    if (b->color[p] != TG_EMPTY || tg_nbr_count(b, p, TG_EMPTY) > 0)
        return false;
    bool captures = false, own_lives = false;
    for (int i = 0; i < 4; i++) {
        tg_point q = p + d[i];
        tg_color qc = (tg_color)b->color[q];
        if (qc != TG_BLACK && qc != TG_WHITE)
            continue;
        bool atari = tg_chain_in_atari_at(&b->chain[b->chain_of[q]], p);
        if (qc == c)
            own_lives |= !atari;
        else
            captures |= atari;
    }
    return captures && !own_lives;
}

/* The stones of c's chains next to p, p first, into out; their count. */
static int own_chains_with(const tg_board *b, tg_point p, tg_color c, uint16_t *out)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    int n = 0, heads[4], nheads = 0;
    out[n++] = (uint16_t)p;
    for (int i = 0; i < 4; i++) {
        tg_point q = p + d[i];
        if (b->color[q] != c)
            continue;
        int h = b->chain_of[q], k = 0;
        while (k < nheads && heads[k] != h)
            k++;
        if (k < nheads)
            continue;
        heads[nheads++] = h;
        tg_point stones[TG_MAX_POINTS];
        int m = tg_chain_stones(b, q, stones);
        for (int j = 0; j < m; j++)
            out[n++] = (uint16_t)stones[j];
    }
    return n;
}

/* Lift the stones (p, out[0], was never placed) and mend the chains. */
static void remove_own(tg_board *b, tg_point p, tg_color c, const uint16_t *stones, int n)
{
    for (int i = 1; i < n; i++)
        board_lift_stone(b, stones[i]);
    board_rebuild_near(b, stones, n);
    b->captures[tg_opponent(c)] += n;
    b->ko_point = TG_NO_POINT;
    b->ko_color = TG_EMPTY;
    b->last_move = p;
}

void tg_board_own_capture(tg_board *b, tg_point p, tg_color c)
{
    uint16_t stones[TG_MAX_POINTS];
    remove_own(b, p, c, stones, own_chains_with(b, p, c, stones));
}

int tg_board_play_own_capture_logged(tg_board *b, tg_point p, tg_color c, tg_undo_log *log)
{
    if (!log_reserve(log, b->size * b->size))
        return -1;
    tg_undo_entry *e = log_push(b, log, p, c);
    e->joined = chains_joined(b, p, c);
    uint16_t *stones = log->captured + log->captured_count;
    int n = own_chains_with(b, p, c, stones);
    remove_own(b, p, c, stones, n);
    e->captured_count = n;
    e->suicide = true; /* undone as a suicide: the stones come back, then p goes */
    log->captured_count += n;
    assert(local_invariants(b, p));
    return n;
}

int tg_board_pass_logged(tg_board *b, tg_undo_log *log)
{
    if (!log_reserve(log, 0))
        return -1;
    log_push(b, log, TG_PASS, TG_EMPTY);
    tg_board_pass(b);
    return 0;
}

/* Undo a move that captured nothing and joined at most one chain, without
 * a flood fill: the stone leaves its chain's stone list, its empty
 * neighbours leave the chain's pseudo-liberties, and every neighbour gets
 * the point back as one, the reverse of the play path.  False (nothing
 * done) when the stone heads its chain, which a rebuild since may have
 * made it: the caller then rebuilds. */
static bool undo_simple(tg_board *b, tg_point p)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    int head = b->chain_of[p];
    if (head != p) {
        tg_chain *ch = &b->chain[head];
        for (int i = 0; i < 4; i++)
            if (b->color[p + d[i]] == TG_EMPTY)
                ch->libs -= board_lib_code[p + d[i]];
        ch->stones--;
        int s = head;
        while (b->next_stone[s] != p)
            s = b->next_stone[s];
        b->next_stone[s] = b->next_stone[p];
    } else if (b->next_stone[p] != p) {
        return false;
    }
    board_lift_stone(b, p);
    for (int i = 0; i < 4; i++)
        chain_add_lib(&b->chain[b->chain_of[p + d[i]]], p);
    return true;
}

tg_status tg_board_undo(tg_board *b, tg_undo_log *log)
{
    if (log->count == 0)
        return TG_ERR_NOT_ALLOWED;
    const tg_undo_entry *e = &log->entries[--log->count];
    bool simple = e->point != TG_PASS && e->captured_count == 0 && e->joined <= 1;
    if (e->point != TG_PASS && !(simple && undo_simple(b, e->point))) {
        const uint16_t *removed = log->captured + e->captured_start;
        tg_color back = e->suicide ? e->color : tg_opponent(e->color);
        if (!e->suicide)
            board_lift_stone(b, e->point);
        for (int i = 0; i < e->captured_count; i++)
            board_put_stone(b, removed[i], back);
        if (e->suicide) /* the mover's stone came back with its chain */
            board_lift_stone(b, e->point);
        b->captures[e->suicide ? tg_opponent(e->color) : e->color] -= e->captured_count;
        uint16_t point = (uint16_t)e->point;
        board_rebuild_near(b, &point, 1);
        board_rebuild_near(b, removed, e->captured_count);
        log->captured_count = e->captured_start;
    }
    b->ko_point = e->ko_point;
    b->ko_color = e->ko_color;
    b->last_move = e->last_move;
    /* the point is empty again and everything around it whole */
    assert(e->point == TG_PASS || (b->color[e->point] == TG_EMPTY && local_invariants(b, e->point)));
    return TG_OK;
}

/* ---- Invariant check ------------------------------------------------ */

bool tg_board_consistent(const tg_board *b)
{
    tg_board fresh;
    if (tg_board_init(&fresh, b->size) != TG_OK)
        return false;
    uint64_t hash = 0;
    for (int p = 0; p < b->npoints; p++) {
        if (b->color[p] == TG_BLACK || b->color[p] == TG_WHITE) {
            board_put_stone(&fresh, p, (tg_color)b->color[p]);
            hash ^= tg_zobrist(p, (tg_color)b->color[p]);
        } else if (b->color[p] != fresh.color[p]) {
            return false;
        }
    }
    if (hash != b->hash || fresh.empty_count != b->empty_count)
        return false;
    uint8_t seen[TG_MAX_POINTS];
    memset(seen, 0, sizeof seen);
    for (int p = 0; p < b->npoints; p++)
        if ((b->color[p] == TG_BLACK || b->color[p] == TG_WHITE) && !seen[p])
            rebuild_chain(&fresh, p, seen);
    for (int p = 0; p < b->npoints; p++) {
        if (b->nbr[p] != fresh.nbr[p])
            return false;
        if (b->color[p] == TG_EMPTY && b->empty[b->empty_index[p]] != p)
            return false;
        if (b->color[p] != TG_BLACK && b->color[p] != TG_WHITE)
            continue;
        /* same partition into chains: heads may differ, so compare through
         * the chain the fresh board assigns */
        const tg_chain *mine = tg_chain_at(b, p), *ref = tg_chain_at(&fresh, p);
        if (mine->stones != ref->stones || mine->libs != ref->libs)
            return false;
        if (b->chain_of[b->next_stone[p]] != b->chain_of[p])
            return false;
        for (int i = 0; i < 4; i++) {
            int q = p + (i == 0 ? -1 : i == 1 ? 1 : i == 2 ? -b->stride : b->stride);
            if (b->color[q] == b->color[p] && b->chain_of[q] != b->chain_of[p])
                return false;
        }
    }
    return true;
}
