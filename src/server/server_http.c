/*
 * server_http.c — HTTP: the page's static files (embedded in the binary at
 * build time, or read from --web DIR while developing it) and the
 * read-only JSON API of docs/protocol.md.
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web_assets.h"

static void respond(net_http_response *out, int status, const char *type, char *body)
{
    out->status = status;
    out->content_type = type;
    out->body = body;
    out->length = body ? strlen(body) : 0;
}

static void respond_json(net_http_response *out, int status, json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    respond(out, text ? status : 500, "application/json", text);
}

static void respond_error(net_http_response *out, int status, const char *code, const char *msg)
{
    respond_json(out, status, json_pack("{s:s, s:s}", "error", code, "message", msg));
}

static const char *mime_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return "application/octet-stream";
    if (strcmp(dot, ".html") == 0)
        return "text/html; charset=utf-8";
    if (strcmp(dot, ".js") == 0 || strcmp(dot, ".mjs") == 0)
        return "text/javascript; charset=utf-8";
    if (strcmp(dot, ".css") == 0)
        return "text/css; charset=utf-8";
    if (strcmp(dot, ".svg") == 0)
        return "image/svg+xml";
    if (strcmp(dot, ".png") == 0)
        return "image/png";
    if (strcmp(dot, ".json") == 0)
        return "application/json";
    return "application/octet-stream";
}

/* A static path names a file of the page: letters, digits, '-', '_', '.'
 * and '/', never "..". */
static bool static_path_ok(const char *path)
{
    if (path[0] != '/' || strstr(path, "..") || strlen(path) > 128)
        return false;
    for (const char *p = path; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.' || *p == '/'))
            return false;
    return true;
}

static bool read_whole(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 > cap) {
            cap = cap ? 2 * cap : 16384;
            if (cap > 8 * 1024 * 1024)
                break;
            char *grown = realloc(buf, cap);
            if (!grown)
                break;
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    bool ok = !ferror(f) && feof(f);
    fclose(f);
    if (!ok) {
        free(buf);
        return false;
    }
    *data = buf;
    *len = n;
    return true;
}

static void static_file(server *s, const char *path, net_http_response *out)
{
    if (strcmp(path, "/") == 0)
        path = "/index.html";
    if (!static_path_ok(path))
        return;
    char *data = NULL;
    size_t len = 0;
    if (s->cfg.web_dir) {
        char full[1024];
        snprintf(full, sizeof full, "%s%s", s->cfg.web_dir, path);
        if (!read_whole(full, &data, &len))
            return;
    } else {
        const web_asset *a = web_asset_find(path);
        if (!a || !(data = malloc(a->length + 1)))
            return;
        memcpy(data, a->data, a->length);
        len = a->length;
    }
    out->status = 200;
    out->content_type = mime_of(path);
    out->body = data;
    out->length = len;
    out->cache = !s->cfg.web_dir;
}

/* The id after a prefix ("/api/games/12" -> 12, rest "" ; "/api/games/12/sgf" -> rest "/sgf"). */
static int64_t path_id(const char *p, const char **rest)
{
    int64_t id = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 15) {
        id = id * 10 + (*p++ - '0');
        digits++;
    }
    *rest = p;
    return digits ? id : -1;
}

static json_t *stored_summary(const store_game *g)
{
    json_error_t e;
    json_t *wrap = json_loads(g->settings_json, 0, &e);
    json_t *st = json_object_get(wrap, "settings");
    json_t *j = json_pack("{s:I, s:s, s:s, s:b, s:b, s:i, s:O, s:O, s:O, s:O, s:s, s:o}", "id",
                          (json_int_t)g->id, "black", g->black_name, "white", g->white_name,
                          "black_engine", g->black_engine[0] != '\0', "white_engine",
                          g->white_engine[0] != '\0', "moves", g->moves, "size",
                          json_object_get(st, "size"), "rules", json_object_get(st, "rules"),
                          "komi", json_object_get(st, "komi"), "handicap",
                          json_object_get(st, "handicap"), "phase", g->finished ? "over" : "play",
                          "result", g->finished ? json_string(g->result) : json_null());
    json_decref(wrap);
    return j;
}

static void metrics_histogram(char **buf, size_t *len, const char *name, const char *help,
                              const histogram *h)
{
    FILE *f = open_memstream(buf, len);
    if (!f)
        return;
    fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    uint64_t cum = 0;
    for (int i = 0; i < METRIC_BUCKETS; i++) {
        cum += h->count[i];
        fprintf(f, "%s_bucket{le=\"%g\"} %llu\n", name, metric_bounds[i] / 1000.0,
                (unsigned long long)cum);
    }
    cum += h->count[METRIC_BUCKETS];
    fprintf(f, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n", name,
            (unsigned long long)cum, name, h->sum / 1000.0, name, (unsigned long long)h->n);
    fclose(f);
}

/* GET /metrics: Prometheus' text format. */
static void metrics(server *s, net_http_response *out)
{
    char *lag = NULL, *commit = NULL, *body = NULL;
    size_t lag_len = 0, commit_len = 0, body_len = 0;
    metrics_histogram(&lag, &lag_len, "tengen_loop_lag_seconds",
                      "how late the event loop ran a 50 ms timer", &s->loop_lag);
    metrics_histogram(&commit, &commit_len, "tengen_commit_seconds",
                      "from a turn's writes queued to durable", &s->commit_ms);
    int live_games = 0;
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->lives, &i, &id, &v);)
        live_games += ((live *)v)->r->phase != ROOM_OVER;
    FILE *f = open_memstream(&body, &body_len);
    if (f) {
        fprintf(f,
                "# HELP tengen_connections WebSocket connections open\n# TYPE tengen_connections gauge\n"
                "tengen_connections %zu\n"
                "# HELP tengen_accounts_online accounts with a connection\n# TYPE tengen_accounts_online gauge\n"
                "tengen_accounts_online %zu\n"
                "# HELP tengen_games_live games in play\n# TYPE tengen_games_live gauge\n"
                "tengen_games_live %d\n"
                "# HELP tengen_challenges_open open challenges\n# TYPE tengen_challenges_open gauge\n"
                "tengen_challenges_open %zu\n"
                "# HELP tengen_moves_total moves judged\n# TYPE tengen_moves_total counter\n"
                "tengen_moves_total %llu\n"
                "# HELP tengen_requests_total requests dispatched\n# TYPE tengen_requests_total counter\n"
                "tengen_requests_total %llu\n"
                "# HELP tengen_finished_reads_total finished games read from the store (not the cache)\n# TYPE tengen_finished_reads_total counter\n"
                "tengen_finished_reads_total %llu\n"
                "# HELP tengen_commits_total transactions made durable (a turn's batch, an account, a session, a challenge)\n# TYPE tengen_commits_total counter\n"
                "tengen_commits_total %llu\n"
                "# HELP tengen_commit_failures_total transactions the store refused\n# TYPE tengen_commit_failures_total counter\n"
                "tengen_commit_failures_total %llu\n"
                "# HELP tengen_store_failing 1 while the store refuses writes\n# TYPE tengen_store_failing gauge\n"
                "tengen_store_failing %d\n"
                "# HELP tengen_races_lost_total game writes another node's came before (several nodes)\n# TYPE tengen_races_lost_total counter\n"
                "tengen_races_lost_total %llu\n"
                "# HELP tengen_node_notes_total what other nodes told of their writes\n# TYPE tengen_node_notes_total counter\n"
                "tengen_node_notes_total %llu\n"
                "# HELP tengen_loop_lag_max_seconds the longest lag seen\n# TYPE tengen_loop_lag_max_seconds gauge\n"
                "tengen_loop_lag_max_seconds %.6f\n%s%s",
                s->clients.count, s->accounts.count, live_games, s->challenges.count,
                (unsigned long long)s->moves, (unsigned long long)s->requests,
                (unsigned long long)s->store_reads, (unsigned long long)s->commits, (unsigned long long)s->commit_failures,
                s->store_failing ? 1 : 0, (unsigned long long)s->races_lost,
                (unsigned long long)s->notes_heard, s->loop_lag.max / 1000.0, lag ? lag : "",
                commit ? commit : "");
        fclose(f);
    }
    free(lag);
    free(commit);
    respond(out, body ? 200 : 500, "text/plain; version=0.0.4; charset=utf-8", body);
}

/* ---- the API, read off the loop ----------------------------------------------------- */

typedef enum api_kind { A_GAMES, A_GAME, A_SGF, A_PLAYER } api_kind;

typedef struct api_job {
    store_job job;
    net_http_pending *pending;
    api_kind kind;
    int64_t id;
    char name[64];
    int limit;
    json_t *games;           /* A_GAMES: the live games (from memory), then the finished */
    /* the answer */
    int status;
    char *body;
    const char *content_type;
    char disposition[96];
    uint64_t dep;            /* what it shows of memory is durable once this epoch is */
    int64_t user;            /* A_PLAYER: the account found */
    store_user u;
    store_rating rating;     /* A_PLAYER */
    store_rating_point *history;
    int nhistory;
    struct api_job *next;
} api_job;

static void api_free(api_job *j)
{
    free(j->history);
    json_decref(j->games);
    free(j->body);
    free(j);
}

static void api_json(api_job *j, int status, json_t *body)
{
    free(j->body);
    j->body = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    j->status = j->body ? status : 500;
    j->content_type = "application/json";
}

static void api_error(api_job *j, int status, const char *code, const char *message)
{
    api_json(j, status, json_pack("{s:s, s:s}", "error", code, "message", message));
}

/* Finished games' summaries, appended to a. */
static int list_finished(store *db, int64_t user, int limit, json_t *a)
{
    store_game *games = NULL;
    int count = 0;
    int rc = db->ops->games_list(db, true, user, limit, &games, &count);
    for (int i = 0; rc == 0 && i < count; i++) {
        if (user > 0 && !games[i].finished)
            continue;
        json_t *j = stored_summary(&games[i]);
        if (j)
            json_array_append_new(a, j);
    }
    store_games_free(games, count);
    return rc;
}

/* On the reader thread. */
static int api_run(store *db, store_job *job)
{
    api_job *j = (api_job *)job;
    switch (j->kind) {
    case A_GAMES:
        if (list_finished(db, 0, j->limit, j->games) != 0)
            return -1;
        api_json(j, 200, json_pack("{s:O}", "games", j->games));
        return 0;
    case A_GAME: {
        char *state = NULL;
        int found = stored_state_text(db, j->id, &state);
        if (found < 0)
            return -1;
        if (found == 1) {
            api_error(j, 404, "not_found", "no such game");
            return 0;
        }
        size_t n = strlen(state);
        free(j->body);
        j->body = malloc(n + 12);
        if (j->body)
            sprintf(j->body, "{\"game\":%s}", state);
        free(state);
        j->status = j->body ? 200 : 500;
        j->content_type = "application/json";
        return 0;
    }
    case A_SGF: {
        char *sgf = NULL;
        int found = db->ops->game_sgf(db, j->id, &sgf);
        if (found < 0)
            return -1;
        if (found == 1 || !sgf || !sgf[0]) {
            free(sgf);
            api_error(j, 404, "not_found", "no such game");
            return 0;
        }
        free(j->body);
        j->body = sgf;
        j->status = 200;
        j->content_type = "application/x-go-sgf; charset=utf-8";
        snprintf(j->disposition, sizeof j->disposition, "attachment; filename=\"tengen-%lld.sgf\"",
                 (long long)j->id);
        return 0;
    }
    case A_PLAYER: {
        int found = db->ops->user_by_name(db, j->name, &j->u);
        if (found < 0)
            return -1;
        if (found == 1) {
            api_error(j, 404, "not_found", "no such player");
            return 0;
        }
        j->user = j->u.id;
        j->games = json_array();
        if (!j->u.guest && (db->ops->rating_get(db, j->u.id, &j->rating) < 0 ||
                            db->ops->rating_history(db, j->u.id, 500, &j->history, &j->nhistory) != 0))
            return -1;
        return list_finished(db, j->u.id, j->limit, j->games) == 0 ? 0 : -1;
    }
    }
    return -1;
}

/* The answer goes once what it shows of memory is durable. */
static void api_deliver(server *s, api_job *j)
{
    if (j->dep > s->committed) {
        j->next = s->http_waiting;
        s->http_waiting = j;
        return;
    }
    net_http_response r = {j->status, j->content_type, j->body, j->body ? strlen(j->body) : 0,
                           j->disposition[0] ? j->disposition : NULL, false, NULL, NULL, false};
    j->body = NULL;
    net_http_finish(j->pending, &r);
    api_free(j);
}

static void api_done(void *ctx, store_job *job)
{
    server *s = ctx;
    api_job *j = (api_job *)job;
    if (job->rc != 0) {
        api_error(j, 503, "unavailable", "the server could not read its store: try again");
    } else if (j->kind == A_PLAYER && j->user) {
        /* the player's live games come from memory, now */
        json_t *games = json_array();
        int64_t id;
        void *v;
        for (size_t i = 0; imap_next(&s->lives, &i, &id, &v);) {
            const live *lv = v;
            if (lv->r->phase != ROOM_OVER && room_color_of(lv->r, j->user) != TG_EMPTY)
                json_array_append_new(games, room_summary_json(lv->r));
        }
        json_array_extend(games, j->games);
        j->dep = turn_epoch_now(s);
        json_t *player = json_pack("{s:I, s:s, s:b}", "id", (json_int_t)j->u.id, "name", j->u.name,
                                   "guest", j->u.guest);
        if (player && !j->u.guest) {
            json_t *rating = rating_json(&j->rating), *history = json_array();
            for (int i = 0; i < j->nhistory; i++)
                json_array_append_new(history, json_pack("{s:I, s:I, s:f, s:f}", "game",
                                                         (json_int_t)j->history[i].game, "at",
                                                         (json_int_t)j->history[i].at_unix_ms, "rating",
                                                         j->history[i].rating, "deviation",
                                                         j->history[i].deviation));
            json_object_set_new(rating, "history", history);
            json_object_set_new(player, "rating", rating);
        }
        api_json(j, 200, json_pack("{s:o, s:o}", "player", player, "games", games));
    }
    api_deliver(s, j);
}

void http_release(server *s)
{
    api_job **link = &s->http_waiting;
    while (*link) {
        api_job *j = *link;
        if (j->dep <= s->committed) {
            *link = j->next;
            j->dep = 0;
            api_deliver(s, j);
        } else {
            link = &j->next;
        }
    }
}

void http_fail_from(server *s, uint64_t epoch)
{
    for (api_job *j = s->http_waiting; j; j = j->next)
        if (j->dep >= epoch) {
            api_error(j, 503, "unavailable", "the server could not store what this showed: try again");
            j->dep = 0;
        }
    http_release(s);
}

void http_release_all(server *s)
{
    for (api_job *j = s->http_waiting; j; j = j->next)
        j->dep = 0;
    http_release(s);
}

static void api(server *s, const char *path, const char *query, net_http_response *out)
{
    const char *rest;
    api_job *j = calloc(1, sizeof *j);
    if (!j)
        return respond_error(out, 500, "internal", "out of memory");
    j->job.run = api_run;
    j->job.done = api_done;
    j->limit = 200;
    bool read = true; /* the answer needs the store */
    if (strcmp(path, "/api/games") == 0) {
        bool live = !strstr(query, "state=finished"), finished = !strstr(query, "state=live");
        j->kind = A_GAMES;
        j->games = live ? game_summaries(s) : json_array();
        j->dep = live ? turn_epoch_now(s) : 0;
        if (!finished) {
            api_json(j, 200, json_pack("{s:O}", "games", j->games));
            read = false;
        }
    } else if (strncmp(path, "/api/games/", 11) == 0) {
        int64_t id = path_id(path + 11, &rest);
        live *lv = id > 0 ? live_get(s, id) : NULL;
        j->id = id;
        if (id > 0 && strcmp(rest, "") == 0) {
            j->kind = A_GAME;
            const char *cached = lv ? NULL : cache_get(s, id);
            if (lv) {
                json_t *state = game_state_public(s, lv);
                api_json(j, state ? 200 : 500, json_pack("{s:o}", "game", state));
                j->dep = lv->dep;
                read = false;
            } else if (cached && (j->body = malloc(strlen(cached) + 12))) {
                sprintf(j->body, "{\"game\":%s}", cached);
                j->status = 200;
                j->content_type = "application/json";
                read = false;
            } else if (id > s->next_game) {
                api_error(j, 404, "not_found", "no such game");
                read = false;
            }
        } else if (id > 0 && strcmp(rest, "/sgf") == 0) {
            j->kind = A_SGF;
            if (lv) {
                j->body = game_sgf_live(lv);
                j->status = j->body ? 200 : 500;
                j->content_type = "application/x-go-sgf; charset=utf-8";
                snprintf(j->disposition, sizeof j->disposition,
                         "attachment; filename=\"tengen-%lld.sgf\"", (long long)id);
                j->dep = lv->dep;
                read = false;
            } else if (id > s->next_game) {
                api_error(j, 404, "not_found", "no such game");
                read = false;
            }
        } else {
            api_error(j, 400, "bad_request", "a game is /api/games/ID[/sgf]");
            read = false;
        }
    } else if (strcmp(path, "/api/tournaments") == 0) {
        api_json(j, 200, json_pack("{s:o}", "tournaments", tournament_list(s)));
        read = false;
    } else if (strncmp(path, "/api/tournaments/", 17) == 0) {
        int64_t id = path_id(path + 17, &rest);
        read = false;
        if (id > 0 && strcmp(rest, "") == 0) {
            json_t *view = tournament_view(s, id, &j->dep);
            if (view)
                api_json(j, 200, json_pack("{s:o}", "tournament", view));
            else
                api_error(j, 404, "not_found", "no such tournament");
        } else if (id > 0 && rest[0] == '/') {
            const char *type = NULL;
            char *text = tournament_export(s, id, rest + 1, &type, &j->dep);
            if (text) {
                j->body = text;
                j->status = 200;
                j->content_type = type;
                if (strcmp(rest + 1, "standings.html") != 0)
                    snprintf(j->disposition, sizeof j->disposition,
                             "attachment; filename=\"tengen-tournament-%lld-%s\"", (long long)id, rest + 1);
            } else {
                api_error(j, 404, "not_found",
                          "a tournament is /api/tournaments/ID[/standings.html|opengotha.xml|egf.txt|aga.txt|tournament.json]");
            }
        } else {
            api_error(j, 400, "bad_request", "a tournament is /api/tournaments/ID");
        }
    } else if (strncmp(path, "/api/players/", 13) == 0) {
        j->kind = A_PLAYER;
        snprintf(j->name, sizeof j->name, "%s", path + 13);
    } else {
        api_error(j, 404, "not_found", "no such API");
        read = false;
    }
    if (!read && j->dep <= s->committed) { /* at once, as it is */
        out->status = j->status;
        out->content_type = j->content_type;
        out->body = j->body;
        out->length = j->body ? strlen(j->body) : 0;
        if (j->disposition[0]) {
            static char disposition[96];
            memcpy(disposition, j->disposition, sizeof disposition);
            out->disposition = disposition;
        }
        j->body = NULL;
        api_free(j);
        return;
    }
    if (!(j->pending = net_http_defer(out))) {
        api_free(j);
        return respond_error(out, 503, "unavailable", "try again");
    }
    if (read)
        store_async_submit(s->db, STORE_READ, &j->job);
    else
        api_deliver(s, j);
}

void http_answer(void *ctx, const char *path, const char *query, net_http_response *out)
{
    server *s = ctx;
    if (strcmp(path, "/metrics") == 0)
        return metrics(s, out);
    if (strncmp(path, "/api/", 5) == 0 || strcmp(path, "/api") == 0) {
        /* the API reads the store off the loop, and shows only what is
         * durable: a budget an address */
        address *a = address_of(s, address_key(out->client ? out->client : ""));
        if (!a || !take_token(&a->api, server_now_ms(), 20, 60))
            return respond_error(out, 429, "rate_limited", "too many API requests: slow down");
        if (strncmp(path, "/api/analysis/", 14) == 0)
            return analysis_http(s, path, out);
        return api(s, path, query, out);
    }
    static_file(s, path, out);
}
