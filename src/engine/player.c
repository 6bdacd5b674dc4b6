/*
 * player.c — the baseline move generator: a few tactical rules on top of a
 * Monte-Carlo ownership estimate.  It is the opponent for tests and
 * benchmarks until the tree search (its own issue) replaces it.
 *
 * In order of preference it
 *   1. captures the largest enemy chain in atari,
 *   2. saves its largest chain in atari by extending to two liberties,
 *   3. plays the best of the points whose owner is still unsettled, by a
 *      flat Monte-Carlo evaluation with all-moves-as-first statistics,
 * and never fills its own eye, never plays a self-atari of more than one
 * stone, and passes when nothing of that is left.  In cleanup mode
 * (kgs-genmove_cleanup) it first takes every dead enemy stone.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/player.h"
#include "tengen/score.h"
#include "engine/legal.h"
#include "tactics/tactics.h"

#define DEFAULT_PLAYOUTS 64
#define SETTLED 0.7f  /* |ownership| above this: the point's owner is decided */

/* Best tactical move: capture (weight = stones taken) or escape (weight =
 * stones saved, by an extension to two liberties or more).  Returns
 * TG_PASS when there is none. */
static tg_point tactical_move(const tg_game *g, tg_color color)
{
    const tg_board *b = tg_game_board(g);
    tactics_answer_rule rule = {engine_legal_in_game, g, TACTICS_SAVE_BY_PLAYED_EXTENSION, false};
    tg_point best = TG_PASS;
    int best_weight = 0;
    for (int p = 0; p < b->npoints; p++) {
        tg_color c = (tg_color)b->color[p];
        if ((c != TG_BLACK && c != TG_WHITE) || b->chain_of[p] != p)
            continue; /* one visit per chain, at its head */
        const tg_chain *ch = &b->chain[p];
        if (!tg_chain_in_atari(ch))
            continue;
        int weight = ch->stones * 2 + (c != color); /* captures first at equal size */
        if (weight <= best_weight)
            continue;
        tg_point answer = tactics_answer_atari(b, p, color, &rule);
        if (answer == TG_PASS)
            continue;
        best = answer;
        best_weight = weight;
    }
    return best;
}

/* Dead enemy stones (cleanup): a legal move on a liberty of one of them. */
static tg_point cleanup_move(const tg_game *g, tg_color color, const uint8_t *dead, tg_rng *rng)
{
    tactics_cleanup_rule rule = {engine_legal_in_game, g, true, true};
    tg_point libs[TG_MAX_POINTS];
    int n = tactics_cleanup_moves(tg_game_board(g), color, dead, &rule, libs);
    return n ? libs[tg_rng_below(rng, (uint32_t)n)] : TG_PASS;
}

/* The opponent has just passed and counting now (dead stones estimated)
 * wins for `color`: passing ends the game in our favour. */
static bool opponent_passed_and_we_win(const tg_game *g, tg_color color, int playouts, tg_rng *rng)
{
    int n = tg_game_move_count(g);
    const tg_move *last = n ? tg_game_move(g, n - 1) : NULL;
    if (!last || last->point != TG_PASS || last->color == color)
        return false;
    uint8_t dead[TG_MAX_POINTS];
    tg_score score;
    tg_estimate_dead(tg_game_board(g), color, tg_game_rules(g), playouts * 4, rng, dead);
    tg_score_game(g, dead, &score);
    return score.result.winner == color;
}

/* A playout of the flat Monte-Carlo: the candidate to try, then uniformly
 * random moves; first[p] is the colour that played p first. */
typedef struct flat_playout {
    tg_point candidate; /* TG_NO_POINT once played */
    tg_suicide_rule suicide;
    tg_rng *rng;
    uint8_t *first;
} flat_playout;

static tg_playout_step flat_step(void *policy, tg_board *b, tg_color c)
{
    flat_playout *f = policy;
    tg_point p = f->candidate;
    if (p == TG_NO_POINT)
        p = tg_board_random_move(b, c, f->suicide, f->rng);
    f->candidate = TG_NO_POINT;
    if (p != TG_PASS && !f->first[p])
        f->first[p] = (uint8_t)c;
    return tg_playout_play(b, p, c);
}

/* Flat Monte-Carlo with all-moves-as-first statistics: each playout starts
 * with a random candidate; every candidate point `color` occupied first in
 * a playout shares its win or loss.  Returns the best candidate. */
static tg_point flat_monte_carlo(const tg_game *g, tg_color color, const tg_point *cands, int n, int budget,
                                 tg_rng *rng)
{
    const tg_board *b = tg_game_board(g);
    const tg_rules *r = tg_game_rules(g);
    tg_suicide_rule suicide = r->suicide ? TG_SUICIDE_MULTI_STONE : TG_SUICIDE_FORBIDDEN;
    int komi2 = r->komi2 + 2 * tg_rules_handicap_points(r, tg_game_handicap(g));
    int playouts = budget > 0 ? budget : 20 * n < 400 ? 400 : 20 * n > 6000 ? 6000 : 20 * n;
    int max_moves = 3 * b->size * b->size;
    int *wins = calloc((size_t)n, sizeof(int)), *visits = calloc((size_t)n, sizeof(int));
    uint8_t *first = malloc(TG_MAX_POINTS);
    tg_point best = cands[0];
    if (!wins || !visits || !first)
        goto done;
    for (int k = 0; k < playouts; k++) {
        tg_board work;
        tg_board_copy(&work, b);
        memset(first, 0, (size_t)b->npoints);
        flat_playout f = {cands[tg_rng_below(rng, (uint32_t)n)], suicide, rng, first};
        tg_playout_run(&work, color, max_moves, flat_step, &f);
        /* every stone counts, and an empty point for the colour that alone
         * touches it */
        int margin2 = tactics_area_score(&work, TACTICS_OWNER_TOUCHED, NULL) - komi2;
        bool won = color == TG_BLACK ? margin2 > 0 : margin2 < 0;
        for (int i = 0; i < n; i++)
            if (first[cands[i]] == color) {
                visits[i]++;
                wins[i] += won;
            }
    }
    double best_value = -1;
    for (int i = 0; i < n; i++) {
        double value = (wins[i] + 1.0) / (visits[i] + 2.0);
        if (value > best_value) {
            best_value = value;
            best = cands[i];
        }
    }
done:
    free(wins);
    free(visits);
    free(first);
    return best;
}

tg_point tg_player_genmove(const tg_game *g, tg_color color, const tg_player_options *opt, tg_rng *rng)
{
    if (tg_game_over(g))
        return TG_PASS;
    const tg_board *b = tg_game_board(g);
    int budget = opt && opt->playouts > 0 ? opt->playouts : 0;
    int playouts = budget && budget < DEFAULT_PLAYOUTS ? budget : DEFAULT_PLAYOUTS;

    if (!(opt && opt->cleanup) && opponent_passed_and_we_win(g, color, playouts, rng))
        return TG_PASS;

    tg_point tactic = tactical_move(g, color);
    if (tactic != TG_PASS)
        return tactic;

    float ownership[TG_MAX_POINTS];
    tg_ownership(b, color, tg_game_rules(g), playouts, rng, ownership);

    if (opt && opt->cleanup) {
        uint8_t dead[TG_MAX_POINTS];
        tg_estimate_dead(b, color, tg_game_rules(g), playouts, rng, dead);
        tg_point p = cleanup_move(g, color, dead, rng);
        if (p != TG_PASS)
            return p;
    }

    /* Unsettled points: the candidates of a flat Monte-Carlo choice. */
    tg_point *cands = malloc(sizeof(tg_point) * (size_t)b->empty_count);
    if (!cands)
        return TG_PASS;
    int n = 0;
    for (int i = 0; i < b->empty_count; i++) {
        tg_point p = b->empty[i];
        if (fabsf(ownership[p]) >= SETTLED || tg_board_is_eye(b, p, color) || !engine_legal_in_game(g, b, p, color) ||
            tactics_chain_self_atari(b, p, color))
            continue;
        cands[n++] = p;
    }
    tg_point move = n ? flat_monte_carlo(g, color, cands, n, budget, rng) : TG_PASS;
    free(cands);
    return move;
}
