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

static json_t *finished_games(server *s, int64_t user, int limit)
{
    json_t *a = json_array();
    store_game *games = NULL;
    int count = 0;
    if (s->api_db->ops->games_list(s->api_db, true, user, limit, &games, &count) == 0)
        for (int i = 0; i < count; i++) {
            if (user > 0 && !games[i].finished)
                continue;
            json_t *j = stored_summary(&games[i]);
            if (j)
                json_array_append_new(a, j);
        }
    store_games_free(games, count);
    return a;
}

/* A finished game for the API: the cache, else its stored final state. */
static json_t *finished_state(server *s, int64_t id)
{
    const char *cached = cache_get(s, id);
    char *text = NULL;
    json_error_t e;
    if (cached)
        return json_loads(cached, 0, &e);
    if (s->api_db->ops->game_state(s->api_db, id, &text) != 0 || !text) {
        free(text);
        return NULL;
    }
    cache_put(s, id, text);
    json_t *state = json_loads(text, 0, &e);
    free(text);
    return state;
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
                "# HELP tengen_loop_lag_max_seconds the longest lag seen\n# TYPE tengen_loop_lag_max_seconds gauge\n"
                "tengen_loop_lag_max_seconds %.6f\n%s%s",
                s->clients.count, s->accounts.count, live_games, s->challenges.count,
                (unsigned long long)s->moves, (unsigned long long)s->requests,
                (unsigned long long)s->store_reads, (unsigned long long)s->commits, (unsigned long long)s->commit_failures,
                s->store_failing ? 1 : 0, s->loop_lag.max / 1000.0, lag ? lag : "",
                commit ? commit : "");
        fclose(f);
    }
    free(lag);
    free(commit);
    respond(out, body ? 200 : 500, "text/plain; version=0.0.4; charset=utf-8", body);
}

static void api(server *s, const char *path, const char *query, net_http_response *out)
{
    const char *rest;
    if (strcmp(path, "/api/games") == 0) {
        bool live = !strstr(query, "state=finished"), finished = !strstr(query, "state=live");
        json_t *list = live ? game_summaries(s) : json_array();
        if (finished) {
            json_t *done = finished_games(s, 0, 200);
            json_array_extend(list, done);
            json_decref(done);
        }
        return respond_json(out, 200, json_pack("{s:o}", "games", list));
    }
    if (strncmp(path, "/api/games/", 11) == 0) {
        int64_t id = path_id(path + 11, &rest);
        live *lv = id > 0 ? live_get(s, id) : NULL;
        if (id > 0 && strcmp(rest, "") == 0) {
            json_t *state = lv ? game_state_public(s, lv) : finished_state(s, id);
            if (state)
                return respond_json(out, 200, json_pack("{s:o}", "game", state));
        } else if (id > 0 && strcmp(rest, "/sgf") == 0) {
            char *sgf = NULL;
            if (lv)
                sgf = game_sgf_live(lv);
            else if (s->api_db->ops->game_sgf(s->api_db, id, &sgf) != 0 || !sgf || !sgf[0]) {
                free(sgf);
                sgf = NULL;
            }
            if (sgf) {
                static char disposition[64];
                snprintf(disposition, sizeof disposition,
                         "attachment; filename=\"tengen-%lld.sgf\"", (long long)id);
                respond(out, 200, "application/x-go-sgf; charset=utf-8", sgf);
                out->disposition = disposition;
                return;
            }
        } else {
            return respond_error(out, 400, "bad_request", "a game is /api/games/ID[/sgf]");
        }
        return respond_error(out, 404, "not_found", "no such game");
    }
    if (strncmp(path, "/api/players/", 13) == 0) {
        store_user u;
        if (s->api_db->ops->user_by_name(s->api_db, path + 13, &u) != 0)
            return respond_error(out, 404, "not_found", "no such player");
        json_t *games = json_array();
        int64_t id;
        void *v;
        for (size_t i = 0; imap_next(&s->lives, &i, &id, &v);) {
            const live *lv = v;
            if (lv->r->phase != ROOM_OVER && room_color_of(lv->r, u.id) != TG_EMPTY)
                json_array_append_new(games, room_summary_json(lv->r));
        }
        json_t *done = finished_games(s, u.id, 200);
        json_array_extend(games, done);
        json_decref(done);
        return respond_json(out, 200,
                            json_pack("{s:{s:I, s:s, s:b}, s:o}", "player", "id", (json_int_t)u.id,
                                      "name", u.name, "guest", u.guest, "games", games));
    }
    respond_error(out, 404, "not_found", "no such API");
}

void http_answer(void *ctx, const char *path, const char *query, net_http_response *out)
{
    server *s = ctx;
    if (strcmp(path, "/metrics") == 0)
        return metrics(s, out);
    if (strncmp(path, "/api/", 5) == 0 || strcmp(path, "/api") == 0) {
        /* the API reads the store (short, indexed reads, and finished games'
         * stored states, never a replay): a budget an address */
        address *a = address_of(s, address_key(out->client ? out->client : ""));
        if (!a || !take_token(&a->api, server_now_ms(), 20, 60))
            return respond_error(out, 429, "rate_limited", "too many API requests: slow down");
        api(s, path, query, out);
        s->api_db->ops->idle(s->api_db);
        return;
    }
    static_file(s, path, out);
}
