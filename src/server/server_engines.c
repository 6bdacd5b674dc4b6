/*
 * server_engines.c — the engines of live games: an engine is a name in the
 * running server's table (--engine) and a strength, never a stored command
 * line; a position is sent whole to the engine pool (engines.h) when it is
 * an engine's turn, and its answer comes back as an event like a person's.
 * A game whose engine is no longer offered waits, adjourned.
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/gtp.h"

/* ---- engines ------------------------------------------------------------------ */

bool engine_known(server *s, const char *name)
{
    if (!strcmp(name, "tengen"))
        return true;
    for (int i = 0; i < s->cfg.extra_count; i++)
        if (!strcmp(name, s->cfg.extra[i].name))
            return true;
    return false;
}

/* The command line of an engine of the running server's table. */
static bool engine_command(server *s, const engine_spec *e, char *buf, size_t len)
{
    if (!strcmp(e->name, "tengen")) {
        if (e->seconds > 0)
            snprintf(buf, len, "%s gtp --time-per-move %.3f --max-memory 128", s->cfg.tengen_command,
                     e->seconds);
        else
            snprintf(buf, len, "%s gtp --playouts %lld --max-memory 128", s->cfg.tengen_command,
                     (long long)(e->playouts > 0 ? e->playouts : 1000));
        return true;
    }
    for (int i = 0; i < s->cfg.extra_count; i++)
        if (!strcmp(e->name, s->cfg.extra[i].name)) {
            snprintf(buf, len, "%s", s->cfg.extra[i].command);
            return true;
        }
    return false;
}

static char *engine_setup(const room *r, bool tengen)
{
    const tg_board *b = tg_game_board(r->game);
    size_t cap = 256 + 32 * (size_t)(tg_game_move_count(r->game) + tg_game_setup_count(r->game));
    char *text = malloc(cap + sizeof r->settings.rules_text);
    if (!text)
        return NULL;
    char komi[16];
    /* the komi in force (under free-opening the threshold's), after the
     * rules, whose preset would set its own */
    tg_komi_format(tg_game_rules(r->game)->komi2, komi, sizeof komi);
    size_t n = (size_t)sprintf(text, "boardsize %d\nclear_board\n", b->size);
    if (tengen)
        n += (size_t)sprintf(text + n, "tengen-rules %s\n", r->settings.rules_text);
    n += (size_t)sprintf(text + n, "komi %s\n", komi);
    if (tengen && room_revealed(r)) {
        char first[16], second[16];
        tg_prediction_format(r->prediction2[0], first, sizeof first);
        tg_prediction_format(r->prediction2[1], second, sizeof second);
        n += (size_t)sprintf(text + n, "tengen-predictions %s %s\n", first, second);
    }
    if (tg_game_setup_count(r->game) > 0) {
        n += (size_t)sprintf(text + n, "set_free_handicap");
        for (int i = 0; i < tg_game_setup_count(r->game); i++) {
            char v[8];
            tg_point_to_vertex(b, tg_game_setup_at(r->game, i)->point, v);
            n += (size_t)sprintf(text + n, " %s", v);
        }
        text[n++] = '\n';
    }
    for (int i = 0; i < tg_game_move_count(r->game); i++) {
        const tg_move *m = tg_game_move(r->game, i);
        tg_gtp_move_command(b, m->color, m->point,
                            tg_game_move_captured_own(r->game, i) ? TG_PLAY_CAPTURE_OWN : 0,
                            text + n, 32);
        n += strlen(text + n);
        text[n++] = '\n';
    }
    text[n] = '\0';
    return text;
}

/* The game waits, untimed, for its engine to be offered again. */
static void adjourn(server *s, live *lv, const char *name)
{
    snprintf(lv->adjourned, sizeof lv->adjourned,
             "the engine '%s' is not offered by this server now: the game is adjourned until it is",
             name);
    fprintf(stderr, "tengen serve: game %lld: %s\n", (long long)lv->r->id, lv->adjourned);
    schedule(s, lv);
    broadcast_state(lv);
}

void ask_engine(server *s, live *lv)
{
    room *r = lv->r;
    if (lv->recovering || lv->adjourned[0] || !nodes_may_ask_engine(s, lv))
        return;
    if (r->phase == ROOM_PLACEMENT && r->engine[TG_BLACK][0]) {
        /* an engine places free handicap stones where fixed ones go */
        room_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = EV_PLACE;
        ev.color = TG_BLACK;
        ev.npoints = tg_fixed_handicap_points(tg_game_board(r->game), r->settings.handicap,
                                              ev.points);
        room_result res;
        commit(s, lv, &ev, game_now(lv), &res);
        if (!res.code)
            announce(s, lv, &res);
        return;
    }
    tg_color c = room_engine_to_move(r);
    if (c == TG_EMPTY || s->stopping)
        return;
    if (lv->engine_job) {
        /* one job a game at a time: the one asked at this position is
         * awaited; one asked before the position changed (a move from
         * another node, a rebuild) is taken back while it still waits
         * in the queue, else its answer, dropped, asks again.  Asking
         * beside it instead filled the queue with stale searches that
         * each asked once more when they came back. */
        if (lv->engine_epoch == lv->epoch || !engine_pool_cancel(s->engines, lv->engine_job))
            return;
        lv->engine_job = 0;
    }
    engine_job *job = calloc(1, sizeof *job);
    if (!job)
        return;
    if (!engine_command(s, &lv->engine[c], job->command, sizeof job->command)) {
        free(job);
        return adjourn(s, lv, lv->engine[c].name[0] ? lv->engine[c].name : r->engine[c]);
    }
    job->id = ++s->engine_jobs;
    job->game = r->id;
    job->epoch = lv->epoch;
    snprintf(job->name, sizeof job->name, "%s", r->engine[c]);
    bool tengen = strcmp(lv->engine[c].name, "tengen") == 0;
    job->setup = engine_setup(r, tengen);
    job->predict = room_engine_predicts(r);
    if (job->predict) /* komi 0 until the reveal: final_score is then the count difference */
        snprintf(job->genmove, sizeof job->genmove, "%s", tengen ? "tengen-predict" : "final_score");
    else /* an opening stone has the colour of its number, whoever places it; tengen
            may take the capture choice where the opponent can be told it */
        snprintf(job->genmove, sizeof job->genmove, "%s %c",
                 room_opening_placer(r) == TG_EMPTY && tg_game_rules(r->game)->capture_choice &&
                         tengen && !room_engine_lacks_choice(r, tg_opponent(c))
                     ? "tengen-genmove_choice"
                     : "genmove",
                 (room_opening_placer(r) == TG_EMPTY ? c : tg_game_to_move(r->game)) == TG_BLACK ? 'b' : 'w');
    job->timeout_ms = 180000;
    if (!job->setup || !engine_pool_submit(s->engines, job)) {
        engine_job_free(job);
        net_timer_set(lv->timer, 1000); /* the queue is full: ask again in a second */
        return;
    }
    lv->engine_job = job->id;
    lv->engine_epoch = lv->epoch;
}

/* An engine's sealed prediction: tengen-predict's answer, else the margin
 * of final_score (komi 0), else "0"; an engine that failed loses. */
static void engine_prediction(const engine_job *job, room_event *ev)
{
    ev->kind = job->ok ? EV_PREDICT : EV_RESIGN;
    if (job->ok && tg_prediction_from_engine(job->move, &ev->prediction2) != TG_OK)
        ev->prediction2 = 0;
}

/* An engine's answer as a move: a vertex, "VERTEX own" where
 * tengen-genmove_choice asked; false for resign or garbage. */
static bool engine_move(const room *r, const engine_job *job, room_event *ev)
{
    unsigned flags;
    bool choice = !strncmp(job->genmove, "tengen-genmove_choice", 21);
    if (tg_move_parse(tg_game_board(r->game), job->move, choice, &ev->point, &flags) != TG_OK)
        return false; /* resign, or not a move */
    ev->own = flags & TG_PLAY_CAPTURE_OWN;
    return true;
}

void game_engine_answers(server *s)
{
    engine_job *job;
    if (!s->engines)
        return;
    while ((job = engine_pool_done(s->engines))) {
        live *lv = live_get(s, job->game);
        bool current = lv && lv->engine_job == job->id; /* not one of a game released since */
        if (current)
            lv->engine_job = 0;
        if (!current || lv->recovering || job->epoch != lv->epoch ||
            room_engine_to_move(lv->r) == TG_EMPTY || job->predict != room_engine_predicts(lv->r)) {
            if (lv)
                ask_engine(s, lv);
            engine_job_free(job);
            continue;
        }
        room_event ev;
        memset(&ev, 0, sizeof ev);
        ev.color = room_engine_to_move(lv->r);
        ev.kind = EV_MOVE;
        if (job->predict)
            engine_prediction(job, &ev);
        else if (!job->ok || !engine_move(lv->r, job, &ev))
            ev.kind = EV_RESIGN; /* an engine that fails or resigns loses */
        int64_t at = game_now(lv);
        tick_if_due(s, lv, at);
        room_result res;
        commit(s, lv, &ev, at, &res);
        if (res.code == ROOM_ERR_ILLEGAL) { /* an illegal move from an engine forfeits */
            ev.kind = EV_RESIGN;
            commit(s, lv, &ev, at, &res);
        }
        if (!res.code)
            announce(s, lv, &res);
        engine_job_free(job);
    }
}

json_t *engine_spec_json(const engine_spec *e)
{
    if (!e->name[0])
        return json_null();
    return json_pack("{s:s, s:I, s:f}", "name", e->name, "playouts", (json_int_t)e->playouts,
                     "seconds", e->seconds);
}

/* An engine as stored: {"name", "playouts", "seconds"}; or, in games
 * stored before engines were kept by name, the command line it ran, of
 * which only the strength is read (the name is the game's). */
void engine_spec_read(const json_t *j, const char *name, engine_spec *out)
{
    memset(out, 0, sizeof *out);
    if (json_is_object(j)) {
        snprintf(out->name, sizeof out->name, "%s", json_string_value(json_object_get(j, "name")) ? json_string_value(json_object_get(j, "name")) : "");
        out->playouts = json_integer_value(json_object_get(j, "playouts"));
        out->seconds = json_number_value(json_object_get(j, "seconds"));
        return;
    }
    const char *command = json_string_value(j);
    if (!command || !command[0] || !name[0])
        return;
    snprintf(out->name, sizeof out->name, "%s", name);
    const char *p;
    if ((p = strstr(command, "--playouts ")))
        out->playouts = strtoll(p + 11, NULL, 10);
    if ((p = strstr(command, "--time-per-move ")))
        out->seconds = strtod(p + 16, NULL);
}

