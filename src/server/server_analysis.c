/*
 * server_analysis.c — analysis with the engine in `tengen serve` (issue 51):
 * a finished game, or a record a client uploads, analysed position by
 * position on the analysis worker (analysis.h, never on the loop) and kept
 * in the store's documents: kind "analysis" under the game's id, kind
 * "analysis-sgf" under a new id for an upload.
 *
 * A request becomes a task, which passes through the store and the worker
 * and ends stored (or failed):
 *   game:   read (STORE_READ: the stored analysis, else the game's SGF) ->
 *   upload: check (STORE_WORK: the record parsed) -> id (STORE_WRITE) ->
 *   both:   run (the worker) -> store (STORE_WRITE) -> the clients told.
 * Progress goes to the clients that asked, every half second while it runs.
 *
 * The budget is the admin's: --analysis-playouts N a position (0: no
 * analysis) and --analysis-max M tasks at once, over all clients; an
 * account has one task at a time, an address two, an upload at most
 * ANALYSIS_SGF_MAX bytes (sent in parts, each a WebSocket message).
 * Its messages (analysis.start, analysis.upload, analysis.allow,
 * analysis.position) are parsed here, strictly, beside proto.c's: the
 * server hands over what proto.c does not know.
 *
 * A live game: its spectators may ask for the engine's view of the position
 * on the board (analysis.position: the last position alone, searched on the
 * same worker, kept in memory for the next spectator until a move is
 * played, never stored) once both players allow it (analysis.allow; an
 * engine allows); never its players, whatever they allow.
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

#define PROGRESS_MS 500
#define TASKS_PER_ACCOUNT 1
#define TASKS_PER_ADDRESS 2
#define TASK_CLIENTS 8

typedef enum task_stage { T_READ, T_CHECK, T_NEW_ID, T_RUN, T_STORE } task_stage;

typedef struct task {
    store_job job;              /* first: the store's job, stage after stage */
    server *srv;
    int64_t key;                /* in analyses.tasks */
    task_stage stage;
    bool upload;
    int64_t doc;                /* the game's id, or the upload's (once given) */
    int64_t user, addr;         /* who asked: the limits count by these */
    int64_t clients[TASK_CLIENTS]; /* told of progress and of the end */
    int nclients;
    int64_t asker;              /* the client whose request is answered when it is queued */
    bool has_rq_id;
    int64_t rq_id;
    char *sgf;
    size_t sgf_len;
    int moves;
    int found;                  /* T_READ: 0 stored already, 1 read the record, 2 none */
    char *json;                 /* the analysis, to store */
    analysis_job *run;          /* the worker's while it runs */
    bool position;              /* a live game's position for its spectators */
    int position_moves;         /* ... after this many moves */
    int told;                   /* positions done, as last told */
    char error[160];
} task;

typedef struct upload {
    char *text;
    size_t len;
} upload;

/* A live game's analysis for its spectators. */
typedef struct live_view {
    bool allowed[3];            /* by colour: the player allows it */
    int moves;                  /* the position analysed: after this many moves (-1: none) */
    char *position;             /* its analysis (one position's JSON), or NULL */
    int64_t running;            /* the task analysing the position now (0: none) */
    int64_t waiting[TASK_CLIENTS]; /* spectators told when it is done */
    int nwaiting;
} live_view;

struct analyses {
    analysis_pool *pool;
    imap tasks;                 /* key -> task */
    int64_t next_key;
    imap uploads;               /* client id -> upload in parts */
    imap views;                 /* live game id -> live_view */
    net_timer *progress;
};

static const char *kind_of(const task *t) { return t->upload ? "analysis-sgf" : "analysis"; }

static json_t *ref_json(bool upload, int64_t id)
{
    return json_pack("{s:s, s:I}", "kind", upload ? "sgf" : "game", "id", (json_int_t)id);
}

static proto_request request_of(bool has_id, int64_t id)
{
    proto_request rq;
    memset(&rq, 0, sizeof rq);
    rq.has_id = has_id;
    rq.id = id;
    return rq;
}

static void tell(server *s, task *t, json_t *msg)
{
    for (int i = 0; i < t->nclients; i++) {
        client *c = client_by_id(s, t->clients[i]);
        if (c && !c->closed)
            send_json(c, json_incref(msg));
    }
    json_decref(msg);
}

static void answer_asker(server *s, task *t, const char *code, const char *message, json_t *fields)
{
    client *c = client_by_id(s, t->asker);
    proto_request rq = request_of(t->has_rq_id, t->rq_id);
    t->asker = 0;
    if (!c || c->closed) {
        json_decref(fields);
        return;
    }
    if (code) {
        json_decref(fields);
        send_error(c, &rq, code, message);
    } else {
        send_ok(c, &rq, fields);
    }
}

static void task_free(server *s, task *t)
{
    if (s->analyses) /* else the server is stopping and the registry is gone */
        imap_del(&s->analyses->tasks, t->key);
    free(t->sgf);
    free(t->json);
    free(t);
}

static void task_fail(server *s, task *t, const char *code, const char *message)
{
    if (t->asker)
        answer_asker(s, t, code, message, NULL);
    else
        tell(s, t, json_pack("{s:s, s:o, s:s}", "type", "analysis.error", "analysis",
                             ref_json(t->upload, t->doc), "message", message));
    task_free(s, t);
}

static json_t *progress_fields(const task *t, const char *state)
{
    int done = t->run ? atomic_load(&t->run->positions_done) : 0;
    int total = t->run ? atomic_load(&t->run->positions_total) : t->moves + 1;
    return json_pack("{s:o, s:s, s:i, s:i}", "analysis", ref_json(t->upload, t->doc), "state",
                     state, "done", done, "total", total ? total : t->moves + 1);
}

/* ---- the store's side (its threads) ------------------------------------------ */

static int task_run(store *db, store_job *job)
{
    task *t = (task *)job;
    switch (t->stage) {
    case T_READ: {
        char *body = NULL;
        int64_t at = 0;
        int rc = db->ops->doc_get(db, "analysis", t->doc, false, &body, &at);
        free(body);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            t->found = 0;
            return 0;
        }
        rc = db->ops->game_sgf(db, t->doc, &t->sgf);
        if (rc < 0)
            return -1;
        t->found = rc == 0 && t->sgf && t->sgf[0] ? 1 : 2;
        if (t->found == 1) {
            t->sgf_len = strlen(t->sgf);
            if (analysis_check_sgf(t->sgf, t->sgf_len, &t->moves, t->error, sizeof t->error) != 0)
                t->found = 2;
        }
        return 0;
    }
    case T_CHECK:
        analysis_check_sgf(t->sgf, t->sgf_len, &t->moves, t->error, sizeof t->error);
        return 0;
    case T_NEW_ID:
        return db->ops->doc_new_id(db, "analysis-sgf", &t->doc);
    case T_STORE: {
        char summary[96];
        snprintf(summary, sizeof summary, "{\"moves\":%d}", t->moves);
        return db->ops->doc_put(db, kind_of(t), t->doc, summary, t->json, server_unix_ms());
    }
    case T_RUN:
        break;
    }
    return -1;
}

static void task_done(void *ctx, store_job *job);

static void task_submit(server *s, task *t, task_stage stage, store_lane lane)
{
    memset(&t->job, 0, sizeof t->job);
    t->job.run = task_run;
    t->job.done = task_done;
    t->job.transaction = lane == STORE_WRITE;
    t->stage = stage;
    store_async_submit(s->db, lane, &t->job);
}

/* Hand the record to the worker and answer the asker; false when it
 * failed (t is freed then, the asker told). */
static bool task_start_run(server *s, task *t)
{
    analysis_job *job = calloc(1, sizeof *job);
    if (!job) {
        task_fail(s, t, "internal", "out of memory");
        return false;
    }
    job->task = t->key;
    job->sgf = t->sgf;
    job->sgf_len = t->sgf_len;
    job->playouts = s->cfg.analysis_playouts;
    job->first = t->position ? -1 : 0;
    atomic_init(&job->positions_done, 0);
    atomic_init(&job->positions_total, t->moves + 1);
    t->sgf = NULL;
    if (!analysis_pool_submit(s->analyses->pool, job)) {
        analysis_job_free(job);
        task_fail(s, t, "unavailable", "the server is stopping");
        return false;
    }
    t->run = job;
    t->stage = T_RUN;
    answer_asker(s, t, NULL, NULL, progress_fields(t, "queued"));
    net_timer_set(s->analyses->progress, PROGRESS_MS);
    return true;
}

static void task_done(void *ctx, store_job *job)
{
    server *s = ctx;
    task *t = (task *)job;
    if (!s->analyses) /* stopping: nothing more is asked of the store */
        return task_free(s, t);
    if (job->rc != 0)
        return task_fail(s, t, "unavailable", "the server could not reach its store: try again");
    switch (t->stage) {
    case T_READ:
        if (t->found == 0) {
            answer_asker(s, t, NULL, NULL, json_pack("{s:o, s:s}", "analysis", ref_json(false, t->doc),
                                                    "state", "done"));
            return task_free(s, t);
        }
        if (t->found == 2)
            return task_fail(s, t, t->error[0] ? "bad_sgf" : "not_found",
                             t->error[0] ? t->error : "no finished game has this id");
        task_start_run(s, t);
        return;
    case T_CHECK:
        if (t->error[0])
            return task_fail(s, t, "bad_sgf", t->error);
        return task_submit(s, t, T_NEW_ID, STORE_WRITE);
    case T_NEW_ID:
        task_start_run(s, t);
        return;
    case T_STORE:
        tell(s, t, json_pack("{s:s, s:o}", "type", "analysis.done", "analysis",
                             ref_json(t->upload, t->doc)));
        return task_free(s, t);
    case T_RUN:
        break;
    }
}

/* ---- the worker's answers and progress (the loop) -------------------------------- */

static void position_done(server *s, task *t, analysis_job *job);

void analysis_answers(server *s)
{
    analysis_job *job;
    if (!s->analyses)
        return;
    while ((job = analysis_pool_done(s->analyses->pool))) {
        task *t = imap_get(&s->analyses->tasks, job->task);
        if (!t) {
            analysis_job_free(job);
            continue;
        }
        t->run = NULL;
        if (t->position) {
            position_done(s, t, job);
            analysis_job_free(job);
            continue;
        }
        if (!job->ok) {
            task_fail(s, t, "internal", job->error);
        } else {
            t->json = job->json;
            job->json = NULL;
            task_submit(s, t, T_STORE, STORE_WRITE);
        }
        analysis_job_free(job);
    }
}

static void on_progress(void *arg)
{
    server *s = arg;
    int64_t key;
    void *v;
    bool running = false;
    for (size_t i = 0; imap_next(&s->analyses->tasks, &i, &key, &v);) {
        task *t = v;
        if (!t->run || t->position)
            continue;
        running = true;
        int done = atomic_load(&t->run->positions_done);
        if (done != t->told) {
            t->told = done;
            json_t *msg = progress_fields(t, "running");
            json_object_set_new(msg, "type", json_string("analysis.progress"));
            tell(s, t, msg);
        }
    }
    if (running)
        net_timer_set(s->analyses->progress, PROGRESS_MS);
}

/* ---- requests ------------------------------------------------------------------- */

/* Whether c (its account, its address) and the server may take one more. */
static const char *over_limit(server *s, const client *c)
{
    int mine = 0, here = 0;
    int64_t key;
    void *v;
    if ((int)s->analyses->tasks.count >= s->cfg.analysis_max)
        return "the server is analysing as many games as it may: try again later";
    for (size_t i = 0; imap_next(&s->analyses->tasks, &i, &key, &v);) {
        const task *t = v;
        mine += t->user == c->user;
        here += t->addr == c->addr;
    }
    if (mine >= TASKS_PER_ACCOUNT || here >= TASKS_PER_ADDRESS)
        return "an analysis of yours is still running: wait for it to finish";
    return NULL;
}

static task *task_new(server *s, client *c, const proto_request *rq, bool upload)
{
    task *t = calloc(1, sizeof *t);
    if (!t || !imap_put(&s->analyses->tasks, ++s->analyses->next_key, t)) {
        free(t);
        return NULL;
    }
    t->srv = s;
    t->key = s->analyses->next_key;
    t->upload = upload;
    t->user = c->user;
    t->addr = c->addr;
    t->clients[t->nclients++] = c->id;
    t->asker = c->id;
    t->has_rq_id = rq->has_id;
    t->rq_id = rq->id;
    return t;
}

static void start_game(server *s, client *c, const proto_request *rq, int64_t game)
{
    live *lv = game > 0 ? live_get(s, game) : NULL;
    if (game <= 0 || game > s->next_game)
        return send_error(c, rq, "not_found", "no finished game has this id");
    if (lv && lv->r->phase != ROOM_OVER)
        return send_error(c, rq, "not_finished", "a game is analysed once it is over");
    int64_t key;
    void *v;
    for (size_t i = 0; imap_next(&s->analyses->tasks, &i, &key, &v);) {
        task *t = v;
        if (!t->upload && !t->position && t->doc == game && t->stage == T_RUN) { /* running: follow it */
            if (t->nclients < TASK_CLIENTS)
                t->clients[t->nclients++] = c->id;
            return send_ok(c, rq, progress_fields(t, "running"));
        }
    }
    const char *limit = over_limit(s, c);
    if (limit)
        return send_error(c, rq, "busy", limit);
    task *t = task_new(s, c, rq, false);
    if (!t)
        return send_error(c, rq, "internal", "out of memory");
    t->doc = game;
    task_submit(s, t, T_READ, STORE_READ);
}

/* A part of an upload; the last one starts the analysis. */
static void upload_part(server *s, client *c, const proto_request *rq, const char *text, bool more)
{
    upload *u = imap_get(&s->analyses->uploads, c->id);
    size_t n = strlen(text);
    if (!u && (!(u = calloc(1, sizeof *u)) || !imap_put(&s->analyses->uploads, c->id, u))) {
        free(u);
        return send_error(c, rq, "internal", "out of memory");
    }
    char *grown = u->len + n <= ANALYSIS_SGF_MAX ? realloc(u->text, u->len + n + 1) : NULL;
    if (!grown) {
        analysis_client_gone(s, c);
        return send_error(c, rq, "too_large", "the record is over 128 KiB: it is not analysed");
    }
    memcpy(grown + u->len, text, n + 1);
    u->text = grown;
    u->len += n;
    if (more)
        return send_ok(c, rq, json_pack("{s:I}", "received", (json_int_t)u->len));
    const char *limit = over_limit(s, c);
    if (limit) {
        analysis_client_gone(s, c);
        return send_error(c, rq, "busy", limit);
    }
    task *t = task_new(s, c, rq, true);
    if (!t)
        return send_error(c, rq, "internal", "out of memory");
    t->sgf = u->text;
    t->sgf_len = u->len;
    u->text = NULL;
    analysis_client_gone(s, c);
    task_submit(s, t, T_CHECK, STORE_WORK);
}

static void live_allow(server *s, client *c, const proto_request *rq, int64_t game, int allow);
static void live_position(server *s, client *c, const proto_request *rq, int64_t game);

bool analysis_request(server *s, client *c, const char *data, size_t len)
{
    json_error_t e;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &e);
    const char *type = json_string_value(json_object_get(root, "type"));
    if (!type || (strcmp(type, "analysis.start") != 0 && strcmp(type, "analysis.upload") != 0 &&
                  strcmp(type, "analysis.allow") != 0 && strcmp(type, "analysis.position") != 0)) {
        json_decref(root);
        return false;
    }
    json_t *id = json_object_get(root, "id");
    proto_request rq = request_of(json_is_integer(id) && json_integer_value(id) >= 0,
                                  json_integer_value(id));
    json_int_t game = 0, rid = 0;
    const char *text = NULL;
    int more = 0, allow = -1, rc;
    bool live_kind = !strcmp(type, "analysis.allow") || !strcmp(type, "analysis.position");
    if (!strcmp(type, "analysis.allow"))
        rc = json_unpack_ex(root, &e, JSON_STRICT, "{s:s, s?I, s:I, s?b}", "type", &type, "id",
                            &rid, "game", &game, "allow", &allow);
    else if (live_kind || !strcmp(type, "analysis.start"))
        rc = json_unpack_ex(root, &e, JSON_STRICT, "{s:s, s?I, s:I}", "type", &type, "id", &rid,
                            "game", &game);
    else
        rc = json_unpack_ex(root, &e, JSON_STRICT, "{s:s, s?I, s:s, s?b}", "type", &type, "id",
                            &rid, "text", &text, "more", &more);
    if (rc != 0)
        send_error(c, &rq, "bad_request", e.text);
    else if (!c->user)
        send_error(c, &rq, "auth_required", "log in or play as a guest first");
    else if (!s->analyses || s->cfg.analysis_playouts <= 0)
        send_error(c, &rq, "disabled", "this server does not analyse games (--analysis-playouts 0)");
    else if (!strcmp(type, "analysis.allow"))
        live_allow(s, c, &rq, game, allow);
    else if (live_kind)
        live_position(s, c, &rq, game);
    else if (text)
        upload_part(s, c, &rq, text, more != 0);
    else
        start_game(s, c, &rq, game);
    json_decref(root);
    return true;
}

/* ---- a live game's position, for its spectators ------------------------------- */

static void view_free(live_view *v);

/* The views of games no longer in play leave memory (before a new one is
 * made, once there are many). */
static void views_sweep(server *s)
{
    int64_t gone[64], key;
    void *v;
    int n = 0;
    for (size_t i = 0; n < 64 && imap_next(&s->analyses->views, &i, &key, &v);) {
        live *lv = live_get(s, key);
        if (!lv || lv->r->phase == ROOM_OVER)
            gone[n++] = key;
    }
    for (int i = 0; i < n; i++)
        view_free(imap_del(&s->analyses->views, gone[i]));
}

static live_view *view_of(server *s, int64_t game, bool make)
{
    live_view *v = imap_get(&s->analyses->views, game);
    if (!v && make && s->analyses->views.count >= 64)
        views_sweep(s);
    if (!v && make && (v = calloc(1, sizeof *v))) {
        v->moves = -1;
        if (!imap_put(&s->analyses->views, game, v)) {
            free(v);
            v = NULL;
        }
    }
    return v;
}

static void view_free(live_view *v)
{
    if (v) {
        free(v->position);
        free(v);
    }
}

/* Whether the colour allows it (an engine does). */
static bool allows(const live *lv, const live_view *v, tg_color c)
{
    return lv->r->engine[c][0] != '\0' || (v && v->allowed[c]);
}

static json_t *allowed_json(const live *lv, const live_view *v)
{
    return json_pack("{s:I, s:b, s:b}", "game", (json_int_t)lv->r->id, "black",
                     allows(lv, v, TG_BLACK), "white", allows(lv, v, TG_WHITE));
}

/* The live game, unfinished, or NULL with the client told why. */
static live *live_unfinished(server *s, client *c, const proto_request *rq, int64_t game)
{
    live *lv = game > 0 ? live_get(s, game) : NULL;
    if (!lv || lv->r->phase == ROOM_OVER) {
        view_free(imap_del(&s->analyses->views, game));
        send_error(c, rq, "not_live", "no game in play has this id (a finished game: analysis.start)");
        return NULL;
    }
    return lv;
}

/* A player allows the spectators the engine's view, or not; without
 * `allow` (< 0), anyone asks what the players allow. */
static void live_allow(server *s, client *c, const proto_request *rq, int64_t game, int allow)
{
    live *lv = live_unfinished(s, c, rq, game);
    if (!lv)
        return;
    live_view *v = view_of(s, game, allow >= 0);
    if (allow >= 0) {
        tg_color color = room_color_of(lv->r, c->user);
        if (color == TG_EMPTY)
            return send_error(c, rq, "forbidden", "only the players say whether spectators see the engine's view");
        if (!v)
            return send_error(c, rq, "internal", "out of memory");
        v->allowed[color] = allow != 0;
        json_t *told = allowed_json(lv, v);
        json_object_set_new(told, "type", json_string("analysis.allowed"));
        game_broadcast(lv, told, false);
    }
    send_ok(c, rq, allowed_json(lv, v));
}

static json_t *position_message(int64_t game, int moves, const char *position)
{
    json_error_t e;
    return json_pack("{s:s, s:I, s:i, s:o}", "type", "analysis.position", "game", (json_int_t)game,
                     "moves", moves, "position", json_loads(position, 0, &e));
}

/* A spectator asks for the engine's view of the position on the board: the
 * answer says "running" and the position comes as analysis.position, at
 * once when it is known. */
static void live_position(server *s, client *c, const proto_request *rq, int64_t game)
{
    live *lv = live_unfinished(s, c, rq, game);
    if (!lv)
        return;
    live_view *v = view_of(s, game, false);
    if (room_color_of(lv->r, c->user) != TG_EMPTY)
        return send_error(c, rq, "forbidden", "a player does not see the engine's view of their own game");
    if (!allows(lv, v, TG_BLACK) || !allows(lv, v, TG_WHITE))
        return send_error(c, rq, "not_allowed", "the players have not allowed the engine's view to spectators");
    int moves = tg_game_move_count(lv->r->game);
    if (!v && !(v = view_of(s, game, true)))
        return send_error(c, rq, "internal", "out of memory");
    if (v->moves == moves && v->position) {
        send_ok(c, rq, json_pack("{s:I, s:i, s:s}", "game", (json_int_t)game, "moves", moves, "state", "done"));
        return send_json(c, position_message(game, moves, v->position));
    }
    task *running = v->running ? imap_get(&s->analyses->tasks, v->running) : NULL;
    if (!running || running->position_moves != moves) {
        const char *limit = over_limit(s, c);
        if (limit)
            return send_error(c, rq, "busy", limit);
        task *t = task_new(s, c, rq, false);
        char *sgf = t ? game_sgf_live(lv) : NULL;
        if (!sgf) {
            if (t)
                task_free(s, t);
            return send_error(c, rq, "internal", "out of memory");
        }
        t->asker = 0; /* answered here */
        t->doc = game;
        t->position = true;
        t->position_moves = moves;
        t->sgf = sgf;
        t->sgf_len = strlen(sgf);
        t->moves = moves;
        v->running = t->key;
        v->nwaiting = 0;
        if (!task_start_run(s, t))
            return;
    }
    if (v->nwaiting < TASK_CLIENTS)
        v->waiting[v->nwaiting++] = c->id;
    send_ok(c, rq, json_pack("{s:I, s:i, s:s}", "game", (json_int_t)game, "moves", moves, "state", "running"));
}

/* The worker analysed a live position: kept for the next spectator, sent to
 * those who wait. */
static void position_done(server *s, task *t, analysis_job *job)
{
    live_view *v = view_of(s, t->doc, false);
    json_error_t e;
    json_t *doc = job->ok ? json_loads(job->json, 0, &e) : NULL;
    json_t *position = json_array_get(json_object_get(doc, "positions"), 0);
    char *text = position ? json_dumps(position, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
    json_decref(doc);
    if (v && v->running == t->key) {
        v->running = 0;
        for (int i = 0; i < v->nwaiting; i++) {
            client *c = client_by_id(s, v->waiting[i]);
            if (c && !c->closed)
                send_json(c, text ? position_message(t->doc, t->position_moves, text)
                                  : json_pack("{s:s, s:o, s:s}", "type", "analysis.error", "analysis",
                                              ref_json(false, t->doc), "message", job->error));
        }
        v->nwaiting = 0;
        if (text) {
            free(v->position);
            v->position = text;
            v->moves = t->position_moves;
            text = NULL;
        }
    }
    free(text);
    task_free(s, t);
}

void analysis_client_gone(server *s, client *c)
{
    if (!s->analyses)
        return;
    upload *u = imap_del(&s->analyses->uploads, c->id);
    if (u) {
        free(u->text);
        free(u);
    }
}

/* ---- the API: GET /api/analysis/game/ID, /api/analysis/sgf/ID ------------------------ */

typedef struct doc_read {
    store_job job;
    net_http_pending *pending;
    const char *kind;
    int64_t id;
    int found;
    char *body;
} doc_read;

static int doc_read_run(store *db, store_job *job)
{
    doc_read *r = (doc_read *)job;
    int64_t at = 0;
    r->found = db->ops->doc_get(db, r->kind, r->id, false, &r->body, &at);
    return r->found < 0 ? -1 : 0;
}

static void doc_read_done(void *ctx, store_job *job)
{
    (void)ctx;
    doc_read *r = (doc_read *)job;
    char *text = NULL;
    int status = 200;
    if (job->rc != 0) {
        status = 503;
        text = strdup("{\"error\":\"unavailable\",\"message\":\"the store could not be read: try again\"}");
    } else if (r->found != 0) {
        status = 404;
        text = strdup("{\"error\":\"not_found\",\"message\":\"not analysed\"}");
    } else if ((text = malloc(strlen(r->body) + 40))) {
        sprintf(text, "{\"state\":\"done\",\"analysis\":%s}", r->body);
    }
    net_http_response out = {text ? status : 500, "application/json", text, text ? strlen(text) : 0,
                             NULL, false, NULL, NULL, false};
    net_http_finish(r->pending, &out);
    free(r->body);
    free(r);
}

static void respond_text(net_http_response *out, int status, char *text)
{
    out->status = text ? status : 500;
    out->content_type = "application/json";
    out->body = text;
    out->length = text ? strlen(text) : 0;
}

void analysis_http(server *s, const char *path, net_http_response *out)
{
    bool upload = !strncmp(path, "/api/analysis/sgf/", 18);
    const char *digits = upload ? path + 18 : !strncmp(path, "/api/analysis/game/", 19) ? path + 19 : "";
    char *end = NULL;
    long long id = strtoll(digits, &end, 10);
    if (!digits[0] || !end || *end || id <= 0 || strlen(digits) > 15)
        return respond_text(out, 400, strdup("{\"error\":\"bad_request\",\"message\":\"an analysis is "
                                             "/api/analysis/game/ID or /api/analysis/sgf/ID\"}"));
    int64_t key;
    void *v;
    for (size_t i = 0; s->analyses && imap_next(&s->analyses->tasks, &i, &key, &v);) {
        task *t = v;
        if (t->upload == upload && !t->position && t->doc == id && t->stage == T_RUN) {
            json_t *j = progress_fields(t, "running");
            char *text = json_dumps(j, JSON_COMPACT);
            json_decref(j);
            return respond_text(out, 200, text);
        }
    }
    doc_read *r = calloc(1, sizeof *r);
    if (!r || !(r->pending = net_http_defer(out))) {
        free(r);
        return respond_text(out, 503, strdup("{\"error\":\"unavailable\",\"message\":\"try again\"}"));
    }
    r->job.run = doc_read_run;
    r->job.done = doc_read_done;
    r->kind = upload ? "analysis-sgf" : "analysis";
    r->id = id;
    store_async_submit(s->db, STORE_READ, &r->job);
}

/* ---- life ------------------------------------------------------------------------ */

bool analysis_start(server *s, char *err, size_t errlen)
{
    if (s->cfg.analysis_playouts <= 0)
        return true;
    if (s->cfg.analysis_max <= 0)
        s->cfg.analysis_max = 4;
    struct analyses *a = calloc(1, sizeof *a);
    if (!a || !(a->pool = analysis_pool_new(s->net)) ||
        !(a->progress = net_timer_new(s->net, on_progress, s))) {
        if (a)
            analysis_pool_free(a->pool);
        free(a);
        snprintf(err, errlen, "cannot start the analysis worker");
        return false;
    }
    s->analyses = a;
    return true;
}

/* The worker stops; the tasks it held are freed now, those in the store's
 * queues when their job comes back (task_done finds no registry). */
void analysis_free(server *s)
{
    struct analyses *a = s->analyses;
    if (!a)
        return;
    analysis_pool_free(a->pool); /* the running search stops; the queue is dropped */
    int64_t key;
    void *v;
    for (size_t i = 0; imap_next(&a->tasks, &i, &key, &v);) {
        task *t = v;
        if (t->stage == T_RUN) {
            free(t->sgf);
            free(t->json);
            free(t);
        }
    }
    imap_free(&a->tasks);
    for (size_t i = 0; imap_next(&a->uploads, &i, &key, &v);) {
        upload *u = v;
        free(u->text);
        free(u);
    }
    imap_free(&a->uploads);
    for (size_t i = 0; imap_next(&a->views, &i, &key, &v);)
        view_free(v);
    imap_free(&a->views);
    net_timer_free(a->progress);
    free(a);
    s->analyses = NULL;
}
