/*
 * room.c — one game on the server: room_apply judges and applies every
 * event through the library's game control (tg_control), never a rule of
 * its own; what it adds is who may do what online, and when.
 */
#include "room.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const event_names[EV_KIND_COUNT_] = {
    "move", "place", "resign", "toggle", "proposal", "accept", "concede", "request",
    "answer", "cancel", "claim", "tick", "arrive", "chat", "predict", "ruling"};

const char *room_event_kind_name(room_event_kind k)
{
    return k < EV_KIND_COUNT_ ? event_names[k] : "?";
}

bool room_event_kind_parse(const char *name, room_event_kind *out)
{
    for (int k = 0; k < EV_KIND_COUNT_; k++)
        if (strcmp(name, event_names[k]) == 0) {
            *out = (room_event_kind)k;
            return true;
        }
    return false;
}

const char *room_error_code(int code)
{
    switch (code) {
    case ROOM_ERR_BAD_REQUEST: return "bad_request";
    case ROOM_ERR_FORBIDDEN: return "forbidden";
    case ROOM_ERR_NOT_YOUR_TURN: return "not_your_turn";
    case ROOM_ERR_ILLEGAL: return "illegal";
    case ROOM_ERR_WRONG_PHASE: return "wrong_phase";
    case ROOM_ERR_TOO_LATE: return "too_late";
    default: return "internal";
    }
}

const char *room_phase_name(room_phase p)
{
    static const char *const names[] = {"placement", "play", "removal", "over", "opening",
                                        "prediction"};
    return names[p];
}

room *room_new(int64_t id, const room_settings *s)
{
    room *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->id = id;
    r->settings = *s;
    r->game = tg_game_new(s->size, &s->rules);
    if (!r->game) {
        free(r);
        return NULL;
    }
    tg_control_init(&r->ctl, r->game);
    /* 500 ms of lag: what a browser on a poor connection needs for a move
     * made in the last instant of a period */
    tg_control_set_clock(&r->ctl, &s->time, 500);
    r->phase = s->rules.free_opening ? ROOM_OPENING : ROOM_PLAY;
    if (s->handicap >= 2 && !s->free_placement) {
        tg_point pts[ROOM_MAX_HANDICAP];
        int n = tg_fixed_handicap_points(tg_game_board(r->game), s->handicap, pts);
        if (n != s->handicap || tg_game_place_handicap(r->game, pts, n) != TG_OK) {
            room_free(r);
            return NULL;
        }
    } else if (s->handicap >= 2) {
        r->phase = ROOM_PLACEMENT;
    }
    if (r->phase == ROOM_PLAY)
        tg_control_start_clock(&r->ctl, 0);
    return r;
}

void room_free(room *r)
{
    if (!r)
        return;
    tg_game_free(r->game);
    free(r->chat);
    free(r->clocks);
    free(r);
}

tg_color room_color_of(const room *r, int64_t user)
{
    if (user <= 0)
        return TG_EMPTY;
    if (r->user[TG_BLACK] == user)
        return TG_BLACK;
    if (r->user[TG_WHITE] == user)
        return TG_WHITE;
    return TG_EMPTY;
}

static bool is_engine(const room *r, tg_color c) { return r->engine[c][0] != '\0'; }

/* ---- the free opening (002 §5.2-5.3) ---------------------------------------- */

bool room_revealed(const room *r) { return r->predicted[0] && r->predicted[1]; }

tg_color room_first_colour(const room *r)
{
    return room_revealed(r) && !r->decision.first_takes_white ? TG_BLACK : TG_WHITE;
}

bool room_seats_swapped(const room *r) { return room_first_colour(r) == TG_BLACK && !r->seats_final; }

static int seat_of(const room *r, tg_color c) { return c == room_first_colour(r) ? 0 : 1; }
static tg_color seat_color(const room *r, int seat)
{
    return seat == 0 ? room_first_colour(r) : tg_opponent(room_first_colour(r));
}
static bool prediction_open(const room *r, int seat) { return r->prediction_due[seat] != 0; }

tg_color room_opening_placer(const room *r)
{
    int n = tg_game_move_count(r->game);
    return r->phase == ROOM_OPENING && n < 4 ? seat_color(r, tg_opening_placer(n)) : TG_EMPTY;
}

/* The seat whose prediction an engine owes now, -1 when none. */
static int engine_prediction_due(const room *r)
{
    if (r->phase != ROOM_OPENING && r->phase != ROOM_PREDICTION)
        return -1;
    for (int seat = 0; seat < 2; seat++)
        if (prediction_open(r, seat) && !r->predicted[seat] && is_engine(r, seat_color(r, seat)))
            return seat;
    return -1;
}

tg_color room_engine_to_move(const room *r)
{
    if (r->paused)
        return TG_EMPTY;
    if (r->phase == ROOM_OPENING || r->phase == ROOM_PREDICTION) {
        tg_color placer = room_opening_placer(r);
        if (placer != TG_EMPTY && is_engine(r, placer))
            return placer;
        int seat = engine_prediction_due(r);
        return seat >= 0 ? seat_color(r, seat) : TG_EMPTY;
    }
    if (r->phase != ROOM_PLAY)
        return TG_EMPTY;
    tg_color c = tg_game_to_move(r->game);
    return is_engine(r, c) ? c : TG_EMPTY;
}

bool room_engine_lacks_choice(const room *r, tg_color c)
{
    return is_engine(r, c) && strcmp(r->engine[c], "tengen") != 0;
}

bool room_engine_predicts(const room *r)
{
    tg_color placer = room_opening_placer(r);
    return !(placer != TG_EMPTY && is_engine(r, placer)) && engine_prediction_due(r) >= 0;
}

static void fail(room_result *res, int code, const char *message)
{
    res->code = code;
    snprintf(res->message, sizeof res->message, "%s", message);
}

/* Refuse with an error code and return from the void caller. */
#define FAIL(res, code, message) \
    do {                         \
        fail(res, code, message); \
        return;                  \
    } while (0)

static int moves_by(const room *r, tg_color c)
{
    int n = 0, total = tg_game_move_count(r->game);
    for (int i = 0; i < total; i++)
        if (tg_game_move(r->game, i)->color == c)
            n++;
    return n;
}

static void set_reason(room *r, const char *reason)
{
    snprintf(r->reason, sizeof r->reason, "%s", reason);
}

/* The phase follows the control's; a reason is set where the control's
 * own result does not say one. */
static void sync_phase(room *r, room_result *res)
{
    room_phase before = r->phase;
    switch (tg_control_phase_of(&r->ctl)) {
    case TG_PHASE_PLAY: /* the phases before play are the room's own */
        if (r->phase != ROOM_PLACEMENT && r->phase != ROOM_OPENING && r->phase != ROOM_PREDICTION)
            r->phase = ROOM_PLAY;
        break;
    case TG_PHASE_AGREEMENT: r->phase = ROOM_REMOVAL; break;
    case TG_PHASE_OVER: r->phase = ROOM_OVER; break;
    }
    if (r->phase == before)
        return;
    res->state_changed = true;
    if (r->phase == ROOM_REMOVAL) {
        memset(r->mark, 0, sizeof r->mark);
        r->has_proposal = false;
        r->request = REQ_NONE;
        res->needs_proposal = true;
    } else if (r->phase == ROOM_OVER) {
        res->ended = true;
        r->request = REQ_NONE;
        if (!r->reason[0]) {
            const tg_result *result = tg_game_result(r->game);
            set_reason(r, result->kind == TG_RESULT_SCORE     ? "score"
                          : result->kind == TG_RESULT_RESIGN  ? "resign"
                          : result->kind == TG_RESULT_TIME    ? "time"
                          : result->kind == TG_RESULT_FORFEIT ? "forfeit"
                                                              : "cycle");
        }
    } else if (before == ROOM_REMOVAL) {
        memset(r->mark, 0, sizeof r->mark);
        r->has_proposal = false;
    }
}

/* End the game against `loser` (TG_EMPTY: no result), in play or in stone
 * removal. */
static void end_game(room *r, tg_result_kind kind, tg_color loser, const char *reason)
{
    set_reason(r, reason);
    if (loser == TG_EMPTY) {
        tg_result none = {TG_RESULT_NO_RESULT, TG_EMPTY, 0};
        tg_game_set_result(r->game, &none);
    } else {
        tg_result result = {kind, tg_opponent(loser), 0};
        tg_game_set_result(r->game, &result);
    }
    r->ctl.clock.running = TG_EMPTY;
}

static void record_clock(room *r, tg_color mover, int64_t at)
{
    int index = tg_game_move_count(r->game) - 1;
    if (index >= 0 && r->settings.time.system != TG_CLOCK_NONE)
        tg_sgf_record_clock(&r->clocks, &r->clock_cap, index, &r->ctl.clock, mover, at);
}

static void apply_move(room *r, const room_event *ev, int64_t at, room_result *res)
{
    if (r->paused)
        FAIL(res, ROOM_ERR_WRONG_PHASE, "the game is paused");
    if (tg_game_to_move(r->game) != ev->color)
        FAIL(res, ROOM_ERR_NOT_YOUR_TURN, "it is not your turn");
    tg_board before;
    tg_board_copy(&before, tg_game_board(r->game));
    int moves_before = tg_game_move_count(r->game);
    /* a capture choice that cannot be one is a bad request, not an
     * illegal move for the ruleset's policy to void or punish */
    if (ev->own && tg_game_check(r->game, ev->color, ev->point, TG_PLAY_CAPTURE_OWN) == TG_ERR_NOT_ALLOWED)
        FAIL(res, ROOM_ERR_ILLEGAL, tg_game_rules(r->game)->capture_choice
                                        ? "the capture choice needs a move that leaves both sides' chains without liberties"
                                        : "these rules have no capture choice");
    if (ev->own && room_engine_lacks_choice(r, tg_opponent(ev->color)))
        FAIL(res, ROOM_ERR_ILLEGAL, "the opposing engine cannot be told the capture choice");
    tg_control_outcome out;
    if (tg_control_play_flags(&r->ctl, ev->color, ev->point, ev->own ? TG_PLAY_CAPTURE_OWN : 0, at, &out) != TG_OK)
        FAIL(res, ROOM_ERR_WRONG_PHASE, "the game is over");
    switch (out.action) {
    case TG_ACTION_REJECTED:
        FAIL(res, ROOM_ERR_ILLEGAL, tg_status_text(out.illegal));
    case TG_ACTION_PLAYED: {
        res->played = true;
        const tg_board *b = tg_game_board(r->game);
        r->last_captured_count = 0;
        /* the stones the move removed: the opponent's, or the mover's own
         * (a suicide, the capture choice) */
        for (tg_point p = 0; p < b->npoints; p++)
            if ((before.color[p] == TG_BLACK || before.color[p] == TG_WHITE) && b->color[p] == TG_EMPTY)
                r->last_captured[r->last_captured_count++] = p;
        break;
    }
    case TG_ACTION_FORFEIT: set_reason(r, out.warning ? "warnings" : "forfeit"); break;
    case TG_ACTION_TIME_LOSS: set_reason(r, "time"); break;
    default: res->state_changed = true; break; /* void, void pass, overtime pass */
    }
    if (tg_game_move_count(r->game) > moves_before) {
        record_clock(r, ev->color, at);
        /* a request made before the move was for another position */
        if (r->request != REQ_NONE) {
            r->request = REQ_NONE;
            res->state_changed = true;
        }
    }
    sync_phase(r, res);
}

static void open_prediction(room *r, int seat, int64_t at)
{
    int64_t limit = r->settings.prediction_ms;
    r->prediction_due[seat] = limit > 0 ? at + limit : INT64_MAX;
}

/* An opening stone: its colour is fixed (W B W B), its placer is the seat
 * 002 §5.2 names; the first player's prediction time starts with the third
 * stone, the second's with the fourth (§5.3.3). */
static void apply_opening_stone(room *r, const room_event *ev, int64_t at, room_result *res)
{
    int n = tg_game_move_count(r->game);
    tg_color stone = tg_opening_colour(n);
    if (ev->color != room_opening_placer(r))
        FAIL(res, ROOM_ERR_NOT_YOUR_TURN, tg_opening_placer(n) == 0 ? "this opening stone is the first player's"
                                                                    : "this opening stone is the second player's");
    if (ev->point == TG_PASS)
        FAIL(res, ROOM_ERR_ILLEGAL, "no pass in the opening: place the stone anywhere");
    tg_status st = tg_game_play(r->game, stone, ev->point, 0);
    if (st != TG_OK)
        FAIL(res, ROOM_ERR_ILLEGAL, tg_status_text(st));
    res->played = true;
    res->state_changed = true;
    r->last_captured_count = 0;
    if (n + 1 == 3)
        open_prediction(r, 0, at);
    if (n + 1 == 4) {
        open_prediction(r, 1, at);
        r->phase = ROOM_PREDICTION;
    }
}

static void swap_seats(room *r)
{
    int64_t user = r->user[TG_BLACK];
    r->user[TG_BLACK] = r->user[TG_WHITE];
    r->user[TG_WHITE] = user;
    char name[ROOM_NAME_MAX];
    memcpy(name, r->name[TG_BLACK], sizeof name);
    memcpy(r->name[TG_BLACK], r->name[TG_WHITE], sizeof name);
    memcpy(r->name[TG_WHITE], name, sizeof name);
    memcpy(name, r->engine[TG_BLACK], sizeof name);
    memcpy(r->engine[TG_BLACK], r->engine[TG_WHITE], sizeof name);
    memcpy(r->engine[TG_WHITE], name, sizeof name);
    bool arrived = r->arrived[TG_BLACK];
    r->arrived[TG_BLACK] = r->arrived[TG_WHITE];
    r->arrived[TG_WHITE] = arrived;
}

/* Both predictions are in: they decide the colours and the threshold (the
 * count is against it, the komi the one that decides alike), and White
 * moves first. */
static void reveal(room *r, int64_t at)
{
    tg_predictions_decide(r->prediction2[0], r->prediction2[1], &r->decision);
    tg_rules rules = *tg_game_rules(r->game);
    tg_rules_reveal(&rules, r->prediction2[0], r->prediction2[1]);
    tg_game_set_rules(r->game, &rules);
    if (room_seats_swapped(r))
        swap_seats(r);
    r->phase = ROOM_PLAY;
    tg_control_start_clock(&r->ctl, at);
}

static void apply_predict(room *r, const room_event *ev, int64_t at, room_result *res)
{
    if (r->phase != ROOM_OPENING && r->phase != ROOM_PREDICTION)
        FAIL(res, ROOM_ERR_WRONG_PHASE, "predictions are sealed after the opening stones");
    int seat = seat_of(r, ev->color);
    if (!prediction_open(r, seat))
        FAIL(res, ROOM_ERR_WRONG_PHASE, seat == 0 ? "the first player predicts after the third stone"
                                                  : "the second player predicts after the fourth stone");
    if (r->predicted[seat])
        FAIL(res, ROOM_ERR_WRONG_PHASE, "your prediction is already sealed");
    if (ev->prediction2 < -2000 || ev->prediction2 > 2000)
        FAIL(res, ROOM_ERR_BAD_REQUEST, "a prediction is at most 1000 stones");
    r->predicted[seat] = true;
    r->prediction2[seat] = ev->prediction2;
    res->state_changed = true;
    if (r->predicted[0] && r->predicted[1])
        reveal(r, at);
}

static void apply_place(room *r, const room_event *ev, int64_t at, room_result *res)
{
    if (r->phase != ROOM_PLACEMENT)
        FAIL(res, ROOM_ERR_WRONG_PHASE, "no handicap stones to place");
    if (ev->color != TG_BLACK)
        FAIL(res, ROOM_ERR_NOT_YOUR_TURN, "Black places the handicap stones");
    if (ev->npoints != r->settings.handicap)
        FAIL(res, ROOM_ERR_ILLEGAL, "place exactly the handicap's number of stones");
    if (tg_game_place_handicap(r->game, ev->points, ev->npoints) != TG_OK)
        FAIL(res, ROOM_ERR_ILLEGAL, "the stones must go on distinct points of the board");
    r->phase = ROOM_PLAY;
    tg_control_start_clock(&r->ctl, at);
    res->state_changed = true;
}

static void apply_toggle(room *r, const room_event *ev, room_result *res)
{
    if (r->ctl.stated[ev->color])
        FAIL(res, ROOM_ERR_WRONG_PHASE, "you have already stated your dead stones");
    const tg_board *b = tg_game_board(r->game);
    if (!tg_on_board(b, ev->point) || tg_board_at(b, ev->point) == TG_EMPTY)
        FAIL(res, ROOM_ERR_ILLEGAL, "there is no stone there");
    tg_point stones[TG_MAX_POINTS];
    int n = tg_chain_stones(b, ev->point, stones);
    uint8_t value = !r->mark[ev->color][ev->point];
    for (int i = 0; i < n; i++)
        r->mark[ev->color][stones[i]] = value;
    res->state_changed = true;
}

static void apply_proposal(room *r, const room_event *ev, int64_t at, room_result *res)
{
    memset(r->proposal, 0, sizeof r->proposal);
    const tg_board *b = tg_game_board(r->game);
    for (int i = 0; i < ev->npoints; i++)
        if (tg_on_board(b, ev->points[i]) && tg_board_at(b, ev->points[i]) != TG_EMPTY)
            r->proposal[ev->points[i]] = 1;
    r->has_proposal = true;
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        if (!r->ctl.stated[c])
            memcpy(r->mark[c], r->proposal, sizeof r->proposal);
    /* an engine states what it proposes */
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        if (is_engine(r, c) && !r->ctl.stated[c] && r->phase == ROOM_REMOVAL)
            tg_control_state_dead(&r->ctl, c, r->proposal, at, NULL);
    res->state_changed = true;
    sync_phase(r, res);
}

static void apply_statement(room *r, const room_event *ev, int64_t at, room_result *res)
{
    if (r->ctl.stated[ev->color])
        FAIL(res, ROOM_ERR_WRONG_PHASE, "you have already stated your dead stones");
    tg_status st;
    if (ev->kind == EV_CONCEDE) {
        if (!r->ctl.stated[tg_opponent(ev->color)])
            FAIL(res, ROOM_ERR_WRONG_PHASE, "your opponent has not stated yet");
        st = tg_control_concede(&r->ctl, ev->color, at, NULL);
    } else {
        st = tg_control_state_dead(&r->ctl, ev->color, r->mark[ev->color], at, NULL);
    }
    if (st != TG_OK)
        FAIL(res, ROOM_ERR_WRONG_PHASE, tg_status_text(st));
    res->state_changed = true;
    sync_phase(r, res);
}

/* The moves an undo for the requester takes back: to before their last
 * move, so one (theirs) or two (theirs and the reply); 0 when they have none. */
static int undo_count(const room *r, tg_color requester)
{
    int total = tg_game_move_count(r->game);
    /* the free opening's stones are never taken back: the predictions stand on them */
    int floor = tg_game_rules(r->game)->free_opening;
    for (int back = 1; back <= 2 && back <= total - floor; back++)
        if (tg_game_move(r->game, total - back)->color == requester)
            return back;
    return 0;
}

/* An undo back to `moves` moves: the chat said after a move it takes back
 * moves to the node that remains, naming that move (room_chat.node). */
static void chat_moves_back(room *r, int moves)
{
    for (int i = r->chat_count - 1; i >= 0 && r->chat[i].node > moves; i--) {
        room_chat *c = &r->chat[i];
        if (!c->taken_back[0])
            tg_point_to_vertex(tg_game_board(r->game), tg_game_move(r->game, c->move - 1)->point,
                               c->taken_back);
        c->node = moves;
    }
}

static void undo_for(room *r, tg_color requester, int64_t at)
{
    int back = undo_count(r, requester);
    chat_moves_back(r, tg_game_move_count(r->game) - back);
    for (int i = back; i > 0; i--)
        if (tg_game_undo(r->game) != TG_OK)
            return;
    if (r->ctl.clock_started && r->settings.time.system != TG_CLOCK_NONE && !r->paused)
        tg_clock_start(&r->ctl.clock, tg_game_to_move(r->game), at);
    else if (r->ctl.clock_started)
        r->ctl.clock.running = tg_game_to_move(r->game);
    r->last_captured_count = 0;
}

static void grant(room *r, room_request what, tg_color by, int64_t at)
{
    if (what == REQ_UNDO)
        undo_for(r, by, at);
    else if (what == REQ_PAUSE) {
        tg_control_pause(&r->ctl, at);
        r->paused = true;
    } else if (what == REQ_RESUME) {
        tg_control_resume(&r->ctl, at);
        r->paused = false;
    }
}

static void apply_request(room *r, const room_event *ev, int64_t at, room_result *res)
{
    if (r->phase != ROOM_PLAY)
        FAIL(res, ROOM_ERR_WRONG_PHASE, "requests are made during play");
    if (r->request != REQ_NONE)
        FAIL(res, ROOM_ERR_WRONG_PHASE, "a request is already pending");
    if (ev->what == REQ_UNDO && (r->paused || undo_count(r, ev->color) == 0))
        FAIL(res, ROOM_ERR_WRONG_PHASE, "there is no move of yours to undo");
    if (ev->what == REQ_PAUSE && r->paused)
        FAIL(res, ROOM_ERR_WRONG_PHASE, "the game is already paused");
    if (ev->what == REQ_RESUME && !r->paused)
        FAIL(res, ROOM_ERR_WRONG_PHASE, "the game is not paused");
    res->state_changed = true;
    if (is_engine(r, tg_opponent(ev->color))) { /* an engine agrees at once */
        grant(r, ev->what, ev->color, at);
        return;
    }
    r->request = ev->what;
    r->request_by = ev->color;
}

static void apply_answer(room *r, const room_event *ev, int64_t at, room_result *res)
{
    if (r->request == REQ_NONE || r->request != ev->what)
        FAIL(res, ROOM_ERR_WRONG_PHASE, "there is no such request to answer");
    if (r->request_by == ev->color)
        FAIL(res, ROOM_ERR_FORBIDDEN, "you cannot answer your own request");
    room_request what = r->request;
    r->request = REQ_NONE;
    if (ev->accept)
        grant(r, what, r->request_by, at);
    res->state_changed = true;
}

static bool absence_pending(const room *r, tg_color c)
{
    return !r->arrived[c] && !is_engine(r, c) && r->settings.absence_ms > 0 && !r->paused &&
           (r->phase == ROOM_PLAY || r->phase == ROOM_PLACEMENT || r->phase == ROOM_OPENING) &&
           moves_by(r, c) == 0;
}

static bool prediction_pending(const room *r, int seat)
{
    return (r->phase == ROOM_OPENING || r->phase == ROOM_PREDICTION) && prediction_open(r, seat) &&
           !r->predicted[seat] && r->prediction_due[seat] != INT64_MAX && !r->paused;
}

int64_t room_next_deadline(const room *r)
{
    int64_t next = INT64_MAX;
    if (r->phase == ROOM_OVER)
        return next;
    if (r->phase == ROOM_PLAY && r->ctl.clock.running != TG_EMPTY) {
        int64_t d = tg_clock_deadline_ms(&r->ctl.clock, r->ctl.clock.running);
        if (d < INT64_MAX)
            next = d + 1;
    }
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        if (absence_pending(r, c) && r->settings.absence_ms < next)
            next = r->settings.absence_ms;
    for (int seat = 0; seat < 2; seat++)
        if (prediction_pending(r, seat) && r->prediction_due[seat] + 1 < next)
            next = r->prediction_due[seat] + 1;
    return next;
}

bool room_tick_due(const room *r, int64_t at)
{
    if (r->phase == ROOM_OVER)
        return false;
    if (r->phase == ROOM_PLAY && r->ctl.clock.running != TG_EMPTY &&
        tg_clock_check(&r->ctl.clock, r->ctl.clock.running, at) != TG_CLOCK_OK)
        return true;
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        if (absence_pending(r, c) && at >= r->settings.absence_ms)
            return true;
    for (int seat = 0; seat < 2; seat++)
        if (prediction_pending(r, seat) && at > r->prediction_due[seat])
            return true;
    return false;
}

static void apply_tick(room *r, int64_t at, room_result *res)
{
    bool absent[3] = {false, false, false};
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        absent[c] = absence_pending(r, c) && at >= r->settings.absence_ms;
    int late = -1; /* the seat whose prediction time ran out first */
    for (int seat = 0; seat < 2; seat++)
        if (prediction_pending(r, seat) && at > r->prediction_due[seat] &&
            (late < 0 || r->prediction_due[seat] < r->prediction_due[late]))
            late = seat;
    if (late >= 0) {
        end_game(r, TG_RESULT_TIME, seat_color(r, late), "time");
    } else if (absent[TG_BLACK] && absent[TG_WHITE]) {
        end_game(r, TG_RESULT_NO_RESULT, TG_EMPTY, "absence");
    } else if (absent[TG_BLACK] || absent[TG_WHITE]) {
        end_game(r, TG_RESULT_FORFEIT, absent[TG_BLACK] ? TG_BLACK : TG_WHITE, "absence");
    } else if (r->phase == ROOM_PLAY) {
        int moves_before = tg_game_move_count(r->game);
        tg_color mover = tg_game_to_move(r->game);
        tg_control_action action;
        tg_control_tick(&r->ctl, at, &action);
        if (action == TG_ACTION_TIME_LOSS)
            set_reason(r, "time");
        if (tg_game_move_count(r->game) > moves_before)
            record_clock(r, mover, at);
        if (action != TG_ACTION_PLAYED)
            res->state_changed = true;
    }
    sync_phase(r, res);
}

static void add_chat(room *r, const room_event *ev, room_result *res)
{
    if (r->chat_count >= ROOM_CHAT_MAX)
        FAIL(res, ROOM_ERR_TOO_LATE, "this game's chat is full");
    if (r->chat_count == r->chat_cap) {
        int cap = r->chat_cap ? 2 * r->chat_cap : 16;
        room_chat *grown = realloc(r->chat, (size_t)cap * sizeof *grown);
        if (!grown)
            FAIL(res, ROOM_ERR_INTERNAL, "out of memory");
        r->chat = grown;
        r->chat_cap = cap;
    }
    room_chat *c = &r->chat[r->chat_count++];
    c->move = c->node = tg_game_move_count(r->game);
    c->taken_back[0] = '\0';
    c->players = ev->color != TG_EMPTY;
    snprintf(c->from, sizeof c->from, "%s", ev->from);
    snprintf(c->text, sizeof c->text, "%s", ev->text);
}

void room_apply(room *r, const room_event *ev, int64_t at, room_result *res)
{
    memset(res, 0, sizeof *res);
    bool player = ev->color == TG_BLACK || ev->color == TG_WHITE;
    bool needs_player = ev->kind != EV_TICK && ev->kind != EV_CHAT && ev->kind != EV_PROPOSAL &&
                        ev->kind != EV_RULING;
    if (needs_player && !player)
        FAIL(res, ROOM_ERR_FORBIDDEN, "only the game's players may do that");
    if (r->phase == ROOM_OVER && ev->kind != EV_CHAT && ev->kind != EV_ARRIVE)
        FAIL(res, ROOM_ERR_WRONG_PHASE, "the game is over");
    switch (ev->kind) {
    case EV_MOVE:
        if (r->phase == ROOM_OPENING) {
            apply_opening_stone(r, ev, at, res);
            break;
        }
        if (r->phase != ROOM_PLAY)
            FAIL(res, ROOM_ERR_WRONG_PHASE,
                        r->phase == ROOM_PLACEMENT    ? "the handicap stones are not placed yet"
                        : r->phase == ROOM_PREDICTION ? "the predictions are not all sealed yet"
                                                      : "moves are not made during stone removal");
        apply_move(r, ev, at, res);
        break;
    case EV_PLACE: apply_place(r, ev, at, res); break;
    case EV_RESIGN:
        end_game(r, TG_RESULT_RESIGN, ev->color, "resign");
        sync_phase(r, res);
        break;
    case EV_TOGGLE:
    case EV_ACCEPT:
    case EV_CONCEDE:
    case EV_PROPOSAL:
        if (r->phase != ROOM_REMOVAL)
            FAIL(res, ROOM_ERR_WRONG_PHASE, "stones are marked only during stone removal");
        if (ev->kind == EV_TOGGLE)
            apply_toggle(r, ev, res);
        else if (ev->kind == EV_PROPOSAL)
            apply_proposal(r, ev, at, res);
        else
            apply_statement(r, ev, at, res);
        break;
    case EV_REQUEST: apply_request(r, ev, at, res); break;
    case EV_ANSWER: apply_answer(r, ev, at, res); break;
    case EV_CANCEL:
        if (tg_game_move_count(r->game) >= 2)
            FAIL(res, ROOM_ERR_TOO_LATE, "a game can be cancelled only before its second move");
        end_game(r, TG_RESULT_NO_RESULT, TG_EMPTY, "cancel");
        sync_phase(r, res);
        break;
    case EV_CLAIM:
        end_game(r, TG_RESULT_FORFEIT, tg_opponent(ev->color), "claim");
        sync_phase(r, res);
        break;
    case EV_RULING: /* made by the server only: no client message becomes one */
        end_game(r, TG_RESULT_FORFEIT, ev->color == TG_EMPTY ? TG_EMPTY : tg_opponent(ev->color), "ruling");
        sync_phase(r, res);
        break;
    case EV_TICK: apply_tick(r, at, res); break;
    case EV_ARRIVE:
        if (r->arrived[ev->color])
            FAIL(res, ROOM_ERR_WRONG_PHASE, "already here");
        r->arrived[ev->color] = true;
        break;
    case EV_CHAT: add_chat(r, ev, res); break;
    case EV_PREDICT: apply_predict(r, ev, at, res); break;
    default: FAIL(res, ROOM_ERR_BAD_REQUEST, "unknown event");
    }
    if (res->code == 0) {
        r->seq++;
        r->last_at = at;
    }
}
