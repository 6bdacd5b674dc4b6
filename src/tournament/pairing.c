/*
 * pairing.c — a round's pairing.  McMahon and Swiss rounds are a
 * maximum-weight matching (matching.c) over the present players: every
 * candidate pair's weight is minus the sum of the organiser's weighted
 * penalties (tg_pairing_weights), a pair that met before is no edge at
 * all, and an odd field gets a virtual player whose partner has the bye.
 * Round-robin rounds come from Berger tables (the circle method).
 *
 * The candidate graph is sparse for large fields: each player is joined
 * to the next PAIRING_WINDOW players in placement order (score, rank,
 * lot), and for split-and-fold seeding to those around its fold partner;
 * while anyone is left unpaired the window doubles, up to the whole field.
 * Fields of up to PAIRING_DENSE_FIELD players always use every pair.
 *
 * Determinism: a round's lots are a permutation drawn from the
 * tournament's seed and the round number, stored in the round; they
 * order equal placements, give the bottom bits of every weight and choose
 * colours where nothing else does.
 */
#include <stdlib.h>
#include <string.h>

#include "tengen/tournament.h"
#include "tournament/internal.h"
#include "tournament/matching.h"

#define PAIRING_WINDOW 8
#define PAIRING_DENSE_FIELD 160
#define LOT_BITS 10

tg_tour_round *tour_append_round(tg_tournament *t)
{
    tg_tour_round *grown = realloc(t->rounds, (size_t)(t->round_count + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    t->rounds = grown;
    tg_tour_round *r = &grown[t->round_count++];
    *r = (tg_tour_round){.number = t->round_count};
    return r;
}

/* What the earlier rounds say about each player. */
typedef struct history {
    int *opponents;   /* player * rounds + k */
    int *opponent_count;
    int *colour_balance;  /* blacks - whites in even games */
    int *last_colour;
    int *byes, *drawn_up, *drawn_down;
} history;

static void history_free(history *h)
{
    free(h->opponents);
    free(h->opponent_count);
    free(h->colour_balance);
    free(h->last_colour);
    free(h->byes);
    free(h->drawn_up);
    free(h->drawn_down);
}

static bool history_build(const tg_tournament *t, int before_round, history *h)
{
    int n = t->player_count, rounds = before_round > 1 ? before_round - 1 : 1;
    *h = (history){0};
    h->opponents = malloc((size_t)n * (size_t)rounds * sizeof *h->opponents + 1);
    h->opponent_count = calloc((size_t)n + 1, sizeof(int));
    h->colour_balance = calloc((size_t)n + 1, sizeof(int));
    h->last_colour = calloc((size_t)n + 1, sizeof(int));
    h->byes = calloc((size_t)n + 1, sizeof(int));
    h->drawn_up = calloc((size_t)n + 1, sizeof(int));
    h->drawn_down = calloc((size_t)n + 1, sizeof(int));
    int *score = calloc((size_t)n + 1, sizeof(int));
    int *points = calloc((size_t)n + 1, sizeof(int));
    if (!points || !h->opponents || !h->opponent_count || !h->colour_balance || !h->last_colour || !h->byes ||
        !h->drawn_up || !h->drawn_down || !score) {
        free(score);
        free(points);
        history_free(h);
        return false;
    }
    tour_scores_before(t, 1, NULL, score);
    for (int r = 1; r < before_round && r <= t->round_count; r++) {
        const tg_tour_round *round = &t->rounds[r - 1];
        for (int i = 0; i < round->bye_count; i++)
            h->byes[round->byes[i]]++;
        for (int i = 0; i < round->game_count; i++) {
            const tg_tour_game *g = &round->games[i];
            h->opponents[g->black * rounds + h->opponent_count[g->black]++] = g->white;
            h->opponents[g->white * rounds + h->opponent_count[g->white]++] = g->black;
            if (g->handicap == 0) {
                h->colour_balance[g->black]++;
                h->colour_balance[g->white]--;
            }
            h->last_colour[g->black] = TG_BLACK;
            h->last_colour[g->white] = TG_WHITE;
            int up = score[g->black] < score[g->white] ? g->black : g->white;
            if (score[g->black] != score[g->white]) {
                h->drawn_up[up]++;
                h->drawn_down[up == g->black ? g->white : g->black]++;
            }
        }
        tour_round_points(t, r, NULL, points);
        for (int p = 0; p < n; p++)
            score[p] += points[p];
    }
    free(score);
    free(points);
    return true;
}

static bool have_met(const history *h, int rounds, int a, int b)
{
    for (int k = 0; k < h->opponent_count[a]; k++)
        if (h->opponents[a * rounds + k] == b)
            return true;
    return false;
}

/* The present players with what the pairing weighs. */
typedef struct field {
    const tg_tournament *t;
    int round;
    const tg_tour_round *lots;
    history h;
    int history_rounds;
    int n;
    int *player;    /* placement order: best first */
    int *score;     /* by placement index */
    int *group_start, *group_size;  /* the score group of a placement index */
} field;

typedef struct placement_key {
    int score, rank, lot, player;
} placement_key;

static int compare_placement(const void *a, const void *b)
{
    const placement_key *x = a, *y = b;
    if (x->score != y->score)
        return y->score - x->score;
    if (x->rank != y->rank)
        return y->rank - x->rank;
    return x->lot - y->lot;
}

static void field_free(field *f)
{
    history_free(&f->h);
    free(f->player);
    free(f->score);
    free(f->group_start);
    free(f->group_size);
}

static bool field_build(field *f, const tg_tournament *t, int round, const tg_tour_round *lots)
{
    *f = (field){.t = t, .round = round, .lots = lots};
    f->history_rounds = round > 1 ? round - 1 : 1;
    size_t n = (size_t)t->player_count + 1;
    f->player = malloc(n * sizeof(int));
    f->score = malloc(n * sizeof(int));
    f->group_start = malloc(n * sizeof(int));
    f->group_size = malloc(n * sizeof(int));
    if (!f->player || !f->score || !f->group_start || !f->group_size ||
        !history_build(t, round, &f->h))
        return false;
    int *scores = malloc(n * sizeof *scores);
    placement_key *keys = malloc(n * sizeof *keys);
    if (!scores || !keys || !tour_scores_before(t, round, lots, scores)) {
        free(scores);
        free(keys);
        return false;
    }
    for (int p = 0; p < t->player_count; p++)
        if (tg_tour_present(t, p, round))
            keys[f->n++] = (placement_key){scores[p], t->players[p].rank, lots->lots[p], p};
    qsort(keys, (size_t)f->n, sizeof *keys, compare_placement);
    for (int i = 0; i < f->n; i++) {
        f->player[i] = keys[i].player;
        f->score[i] = keys[i].score;
    }
    free(scores);
    free(keys);
    for (int i = 0; i < f->n;) {
        int j = i;
        while (j < f->n && f->score[j] == f->score[i])
            j++;
        for (int k = i; k < j; k++) {
            f->group_start[k] = i;
            f->group_size[k] = j - i;
        }
        i = j;
    }
    return true;
}

static int handicap_difference(const tg_tournament *t, int stronger, int weaker, int stronger_score,
                               int weaker_score)
{
    const tg_tour_settings *s = &t->settings;
    if (s->handicap == TG_HANDICAP_MCMAHON)
        return (stronger_score - weaker_score) / 2 - s->handicap_reduction;
    if (s->handicap == TG_HANDICAP_RANK)
        return t->players[stronger].rank - t->players[weaker].rank - s->handicap_reduction;
    return 0;
}

static int64_t lot_noise(const field *f, int a, int b)
{
    uint64_t x = (uint64_t)f->lots->lots[a] * 0x9E3779B97F4A7C15ULL ^
                 (uint64_t)f->lots->lots[b] * 0xC2B2AE3D27D4EB4FULL;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    return (int64_t)(x & ((1u << LOT_BITS) - 1));
}

/* penalty + weight * count, saturated at PENALTY_CAP: organisers' weights
 * (up to 2^56 each) never overflow, and the matching's duals stay in range */
#define PENALTY_CAP (1LL << 57)
static int64_t add_penalty(int64_t penalty, int64_t weight, int64_t count)
{
    if (count <= 0 || weight <= 0)
        return penalty;
    if (weight > PENALTY_CAP / count || penalty > PENALTY_CAP - weight * count)
        return PENALTY_CAP;
    return penalty + weight * count;
}

/* The penalty of pairing placements i < j. */
static int64_t pair_penalty(const field *f, int i, int j)
{
    const tg_tour_settings *s = &f->t->settings;
    const tg_pairing_weights *w = &s->weights;
    int a = f->player[i], b = f->player[j];
    const tg_tour_player *pa = &f->t->players[a], *pb = &f->t->players[b];
    int64_t gap = f->score[i] - f->score[j];
    if (gap > 64)
        gap = 64;
    int64_t penalty = add_penalty(0, w->score_gap, gap * gap);
    int difference = handicap_difference(f->t, a, b, f->score[i], f->score[j]);
    if (difference > s->max_handicap)
        penalty = add_penalty(penalty, w->handicap_over, difference - s->max_handicap);
    if (difference <= 0 || s->handicap == TG_HANDICAP_NONE) {
        int ca = f->h.colour_balance[a], cb = f->h.colour_balance[b];
        if ((ca > 0 && cb > 0) || (ca < 0 && cb < 0))
            penalty = add_penalty(penalty, w->colour, abs(ca) < abs(cb) ? abs(ca) : abs(cb));
        else if (ca == 0 && cb == 0 && f->h.last_colour[a] && f->h.last_colour[a] == f->h.last_colour[b])
            penalty = add_penalty(penalty, w->colour / 2, 1);
    }
    if (f->round <= w->club_rounds) {
        if (pa->club[0] && !strcmp(pa->club, pb->club))
            penalty = add_penalty(penalty, w->same_club, 1);
        if (pa->country[0] && !strcmp(pa->country, pb->country))
            penalty = add_penalty(penalty, w->same_country, 1);
    }
    if (gap > 0)
        penalty = add_penalty(penalty, w->float_repeat, f->h.drawn_down[a] + f->h.drawn_up[b]);
    int64_t distance = j - i - 1;
    if (s->seeding == TG_SEED_FOLD && gap == 0) {
        distance = (j - i) - f->group_size[i] / 2;
        if (distance < 0)
            distance = -distance;
    }
    penalty = add_penalty(penalty, w->seeding, distance);
    return add_penalty(penalty, lot_noise(f, a, b), 1);
}

typedef struct edge_list {
    int *ends;
    int64_t *weight;
    int count, capacity;
} edge_list;

static bool edge_add(edge_list *e, int u, int v, int64_t weight)
{
    if (e->count == e->capacity) {
        int capacity = e->capacity ? 2 * e->capacity : 1024;
        int *ends = realloc(e->ends, (size_t)capacity * 2 * sizeof *ends);
        if (!ends)
            return false;
        e->ends = ends;
        int64_t *weights = realloc(e->weight, (size_t)capacity * sizeof *weights);
        if (!weights)
            return false;
        e->weight = weights;
        e->capacity = capacity;
    }
    e->ends[2 * e->count] = u;
    e->ends[2 * e->count + 1] = v;
    e->weight[e->count++] = weight;
    return true;
}

static bool add_pair(const field *f, edge_list *e, int i, int j)
{
    if (i == j)
        return true;
    if (i > j) {
        int k = i;
        i = j;
        j = k;
    }
    if (have_met(&f->h, f->history_rounds, f->player[i], f->player[j]))
        return true;
    return edge_add(e, i, j, -pair_penalty(f, i, j));
}

/* The candidate pairs: placements within window, around fold partners;
 * then the virtual bye vertex n joined to everyone.  Pairs may repeat
 * across the two windows; the matching takes parallel edges. */
static bool build_edges(const field *f, int window, edge_list *e)
{
    const tg_tour_settings *s = &f->t->settings;
    int n = f->n;
    e->count = 0;
    for (int i = 0; i < n; i++) {
        int last = window >= n ? n - 1 : (i + window < n ? i + window : n - 1);
        for (int j = i + 1; j <= last; j++)
            if (!add_pair(f, e, i, j))
                return false;
        if (s->seeding == TG_SEED_FOLD && window < n && f->group_size[i] > 2 * window) {
            int partner = i + f->group_size[i] / 2;
            for (int j = partner - 3; j <= partner + 3; j++)
                if (j > i + window && j < f->group_start[i] + f->group_size[i] &&
                    !add_pair(f, e, i, j))
                    return false;
        }
    }
    if (n % 2) {
        for (int i = 0; i < n; i++) {
            int64_t from_bottom = n - 1 - i > 64 ? 64 : n - 1 - i;
            int64_t penalty = add_penalty(0, s->weights.bye_repeat, f->h.byes[f->player[i]]);
            penalty = add_penalty(penalty, s->weights.bye_place, from_bottom);
            if (!edge_add(e, i, n, -penalty))
                return false;
        }
    }
    return true;
}

/* Colours, handicap and komi of the game between placements i < j. */
static void make_game(const field *f, int i, int j, tg_tour_game *g)
{
    const tg_tournament *t = f->t;
    int a = f->player[i], b = f->player[j];
    int difference = handicap_difference(t, a, b, f->score[i], f->score[j]);
    if (difference > t->settings.max_handicap)
        difference = t->settings.max_handicap;
    *g = (tg_tour_game){0};
    if (t->settings.handicap != TG_HANDICAP_NONE && difference > 0) {
        g->black = b;
        g->white = a;
        g->handicap = difference;
        g->komi2 = t->settings.jigo_allowed ? 0 : 1;
        return;
    }
    g->komi2 = t->settings.komi2;
    int ca = f->h.colour_balance[a], cb = f->h.colour_balance[b];
    bool a_black;
    if (ca != cb)
        a_black = ca < cb;
    else if (f->h.last_colour[a] != f->h.last_colour[b])
        a_black = f->h.last_colour[a] != TG_BLACK;
    else
        a_black = f->lots->lots[a] < f->lots->lots[b];
    g->black = a_black ? a : b;
    g->white = a_black ? b : a;
}

static tg_status pair_by_matching(tg_tournament *t, tg_tour_round *r, const field *f, char *err,
                                  size_t errlen)
{
    int n = f->n, vertices = n + n % 2;
    edge_list e = {0};
    int *mate = malloc((size_t)(vertices + 1) * sizeof *mate);
    tg_status status = mate ? TG_OK : TG_ERR_NO_MEMORY;
    int window = n <= PAIRING_DENSE_FIELD ? n : PAIRING_WINDOW;
    int unpaired = 0;
    while (status == TG_OK) {
        if (!build_edges(f, window, &e)) {
            status = TG_ERR_NO_MEMORY;
            break;
        }
        status = matching_max_weight(vertices, e.count, e.ends, e.weight, true, mate);
        if (status != TG_OK)
            break;
        unpaired = 0;
        for (int v = 0; v < vertices; v++)
            unpaired += mate[v] < 0;
        if (unpaired == 0 || window >= n)
            break;
        window *= 2;
    }
    free(e.ends);
    free(e.weight);
    if (status == TG_OK && unpaired > 0) {
        int who = 0;
        while (who < n && mate[who] >= 0)
            who++;
        tour_error(err, errlen,
                   "round %d cannot be paired without repeating a game: %d players left over "
                   "(%s among them); pair it by hand or leave someone out",
                   f->round, unpaired, who < n ? t->players[f->player[who]].name : "the bye");
        status = TG_ERR_NOT_ALLOWED;
    }
    if (status == TG_OK) {
        r->games = calloc((size_t)n / 2 + 1, sizeof *r->games);
        r->byes = malloc(sizeof *r->byes);
        if (!r->games || !r->byes)
            status = TG_ERR_NO_MEMORY;
    }
    for (int i = 0; status == TG_OK && i < n; i++) {
        int j = mate[i];
        if (j == n) {
            r->byes[r->bye_count++] = f->player[i];
        } else if (j > i) {
            tg_tour_game *g = &r->games[r->game_count++];
            make_game(f, i, j, g);
            g->board = r->game_count; /* placement order: the best pairs first */
        }
    }
    free(mate);
    return status;
}

/* Berger tables: numbers from the tournament's seed (one lot for the
 * whole event), round r pairs a + b = 2(r - 1) mod (m - 1), the last
 * number meeting r - 1. */
static tg_status pair_round_robin(tg_tournament *t, tg_tour_round *r, char *err, size_t errlen)
{
    int n = t->player_count, m = n + n % 2;
    for (int p = 0; p < n; p++)
        if (t->players[p].joined_round > 1) {
            tour_error(err, errlen, "a round-robin takes no late joiners (%s)", t->players[p].name);
            return TG_ERR_NOT_ALLOWED;
        }
    if (n < 2 || r->number > m - 1) {
        tour_error(err, errlen, "a round-robin of %d players has %d rounds", n, m > 1 ? m - 1 : 0);
        return TG_ERR_NOT_ALLOWED;
    }
    int *number_of = malloc((size_t)m * sizeof *number_of);
    int *player_at = malloc((size_t)m * sizeof *player_at);
    r->games = calloc((size_t)m / 2, sizeof *r->games);
    r->byes = malloc((size_t)m * sizeof *r->byes);
    if (!number_of || !player_at || !r->games || !r->byes) {
        free(number_of);
        free(player_at);
        return TG_ERR_NO_MEMORY;
    }
    tg_rng rng;
    tg_rng_seed(&rng, t->settings.seed ^ 0x5EED0BE76E5ULL);
    for (int k = 0; k < m; k++)
        player_at[k] = k < n ? k : -1;
    for (int k = m - 1; k > 0; k--) {
        int j = (int)tg_rng_below(&rng, (uint32_t)k + 1);
        int x = player_at[k];
        player_at[k] = player_at[j];
        player_at[j] = x;
    }
    int round = r->number - 1, cycle = m - 1;
    for (int k = 0; k < m / 2; k++) {
        int a, b;
        bool a_black;
        if (k == 0) {
            a = round;
            b = m - 1;
            a_black = round % 2 == 0;
        } else {
            a = (round + k) % cycle;
            b = (round - k + cycle) % cycle;
            a_black = k % 2 == 1;
        }
        int pa = player_at[a], pb = player_at[b];
        bool present_a = pa >= 0 && tg_tour_present(t, pa, r->number);
        bool present_b = pb >= 0 && tg_tour_present(t, pb, r->number);
        if (present_a && present_b) {
            tg_tour_game *g = &r->games[r->game_count++];
            *g = (tg_tour_game){.board = r->game_count, .black = a_black ? pa : pb,
                                .white = a_black ? pb : pa, .komi2 = t->settings.komi2};
            int stronger = t->players[pa].rank >= t->players[pb].rank ? pa : pb;
            int weaker = stronger == pa ? pb : pa;
            tg_tour_handicap(t, stronger, weaker, r->number, &g->handicap, &g->komi2);
            if (g->handicap > 0) {
                g->black = weaker;
                g->white = stronger;
            }
        } else if (present_a || present_b) {
            r->byes[r->bye_count++] = present_a ? pa : pb;
        }
    }
    free(number_of);
    free(player_at);
    return TG_OK;
}

static bool round_has_results(const tg_tour_round *r)
{
    for (int i = 0; i < r->game_count; i++)
        if (r->games[i].result.outcome != TG_OUTCOME_NONE)
            return true;
    return false;
}

/* Opens round `round` for (re)pairing: the next one, or the last one
 * while it has no result. */
static tg_tour_round *open_round(tg_tournament *t, int round, char *err, size_t errlen)
{
    if (round == t->round_count && round > 0) {
        tg_tour_round *r = &t->rounds[round - 1];
        if (round_has_results(r)) {
            tour_error(err, errlen, "round %d has results already and cannot be paired again",
                       round);
            return NULL;
        }
        tour_round_clear(r);
        return r;
    }
    if (round != t->round_count + 1) {
        tour_error(err, errlen, "round %d cannot be paired now: the next round is %d", round,
                   t->round_count + 1);
        return NULL;
    }
    if (round > t->settings.rounds) {
        tour_error(err, errlen, "all %d rounds are paired", t->settings.rounds);
        return NULL;
    }
    tg_tour_round *r = tour_append_round(t);
    if (!r)
        tour_error(err, errlen, "out of memory");
    return r;
}

/* The round's lots: a permutation of the players from the seed. */
static bool draw_lots(const tg_tournament *t, tg_tour_round *r)
{
    r->lot_seed = t->settings.seed * 0x9E3779B97F4A7C15ULL + (uint64_t)r->number;
    r->lot_count = t->player_count;
    r->lots = malloc(((size_t)r->lot_count + 1) * sizeof *r->lots);
    if (!r->lots)
        return false;
    tg_rng rng;
    tg_rng_seed(&rng, r->lot_seed);
    for (int p = 0; p < r->lot_count; p++)
        r->lots[p] = p;
    for (int p = r->lot_count - 1; p > 0; p--) {
        int j = (int)tg_rng_below(&rng, (uint32_t)p + 1);
        int x = r->lots[p];
        r->lots[p] = r->lots[j];
        r->lots[j] = x;
    }
    return true;
}

/* Earlier games without a result: refused, or decided by lot (T2). */
static tg_status settle_missing_results(const tg_tournament *t, tg_tour_round *r, bool by_lot,
                                        char *err, size_t errlen)
{
    tg_rng rng;
    tg_rng_seed(&rng, r->lot_seed ^ 0xB7E151628AED2A6BULL);
    for (int k = 1; k < r->number; k++) {
        const tg_tour_round *earlier = &t->rounds[k - 1];
        for (int i = 0; i < earlier->game_count; i++) {
            const tg_tour_game *g = &earlier->games[i];
            if (g->result.outcome != TG_OUTCOME_NONE && g->result.outcome != TG_OUTCOME_REPLAY)
                continue;
            if (!by_lot) {
                tour_error(err, errlen,
                           "round %d board %d has no result yet: enter it, or pair by lot "
                           "(--by-lot)",
                           k, g->board);
                return TG_ERR_NOT_ALLOWED;
            }
            int (*grown)[3] = realloc(r->by_lot, (size_t)(r->by_lot_count + 1) * sizeof *grown);
            if (!grown)
                return TG_ERR_NO_MEMORY;
            r->by_lot = grown;
            grown[r->by_lot_count][0] = k;
            grown[r->by_lot_count][1] = g->board;
            grown[r->by_lot_count][2] = tg_rng_below(&rng, 2) ? TG_BLACK : TG_WHITE;
            r->by_lot_count++;
        }
    }
    return TG_OK;
}

static tg_status fail_round(tg_tournament *t, tg_tour_round *r, tg_status status)
{
    tour_round_clear(r);
    if (r->number == t->round_count)
        t->round_count--;
    return status;
}

tg_status tg_tour_pair(tg_tournament *t, int round, const tg_pair_options *o, char *err,
                       size_t errlen)
{
    tg_tour_round *r = open_round(t, round, err, errlen);
    if (!r)
        return TG_ERR_NOT_ALLOWED;
    if (!draw_lots(t, r))
        return fail_round(t, r, TG_ERR_NO_MEMORY);
    /* a round-robin's pairings do not depend on results */
    tg_status status = t->settings.system == TG_SYSTEM_ROUND_ROBIN
                           ? TG_OK
                           : settle_missing_results(t, r, o && o->by_lot, err, errlen);
    if (status != TG_OK)
        return fail_round(t, r, status);
    if (t->settings.system == TG_SYSTEM_ROUND_ROBIN) {
        status = pair_round_robin(t, r, err, errlen);
    } else {
        field f;
        if (!field_build(&f, t, round, r)) {
            field_free(&f);
            return fail_round(t, r, TG_ERR_NO_MEMORY);
        }
        status = pair_by_matching(t, r, &f, err, errlen);
        field_free(&f);
    }
    return status == TG_OK ? TG_OK : fail_round(t, r, status);
}

tg_status tg_tour_pair_manual(tg_tournament *t, int round, const int (*pairs)[2], int pair_count,
                              const int *byes, int bye_count, char *err, size_t errlen)
{
    unsigned char *used = calloc((size_t)t->player_count + 1, 1);
    if (!used)
        return TG_ERR_NO_MEMORY;
    for (int i = 0; i < 2 * pair_count + bye_count; i++) {
        int p = i < 2 * pair_count ? pairs[i / 2][i % 2] : byes[i - 2 * pair_count];
        const char *why = NULL;
        if (p < 0 || p >= t->player_count)
            why = "no such player";
        else if (used[p])
            why = "paired twice";
        else if (!tg_tour_present(t, p, round))
            why = "not present in this round";
        if (why) {
            tour_error(err, errlen, "player %s%d: %s",
                       p >= 0 && p < t->player_count ? t->players[p].name : "#", p, why);
            free(used);
            return TG_ERR_INVALID;
        }
        used[p] = 1;
    }
    free(used);
    tg_tour_round *r = open_round(t, round, err, errlen);
    if (!r)
        return TG_ERR_NOT_ALLOWED;
    if (!draw_lots(t, r))
        return fail_round(t, r, TG_ERR_NO_MEMORY);
    r->games = calloc((size_t)pair_count + 1, sizeof *r->games);
    r->byes = malloc(((size_t)bye_count + 1) * sizeof *r->byes);
    if (!r->games || !r->byes)
        return fail_round(t, r, TG_ERR_NO_MEMORY);
    for (int i = 0; i < pair_count; i++) {
        tg_tour_game *g = &r->games[r->game_count++];
        *g = (tg_tour_game){.board = i + 1, .black = pairs[i][0], .white = pairs[i][1], .manual = true};
        int handicap, komi2;
        tg_tour_handicap(t, g->white, g->black, round, &handicap, &komi2);
        g->handicap = handicap;
        g->komi2 = komi2;
    }
    for (int i = 0; i < bye_count; i++)
        r->byes[r->bye_count++] = byes[i];
    return TG_OK;
}

tg_status tg_tour_unpair(tg_tournament *t, int round, char *err, size_t errlen)
{
    if (round != t->round_count || round < 1) {
        tour_error(err, errlen, "only the last paired round (%d) can be unpaired", t->round_count);
        return TG_ERR_NOT_ALLOWED;
    }
    if (round_has_results(&t->rounds[round - 1])) {
        tour_error(err, errlen, "round %d has results already", round);
        return TG_ERR_NOT_ALLOWED;
    }
    tour_round_clear(&t->rounds[round - 1]);
    t->round_count--;
    return TG_OK;
}
