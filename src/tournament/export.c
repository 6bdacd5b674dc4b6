/*
 * export.c — the tournament in other programs' formats: OpenGotha's XML
 * (both ways), the EGF results format (.h9-like text) and the AGA results
 * format.  The HTML standings page is standings.c's.
 *
 * OpenGotha names players by a key, the upper-cased name and first name
 * joined; tengen keeps one name and writes it as OpenGotha's name with an
 * empty first name.  Participation is OpenGotha's string of 0/1 per
 * round; tables are numbered from 0 there, boards from 1 here.  AGA ids
 * are not kept by tengen: the AGA file numbers players by id + 1.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/tournament.h"
#include "tournament/internal.h"
#include "tournament/xml.h"

static void opengotha_key(const char *name, const char *first, char *key, size_t size)
{
    snprintf(key, size, "%s%s", name, first ? first : "");
    for (char *k = key; *k; k++)
        *k = (char)toupper((unsigned char)*k);
}

static const char *opengotha_result(const tg_tour_result *r)
{
    bool bydef = r->reason == TG_REASON_FORFEIT || r->reason == TG_REASON_ABSENCE;
    switch (r->outcome) {
    case TG_OUTCOME_BLACK_WINS: return bydef ? "RESULT_BLACKWINS_BYDEF" : "RESULT_BLACKWINS";
    case TG_OUTCOME_WHITE_WINS: return bydef ? "RESULT_WHITEWINS_BYDEF" : "RESULT_WHITEWINS";
    case TG_OUTCOME_JIGO: return "RESULT_EQUAL";
    case TG_OUTCOME_BOTH_LOSE: return "RESULT_BOTHLOSE";
    default: return "RESULT_UNKNOWN";
    }
}

static void rank_upper(int rank, char *buf, size_t size)
{
    tg_rank_text(rank, buf, size);
    for (char *c = buf; *c; c++)
        *c = (char)toupper((unsigned char)*c);
}

static void attribute(tour_text *b, const char *name, const char *value)
{
    tour_printf(b, " %s=\"", name);
    tour_escape_xml(b, value);
    tour_printf(b, "\"");
}

char *tg_tour_to_opengotha(const tg_tournament *t)
{
    tour_text b = {0};
    const tg_tour_settings *s = &t->settings;
    int rounds = s->rounds > t->round_count ? s->rounds : t->round_count;
    tour_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                    "<Tournament dataVersion=\"201\" fullVersionNumber=\"3.51\" runningMode=\"SAL\">\n"
                    "<Players>\n");
    for (int i = 0; i < t->player_count; i++) {
        const tg_tour_player *p = &t->players[i];
        char rank[8], participating[TG_TOUR_MAX_ROUNDS + 1], rating[16];
        for (int r = 1; r <= rounds; r++)
            participating[r - 1] = tg_tour_present(t, i, r) ? '1' : '0';
        participating[rounds] = 0;
        rank_upper(p->rank, rank, sizeof rank);
        snprintf(rating, sizeof rating, "%d", 2100 + 100 * p->rank);
        tour_printf(&b, "<Player");
        attribute(&b, "name", p->name);
        attribute(&b, "firstName", "");
        attribute(&b, "rank", rank);
        attribute(&b, "rating", rating);
        attribute(&b, "club", p->club);
        attribute(&b, "country", p->country);
        attribute(&b, "participating", participating);
        attribute(&b, "registeringStatus", "FIN");
        tour_printf(&b, "/>\n");
    }
    tour_printf(&b, "</Players>\n<Games>\n");
    char key[2 * TG_TOUR_TEXT];
    for (int r = 1; r <= t->round_count; r++) {
        const tg_tour_round *round = &t->rounds[r - 1];
        for (int i = 0; i < round->game_count; i++) {
            const tg_tour_game *g = &round->games[i];
            tour_printf(&b, "<Game");
            opengotha_key(t->players[g->black].name, "", key, sizeof key);
            attribute(&b, "blackPlayer", key);
            opengotha_key(t->players[g->white].name, "", key, sizeof key);
            attribute(&b, "whitePlayer", key);
            tour_printf(&b, " handicap=\"%d\" knownColor=\"true\" result=\"%s\" roundNumber=\"%d\" "
                            "tableNumber=\"%d\"/>\n",
                        g->handicap, opengotha_result(&g->result), r, g->board - 1);
        }
    }
    tour_printf(&b, "</Games>\n<ByePlayer>\n");
    for (int r = 1; r <= t->round_count; r++)
        for (int i = 0; i < t->rounds[r - 1].bye_count; i++) {
            opengotha_key(t->players[t->rounds[r - 1].byes[i]].name, "", key, sizeof key);
            tour_printf(&b, "<ByePlayer");
            attribute(&b, "player", key);
            tour_printf(&b, " roundNumber=\"%d\"/>\n", r);
        }
    char bar[8], floor_[8];
    rank_upper(s->bar, bar, sizeof bar);
    rank_upper(s->floor, floor_, sizeof floor_);
    tour_printf(&b, "</ByePlayer>\n<TournamentParameterSet>\n<GeneralParameterSet");
    attribute(&b, "name", s->name);
    attribute(&b, "shortName", s->name);
    tour_printf(&b, " numberOfRounds=\"%d\" genMMBar=\"%s\" genMMFloor=\"%s\" komi=\"%d.%d\" "
                    "tournamentType=\"%s\"/>\n",
                s->rounds, bar, floor_, s->komi2 / 2, s->komi2 % 2 ? 5 : 0,
                s->system == TG_SYSTEM_MCMAHON ? "MCMAHON"
                : s->system == TG_SYSTEM_SWISS ? "SWISS"
                                               : "ROUNDROBIN");
    tour_printf(&b, "<HandicapParameterSet hdBasedOnMMS=\"%s\" hdCeiling=\"%d\" hdCorrection=\"%d\" "
                    "hdNoHdRankThreshold=\"%s\"/>\n</TournamentParameterSet>\n</Tournament>\n",
                s->handicap == TG_HANDICAP_MCMAHON ? "true" : "false",
                s->handicap == TG_HANDICAP_NONE ? 0 : s->max_handicap, s->handicap_reduction, "30K");
    return tour_text_take(&b);
}

static bool parse_int(const char *text, int lo, int hi, int *out)
{
    if (!text || !*text)
        return false;
    char *end;
    long v = strtol(text, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

static bool read_general(const xml_element *root, tg_tour_settings *s, char *err, size_t errlen)
{
    const xml_element *set = xml_child(root, "TournamentParameterSet");
    const xml_element *general = set ? xml_child(set, "GeneralParameterSet") : NULL;
    const char *type = general ? xml_get(general, "tournamentType") : NULL;
    tg_tour_settings_default(s, type && !strcmp(type, "SWISS")        ? TG_SYSTEM_SWISS
                                : type && !strcmp(type, "ROUNDROBIN") ? TG_SYSTEM_ROUND_ROBIN
                                                                      : TG_SYSTEM_MCMAHON);
    if (!general)
        return true;
    const char *name = xml_get(general, "name"), *text;
    if (name)
        tour_copy_text(s->name, sizeof s->name, name);
    if ((text = xml_get(general, "numberOfRounds")) &&
        !parse_int(text, 1, TG_TOUR_MAX_ROUNDS, &s->rounds)) {
        tour_error(err, errlen, "numberOfRounds must be 1..%d", TG_TOUR_MAX_ROUNDS);
        return false;
    }
    if (((text = xml_get(general, "genMMBar")) && tg_rank_parse(text, &s->bar) != TG_OK) ||
        ((text = xml_get(general, "genMMFloor")) && tg_rank_parse(text, &s->floor) != TG_OK) ||
        s->floor > s->bar) {
        tour_error(err, errlen, "genMMBar and genMMFloor must be ranks, the floor below the bar");
        return false;
    }
    if ((text = xml_get(general, "komi"))) {
        char *end;
        double komi = strtod(text, &end);
        if (*end || !(komi >= -100 && komi <= 100) || komi * 2 != (int)(komi * 2)) {
            tour_error(err, errlen, "komi '%.20s' is not a half-integer", text);
            return false;
        }
        s->komi2 = (int)(komi * 2);
        s->jigo_allowed = s->komi2 % 2 == 0;
    }
    const xml_element *handicap = xml_child(set, "HandicapParameterSet");
    if (handicap) {
        const char *mms = xml_get(handicap, "hdBasedOnMMS");
        int ceiling = s->max_handicap, correction = s->handicap_reduction;
        if (((text = xml_get(handicap, "hdCeiling")) && !parse_int(text, 0, 9, &ceiling)) ||
            ((text = xml_get(handicap, "hdCorrection")) && !parse_int(text, -9, 40, &correction))) {
            tour_error(err, errlen, "hdCeiling must be 0..9 and hdCorrection a number");
            return false;
        }
        s->max_handicap = ceiling;
        s->handicap_reduction = correction < 0 ? 0 : correction;
        s->handicap = ceiling == 0              ? TG_HANDICAP_NONE
                      : mms && !strcmp(mms, "false") ? TG_HANDICAP_RANK
                                                     : TG_HANDICAP_MCMAHON;
    }
    return true;
}

static bool read_players(const xml_element *root, tg_tournament *t, char *err, size_t errlen)
{
    const xml_element *players = xml_child(root, "Players");
    for (int i = 0; players && i < players->child_count; i++) {
        const xml_element *e = &players->children[i];
        if (strcmp(e->name, "Player"))
            continue;
        tg_tour_player p = {0};
        const char *name = xml_get(e, "name"), *first = xml_get(e, "firstName");
        const char *rank = xml_get(e, "rank"), *participating = xml_get(e, "participating");
        if (!name || !rank || tg_rank_parse(rank, &p.rank) != TG_OK) {
            tour_error(err, errlen, "player %d: a name and a rank (such as 3K, 2D) are needed", i + 1);
            return false;
        }
        snprintf(p.name, sizeof p.name, "%s%s%s", name, first && *first ? " " : "",
                 first ? first : "");
        tour_copy_text(p.club, sizeof p.club, xml_get(e, "club"));
        tour_copy_text(p.country, sizeof p.country, xml_get(e, "country"));
        p.joined_round = 1;
        for (int r = 0; participating && participating[r] && r < TG_TOUR_MAX_ROUNDS; r++)
            if (participating[r] == '0')
                p.skipped |= 1ULL << r;
        if (tg_tour_add_player(t, &p, NULL, err, errlen) != TG_OK)
            return false;
    }
    return true;
}

/* The player whose OpenGotha key is key, or -1. */
static int find_key(const tg_tournament *t, const char *key)
{
    char mine[2 * TG_TOUR_TEXT];
    for (int i = 0; key && i < t->player_count; i++) {
        opengotha_key(t->players[i].name, "", mine, sizeof mine);
        char other[2 * TG_TOUR_TEXT];
        snprintf(other, sizeof other, "%s", mine);
        /* "Name First" was read from name + firstName: its key has no space */
        char *w = other;
        for (const char *c = mine; *c; c++)
            if (*c != ' ')
                *w++ = *c;
        *w = 0;
        if (!strcmp(mine, key) || !strcmp(other, key))
            return i;
    }
    return -1;
}

static bool read_opengotha_result(const char *text, tg_tour_result *r)
{
    static const struct {
        const char *name;
        tg_outcome outcome;
        tg_win_reason reason;
    } results[] = {
        {"RESULT_UNKNOWN", TG_OUTCOME_NONE, TG_REASON_UNSTATED},
        {"RESULT_BLACKWINS", TG_OUTCOME_BLACK_WINS, TG_REASON_UNSTATED},
        {"RESULT_WHITEWINS", TG_OUTCOME_WHITE_WINS, TG_REASON_UNSTATED},
        {"RESULT_BLACKWINS_BYDEF", TG_OUTCOME_BLACK_WINS, TG_REASON_FORFEIT},
        {"RESULT_WHITEWINS_BYDEF", TG_OUTCOME_WHITE_WINS, TG_REASON_FORFEIT},
        {"RESULT_EQUAL", TG_OUTCOME_JIGO, TG_REASON_UNSTATED},
        {"RESULT_EQUAL_BYDEF", TG_OUTCOME_JIGO, TG_REASON_UNSTATED},
        {"RESULT_BOTHLOSE", TG_OUTCOME_BOTH_LOSE, TG_REASON_UNSTATED},
        {"RESULT_BOTHLOSE_BYDEF", TG_OUTCOME_BOTH_LOSE, TG_REASON_UNSTATED},
    };
    for (size_t i = 0; text && i < sizeof results / sizeof results[0]; i++)
        if (!strcmp(text, results[i].name)) {
            *r = (tg_tour_result){results[i].outcome, results[i].reason, 0};
            return true;
        }
    return false;
}

static tg_tour_round *round_for(tg_tournament *t, int number)
{
    while (t->round_count < number) {
        tg_tour_round *r = tour_append_round(t);
        if (!r)
            return NULL;
        r->games = malloc(sizeof *r->games);
        r->byes = malloc(sizeof *r->byes);
        r->lots = malloc(((size_t)t->player_count + 1) * sizeof *r->lots);
        if (!r->games || !r->byes || !r->lots)
            return NULL;
        for (int p = 0; p < t->player_count; p++)
            r->lots[r->lot_count++] = p;
    }
    return &t->rounds[number - 1];
}

/* A player already in the round, or -1. */
static bool in_round(const tg_tour_round *r, int player)
{
    for (int i = 0; i < r->game_count; i++)
        if (r->games[i].black == player || r->games[i].white == player)
            return true;
    for (int i = 0; i < r->bye_count; i++)
        if (r->byes[i] == player)
            return true;
    return false;
}

static bool read_games(const xml_element *root, tg_tournament *t, char *err, size_t errlen)
{
    const xml_element *games = xml_child(root, "Games");
    for (int i = 0; games && i < games->child_count; i++) {
        const xml_element *e = &games->children[i];
        if (strcmp(e->name, "Game"))
            continue;
        int number, table, handicap = 0;
        tg_tour_result result;
        int black = find_key(t, xml_get(e, "blackPlayer")), white = find_key(t, xml_get(e, "whitePlayer"));
        if (!parse_int(xml_get(e, "roundNumber"), 1, TG_TOUR_MAX_ROUNDS, &number) ||
            !parse_int(xml_get(e, "tableNumber"), 0, TG_TOUR_MAX_PLAYERS, &table) ||
            (xml_get(e, "handicap") && !parse_int(xml_get(e, "handicap"), 0, 9, &handicap)) ||
            black < 0 || white < 0 || black == white ||
            !read_opengotha_result(xml_get(e, "result"), &result)) {
            tour_error(err, errlen, "game %d: round, table, known players and a result are needed", i + 1);
            return false;
        }
        tg_tour_round *r = round_for(t, number);
        if (!r)
            return false;
        if (in_round(r, black) || in_round(r, white) || tour_find_game(t, number, table + 1)) {
            tour_error(err, errlen, "game %d: a player or a table twice in round %d", i + 1, number);
            return false;
        }
        tg_tour_game *grown = realloc(r->games, (size_t)(r->game_count + 1) * sizeof *grown);
        if (!grown)
            return false;
        r->games = grown;
        int komi2 = handicap > 0 ? (t->settings.jigo_allowed ? 0 : 1) : t->settings.komi2;
        grown[r->game_count++] = (tg_tour_game){table + 1, black, white, handicap, komi2, result, false};
    }
    const xml_element *byes = xml_child(root, "ByePlayer");
    for (int i = 0; byes && i < byes->child_count; i++) {
        const xml_element *e = &byes->children[i];
        int number, player = find_key(t, xml_get(e, "player"));
        if (!parse_int(xml_get(e, "roundNumber"), 1, TG_TOUR_MAX_ROUNDS, &number) || player < 0) {
            tour_error(err, errlen, "bye %d: a known player and a round are needed", i + 1);
            return false;
        }
        tg_tour_round *r = round_for(t, number);
        if (!r)
            return false;
        if (in_round(r, player)) {
            tour_error(err, errlen, "bye %d: the player plays in round %d", i + 1, number);
            return false;
        }
        int *grown = realloc(r->byes, (size_t)(r->bye_count + 1) * sizeof *grown);
        if (!grown)
            return false;
        r->byes = grown;
        grown[r->bye_count++] = player;
    }
    if (t->round_count > t->settings.rounds)
        t->settings.rounds = t->round_count;
    return true;
}

tg_status tg_tour_from_opengotha(const char *text, size_t length, tg_tournament **out, char *err,
                                 size_t errlen)
{
    *out = NULL;
    if (err && errlen)
        err[0] = 0;
    xml_element *root;
    tg_status status = xml_parse(text, length, &root, err, errlen);
    if (status != TG_OK)
        return status;
    tg_tour_settings s;
    tg_tournament *t = NULL;
    bool ok = !strcmp(root->name, "Tournament");
    if (!ok)
        tour_error(err, errlen, "not an OpenGotha file (the document element is <%.40s>)", root->name);
    ok = ok && read_general(root, &s, err, errlen) && (t = tg_tour_new(&s)) != NULL &&
         read_players(root, t, err, errlen) && read_games(root, t, err, errlen);
    xml_free(root);
    if (!ok) {
        if (err && errlen && !err[0])
            tour_error(err, errlen, "out of memory");
        tg_tour_free(t);
        return TG_ERR_PARSE;
    }
    *out = t;
    return TG_OK;
}

/* "Surname Firstname" for EGF: the first word, then the rest joined by _ */
static void egf_name(const char *name, char *out, size_t size)
{
    char copy[TG_TOUR_TEXT];
    tour_copy_text(copy, sizeof copy, name);
    for (char *c = copy; *c; c++)
        if (*c == '\t')
            *c = ' ';
    char *space = strchr(copy, ' ');
    if (space) {
        *space = 0;
        for (char *c = space + 1; *c; c++)
            if (*c == ' ')
                *c = '_';
    }
    snprintf(out, size, "%s %s", copy, space && space[1] ? space + 1 : "-");
}

char *tg_tour_to_egf(const tg_tournament *t)
{
    tg_standing *st;
    if (tg_tour_standings(t, 0, &st) != TG_OK)
        return NULL;
    int *place_of = malloc(((size_t)t->player_count + 1) * sizeof *place_of);
    if (!place_of) {
        free(st);
        return NULL;
    }
    for (int i = 0; i < t->player_count; i++)
        place_of[st[i].player] = i + 1;
    const tg_tour_settings *s = &t->settings;
    tour_text b = {0};
    tour_printf(&b, "; EV[%s]\n; CL[A]\n; HA[%s]\n; KM[%d.%d]\n; TC[%s]\n", s->name,
                s->handicap == TG_HANDICAP_NONE ? "h0" : "h9", s->komi2 / 2, s->komi2 % 2 ? 5 : 0,
                s->system == TG_SYSTEM_MCMAHON ? "McMahon" : s->system == TG_SYSTEM_SWISS ? "Swiss" : "Round robin");
    tour_printf(&b, "; Pl Name Rk Co Club");
    for (int k = 0; k < s->tiebreak_count; k++)
        tour_printf(&b, " %s", tg_tiebreak_name(s->tiebreaks[k]));
    tour_printf(&b, "\n");
    for (int i = 0; i < t->player_count; i++) {
        const tg_tour_player *p = &t->players[st[i].player];
        char name[2 * TG_TOUR_TEXT + 4], rank[8];
        egf_name(p->name, name, sizeof name);
        tour_printf(&b, "%4d %-30s %-3s %-2s %-6s", st[i].place, name,
                    tg_rank_text(p->rank, rank, sizeof rank), p->country[0] ? p->country : "xx",
                    p->club[0] ? p->club : "-");
        for (int k = 0; k < s->tiebreak_count; k++) {
            int64_t v = st[i].tiebreak[s->tiebreaks[k]];
            tour_printf(&b, " %4lld%s", (long long)(v / 2), v % 2 ? ".5" : "");
        }
        for (int r = 1; r <= t->round_count; r++) {
            const tg_tour_round *round = &t->rounds[r - 1];
            const tg_tour_game *g = NULL;
            for (int k = 0; k < round->game_count; k++)
                if (round->games[k].black == st[i].player || round->games[k].white == st[i].player)
                    g = &round->games[k];
            int points = tour_points_in_round(t, st[i].player, r, NULL);
            char mark = points == 2 ? '+' : points == 1 ? '=' : '-';
            if (!g) {
                tour_printf(&b, "  0%c", mark);
                continue;
            }
            if (g->result.outcome == TG_OUTCOME_NONE || g->result.outcome == TG_OUTCOME_REPLAY)
                mark = '?';
            bool black = g->black == st[i].player;
            bool unplayed = g->result.reason == TG_REASON_FORFEIT || g->result.reason == TG_REASON_ABSENCE;
            tour_printf(&b, " %3d%c%s/%c", place_of[black ? g->white : g->black], mark,
                        unplayed ? "!" : "", black ? 'b' : 'w');
            if (g->handicap > 0)
                tour_printf(&b, "%d", g->handicap);
        }
        tour_printf(&b, "\n");
    }
    free(st);
    free(place_of);
    return tour_text_take(&b);
}

char *tg_tour_to_aga(const tg_tournament *t)
{
    tour_text b = {0};
    tour_printf(&b, "TOURNEY %s\n\trules=%s\nPLAYERS\n", t->settings.name,
                t->settings.jigo_allowed ? "Japanese" : "AGA");
    for (int i = 0; i < t->player_count; i++) {
        char name[2 * TG_TOUR_TEXT + 4], rank[8];
        egf_name(t->players[i].name, name, sizeof name);
        char *space = strchr(name, ' ');
        if (space)
            *space = 0;
        tour_printf(&b, "%5d %s, %s %s\n", i + 1, name, space ? space + 1 : "-",
                    tg_rank_text(t->players[i].rank, rank, sizeof rank));
    }
    tour_printf(&b, "GAMES\n");
    for (int r = 1; r <= t->round_count; r++) {
        const tg_tour_round *round = &t->rounds[r - 1];
        tour_printf(&b, "# Round %d\n", r);
        for (int i = 0; i < round->game_count; i++) {
            const tg_tour_game *g = &round->games[i];
            tg_outcome o = g->result.outcome;
            /* the AGA rates played games with a winner only */
            if ((o != TG_OUTCOME_BLACK_WINS && o != TG_OUTCOME_WHITE_WINS) ||
                g->result.reason == TG_REASON_FORFEIT || g->result.reason == TG_REASON_ABSENCE)
                continue;
            tour_printf(&b, "%5d %5d %c %d %d\n", g->white + 1, g->black + 1,
                        o == TG_OUTCOME_WHITE_WINS ? 'W' : 'B', g->handicap, g->komi2 / 2);
        }
    }
    return tour_text_take(&b);
}
