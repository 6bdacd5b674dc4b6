/*
 * room.h — one game on the server, as plain functions that tests call
 * without a socket: the game (tg_game) under game control (tg_control: the
 * clock, the illegal-move policy, warnings, the dead-stone agreement), its
 * players, the stone-removal marks, pending requests (undo, pause, resume)
 * and the things the competition rules add online (R8 absence, claims,
 * cancellation in the first moves).
 *
 * Everything that changes a room is an event (room_event), applied by one
 * function, room_apply, both live and when a game is rebuilt from the
 * store: the server validates and applies an event, commits it, and only
 * then tells anyone.  Times are "game milliseconds": a counter the server
 * keeps per game that does not advance while the server is down.
 */
#ifndef TENGEN_SERVER_ROOM_H
#define TENGEN_SERVER_ROOM_H

#include <jansson.h>

#include "tengen/control.h"
#include "tengen/free_opening.h"
#include "tengen/sgf.h"

#define ROOM_NAME_MAX 32

typedef struct room room;
#define ROOM_MAX_HANDICAP 9
#define ROOM_CHAT_MAX 2000   /* chat lines a game keeps (and records) */
#define ROOM_CHAT_SHOWN 100  /* the last lines game.state carries */

/* What a challenge or an engine game sets up. */
typedef struct room_settings {
    int size;
    char rules_text[160];     /* as given: presets and key=value options */
    tg_rules rules;           /* komi included */
    int handicap;             /* 0 or 2..9 */
    bool free_placement;
    char time_spec[64];
    tg_time_control time;
    int64_t absence_ms;       /* R8, and the claim delay of untimed games */
    int color;                /* the challenger's: 0 nigiri, TG_BLACK, TG_WHITE (free
                                 opening: White is the first player's seat) */
    int64_t prediction_ms;    /* free opening: each prediction's time, -1 from the clock
                                 (tg_prediction_time_ms), 0 no limit */
    bool unrated;             /* "rated": false — the result changes no rating */
} room_settings;

/* Read settings from a client's JSON object (NULL: all defaults); the
 * object's keys are checked strictly.  On error, err says why. */
bool room_settings_from_json(const json_t *obj, room_settings *out, char *err, size_t errlen);
/* The same settings back as JSON (what the store keeps and clients see). */
json_t *room_settings_to_json(const room_settings *s);

typedef enum room_phase {
    ROOM_PLACEMENT,  /* free handicap: Black places the stones */
    ROOM_PLAY,
    ROOM_REMOVAL,    /* two passes: dead stones are agreed (C9) */
    ROOM_OVER,
    ROOM_OPENING,    /* free opening: the four stones W B W B (002 §5.2) */
    ROOM_PREDICTION  /* free opening: the sealed predictions (002 §5.3) */
} room_phase;

typedef enum room_event_kind {
    EV_MOVE,      /* color, point (TG_PASS) */
    EV_PLACE,     /* free handicap stones: points[] */
    EV_RESIGN,    /* color */
    EV_TOGGLE,    /* color toggles the chain at point in its own dead list */
    EV_PROPOSAL,  /* the server's estimate of the dead stones: points[] */
    EV_ACCEPT,    /* color states its dead list */
    EV_CONCEDE,   /* color adopts the opponent's statement */
    EV_REQUEST,   /* color asks: what */
    EV_ANSWER,    /* color answers the pending request: what, accept */
    EV_CANCEL,    /* color cancels the game in its first moves */
    EV_CLAIM,     /* color claims the game of an absent opponent */
    EV_TICK,      /* the clock's deadline or an absence deadline passed */
    EV_ARRIVE,    /* color came to the board (R8) */
    EV_CHAT,      /* color (TG_EMPTY: a spectator) says text; no effect on the game */
    EV_PREDICT,   /* free opening: color's seat seals its prediction (prediction2) */
    EV_RULING,    /* the organiser's (referee's) decision ends the game: color wins, or
                     TG_EMPTY for no winner (both lose, a replay); text: their note */
    EV_KIND_COUNT_
} room_event_kind;

typedef enum room_request { REQ_NONE = 0, REQ_UNDO, REQ_PAUSE, REQ_RESUME } room_request;

typedef struct room_event {
    room_event_kind kind;
    tg_color color;
    tg_point point;
    int npoints;
    tg_point points[TG_MAX_POINTS];
    room_request what;
    bool accept;
    char from[ROOM_NAME_MAX];  /* chat */
    char text[512];            /* chat */
    int prediction2;           /* predict: White's margin in half stones */
    bool own;                  /* move: the capture choice, the mover's own chains go (002 §4.3) */
} room_event;

const char *room_event_kind_name(room_event_kind k);
/* An event to and from its stored form ({"c":"black","p":"D4",...}). */
json_t *room_event_to_json(const room *r, const room_event *ev);
bool room_event_from_json(const room *r, room_event_kind kind, const json_t *data,
                          room_event *ev);
bool room_event_kind_parse(const char *name, room_event_kind *out);
/* "undo", "pause", "resume". */
bool room_request_parse(const char *text, room_request *out);
/* A JSON list of at most max vertices of r's board (no pass); false on
 * anything else. */
bool room_points_from_json(const room *r, const json_t *a, tg_point *out, int max, int *n);

typedef struct room_chat {
    int move;                  /* moves played when it was said */
    /* The record's node for it (moves played, 0: the root): `move`, or the
     * moves left by an undo that took back the move it followed (it stays
     * with the position that remains).  Never more than the moves played
     * now, so it never decreases along the chat. */
    int node;
    char taken_back[8];        /* the vertex of that move, "" while it stands */
    bool players;              /* players' channel (else spectators') */
    char from[ROOM_NAME_MAX];
    char text[512];
} room_chat;

struct room {
    int64_t id;
    room_settings settings;
    int64_t user[3];                 /* [TG_BLACK], [TG_WHITE]: account ids (0: engine) */
    char name[3][ROOM_NAME_MAX];
    char rank[3][12];                /* the players' ranks when the game began ("" unknown) */
    char engine[3][ROOM_NAME_MAX];   /* the engine's name, "" for a person */
    char nigiri[160];                /* the draw, when there was one */
    int64_t tour;                    /* a tournament's game: its id (0: none), round, board */
    int tour_round, tour_board;
    tg_game *game;
    tg_control ctl;
    room_phase phase;
    uint8_t mark[3][TG_MAX_POINTS];  /* each player's dead list in stone removal */
    uint8_t proposal[TG_MAX_POINTS];
    bool has_proposal;
    room_request request;
    tg_color request_by;
    bool arrived[3];
    bool paused;
    char reason[16];                 /* score, resign, time, forfeit, cycle, absence, cancel, claim */
    int seq;                         /* events applied */
    int64_t last_at;                 /* game ms of the last event */
    room_chat *chat;
    int chat_count, chat_cap;
    /* what the last move did, for the game.move message */
    tg_point last_captured[TG_MAX_POINTS];
    int last_captured_count;
    /* The free-opening ruleset (002 §5.2-5.3).  Until the predictions are
     * revealed the first player sits at White (the colour equal
     * predictions give it) and the second at Black; the reveal swaps the
     * seats (user, name, engine, arrived) when the predictions give the
     * first player Black.  Predictions are indexed [0] first, [1] second,
     * and no one hears of one before both are in (room_revealed). */
    bool predicted[2];
    int prediction2[2];
    int64_t prediction_due[2];       /* game ms; 0: not yet open (stones 3 and 4 open
                                        them), INT64_MAX: no limit */
    tg_predictions decision;         /* once revealed */
    bool seats_final;                /* rebuilt from a finished game whose stored colours
                                        are already the final ones: do not swap */
    /* the clock after each move, for SGF BL/WL */
    tg_sgf_move_clock *clocks;
    int clock_cap;
};

/* A new room (settings already checked; nigiri already drawn into
 * user/name).  Fixed handicap stones are placed at once.  NULL when out of
 * memory. */
room *room_new(int64_t id, const room_settings *s);
void room_free(room *r);

typedef struct room_result {
    int code;                /* 0, or one of the protocol's error codes below */
    char message[160];
    bool played;             /* a move or pass stood: a game.move can be sent */
    bool state_changed;      /* send a game.state */
    bool ended;              /* the game is over now */
    bool needs_proposal;     /* stone removal began: the server adds an EV_PROPOSAL */
} room_result;

enum {
    ROOM_ERR_BAD_REQUEST = 1, ROOM_ERR_FORBIDDEN, ROOM_ERR_NOT_YOUR_TURN, ROOM_ERR_ILLEGAL,
    ROOM_ERR_WRONG_PHASE, ROOM_ERR_TOO_LATE, ROOM_ERR_INTERNAL
};
const char *room_error_code(int code);

/* Validate and apply an event at game time `at`.  On an error nothing
 * changes and res->code says why.  Events arrive in time order. */
void room_apply(room *r, const room_event *ev, int64_t at, room_result *res);

/* The game ms at which room_tick_due() may become true (INT64_MAX: never). */
int64_t room_next_deadline(const room *r);
/* Whether an EV_TICK at `at` would change something (time up, absence). */
bool room_tick_due(const room *r, int64_t at);

/* The colour `user` plays in this room, TG_EMPTY when not a player. */
tg_color room_color_of(const room *r, int64_t user);
/* Whose move it is for an engine to make (TG_EMPTY: none now): a move, an
 * opening stone, or (room_engine_predicts) a free opening's prediction. */
tg_color room_engine_to_move(const room *r);
bool room_engine_predicts(const room *r);
/* Whether c is an engine that cannot be told the capture choice (only
 * tengen's own knows tengen-capture_own): the opponent may not take it. */
bool room_engine_lacks_choice(const room *r, tg_color c);
/* Free opening: the seat (colour now) that places the next opening stone,
 * TG_EMPTY when none is due. */
tg_color room_opening_placer(const room *r);
/* Free opening: both predictions are in (and may be shown). */
bool room_revealed(const room *r);
/* Free opening: the first player's colour now (White until the reveal). */
tg_color room_first_colour(const room *r);
/* Free opening: the reveal swapped this room's seats (the first player took
 * Black, and the room was not rebuilt from a finished game's final colours). */
bool room_seats_swapped(const room *r);

/* The state as in the protocol's game.state (you: the viewer's colour, or
 * TG_EMPTY), at game time now. */
json_t *room_state_json(const room *r, tg_color you, int64_t now);
/* The clock object at now. */
json_t *room_clock_json(const room *r, int64_t now);
/* The board string: size*size characters from the top row. */
void room_board_string(const room *r, char *out);
/* The game summary of the lobby and the API. */
json_t *room_summary_json(const room *r);
/* A tournament's game: {"id", "round", "board"}. */
json_t *room_tour_json(const room *r);
/* Whether its result changes ratings: two accounts (no guest, no engine),
 * an even game, and not made "rated": false. */
bool room_rated(const room *r);
/* The record as SGF, malloc'd; clocks[i] the clock after move i. */
char *room_sgf(const room *r, const char *date);
const char *room_phase_name(room_phase p);

#endif
