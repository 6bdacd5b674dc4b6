/*
 * proto.c — client messages, strictly: each type has one json_unpack_ex
 * format naming every field it may carry, so that an unknown field, a
 * missing one or one of the wrong type is refused before a handler runs.
 */
#include "proto.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const type_names[P_TYPE_COUNT_] = {
    "hello", "register", "login", "guest", "logout", "ping",
    "lobby.subscribe", "lobby.unsubscribe",
    "challenge.create", "challenge.cancel", "challenge.accept", "engine.play",
    "game.watch", "game.unwatch", "game.move", "game.place", "game.resign", "game.toggle",
    "game.accept", "game.concede", "game.request", "game.answer", "game.cancel", "game.claim",
    "game.chat", "game.predict", "match.seek", "match.cancel",
    "tournament.create", "tournament.join", "tournament.leave", "tournament.pair",
    "tournament.start", "tournament.result"};

const char *proto_type_name(proto_type t) { return t < P_TYPE_COUNT_ ? type_names[t] : "?"; }

static int unpack(json_t *root, char *err, size_t errlen, const char *fmt, ...)
{
    json_error_t e;
    va_list ap;
    va_start(ap, fmt);
    int rc = json_vunpack_ex(root, &e, JSON_STRICT, fmt, ap);
    va_end(ap);
    if (rc != 0)
        snprintf(err, errlen, "%s", e.text);
    return rc;
}

/* The strength of an engine game: {"playouts":N} or {"seconds":S}. */
static int read_strength(json_t *s, proto_request *r, char *err, size_t errlen)
{
    if (!s)
        return 0;
    json_int_t playouts = 0;
    double seconds = 0;
    if (unpack(s, err, errlen, "{s?I, s?F}", "playouts", &playouts, "seconds", &seconds) != 0)
        return -1;
    if ((playouts != 0) == (seconds != 0)) {
        snprintf(err, errlen, "strength: give playouts or seconds");
        return -1;
    }
    if (playouts && (playouts < 1 || playouts > 100000)) {
        snprintf(err, errlen, "strength: playouts must be 1..100000");
        return -1;
    }
    if (seconds && (!isfinite(seconds) || seconds < 0.1 || seconds > 60)) {
        snprintf(err, errlen, "strength: seconds must be 0.1..60");
        return -1;
    }
    r->playouts = playouts;
    r->seconds = seconds;
    return 0;
}

static int parse_body(json_t *root, proto_request *r, char *err, size_t errlen)
{
    const char *t;
    json_int_t id = 0, n = 0;
    json_t *strength = NULL;
    int accept = 0;
#define U(...) unpack(root, err, errlen, __VA_ARGS__)
    switch (r->type) {
    case P_HELLO:
        return U("{s:s, s?I, s?s}", "type", &t, "id", &id, "token", &r->token);
    case P_REGISTER:
    case P_LOGIN:
        return U("{s:s, s?I, s:s, s:s}", "type", &t, "id", &id, "name", &r->name, "password",
                 &r->password);
    case P_GUEST: case P_LOGOUT: case P_PING: case P_LOBBY_SUBSCRIBE: case P_LOBBY_UNSUBSCRIBE:
    case P_MATCH_CANCEL:
        return U("{s:s, s?I}", "type", &t, "id", &id);
    case P_CHALLENGE_CREATE:
        return U("{s:s, s?I, s?o, s?s}", "type", &t, "id", &id, "settings", &r->settings,
                 "opponent", &r->opponent);
    case P_TOUR_CREATE: /* the settings are checked by the tournament */
        return U("{s:s, s?I, s:o}", "type", &t, "id", &id, "settings", &r->settings);
    case P_TOUR_JOIN:
        return U("{s:s, s?I, s:I, s?s, s?s, s?I}", "type", &t, "id", &id, "tournament", &r->tournament,
                 "rank", &r->rank, "engine", &r->engine, "playouts", &r->playouts);
    case P_TOUR_START:
        return U("{s:s, s?I, s:I, s?I}", "type", &t, "id", &id, "tournament", &r->tournament, "at", &r->at);
    case P_TOUR_LEAVE:
        return U("{s:s, s?I, s:I}", "type", &t, "id", &id, "tournament", &r->tournament);
    case P_TOUR_PAIR:
        if (U("{s:s, s?I, s:I, s?b, s?o, s?o}", "type", &t, "id", &id, "tournament", &r->tournament, "by_lot",
              &accept, "pairs", &r->pairs, "byes", &r->byes) != 0)
            return -1;
        r->by_lot = accept != 0;
        return 0;
    case P_TOUR_RESULT:
        return U("{s:s, s?I, s:I, s:I, s:I, s:s, s?s}", "type", &t, "id", &id, "tournament",
                 &r->tournament, "round", &r->round, "board", &r->board, "result", &r->result, "note",
                 &r->note);
    case P_MATCH_SEEK: /* the preferences are checked by the quick match */
        return U("{s:s, s?I, s?o}", "type", &t, "id", &id, "seek", &r->seek);
    case P_CHALLENGE_CANCEL:
    case P_CHALLENGE_ACCEPT:
        return U("{s:s, s?I, s:I}", "type", &t, "id", &id, "challenge", &r->challenge);
    case P_ENGINE_PLAY:
        if (U("{s:s, s?I, s?o, s?s, s?o}", "type", &t, "id", &id, "settings", &r->settings,
              "engine", &r->engine, "strength", &strength) != 0)
            return -1;
        return read_strength(strength, r, err, errlen);
    case P_WATCH: case P_UNWATCH: case P_RESIGN: case P_ACCEPT: case P_CONCEDE: case P_CANCEL:
    case P_CLAIM:
        return U("{s:s, s?I, s:I}", "type", &t, "id", &id, "game", &r->game);
    case P_MOVE: {
        int own = 0;
        if (U("{s:s, s?I, s:I, s:s, s?I, s?b}", "type", &t, "id", &id, "game", &r->game, "move",
              &r->move, "n", &n, "own", &own) != 0)
            return -1;
        r->own = own != 0;
        r->has_n = json_object_get(root, "n") != NULL;
        if (r->has_n && n < 0) {
            snprintf(err, errlen, "n must be a non-negative integer");
            return -1;
        }
        r->n = n;
        return 0;
    }
    case P_PLACE:
        return U("{s:s, s?I, s:I, s:o}", "type", &t, "id", &id, "game", &r->game, "points",
                 &r->points);
    case P_TOGGLE:
        return U("{s:s, s?I, s:I, s:s}", "type", &t, "id", &id, "game", &r->game, "point",
                 &r->point);
    case P_REQUEST:
        return U("{s:s, s?I, s:I, s:s}", "type", &t, "id", &id, "game", &r->game, "what",
                 &r->what);
    case P_ANSWER:
        if (U("{s:s, s?I, s:I, s:s, s:b}", "type", &t, "id", &id, "game", &r->game, "what",
              &r->what, "accept", &accept) != 0)
            return -1;
        r->accept = accept != 0;
        return 0;
    case P_CHAT:
        return U("{s:s, s?I, s:I, s:s}", "type", &t, "id", &id, "game", &r->game, "text",
                 &r->text);
    case P_PREDICT:
        return U("{s:s, s?I, s:I, s:s}", "type", &t, "id", &id, "game", &r->game, "prediction",
                 &r->prediction);
    default:
        return -1;
    }
#undef U
}

int proto_parse(const char *data, size_t len, proto_request *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    json_error_t e;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &e);
    if (!root) {
        snprintf(err, errlen, "not JSON: %s", e.text);
        return -1;
    }
    if (!json_is_object(root)) {
        snprintf(err, errlen, "a message is a JSON object");
        json_decref(root);
        return -1;
    }
    json_t *id = json_object_get(root, "id");
    if (json_is_integer(id) && json_integer_value(id) >= 0) {
        out->has_id = true;
        out->id = json_integer_value(id);
    } else if (id) {
        snprintf(err, errlen, "id must be a non-negative integer");
        json_decref(root);
        return -1;
    }
    const char *type = json_string_value(json_object_get(root, "type"));
    int t;
    for (t = 0; type && t < P_TYPE_COUNT_; t++)
        if (strcmp(type, type_names[t]) == 0)
            break;
    if (!type || t == P_TYPE_COUNT_) {
        snprintf(err, errlen, type ? "unknown type" : "a message needs a string type");
        json_decref(root);
        return -1;
    }
    out->type = (proto_type)t;
    if (parse_body(root, out, err, errlen) != 0) {
        bool has_id = out->has_id;
        int64_t idv = out->id;
        memset(out, 0, sizeof *out);
        out->has_id = has_id;
        out->id = idv;
        json_decref(root);
        return -1;
    }
    out->root = root;
    return 0;
}
