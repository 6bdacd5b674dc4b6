/*
 * proto.h — the server's message parser: one client message of
 * docs/protocol.md (version 1) from untrusted bytes to a checked request.
 * Every message is validated strictly (jansson's json_unpack_ex with
 * JSON_STRICT): a missing field, a wrong type or an unknown field is
 * refused, so the handlers see only well-formed requests.  Vertices and
 * settings are checked later, against the game they name.  Fuzzed by
 * fuzz/fuzz_server.c.
 */
#ifndef TENGEN_SERVER_PROTO_H
#define TENGEN_SERVER_PROTO_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#define PROTO_VERSION 1

typedef enum proto_type {
    P_HELLO, P_REGISTER, P_LOGIN, P_GUEST, P_LOGOUT, P_PING,
    P_LOBBY_SUBSCRIBE, P_LOBBY_UNSUBSCRIBE,
    P_CHALLENGE_CREATE, P_CHALLENGE_CANCEL, P_CHALLENGE_ACCEPT, P_ENGINE_PLAY,
    P_WATCH, P_UNWATCH, P_MOVE, P_PLACE, P_RESIGN, P_TOGGLE, P_ACCEPT, P_CONCEDE,
    P_REQUEST, P_ANSWER, P_CANCEL, P_CLAIM, P_CHAT, P_PREDICT,
    P_MATCH_SEEK, P_MATCH_CANCEL,
    P_TOUR_CREATE, P_TOUR_JOIN, P_TOUR_LEAVE, P_TOUR_PAIR, P_TOUR_START, P_TOUR_RESULT,
    P_TYPE_COUNT_
} proto_type;

typedef struct proto_request {
    json_t *root;              /* owns the strings below: json_decref when done */
    proto_type type;
    bool has_id;
    int64_t id;
    const char *token, *name, *password, *opponent, *engine, *move, *point, *what, *text,
               *prediction;
    json_t *settings;          /* borrowed from root, or NULL */
    json_t *points;            /* borrowed: an array */
    json_t *seek;              /* borrowed: match.seek's preferences, or NULL */
    int64_t tournament, round, board; /* tournament.* */
    int64_t at;                /* tournament.start: when (unix ms; 0 now) */
    const char *rank, *result, *note;
    bool by_lot;               /* tournament.pair: earlier games without a result by lot (T2) */
    json_t *pairs, *byes;      /* borrowed: tournament.pair by hand ([[black, white]...], [name...]) */
    int64_t challenge, game;
    bool has_n;
    int64_t n;
    bool accept;
    bool own;                  /* game.move: the capture choice */
    int64_t playouts;          /* engine strength: playouts, or */
    double seconds;            /* seconds a move (0: not given) */
} proto_request;

/* Parse one message.  0 on success (release out->root); otherwise -1 with
 * err saying why, out->root NULL, and out->has_id/out->id set when the
 * message had a readable id (so the error can answer it). */
int proto_parse(const char *data, size_t len, proto_request *out, char *err, size_t errlen);
const char *proto_type_name(proto_type t);

#endif
