/*
 * special.c — the moves no playout and no tree node holds: a suicide of
 * more than one stone (rules with suicide=yes, the free-opening ruleset)
 * and the capture choice (capture=choose: where a move leaves both sides'
 * chains without liberties, the mover removes its own).
 *
 * Without repetition neither is ever better than the best of the ordinary
 * moves and the pass: a suicide hands the opponent the move on a board with
 * fewer of one's own stones, and so does the capture choice next to the
 * ordinary capture followed by the opponent's recapture (a player to move
 * can always do as well as with the opponent to move, since a pass is
 * among the moves).  A suicide or capture choice of one stone leaves the
 * board as it was, a pass that does not offer to end, and never does
 * better than the pass.  What these moves can do is make the board new
 * where the rule against repetition forbids, or under repetition=lose
 * punishes, the ordinary moves that would win (a cycle of kos).  So they
 * are weighed only where the search's best ordinary move is not winning:
 * each candidate, and the search's move, is judged by a search of the
 * position it leaves, with the opponent to move, from one probe tree kept
 * apart from the main tree, and a candidate is played only when it beats
 * the search's move by SPECIAL_MARGIN.
 */
#include <stdlib.h>

#include "engine/search_internal.h"
#include "tengen/score.h"

#define SPECIAL_MAX 8          /* candidates judged, fewest stones lost first */
#define SPECIAL_BELOW 0.55     /* weighed only where the best ordinary move is below this */
#define SPECIAL_SHARE 0.25     /* of the move's budget, for the probes together */
#define SPECIAL_MARGIN 0.10    /* a candidate must beat the search's move by this */
#define PROBE_MIN_PLAYOUTS 64

typedef struct special_move {
    tg_point point;
    unsigned flags;            /* TG_PLAY_CAPTURE_OWN, or 0 for a suicide */
    int lost;                  /* own stones removed, the new one included */
} special_move;

static int by_stones_lost(const void *a, const void *b)
{
    const special_move *x = a, *y = b;
    return x->lost != y->lost ? x->lost - y->lost : x->point - y->point;
}

int search_special_moves(const tg_game *g, tg_color color, unsigned allowed, tg_point *points, unsigned *flags,
                         int max)
{
    const tg_rules *r = tg_game_rules(g);
    bool own_choice = r->capture_choice && (allowed & TG_PLAY_CAPTURE_OWN);
    if (!r->suicide && !r->suicide_any && !own_choice)
        return 0;
    const tg_board *b = tg_game_board(g);
    special_move found[TG_MAX_POINTS];
    int n = 0;
    int before = tg_board_stone_count(b, color);
    for (int i = 0; i < b->empty_count; i++) {
        tg_point p = b->empty[i];
        /* a single stone's suicide or capture choice is a pass that does not offer to end */
        if (tg_nbr_count(b, p, color) == 0)
            continue;
        tg_board after;
        if (own_choice && tg_board_both_sides_dead(b, p, color) &&
            tg_game_check(g, color, p, TG_PLAY_CAPTURE_OWN | TG_PLAY_ANY_ORDER) == TG_OK) {
            tg_board_copy(&after, b);
            tg_board_own_capture(&after, p, color);
            found[n++] = (special_move){p, TG_PLAY_CAPTURE_OWN, before + 1 - tg_board_stone_count(&after, color)};
        } else if (tg_board_check(b, p, color, TG_SUICIDE_FORBIDDEN) == TG_ERR_SUICIDE &&
                   tg_game_check(g, color, p, TG_PLAY_ANY_ORDER) == TG_OK) {
            tg_board_copy(&after, b);
            found[n++] = (special_move){p, 0, tg_board_play(&after, p, color)};
        }
    }
    qsort(found, (size_t)n, sizeof found[0], by_stones_lost);
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++) {
        points[i] = found[i].point;
        flags[i] = found[i].flags;
    }
    return n;
}

/* The probe tree: as the main one, smaller, without reuse. */
static tg_search *probe_of(tg_search *s)
{
    tg_search *probe = atomic_load(&s->probe);
    if (probe)
        return probe;
    tg_search_options opt = s->opt;
    opt.max_memory = opt.max_memory / 4 > ((size_t)8 << 20) ? opt.max_memory / 4 : (size_t)8 << 20;
    opt.reuse_tree = false;
    opt.seed = tg_rng_next(&s->rng);
    probe = tg_search_new(&opt);
    atomic_store(&s->probe, probe);
    return probe;
}

/* What color's move (point, flags) in g is worth to color, 0..1: the
 * count where it ends the game, else one minus the probe's winrate for the
 * opponent to move. */
static tg_status probe_value(tg_search *s, const tg_game *g, tg_color color, tg_point point, unsigned flags,
                             const tg_search_limits *limits, double *value)
{
    tg_search *probe = probe_of(s);
    tg_game *after = probe ? tg_game_clone(g) : NULL;
    if (!after)
        return TG_ERR_NO_MEMORY;
    tg_status st = tg_game_play(after, color, point, flags | TG_PLAY_ANY_ORDER);
    if (st == TG_OK && tg_game_over(after)) {
        uint8_t dead[TG_MAX_POINTS];
        tg_score score;
        tg_search_dead_stones(s, tg_game_board(after), dead);
        tg_score_game(after, dead, &score);
        *value = score.result.winner == color ? 1 : score.result.winner == TG_EMPTY ? 0.5 : 0;
    } else if (st == TG_OK) {
        st = tg_search_run(probe, after, tg_opponent(color), limits, 0, NULL, NULL, NULL);
        *value = 1 - tg_search_last_report(probe)->winrate;
    }
    tg_game_free(after);
    return st;
}

tg_status tg_search_genmove_choice(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits,
                                   bool cleanup, unsigned *flags, tg_point *move)
{
    unsigned allowed = *flags;
    *flags = 0;
    atomic_store(&s->halted, false);
    tg_status st = tg_search_genmove(s, g, color, limits, cleanup, move);
    if (st != TG_OK || cleanup || s->report.winrate >= SPECIAL_BELOW)
        return st;
    tg_point points[SPECIAL_MAX];
    unsigned choice[SPECIAL_MAX];
    int n = search_special_moves(g, color, allowed, points, choice, SPECIAL_MAX);
    if (n == 0)
        return TG_OK;
    /* the probes' budget: a share of the move's, within its hard limit */
    tg_search_limits each = {0};
    double share = SPECIAL_SHARE / n;
    int playouts = limits->playouts > 0 ? limits->playouts : limits->seconds > 0 ? 0 : 1000;
    if (playouts > 0)
        each.playouts = (int)(playouts * share) > PROBE_MIN_PLAYOUTS ? (int)(playouts * share) : PROBE_MIN_PLAYOUTS;
    if (limits->seconds > 0) {
        double spare = (limits->max_seconds > limits->seconds ? limits->max_seconds : limits->seconds) -
                       s->report.seconds;
        double total = limits->seconds * SPECIAL_SHARE < spare ? limits->seconds * SPECIAL_SHARE : spare;
        if (total <= 0)
            return TG_OK;
        each.seconds = each.max_seconds = total / n;
    }
    /* the search's move is judged by the search itself, the fullest look
     * at it; a pass that ends the game, by the count */
    double base = s->report.winrate, best = -1;
    int best_i = -1;
    int moves = tg_game_move_count(g);
    if (*move == TG_PASS && moves > 0 && tg_game_move(g, moves - 1)->point == TG_PASS &&
        probe_value(s, g, color, TG_PASS, 0, &each, &base) != TG_OK)
        return TG_OK;
    for (int i = 0; i < n && !atomic_load(&s->halted); i++) {
        double v;
        if (probe_value(s, g, color, points[i], choice[i], &each, &v) != TG_OK)
            break;
        if (v > best) {
            best = v;
            best_i = i;
        }
    }
    if (best_i >= 0 && best > base + SPECIAL_MARGIN) {
        *move = points[best_i];
        *flags = choice[best_i];
    }
    return TG_OK;
}
