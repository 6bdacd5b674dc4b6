/*
 * server_tournament.c — tournaments in `tengen serve` (issue 52): an
 * organiser creates one (system, rounds, the games' board, rules, clock
 * and lateness); accounts register with their rank; the organiser pairs a
 * round (src/tournament: maximum-weight matching, lots recorded) and
 * starts it, which creates its games with their clocks running; each
 * game's end enters its result, an absent player losing after the set
 * delay (R8, T4) and two absent players both losing (双负, T3); the
 * organiser enters or corrects results (both-lose, replay, adjudication)
 * with a logged note; the standings and crosstable follow.
 *
 * State: every tournament is held in memory (the library's tg_tournament
 * and the server's own: organiser, the players' accounts, each board's
 * game) and written whole to the store's documents (kind "tournament")
 * in the turn's batch, with a version counted up by each write.  The
 * writer checks the stored version before writing (under the row's lock
 * on PostgreSQL): when another node wrote the tournament first, nothing of
 * this node's change is kept — neither the document nor the games a round
 * start made — its answers say so, and the tournament is read again.  A
 * batch that fails likewise reads it again.  Other nodes hear of a write
 * ("t" notes) and read it again.
 *
 * Bounds: at most TOUR_OPEN tournaments not finished on the server,
 * TOUR_PER_ORGANISER of them per organiser, TOUR_PLAYERS players each,
 * TOUR_ROUNDS rounds.
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "tengen/tournament.h"

#define TOUR_OPEN 200
#define TOUR_PER_ORGANISER 5
#define TOUR_PLAYERS 1000
#define TOUR_ROUNDS 20
#define TOUR_LOADED 1000   /* documents read at start (newest first) */

typedef struct tour {
    int64_t id;
    int64_t version;            /* of the document as this node last wrote or read it */
    tg_tournament *t;
    int64_t organiser;
    char organiser_name[32];
    int64_t created_unix_ms;
    json_t *games;              /* the settings of its games (room settings JSON) */
    bool rated;
    int64_t *users;             /* account of each player id (0: an engine) */
    engine_spec *engines;       /* each player's engine (name "": a person) */
    int nusers, users_cap, engines_cap;
    int64_t registration_until; /* unix ms; 0: open until the end */
    int64_t *boards[TG_TOUR_MAX_ROUNDS];  /* round r's games by board (0: none yet) */
    int nboards[TG_TOUR_MAX_ROUNDS];
    int64_t started[TG_TOUR_MAX_ROUNDS];  /* unix ms the round's games began (0: not yet) */
    int64_t start_at[TG_TOUR_MAX_ROUNDS]; /* unix ms it is to begin, set by the organiser (0: none) */
    uint64_t dep;               /* the store epoch of its newest write */
    bool loading;               /* being read again from the store */
    waiting_list wait;          /* several nodes: requests whose answers wait for its writes
                                   (judged again if another node's came first), and those
                                   waiting for it to be read again */
    bool again;                 /* heard of another write while reading */
} tour;

typedef struct tournaments {
    imap by_id;
    client *asking;             /* the request being handled (tour_write remembers it) */
    const proto_request *rq;
    net_timer *timer;           /* the next round to begin at its time */
    int64_t last_id;            /* the largest tournament id known */
} tournaments;

static tournaments *T(server *s)
{
    if (!s->tours) {
        s->tours = calloc(1, sizeof *s->tours);
    }
    return s->tours;
}

static tour *tour_get(server *s, int64_t id)
{
    return s->tours && id > 0 ? imap_get(&s->tours->by_id, id) : NULL;
}

static void tour_clear(tour *x)
{
    tg_tour_free(x->t);
    x->t = NULL;
    json_decref(x->games);
    x->games = NULL;
    free(x->users);
    x->users = NULL;
    free(x->engines);
    x->engines = NULL;
    x->nusers = x->users_cap = x->engines_cap = 0;
    for (int r = 0; r < TG_TOUR_MAX_ROUNDS; r++) {
        free(x->boards[r]);
        x->boards[r] = NULL;
        x->nboards[r] = 0;
        x->started[r] = 0;
        x->start_at[r] = 0;
    }
}

static void tour_free(server *s, tour *x)
{
    if (!x)
        return;
    tour_clear(x);
    waiting_free(s, &x->wait);
    free(x);
}

static bool all_results_in(const tg_tournament *t)
{
    for (int r = 0; r < t->round_count; r++)
        for (int k = 0; k < t->rounds[r].game_count; k++) {
            tg_outcome o = t->rounds[r].games[k].result.outcome;
            if (o == TG_OUTCOME_NONE || o == TG_OUTCOME_REPLAY)
                return false;
        }
    return true;
}

/* registration (no round paired), running, or finished (every round
 * paired, begun and decided): derived, never stored apart. */
static const char *tour_state(const tour *x)
{
    int n = x->t->round_count;
    if (!n)
        return "registration";
    return n >= x->t->settings.rounds && x->started[n - 1] && all_results_in(x->t) ? "finished" : "running";
}

/* ---- the document ----------------------------------------------------------------- */

static const char *system_name(tg_tour_system s)
{
    return s == TG_SYSTEM_MCMAHON ? "mcmahon" : s == TG_SYSTEM_SWISS ? "swiss" : "round-robin";
}

static json_t *tour_summary(const tour *x)
{
    const tg_tour_settings *st = &x->t->settings;
    return json_pack("{s:I, s:s, s:s, s:i, s:i, s:s, s:i, s:s, s:O}", "id", (json_int_t)x->id, "name",
                     st->name, "system", system_name(st->system), "rounds", st->rounds, "round",
                     x->t->round_count, "state", tour_state(x), "players", x->t->player_count,
                     "organiser", x->organiser_name, "games", x->games);
}

static json_t *tour_body(const tour *x)
{
    char *text = tg_tour_to_json(x->t);
    json_error_t e;
    json_t *tj = text ? json_loads(text, 0, &e) : NULL;
    free(text);
    if (!tj)
        return NULL;
    json_t *users = json_array(), *boards = json_array(), *started = json_array(), *at = json_array(),
           *engines = json_array();
    for (int i = 0; i < x->nusers; i++) {
        json_array_append_new(users, json_integer(x->users[i]));
        json_array_append_new(engines, engine_spec_json(&x->engines[i]));
    }
    for (int r = 0; r < x->t->round_count; r++) {
        json_t *b = json_array();
        for (int k = 0; k < x->nboards[r]; k++)
            json_array_append_new(b, json_integer(x->boards[r][k]));
        json_array_append_new(boards, b);
        json_array_append_new(started, json_integer(x->started[r]));
        json_array_append_new(at, json_integer(x->start_at[r]));
    }
    return json_pack("{s:I, s:I, s:s, s:s, s:I, s:O, s:b, s:o, s:o, s:o, s:o, s:o, s:I, s:o}", "version",
                     (json_int_t)x->version, "organiser", (json_int_t)x->organiser, "organiser_name",
                     x->organiser_name, "state", tour_state(x), "created", (json_int_t)x->created_unix_ms,
                     "games", x->games, "rated", x->rated, "users", users, "engines", engines, "boards",
                     boards, "started", started, "start_at", at, "registration_until",
                     (json_int_t)x->registration_until, "tournament", tj);
}

/* The server's tournament from its document; NULL with err. */
static tour *tour_from_body(int64_t id, const char *text, char *err, size_t errlen)
{
    json_error_t e;
    json_t *b = json_loads(text, 0, &e);
    tour *x = calloc(1, sizeof *x);
    json_t *tj = json_object_get(b, "tournament"), *users = json_object_get(b, "users"),
           *boards = json_object_get(b, "boards"), *started = json_object_get(b, "started");
    /* (its "state" is written for readers of the store; here it is derived) */
    const char *org = json_string_value(json_object_get(b, "organiser_name"));
    if (!b || !x || !json_is_object(tj) || !json_is_array(users) || !json_is_array(boards) ||
        !org || !json_is_object(json_object_get(b, "games"))) {
        snprintf(err, errlen, "tournament %lld: not a tournament document", (long long)id);
        goto fail;
    }
    char *tt = json_dumps(tj, JSON_COMPACT);
    tg_status st = tt ? tg_tour_from_json(tt, strlen(tt), &x->t, err, errlen) : TG_ERR_NO_MEMORY;
    free(tt);
    if (st != TG_OK)
        goto fail;
    x->id = id;
    x->version = json_integer_value(json_object_get(b, "version"));
    x->organiser = json_integer_value(json_object_get(b, "organiser"));
    snprintf(x->organiser_name, sizeof x->organiser_name, "%s", org);
    x->created_unix_ms = json_integer_value(json_object_get(b, "created"));
    x->games = json_incref(json_object_get(b, "games"));
    x->rated = json_is_true(json_object_get(b, "rated"));
    size_t n = json_array_size(users);
    if ((int)n != x->t->player_count || json_array_size(boards) > (size_t)x->t->round_count) {
        snprintf(err, errlen, "tournament %lld: players or rounds do not match", (long long)id);
        goto fail;
    }
    x->users = calloc(n ? n : 1, sizeof *x->users);
    x->engines = calloc(n ? n : 1, sizeof *x->engines);
    if (!x->users || !x->engines)
        goto fail;
    x->users_cap = x->engines_cap = (int)(n ? n : 1);
    json_t *engines = json_object_get(b, "engines"), *at = json_object_get(b, "start_at");
    for (size_t i = 0; i < n; i++) {
        engine_spec_read(json_array_get(engines, i), "", &x->engines[i]);
        x->users[x->nusers++] = json_integer_value(json_array_get(users, i));
    }
    x->registration_until = json_integer_value(json_object_get(b, "registration_until"));
    for (size_t r = 0; r < json_array_size(boards); r++) {
        json_t *a = json_array_get(boards, r);
        size_t k = json_array_size(a);
        x->started[r] = json_integer_value(json_array_get(started, r));
        x->start_at[r] = json_integer_value(json_array_get(at, r));
        if (!k)
            continue;
        if (!(x->boards[r] = calloc(k, sizeof *x->boards[r])))
            goto fail;
        for (size_t i = 0; i < k; i++)
            x->boards[r][i] = json_integer_value(json_array_get(a, i));
        x->nboards[r] = (int)k;
    }
    json_decref(b);
    return x;
fail:
    json_decref(b);
    if (x) { /* nothing waits on one being made */
        tour_clear(x);
        free(x);
    }
    return NULL;
}

/* The tournament's change goes in the turn's batch, version counted up. */
static bool tour_write(server *s, tour *x)
{
    x->version++;
    json_t *body = tour_body(x), *summary = tour_summary(x);
    char *bt = body ? json_dumps(body, JSON_COMPACT) : NULL, *st = summary ? json_dumps(summary, JSON_COMPACT) : NULL;
    json_decref(body);
    json_decref(summary);
    if (!bt || !st || !batch_doc(s, "tournament", x->id, x->version, &x->dep, st, bt)) {
        free(bt);
        free(st);
        x->version--;
        return false;
    }
    /* several nodes: the request is judged again should another node's
     * change come first (its answer is then dropped) */
    if (s->listen && s->tours->asking) {
        waiting_ask(&x->wait, s->tours->asking, s->tours->rq, x->dep);
        s->tours->asking = NULL; /* once a request */
    }
    /* the lobby hears that it changed once that is durable */
    lobby_broadcast(s, json_pack("{s:s, s:I, s:I}", "type", "tournament.update", "tournament",
                                 (json_int_t)x->id, "version", (json_int_t)x->version), x->dep);
    return true;
}

/* ---- reading again ------------------------------------------------------------------ */

static bool catch_up(server *s, tour *x);
static void schedule_starts(server *s);

typedef struct reread_job {
    store_job job;
    int64_t id;
    uint64_t committed;         /* every write of ours through this epoch was durable when asked */
    char *body;
    int found;
} reread_job;

static int reread_run(store *db, store_job *job)
{
    reread_job *j = (reread_job *)job;
    j->found = db->ops->doc_get(db, "tournament", j->id, false, &j->body, NULL);
    if (j->found < 0)
        snprintf(job->error, sizeof job->error, "%s", db->ops->error(db));
    return j->found < 0 ? -1 : 0;
}

static void reread_done(void *ctx, store_job *job)
{
    server *s = ctx;
    reread_job *j = (reread_job *)job;
    tour *x = tour_get(s, j->id);
    /* a write of ours still pending when it was read: what was read may
     * lack it */
    if (x && x->dep > j->committed)
        x->again = true;
    if (x && job->rc == 0 && !x->again) {
        char err[200];
        tour *fresh = j->found == 0 ? tour_from_body(j->id, j->body, err, sizeof err) : NULL;
        if (fresh) {
            uint64_t dep = x->dep;
            waiting_list wait = x->wait; /* what waits here stays with it */
            tour_clear(x);
            fresh->dep = dep;
            *x = *fresh;
            free(fresh);
            x->wait = wait;
        } else if (j->found == 0) {
            fprintf(stderr, "tengen serve: %s\n", err);
        }
        x->loading = false;
        nodes_unskip(s, -x->id);
        if (x->t)
            catch_up(s, x);
        schedule_starts(s);
        waiting_resume(s, &x->wait);
        lobby_broadcast(s, json_pack("{s:s, s:I, s:I}", "type", "tournament.update", "tournament",
                                     (json_int_t)x->id, "version", (json_int_t)x->version), 0);
    } else if (x) {
        x->again = false;
        x->loading = false;
        tournament_reread(s, x->id); /* failed, or written again meanwhile: once more */
    }
    free(j->body);
    free(j);
}

void tournament_reread(server *s, int64_t id)
{
    tour *x = tour_get(s, id);
    if (!x) {
        if (!s->tours || id <= 0)
            return;
        /* made on another node: held here too */
        if (!(x = calloc(1, sizeof *x)) || !imap_put(&s->tours->by_id, id, x)) {
            free(x);
            return;
        }
        x->id = id;
        if (id > s->tours->last_id)
            s->tours->last_id = id;
    }
    if (x->loading) {
        x->again = true;
        return;
    }
    reread_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->id = id;
    j->committed = s->committed;
    j->job.run = reread_run;
    j->job.done = reread_done;
    x->loading = true;
    store_async_submit(s->db, STORE_READ, &j->job);
}

/* ---- at start and at the end -------------------------------------------------------- */

bool tournaments_restore(server *s, char *err, size_t errlen)
{
    if (!T(s)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    store *db = s->api_db;
    store_doc *docs = NULL;
    int n = 0;
    if (db->ops->doc_list(db, "tournament", TOUR_LOADED, &docs, &n) != 0) {
        snprintf(err, errlen, "cannot read the tournaments: %s", db->ops->error(db));
        store_docs_free(docs, n);
        return false;
    }
    for (int i = 0; i < n; i++) {
        char *body = NULL;
        char why[200];
        tour *x = NULL;
        if (db->ops->doc_get(db, "tournament", docs[i].id, false, &body, NULL) == 0)
            x = tour_from_body(docs[i].id, body, why, sizeof why);
        else
            snprintf(why, sizeof why, "tournament %lld: %s", (long long)docs[i].id, db->ops->error(db));
        free(body);
        if (!x) {
            /* one unreadable document does not keep the server down */
            fprintf(stderr, "tengen serve: %s: left out\n", why);
            continue;
        }
        if (x->id > s->tours->last_id)
            s->tours->last_id = x->id;
        if (!imap_put(&s->tours->by_id, x->id, x)) {
            tour_free(s, x);
            store_docs_free(docs, n);
            snprintf(err, errlen, "out of memory");
            return false;
        }
    }
    store_docs_free(docs, n);
    schedule_starts(s);
    return true;
}

void tournaments_free(server *s)
{
    if (!s->tours)
        return;
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->tours->by_id, &i, &id, &v);)
        tour_free(s, v);
    imap_free(&s->tours->by_id);
    net_timer_free(s->tours->timer);
    free(s->tours);
    s->tours = NULL;
}

/* ---- the views --------------------------------------------------------------------- */

static const char *player_name(const tour *x, int id)
{
    return id >= 0 && id < x->t->player_count ? x->t->players[id].name : "?";
}

json_t *tournament_view(server *s, int64_t id, uint64_t *dep)
{
    tour *x = tour_get(s, id);
    if (!x || !x->t)
        return NULL;
    *dep = x->dep;
    const tg_tournament *t = x->t;
    json_t *o = tour_summary(x);
    char rank[8], re[24];
    json_t *players = json_array();
    for (int i = 0; i < t->player_count; i++) {
        const tg_tour_player *p = &t->players[i];
        json_t *pj = json_pack("{s:i, s:s, s:s, s:I, s:i, s:i}", "id", i, "name", p->name, "rank",
                               tg_rank_text(p->rank, rank, sizeof rank), "user",
                               (json_int_t)(i < x->nusers ? x->users[i] : 0), "joined", p->joined_round,
                               "withdrawn", p->withdrawn_round);
        if (i < x->nusers && x->engines[i].name[0])
            json_object_set_new(pj, "engine", engine_spec_json(&x->engines[i]));
        json_array_append_new(players, pj);
    }
    json_t *rounds = json_array();
    for (int r = 0; r < t->round_count; r++) {
        const tg_tour_round *rd = &t->rounds[r];
        json_t *games = json_array(), *byes = json_array();
        for (int k = 0; k < rd->game_count; k++) {
            const tg_tour_game *g = &rd->games[k];
            int64_t game = g->board - 1 < x->nboards[r] ? x->boards[r][g->board - 1] : 0;
            tg_tour_result_text(&g->result, re, sizeof re);
            json_array_append_new(games, json_pack("{s:i, s:s, s:s, s:i, s:i, s:i, s:f, s:s, s:I}", "board",
                                                   g->board, "black", player_name(x, g->black), "white",
                                                   player_name(x, g->white), "black_id", g->black, "white_id",
                                                   g->white, "handicap", g->handicap, "komi", g->komi2 / 2.0,
                                                   "result", g->result.outcome == TG_OUTCOME_NONE ? "" : re,
                                                   "game", (json_int_t)game));
        }
        for (int k = 0; k < rd->bye_count; k++)
            json_array_append_new(byes, json_string(player_name(x, rd->byes[k])));
        json_array_append_new(rounds, json_pack("{s:i, s:o, s:o, s:I, s:I}", "number", rd->number, "games", games,
                                                "byes", byes, "started", (json_int_t)x->started[r], "start_at",
                                                (json_int_t)x->start_at[r]));
    }
    json_t *standings = json_array(), *tbnames = json_array();
    for (int k = 0; k < t->settings.tiebreak_count; k++)
        json_array_append_new(tbnames, json_string(tg_tiebreak_name(t->settings.tiebreaks[k])));
    tg_standing *st = NULL;
    if (t->player_count && tg_tour_standings(t, 0, &st) == TG_OK) {
        for (int i = 0; i < t->player_count; i++) {
            json_t *tb = json_array();
            for (int k = 0; k < t->settings.tiebreak_count; k++)
                json_array_append_new(tb, json_real(st[i].tiebreak[t->settings.tiebreaks[k]] / 2.0));
            json_array_append_new(standings,
                                  json_pack("{s:i, s:s, s:f, s:f, s:i, s:i, s:i, s:i, s:o}", "place", st[i].place,
                                            "name", player_name(x, st[i].player), "score", st[i].score2 / 2.0,
                                            "points", st[i].points2 / 2.0, "wins", st[i].wins, "losses",
                                            st[i].losses, "jigos", st[i].jigos, "byes", st[i].byes,
                                            "tiebreaks", tb));
        }
    }
    free(st);
    char *cross = t->round_count ? tg_tour_crosstable_text(t, 0) : NULL;
    json_t *corr = json_array();
    for (int i = 0; i < t->correction_count; i++) {
        char from[24], to[24];
        const tg_tour_correction *c = &t->corrections[i];
        json_array_append_new(corr, json_pack("{s:i, s:i, s:s, s:s, s:s}", "round", c->round, "board", c->board,
                                              "from", tg_tour_result_text(&c->from, from, sizeof from), "to",
                                              tg_tour_result_text(&c->to, to, sizeof to), "note", c->note));
    }
    json_object_set_new(o, "players_list", players);
    json_object_set_new(o, "rounds_list", rounds);
    json_object_set_new(o, "tiebreaks", tbnames);
    json_object_set_new(o, "standings", standings);
    json_object_set_new(o, "corrections", corr);
    json_object_set_new(o, "crosstable", cross ? json_string(cross) : json_null());
    json_object_set_new(o, "organiser_id", json_integer(x->organiser));
    json_object_set_new(o, "rated", json_boolean(x->rated));
    json_object_set_new(o, "version", json_integer(x->version));
    json_object_set_new(o, "registration_until", json_integer(x->registration_until));
    free(cross);
    return o;
}

json_t *tournament_list(server *s)
{
    json_t *a = json_array();
    if (!s->tours)
        return a;
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->tours->by_id, &i, &id, &v);) {
        tour *x = v;
        if (x->t)
            json_array_append_new(a, tour_summary(x));
    }
    return a;
}

char *tournament_export(server *s, int64_t id, const char *what, const char **content_type, uint64_t *dep)
{
    tour *x = tour_get(s, id);
    if (!x || !x->t)
        return NULL;
    *dep = x->dep;
    if (!strcmp(what, "standings.html")) {
        *content_type = "text/html; charset=utf-8";
        return tg_tour_standings_html(x->t, 0);
    }
    if (!strcmp(what, "opengotha.xml")) {
        *content_type = "application/xml; charset=utf-8";
        return tg_tour_to_opengotha(x->t);
    }
    if (!strcmp(what, "egf.txt")) {
        *content_type = "text/plain; charset=utf-8";
        return tg_tour_to_egf(x->t);
    }
    if (!strcmp(what, "aga.txt")) {
        *content_type = "text/plain; charset=utf-8";
        return tg_tour_to_aga(x->t);
    }
    if (!strcmp(what, "tournament.json")) {
        *content_type = "application/json";
        return tg_tour_to_json(x->t);
    }
    return NULL;
}

/* ---- requests ---------------------------------------------------------------------- */

static bool parse_system(const char *text, tg_tour_system *out)
{
    if (!text || !strcmp(text, "mcmahon"))
        *out = TG_SYSTEM_MCMAHON;
    else if (!strcmp(text, "swiss"))
        *out = TG_SYSTEM_SWISS;
    else if (!strcmp(text, "round-robin"))
        *out = TG_SYSTEM_ROUND_ROBIN;
    else
        return false;
    return true;
}

static int open_count(server *s, int64_t organiser)
{
    int n = 0;
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->tours->by_id, &i, &id, &v);) {
        tour *x = v;
        if (x->t && strcmp(tour_state(x), "finished") != 0 && (!organiser || x->organiser == organiser))
            n++;
    }
    return n;
}

/* {"name", "system", "rounds", "bar", "floor", "handicap": "none|mcmahon|rank",
 *  "max_handicap", "rated", "games": {size, rules, komi, time, absence_s}} */
static void create(server *s, client *c, const proto_request *rq)
{
    json_t *o = rq->settings;
    const char *name = json_string_value(json_object_get(o, "name"));
    const char *system = json_string_value(json_object_get(o, "system"));
    json_t *rounds = json_object_get(o, "rounds"), *games = json_object_get(o, "games");
    char err[200];
    tg_tour_settings st;
    tg_tour_system sys;
    if (!json_is_object(o) || !name || !name[0] || strlen(name) >= sizeof st.name)
        return send_error(c, rq, "bad_request", "settings.name: a name of 1..127 bytes");
    if (!parse_system(system, &sys))
        return send_error(c, rq, "bad_request", "settings.system: mcmahon, swiss or round-robin");
    if (rounds && (!json_is_integer(rounds) || json_integer_value(rounds) < 1 ||
                   json_integer_value(rounds) > TOUR_ROUNDS))
        return send_error(c, rq, "bad_request", "settings.rounds: 1..20");
    if (games && !json_is_object(games))
        return send_error(c, rq, "bad_request", "settings.games: the settings of its games");
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v)
        if (strcmp(key, "name") && strcmp(key, "system") && strcmp(key, "rounds") && strcmp(key, "bar") &&
            strcmp(key, "floor") && strcmp(key, "handicap") && strcmp(key, "max_handicap") &&
            strcmp(key, "rated") && strcmp(key, "games") && strcmp(key, "registration_until")) {
            snprintf(err, sizeof err, "settings.%.40s: unknown", key);
            return send_error(c, rq, "bad_request", err);
        }
    /* the games' settings, as a challenge's (colours come from the pairing) */
    json_t *gs = games ? json_deep_copy(games) : json_object();
    room_settings rs;
    if (!gs || json_object_get(gs, "color") || json_object_get(gs, "handicap")) {
        json_decref(gs);
        return send_error(c, rq, "bad_request", "settings.games: colours and handicaps come from the pairing");
    }
    if (!room_settings_from_json(gs, &rs, err, sizeof err)) {
        json_decref(gs);
        return send_error(c, rq, "bad_request", err);
    }
    if (rs.rules.free_opening) {
        json_decref(gs);
        return send_error(c, rq, "bad_request", "a tournament of the free-opening ruleset is not offered yet");
    }
    tg_tour_settings_default(&st, sys);
    snprintf(st.name, sizeof st.name, "%s", name);
    st.rounds = rounds ? (int)json_integer_value(rounds) : 3;
    st.komi2 = rs.rules.komi2;
    st.jigo_allowed = rs.rules.komi2 % 2 == 0;
    const char *bar = json_string_value(json_object_get(o, "bar")),
               *floor = json_string_value(json_object_get(o, "floor")),
               *hc = json_string_value(json_object_get(o, "handicap"));
    if ((bar && tg_rank_parse(bar, &st.bar) != TG_OK) || (floor && tg_rank_parse(floor, &st.floor) != TG_OK) ||
        st.floor > st.bar) {
        json_decref(gs);
        return send_error(c, rq, "bad_request", "settings.bar and floor: ranks such as 3d and 20k, bar above floor");
    }
    if (hc) {
        if (!strcmp(hc, "none"))
            st.handicap = TG_HANDICAP_NONE;
        else if (!strcmp(hc, "mcmahon"))
            st.handicap = TG_HANDICAP_MCMAHON;
        else if (!strcmp(hc, "rank"))
            st.handicap = TG_HANDICAP_RANK;
        else {
            json_decref(gs);
            return send_error(c, rq, "bad_request", "settings.handicap: none, mcmahon or rank");
        }
    }
    json_t *mh = json_object_get(o, "max_handicap");
    if (mh) {
        if (!json_is_integer(mh) || json_integer_value(mh) < 0 || json_integer_value(mh) > 9) {
            json_decref(gs);
            return send_error(c, rq, "bad_request", "settings.max_handicap: 0..9");
        }
        st.max_handicap = (int)json_integer_value(mh);
    }
    json_t *rated = json_object_get(o, "rated"), *until = json_object_get(o, "registration_until");
    if (rated && !json_is_boolean(rated)) {
        json_decref(gs);
        return send_error(c, rq, "bad_request", "settings.rated: true or false");
    }
    if (until && (!json_is_integer(until) || json_integer_value(until) <= server_unix_ms())) {
        json_decref(gs);
        return send_error(c, rq, "bad_request", "settings.registration_until: a time to come (unix ms)");
    }
    if (open_count(s, 0) >= TOUR_OPEN || open_count(s, c->user) >= TOUR_PER_ORGANISER) {
        json_decref(gs);
        return send_error(c, rq, "limit", "too many tournaments under way: finish one first");
    }
    /* the lots: from the system's random source, recorded in the file */
    randombytes_buf(&st.seed, sizeof st.seed);
    tour *x = calloc(1, sizeof *x);
    int64_t id = 0;
    if (!x || !(x->t = tg_tour_new(&st))) {
        free(x);
        json_decref(gs);
        return send_error(c, rq, "internal", "out of memory");
    }
    x->organiser = c->user;
    snprintf(x->organiser_name, sizeof x->organiser_name, "%s", c->name);
    x->created_unix_ms = server_unix_ms();
    x->games = room_settings_to_json(&rs);
    json_decref(gs);
    json_object_del(x->games, "color");
    json_object_del(x->games, "handicap");
    json_object_del(x->games, "handicap_placement");
    x->rated = !rated || json_is_true(rated);
    x->registration_until = until ? json_integer_value(until) : 0;
    if (!x->rated)
        json_object_set_new(x->games, "rated", json_false());
    else
        json_object_del(x->games, "rated");
    /* the next number: on several nodes two may take one at once, and the
     * version check keeps the first (the other is told nothing was kept) */
    id = ++s->tours->last_id;
    x->id = id;
    if (!imap_put(&s->tours->by_id, id, x) || !tour_write(s, x)) {
        imap_del(&s->tours->by_id, id);
        tour_free(s, x);
        return send_error(c, rq, "internal", "out of memory");
    }
    reply_ok(c, rq, json_pack("{s:I}", "tournament", (json_int_t)id), x->dep);
}

/* The tournament a request names, usable now; NULL when refused (answered). */
static tour *named(server *s, client *c, const proto_request *rq, bool organiser)
{
    tour *x = tour_get(s, rq->tournament);
    if (x && x->loading) {
        /* another node changed it: the request waits for the read, then is
         * judged on the tournament as it is (one made elsewhere included) */
        if (x->wait.nparked < 256 && waiting_park(&x->wait, c, rq))
            return NULL;
        send_error(c, rq, "unavailable", "the tournament is being read again: try again");
        return NULL;
    }
    if (!x || !x->t) {
        send_error(c, rq, "not_found", "no such tournament");
        return NULL;
    }
    if (organiser && x->organiser != c->user) {
        send_error(c, rq, "forbidden", "only the organiser may do that");
        return NULL;
    }
    return x;
}

static int player_of(const tour *x, int64_t user)
{
    for (int i = 0; i < x->nusers; i++)
        if (x->users[i] == user)
            return i;
    return -1;
}

/* Adds a player (the account user, or an engine when user is 0); the
 * answer is sent. */
static void add_player(server *s, client *c, const proto_request *rq, tour *x, tg_tour_player *p, int64_t user,
                       const engine_spec *engine)
{
    char err[200];
    if (!grow_array((void **)&x->users, &x->users_cap, x->nusers, sizeof *x->users) ||
        !grow_array((void **)&x->engines, &x->engines_cap, x->nusers, sizeof *x->engines))
        return send_error(c, rq, "internal", "out of memory");
    int id;
    if (tg_tour_add_player(x->t, p, &id, err, sizeof err) != TG_OK)
        return send_error(c, rq, "bad_request", err);
    x->users[x->nusers] = user;
    x->engines[x->nusers] = *engine;
    x->nusers++;
    if (!tour_write(s, x))
        return send_error(c, rq, "internal", "out of memory");
    reply_ok(c, rq, json_pack("{s:i}", "player", id), x->dep);
}

/* The organiser enters an engine of the server's table (--engine). */
static void join_engine(server *s, client *c, const proto_request *rq, tour *x)
{
    if (x->organiser != c->user)
        return send_error(c, rq, "forbidden", "only the organiser enters engines");
    if (!engine_known(s, rq->engine))
        return send_error(c, rq, "bad_request", "engine: not one this server offers");
    if (rq->playouts < 0 || rq->playouts > 100000)
        return send_error(c, rq, "bad_request", "playouts: 1..100000");
    tg_tour_player p;
    memset(&p, 0, sizeof p);
    if (!rq->rank || tg_rank_parse(rq->rank, &p.rank) != TG_OK)
        return send_error(c, rq, "bad_request", "rank: the engine's, such as 5k or 2d");
    /* "tengen", then "tengen-2" ...: names are unique in a tournament */
    snprintf(p.name, sizeof p.name, "%s", rq->engine);
    for (int k = 2; tg_tour_find_player(x->t, p.name) >= 0 && k < 1000; k++)
        snprintf(p.name, sizeof p.name, "%.100s-%d", rq->engine, k);
    p.rating = 1500;
    p.deviation = 350;
    p.volatility = 0.06;
    engine_spec e;
    memset(&e, 0, sizeof e);
    snprintf(e.name, sizeof e.name, "%s", rq->engine);
    e.playouts = rq->playouts ? rq->playouts : 1000;
    add_player(s, c, rq, x, &p, 0, &e);
}

static void join(server *s, client *c, const proto_request *rq)
{
    tour *x = named(s, c, rq, false);
    if (!x)
        return;
    if (c->guest)
        return send_error(c, rq, "forbidden", "guests cannot register: make an account");
    if (!strcmp(tour_state(x), "finished"))
        return send_error(c, rq, "wrong_phase", "the tournament is over");
    if (x->t->player_count >= TOUR_PLAYERS)
        return send_error(c, rq, "limit", "the tournament is full");
    if (rq->engine)
        return join_engine(s, c, rq, x);
    if (x->registration_until && server_unix_ms() > x->registration_until && c->user != x->organiser)
        return send_error(c, rq, "wrong_phase", "registration is closed: ask the organiser");
    int me = player_of(x, c->user);
    if (me >= 0) {
        tg_tour_player *p = &x->t->players[me];
        if (!p->withdrawn_round)
            return send_error(c, rq, "bad_request", "already registered");
        /* back after withdrawing: paired again from the next round */
        p->withdrawn_round = 0;
        for (int r = 0; r < x->t->round_count; r++)
            if (!tg_tour_present(x->t, me, r + 1))
                p->skipped |= (uint64_t)1 << r;
        if (!tour_write(s, x))
            return send_error(c, rq, "internal", "out of memory");
        return reply_ok(c, rq, json_pack("{s:i}", "player", me), x->dep);
    }
    tg_tour_player p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", c->name);
    account *a = account_of(s, c->user);
    p.rating = a && a->rating_known ? a->rating.rating : 1500;
    p.deviation = a && a->rating_known ? a->rating.deviation : 350;
    p.volatility = a && a->rating_known ? a->rating.volatility : 0.06;
    if (rq->rank) {
        if (tg_rank_parse(rq->rank, &p.rank) != TG_OK)
            return send_error(c, rq, "bad_request", "rank: such as 5k or 2d");
    } else if (a && a->rating_known && a->rating.deviation < TG_GLICKO_PROVISIONAL_DEVIATION) {
        p.rank = tg_glicko_rank(a->rating.rating);
    } else {
        return send_error(c, rq, "bad_request", "give your rank (such as 5k or 2d): your rating is not yet established");
    }
    engine_spec none;
    memset(&none, 0, sizeof none);
    add_player(s, c, rq, x, &p, c->user, &none);
}

static void leave(server *s, client *c, const proto_request *rq)
{
    tour *x = named(s, c, rq, false);
    if (!x)
        return;
    int me = player_of(x, c->user);
    if (me < 0 || x->t->players[me].withdrawn_round)
        return send_error(c, rq, "bad_request", "not registered");
    char err[200];
    /* a round paired but not begun is paired again without the player by
     * the organiser; one begun is played out (or lost by absence) */
    int from = x->t->round_count + 1;
    if (x->t->round_count && !x->started[x->t->round_count - 1])
        from = x->t->round_count;
    if (tg_tour_withdraw(x->t, me, from, err, sizeof err) != TG_OK)
        return send_error(c, rq, "bad_request", err);
    if (!tour_write(s, x))
        return send_error(c, rq, "internal", "out of memory");
    reply_ok(c, rq, NULL, x->dep);
}

/* The organiser's own pairing: pairs [[black, white]...] and byes [name...]
 * by the players' names; everyone else present sits the round out. */
static tg_status pair_by_hand(tour *x, int round, const proto_request *rq, char *err, size_t errlen)
{
    size_t np = json_array_size(rq->pairs), nb = json_array_size(rq->byes);
    if ((rq->pairs && !json_is_array(rq->pairs)) || (rq->byes && !json_is_array(rq->byes)) ||
        np > (size_t)x->t->player_count || nb > (size_t)x->t->player_count) {
        snprintf(err, errlen, "pairs: [[black, white]...] and byes: [name...] by the players' names");
        return TG_ERR_INVALID;
    }
    int (*pairs)[2] = calloc(np + 1, sizeof *pairs);
    int *byes = calloc(nb + 1, sizeof *byes);
    tg_status st = pairs && byes ? TG_OK : TG_ERR_NO_MEMORY;
    for (size_t i = 0; st == TG_OK && i < np; i++) {
        json_t *p = json_array_get(rq->pairs, i);
        const char *b = json_string_value(json_array_get(p, 0)), *w = json_string_value(json_array_get(p, 1));
        pairs[i][0] = b ? tg_tour_find_player(x->t, b) : -1;
        pairs[i][1] = w ? tg_tour_find_player(x->t, w) : -1;
        if (!json_is_array(p) || json_array_size(p) != 2 || pairs[i][0] < 0 || pairs[i][1] < 0) {
            snprintf(err, errlen, "pairs[%zu]: two players' names", i);
            st = TG_ERR_INVALID;
        }
    }
    for (size_t i = 0; st == TG_OK && i < nb; i++) {
        const char *name = json_string_value(json_array_get(rq->byes, i));
        if ((byes[i] = name ? tg_tour_find_player(x->t, name) : -1) < 0) {
            snprintf(err, errlen, "byes[%zu]: a player's name", i);
            st = TG_ERR_INVALID;
        }
    }
    if (st == TG_OK)
        st = tg_tour_pair_manual(x->t, round, (const int(*)[2])pairs, (int)np, byes, (int)nb, err, errlen);
    free(pairs);
    free(byes);
    return st;
}

static void pair(server *s, client *c, const proto_request *rq)
{
    tour *x = named(s, c, rq, true);
    if (!x)
        return;
    char err[200];
    int n = x->t->round_count;
    bool unpaired = false;
    if (n && !x->started[n - 1]) { /* paired again before it begins */
        if (tg_tour_unpair(x->t, n, err, sizeof err) != TG_OK)
            return send_error(c, rq, "bad_request", err);
        free(x->boards[n - 1]);
        x->boards[n - 1] = NULL;
        x->nboards[n - 1] = 0;
        unpaired = true;
        n--;
    } else if (n >= x->t->settings.rounds) {
        return send_error(c, rq, "wrong_phase", "every round is paired");
    }
    tg_pair_options po = {rq->by_lot};
    if ((rq->pairs || rq->byes) ? pair_by_hand(x, n + 1, rq, err, sizeof err) != TG_OK
                                : tg_tour_pair(x->t, n + 1, &po, err, sizeof err) != TG_OK) {
        char why[240];
        snprintf(why, sizeof why, "cannot pair round %d: %s", n + 1, err);
        if (unpaired) /* the pairing stored stands: read it again */
            tournament_reread(s, x->id);
        return send_error(c, rq, "wrong_phase", why);
    }
    if (!tour_write(s, x))
        return send_error(c, rq, "internal", "out of memory");
    reply_ok(c, rq, json_pack("{s:i}", "round", n + 1), x->dep);
}

/* The last paired round's games begin now, clocks running: every board
 * without a game gets one (so that a start cut short by a failure is
 * finished by starting again).  The number made, or -1 with err. */
static int start_round(server *s, tour *x, char *err, size_t errlen)
{
    int n = x->t->round_count;
    tg_tour_round *rd = &x->t->rounds[n - 1];
    if (x->nboards[n - 1] < rd->game_count) {
        int64_t *boards = realloc(x->boards[n - 1], (size_t)rd->game_count * sizeof *boards);
        if (!boards) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        for (int k = x->nboards[n - 1]; k < rd->game_count; k++)
            boards[k] = 0;
        x->boards[n - 1] = boards;
        x->nboards[n - 1] = rd->game_count;
    }
    int made = 0;
    for (int k = 0; k < rd->game_count; k++) {
        tg_tour_game *g = &rd->games[k];
        if (g->result.outcome != TG_OUTCOME_NONE || x->boards[n - 1][g->board - 1])
            continue; /* entered beforehand (a forfeit), or made already */
        json_t *gs = json_deep_copy(x->games);
        json_object_set_new(gs, "komi", json_real(g->komi2 / 2.0));
        if (g->handicap >= 2)
            json_object_set_new(gs, "handicap", json_integer(g->handicap));
        room_settings rs;
        bool ok = gs && room_settings_from_json(gs, &rs, err, errlen);
        json_decref(gs);
        engine_spec e[3];
        memset(e, 0, sizeof e);
        e[TG_BLACK] = x->engines[g->black];
        e[TG_WHITE] = x->engines[g->white];
        int64_t link[3] = {x->id, n, g->board};
        live *lv = ok ? game_start_for(s, &rs, x->users[g->black], player_name(x, g->black), x->users[g->white],
                                       player_name(x, g->white), "", e, NULL, link, err, errlen)
                      : NULL;
        if (!lv) {
            fprintf(stderr, "tengen serve: tournament %lld round %d board %d: %s\n", (long long)x->id, n,
                    g->board, err);
            if (!made)
                return -1;
            break; /* the boards made are written; a start again makes the rest */
        }
        x->boards[n - 1][g->board - 1] = lv->r->id;
        batch_game_needs_doc(s, lv->r->id, x->id);
        made++;
    }
    if (!x->started[n - 1])
        x->started[n - 1] = server_unix_ms();
    x->start_at[n - 1] = 0;
    return made;
}

/* Start the last paired round now, or at a time ("at", unix ms). */
static void start(server *s, client *c, const proto_request *rq)
{
    tour *x = named(s, c, rq, true);
    if (!x)
        return;
    int n = x->t->round_count;
    if (!n)
        return send_error(c, rq, "wrong_phase", "pair the next round first");
    bool missing = false;
    for (int k = 0; k < x->t->rounds[n - 1].game_count; k++) {
        tg_tour_game *g = &x->t->rounds[n - 1].games[k];
        missing |= g->result.outcome == TG_OUTCOME_NONE &&
                   (g->board > x->nboards[n - 1] || !x->boards[n - 1][g->board - 1]);
    }
    if (x->started[n - 1] && !missing)
        return send_error(c, rq, "wrong_phase", "the round has begun: pair the next one first");
    int64_t now = server_unix_ms();
    if (rq->at > now && !x->started[n - 1]) {
        if (rq->at > now + 30LL * 86400 * 1000)
            return send_error(c, rq, "bad_request", "at: within 30 days");
        x->start_at[n - 1] = rq->at;
        if (!tour_write(s, x))
            return send_error(c, rq, "internal", "out of memory");
        schedule_starts(s);
        return reply_ok(c, rq, json_pack("{s:i, s:I}", "round", n, "at", (json_int_t)rq->at), x->dep);
    }
    char err[200];
    int made = start_round(s, x, err, sizeof err);
    if (made < 0)
        return send_error(c, rq, "internal", err);
    if (!tour_write(s, x))
        return send_error(c, rq, "internal", "out of memory");
    reply_ok(c, rq, json_pack("{s:i, s:i}", "round", n, "games", made), x->dep);
}

/* Rounds whose time has come begin (this node: the tournament's home,
 * the node that holds its organiser's request... any node may; the
 * version check keeps one). */
static void on_start_timer(void *arg)
{
    server *s = arg;
    int64_t now = server_unix_ms(), id;
    void *v;
    for (size_t i = 0; imap_next(&s->tours->by_id, &i, &id, &v);) {
        tour *x = v;
        int n = x->t && !x->loading ? x->t->round_count : 0;
        if (!n || !x->start_at[n - 1] || x->start_at[n - 1] > now || x->started[n - 1])
            continue;
        char err[200];
        if (start_round(s, x, err, sizeof err) < 0 || !tour_write(s, x))
            x->start_at[n - 1] = now + 5000; /* tried again shortly */
    }
    schedule_starts(s);
}

static void schedule_starts(server *s)
{
    if (!s->tours)
        return;
    if (!s->tours->timer && !(s->tours->timer = net_timer_new(s->net, on_start_timer, s)))
        return;
    int64_t next = INT64_MAX, now = server_unix_ms(), id;
    void *v;
    for (size_t i = 0; imap_next(&s->tours->by_id, &i, &id, &v);) {
        tour *x = v;
        int n = x->t ? x->t->round_count : 0;
        if (n && x->start_at[n - 1] && !x->started[n - 1] && x->start_at[n - 1] < next)
            next = x->start_at[n - 1];
    }
    if (next != INT64_MAX)
        net_timer_set(s->tours->timer, next > now ? next - now : 0);
}


static void result(server *s, client *c, const proto_request *rq)
{
    tour *x = named(s, c, rq, true);
    if (!x)
        return;
    tg_tour_result res;
    char err[200];
    if (!rq->result || tg_tour_result_parse(rq->result, &res) != TG_OK)
        return send_error(c, rq, "bad_request",
                          "result: B+R, W+T, B+F, W+L (absent), B+A (adjudicated), B+7.5, jigo, both-lose, replay");
    if (rq->round < 1 || rq->round > x->t->round_count || !x->started[rq->round - 1])
        return send_error(c, rq, "bad_request", "round: one that has begun");
    if (tg_tour_set_result(x->t, (int)rq->round, (int)rq->board, &res, rq->note ? rq->note : "", err,
                           sizeof err) != TG_OK)
        return send_error(c, rq, "bad_request", err);
    if (!tour_write(s, x))
        return send_error(c, rq, "internal", "out of memory");
    /* a ruling on a game still under way ends it (the referee's decision):
     * the record says so, and its end leaves the entered result */
    int r = (int)rq->round - 1, b = (int)rq->board - 1;
    live *lv = b >= 0 && b < x->nboards[r] && x->boards[r][b] ? live_get(s, x->boards[r][b]) : NULL;
    if (lv && lv->r->phase != ROOM_OVER && !lv->recovering) {
        room_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = EV_RULING;
        ev.color = res.outcome == TG_OUTCOME_BLACK_WINS ? TG_BLACK
                   : res.outcome == TG_OUTCOME_WHITE_WINS ? TG_WHITE : TG_EMPTY;
        snprintf(ev.text, sizeof ev.text, "%s", rq->note ? rq->note : "");
        room_result rr;
        game_commit_and_announce(s, lv, &ev, &rr);
    }
    reply_ok(c, rq, NULL, x->dep);
}

void tournament_handle(server *s, client *c, const proto_request *rq)
{
    if (!T(s))
        return send_error(c, rq, "internal", "out of memory");
    if (c->guest && rq->type == P_TOUR_CREATE)
        return send_error(c, rq, "forbidden", "guests cannot organise: make an account");
    s->tours->asking = c;
    s->tours->rq = rq;
    switch (rq->type) {
    case P_TOUR_CREATE: create(s, c, rq); break;
    case P_TOUR_JOIN: join(s, c, rq); break;
    case P_TOUR_LEAVE: leave(s, c, rq); break;
    case P_TOUR_PAIR: pair(s, c, rq); break;
    case P_TOUR_START: start(s, c, rq); break;
    case P_TOUR_RESULT: result(s, c, rq); break;
    default: send_error(c, rq, "bad_request", "unknown tournament request");
    }
    s->tours->asking = NULL;
    s->tours->rq = NULL;
}

void tournament_durable(server *s, int64_t id, uint64_t epoch)
{
    tour *x = tour_get(s, id);
    if (x)
        waiting_asks_clear(&x->wait, epoch);
}

void tournament_failed(server *s, int64_t id)
{
    tour *x = tour_get(s, id);
    if (x)
        waiting_asks_clear(&x->wait, UINT64_MAX); /* their fallbacks told them */
    tournament_reread(s, id);
}

void tournament_lost(server *s, int64_t id, uint64_t epoch)
{
    tour *x = tour_get(s, id);
    if (!x)
        return;
    /* the requests whose answers were dropped wait for the read, in order,
     * first in their clients' inboxes */
    waiting_park_lost(s, &x->wait, epoch);
    tournament_reread(s, id);
}

/* ---- a game ends ------------------------------------------------------------------- */

/* The result as the tournament counts it. */
static tg_tour_result tour_result_of(const room *r)
{
    tg_result g = *tg_game_result(r->game);
    tg_tour_result t = {TG_OUTCOME_REPLAY, TG_REASON_UNSTATED, 0};
    if (g.kind == TG_RESULT_NO_RESULT) {
        if (!strcmp(r->reason, "absence")) /* both absent: both lose (双负, T3) */
            t = (tg_tour_result){TG_OUTCOME_BOTH_LOSE, TG_REASON_ABSENCE, 0};
        return t; /* a cycle, a cancelled game: to be replayed */
    }
    if (g.winner == TG_EMPTY) {
        t.outcome = TG_OUTCOME_JIGO;
        return t;
    }
    t.outcome = g.winner == TG_BLACK ? TG_OUTCOME_BLACK_WINS : TG_OUTCOME_WHITE_WINS;
    switch (g.kind) {
    case TG_RESULT_SCORE:
        t.reason = TG_REASON_SCORE;
        t.margin2 = g.margin4 / 2;
        break;
    case TG_RESULT_RESIGN: t.reason = TG_REASON_RESIGNATION; break;
    case TG_RESULT_TIME: t.reason = TG_REASON_TIME; break;
    default:
        t.reason = !strcmp(r->reason, "absence") || !strcmp(r->reason, "claim") ? TG_REASON_ABSENCE
                                                                                 : TG_REASON_FORFEIT;
    }
    return t;
}

/* After being read again: games that ended meanwhile give their results. */
static bool catch_up(server *s, tour *x)
{
    bool changed = false;
    for (int r = 0; r < x->t->round_count; r++) {
        tg_tour_round *rd = &x->t->rounds[r];
        for (int k = 0; k < rd->game_count; k++) {
            tg_tour_game *g = &rd->games[k];
            live *lv = g->board - 1 < x->nboards[r] ? live_get(s, x->boards[r][g->board - 1]) : NULL;
            if (g->result.outcome != TG_OUTCOME_NONE || !lv || lv->r->phase != ROOM_OVER)
                continue;
            tg_tour_result res = tour_result_of(lv->r);
            char err[200];
            if (res.outcome == TG_OUTCOME_JIGO && !x->t->settings.jigo_allowed)
                res.outcome = TG_OUTCOME_REPLAY;
            changed |= tg_tour_set_result(x->t, r + 1, g->board, &res, "", err, sizeof err) == TG_OK;
        }
    }
    if (!changed)
        return true;
    return tour_write(s, x);
}

void tournaments_reread_all(server *s)
{
    if (!s->tours)
        return;
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->tours->by_id, &i, &id, &v);)
        tournament_reread(s, id);
}

bool tournament_game_over(server *s, live *lv)
{
    room *r = lv->r;
    tour *x = r->tour ? tour_get(s, r->tour) : NULL;
    if (!x || !x->t || r->tour_round < 1 || r->tour_round > x->t->round_count)
        return true;
    if (x->loading) /* the result is taken once it is read (catch_up) */
        return true;
    tg_tour_round *rd = &x->t->rounds[r->tour_round - 1];
    for (int k = 0; k < rd->game_count; k++) {
        tg_tour_game *g = &rd->games[k];
        if (g->board != r->tour_board)
            continue;
        if (g->result.outcome != TG_OUTCOME_NONE) /* the organiser's entry stands */
            return true;
        tg_tour_result res = tour_result_of(r);
        if (res.outcome == TG_OUTCOME_JIGO && !x->t->settings.jigo_allowed)
            res.outcome = TG_OUTCOME_REPLAY;
        char err[200];
        if (tg_tour_set_result(x->t, r->tour_round, g->board, &res, "", err, sizeof err) != TG_OK) {
            fprintf(stderr, "tengen serve: tournament %lld: %s\n", (long long)x->id, err);
            return true;
        }
        return tour_write(s, x);
    }
    return true;
}

/* ---- the writer thread ------------------------------------------------------------- */

int tournament_doc_check(store *db, const write_op *op, bool *lost)
{
    char *body = NULL;
    int rc = db->ops->doc_get(db, op->doc_kind, op->doc_id, true, &body, NULL);
    if (rc < 0)
        return -1;
    int64_t stored = 0;
    if (rc == 0) {
        json_error_t e;
        json_t *b = json_loads(body, 0, &e);
        stored = json_integer_value(json_object_get(b, "version"));
        json_decref(b);
    }
    free(body);
    /* this node's change follows the version it had: another node's
     * write in between wins */
    *lost = stored != op->doc_version - 1;
    return 0;
}
