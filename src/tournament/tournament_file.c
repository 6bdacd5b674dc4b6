/*
 * tournament_file.c — the tournament file: one JSON document (jansson)
 * that holds everything needed to go on: settings, players, every round's
 * pairing, lots and results, and the log of corrections.
 *
 *   {"format": "tengen-tournament", "version": 1,
 *    "settings": {"name", "system": "mcmahon|swiss|round-robin", "rounds",
 *                 "bar": "4d", "floor": "20k", "handicap": "none|mcmahon|rank",
 *                 "handicap_reduction", "max_handicap", "komi": 6.5,
 *                 "jigo_allowed", "bye_points": 1, "absent_points": 0,
 *                 "seeding": "adjacent|fold", "tiebreaks": "score,sos,...",
 *                 "seed": "decimal", "glicko_tau", "weights": {...}},
 *    "players": [{"name", "rank": "3d", "club", "country", "rating",
 *                 "deviation", "volatility", "joined_round",
 *                 "withdrawn_round", "skipped": [rounds]}],
 *    "rounds": [{"number", "lot_seed": "decimal", "lots": [per player],
 *                "games": [{"board", "black", "white", "handicap", "komi",
 *                           "result": "B+R", "manual"}],
 *                "byes": [ids], "by_lot": [[round, board, "B|W"]]}],
 *    "corrections": [{"round", "board", "from", "to", "note"}]}
 *
 * Players are referred to by their index in "players".  The reader checks
 * everything a pairing relies on (ids, a player once per round, lots for
 * every player of the round) and says where a file is wrong.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tengen/tournament.h"
#include "tournament/internal.h"

static const char *const system_names[] = {"mcmahon", "swiss", "round-robin", NULL};
static const char *const handicap_names[] = {"none", "mcmahon", "rank", NULL};
static const char *const seeding_names[] = {"adjacent", "fold", NULL};

static const struct {
    const char *name;
    size_t offset;
} weight_fields[] = {
    {"score_gap", offsetof(tg_pairing_weights, score_gap)},
    {"handicap_over", offsetof(tg_pairing_weights, handicap_over)},
    {"colour", offsetof(tg_pairing_weights, colour)},
    {"same_club", offsetof(tg_pairing_weights, same_club)},
    {"same_country", offsetof(tg_pairing_weights, same_country)},
    {"float_repeat", offsetof(tg_pairing_weights, float_repeat)},
    {"seeding", offsetof(tg_pairing_weights, seeding)},
    {"bye_repeat", offsetof(tg_pairing_weights, bye_repeat)},
    {"bye_place", offsetof(tg_pairing_weights, bye_place)},
};

static json_t *seed_json(uint64_t seed)
{
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
    return json_string(text);
}

static json_t *settings_json(const tg_tour_settings *s)
{
    char bar[8], floor_[8], tiebreaks[128] = "";
    for (int i = 0; i < s->tiebreak_count; i++) {
        strcat(tiebreaks, i ? "," : "");
        strcat(tiebreaks, tg_tiebreak_name(s->tiebreaks[i]));
    }
    json_t *weights = json_object();
    for (size_t i = 0; i < sizeof weight_fields / sizeof weight_fields[0]; i++)
        json_object_set_new(weights, weight_fields[i].name,
                            json_integer(*(const int64_t *)((const char *)&s->weights +
                                                            weight_fields[i].offset)));
    json_object_set_new(weights, "club_rounds", json_integer(s->weights.club_rounds));
    return json_pack("{s:s, s:s, s:i, s:s, s:s, s:s, s:i, s:i, s:f, s:b, s:f, s:f, s:s, s:s, s:o, "
                     "s:f, s:o}",
                     "name", s->name, "system", system_names[s->system], "rounds", s->rounds, "bar",
                     tg_rank_text(s->bar, bar, sizeof bar), "floor",
                     tg_rank_text(s->floor, floor_, sizeof floor_), "handicap",
                     handicap_names[s->handicap], "handicap_reduction", s->handicap_reduction,
                     "max_handicap", s->max_handicap, "komi", s->komi2 / 2.0, "jigo_allowed",
                     s->jigo_allowed, "bye_points", s->bye_points2 / 2.0, "absent_points",
                     s->absent_points2 / 2.0, "seeding", seeding_names[s->seeding], "tiebreaks",
                     tiebreaks, "seed", seed_json(s->seed), "glicko_tau", s->glicko_tau, "weights",
                     weights);
}

static json_t *player_json(const tg_tour_player *p)
{
    char rank[8];
    json_t *skipped = json_array();
    for (int r = 1; r <= TG_TOUR_MAX_ROUNDS; r++)
        if (p->skipped & (1ULL << (r - 1)))
            json_array_append_new(skipped, json_integer(r));
    return json_pack("{s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:i, s:i, s:o}", "name", p->name, "rank",
                     tg_rank_text(p->rank, rank, sizeof rank), "club", p->club, "country",
                     p->country, "rating", p->rating, "deviation", p->deviation, "volatility",
                     p->volatility, "joined_round", p->joined_round, "withdrawn_round",
                     p->withdrawn_round, "skipped", skipped);
}

static json_t *round_json(const tg_tour_round *r)
{
    json_t *games = json_array(), *byes = json_array(), *lots = json_array(),
           *by_lot = json_array();
    char result[32];
    for (int i = 0; i < r->game_count; i++) {
        const tg_tour_game *g = &r->games[i];
        json_array_append_new(
            games, json_pack("{s:i, s:i, s:i, s:i, s:f, s:s, s:b}", "board", g->board, "black",
                             g->black, "white", g->white, "handicap", g->handicap, "komi",
                             g->komi2 / 2.0, "result",
                             tg_tour_result_text(&g->result, result, sizeof result), "manual",
                             g->manual));
    }
    for (int i = 0; i < r->bye_count; i++)
        json_array_append_new(byes, json_integer(r->byes[i]));
    for (int i = 0; i < r->lot_count; i++)
        json_array_append_new(lots, json_integer(r->lots[i]));
    for (int i = 0; i < r->by_lot_count; i++)
        json_array_append_new(by_lot, json_pack("[i, i, s]", r->by_lot[i][0], r->by_lot[i][1],
                                                r->by_lot[i][2] == TG_BLACK ? "B" : "W"));
    return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}", "number", r->number, "lot_seed",
                     seed_json(r->lot_seed), "lots", lots, "games", games, "byes", byes, "by_lot",
                     by_lot);
}

char *tg_tour_to_json(const tg_tournament *t)
{
    json_t *players = json_array(), *rounds = json_array(), *corrections = json_array();
    for (int i = 0; i < t->player_count; i++)
        json_array_append_new(players, player_json(&t->players[i]));
    for (int i = 0; i < t->round_count; i++)
        json_array_append_new(rounds, round_json(&t->rounds[i]));
    for (int i = 0; i < t->correction_count; i++) {
        const tg_tour_correction *c = &t->corrections[i];
        char from[32], to[32];
        json_array_append_new(
            corrections, json_pack("{s:i, s:i, s:s, s:s, s:s}", "round", c->round, "board",
                                   c->board, "from", tg_tour_result_text(&c->from, from, sizeof from),
                                   "to", tg_tour_result_text(&c->to, to, sizeof to), "note", c->note));
    }
    json_t *doc = json_pack("{s:s, s:i, s:o, s:o, s:o, s:o}", "format", "tengen-tournament",
                            "version", 1, "settings", settings_json(&t->settings), "players",
                            players, "rounds", rounds, "corrections", corrections);
    if (!doc)
        return NULL;
    char *text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    return text;
}

/* The reader: each helper fills err and returns false on a bad value. */
typedef struct reader {
    char *err;
    size_t errlen;
} reader;

static bool read_int(reader *rd, json_t *obj, const char *key, int lo, int hi, int *out,
                     bool required)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required)
            tour_error(rd->err, rd->errlen, "'%s' is missing", key);
        return !required;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        tour_error(rd->err, rd->errlen, "'%s' must be an integer in %d..%d", key, lo, hi);
        return false;
    }
    *out = (int)json_integer_value(v);
    return true;
}

static bool read_half(reader *rd, json_t *obj, const char *key, int lo2, int hi2, int *out2)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return true;
    double x = json_number_value(v) * 2;
    if (!json_is_number(v) || !(x >= lo2 && x <= hi2) || x != floor(x)) {
        tour_error(rd->err, rd->errlen, "'%s' must be a whole or half number in %g..%g", key,
                   lo2 / 2.0, hi2 / 2.0);
        return false;
    }
    *out2 = (int)x;
    return true;
}

static bool read_real(reader *rd, json_t *obj, const char *key, double lo, double hi, double *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return true;
    if (!json_is_number(v) || !(json_number_value(v) >= lo && json_number_value(v) <= hi)) {
        tour_error(rd->err, rd->errlen, "'%s' must be a number in %g..%g", key, lo, hi);
        return false;
    }
    *out = json_number_value(v);
    return true;
}

static bool read_text(reader *rd, json_t *obj, const char *key, char *out, size_t size)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return true;
    if (!json_is_string(v) || json_string_length(v) >= size ||
        strlen(json_string_value(v)) != json_string_length(v)) {
        tour_error(rd->err, rd->errlen, "'%s' must be a text of under %zu bytes", key, size);
        return false;
    }
    tour_copy_text(out, size, json_string_value(v));
    return true;
}

static bool read_choice(reader *rd, json_t *obj, const char *key, const char *const *names,
                        int *out)
{
    char word[32] = "";
    if (!read_text(rd, obj, key, word, sizeof word))
        return false;
    if (!json_object_get(obj, key))
        return true;
    for (int i = 0; names[i]; i++)
        if (!strcasecmp(word, names[i])) {
            *out = i;
            return true;
        }
    tour_error(rd->err, rd->errlen, "'%s': unknown value '%s'", key, word);
    return false;
}

static bool read_rank(reader *rd, json_t *obj, const char *key, int *out)
{
    char word[16] = "";
    if (!read_text(rd, obj, key, word, sizeof word))
        return false;
    if (!json_object_get(obj, key))
        return true;
    if (tg_rank_parse(word, out) != TG_OK) {
        tour_error(rd->err, rd->errlen, "'%s': '%s' is not a rank (30k..9d)", key, word);
        return false;
    }
    return true;
}

static bool read_seed(reader *rd, json_t *obj, const char *key, uint64_t *out)
{
    char word[24] = "";
    if (!read_text(rd, obj, key, word, sizeof word))
        return false;
    if (!json_object_get(obj, key))
        return true;
    char *end;
    unsigned long long v = strtoull(word, &end, 10);
    if (!word[0] || *end || word[0] == '-') {
        tour_error(rd->err, rd->errlen, "'%s' must be a decimal number in a string", key);
        return false;
    }
    *out = v;
    return true;
}

static bool read_settings(reader *rd, json_t *obj, tg_tour_settings *s)
{
    int system = TG_SYSTEM_MCMAHON;
    if (!json_is_object(obj) || !read_choice(rd, obj, "system", system_names, &system)) {
        if (!json_is_object(obj))
            tour_error(rd->err, rd->errlen, "'settings' must be an object");
        return false;
    }
    tg_tour_settings_default(s, (tg_tour_system)system);
    int handicap = s->handicap, seeding = s->seeding;
    char tiebreaks[128] = "";
    if (!read_text(rd, obj, "name", s->name, sizeof s->name) ||
        !read_int(rd, obj, "rounds", 1, TG_TOUR_MAX_ROUNDS, &s->rounds, true) ||
        !read_rank(rd, obj, "bar", &s->bar) || !read_rank(rd, obj, "floor", &s->floor) ||
        !read_choice(rd, obj, "handicap", handicap_names, &handicap) ||
        !read_int(rd, obj, "handicap_reduction", 0, 40, &s->handicap_reduction, false) ||
        !read_int(rd, obj, "max_handicap", 0, 9, &s->max_handicap, false) ||
        !read_half(rd, obj, "komi", -200, 200, &s->komi2) ||
        !read_half(rd, obj, "bye_points", 0, 2, &s->bye_points2) ||
        !read_half(rd, obj, "absent_points", 0, 2, &s->absent_points2) ||
        !read_choice(rd, obj, "seeding", seeding_names, &seeding) ||
        !read_text(rd, obj, "tiebreaks", tiebreaks, sizeof tiebreaks) ||
        !read_seed(rd, obj, "seed", &s->seed) ||
        !read_real(rd, obj, "glicko_tau", 0.01, 10, &s->glicko_tau))
        return false;
    s->handicap = (tg_handicap_mode)handicap;
    s->seeding = (tg_seeding)seeding;
    s->jigo_allowed = json_is_true(json_object_get(obj, "jigo_allowed"));
    if (s->floor > s->bar) {
        tour_error(rd->err, rd->errlen, "the McMahon floor is above the bar");
        return false;
    }
    if (tiebreaks[0] &&
        tg_tiebreaks_parse(tiebreaks, s->tiebreaks, &s->tiebreak_count, rd->err, rd->errlen) != TG_OK)
        return false;
    json_t *weights = json_object_get(obj, "weights");
    for (size_t i = 0; weights && i < sizeof weight_fields / sizeof weight_fields[0]; i++) {
        json_t *v = json_object_get(weights, weight_fields[i].name);
        if (!v)
            continue;
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > (1LL << 56)) {
            tour_error(rd->err, rd->errlen, "weight '%s' must be an integer in 0..2^56",
                       weight_fields[i].name);
            return false;
        }
        *(int64_t *)((char *)&s->weights + weight_fields[i].offset) = json_integer_value(v);
    }
    if (weights && !read_int(rd, weights, "club_rounds", 0, TG_TOUR_MAX_ROUNDS,
                             &s->weights.club_rounds, false))
        return false;
    return true;
}

static bool read_player(reader *rd, json_t *obj, tg_tour_player *p)
{
    *p = (tg_tour_player){0};
    if (!json_is_object(obj)) {
        tour_error(rd->err, rd->errlen, "a player must be an object");
        return false;
    }
    if (!read_text(rd, obj, "name", p->name, sizeof p->name) ||
        !read_text(rd, obj, "club", p->club, sizeof p->club) ||
        !read_text(rd, obj, "country", p->country, sizeof p->country) ||
        !read_rank(rd, obj, "rank", &p->rank) ||
        !read_real(rd, obj, "rating", 1, 10000, &p->rating) ||
        !read_real(rd, obj, "deviation", 1, 1000, &p->deviation) ||
        !read_real(rd, obj, "volatility", 0.0001, 1, &p->volatility) ||
        !read_int(rd, obj, "joined_round", 1, TG_TOUR_MAX_ROUNDS + 1, &p->joined_round, false) ||
        !read_int(rd, obj, "withdrawn_round", 0, TG_TOUR_MAX_ROUNDS + 1, &p->withdrawn_round, false))
        return false;
    json_t *skipped = json_object_get(obj, "skipped"), *v;
    size_t i;
    json_array_foreach(skipped, i, v)
    {
        if (!json_is_integer(v) || json_integer_value(v) < 1 ||
            json_integer_value(v) > TG_TOUR_MAX_ROUNDS) {
            tour_error(rd->err, rd->errlen, "'skipped' lists rounds 1..%d", TG_TOUR_MAX_ROUNDS);
            return false;
        }
        p->skipped |= 1ULL << (json_integer_value(v) - 1);
    }
    return true;
}

static bool read_id(reader *rd, json_t *v, int player_count, int *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= player_count) {
        tour_error(rd->err, rd->errlen, "a player id must be an integer in 0..%d", player_count - 1);
        return false;
    }
    *out = (int)json_integer_value(v);
    return true;
}

static bool read_result(reader *rd, json_t *obj, const char *key, tg_tour_result *out)
{
    char word[32] = "?";
    if (!read_text(rd, obj, key, word, sizeof word))
        return false;
    if (tg_tour_result_parse(word, out) != TG_OK) {
        tour_error(rd->err, rd->errlen, "'%s' is not a result", word);
        return false;
    }
    return true;
}

static bool read_game(reader *rd, json_t *obj, int players, unsigned char *seen, tg_tour_game *g)
{
    *g = (tg_tour_game){0};
    if (!json_is_object(obj) || !read_int(rd, obj, "board", 1, TG_TOUR_MAX_PLAYERS, &g->board, true) ||
        !read_id(rd, json_object_get(obj, "black"), players, &g->black) ||
        !read_id(rd, json_object_get(obj, "white"), players, &g->white) ||
        !read_int(rd, obj, "handicap", 0, 9, &g->handicap, false) ||
        !read_half(rd, obj, "komi", -200, 200, &g->komi2) || !read_result(rd, obj, "result", &g->result)) {
        if (!json_is_object(obj))
            tour_error(rd->err, rd->errlen, "a game must be an object");
        return false;
    }
    g->manual = json_is_true(json_object_get(obj, "manual"));
    if (seen[g->black] || seen[g->white] || g->black == g->white) {
        tour_error(rd->err, rd->errlen, "a player plays twice in one round");
        return false;
    }
    seen[g->black] = seen[g->white] = 1;
    return true;
}

static bool read_round(reader *rd, tg_tournament *t, json_t *obj, int number)
{
    tg_tour_round *r = tour_append_round(t);
    if (!r) {
        tour_error(rd->err, rd->errlen, "out of memory");
        return false;
    }
    int n = t->player_count;
    json_t *games = json_object_get(obj, "games"), *byes = json_object_get(obj, "byes");
    json_t *lots = json_object_get(obj, "lots"), *by_lot = json_object_get(obj, "by_lot");
    int stated = number;
    if (!json_is_object(obj) || !read_int(rd, obj, "number", 1, TG_TOUR_MAX_ROUNDS, &stated, false) ||
        stated != number || !read_seed(rd, obj, "lot_seed", &r->lot_seed)) {
        tour_error(rd->err, rd->errlen, "round %d: not a round, or numbered out of order", number);
        return false;
    }
    unsigned char *seen = calloc((size_t)n + 1, 1);
    r->games = calloc(json_array_size(games) + 1, sizeof *r->games);
    r->byes = calloc(json_array_size(byes) + 1, sizeof *r->byes);
    r->lots = calloc(json_array_size(lots) + 1, sizeof *r->lots);
    r->by_lot = calloc(json_array_size(by_lot) + 1, sizeof *r->by_lot);
    bool ok = seen && r->games && r->byes && r->lots && r->by_lot;
    size_t i;
    json_t *v;
    json_array_foreach(games, i, v)
    {
        if (!ok || !read_game(rd, v, n, seen, &r->games[r->game_count++])) {
            ok = false;
            break;
        }
        for (int k = 0; k < r->game_count - 1; k++)
            if (r->games[k].board == r->games[r->game_count - 1].board) {
                tour_error(rd->err, rd->errlen, "two games on one board");
                ok = false;
            }
    }
    json_array_foreach(byes, i, v)
    {
        if (!ok || !read_id(rd, v, n, &r->byes[r->bye_count])) {
            ok = false;
            break;
        }
        if (seen[r->byes[r->bye_count]]) {
            tour_error(rd->err, rd->errlen, "a player with a bye also plays");
            ok = false;
            break;
        }
        seen[r->byes[r->bye_count++]] = 1;
    }
    /* players who joined later have no lot in this round */
    if (ok && json_array_size(lots) > (size_t)n) {
        tour_error(rd->err, rd->errlen, "'lots' lists more lots than the %d players", n);
        ok = false;
    }
    json_array_foreach(lots, i, v)
    {
        if (!ok || !json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= n) {
            if (ok)
                tour_error(rd->err, rd->errlen, "a lot must be an integer in 0..%d", n - 1);
            ok = false;
            break;
        }
        r->lots[r->lot_count++] = (int)json_integer_value(v);
    }
    json_array_foreach(by_lot, i, v)
    {
        int rr = (int)json_integer_value(json_array_get(v, 0));
        int board = (int)json_integer_value(json_array_get(v, 1));
        const char *colour = json_string_value(json_array_get(v, 2));
        if (!ok || rr < 1 || rr >= number || board < 1 || !colour ||
            (strcmp(colour, "B") && strcmp(colour, "W"))) {
            if (ok)
                tour_error(rd->err, rd->errlen, "'by_lot' entries are [round, board, \"B\"|\"W\"]");
            ok = false;
            break;
        }
        int *e = r->by_lot[r->by_lot_count++];
        e[0] = rr;
        e[1] = board;
        e[2] = colour[0] == 'B' ? TG_BLACK : TG_WHITE;
    }
    free(seen);
    if (ok && r->lot_count == 0) {
        /* lots are needed to pair again: none in the file, a fresh draw */
        r->lots = realloc(r->lots, ((size_t)n + 1) * sizeof *r->lots);
        ok = r->lots != NULL;
        for (int p = 0; ok && p < n; p++)
            r->lots[r->lot_count++] = p;
    }
    if (!ok && !rd->err[0])
        tour_error(rd->err, rd->errlen, "out of memory");
    return ok;
}

static bool read_corrections(reader *rd, tg_tournament *t, json_t *list)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        tg_tour_correction c = {0};
        if (!json_is_object(v) || !read_int(rd, v, "round", 1, TG_TOUR_MAX_ROUNDS, &c.round, true) ||
            !read_int(rd, v, "board", 1, TG_TOUR_MAX_PLAYERS, &c.board, true) ||
            !read_result(rd, v, "from", &c.from) || !read_result(rd, v, "to", &c.to) ||
            !read_text(rd, v, "note", c.note, sizeof c.note))
            return false;
        tg_tour_correction *grown =
            realloc(t->corrections, (size_t)(t->correction_count + 1) * sizeof *grown);
        if (!grown)
            return false;
        t->corrections = grown;
        grown[t->correction_count++] = c;
    }
    return true;
}

static bool read_document(reader *rd, json_t *doc, tg_tournament **out)
{
    if (!json_is_object(doc) ||
        strcmp(json_string_value(json_object_get(doc, "format")) ? json_string_value(json_object_get(doc, "format")) : "",
               "tengen-tournament")) {
        tour_error(rd->err, rd->errlen, "not a tengen tournament file (\"format\" is missing)");
        return false;
    }
    if (json_integer_value(json_object_get(doc, "version")) != 1) {
        tour_error(rd->err, rd->errlen, "tournament file version %lld is not known (1 is)",
                   (long long)json_integer_value(json_object_get(doc, "version")));
        return false;
    }
    tg_tour_settings s;
    if (!read_settings(rd, json_object_get(doc, "settings"), &s))
        return false;
    tg_tournament *t = *out = tg_tour_new(&s);
    if (!t)
        return false;
    json_t *players = json_object_get(doc, "players"), *rounds = json_object_get(doc, "rounds"), *v;
    size_t i;
    json_array_foreach(players, i, v)
    {
        tg_tour_player p;
        if (!read_player(rd, v, &p) || tg_tour_add_player(t, &p, NULL, rd->err, rd->errlen) != TG_OK)
            return false;
    }
    if (json_array_size(rounds) > TG_TOUR_MAX_ROUNDS) {
        tour_error(rd->err, rd->errlen, "more than %d rounds", TG_TOUR_MAX_ROUNDS);
        return false;
    }
    json_array_foreach(rounds, i, v)
    {
        if (!read_round(rd, t, v, (int)i + 1))
            return false;
    }
    return read_corrections(rd, t, json_object_get(doc, "corrections"));
}

tg_status tg_tour_from_json(const char *text, size_t length, tg_tournament **out, char *err,
                            size_t errlen)
{
    *out = NULL;
    char scratch[8];
    reader rd = {err ? err : scratch, err ? errlen : sizeof scratch};
    rd.err[0] = 0;
    json_error_t error;
    json_t *doc = json_loadb(text, length, JSON_REJECT_DUPLICATES, &error);
    if (!doc) {
        tour_error(rd.err, rd.errlen, "line %d: %s", error.line, error.text);
        return TG_ERR_PARSE;
    }
    tg_tournament *t = NULL;
    bool ok = read_document(&rd, doc, &t);
    json_decref(doc);
    if (!ok) {
        tg_tour_free(t);
        if (!rd.err[0])
            tour_error(rd.err, rd.errlen, "out of memory");
        return TG_ERR_PARSE;
    }
    *out = t;
    return TG_OK;
}
