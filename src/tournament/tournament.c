/*
 * tournament.c — the tournament's data: settings and their defaults,
 * players (late joiners, skipped rounds, withdrawals), ranks, results and
 * their log of corrections, and the scores the pairing and the standings
 * are built on.  Pairing is pairing.c, standings standings.c.
 */
#include "tengen/tournament.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tournament/internal.h"

void tour_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Bytes that are not UTF-8, and control characters, become '?': every
 * text of a tournament can be written to JSON, XML and HTML as it is. */
void tour_clean_text(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        int extra = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2
                                 : c >= 0xF0 && c <= 0xF4 ? 3 : -1;
        /* the second byte's range excludes overlong forms, surrogates and
         * code points above U+10FFFF */
        unsigned char low = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        unsigned char high = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        bool valid = extra >= 0 && (extra == 0 || (p[1] >= low && p[1] <= high));
        for (int i = 2; valid && i <= extra; i++)
            valid = (p[i] & 0xC0) == 0x80;
        if (!valid || c < 0x20 || c == 0x7F) {
            *p++ = '?';
            continue;
        }
        p += extra + 1;
    }
}

void tour_copy_text(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
    tour_clean_text(dst);
}

tg_status tg_rank_parse(const char *text, int *rank)
{
    if (!text)
        return TG_ERR_PARSE;
    while (isspace((unsigned char)*text))
        text++;
    int n = 0, digits = 0;
    while (isdigit((unsigned char)text[digits]) && digits < 3)
        n = n * 10 + (text[digits++] - '0');
    if (digits == 0)
        return TG_ERR_PARSE;
    char kind = (char)tolower((unsigned char)text[digits]);
    const char *rest = text + digits + 1;
    if (kind == 0)
        return TG_ERR_PARSE;
    while (isspace((unsigned char)*rest))
        rest++;
    if (*rest)
        return TG_ERR_PARSE;
    if (kind == 'k' && n >= 1 && n <= 30)
        *rank = -n;
    else if (kind == 'd' && n >= 1 && n <= 9)
        *rank = n - 1;
    else if (kind == 'p' && n >= 1 && n <= 9)
        *rank = TG_RANK_MAX;
    else
        return TG_ERR_PARSE;
    return TG_OK;
}

const char *tg_rank_text(int rank, char *buf, size_t size)
{
    if (rank < 0)
        snprintf(buf, size, "%dk", -rank);
    else
        snprintf(buf, size, "%dd", rank + 1);
    return buf;
}

static const char *const tiebreak_names[TG_TB_COUNT] = {"score", "points", "sos", "sosos",
                                                         "sodos", "cumulative", "direct"};

const char *tg_tiebreak_name(tg_tiebreak tb)
{
    return (unsigned)tb < TG_TB_COUNT ? tiebreak_names[tb] : "?";
}

tg_status tg_tiebreaks_parse(const char *text, tg_tiebreak *list, int *count, char *err,
                             size_t errlen)
{
    static const struct {
        const char *word;
        tg_tiebreak tb;
    } words[] = {{"score", TG_TB_SCORE},   {"mms", TG_TB_SCORE},         {"wins", TG_TB_POINTS},
                 {"points", TG_TB_POINTS}, {"sos", TG_TB_SOS},           {"sosos", TG_TB_SOSOS},
                 {"sodos", TG_TB_SODOS},   {"cumulative", TG_TB_CUMULATIVE},
                 {"cuss", TG_TB_CUMULATIVE}, {"direct", TG_TB_DIRECT}};
    *count = 0;
    const char *p = text;
    while (p && *p) {
        size_t len = strcspn(p, ",");
        bool found = false;
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            if (strlen(words[i].word) == len && !strncasecmp(p, words[i].word, len)) {
                if (*count == TG_TB_COUNT) {
                    tour_error(err, errlen, "too many tie-breaks (at most %d)", TG_TB_COUNT);
                    return TG_ERR_PARSE;
                }
                list[(*count)++] = words[i].tb;
                found = true;
            }
        if (!found) {
            tour_error(err, errlen,
                       "unknown tie-break '%.*s' (score, mms, wins, sos, sosos, sodos, "
                       "cumulative, direct)",
                       (int)(len > 40 ? 40 : len), p);
            return TG_ERR_PARSE;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    if (*count == 0) {
        tour_error(err, errlen, "no tie-break given");
        return TG_ERR_PARSE;
    }
    return TG_OK;
}

void tg_tour_settings_default(tg_tour_settings *s, tg_tour_system system)
{
    *s = (tg_tour_settings){0};
    snprintf(s->name, sizeof s->name, "Tournament");
    s->system = system;
    s->rounds = 5;
    s->bar = 3;     /* 4d */
    s->floor = -20; /* 20k */
    s->handicap = system == TG_SYSTEM_MCMAHON ? TG_HANDICAP_MCMAHON : TG_HANDICAP_NONE;
    s->handicap_reduction = 1;
    s->max_handicap = 9;
    s->komi2 = 13; /* 6.5 */
    s->bye_points2 = 2;
    s->absent_points2 = 0;
    s->seeding = TG_SEED_ADJACENT;
    /* scaled so that each criterion outweighs every one below it for the
     * differences a pairing meets (a bye's place counts up to 64 places
     * from the bottom, a score gap up to 64 half points, so the sums stay
     * under 2^56); lots take the bottom 10 bits */
    s->weights = (tg_pairing_weights){
        .score_gap = 1LL << 40,
        .bye_repeat = 1LL << 53,
        .bye_place = 1LL << 46,
        .handicap_over = 1LL << 36,
        .colour = 1LL << 28,
        .same_club = 1LL << 30,
        .same_country = 1LL << 26,
        .float_repeat = 1LL << 24,
        .seeding = 1LL << 14,
        .club_rounds = 3,
    };
    if (system == TG_SYSTEM_MCMAHON) {
        s->tiebreaks[0] = TG_TB_SCORE;
        s->tiebreaks[1] = TG_TB_SOS;
        s->tiebreaks[2] = TG_TB_SOSOS;
        s->tiebreaks[3] = TG_TB_SODOS;
        s->tiebreak_count = 4;
    } else {
        s->tiebreaks[0] = TG_TB_SCORE;
        s->tiebreaks[1] = TG_TB_SOS;
        s->tiebreaks[2] = TG_TB_SOSOS;
        s->tiebreaks[3] = TG_TB_CUMULATIVE;
        s->tiebreaks[4] = TG_TB_DIRECT;
        s->tiebreak_count = 5;
    }
    s->seed = 1;
    s->glicko_tau = 0.5;
}

tg_tournament *tg_tour_new(const tg_tour_settings *s)
{
    tg_tournament *t = calloc(1, sizeof *t);
    if (t) {
        t->settings = *s;
        t->settings.name[sizeof t->settings.name - 1] = 0;
        tour_clean_text(t->settings.name);
    }
    return t;
}

void tour_round_clear(tg_tour_round *r)
{
    free(r->games);
    free(r->byes);
    free(r->lots);
    free(r->by_lot);
    int number = r->number;
    *r = (tg_tour_round){.number = number};
}

void tg_tour_free(tg_tournament *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->round_count; i++)
        tour_round_clear(&t->rounds[i]);
    free(t->rounds);
    free(t->players);
    free(t->corrections);
    free(t);
}

tg_status tg_tour_add_player(tg_tournament *t, const tg_tour_player *given, int *id, char *err,
                             size_t errlen)
{
    tg_tour_player clean = *given, *p = &clean;
    p->name[sizeof p->name - 1] = p->club[sizeof p->club - 1] = 0;
    p->country[sizeof p->country - 1] = 0;
    tour_clean_text(p->name);
    tour_clean_text(p->club);
    tour_clean_text(p->country);
    if (!p->name[0]) {
        tour_error(err, errlen, "a player needs a name");
        return TG_ERR_INVALID;
    }
    if (p->rank < TG_RANK_MIN || p->rank > TG_RANK_MAX) {
        tour_error(err, errlen, "rank out of range (30k..9d)");
        return TG_ERR_INVALID;
    }
    for (int i = 0; i < t->player_count; i++)
        if (!strcmp(t->players[i].name, p->name)) {
            tour_error(err, errlen, "there is already a player named '%s'", p->name);
            return TG_ERR_INVALID;
        }
    if (t->player_count >= TG_TOUR_MAX_PLAYERS) {
        tour_error(err, errlen, "too many players (at most %d)", TG_TOUR_MAX_PLAYERS);
        return TG_ERR_INVALID;
    }
    if (t->player_count == t->player_capacity) {
        int capacity = t->player_capacity ? 2 * t->player_capacity : 16;
        tg_tour_player *grown = realloc(t->players, (size_t)capacity * sizeof *grown);
        if (!grown)
            return TG_ERR_NO_MEMORY;
        t->players = grown;
        t->player_capacity = capacity;
    }
    tg_tour_player *q = &t->players[t->player_count];
    *q = *p;
    if (q->joined_round <= 0)
        q->joined_round = t->round_count + 1;
    if (q->rating <= 0) {
        /* a start rating from the declared rank: the inverse of the OGS map */
        q->rating = 525.0 * exp((q->rank + 30) / 23.15);
        q->deviation = 350;
    }
    if (q->deviation <= 0)
        q->deviation = 350;
    if (q->volatility <= 0)
        q->volatility = 0.06;
    if (id)
        *id = t->player_count;
    t->player_count++;
    return TG_OK;
}

int tg_tour_find_player(const tg_tournament *t, const char *name)
{
    if (name[0] == '#') {
        char *end;
        long id = strtol(name + 1, &end, 10);
        return (*end || end == name + 1 || id < 0 || id >= t->player_count) ? -1 : (int)id;
    }
    for (int i = 0; i < t->player_count; i++)
        if (!strcmp(t->players[i].name, name))
            return i;
    for (int i = 0; i < t->player_count; i++)
        if (!strcasecmp(t->players[i].name, name))
            return i;
    return -1;
}

static bool valid_player(const tg_tournament *t, int player, char *err, size_t errlen)
{
    if (player < 0 || player >= t->player_count) {
        tour_error(err, errlen, "no player #%d", player);
        return false;
    }
    return true;
}

tg_status tg_tour_withdraw(tg_tournament *t, int player, int from_round, char *err, size_t errlen)
{
    if (!valid_player(t, player, err, errlen))
        return TG_ERR_INVALID;
    if (from_round != 0 && (from_round <= t->round_count || from_round > TG_TOUR_MAX_ROUNDS)) {
        tour_error(err, errlen, "round %d is paired already: withdraw from round %d on",
                   from_round, t->round_count + 1);
        return TG_ERR_NOT_ALLOWED;
    }
    t->players[player].withdrawn_round = from_round;
    return TG_OK;
}

tg_status tg_tour_skip_round(tg_tournament *t, int player, int round, bool skip, char *err,
                             size_t errlen)
{
    if (!valid_player(t, player, err, errlen))
        return TG_ERR_INVALID;
    if (round < 1 || round > TG_TOUR_MAX_ROUNDS || round <= t->round_count) {
        tour_error(err, errlen, "round %d cannot be changed (paired rounds: %d)", round,
                   t->round_count);
        return TG_ERR_NOT_ALLOWED;
    }
    uint64_t bit = 1ULL << (round - 1);
    if (skip)
        t->players[player].skipped |= bit;
    else
        t->players[player].skipped &= ~bit;
    return TG_OK;
}

bool tg_tour_present(const tg_tournament *t, int player, int round)
{
    const tg_tour_player *p = &t->players[player];
    if (round < p->joined_round)
        return false;
    if (p->withdrawn_round > 0 && round >= p->withdrawn_round)
        return false;
    return round > TG_TOUR_MAX_ROUNDS || !(p->skipped & (1ULL << (round - 1)));
}

static const struct {
    const char *word;
    tg_win_reason reason;
} reason_words[] = {{"R", TG_REASON_RESIGNATION}, {"RESIGN", TG_REASON_RESIGNATION},
                    {"T", TG_REASON_TIME},        {"TIME", TG_REASON_TIME},
                    {"F", TG_REASON_FORFEIT},     {"FORFEIT", TG_REASON_FORFEIT},
                    {"L", TG_REASON_ABSENCE},     {"LATE", TG_REASON_ABSENCE},
                    {"ABSENT", TG_REASON_ABSENCE}, {"A", TG_REASON_ADJUDICATION},
                    {"ADJ", TG_REASON_ADJUDICATION}, {"", TG_REASON_UNSTATED}};

tg_status tg_tour_result_parse(const char *text, tg_tour_result *r)
{
    *r = (tg_tour_result){0};
    static const struct {
        const char *word;
        tg_outcome outcome;
    } plain[] = {{"jigo", TG_OUTCOME_JIGO},        {"=", TG_OUTCOME_JIGO},
                 {"draw", TG_OUTCOME_JIGO},        {"0", TG_OUTCOME_JIGO},
                 {"BL", TG_OUTCOME_BOTH_LOSE},     {"both-lose", TG_OUTCOME_BOTH_LOSE},
                 {"0-0", TG_OUTCOME_BOTH_LOSE},    {"replay", TG_OUTCOME_REPLAY},
                 {"none", TG_OUTCOME_NONE},        {"?", TG_OUTCOME_NONE}};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (!strcasecmp(text, plain[i].word)) {
            r->outcome = plain[i].outcome;
            return TG_OK;
        }
    char colour = (char)toupper((unsigned char)text[0]);
    if ((colour != 'B' && colour != 'W') || text[1] != '+')
        return TG_ERR_PARSE;
    r->outcome = colour == 'B' ? TG_OUTCOME_BLACK_WINS : TG_OUTCOME_WHITE_WINS;
    const char *rest = text + 2;
    for (size_t i = 0; i < sizeof reason_words / sizeof reason_words[0]; i++)
        if (!strcasecmp(rest, reason_words[i].word)) {
            r->reason = reason_words[i].reason;
            return TG_OK;
        }
    /* a margin: digits with at most a half (".5" or ",5") */
    int whole = 0, digits = 0;
    while (isdigit((unsigned char)*rest) && digits < 4) {
        whole = whole * 10 + (*rest++ - '0');
        digits++;
    }
    if (digits == 0)
        return TG_ERR_PARSE;
    int half = 0;
    if ((*rest == '.' || *rest == ',') && rest[1] == '5' && rest[2] == 0) {
        half = 1;
        rest += 2;
    } else if ((*rest == '.' || *rest == ',') && rest[1] == '0' && rest[2] == 0) {
        rest += 2;
    }
    if (*rest || (whole == 0 && !half))
        return TG_ERR_PARSE;
    r->reason = TG_REASON_SCORE;
    r->margin2 = 2 * whole + half;
    return TG_OK;
}

const char *tg_tour_result_text(const tg_tour_result *r, char *buf, size_t size)
{
    switch (r->outcome) {
    case TG_OUTCOME_NONE: snprintf(buf, size, "?"); return buf;
    case TG_OUTCOME_JIGO: snprintf(buf, size, "jigo"); return buf;
    case TG_OUTCOME_BOTH_LOSE: snprintf(buf, size, "BL"); return buf;
    case TG_OUTCOME_REPLAY: snprintf(buf, size, "replay"); return buf;
    default: break;
    }
    char colour = r->outcome == TG_OUTCOME_BLACK_WINS ? 'B' : 'W';
    static const char *const reason_text[] = {"", "", "R", "T", "F", "L", "A"};
    if (r->reason == TG_REASON_SCORE)
        snprintf(buf, size, "%c+%d%s", colour, r->margin2 / 2, r->margin2 % 2 ? ".5" : "");
    else
        snprintf(buf, size, "%c+%s", colour, reason_text[r->reason]);
    return buf;
}

tg_tour_game *tour_find_game(tg_tournament *t, int round, int board)
{
    if (round < 1 || round > t->round_count)
        return NULL;
    tg_tour_round *r = &t->rounds[round - 1];
    for (int i = 0; i < r->game_count; i++)
        if (r->games[i].board == board)
            return &r->games[i];
    return NULL;
}

tg_status tg_tour_set_result(tg_tournament *t, int round, int board, const tg_tour_result *r,
                             const char *note, char *err, size_t errlen)
{
    tg_tour_game *g = tour_find_game(t, round, board);
    if (!g) {
        tour_error(err, errlen, "round %d has no board %d", round, board);
        return TG_ERR_INVALID;
    }
    if (r->outcome == TG_OUTCOME_JIGO && !t->settings.jigo_allowed) {
        tour_error(err, errlen, "this tournament's rules give no jigo (komi %d.%d)",
                   t->settings.komi2 / 2, t->settings.komi2 % 2 ? 5 : 0);
        return TG_ERR_NOT_ALLOWED;
    }
    if ((unsigned)r->outcome > TG_OUTCOME_REPLAY || (unsigned)r->reason > TG_REASON_ADJUDICATION ||
        r->margin2 < 0) {
        tour_error(err, errlen, "not a result");
        return TG_ERR_INVALID;
    }
    if (g->result.outcome != TG_OUTCOME_NONE &&
        (g->result.outcome != r->outcome || g->result.reason != r->reason ||
         g->result.margin2 != r->margin2)) {
        tg_tour_correction *grown =
            realloc(t->corrections, (size_t)(t->correction_count + 1) * sizeof *grown);
        if (!grown)
            return TG_ERR_NO_MEMORY;
        t->corrections = grown;
        tg_tour_correction *c = &grown[t->correction_count++];
        *c = (tg_tour_correction){.round = round, .board = board, .from = g->result, .to = *r};
        tour_copy_text(c->note, sizeof c->note, note);
    }
    g->result = *r;
    return TG_OK;
}

int tg_tour_mcmahon_start(const tg_tour_settings *s, int rank)
{
    int r = rank;
    if (r > s->bar)
        r = s->bar;
    if (r < s->floor)
        r = s->floor;
    return r - s->floor;
}

/* The points (half points) a player of game g earned; a game without a
 * result counts by the lots drawn for `lots` (a later round's pairing). */
static int game_points(const tg_tour_game *g, int player, int round, const tg_tour_round *lots)
{
    tg_outcome o = g->result.outcome;
    if ((o == TG_OUTCOME_NONE || o == TG_OUTCOME_REPLAY) && lots)
        for (int k = 0; k < lots->by_lot_count; k++)
            if (lots->by_lot[k][0] == round && lots->by_lot[k][1] == g->board)
                o = lots->by_lot[k][2] == TG_BLACK ? TG_OUTCOME_BLACK_WINS : TG_OUTCOME_WHITE_WINS;
    if (o == TG_OUTCOME_JIGO)
        return 1;
    if ((o == TG_OUTCOME_BLACK_WINS && g->black == player) ||
        (o == TG_OUTCOME_WHITE_WINS && g->white == player))
        return 2;
    return 0;
}

int tour_points_in_round(const tg_tournament *t, int player, int round, const tg_tour_round *lots)
{
    const tg_tour_round *r = &t->rounds[round - 1];
    for (int i = 0; i < r->bye_count; i++)
        if (r->byes[i] == player)
            return t->settings.bye_points2;
    for (int i = 0; i < r->game_count; i++)
        if (r->games[i].black == player || r->games[i].white == player)
            return game_points(&r->games[i], player, round, lots);
    return t->settings.absent_points2;
}

void tour_round_points(const tg_tournament *t, int round, const tg_tour_round *lots, int *points)
{
    const tg_tour_round *r = &t->rounds[round - 1];
    for (int p = 0; p < t->player_count; p++)
        points[p] = t->settings.absent_points2;
    for (int i = 0; i < r->bye_count; i++)
        points[r->byes[i]] = t->settings.bye_points2;
    for (int i = 0; i < r->game_count; i++) {
        const tg_tour_game *g = &r->games[i];
        points[g->black] = game_points(g, g->black, round, lots);
        points[g->white] = game_points(g, g->white, round, lots);
    }
}

bool tour_scores_before(const tg_tournament *t, int round, const tg_tour_round *lots, int *scores)
{
    int *points = malloc(((size_t)t->player_count + 1) * sizeof *points);
    if (!points)
        return false;
    for (int p = 0; p < t->player_count; p++)
        scores[p] = t->settings.system == TG_SYSTEM_MCMAHON
                        ? 2 * tg_tour_mcmahon_start(&t->settings, t->players[p].rank)
                        : 0;
    for (int r = 1; r < round && r <= t->round_count; r++) {
        tour_round_points(t, r, lots, points);
        for (int p = 0; p < t->player_count; p++)
            scores[p] += points[p];
    }
    free(points);
    return true;
}

int tour_score_before(const tg_tournament *t, int player, int round, const tg_tour_round *lots)
{
    int score = 0;
    if (t->settings.system == TG_SYSTEM_MCMAHON)
        score = 2 * tg_tour_mcmahon_start(&t->settings, t->players[player].rank);
    for (int r = 1; r < round && r <= t->round_count; r++)
        score += tour_points_in_round(t, player, r, lots);
    return score;
}

int tg_tour_score_before(const tg_tournament *t, int player, int round)
{
    return tour_score_before(t, player, round, NULL);
}

void tg_tour_handicap(const tg_tournament *t, int stronger, int weaker, int round, int *handicap,
                      int *komi2)
{
    const tg_tour_settings *s = &t->settings;
    int difference = 0;
    if (s->handicap == TG_HANDICAP_MCMAHON)
        difference = (tg_tour_score_before(t, stronger, round) -
                      tg_tour_score_before(t, weaker, round)) / 2;
    else if (s->handicap == TG_HANDICAP_RANK)
        difference = t->players[stronger].rank - t->players[weaker].rank;
    int h = difference - s->handicap_reduction;
    if (h > s->max_handicap)
        h = s->max_handicap;
    if (s->handicap == TG_HANDICAP_NONE || h <= 0) {
        *handicap = 0;
        *komi2 = s->komi2;
        return;
    }
    /* one stone of difference: Black moves first without komi (half a
     * point to White so that there is no jigo); more: that many stones */
    *handicap = h;
    *komi2 = s->jigo_allowed ? 0 : 1;
}
