/*
 * match.c — running a schedule: `jobs` worker threads, each taking the next
 * game not yet played, with engine processes of its own (two at most, kept
 * from one game to the next while the same engines play, restarted after
 * any failure), writing the SGF and reporting each finished game through
 * the caller's callback, one call at a time.
 *
 * Stopping (Ctrl-C, or the callback deciding, e.g. the SPRT) raises the stop
 * flag: every wait in every worker returns within 50 ms, games in progress
 * are dropped unrecorded, and every engine is killed and reaped.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee/referee_internal.h"
#include "tengen/free_opening.h"

typedef struct match_state {
    const tg_match_config *cfg;
    tg_match_report_fn report;
    tg_match_start_fn started;
    void *ctx;
    pthread_mutex_t lock;
    int next;                /* next schedule index to look at */
    tg_status error;
    char err[640];
} match_state;

/* An engine process a worker holds, and which engine of the list it runs. */
typedef struct engine_slot {
    tg_engine *engine;
    int index;
    bool restart;
} engine_slot;

static bool stop_raised(const match_state *m)
{
    return m->cfg->stop && atomic_load(m->cfg->stop);
}

static void fail(match_state *m, tg_status st, const char *fmt, const char *what)
{
    pthread_mutex_lock(&m->lock);
    if (m->error == TG_OK) {
        m->error = st;
        snprintf(m->err, sizeof m->err, fmt, what);
    }
    if (m->cfg->stop)
        atomic_store(m->cfg->stop, 1);
    pthread_mutex_unlock(&m->lock);
}

/* The next game to play, or NULL when none is left. */
static const tg_scheduled_game *take_game(match_state *m)
{
    const tg_scheduled_game *g = NULL;
    pthread_mutex_lock(&m->lock);
    while (!g && m->next < m->cfg->schedule_len && !stop_raised(m)) {
        int i = m->next++;
        if (!m->cfg->done || !m->cfg->done[i])
            g = &m->cfg->schedule[i];
    }
    if (g && m->started)
        m->started(m->ctx, g);
    pthread_mutex_unlock(&m->lock);
    return g;
}

/* A running process of engine `index` in a slot other than `avoid`. */
static engine_slot *acquire(match_state *m, engine_slot *slots, int index, int other_index,
                            const engine_slot *avoid, char *err, size_t errlen)
{
    engine_slot *slot = NULL;
    for (int s = 0; s < 2 && !slot; s++)
        if (&slots[s] != avoid && slots[s].engine && slots[s].index == index)
            slot = &slots[s];
    for (int s = 0; s < 2 && !slot; s++) /* else: free, or not needed by this game */
        if (&slots[s] != avoid && (!slots[s].engine || slots[s].index != other_index))
            slot = &slots[s];
    for (int s = 0; s < 2 && !slot; s++)
        if (&slots[s] != avoid)
            slot = &slots[s];
    if (slot->engine && slot->index == index && !slot->restart)
        return slot;
    if (slot->engine && slot->index == index) {
        slot->restart = false;
        return tg_engine_restart(slot->engine, err, errlen) == TG_OK ? slot : NULL;
    }
    tg_engine_free(slot->engine);
    slot->engine = NULL;
    const tg_match_engine *spec = &m->cfg->engines[index];
    tg_engine_config ec = {.name = spec->name, .command = spec->command,
                           .stderr_path = m->cfg->engine_stderr,
                           .quit_grace_ms = m->cfg->quit_grace_ms, .stop = m->cfg->stop};
    slot->index = index;
    slot->restart = false;
    return tg_engine_start(&ec, &slot->engine, err, errlen) == TG_OK ? slot : NULL;
}

static bool write_sgf(match_state *m, const tg_scheduled_game *g, const char *sgf,
                      tg_game_record *rec)
{
    if (!m->cfg->sgf_dir || !sgf)
        return true;
    snprintf(rec->sgf, sizeof rec->sgf, "%s/game-%05d.sgf", m->cfg->sgf_dir, g->game);
    FILE *f = fopen(rec->sgf, "w");
    bool ok = f && fputs(sgf, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        fail(m, TG_ERR_IO, "cannot write %s", rec->sgf);
    return ok;
}

/* The nigiri draw of a game (R1), as its SGF and its results line record
 * it; empty when the colours were not decided by nigiri. */
static void nigiri_note(const match_state *m, const tg_scheduled_game *g, char *buf, size_t len)
{
    tg_nigiri n;
    buf[0] = '\0';
    if (!g->nigiri_stones || tg_nigiri_decide(g->nigiri_stones, g->nigiri_guess == 2, &n) != TG_OK)
        return;
    char line[96];
    tg_nigiri_format(&n, line, sizeof line);
    int senior = n.senior_black ? g->black : g->white;
    snprintf(buf, len, "%s (senior player %s)", line, m->cfg->engines[senior].name);
}

static void fill_record(const match_state *m, const tg_scheduled_game *g,
                        const tg_referee_outcome *o, tg_game_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->game = g->game;
    rec->black = g->black;
    rec->white = g->white;
    snprintf(rec->black_name, sizeof rec->black_name, "%s", m->cfg->engines[g->black].name);
    snprintf(rec->white_name, sizeof rec->white_name, "%s", m->cfg->engines[g->white].name);
    snprintf(rec->result, sizeof rec->result, "%s", o->result_text);
    rec->reason = o->reason;
    rec->culprit = o->culprit;
    rec->moves = o->moves;
    rec->seed = g->seed;
    rec->opening = g->opening;
    snprintf(rec->detail, sizeof rec->detail, "%s", o->detail);
    nigiri_note(m, g, rec->nigiri, sizeof rec->nigiri);
    rec->duration_ms = o->duration_ms;
}

/* An engine that cannot even be started loses the game by forfeit. */
static void start_failure(tg_referee_outcome *o, tg_color loser, const char *err)
{
    memset(o, 0, sizeof *o);
    o->result = (tg_result){.kind = TG_RESULT_FORFEIT, .winner = tg_opponent(loser)};
    tg_result_to_sgf(&o->result, o->result_text, sizeof o->result_text);
    o->reason = TG_END_START;
    o->culprit = loser;
    snprintf(o->detail, sizeof o->detail, "%s", err);
}

/* The engines at the colours the other: *b and *w, and the schedule's. */
static void swap_colours(engine_slot **b, engine_slot **w, tg_scheduled_game *g)
{
    engine_slot *t = *b;
    *b = *w;
    *w = t;
    int i = g->black;
    g->black = g->white;
    g->white = i;
}

/* The free-opening ruleset: the scheduled Black is the first player; the
 * opening and the predictions decide who plays White and the komi.  *g is
 * updated to the colours the predictions gave; false when an engine failed
 * in the opening (*o then holds its loss, on time or by forfeit, against
 * its seat: until the reveal the first player sits at White, the colour
 * equal predictions give it, and the second at Black, as `tengen play` and
 * the server record it). */
static bool free_opening(match_state *m, tg_referee_config *cfg, engine_slot **b, engine_slot **w,
                         tg_scheduled_game *g, tg_move *stones, tg_free_opening_outcome *fo,
                         tg_referee_outcome *o)
{
    if (tg_referee_free_opening(cfg, (*b)->engine, (*w)->engine, fo) != TG_OK || fo->failed) {
        memset(o, 0, sizeof *o);
        swap_colours(b, w, g); /* the first player (scheduled Black) to White */
        tg_color loser = fo->failed && fo->culprit == 1 ? TG_BLACK : TG_WHITE;
        o->result = (tg_result){.kind = fo->failed && fo->reason == TG_END_TIME ? TG_RESULT_TIME : TG_RESULT_FORFEIT,
                                .winner = tg_opponent(loser)};
        tg_result_to_sgf(&o->result, o->result_text, sizeof o->result_text);
        o->reason = fo->failed ? fo->reason : TG_END_START;
        o->culprit = loser;
        snprintf(o->detail, sizeof o->detail, "%s", fo->failed ? fo->detail : "out of memory");
        o->restart[loser] = true;
        return false;
    }
    memcpy(stones, fo->stones, sizeof fo->stones);
    cfg->opening = stones;
    cfg->opening_len = 4;
    tg_rules_reveal(&cfg->rules, fo->first2, fo->second2);
    cfg->has_predictions = true;
    cfg->prediction_first2 = fo->first2;
    cfg->prediction_second2 = fo->second2;
    cfg->first_player = fo->decision.first_takes_white ? TG_WHITE : TG_BLACK;
    if (fo->decision.first_takes_white) /* the first player (scheduled Black) takes White */
        swap_colours(b, w, g);
    cfg->black_name = m->cfg->engines[g->black].name;
    cfg->white_name = m->cfg->engines[g->white].name;
    return true;
}

static bool play_one(match_state *m, engine_slot *slots, const tg_scheduled_game *scheduled)
{
    char err[256] = "", round[16];
    tg_referee_outcome outcome;
    char *sgf = NULL;
    tg_scheduled_game game = *scheduled, *g = &game;
    tg_free_opening_outcome fo;
    bool free_rules = m->cfg->game.rules.free_opening > 0;
    engine_slot *b = acquire(m, slots, g->black, g->white, NULL, err, sizeof err);
    engine_slot *w = b ? acquire(m, slots, g->white, g->black, b, err, sizeof err) : NULL;
    if (!b || !w) {
        start_failure(&outcome, b ? TG_WHITE : TG_BLACK, err);
        free_rules = false;
    } else {
        tg_referee_config cfg = m->cfg->game;
        snprintf(round, sizeof round, "%d", g->game);
        cfg.round = round;
        cfg.seed = g->seed;
        cfg.black_name = m->cfg->engines[g->black].name;
        cfg.white_name = m->cfg->engines[g->white].name;
        cfg.opening = g->opening >= 0 ? m->cfg->openings[g->opening] : NULL;
        cfg.opening_len = g->opening >= 0 ? m->cfg->opening_len[g->opening] : 0;
        char note[192];
        nigiri_note(m, g, note, sizeof note);
        cfg.note = note[0] ? note : NULL;
        tg_move stones[4];
        if (!free_rules || free_opening(m, &cfg, &b, &w, g, stones, &fo, &outcome)) {
            tg_status st = tg_referee_play(&cfg, b->engine, w->engine, m->cfg->stop, &outcome, &sgf);
            if (st != TG_OK) {
                fail(m, st, "game failed: %s", tg_status_text(st));
                return false;
            }
        }
        b->restart |= outcome.restart[TG_BLACK] || outcome.stopped;
        w->restart |= outcome.restart[TG_WHITE] || outcome.stopped;
    }
    if (outcome.stopped || stop_raised(m)) {
        free(sgf);
        return false;
    }
    tg_game_record rec;
    fill_record(m, g, &outcome, &rec);
    if (free_rules && fo.failed) { /* lost before the reveal: the first player at White's seat */
        rec.first_colour = TG_WHITE;
    } else if (free_rules) {
        rec.first_colour = fo.decision.first_takes_white ? TG_WHITE : TG_BLACK;
        tg_prediction_format(fo.first2, rec.prediction_first, sizeof rec.prediction_first);
        tg_prediction_format(fo.second2, rec.prediction_second, sizeof rec.prediction_second);
        tg_threshold_format(fo.decision.threshold4, rec.threshold, sizeof rec.threshold);
    }
    bool ok = write_sgf(m, g, sgf, &rec);
    free(sgf);
    pthread_mutex_lock(&m->lock);
    if (ok && !stop_raised(m) && !m->report(m->ctx, &rec) && m->cfg->stop)
        atomic_store(m->cfg->stop, 1);
    pthread_mutex_unlock(&m->lock);
    return ok;
}

static void *worker(void *arg)
{
    match_state *m = arg;
    engine_slot slots[2] = {{NULL, -1, false}, {NULL, -1, false}};
    const tg_scheduled_game *g;
    while ((g = take_game(m)) != NULL)
        if (!play_one(m, slots, g))
            break;
    tg_engine_free(slots[0].engine);
    tg_engine_free(slots[1].engine);
    return NULL;
}

tg_status tg_match_run(const tg_match_config *cfg, tg_match_report_fn report,
                       tg_match_start_fn started, void *ctx, char *err, size_t errlen)
{
    match_state m = {.cfg = cfg, .report = report, .started = started, .ctx = ctx};
    if (err && errlen)
        err[0] = 0;
    if (cfg->engine_count < 2 || !report || !cfg->stop)
        return TG_ERR_INVALID;
    pthread_mutex_init(&m.lock, NULL);
    int jobs = cfg->jobs > 0 ? cfg->jobs : 1;
    pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
    if (!threads) {
        pthread_mutex_destroy(&m.lock);
        return TG_ERR_NO_MEMORY;
    }
    int running = 0;
    for (; running < jobs; running++)
        if (pthread_create(&threads[running], NULL, worker, &m) != 0)
            break;
    if (running == 0)
        worker(&m);
    for (int i = 0; i < running; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    pthread_mutex_destroy(&m.lock);
    if (err && errlen && m.error != TG_OK)
        snprintf(err, errlen, "%s", m.err);
    return m.error;
}
