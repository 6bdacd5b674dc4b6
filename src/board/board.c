/*
 * board.c — stones, chains, pseudo-liberties, captures, simple ko and
 * Zobrist hashing: the part of tengen every playout runs through.
 *
 * A move touches only the four neighbours of the point played and the
 * stones it captures; no flood fill happens on the play path.  Undo and
 * setup, which are rare, rebuild the chains near the points they change
 * (board_rebuild.c).  The layout and the invariants are described in
 * include/tengen/board.h.
 */
#include <pthread.h>
#include <string.h>

#include "board/board_internal.h"

const char *tg_status_text(tg_status s)
{
    switch (s) {
    case TG_OK: return "ok";
    case TG_ERR_OCCUPIED: return "point is occupied";
    case TG_ERR_OFF_BOARD: return "vertex is off the board";
    case TG_ERR_SUICIDE: return "forbidden point (suicide)";
    case TG_ERR_KO: return "ko recapture";
    case TG_ERR_SUPERKO: return "whole-board repetition (superko)";
    case TG_ERR_WRONG_PLAYER: return "not this colour's turn";
    case TG_ERR_GAME_OVER: return "game is over";
    case TG_ERR_INVALID: return "invalid argument";
    case TG_ERR_NOT_ALLOWED: return "not allowed now";
    case TG_ERR_NO_MEMORY: return "out of memory";
    case TG_ERR_PARSE: return "syntax error";
    case TG_ERR_IO: return "input/output error";
    }
    return "unknown error";
}

void tg_rng_seed(tg_rng *rng, uint64_t seed)
{
    /* splitmix64 spreads any seed (0 included) over both state words */
    for (int i = 0; i < 2; i++) {
        seed += 0x9E3779B97F4A7C15ull;
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        rng->s[i] = z ^ (z >> 31);
    }
    if (!rng->s[0] && !rng->s[1])
        rng->s[0] = 1;
}

/* Zobrist keys: a fixed mix of (point, colour), the same in every process so
 * hashes are reproducible.  The table is filled once (pthread_once) and only
 * read afterwards. */
uint64_t board_zobrist_table[4][TG_MAX_POINTS];
uint64_t board_lib_code[TG_MAX_POINTS];
static pthread_once_t zobrist_once = PTHREAD_ONCE_INIT;

static uint64_t zobrist_mix(tg_point p, tg_color c)
{
    uint64_t z = (uint64_t)(p * 4 + (int)c) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void zobrist_fill(void)
{
    for (int p = 0; p < TG_MAX_POINTS; p++)
        board_lib_code[p] = tg_lib_code(p);
    for (int p = 0; p < TG_MAX_POINTS; p++)
        for (int c = 0; c < 4; c++)
            board_zobrist_table[c][p] = (c == TG_BLACK || c == TG_WHITE) ? zobrist_mix(p, (tg_color)c) : 0;
}

uint64_t tg_zobrist(tg_point p, tg_color c)
{
    pthread_once(&zobrist_once, zobrist_fill);
    return board_zobrist_table[c][p];
}

/* ---- Initialisation ------------------------------------------------- */

tg_status tg_board_init(tg_board *b, int size)
{
    if (size < TG_MIN_SIZE || size > TG_MAX_SIZE)
        return TG_ERR_INVALID;
    pthread_once(&zobrist_once, zobrist_fill);
    b->size = size;
    b->stride = size + 1;
    b->npoints = (size + 2) * (size + 1) + 1;
    b->hash = 0;
    b->ko_point = TG_NO_POINT;
    b->ko_color = TG_EMPTY;
    b->last_move = TG_NO_POINT;
    b->captures[0] = b->captures[1] = b->captures[2] = 0;
    b->empty_count = 0;
    for (int p = 0; p < b->npoints; p++) {
        int row = p / b->stride, col = p % b->stride;
        bool on = row >= 1 && row <= size && col >= 1;
        b->color[p] = on ? TG_EMPTY : TG_OFFBOARD;
        b->chain_of[p] = 0;
        b->next_stone[p] = 0;
        memset(&b->chain[p], 0, sizeof b->chain[p]);
    }
    for (int p = 0; p < b->npoints; p++) {
        b->nbr[p] = 0;
        if (b->color[p] != TG_EMPTY)
            continue;
        const int d[4] = {-1, 1, -b->stride, b->stride};
        for (int i = 0; i < 4; i++)
            b->nbr[p] += nbr_unit(b->color[p + d[i]]);
        b->empty_index[p] = (uint16_t)b->empty_count;
        b->empty[b->empty_count++] = (uint16_t)p;
    }
    return TG_OK;
}

void tg_board_copy(tg_board *dst, const tg_board *src)
{
    /* The scalar header, then only the points in use of each array. */
    size_t n = (size_t)src->npoints;
    memcpy(dst, src, offsetof(tg_board, color));
    memcpy(dst->color, src->color, n * sizeof src->color[0]);
    memcpy(dst->nbr, src->nbr, n * sizeof src->nbr[0]);
    memcpy(dst->chain_of, src->chain_of, n * sizeof src->chain_of[0]);
    memcpy(dst->next_stone, src->next_stone, n * sizeof src->next_stone[0]);
    memcpy(dst->empty_index, src->empty_index, n * sizeof src->empty_index[0]);
    memcpy(dst->empty, src->empty, (size_t)src->empty_count * sizeof src->empty[0]);
    memcpy(dst->chain, src->chain, n * sizeof src->chain[0]);
}

/* ---- Stones on and off the board ------------------------------------ */

/* Join the chain headed by `from` into the chain headed by `into`. */
static void merge_chains(tg_board *b, int into, int from)
{
    tg_chain *a = &b->chain[into], *f = &b->chain[from];
    a->stones += f->stones;
    a->libs += f->libs;
    int s = from;
    do {
        b->chain_of[s] = (uint16_t)into;
        s = b->next_stone[s];
    } while (s != from);
    uint16_t t = b->next_stone[into];
    b->next_stone[into] = b->next_stone[from];
    b->next_stone[from] = t;
}

/* Remove a whole chain; its neighbours gain the freed points as
 * pseudo-liberties.  Appends the removed points to `log` when not NULL. */
static int remove_chain(tg_board *b, int head, uint16_t *log)
{
    int n = 0, s = head;
    do {
        board_lift_stone(b, s);
        if (log)
            log[n] = (uint16_t)s;
        n++;
        s = b->next_stone[s];
    } while (s != head);
    /* every neighbour gains the freed point; empty and off-board ones (the
     * lifted stones among them) pass it to the scratch chain */
    const int d[4] = {-1, 1, -b->stride, b->stride};
    do {
        for (int i = 0; i < 4; i++)
            chain_add_lib(&b->chain[b->chain_of[s + d[i]]], s);
        s = b->next_stone[s];
    } while (s != head);
    return n;
}

/* The play path shared by tg_board_play and tg_board_play_logged.  One pass
 * over the four neighbours: each neighbouring chain loses p as a
 * pseudo-liberty; a friendly one is merged, an enemy one left with no
 * pseudo-liberty is captured at once (a chain touching p twice reaches zero
 * only at its second contact).  Returns the number of stones removed;
 * *suicide tells whose they were. */
static inline __attribute__((always_inline)) int play_core(tg_board *b, tg_point p, tg_color c,
                                                           uint16_t *log, bool *suicide, const int S)
{
    const tg_color opp = tg_opponent(c);
    const int d[4] = {-1, 1, -S, S};
    b->ko_point = TG_NO_POINT;
    b->ko_color = TG_EMPTY;
    b->last_move = p;
    if ((b->nbr[p] & 15) == 4) {
        /* four empty neighbours: a new chain of one stone, whose four
         * pseudo-liberties p - 1, p + 1, p - S, p + S sum to 4p and their
         * squares to 4p^2 + 2 + 2S^2; no neighbouring chain to update */
        board_put_stone_at(b, p, c, S);
        b->chain_of[p] = (uint16_t)p;
        b->next_stone[p] = (uint16_t)p;
        b->chain[p].stones = 1;
        b->chain[p].libs = ((uint64_t)4 << TG_LIB_COUNT_SHIFT) | ((uint64_t)(4 * p) << TG_LIB_SUM_SHIFT) |
                           (uint64_t)(4 * p * p + 2 + 2 * S * S);
        *suicide = false;
        return 0;
    }
    board_put_stone_at(b, p, c, S);

    /* Pseudo-liberties without branching on the neighbours' colours: empty
     * and off-board points belong to the scratch chain 0, which absorbs
     * the updates meant for no chain.  The new stone's own figures are
     * gathered in registers.  The same pass notes the friendly neighbours
     * (chains to join) and the enemy neighbours left without
     * pseudo-liberties (a chain touching p twice reaches zero at its last
     * contact, so it is noted once). */
    static const uint64_t empty_mask[4] = {~(uint64_t)0, 0, 0, 0}; /* by colour: a table, not a branch */
    const uint64_t code = board_lib_code[p];
    uint64_t libs = 0;
    unsigned friends = 0, kills = 0;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        unsigned qc = b->color[q];
        tg_chain *ch = &b->chain[b->chain_of[q]];
        ch->libs -= code;
        libs += board_lib_code[q] & empty_mask[qc];
        friends |= (unsigned)(qc == (unsigned)c) << i;
        kills |= (unsigned)((qc == (unsigned)opp) & (ch->libs == 0)) << i;
    }
    int head;
    if (friends) {
        /* The lone stone joins its first friendly neighbour's chain: no
         * relabelling loop for it. */
        head = b->chain_of[p + d[__builtin_ctz(friends)]];
        friends &= friends - 1;
        tg_chain *ch = &b->chain[head];
        ch->stones++;
        ch->libs += libs;
        b->chain_of[p] = (uint16_t)head;
        b->next_stone[p] = b->next_stone[head];
        b->next_stone[head] = (uint16_t)p;
        while (friends) {
            int other = b->chain_of[p + d[__builtin_ctz(friends)]];
            friends &= friends - 1;
            if (other == head)
                continue;
            /* the larger chain keeps its head, so relabelling stays cheap */
            if (b->chain[other].stones >= b->chain[head].stones) {
                merge_chains(b, other, head);
                head = other;
            } else {
                merge_chains(b, head, other);
            }
        }
    } else {
        head = p;
        b->chain_of[p] = (uint16_t)p;
        b->next_stone[p] = (uint16_t)p;
        b->chain[p].stones = 1;
        b->chain[p].libs = libs;
    }
    /* the enemy chains left without liberties are captured (their points
     * become pseudo-liberties of the chains around, p's among them) */
    int captured = 0;
    while (kills) {
        int other = b->chain_of[p + d[__builtin_ctz(kills)]];
        kills &= kills - 1;
        captured += remove_chain(b, other, log ? log + captured : NULL);
    }
    *suicide = false;
    if (captured) {
        b->captures[c] += captured;
        const tg_chain *mine = &b->chain[head];
        if (captured == 1 && mine->stones == 1 && tg_chain_pseudo_libs(mine) == 1) {
            b->ko_point = tg_chain_atari_point(mine);
            b->ko_color = opp;
        }
    } else if (b->chain[head].libs == 0) {
        *suicide = true;
        captured = remove_chain(b, head, log);
        b->captures[opp] += captured;
    }
    return captured;
}

int board_play_move(tg_board *b, tg_point p, tg_color c, uint16_t *log, bool *suicide)
{
    return play_core(b, p, c, log, suicide, b->stride);
}

int tg_board_play(tg_board *b, tg_point p, tg_color c)
{
    bool suicide;
    return play_core(b, p, c, NULL, &suicide, b->stride);
}

void tg_board_pass(tg_board *b)
{
    b->ko_point = TG_NO_POINT;
    b->ko_color = TG_EMPTY;
    b->last_move = TG_PASS;
}

/* ---- Legality ------------------------------------------------------- */

/* Can c place a stone on the empty point p, which has no empty neighbour?
 * Only by joining a chain with another liberty, by capturing (an enemy
 * neighbour in atari has p as its last liberty), or by a permitted
 * multi-stone suicide.  p is a liberty of every neighbouring chain, so a
 * neighbour is in atari exactly when all its pseudo-liberties are p
 * (tg_chain_in_atari_at).  A stone neighbour makes the move legal when it
 * is c's and not in atari, or the opponent's and in atari: when its colour
 * being c differs from its being in atari.  No branches on the neighbours. */
static inline __attribute__((always_inline)) bool placement_ok(const tg_board *b, tg_point p, tg_color c,
                                                               tg_suicide_rule suicide, const int S)
{
    const int d[4] = {-1, 1, -S, S};
    const uint64_t code = board_lib_code[p];
    unsigned ok = 0, own_near = 0;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        unsigned qc = b->color[q];
        unsigned atari = tg_chain_libs_all(&b->chain[b->chain_of[q]], code);
        unsigned stone = qc - TG_BLACK < 2u, own = qc == (unsigned)c;
        ok |= (atari ^ own) & stone;
        own_near |= own;
    }
    return ok | (own_near & (suicide == TG_SUICIDE_MULTI_STONE));
}

tg_status tg_board_check(const tg_board *b, tg_point p, tg_color c, tg_suicide_rule suicide)
{
    if (p < 0 || p >= b->npoints || b->color[p] == TG_OFFBOARD)
        return TG_ERR_OFF_BOARD;
    if (b->color[p] != TG_EMPTY)
        return TG_ERR_OCCUPIED;
    if (p == b->ko_point && c == b->ko_color)
        return TG_ERR_KO;
    if (suicide == TG_SUICIDE_ANY)
        return TG_OK;
    if (tg_nbr_count(b, p, TG_EMPTY) || placement_ok(b, p, c, suicide, b->stride))
        return TG_OK;
    return TG_ERR_SUICIDE;
}

/* Xor of the Zobrist keys of the chain's stones. */
static uint64_t chain_hash(const tg_board *b, int head, tg_color c)
{
    uint64_t h = 0;
    int s = head;
    do {
        h ^= board_zobrist_table[c][s];
        s = b->next_stone[s];
    } while (s != head);
    return h;
}

uint64_t tg_board_hash_after(const tg_board *b, tg_point p, tg_color c)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    uint64_t h = b->hash ^ tg_zobrist(p, c);
    int seen[4], nseen = 0;
    bool captures = false, lives = tg_nbr_count(b, p, TG_EMPTY) > 0;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        tg_color qc = (tg_color)b->color[q];
        if (qc != TG_BLACK && qc != TG_WHITE)
            continue;
        int head = b->chain_of[q];
        bool dup = false;
        for (int j = 0; j < nseen; j++)
            dup |= seen[j] == head;
        if (dup)
            continue;
        seen[nseen++] = head;
        bool atari = tg_chain_in_atari(&b->chain[head]);
        if (qc == c) {
            lives |= !atari;
        } else if (atari) {
            h ^= chain_hash(b, head, qc);
            captures = true;
        }
    }
    if (captures || lives)
        return h;
    /* multi-stone suicide: p and the chains it joins leave the board */
    for (int j = 0; j < nseen; j++)
        if (b->color[seen[j]] == c)
            h ^= chain_hash(b, seen[j], c);
    return h ^ tg_zobrist(p, c);
}

/* ---- Queries -------------------------------------------------------- */

/* p has c's stones or the edge on all four sides, `edge` of them off the
 * board: is it an eye rather than a false one?  On the edge no enemy
 * diagonal is allowed, elsewhere one.  (A point has off-board diagonals
 * exactly when it has off-board neighbours.) */
static inline __attribute__((always_inline)) bool eye_diagonals_hold(const tg_board *b, tg_point p, tg_color c,
                                                                     unsigned edge, const int S)
{
    const unsigned o = (unsigned)tg_opponent(c);
    unsigned opp = (b->color[p - S - 1] == o) + (b->color[p - S + 1] == o) + (b->color[p + S - 1] == o) +
                   (b->color[p + S + 1] == o);
    return opp + (edge > 0) <= 1;
}

bool tg_board_is_eye(const tg_board *b, tg_point p, tg_color c)
{
    if (b->color[p] != TG_EMPTY)
        return false;
    unsigned edge = (unsigned)tg_nbr_count(b, p, TG_OFFBOARD);
    return tg_nbr_count(b, p, c) + edge == 4 && eye_diagonals_hold(b, p, c, edge, b->stride);
}

int tg_chain_stones(const tg_board *b, tg_point p, tg_point *out)
{
    int n = 0, head = b->chain_of[p], s = head;
    do {
        out[n++] = s;
        s = b->next_stone[s];
    } while (s != head);
    return n;
}

int tg_chain_liberties(const tg_board *b, tg_point p, tg_point *libs, int max)
{
    uint8_t seen[TG_MAX_POINTS];
    memset(seen, 0, (size_t)b->npoints);
    const int d[4] = {-1, 1, -b->stride, b->stride};
    int n = 0, head = b->chain_of[p], s = head;
    do {
        for (int i = 0; i < 4; i++) {
            int q = s + d[i];
            if (b->color[q] == TG_EMPTY && !seen[q]) {
                seen[q] = 1;
                if (libs && n < max)
                    libs[n] = q;
                n++;
            }
        }
        s = b->next_stone[s];
    } while (s != head);
    return n;
}

int tg_chain_liberties_upto(const tg_board *b, tg_point p, tg_point *libs, int max)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    tg_point found[8];
    int n = 0, head = b->chain_of[p], s = head;
    if (max < 1)
        return 0;
    if (max > 8)
        max = 8;
    if (b->chain[head].stones == 1) {
        /* a lone stone's empty neighbours are distinct: no search needed */
        for (int i = 0; i < 4; i++) {
            int q = head + d[i];
            if (b->color[q] == TG_EMPTY) {
                found[n++] = q;
                if (n == max)
                    break;
            }
        }
        goto done;
    }
    do {
        for (int i = 0; i < 4; i++) {
            int q = s + d[i];
            if (b->color[q] != TG_EMPTY)
                continue;
            bool seen = false;
            for (int j = 0; j < n; j++)
                seen |= found[j] == q;
            if (seen)
                continue;
            found[n++] = q;
            if (n == max)
                goto done;
        }
        s = b->next_stone[s];
    } while (s != head);
done:
    for (int j = 0; libs && j < n; j++)
        libs[j] = found[j];
    return n;
}

bool tg_board_is_self_atari(const tg_board *b, tg_point p, tg_color c, int *stones)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    tg_point libs[2], chain_libs[3];
    int nlibs = 0, joined = 1;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (b->color[q] == TG_EMPTY && nlibs < 2)
            libs[nlibs++] = q;
        else if (b->color[q] == tg_opponent(c) && tg_chain_in_atari(tg_chain_at(b, q)))
            nlibs = 2; /* a capture: the stones taken off give liberties */
    }
    for (int i = 0; i < 4 && nlibs < 2; i++) {
        int q = p + d[i];
        if (b->color[q] != c)
            continue;
        joined = 2;
        /* three liberties or more: two stay */
        if (tg_chain_more_libs_than(tg_chain_at(b, q), 2)) {
            nlibs = 2;
            break;
        }
        int n = tg_chain_liberties_upto(b, q, chain_libs, 3);
        for (int k = 0; k < n && nlibs < 2; k++)
            if (chain_libs[k] != p && (nlibs == 0 || libs[0] != chain_libs[k]))
                libs[nlibs++] = chain_libs[k];
    }
    if (stones)
        *stones = joined;
    return nlibs < 2;
}

int tg_board_stone_count(const tg_board *b, tg_color c)
{
    int n = 0;
    for (int p = 0; p < b->npoints; p++)
        n += b->color[p] == c;
    return n;
}

/* ---- Random moves and playouts -------------------------------------- */

/* May c play the empty point p in a playout: legal (simple ko) and not
 * one of c's own eyes?  tg_board_is_eye and tg_board_check together, with
 * the cheapest tests first. */
static inline __attribute__((always_inline)) bool playout_move_ok(const tg_board *b, tg_point p, tg_color c,
                                                                   tg_suicide_rule suicide, const int S)
{
    unsigned n = b->nbr[p];
    if (n & 15)
        return true; /* an empty neighbour: legal, no eye, and not the ko point */
    if (p == b->ko_point && c == b->ko_color)
        return false;
    unsigned edge = (n >> (4 * TG_OFFBOARD)) & 15;
    if (((n >> (4 * c)) & 15) + edge == 4) {
        /* c's stones and the edge all round: an eye unless the diagonals
         * make it false (tg_board_is_eye, with the counts known) */
        if (eye_diagonals_hold(b, p, c, edge, S))
            return false;
    } else if (!(n & (15u << (4 * c)))) {
        /* no stone of c's around: legal only by capturing a neighbouring
         * chain whose last liberty is p */
        const int d[4] = {-1, 1, -S, S};
        const uint64_t code = board_lib_code[p];
        unsigned captures = 0;
        for (int i = 0; i < 4; i++) {
            int q = p + d[i];
            unsigned atari = tg_chain_libs_all(&b->chain[b->chain_of[q]], code);
            captures |= atari & (b->color[q] == (unsigned)tg_opponent(c));
        }
        return captures;
    }
    return placement_ok(b, p, c, suicide, S);
}

typedef struct playout_filter {
    tg_color color;
    tg_suicide_rule suicide;
    int stride;
} playout_filter;

static inline __attribute__((always_inline)) bool playout_acceptable(const tg_board *b, tg_point p, void *context)
{
    const playout_filter *f = context;
    return playout_move_ok(b, p, f->color, f->suicide, f->stride);
}

/* A random point that passes playout_move_ok, scanning from a random start;
 * TG_PASS when there is none. */
static inline __attribute__((always_inline)) tg_point select_move(const tg_board *b, tg_color c, tg_suicide_rule suicide,
                                                                   tg_rng *rng, const int S)
{
    int n = b->empty_count;
    if (n == 0)
        return TG_PASS;
    playout_filter f = {c, suicide, S};
    return tg_board_scan_empty(b, (int)tg_rng_below(rng, (uint32_t)n), playout_acceptable, &f);
}

bool tg_board_playout_move_ok(const tg_board *b, tg_point p, tg_color c, tg_suicide_rule suicide)
{
    return playout_move_ok(b, p, c, suicide, b->stride);
}

tg_point tg_board_random_move(const tg_board *b, tg_color c, tg_suicide_rule suicide, tg_rng *rng)
{
    return select_move(b, c, suicide, rng, b->stride);
}

/* One move of the uniformly random playout, for boards of stride S. */
typedef struct random_playout {
    tg_suicide_rule suicide;
    tg_rng rng; /* a copy, kept in registers through the loop */
} random_playout;

static inline __attribute__((always_inline)) tg_playout_step random_step(void *policy, tg_board *b, tg_color c,
                                                                       const int S)
{
    random_playout *r = policy;
    tg_point p = select_move(b, c, r->suicide, &r->rng, S);
    if (p == TG_PASS) {
        tg_board_pass(b);
        return TG_PLAYOUT_PASSED;
    }
    bool suicided;
    play_core(b, p, c, NULL, &suicided, S);
    return TG_PLAYOUT_MOVED;
}

/* The step for strides 10 (9x9), 20 (19x19) and any; inlined into
 * tg_playout_run, each with its constants folded. */
static inline __attribute__((always_inline)) tg_playout_step random_step_9(void *policy, tg_board *b, tg_color c)
{
    return random_step(policy, b, c, 10);
}
static inline __attribute__((always_inline)) tg_playout_step random_step_19(void *policy, tg_board *b, tg_color c)
{
    return random_step(policy, b, c, 20);
}
static inline __attribute__((always_inline)) tg_playout_step random_step_any(void *policy, tg_board *b, tg_color c)
{
    return random_step(policy, b, c, b->stride);
}

int tg_board_playout(tg_board *b, tg_color to_move, tg_suicide_rule suicide, tg_rng *rng, int max_moves)
{
    random_playout r = {suicide, *rng};
    int moves;
    /* 9x9 and 19x19 get a copy with the neighbour offsets as constants */
    switch (b->stride) {
    case 10: moves = tg_playout_run(b, to_move, max_moves, random_step_9, &r); break;
    case 20: moves = tg_playout_run(b, to_move, max_moves, random_step_19, &r); break;
    default: moves = tg_playout_run(b, to_move, max_moves, random_step_any, &r); break;
    }
    *rng = r.rng;
    return moves;
}

/* ---- Vertices ------------------------------------------------------- */

static const char column_letters[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

void tg_point_to_vertex(const tg_board *b, tg_point p, char *buf)
{
    if (p == TG_PASS) {
        strcpy(buf, "pass");
        return;
    }
    if (p == TG_RESIGN) {
        strcpy(buf, "resign");
        return;
    }
    if (!tg_on_board(b, p)) {
        strcpy(buf, "?");
        return;
    }
    int x = tg_point_x(b, p), y = tg_point_y(b, p) + 1;
    buf[0] = column_letters[x];
    if (y >= 10) {
        buf[1] = (char)('0' + y / 10);
        buf[2] = (char)('0' + y % 10);
        buf[3] = 0;
    } else {
        buf[1] = (char)('0' + y);
        buf[2] = 0;
    }
}

tg_status tg_vertex_parse(const tg_board *b, const char *text, tg_point *out)
{
    char letter = text[0];
    if (letter >= 'a' && letter <= 'z')
        letter = (char)(letter - 'a' + 'A');
    if ((letter == 'P') && (text[1] == 'a' || text[1] == 'A') && (text[2] == 's' || text[2] == 'S') &&
        (text[3] == 's' || text[3] == 'S') && text[4] == 0) {
        *out = TG_PASS;
        return TG_OK;
    }
    const char *where = letter ? strchr(column_letters, letter) : NULL;
    if (!where)
        return TG_ERR_PARSE;
    int x = (int)(where - column_letters), y = 0, digits = 0;
    for (const char *s = text + 1; *s; s++) {
        if (*s < '0' || *s > '9' || digits >= 2)
            return TG_ERR_PARSE;
        y = y * 10 + (*s - '0');
        digits++;
    }
    if (!digits || (digits == 2 && text[1] == '0'))
        return TG_ERR_PARSE;
    if (x >= b->size || y < 1 || y > b->size)
        return TG_ERR_OFF_BOARD;
    *out = tg_point_at(b, x, y - 1);
    return TG_OK;
}
