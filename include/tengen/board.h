/*
 * board.h — the Go board: stones, chains, liberties, captures, simple ko,
 * Zobrist hashing and undo.  This is the hot path of playouts and search.
 *
 * Representation (see common.h for the padded layout):
 *   - color[p] for every point, TG_OFFBOARD on the border;
 *   - every stone belongs to a chain, identified by its head point chain_of[p];
 *     the stones of a chain form a circular list through next_stone[];
 *   - each chain keeps *pseudo-liberties*: the number of (stone, empty
 *     neighbour) adjacencies, with the sum and the sum of squares of those
 *     empty points.  All pseudo-liberties are the same point exactly when
 *     count * sum_sq == sum * sum, which gives exact atari detection (and the
 *     liberty itself, sum / count) with O(1) updates and no flood fill.
 *     The three figures are packed in one 64-bit word (count in bits 50-60,
 *     sum in bits 30-49, sum of squares in bits 0-29), so that adding or
 *     removing a pseudo-liberty q is one addition of tg_lib_code(q) and
 *     merging two chains one addition of their words: no field can
 *     overflow into the next on boards up to 25x25 (at most 1,200
 *     adjacencies, points below 703);
 *   - neighbour counts per point (how many black, white, empty, off-board
 *     neighbours) make eye and suicide tests O(1);
 *   - a list of empty points for uniform random move choice;
 *   - a 64-bit Zobrist hash of the stones; the hash of the position after a
 *     move is known before the move is played (the stones of a chain it
 *     would capture are walked then: chains carry no hash of their own,
 *     which keeps the play path and the chain records small).
 *
 * The board knows only the simple ko; whole-board repetition (superko) and
 * turn order are the game layer's business (game.h).
 */
#ifndef TENGEN_BOARD_H
#define TENGEN_BOARD_H

#include "common.h"

typedef struct tg_chain {
    uint64_t libs;         /* pseudo-liberties: count, sum, sum of squares, packed */
    uint16_t stones;       /* number of stones */
} tg_chain;

/* The packed word of one pseudo-liberty at point q. */
#define TG_LIB_COUNT_SHIFT 50
#define TG_LIB_SUM_SHIFT 30
static inline uint64_t tg_lib_code(int q)
{
    return ((uint64_t)1 << TG_LIB_COUNT_SHIFT) | ((uint64_t)q << TG_LIB_SUM_SHIFT) | (uint64_t)(q * q);
}

typedef struct tg_board {
    int size;                       /* 2..25 */
    int stride;                     /* size + 1 */
    int npoints;                    /* entries of the arrays in use */
    uint64_t hash;                  /* Zobrist hash of the stones alone */
    tg_point ko_point;              /* point the side below may not retake, or TG_NO_POINT */
    tg_color ko_color;              /* colour barred from ko_point */
    tg_point last_move;             /* last point played, TG_PASS, or TG_NO_POINT */
    int captures[3];                /* stones captured BY each colour (index TG_BLACK/TG_WHITE) */
    int empty_count;
    uint8_t color[TG_MAX_POINTS];
    uint16_t nbr[TG_MAX_POINTS];    /* neighbour counts, 4 bits per colour, indexed by tg_color */
    uint16_t chain_of[TG_MAX_POINTS];
    uint16_t next_stone[TG_MAX_POINTS];
    uint16_t empty_index[TG_MAX_POINTS];
    uint16_t empty[TG_MAX_POINTS];
    tg_chain chain[TG_MAX_POINTS];  /* valid at head points only */
} tg_board;

/* Record kept by tg_board_play_logged so that tg_board_undo can reverse it. */
typedef struct tg_undo_entry {
    tg_point point;           /* TG_PASS for a pass */
    tg_color color;
    tg_point ko_point;        /* before the move */
    tg_color ko_color;
    tg_point last_move;
    uint64_t hash;
    int captured_start;       /* index into the log's captured[] */
    int captured_count;
    bool suicide;             /* the captured stones are the mover's own */
    int joined;               /* distinct chains of the mover's the stone joined */
} tg_undo_entry;

typedef struct tg_undo_log {
    tg_undo_entry *entries;
    int count, capacity;
    uint16_t *captured;
    int captured_count, captured_capacity;
} tg_undo_log;

/* ---- Coordinates ---------------------------------------------------- */

static inline tg_point tg_point_at(const tg_board *b, int x, int y)
{
    /* x, y are 0-based from the left and from the bottom row */
    return (y + 1) * b->stride + x + 1;
}
static inline int tg_point_x(const tg_board *b, tg_point p) { return p % b->stride - 1; }
static inline int tg_point_y(const tg_board *b, tg_point p) { return p / b->stride - 1; }
static inline bool tg_on_board(const tg_board *b, tg_point p)
{
    return p >= 0 && p < b->npoints && b->color[p] != TG_OFFBOARD;
}

/* ---- Setting up ----------------------------------------------------- */

tg_status tg_board_init(tg_board *b, int size);
void tg_board_copy(tg_board *dst, const tg_board *src);   /* copies only the points in use */

/* Place or remove a stone outside the rules of play (SGF AB/AW/AE, handicap,
 * dead-stone removal).  Chains are rebuilt around the point; nothing is
 * captured and the ko is cleared. */
tg_status tg_board_set_point(tg_board *b, tg_point p, tg_color c);

/* ---- Playing -------------------------------------------------------- */

typedef enum tg_suicide_rule {
    TG_SUICIDE_FORBIDDEN = 0,
    TG_SUICIDE_MULTI_STONE = 1,
    TG_SUICIDE_ANY = 2 /* a single stone too (the free-opening ruleset) */
} tg_suicide_rule;

/* Board-level legality: empty point, simple ko, suicide (single-stone
 * suicide is never legal; multi-stone suicide only when allowed).
 * Does not look at superko or at whose turn it is. */
tg_status tg_board_check(const tg_board *b, tg_point p, tg_color c, tg_suicide_rule suicide);

/* Play a legal move (check it first: playing an illegal move is undefined).
 * Returns the number of stones removed: the opponent's captures, or the
 * mover's own chain for a permitted multi-stone suicide. */
int tg_board_play(tg_board *b, tg_point p, tg_color c);
void tg_board_pass(tg_board *b);

/* The same, recording what is needed for tg_board_undo.  Returns -1 if the
 * log cannot grow (out of memory); the board is then unchanged. */
int tg_board_play_logged(tg_board *b, tg_point p, tg_color c, tg_undo_log *log);
/* The capture choice of the free-opening ruleset (002 §4.3): c plays p, and
 * c's own chains left without liberties are removed instead of the
 * opponent's (which have p back as a liberty).  Only where the move leaves
 * both sides' chains without liberties (tg_board_both_sides_dead).
 * Logged like a suicide; returns the stones removed, p among them. */
int tg_board_play_own_capture_logged(tg_board *b, tg_point p, tg_color c, tg_undo_log *log);
/* Does c at the empty point p leave chains of both colours without a
 * liberty (a capture, and c's own chain with no other liberty)? */
bool tg_board_both_sides_dead(const tg_board *b, tg_point p, tg_color c);
/* The board after the capture choice, on a copy (for superko checks). */
void tg_board_own_capture(tg_board *b, tg_point p, tg_color c);
int tg_board_pass_logged(tg_board *b, tg_undo_log *log);
/* Undo the last logged move; TG_ERR_NOT_ALLOWED when the log is empty. */
tg_status tg_board_undo(tg_board *b, tg_undo_log *log);

void tg_undo_log_init(tg_undo_log *log);
void tg_undo_log_free(tg_undo_log *log);

/* Zobrist hash the board would have after c plays at p (legal move). */
uint64_t tg_board_hash_after(const tg_board *b, tg_point p, tg_color c);

/* ---- Queries -------------------------------------------------------- */

uint64_t tg_zobrist(tg_point p, tg_color c);

static inline tg_color tg_board_at(const tg_board *b, tg_point p) { return (tg_color)b->color[p]; }
static inline int tg_nbr_count(const tg_board *b, tg_point p, tg_color c)
{
    return (b->nbr[p] >> (4 * c)) & 15;
}
static inline const tg_chain *tg_chain_at(const tg_board *b, tg_point p)
{
    return &b->chain[b->chain_of[p]];
}
/* The number of (stone, empty neighbour) adjacencies of the chain: an
 * upper bound of its liberties, 0 exactly when it has none. */
static inline int tg_chain_pseudo_libs(const tg_chain *ch)
{
    return (int)(ch->libs >> TG_LIB_COUNT_SHIFT);
}
/* True when the chain surely has more than k liberties: a liberty touches
 * at most four of its stones, so more than 4k pseudo-liberties are more
 * than k liberties.  (False says nothing.) */
static inline bool tg_chain_more_libs_than(const tg_chain *ch, int k)
{
    return tg_chain_pseudo_libs(ch) > 4 * k;
}
/* The sum of the chain's pseudo-liberties. */
static inline uint64_t tg_chain_lib_sum(const tg_chain *ch)
{
    return (ch->libs >> TG_LIB_SUM_SHIFT) & ((1u << (TG_LIB_COUNT_SHIFT - TG_LIB_SUM_SHIFT)) - 1);
}
/* True when the chain has exactly one liberty. */
static inline bool tg_chain_in_atari(const tg_chain *ch)
{
    uint64_t sum = tg_chain_lib_sum(ch), sum_sq = ch->libs & ((1u << TG_LIB_SUM_SHIFT) - 1);
    return (ch->libs >> TG_LIB_COUNT_SHIFT) * sum_sq == sum * sum;
}
/* True when all the chain's pseudo-liberties are the point whose
 * tg_lib_code is `code`.  One multiplication. */
static inline bool tg_chain_libs_all(const tg_chain *ch, uint64_t code)
{
    return ch->libs == (ch->libs >> TG_LIB_COUNT_SHIFT) * code;
}
/* True when the chain's only liberty is q, a point known to be one of its
 * liberties: all its pseudo-liberties are q. */
static inline bool tg_chain_in_atari_at(const tg_chain *ch, tg_point q)
{
    return tg_chain_libs_all(ch, tg_lib_code(q));
}
/* Does c at the empty point p capture: is p the last liberty of a chain
 * of the opponent's next to it? */
static inline bool tg_board_captures(const tg_board *b, tg_point p, tg_color c)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    for (int i = 0; i < 4; i++)
        if (b->color[p + d[i]] == tg_opponent(c) && tg_chain_in_atari_at(&b->chain[b->chain_of[p + d[i]]], p))
            return true;
    return false;
}
/* The single liberty of a chain in atari. */
static inline tg_point tg_chain_atari_point(const tg_chain *ch)
{
    return (tg_point)(tg_chain_lib_sum(ch) / (ch->libs >> TG_LIB_COUNT_SHIFT));
}

/* Exact liberties of the chain at p, up to max of them written to libs
 * (libs may be NULL).  Returns the exact count. */
int tg_chain_liberties(const tg_board *b, tg_point p, tg_point *libs, int max);
/* The first `max` (1..8; more counts as 8, less as none) distinct
 * liberties of the chain at p met on its stones, written to libs (may be
 * NULL); returns how many, so at most max.
 * For "one, two, or more" questions: it stops as soon as it has enough,
 * where tg_chain_liberties walks the whole chain.  (A caller that may
 * meet long chains asks tg_chain_more_libs_than first: the test here
 * would cost every call.) */
int tg_chain_liberties_upto(const tg_board *b, tg_point p, tg_point *libs, int max);
/* Stones of the chain at p written to out (room for b->size^2). Returns count. */
int tg_chain_stones(const tg_board *b, tg_point p, tg_point *out);

/* An "eye-like" point of colour c: all neighbours are c or off-board, and at
 * most one diagonal (none on the edge) is the opponent's.  Playouts never
 * fill these. */
bool tg_board_is_eye(const tg_board *b, tg_point p, tg_color c);

/* Would c at p (a legal move) leave the chain it forms with a single
 * liberty (or none) while capturing nothing?  *stones (may be NULL) is 1
 * when that chain would be the lone new stone, 2 when it joins others. */
bool tg_board_is_self_atari(const tg_board *b, tg_point p, tg_color c, int *stones);

/* Stones of each colour on the board. */
int tg_board_stone_count(const tg_board *b, tg_color c);

/* Debug invariant check: recomputes everything by flood fill and compares.
 * Returns true when consistent. */
bool tg_board_consistent(const tg_board *b);

/* ---- Playouts (used by the benchmark and the dead-stone estimator) ---- */

/* What one move of a playout did. */
typedef enum tg_playout_step {
    TG_PLAYOUT_MOVED,
    TG_PLAYOUT_PASSED,
    TG_PLAYOUT_STOPPED /* nothing: the playout ends here (a policy's own end) */
} tg_playout_step;
/* One move of colour c in a playout: play it on b, or pass, and say which. */
typedef tg_playout_step (*tg_playout_step_fn)(void *policy, tg_board *b, tg_color c);

/* A playout's move: play p for c, or pass when p is TG_PASS. */
static inline tg_playout_step tg_playout_play(tg_board *b, tg_point p, tg_color c)
{
    if (p == TG_PASS) {
        tg_board_pass(b);
        return TG_PLAYOUT_PASSED;
    }
    tg_board_play(b, p, c);
    return TG_PLAYOUT_MOVED;
}

/* The one playout loop: moves of to_move and its opponent in turn, each
 * made by `step`, until both sides pass in a row, a step stops, or
 * max_moves moves (passes included) are made; returns how many were.
 * Inline, and Black's and White's moves written apart, so that a known step
 * with its colour a constant compiles into one tight loop (tg_board_playout
 * and the playout policies of score/ and engine/). */
static inline __attribute__((always_inline)) int tg_playout_run(tg_board *b, tg_color to_move, int max_moves,
                                                              tg_playout_step_fn step, void *policy)
{
    int moves = 0, passes = 0;
    tg_playout_step s;
    if (to_move == TG_WHITE && max_moves > 0) {
        if ((s = step(policy, b, TG_WHITE)) == TG_PLAYOUT_STOPPED)
            return moves;
        passes = s == TG_PLAYOUT_PASSED;
        moves++;
    }
    while (moves < max_moves && passes < 2) {
        if ((s = step(policy, b, TG_BLACK)) == TG_PLAYOUT_STOPPED)
            break;
        passes = s == TG_PLAYOUT_PASSED ? passes + 1 : 0;
        if (++moves >= max_moves || passes >= 2)
            break;
        if ((s = step(policy, b, TG_WHITE)) == TG_PLAYOUT_STOPPED)
            break;
        passes = s == TG_PLAYOUT_PASSED ? passes + 1 : 0;
        moves++;
    }
    return moves;
}

/* Play uniformly random legal moves that do not fill the mover's own eyes,
 * starting with to_move, until both sides pass or max_moves is reached.
 * Simple ko only.  Returns the number of moves played. */
int tg_board_playout(tg_board *b, tg_color to_move, tg_suicide_rule suicide, tg_rng *rng, int max_moves);

/* The first empty point that `accept` approves, scanning the empty list
 * from index start (0 <= start < b->empty_count) round to the point before
 * it; TG_PASS when none does.  Inline, so that a scan with a known filter
 * compiles into one loop.  Playout policies draw the start at random
 * (tg_board_random_move, tactics/). */
typedef bool (*tg_point_filter)(const tg_board *b, tg_point p, void *context);
static inline tg_point tg_board_scan_empty(const tg_board *b, int start, tg_point_filter accept, void *context)
{
    int n = b->empty_count, i = start;
    for (int k = 0; k < n; k++) {
        tg_point p = b->empty[i];
        if (accept(b, p, context))
            return p;
        if (++i == n)
            i = 0;
    }
    return TG_PASS;
}

/* Whether c may play the empty point p in a playout: legal (simple ko,
 * the suicide rule) and not one of c's own eyes (tg_board_is_eye).  The
 * playouts' own test, cheapest checks first. */
bool tg_board_playout_move_ok(const tg_board *b, tg_point p, tg_color c, tg_suicide_rule suicide);

/* Random legal non-eye-filling move for c, or TG_PASS. */
tg_point tg_board_random_move(const tg_board *b, tg_color c, tg_suicide_rule suicide, tg_rng *rng);

/* ---- Vertices ------------------------------------------------------- */

/* GTP/terminal vertex text: "A1".."Z25" skipping I, or "pass". buf >= 8 bytes. */
void tg_point_to_vertex(const tg_board *b, tg_point p, char *buf);
/* Parse a vertex (case-insensitive, "pass" accepted).  TG_ERR_PARSE for text
 * that is not a vertex, TG_ERR_OFF_BOARD for a vertex outside this board. */
tg_status tg_vertex_parse(const tg_board *b, const char *text, tg_point *out);

#endif
