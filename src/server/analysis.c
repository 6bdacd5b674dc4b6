/*
 * analysis.c — a record analysed position by position (analysis.h): the
 * main line is replayed on a copy of the loaded game, each position
 * searched for the colour to move, and its report turned into JSON; and
 * the worker thread that runs such jobs one after another.
 *
 * The document (docs/protocol.md, "Analysis"): {size, komi, black, white,
 * result, playouts, setup: [vertex], moves: [{color, move}], first,
 * positions: [{to_move, winrate, lead, visits, candidates: [{move, visits, winrate,
 * lead, pv}], ownership}]}.  A position's winrate and lead are Black's
 * (the graph's one scale); a candidate's are for the colour to move, as
 * players read them.  ownership is one letter a point, row by row from
 * the top: 'a' + round(10 * (1 + Black's ownership)), so 'a' is White's,
 * 'k' nobody's, 'u' Black's.  positions[k] is the position after first + k
 * moves.
 */
#include "analysis.h"

#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/search.h"
#include "tengen/sgf.h"

#define ANALYSIS_MEMORY (64u << 20) /* bytes of search tree */

static tg_status load(const char *sgf, size_t len, tg_game **g, tg_sgf_info *info, char *err,
                      size_t errlen)
{
    tg_sgf_error e;
    memset(&e, 0, sizeof e);
    tg_status st = tg_sgf_load_game(sgf, len, ANALYSIS_MOVES_MAX + 1, g, info, &e);
    if (st != TG_OK) {
        snprintf(err, errlen, "not a game record: line %d, column %d: %.100s", e.line, e.column,
                 e.message);
        return st;
    }
    if (tg_game_move_count(*g) > ANALYSIS_MOVES_MAX) {
        snprintf(err, errlen, "the record has over %d moves: too long to analyse", ANALYSIS_MOVES_MAX);
        tg_game_free(*g);
        *g = NULL;
        return TG_ERR_INVALID;
    }
    return TG_OK;
}

int analysis_check_sgf(const char *sgf, size_t len, int *moves, char *err, size_t errlen)
{
    if (len > ANALYSIS_SGF_MAX) {
        snprintf(err, errlen, "the record is over %d KiB", ANALYSIS_SGF_MAX / 1024);
        return -1;
    }
    tg_sgf_info *info = calloc(1, sizeof *info);
    tg_game *g = NULL;
    if (!info) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    tg_status st = load(sgf, len, &g, info, err, errlen);
    free(info);
    if (st != TG_OK)
        return -1;
    *moves = tg_game_move_count(g);
    tg_game_free(g);
    return 0;
}

static double rounded(double x, double unit) { return round(x / unit) * unit; }

static json_t *vertex_json(const tg_board *b, tg_point p)
{
    char v[8];
    tg_point_to_vertex(b, p, v);
    return json_string(v);
}

static json_t *candidate_json(const tg_board *b, const tg_search_candidate *c)
{
    json_t *pv = json_array();
    for (int k = 0; k < c->pv_length && k < ANALYSIS_PV_MAX; k++)
        json_array_append_new(pv, vertex_json(b, c->pv[k]));
    return json_pack("{s:o, s:i, s:f, s:f, s:o}", "move", vertex_json(b, c->move), "visits",
                     c->visits, "winrate", rounded(c->winrate, 0.001), "lead",
                     rounded(c->score_lead, 0.1), "pv", pv);
}

/* The ownership map, one letter a point (see the head of this file). */
static json_t *ownership_json(const tg_board *b, const float *own)
{
    int n = b->size;
    char *text = malloc((size_t)(n * n + 1));
    if (!text)
        return json_null();
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            /* y counts from the top here, from the bottom on tg_board */
            float o = own ? own[tg_point_at(b, x, n - 1 - y)] : 0.0f;
            int level = (int)lroundf(10.0f * (1.0f + (o < -1 ? -1 : o > 1 ? 1 : o)));
            text[y * n + x] = (char)('a' + level);
        }
    text[n * n] = '\0';
    json_t *j = json_string(text);
    free(text);
    return j;
}

/* The search's report of the position of g as JSON. */
static json_t *position_json(const tg_search *s, const tg_game *g, tg_color to_move)
{
    const tg_board *b = tg_game_board(g);
    const tg_search_report *r = tg_search_last_report(s);
    double mover = r->candidate_count > 0 ? r->candidates[0].winrate : r->winrate;
    double lead = r->candidate_count > 0 ? r->candidates[0].score_lead : 0;
    bool black = to_move == TG_BLACK;
    json_t *candidates = json_array();
    for (int i = 0; i < r->candidate_count && i < ANALYSIS_CANDIDATES; i++)
        json_array_append_new(candidates, candidate_json(b, &r->candidates[i]));
    return json_pack("{s:s, s:f, s:f, s:i, s:o, s:o}", "to_move", black ? "black" : "white",
                     "winrate", rounded(black ? mover : 1 - mover, 0.001), "lead",
                     rounded(black ? lead : -lead, 0.1), "visits", r->playouts, "candidates",
                     candidates, "ownership", ownership_json(b, tg_search_ownership(s)));
}

/* The record's head: the players, the setup, the moves. */
static json_t *record_json(const tg_game *g, const tg_sgf_info *info, int playouts)
{
    const tg_board *b = tg_game_board(g);
    char komi[16];
    tg_komi_format(tg_game_rules(g)->komi2, komi, sizeof komi);
    json_t *setup = json_array(), *moves = json_array();
    for (int i = 0; i < tg_game_setup_count(g); i++)
        if (tg_game_setup_at(g, i)->color == TG_BLACK)
            json_array_append_new(setup, vertex_json(b, tg_game_setup_at(g, i)->point));
    for (int i = 0; i < tg_game_move_count(g); i++) {
        const tg_move *m = tg_game_move(g, i);
        json_array_append_new(moves, json_pack("{s:s, s:o}", "color",
                                               m->color == TG_BLACK ? "black" : "white", "move",
                                               vertex_json(b, m->point)));
    }
    return json_pack("{s:i, s:f, s:s, s:s, s:s, s:i, s:o, s:o}", "size", b->size, "komi",
                     atof(komi), "black", info->black, "white", info->white, "result", info->result,
                     "playouts", playouts, "setup", setup, "moves", moves);
}

static bool keep_searching(void *ctx, const tg_search_report *report)
{
    (void)report;
    return !atomic_load((const atomic_bool *)ctx);
}

/* Search each position of `walk` (rewound to its start) as the moves of g
 * are played on it again. */
static int walk_positions(tg_search *s, const tg_game *g, tg_game *walk, int first, int playouts,
                          atomic_int *done, const atomic_bool *stop, json_t *positions, char *err,
                          size_t errlen)
{
    int n = tg_game_move_count(g);
    tg_search_limits limits = {playouts, 0, 0};
    for (int i = 0; i <= n; i++) {
        if (atomic_load(stop)) {
            snprintf(err, errlen, "stopped");
            return -1;
        }
        tg_color to_move = tg_game_to_move(walk);
        if (i >= first) {
            if (tg_search_run(s, walk, to_move, &limits, 0.05, keep_searching, (void *)stop, NULL) != TG_OK) {
                snprintf(err, errlen, "out of memory for the search");
                return -1;
            }
            json_array_append_new(positions, position_json(s, walk, to_move));
            atomic_store(done, i + 1 - first);
        }
        if (i == n)
            break;
        const tg_move *m = tg_game_move(g, i);
        unsigned flags = tg_game_move_captured_own(g, i) ? TG_PLAY_CAPTURE_OWN : 0;
        if (tg_game_play(walk, m->color, m->point, flags) != TG_OK) {
            snprintf(err, errlen, "move %d cannot be replayed", i + 1);
            return -1;
        }
    }
    return 0;
}

int analysis_run(const char *sgf, size_t len, int first, int playouts, atomic_int *done,
                 atomic_int *total, const atomic_bool *stop, char **json, char *err, size_t errlen)
{
    *json = NULL;
    tg_sgf_info *info = calloc(1, sizeof *info);
    tg_game *g = NULL, *walk = NULL;
    tg_search *s = NULL;
    json_t *doc = NULL;
    int rc = -1;
    if (!info) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (load(sgf, len, &g, info, err, errlen) != TG_OK)
        goto out;
    int n = tg_game_move_count(g);
    if (first < 0 || first > n) /* the last position only */
        first = n;
    atomic_store(total, n + 1 - first);
    tg_search_options opt;
    tg_search_options_default(&opt);
    opt.max_memory = ANALYSIS_MEMORY;
    opt.resign_threshold = 0;
    walk = tg_game_clone(g);
    s = walk ? tg_search_new(&opt) : NULL;
    doc = record_json(g, info, playouts);
    json_t *positions = json_array();
    if (!s || !doc || !positions || json_object_set_new(doc, "positions", positions) != 0 ||
        json_object_set_new(doc, "first", json_integer(first)) != 0) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    while (tg_game_move_count(walk) > 0)
        if (tg_game_undo(walk) != TG_OK) {
            snprintf(err, errlen, "the record cannot be rewound");
            goto out;
        }
    if (walk_positions(s, g, walk, first, playouts, done, stop, positions, err, errlen) != 0)
        goto out;
    *json = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(6));
    if (!*json)
        snprintf(err, errlen, "out of memory");
    rc = *json ? 0 : -1;
out:
    json_decref(doc);
    tg_search_free(s);
    tg_game_free(walk);
    tg_game_free(g);
    free(info);
    return rc;
}

/* ---- the worker ----------------------------------------------------------------- */

struct analysis_pool {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    analysis_job *queue, *queue_tail, *done;
    atomic_bool stop;
    net *wake;
    pthread_t thread;
    bool started;
};

void analysis_job_free(analysis_job *job)
{
    if (job) {
        free(job->sgf);
        free(job->json);
        free(job);
    }
}

static analysis_job *take(analysis_pool *p)
{
    pthread_mutex_lock(&p->lock);
    while (!p->queue && !atomic_load(&p->stop))
        pthread_cond_wait(&p->ready, &p->lock);
    analysis_job *job = atomic_load(&p->stop) ? NULL : p->queue;
    if (job) {
        p->queue = job->next;
        if (!p->queue)
            p->queue_tail = NULL;
    }
    pthread_mutex_unlock(&p->lock);
    return job;
}

static void *worker(void *arg)
{
    analysis_pool *p = arg;
    analysis_job *job;
    while ((job = take(p))) {
        job->ok = analysis_run(job->sgf, job->sgf_len, job->first, job->playouts, &job->positions_done,
                               &job->positions_total, &p->stop, &job->json, job->error,
                               sizeof job->error) == 0;
        pthread_mutex_lock(&p->lock);
        job->next = p->done;
        p->done = job;
        pthread_mutex_unlock(&p->lock);
        /* stopping: the loop is closing and takes no more answers */
        if (p->wake && !atomic_load(&p->stop))
            net_wake(p->wake);
    }
    return NULL;
}

analysis_pool *analysis_pool_new(net *wake)
{
    analysis_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->ready, NULL);
    atomic_init(&p->stop, false);
    p->wake = wake;
    p->started = pthread_create(&p->thread, NULL, worker, p) == 0;
    if (!p->started) {
        analysis_pool_free(p);
        return NULL;
    }
    return p;
}

bool analysis_pool_submit(analysis_pool *p, analysis_job *job)
{
    pthread_mutex_lock(&p->lock);
    bool ok = !atomic_load(&p->stop);
    if (ok) {
        job->next = NULL;
        if (p->queue_tail)
            p->queue_tail->next = job;
        else
            p->queue = job;
        p->queue_tail = job;
        pthread_cond_signal(&p->ready);
    }
    pthread_mutex_unlock(&p->lock);
    return ok;
}

analysis_job *analysis_pool_done(analysis_pool *p)
{
    pthread_mutex_lock(&p->lock);
    analysis_job *job = p->done;
    if (job)
        p->done = job->next;
    pthread_mutex_unlock(&p->lock);
    return job;
}

static void free_list(analysis_job *job)
{
    while (job) {
        analysis_job *next = job->next;
        analysis_job_free(job);
        job = next;
    }
}

void analysis_pool_free(analysis_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->stop, true);
    pthread_cond_broadcast(&p->ready);
    pthread_mutex_unlock(&p->lock);
    if (p->started)
        pthread_join(p->thread, NULL);
    free_list(p->queue);
    free_list(p->done);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->ready);
    free(p);
}
