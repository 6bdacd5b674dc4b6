/*
 * room_json.c — a room in the protocol's words (docs/protocol.md): the
 * settings a client sends, the events as the store keeps them, the
 * game.state and the lobby's summary, and the SGF record.
 */
#include "room.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *color_name(tg_color c)
{
    return c == TG_BLACK ? "black" : c == TG_WHITE ? "white" : NULL;
}

static bool color_parse(const char *text, tg_color *out)
{
    if (strcmp(text, "black") == 0)
        *out = TG_BLACK;
    else if (strcmp(text, "white") == 0)
        *out = TG_WHITE;
    else
        return false;
    return true;
}

/* ---- settings ---------------------------------------------------------- */

static bool settings_error(char *err, size_t errlen, const char *what)
{
    snprintf(err, errlen, "%s", what);
    return false;
}

static bool read_komi(const json_t *v, int *komi2)
{
    if (!json_is_number(v))
        return false;
    double k = json_number_value(v) * 2;
    if (!isfinite(k) || fabs(k) > 2000 || k != floor(k))
        return false;
    *komi2 = (int)k;
    return true;
}

bool room_settings_from_json(const json_t *obj, room_settings *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->size = 19;
    snprintf(s->rules_text, sizeof s->rules_text, "chinese");
    snprintf(s->time_spec, sizeof s->time_spec, "none");
    s->absence_ms = 900000;
    s->prediction_ms = -1;
    const json_t *komi = NULL;
    const char *rules = "chinese", *time = "none", *placement = "fixed", *color = "nigiri";
    if (obj && !json_is_object(obj))
        return settings_error(err, errlen, "settings must be an object");
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        if (strcmp(key, "size") == 0 && json_is_integer(v))
            s->size = (int)json_integer_value(v) == json_integer_value(v) ? (int)json_integer_value(v) : -1;
        else if (strcmp(key, "rules") == 0 && json_is_string(v))
            rules = json_string_value(v);
        else if (strcmp(key, "komi") == 0)
            komi = v;
        else if (strcmp(key, "handicap") == 0 && json_is_integer(v))
            s->handicap = json_integer_value(v) >= 0 && json_integer_value(v) <= 99
                              ? (int)json_integer_value(v) : -1;
        else if (strcmp(key, "handicap_placement") == 0 && json_is_string(v))
            placement = json_string_value(v);
        else if (strcmp(key, "time") == 0 && json_is_string(v))
            time = json_string_value(v);
        else if (strcmp(key, "color") == 0 && json_is_string(v))
            color = json_string_value(v);
        else if (strcmp(key, "absence_s") == 0 && json_is_integer(v) &&
                 json_integer_value(v) >= 10 && json_integer_value(v) <= 86400)
            s->absence_ms = json_integer_value(v) * 1000;
        else if (strcmp(key, "rated") == 0 && json_is_boolean(v))
            s->unrated = !json_is_true(v);
        else if (strcmp(key, "prediction_s") == 0 && json_is_integer(v) &&
                 json_integer_value(v) >= 0 && json_integer_value(v) <= 86400)
            s->prediction_ms = json_integer_value(v) * 1000;
        else {
            snprintf(err, errlen, "settings.%.40s: unknown, or not a valid value (see docs/protocol.md)", key);
            return false;
        }
    }
    if (s->size < 2 || s->size > 25)
        return settings_error(err, errlen, "size must be 2..25");
    if (strlen(rules) >= sizeof s->rules_text || strlen(time) >= sizeof s->time_spec)
        return settings_error(err, errlen, "rules or time too long");
    /* the rules go to engines on one GTP line: words and single spaces only */
    for (const char *c = rules; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f || (*c == ' ' && (c == rules || c[1] == ' ' || !c[1])))
            return settings_error(err, errlen, "settings.rules: words separated by single spaces");
    tg_rules_default(&s->rules);
    char why[160];
    if (tg_rules_apply(&s->rules, rules, why, sizeof why) != TG_OK) {
        snprintf(err, errlen, "rules: %s", why);
        return false;
    }
    snprintf(s->rules_text, sizeof s->rules_text, "%s", rules);
    /* online, an illegal move is refused with its reason, unless the
     * challenge names another policy (R6's void and lose are for boards
     * and engines) */
    if (!strstr(rules, "illegal="))
        s->rules.illegal = TG_ILLEGAL_REJECT;
    if (komi && !read_komi(komi, &s->rules.komi2))
        return settings_error(err, errlen, "komi must be a number in half points");
    if (s->handicap == 1 || s->handicap < 0 || s->handicap > ROOM_MAX_HANDICAP)
        return settings_error(err, errlen, "handicap must be 0 or 2..9");
    if (strcmp(placement, "fixed") == 0)
        s->free_placement = false;
    else if (strcmp(placement, "free") == 0)
        s->free_placement = true;
    else
        return settings_error(err, errlen, "handicap_placement must be fixed or free");
    if (s->handicap && !s->free_placement) {
        tg_board b;
        tg_point pts[ROOM_MAX_HANDICAP];
        if (tg_board_init(&b, s->size) != TG_OK ||
            tg_fixed_handicap_points(&b, s->handicap, pts) != s->handicap)
            return settings_error(err, errlen, "no fixed handicap of that many stones on this size");
    }
    if (s->handicap > s->size * s->size - 1)
        return settings_error(err, errlen, "too many handicap stones for this board");
    if (tg_time_control_parse(time, &s->time, why, sizeof why) != TG_OK) {
        snprintf(err, errlen, "time: %s", why);
        return false;
    }
    tg_time_control_format(&s->time, s->time_spec, sizeof s->time_spec);
    if (s->rules.free_opening) {
        /* 002: no handicap, and the players' predictions set the komi */
        if (s->handicap)
            return settings_error(err, errlen, "the free-opening ruleset has no handicap");
        if (s->rules.komi2 != 0) /* 0 is what the settings read back say */
            return settings_error(err, errlen, "under free-opening the predictions set the komi");
        if (s->prediction_ms < 0)
            s->prediction_ms = tg_prediction_time_ms(&s->time);
    } else if (s->prediction_ms >= 0) {
        return settings_error(err, errlen, "prediction_s is for the free-opening ruleset");
    }
    if (strcmp(color, "nigiri") == 0)
        s->color = 0;
    else if (!color_parse(color, (tg_color *)&s->color))
        return settings_error(err, errlen, "color must be nigiri, black or white");
    return true;
}

json_t *room_settings_to_json(const room_settings *s)
{
    json_t *o = json_pack("{s:i, s:s, s:f, s:i, s:s, s:s, s:s, s:I}", "size", s->size, "rules",
                     s->rules_text, "komi", s->rules.komi2 / 2.0, "handicap", s->handicap,
                     "handicap_placement", s->free_placement ? "free" : "fixed", "time",
                     s->time_spec, "color", s->color ? color_name((tg_color)s->color) : "nigiri",
                     "absence_s", (json_int_t)(s->absence_ms / 1000));
    if (o && s->rules.free_opening)
        json_object_set_new(o, "prediction_s", json_integer(s->prediction_ms / 1000));
    if (o && s->unrated)
        json_object_set_new(o, "rated", json_false());
    return o;
}

/* ---- events as stored ---------------------------------------------------- */

static const char *request_name(room_request w)
{
    return w == REQ_UNDO ? "undo" : w == REQ_PAUSE ? "pause" : w == REQ_RESUME ? "resume" : "none";
}

bool room_request_parse(const char *text, room_request *out)
{
    for (room_request w = REQ_UNDO; w <= REQ_RESUME; w++)
        if (strcmp(text, request_name(w)) == 0) {
            *out = w;
            return true;
        }
    return false;
}

static json_t *vertex_json(const room *r, tg_point p)
{
    char v[8];
    tg_point_to_vertex(tg_game_board(r->game), p, v);
    return json_string(v);
}

static json_t *points_json(const room *r, const tg_point *pts, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, vertex_json(r, pts[i]));
    return a;
}

static json_t *marked_json(const room *r, const uint8_t *marks)
{
    json_t *a = json_array();
    const tg_board *b = tg_game_board(r->game);
    for (int y = b->size - 1; y >= 0; y--)
        for (int x = 0; x < b->size; x++) {
            tg_point p = tg_point_at(b, x, y);
            if (marks[p])
                json_array_append_new(a, vertex_json(r, p));
        }
    return a;
}

json_t *room_event_to_json(const room *r, const room_event *ev)
{
    json_t *o = json_object();
    if (color_name(ev->color))
        json_object_set_new(o, "c", json_string(color_name(ev->color)));
    switch (ev->kind) {
    case EV_MOVE:
        json_object_set_new(o, "p", vertex_json(r, ev->point));
        if (ev->own)
            json_object_set_new(o, "own", json_true());
        break;
    case EV_TOGGLE: json_object_set_new(o, "p", vertex_json(r, ev->point)); break;
    case EV_PLACE:
    case EV_PROPOSAL: json_object_set_new(o, "points", points_json(r, ev->points, ev->npoints)); break;
    case EV_REQUEST: json_object_set_new(o, "what", json_string(request_name(ev->what))); break;
    case EV_ANSWER:
        json_object_set_new(o, "what", json_string(request_name(ev->what)));
        json_object_set_new(o, "accept", json_boolean(ev->accept));
        break;
    case EV_CHAT:
        json_object_set_new(o, "from", json_string(ev->from));
        json_object_set_new(o, "text", json_string(ev->text));
        break;
    case EV_RULING: json_object_set_new(o, "text", json_string(ev->text)); break;
    case EV_PREDICT: {
        char text[16];
        tg_prediction_format(ev->prediction2, text, sizeof text);
        json_object_set_new(o, "value", json_string(text));
        break;
    }
    default: break;
    }
    return o;
}

bool room_points_from_json(const room *r, const json_t *a, tg_point *out, int max, int *n)
{
    if (!json_is_array(a) || (int)json_array_size(a) > max)
        return false;
    const tg_board *b = tg_game_board(r->game);
    *n = 0;
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        tg_point p;
        if (!json_is_string(v) || tg_vertex_parse(b, json_string_value(v), &p) != TG_OK ||
            p == TG_PASS)
            return false;
        out[(*n)++] = p;
    }
    return true;
}

bool room_event_from_json(const room *r, room_event_kind kind, const json_t *data, room_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = kind;
    const char *c = NULL, *p = NULL, *what = NULL, *from = NULL, *text = NULL, *value = NULL;
    json_t *points = NULL;
    int accept = 0, own = 0;
    if (json_unpack((json_t *)data, "{s?s, s?s, s?o, s?s, s?b, s?s, s?s, s?s, s?b}", "c", &c, "p", &p,
                    "points", &points, "what", &what, "accept", &accept, "from", &from, "text",
                    &text, "value", &value, "own", &own) != 0)
        return false;
    ev->own = own != 0;
    if (value && tg_prediction_parse(value, &ev->prediction2) != TG_OK)
        return false;
    if (c && !color_parse(c, &ev->color))
        return false;
    if (p && tg_vertex_parse(tg_game_board(r->game), p, &ev->point) != TG_OK)
        return false;
    if (points && !room_points_from_json(r, points, ev->points, TG_MAX_POINTS, &ev->npoints))
        return false;
    if (what && !room_request_parse(what, &ev->what))
        return false;
    ev->accept = accept != 0;
    if (from)
        snprintf(ev->from, sizeof ev->from, "%s", from);
    if (text)
        snprintf(ev->text, sizeof ev->text, "%s", text);
    return true;
}

/* ---- what clients see ------------------------------------------------------ */

void room_board_string(const room *r, char *out)
{
    const tg_board *b = tg_game_board(r->game);
    int k = 0;
    for (int y = b->size - 1; y >= 0; y--)
        for (int x = 0; x < b->size; x++) {
            tg_color c = tg_board_at(b, tg_point_at(b, x, y));
            out[k++] = c == TG_BLACK ? 'X' : c == TG_WHITE ? 'O' : '.';
        }
    out[k] = '\0';
}

static json_t *player_clock_json(const room *r, tg_color c, int64_t now)
{
    tg_clock_view v;
    tg_clock_view_of(&r->ctl.clock, c, now, &v);
    return json_pack("{s:I, s:I, s:i, s:i, s:b}", "main_ms", (json_int_t)v.main_left_ms,
                     "period_ms", (json_int_t)v.period_left_ms, "periods", v.periods_left,
                     "stones", v.stones_left, "overtime", v.in_overtime);
}

json_t *room_clock_json(const room *r, int64_t now)
{
    const tg_clock *clock = &r->ctl.clock;
    tg_color running = r->phase == ROOM_PLAY ? clock->running : TG_EMPTY;
    json_t *calls = json_array();
    const tg_time_control *tc = &clock->tc;
    tg_clock_view view;
    if (running != TG_EMPTY)
        tg_clock_view_of(clock, running, now, &view);
    /* the countdown of the period the running player is in at `now` (a
     * simple clock is one period, always the last) */
    bool byoyomi = tc->system == TG_CLOCK_BYOYOMI || tc->system == TG_CLOCK_SIMPLE;
    if (running != TG_EMPTY && byoyomi && (view.in_overtime || tc->system == TG_CLOCK_SIMPLE)) {
        bool last = tc->system == TG_CLOCK_SIMPLE || view.periods_left <= 1;
        tg_byoyomi_call call;
        int64_t after = -1;
        while (tg_byoyomi_next_call(tc->period_ms, last, after, &call)) {
            json_array_append_new(calls, json_pack("{s:I, s:i, s:b}", "at_ms",
                                                   (json_int_t)call.at_ms, "number", call.number,
                                                   "count", call.count));
            after = call.at_ms;
        }
    }
    return json_pack("{s:o, s:b, s:o, s:o, s:o}", "running",
                     color_name(running) ? json_string(color_name(running)) : json_null(),
                     "paused", clock->paused, "black", player_clock_json(r, TG_BLACK, now),
                     "white", player_clock_json(r, TG_WHITE, now), "calls", calls);
}

static void result_texts(const room *r, char *re, size_t relen, char *en, char *zh, size_t len)
{
    const tg_result *result = tg_game_result(r->game);
    tg_result_to_sgf(result, re, relen);
    tg_result_stated(tg_game_rules(r->game), result, false, en, len);
    tg_result_stated(tg_game_rules(r->game), result, true, zh, len);
    if (r->tour && result->kind == TG_RESULT_NO_RESULT && strcmp(r->reason, "absence") == 0) {
        /* a tournament counts the game for neither (T3, R8) */
        snprintf(en, len, "Both players absent: both lose");
        snprintf(zh, len, "双方缺席，双负");
    } else if (strcmp(r->reason, "ruling") == 0) {
        if (result->winner == TG_EMPTY) {
            snprintf(en, len, "Ended by the organiser's ruling (see the tournament)");
            snprintf(zh, len, "裁判判定终局（见比赛成绩）");
        } else {
            snprintf(en, len, "%s wins by the organiser's ruling", result->winner == TG_BLACK ? "Black" : "White");
            snprintf(zh, len, "裁判判%s胜", result->winner == TG_BLACK ? "黑" : "白");
        }
    }
}

bool room_rated(const room *r)
{
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        if (r->engine[c][0] || r->user[c] <= 0 || strncasecmp(r->name[c], "guest-", 6) == 0)
            return false;
    return !r->settings.unrated && r->settings.handicap == 0;
}

json_t *room_tour_json(const room *r)
{
    return json_pack("{s:I, s:i, s:i}", "id", (json_int_t)r->tour, "round", r->tour_round, "board",
                     r->tour_board);
}

json_t *room_summary_json(const room *r)
{
    char re[32] = "", en[96], zh[96];
    if (r->phase == ROOM_OVER)
        result_texts(r, re, sizeof re, en, zh, sizeof en);
    json_t *o = json_pack("{s:I, s:s, s:s, s:b, s:b, s:i, s:s, s:f, s:i, s:s, s:i, s:o, s:b}", "id",
                          (json_int_t)r->id, "black", r->name[TG_BLACK], "white", r->name[TG_WHITE],
                          "black_engine", r->engine[TG_BLACK][0] != '\0', "white_engine",
                          r->engine[TG_WHITE][0] != '\0',
                          "size", r->settings.size, "rules", r->settings.rules_text, "komi",
                          tg_game_rules(r->game)->komi2 / 2.0, "handicap", r->settings.handicap, "phase",
                          room_phase_name(r->phase), "moves", tg_game_move_count(r->game), "result",
                          re[0] ? json_string(re) : json_null(), "rated", room_rated(r));
    for (tg_color c = TG_BLACK; o && c <= TG_WHITE; c++)
        if (r->rank[c][0])
            json_object_set_new(o, c == TG_BLACK ? "black_rank" : "white_rank", json_string(r->rank[c]));
    if (o && r->tour)
        json_object_set_new(o, "tournament", room_tour_json(r));
    return o;
}

static json_t *count_json(const room *r)
{
    const tg_score *s = &r->ctl.score;
    json_t *sides = json_object();
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        int points2 = c == TG_BLACK ? s->black2 : s->white2;
        json_object_set_new(sides, color_name(c),
                            json_pack("{s:i, s:i, s:i, s:f}", "stones", s->stones[c], "territory",
                                      s->territory[c], "prisoners", s->prisoners[c], "points",
                                      points2 / 2.0));
    }
    json_object_set_new(sides, "dame", json_integer(s->dame));
    /* the points counted as each side's territory, for the page to shade
     * (what the SGF's TB/TW hold, without the dead stones' points) */
    uint8_t area[TG_MAX_POINTS], mask[TG_MAX_POINTS];
    const tg_board *b = tg_game_board(r->game);
    tg_score_territory(b, tg_game_rules(r->game), r->ctl.dead[TG_BLACK], area);
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        for (tg_point p = 0; p < b->npoints; p++)
            mask[p] = area[p] == c;
        json_object_set_new(json_object_get(sides, color_name(c)), "territory_points", marked_json(r, mask));
    }
    json_object_set_new(sides, "komi", json_real(s->komi2 / 2.0));
    json_object_set_new(sides, "handicap_points", json_integer(s->handicap_points));
    json_object_set_new(sides, "warnings", json_pack("{s:i, s:i}", "black",
                                                     r->ctl.warnings[TG_BLACK], "white",
                                                     r->ctl.warnings[TG_WHITE]));
    return sides;
}

static json_t *player_json(const room *r, tg_color c)
{
    json_t *o = json_pack("{s:I, s:s, s:b}", "id", (json_int_t)r->user[c], "name", r->name[c],
                          "engine", r->engine[c][0] != '\0');
    if (o && r->rank[c][0])
        json_object_set_new(o, "rank", json_string(r->rank[c]));
    return o;
}

static json_t *moves_json(const room *r)
{
    json_t *a = json_array();
    for (int i = 0; i < tg_game_move_count(r->game); i++) {
        const tg_move *m = tg_game_move(r->game, i);
        json_t *move = json_pack("{s:i, s:s, s:o}", "n", i + 1, "color", color_name(m->color), "move",
                                 vertex_json(r, m->point));
        if (tg_game_move_captured_own(r->game, i))
            json_object_set_new(move, "own", json_true());
        json_array_append_new(a, move);
    }
    return a;
}

static json_t *setup_json(const room *r)
{
    json_t *a = json_array();
    for (int i = 0; i < tg_game_setup_count(r->game); i++) {
        const tg_setup *s = tg_game_setup_at(r->game, i);
        if (s->color == TG_BLACK)
            json_array_append_new(a, vertex_json(r, s->point));
    }
    return a;
}

static json_t *removal_json(const room *r)
{
    json_t *o = json_object();
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++)
        json_object_set_new(o, color_name(c),
                            json_pack("{s:b, s:o}", "stated", r->ctl.stated[c], "dead",
                                      marked_json(r, r->ctl.stated[c] ? r->ctl.dead[c] : r->mark[c])));
    json_object_set_new(o, "proposal", marked_json(r, r->proposal));
    return o;
}

static json_t *prediction_json(int white2)
{
    char text[16];
    tg_prediction_format(white2, text, sizeof text);
    return json_string(text);
}

/* The free opening as each viewer may see it: a prediction is shown to its
 * own player, and to anyone else only once both are sealed (002 §5.3). */
static json_t *free_opening_json(const room *r, tg_color you, int64_t now)
{
    if (!tg_game_rules(r->game)->free_opening)
        return json_null();
    tg_color placer = room_opening_placer(r);
    int n = tg_game_move_count(r->game);
    json_t *o = json_pack("{s:s, s:o, s:o, s:{s:b, s:b}, s:b}", "first", color_name(room_first_colour(r)),
                          "next_stone", placer != TG_EMPTY ? json_integer(n + 1) : json_null(),
                          "placer", placer != TG_EMPTY ? json_string(color_name(placer)) : json_null(),
                          "sealed", "first", r->predicted[0], "second", r->predicted[1], "revealed",
                          room_revealed(r));
    json_t *left = json_object();
    for (int seat = 0; seat < 2; seat++) {
        const char *key = seat == 0 ? "first" : "second";
        int64_t due = r->prediction_due[seat];
        bool counting = due != 0 && !r->predicted[seat] && !room_revealed(r) &&
                        r->phase != ROOM_OVER && due != INT64_MAX;
        json_object_set_new(left, key, counting ? json_integer(due > now ? due - now : 0) : json_null());
    }
    json_object_set_new(o, "prediction_ms", left);
    tg_color seat_colour = room_first_colour(r);
    int mine = you == TG_EMPTY ? -1 : you == seat_colour ? 0 : 1;
    json_object_set_new(o, "mine", mine >= 0 && r->predicted[mine] ? prediction_json(r->prediction2[mine])
                                                                    : json_null());
    if (room_revealed(r)) {
        char threshold[16];
        tg_threshold_format(r->decision.threshold4, threshold, sizeof threshold);
        json_object_set_new(o, "predictions", json_pack("{s:o, s:o}", "first",
                                                        prediction_json(r->prediction2[0]), "second",
                                                        prediction_json(r->prediction2[1])));
        json_object_set_new(o, "threshold", json_string(threshold));
    } else {
        json_object_set_new(o, "predictions", json_null());
        json_object_set_new(o, "threshold", json_null());
    }
    return o;
}

json_t *room_state_json(const room *r, tg_color you, int64_t now)
{
    char board[TG_MAX_POINTS + 1], rules[512], time[160], last[8] = "";
    const tg_board *b = tg_game_board(r->game);
    room_board_string(r, board);
    tg_rules_describe(tg_game_rules(r->game), rules, sizeof rules);
    tg_time_control_describe(&r->settings.time, time, sizeof time);
    if (tg_game_move_count(r->game) > 0)
        tg_point_to_vertex(b, tg_game_move(r->game, tg_game_move_count(r->game) - 1)->point, last);
    json_t *g = json_pack(
        "{s:I, s:i, s:s, s:s, s:f, s:i, s:s, s:s, s:s, s:I, s:o, s:o, s:o, s:s, s:b, s:s}", "id",
        (json_int_t)r->id, "size", r->settings.size, "rules", r->settings.rules_text,
        "rules_text", rules, "komi", tg_game_rules(r->game)->komi2 / 2.0, "handicap",
        r->settings.handicap, "handicap_placement", r->settings.free_placement ? "free" : "fixed",
        "time", r->settings.time_spec, "time_text", time, "absence_s",
        (json_int_t)(r->settings.absence_ms / 1000), "black", player_json(r, TG_BLACK), "white",
        player_json(r, TG_WHITE), "nigiri", r->nigiri[0] ? json_string(r->nigiri) : json_null(), "phase", room_phase_name(r->phase),
        "paused", r->paused, "to_move", color_name(tg_game_to_move(r->game)));
    json_object_set_new(g, "moves", moves_json(r));
    if (r->tour)
        json_object_set_new(g, "tournament", room_tour_json(r));
    json_object_set_new(g, "setup", setup_json(r));
    json_object_set_new(g, "board", json_string(board));
    json_object_set_new(g, "captures", json_pack("{s:i, s:i}", "black", b->captures[TG_BLACK],
                                                 "white", b->captures[TG_WHITE]));
    json_object_set_new(g, "last", last[0] ? json_string(last) : json_null());
    json_object_set_new(g, "clock", room_clock_json(r, now));
    json_object_set_new(g, "warnings", json_pack("{s:i, s:i}", "black", r->ctl.warnings[TG_BLACK],
                                                 "white", r->ctl.warnings[TG_WHITE]));
    json_object_set_new(g, "removal", r->phase == ROOM_REMOVAL ? removal_json(r) : json_null());
    json_object_set_new(g, "request",
                        r->request != REQ_NONE
                            ? json_pack("{s:s, s:s}", "what", request_name(r->request), "by",
                                        color_name(r->request_by))
                            : json_null());
    if (r->phase == ROOM_OVER) {
        char re[32], en[96], zh[96];
        result_texts(r, re, sizeof re, en, zh, sizeof en);
        json_object_set_new(g, "result", json_string(re));
        json_object_set_new(g, "result_text", json_string(en));
        json_object_set_new(g, "result_text_zh", json_string(zh));
        json_object_set_new(g, "reason", json_string(r->reason));
        if (strcmp(r->reason, "score") == 0)
            json_object_set_new(g, "count", count_json(r));
    } else {
        json_object_set_new(g, "result", json_null());
    }
    json_t *chat = json_array();
    int shown = 0, from = r->chat_count;
    while (from > 0 && shown < ROOM_CHAT_SHOWN)
        if (r->chat[--from].players || you == TG_EMPTY)
            shown++;
    for (int i = from; i < r->chat_count; i++)
        if (r->chat[i].players || you == TG_EMPTY)
            json_array_append_new(chat, json_pack("{s:s, s:s, s:s, s:i}", "channel",
                                                  r->chat[i].players ? "players" : "spectators",
                                                  "from", r->chat[i].from, "text", r->chat[i].text,
                                                  "move", r->chat[i].move));
    json_object_set_new(g, "chat", chat);
    /* the agreed dead stones of a counted game */
    json_object_set_new(g, "dead", r->phase == ROOM_OVER && strcmp(r->reason, "score") == 0
                                       ? marked_json(r, r->ctl.dead[TG_BLACK])
                                       : json_null());
    json_object_set_new(g, "free_opening", free_opening_json(r, you, now));
    json_object_set_new(g, "capture_choice", json_boolean(tg_game_rules(r->game)->capture_choice));
    json_object_set_new(g, "you", color_name(you) ? json_string(color_name(you)) : json_null());
    return g;
}

/* ---- the record ------------------------------------------------------------ */

static tg_sgf_node *node_of_move(tg_sgf_node *root, int move)
{
    /* the root holds the setup; move i (0-based) is i+1 nodes down */
    tg_sgf_node *n = root;
    for (int i = 0; n && i <= move; i++)
        n = n->child;
    return n;
}

char *room_sgf(const room *r, const char *date)
{
    tg_sgf_info info;
    memset(&info, 0, sizeof info);
    snprintf(info.black, sizeof info.black, "%s", r->name[TG_BLACK]);
    snprintf(info.white, sizeof info.white, "%s", r->name[TG_WHITE]);
    snprintf(info.date, sizeof info.date, "%s", date ? date : "");
    snprintf(info.event, sizeof info.event, "tengen serve, game %lld", (long long)r->id);
    tg_time_control_to_sgf_ot(&r->settings.time, info.overtime, sizeof info.overtime);
    info.main_time = tg_time_control_sgf_tm(&r->settings.time);
    info.clocks = r->clocks;
    info.clock_count = r->clocks ? tg_game_move_count(r->game) : 0;
    if (info.clock_count > r->clock_cap)
        info.clock_count = r->clock_cap;
    if (r->phase == ROOM_OVER)
        tg_result_to_sgf(tg_game_result(r->game), info.result, sizeof info.result);
    /* a counted game's agreed dead stones, so that counting the record
     * again gives its RE (TB/TW, see tg_sgf_info.has_dead) */
    if (r->phase == ROOM_OVER && strcmp(r->reason, "score") == 0) {
        info.has_dead = true;
        memcpy(info.dead, r->ctl.dead[TG_BLACK], sizeof info.dead);
    }
    if (room_revealed(r)) { /* never before both are sealed: the record is public */
        info.has_predictions = true;
        info.prediction_first2 = r->prediction2[0];
        info.prediction_second2 = r->prediction2[1];
        info.first_player = room_first_colour(r);
    }
    tg_sgf_tree *tree = tg_sgf_tree_from_game(r->game, &info);
    if (!tree)
        return NULL;
    tg_sgf_node *root = tg_sgf_tree_games(tree);
    if (r->nigiri[0])
        tg_sgf_property_add(tree, root, "GC", r->nigiri, strlen(r->nigiri));
    /* the players' chat as one comment (one C value, a line each) on the
     * node each line belongs to: the move it followed, or the position that
     * remained when that move was taken back, with a note naming it.  A
     * node's lines are consecutive, as room_chat.node never decreases. */
    for (int i = 0; i < r->chat_count;) {
        int node = r->chat[i].node;
        size_t cap = 1, used = 0;
        int j;
        for (j = i; j < r->chat_count && r->chat[j].node == node; j++)
            cap += strlen(r->chat[j].from) + strlen(r->chat[j].text) +
                   sizeof " (said after a pass, taken back)" + 3;
        char *comment = malloc(cap);
        if (!comment)
            break;
        comment[0] = '\0';
        for (int k = i; k < j; k++) {
            const room_chat *c = &r->chat[k];
            if (!c->players)
                continue;
            used += (size_t)snprintf(comment + used, cap - used, "%s%s: %s", used ? "\n" : "", c->from,
                                     c->text);
            if (c->taken_back[0])
                used += (size_t)snprintf(comment + used, cap - used, " (said after %s, taken back)",
                                         strcmp(c->taken_back, "pass") ? c->taken_back : "a pass");
        }
        tg_sgf_node *n = node > 0 ? node_of_move(root, node - 1) : root;
        if (n && used)
            tg_sgf_property_add(tree, n, "C", comment, used);
        free(comment);
        i = j;
    }
    char *text = tg_sgf_write(tree, NULL);
    tg_sgf_tree_free(tree);
    return text;
}
