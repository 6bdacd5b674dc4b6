/*
 * server_lobby.c — the lobby: open challenges (stored, so that they
 * survive a restart; shown only once stored), accepting one, games against
 * the engines, and who hears of it.  A challenge taken away (accepted,
 * cancelled, its challenger gone) leaves with the turn's batch and comes
 * back if that batch fails.
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "auth.h"

#define CHALLENGES_EACH 10
#define CHALLENGES_PER_ADDRESS 30
#define CHALLENGES_MAX 1000
#define ENGINE_GAMES_EACH 3
#define ENGINE_GAMES_PER_ADDRESS 6

static json_t *challenge_json(const challenge *ch)
{
    json_t *o = json_pack("{s:I, s:s, s:o, s:o, s:I}", "id", (json_int_t)ch->id, "challenger",
                          ch->challenger_name, "opponent",
                          ch->opponent[0] ? json_string(ch->opponent) : json_null(), "settings",
                          room_settings_to_json(&ch->settings), "created",
                          (json_int_t)ch->created_unix_ms);
    if (o && ch->rank[0])
        json_object_set_new(o, "challenger_rank", json_string(ch->rank));
    return o;
}

static json_t *engine_names(server *s)
{
    json_t *a = json_array();
    json_array_append_new(a, json_string("tengen"));
    for (int i = 0; i < s->cfg.extra_count; i++)
        json_array_append_new(a, json_string(s->cfg.extra[i].name));
    return a;
}

static void count_challenge(server *s, const challenge *ch, int delta)
{
    if (ch->remote) /* counted on its own node */
        return;
    account *a = account_of(s, ch->challenger);
    if (a)
        a->challenges += delta;
    address *ad = ch->addr ? imap_get(&s->addresses, ch->addr) : NULL;
    if (ad)
        ad->challenges += delta;
}

/* Out of the lobby, into the turn's batch (which frees it once durable). */
static bool challenge_take(server *s, challenge *ch)
{
    if (!batch_challenge_remove(s, ch))
        return false;
    imap_del(&s->challenges, ch->id);
    count_challenge(s, ch, -1);
    lobby_broadcast(s, json_pack("{s:s, s:I}", "type", "lobby.update", "challenge_removed",
                                 (json_int_t)ch->id), turn_epoch_now(s));
    return true;
}

void lobby_challenge_gone(server *s, challenge *ch)
{
    imap_del(&s->challenges, ch->id);
    count_challenge(s, ch, -1);
    lobby_broadcast(s, json_pack("{s:s, s:I}", "type", "lobby.update", "challenge_removed",
                                 (json_int_t)ch->id), 0);
    free(ch);
}

void lobby_challenge_back(server *s, challenge *ch)
{
    if (!imap_put(&s->challenges, ch->id, ch)) {
        free(ch);
        return;
    }
    count_challenge(s, ch, +1);
    lobby_broadcast(s, json_pack("{s:s, s:o}", "type", "lobby.update", "challenge",
                                 challenge_json(ch)), 0);
}

/* An account gone from the server leaves no open challenge behind. */
void lobby_drop_challenges_of(server *s, int64_t user)
{
    challenge *mine[CHALLENGES_EACH * 2];
    int n = 0;
    int64_t id;
    void *v;
    for (size_t i = 0; n < CHALLENGES_EACH * 2 && imap_next(&s->challenges, &i, &id, &v);)
        if (((challenge *)v)->challenger == user && !((challenge *)v)->remote)
            mine[n++] = v;
    for (int i = 0; i < n; i++)
        challenge_take(s, mine[i]);
}

/* ---- creating: stored first, then shown ------------------------------------------- */

typedef struct challenge_job {
    store_job job;
    int64_t client;
    bool has_id;
    int64_t id;
    challenge *ch;
    char *settings_json;
    char *note;              /* what tells the other nodes (NULL: one node) */
} challenge_job;

static int run_challenge_add(store *db, store_job *job)
{
    challenge_job *j = (challenge_job *)job;
    store_challenge sc = {j->ch->id, j->ch->challenger, "", "", j->settings_json,
                          j->ch->created_unix_ms};
    snprintf(sc.challenger_name, sizeof sc.challenger_name, "%s", j->ch->challenger_name);
    snprintf(sc.opponent, sizeof sc.opponent, "%s", j->ch->opponent);
    int rc = db->ops->challenge_add(db, &sc);
    if (rc == 0 && j->note)
        rc = db->ops->notify(db, j->note);
    return rc;
}

static void challenge_added(void *ctx, store_job *job)
{
    server *s = ctx;
    challenge_job *j = (challenge_job *)job;
    challenge *ch = j->ch;
    client *c = client_by_id(s, j->client);
    proto_request rq;
    memset(&rq, 0, sizeof rq);
    rq.has_id = j->has_id;
    rq.id = j->id;
    account *a = account_of(s, ch->challenger);
    if (job->rc != 0) {
        count_challenge(s, ch, -1);
        if (c)
            send_error(c, &rq, "internal", "the server could not store the challenge: try again later");
        free(ch);
    } else if (!imap_put(&s->challenges, ch->id, ch)) {
        count_challenge(s, ch, -1);
        free(ch);
    } else {
        if (c)
            send_ok(c, &rq, json_pack("{s:o}", "challenge", challenge_json(ch)));
        lobby_broadcast(s, json_pack("{s:s, s:o}", "type", "lobby.update", "challenge",
                                     challenge_json(ch)), 0);
        if (!a || a->connections == 0) /* its challenger left meanwhile */
            challenge_take(s, ch);
    }
    free(j->settings_json);
    free(j->note);
    free(j);
}

static void on_challenge_create(server *s, client *c, const proto_request *rq)
{
    challenge ch;
    memset(&ch, 0, sizeof ch);
    char err[200];
    if (!room_settings_from_json(rq->settings, &ch.settings, err, sizeof err))
        return send_error(c, rq, "bad_request", err);
    if (rq->opponent && (!auth_name_valid(rq->opponent) || strcmp(rq->opponent, c->name) == 0))
        return send_error(c, rq, "bad_request", "no such opponent");
    account *a = account_of(s, c->user);
    address *ad = address_of(s, c->addr);
    if (!a || !ad)
        return send_error(c, rq, "internal", "out of memory");
    if (a->challenges >= CHALLENGES_EACH)
        return send_error(c, rq, "rate_limited", "at most 10 open challenges each");
    if (ad->challenges >= CHALLENGES_PER_ADDRESS)
        return send_error(c, rq, "rate_limited", "too many open challenges from your address");
    if (s->challenges.count >= CHALLENGES_MAX)
        return send_error(c, rq, "rate_limited", "the lobby is full: try again later");
    challenge_job *j = calloc(1, sizeof *j);
    challenge *stored = malloc(sizeof *stored);
    json_t *st = room_settings_to_json(&ch.settings);
    char *text = st ? json_dumps(st, JSON_COMPACT) : NULL;
    json_decref(st);
    if (!j || !stored || !text) {
        free(j);
        free(stored);
        free(text);
        return send_error(c, rq, "internal", "out of memory");
    }
    if (!(ch.id = nodes_take_id(s, 1))) {
        free(j);
        free(stored);
        free(text);
        return send_error(c, rq, "busy", "the server is short of challenge numbers for a moment: try again");
    }
    ch.challenger = c->user;
    ch.addr = c->addr;
    if (a->rating_known && !c->guest)
        rating_rank_text(&a->rating, ch.rank, sizeof ch.rank);
    snprintf(ch.challenger_name, sizeof ch.challenger_name, "%s", c->name);
    snprintf(ch.opponent, sizeof ch.opponent, "%s", rq->opponent ? rq->opponent : "");
    ch.created_unix_ms = server_unix_ms();
    *stored = ch;
    count_challenge(s, stored, +1);
    j->job.run = run_challenge_add;
    j->job.done = challenge_added;
    j->job.transaction = true;
    j->client = c->id;
    j->has_id = rq->has_id;
    j->id = rq->id;
    j->ch = stored;
    j->settings_json = text;
    j->note = nodes_challenge_note(s, stored, challenge_json(stored));
    store_async_submit(s->db, STORE_WRITE, &j->job);
}

static void on_challenge_cancel(server *s, client *c, const proto_request *rq)
{
    challenge *ch = imap_get(&s->challenges, rq->challenge);
    if (!ch)
        return send_error(c, rq, "not_found", "no such challenge");
    if (ch->challenger != c->user)
        return send_error(c, rq, "forbidden", "not your challenge");
    if (!challenge_take(s, ch))
        return send_error(c, rq, "internal", "out of memory");
    reply_ok(c, rq, NULL, turn_epoch_now(s));
}

/* The challenger's colour: given, or by nigiri (R1), the challenger being
 * the senior player who holds the white stones. */
tg_color lobby_draw_color(const room_settings *st, char *nigiri, size_t len)
{
    nigiri[0] = '\0';
    if (st->color)
        return (tg_color)st->color;
    tg_rng rng;
    tg_rng_seed(&rng, auth_random_u64());
    tg_nigiri draw;
    tg_nigiri_draw(&rng, &draw);
    tg_nigiri_format(&draw, nigiri, len);
    return draw.senior_black ? TG_BLACK : TG_WHITE;
}

static void on_challenge_accept(server *s, client *c, const proto_request *rq)
{
    challenge *ch = imap_get(&s->challenges, rq->challenge);
    if (!ch)
        return send_error(c, rq, "not_found", "no such challenge");
    if (ch->challenger == c->user)
        return send_error(c, rq, "forbidden", "you cannot accept your own challenge");
    if (ch->opponent[0] && strcasecmp(ch->opponent, c->name) != 0)
        return send_error(c, rq, "forbidden", "this challenge is for another player");
    char nigiri[160];
    tg_color challenger = lobby_draw_color(&ch->settings, nigiri, sizeof nigiri);
    int64_t black = challenger == TG_BLACK ? ch->challenger : c->user;
    int64_t white = challenger == TG_BLACK ? c->user : ch->challenger;
    const char *black_name = challenger == TG_BLACK ? ch->challenger_name : c->name;
    const char *white_name = challenger == TG_BLACK ? c->name : ch->challenger_name;
    engine_spec none[3];
    memset(none, 0, sizeof none);
    char err[200];
    room_settings settings = ch->settings;
    char rank[12];
    snprintf(rank, sizeof rank, "%s", ch->rank);
    /* the challenge leaves in the same batch as the game is made */
    if (!challenge_take(s, ch))
        return send_error(c, rq, "internal", "out of memory");
    const char *ranks[3] = {NULL, NULL, NULL};
    ranks[challenger] = rank; /* the challenger may be on another node */
    live *lv = game_start(s, &settings, black, black_name, white, white_name, nigiri, none, ranks, err,
                          sizeof err);
    if (!lv)
        return reply_error(c, rq, "internal", err, turn_epoch_now(s));
    batch_challenge_makes(s, lv->r->id);
    reply_ok(c, rq, json_pack("{s:I}", "game", (json_int_t)lv->r->id), lv->dep);
    live_ask(lv, c, rq); /* judged again (not_found) if another node took it first */
}

static void on_engine_play(server *s, client *c, const proto_request *rq)
{
    room_settings st;
    char err[200], nigiri[160];
    if (!room_settings_from_json(rq->settings, &st, err, sizeof err))
        return send_error(c, rq, "bad_request", err);
    const char *name = rq->engine ? rq->engine : "tengen";
    if (!engine_known(s, name))
        return send_error(c, rq, "not_found", "no such engine");
    /* the engines are shared: a person has at most 3 engine games going,
     * and an address 6 */
    if (game_engine_games_of(s, c->user) >= ENGINE_GAMES_EACH)
        return send_error(c, rq, "rate_limited", "at most 3 games against engines at once each");
    int by_address = 0;
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->lives, &i, &id, &v);) {
        const live *lv = v;
        by_address += lv->addr == c->addr && lv->r->phase != ROOM_OVER;
    }
    if (by_address >= ENGINE_GAMES_PER_ADDRESS)
        return send_error(c, rq, "rate_limited", "too many games against engines from your address");
    if (!engine_pool_has_room(s->engines))
        return send_error(c, rq, "busy", "the engines are all busy: try again in a moment");
    tg_color person = lobby_draw_color(&st, nigiri, sizeof nigiri);
    tg_color engine = tg_opponent(person);
    engine_spec engines[3];
    memset(engines, 0, sizeof engines);
    snprintf(engines[engine].name, sizeof engines[engine].name, "%s", name);
    engines[engine].seconds = rq->seconds > 0 ? rq->seconds : 0;
    engines[engine].playouts = rq->seconds > 0 ? 0 : rq->playouts ? rq->playouts : 1000;
    live *lv = game_start(s, &st, person == TG_BLACK ? c->user : 0,
                          person == TG_BLACK ? c->name : name, person == TG_WHITE ? c->user : 0,
                          person == TG_WHITE ? c->name : name, nigiri, engines, NULL, err, sizeof err);
    if (!lv)
        return send_error(c, rq, "internal", err);
    lv->addr = c->addr;
    reply_ok(c, rq, json_pack("{s:I}", "game", (json_int_t)lv->r->id), lv->dep);
}

static void on_lobby_subscribe(server *s, client *c, const proto_request *rq)
{
    c->lobby = true;
    uint64_t dep = turn_epoch_now(s); /* the games it lists may be this turn's */
    reply_ok(c, rq, NULL, dep);
    json_t *list = json_array();
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->challenges, &i, &id, &v);)
        json_array_append_new(list, challenge_json(v));
    send_json_after(c, json_pack("{s:s, s:o, s:o, s:o}", "type", "lobby", "challenges", list,
                                 "games", game_summaries(s), "engines", engine_names(s)),
                    dep);
}

void lobby_handle(server *s, client *c, const proto_request *rq)
{
    switch (rq->type) {
    case P_LOBBY_SUBSCRIBE: return on_lobby_subscribe(s, c, rq);
    case P_LOBBY_UNSUBSCRIBE: c->lobby = false; return send_ok(c, rq, NULL);
    case P_CHALLENGE_CREATE: return on_challenge_create(s, c, rq);
    case P_CHALLENGE_CANCEL: return on_challenge_cancel(s, c, rq);
    case P_CHALLENGE_ACCEPT: return on_challenge_accept(s, c, rq);
    case P_ENGINE_PLAY: return on_engine_play(s, c, rq);
    default: return send_error(c, rq, "bad_request", "unknown request");
    }
}

/* The open challenges of the last run come back; their challengers have
 * the sweep's grace to return (accounts_sweep does not drop them: a
 * challenger who never comes back is dropped when the server next sees
 * them leave, or by its owner's cancel). */
bool lobby_restore(server *s, char *err, size_t errlen)
{
    store_challenge *list = NULL;
    int count = 0;
    if (s->api_db->ops->challenges_list(s->api_db, &list, &count) != 0) {
        snprintf(err, errlen, "cannot read the challenges: %s", s->api_db->ops->error(s->api_db));
        store_challenges_free(list, count);
        return false;
    }
    for (int i = 0; i < count; i++) {
        challenge *ch = calloc(1, sizeof *ch);
        json_error_t e;
        json_t *st = json_loads(list[i].settings_json, 0, &e);
        char why[200];
        if (!ch || !st || !room_settings_from_json(st, &ch->settings, why, sizeof why) ||
            !imap_put(&s->challenges, list[i].id, ch)) {
            free(ch);
            json_decref(st);
            continue;
        }
        json_decref(st);
        ch->id = list[i].id;
        ch->challenger = list[i].challenger;
        snprintf(ch->challenger_name, sizeof ch->challenger_name, "%s", list[i].challenger_name);
        snprintf(ch->opponent, sizeof ch->opponent, "%s", list[i].opponent);
        ch->created_unix_ms = list[i].created_unix_ms;
        account *a = account_touch(s, ch->challenger);
        if (a) {
            a->gone_since_ms = server_now_ms();
            a->challenges++;
        }
    }
    store_challenges_free(list, count);
    return true;
}

void lobby_free(server *s)
{
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->challenges, &i, &id, &v);)
        free(v);
    imap_free(&s->challenges);
}
