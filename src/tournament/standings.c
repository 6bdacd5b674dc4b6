/*
 * standings.c — the standings after a round: score (McMahon score, or
 * points), SOS, SOSOS, SODOS, cumulative score (累进分) and direct
 * encounter, in the order the organiser lists them; and the tables built
 * on them: the crosstable, the pairing list and a standalone HTML page.
 *
 * Conventions (stated, since events differ): a round without a game (bye,
 * absence) adds nothing to SOS, SOSOS or SODOS; a game won by forfeit or
 * absence counts as a game for them; SODOS takes half of a drawn
 * opponent's score (rounded down to a half point).  Direct encounter
 * orders players tied on every earlier criterion by the points each
 * scored against the others of that tie.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/tournament.h"
#include "tournament/internal.h"

void tour_printf(tour_text *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->capacity - b->length;
        int n = vsnprintf(b->text ? b->text + b->length : NULL, b->text ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = true;
            return;
        }
        if (b->text && (size_t)n < room) {
            b->length += (size_t)n;
            return;
        }
        size_t capacity = b->capacity ? b->capacity * 2 : 4096;
        while (capacity < b->length + (size_t)n + 1)
            capacity *= 2;
        char *grown = realloc(b->text, capacity);
        if (!grown) {
            b->failed = true;
            return;
        }
        b->text = grown;
        b->capacity = capacity;
    }
}

void tour_escape_xml(tour_text *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': tour_printf(b, "&amp;"); break;
        case '<': tour_printf(b, "&lt;"); break;
        case '>': tour_printf(b, "&gt;"); break;
        case '"': tour_printf(b, "&quot;"); break;
        case '\'': tour_printf(b, "&apos;"); break;
        default: tour_printf(b, "%c", *s);
        }
    }
}

char *tour_text_take(tour_text *b)
{
    if (b->failed || !b->text) {
        free(b->text);
        if (b->failed)
            return NULL;
        return calloc(1, 1);
    }
    return b->text;
}

/* One player's round: the game (or none) and what it gave. */
typedef struct round_cell {
    const tg_tour_game *game;
    int opponent;           /* -1: no game */
    bool bye;
    int points2;
} round_cell;

static round_cell cell_of(const tg_tournament *t, int player, int round)
{
    const tg_tour_round *r = &t->rounds[round - 1];
    round_cell c = {.opponent = -1};
    for (int i = 0; i < r->game_count; i++)
        if (r->games[i].black == player || r->games[i].white == player) {
            c.game = &r->games[i];
            c.opponent = c.game->black == player ? c.game->white : c.game->black;
        }
    for (int i = 0; i < r->bye_count; i++)
        c.bye |= r->byes[i] == player;
    c.points2 = tour_points_in_round(t, player, round, NULL);
    return c;
}

static int last_round(const tg_tournament *t, int round)
{
    return round <= 0 || round > t->round_count ? t->round_count : round;
}

static int compare_criteria(const tg_standing *a, const tg_standing *b, const tg_tour_settings *s)
{
    for (int i = 0; i < s->tiebreak_count; i++) {
        int64_t x = a->tiebreak[s->tiebreaks[i]], y = b->tiebreak[s->tiebreaks[i]];
        if (x != y)
            return x > y ? -1 : 1;
    }
    return 0;
}

/* qsort's comparator has no context argument: each item carries the
 * tournament whose settings order it. */
typedef struct sort_item {
    tg_standing st;
    const tg_tournament *t;
} sort_item;

static int compare_items(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int c = compare_criteria(&x->st, &y->st, &x->t->settings);
    if (c)
        return c;
    int rx = x->t->players[x->st.player].rank, ry = x->t->players[y->st.player].rank;
    if (rx != ry)
        return ry - rx;
    return x->st.player - y->st.player;
}

/* The points each player of the tied run [from, to) scored against the
 * others of the run. */
static void direct_encounter(const tg_tournament *t, int round, sort_item *items, int from, int to)
{
    for (int i = from; i < to; i++) {
        int64_t direct = 0;
        for (int r = 1; r <= round; r++) {
            round_cell c = cell_of(t, items[i].st.player, r);
            if (c.opponent < 0)
                continue;
            for (int j = from; j < to; j++)
                if (items[j].st.player == c.opponent)
                    direct += c.points2;
        }
        items[i].st.tiebreak[TG_TB_DIRECT] = direct;
    }
}

static void compute_values(const tg_tournament *t, int round, sort_item *items)
{
    int n = t->player_count;
    for (int p = 0; p < n; p++) {
        tg_standing *st = &items[p].st;
        *st = (tg_standing){.player = p};
        items[p].t = t;
        int start = t->settings.system == TG_SYSTEM_MCMAHON
                        ? 2 * tg_tour_mcmahon_start(&t->settings, t->players[p].rank)
                        : 0;
        for (int r = 1; r <= round; r++) {
            round_cell c = cell_of(t, p, r);
            st->points2 += c.points2;
            st->tiebreak[TG_TB_CUMULATIVE] += st->points2;
            if (c.bye)
                st->byes++;
            else if (c.game && c.points2 == 2)
                st->wins++;
            else if (c.game && c.points2 == 1)
                st->jigos++;
            else if (c.game && c.game->result.outcome != TG_OUTCOME_NONE &&
                     c.game->result.outcome != TG_OUTCOME_REPLAY)
                st->losses++;
        }
        st->score2 = start + st->points2;
        st->tiebreak[TG_TB_SCORE] = st->score2;
        st->tiebreak[TG_TB_POINTS] = st->points2;
    }
    for (int p = 0; p < n; p++)
        for (int r = 1; r <= round; r++) {
            round_cell c = cell_of(t, p, r);
            if (c.opponent < 0)
                continue;
            int64_t opponent_score = items[c.opponent].st.score2;
            items[p].st.tiebreak[TG_TB_SOS] += opponent_score;
            if (c.points2 == 2)
                items[p].st.tiebreak[TG_TB_SODOS] += opponent_score;
            else if (c.points2 == 1 && c.game->result.outcome == TG_OUTCOME_JIGO)
                items[p].st.tiebreak[TG_TB_SODOS] += opponent_score / 2;
        }
    for (int p = 0; p < n; p++)
        for (int r = 1; r <= round; r++) {
            round_cell c = cell_of(t, p, r);
            if (c.opponent >= 0)
                items[p].st.tiebreak[TG_TB_SOSOS] += items[c.opponent].st.tiebreak[TG_TB_SOS];
        }
}

/* Whether a and b tie on every criterion listed before `before`. */
static bool tied_before(const tg_standing *a, const tg_standing *b, const tg_tour_settings *s,
                        int before)
{
    for (int i = 0; i < before; i++)
        if (a->tiebreak[s->tiebreaks[i]] != b->tiebreak[s->tiebreaks[i]])
            return false;
    return true;
}

tg_status tg_tour_standings(const tg_tournament *t, int round, tg_standing **out)
{
    *out = NULL;
    round = last_round(t, round);
    int n = t->player_count;
    sort_item *items = calloc((size_t)n + 1, sizeof *items);
    tg_standing *result = calloc((size_t)n + 1, sizeof *result);
    if (!items || !result) {
        free(items);
        free(result);
        return TG_ERR_NO_MEMORY;
    }
    compute_values(t, round, items);
    qsort(items, (size_t)n, sizeof *items, compare_items);
    const tg_tour_settings *s = &t->settings;
    for (int d = 0; d < s->tiebreak_count; d++) {
        if (s->tiebreaks[d] != TG_TB_DIRECT)
            continue;
        for (int i = 0; i < n;) {
            int j = i + 1;
            while (j < n && tied_before(&items[i].st, &items[j].st, s, d))
                j++;
            if (j - i > 1)
                direct_encounter(t, round, items, i, j);
            i = j;
        }
        qsort(items, (size_t)n, sizeof *items, compare_items);
    }
    for (int i = 0; i < n; i++) {
        result[i] = items[i].st;
        result[i].place = (i > 0 && compare_criteria(&items[i - 1].st, &items[i].st, s) == 0)
                              ? result[i - 1].place
                              : i + 1;
    }
    free(items);
    *out = result;
    return TG_OK;
}

static void half_points(tour_text *b, const char *fmt_width, int64_t value2)
{
    char number[32];
    snprintf(number, sizeof number, "%lld%s", (long long)(value2 / 2), value2 % 2 ? ".5" : "");
    tour_printf(b, fmt_width, number);
}

/* "12+/w", "3-/b2", "bye", "-" (absent), "5?/b" (no result yet). */
static void cell_text(const tg_tournament *t, const int *place_of, int player, int round, char *buf,
                      size_t size)
{
    round_cell c = cell_of(t, player, round);
    if (c.bye) {
        snprintf(buf, size, "bye");
        return;
    }
    if (!c.game) {
        snprintf(buf, size, "-");
        return;
    }
    tg_outcome o = c.game->result.outcome;
    char mark = o == TG_OUTCOME_NONE || o == TG_OUTCOME_REPLAY ? '?'
                : c.points2 == 2                               ? '+'
                : c.points2 == 1                               ? '='
                                                               : '-';
    bool unplayed = c.game->result.reason == TG_REASON_FORFEIT ||
                    c.game->result.reason == TG_REASON_ABSENCE;
    char handicap[16] = "";
    if (c.game->handicap > 0)
        snprintf(handicap, sizeof handicap, "%d", c.game->handicap);
    snprintf(buf, size, "%d%c%s/%c%s", place_of[c.opponent], mark, unplayed ? "!" : "",
             c.game->black == player ? 'b' : 'w', handicap);
}

/* The standings with place_of filled: NULL without memory. */
static tg_standing *standings_with_places(const tg_tournament *t, int round, int **place_of)
{
    tg_standing *st;
    *place_of = malloc(((size_t)t->player_count + 1) * sizeof **place_of);
    if (!*place_of || tg_tour_standings(t, round, &st) != TG_OK) {
        free(*place_of);
        return NULL;
    }
    for (int i = 0; i < t->player_count; i++)
        (*place_of)[st[i].player] = i + 1;
    return st;
}

char *tg_tour_crosstable_text(const tg_tournament *t, int round)
{
    round = last_round(t, round);
    int *place_of;
    tg_standing *st = standings_with_places(t, round, &place_of);
    if (!st)
        return NULL;
    tour_text b = {0};
    tour_printf(&b, "%s — after round %d of %d\n\n", t->settings.name, round, t->settings.rounds);
    tour_printf(&b, "Pl   Name                     Rank Club       ");
    for (int r = 1; r <= round; r++)
        tour_printf(&b, " R%-7d", r);
    for (int i = 0; i < t->settings.tiebreak_count; i++)
        tour_printf(&b, " %8s", tg_tiebreak_name(t->settings.tiebreaks[i]));
    tour_printf(&b, "\n");
    for (int i = 0; i < t->player_count; i++) {
        const tg_tour_player *p = &t->players[st[i].player];
        char rank[8], cell[48];
        tour_printf(&b, "%-4d %-24.24s %-4s %-10.10s ", st[i].place, p->name,
                    tg_rank_text(p->rank, rank, sizeof rank), p->club);
        for (int r = 1; r <= round; r++) {
            cell_text(t, place_of, st[i].player, r, cell, sizeof cell);
            tour_printf(&b, " %-8s", cell);
        }
        for (int k = 0; k < t->settings.tiebreak_count; k++)
            half_points(&b, " %8s", st[i].tiebreak[t->settings.tiebreaks[k]]);
        tour_printf(&b, "\n");
    }
    free(st);
    free(place_of);
    return tour_text_take(&b);
}

char *tg_tour_pairing_text(const tg_tournament *t, int round)
{
    tour_text b = {0};
    if (round < 1 || round > t->round_count)
        return tour_text_take(&b);
    const tg_tour_round *r = &t->rounds[round - 1];
    tour_printf(&b, "%s — round %d\n\n", t->settings.name, round);
    tour_printf(&b, "Board  Black                    Rank  White                    Rank  "
                    "Hcp  Komi  Result\n");
    for (int i = 0; i < r->game_count; i++) {
        const tg_tour_game *g = &r->games[i];
        char rb[8], rw[8], result[32];
        tour_printf(&b, "%-6d %-24.24s %-5s %-24.24s %-5s %-4d ", g->board, t->players[g->black].name,
                    tg_rank_text(t->players[g->black].rank, rb, sizeof rb), t->players[g->white].name,
                    tg_rank_text(t->players[g->white].rank, rw, sizeof rw), g->handicap);
        half_points(&b, "%-5s", g->komi2);
        tour_printf(&b, " %s%s\n", tg_tour_result_text(&g->result, result, sizeof result),
                    g->manual ? "  (by hand)" : "");
    }
    for (int i = 0; i < r->bye_count; i++)
        tour_printf(&b, "bye    %s\n", t->players[r->byes[i]].name);
    for (int i = 0; i < r->by_lot_count; i++)
        tour_printf(&b, "by lot: round %d board %d counted as won by %s for this pairing\n",
                    r->by_lot[i][0], r->by_lot[i][1], r->by_lot[i][2] == TG_BLACK ? "Black" : "White");
    return tour_text_take(&b);
}

char *tg_tour_standings_html(const tg_tournament *t, int round)
{
    round = last_round(t, round);
    int *place_of;
    tg_standing *st = standings_with_places(t, round, &place_of);
    if (!st)
        return NULL;
    tour_text b = {0};
    tour_printf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    tour_escape_xml(&b, t->settings.name);
    tour_printf(&b, " — standings</title>\n<style>\n"
                    "body{font-family:sans-serif;margin:1em}\n"
                    "table{border-collapse:collapse}\n"
                    "th,td{border:1px solid #999;padding:2px 6px;text-align:right}\n"
                    "td.name{text-align:left}\n"
                    "tr:nth-child(even){background:#f2f2f2}\n"
                    "</style>\n</head>\n<body>\n<h1>");
    tour_escape_xml(&b, t->settings.name);
    tour_printf(&b, "</h1>\n<p>Standings after round %d of %d.</p>\n<table>\n<tr><th>Pl</th>"
                    "<th>Name</th><th>Rank</th><th>Club</th><th>Country</th>",
                round, t->settings.rounds);
    for (int r = 1; r <= round; r++)
        tour_printf(&b, "<th>R%d</th>", r);
    for (int k = 0; k < t->settings.tiebreak_count; k++)
        tour_printf(&b, "<th>%s</th>", tg_tiebreak_name(t->settings.tiebreaks[k]));
    tour_printf(&b, "</tr>\n");
    for (int i = 0; i < t->player_count; i++) {
        const tg_tour_player *p = &t->players[st[i].player];
        char rank[8], cell[48];
        tour_printf(&b, "<tr><td>%d</td><td class=\"name\">", st[i].place);
        tour_escape_xml(&b, p->name);
        tour_printf(&b, "</td><td>%s</td><td class=\"name\">", tg_rank_text(p->rank, rank, sizeof rank));
        tour_escape_xml(&b, p->club);
        tour_printf(&b, "</td><td>");
        tour_escape_xml(&b, p->country);
        tour_printf(&b, "</td>");
        for (int r = 1; r <= round; r++) {
            cell_text(t, place_of, st[i].player, r, cell, sizeof cell);
            tour_printf(&b, "<td>%s</td>", cell);
        }
        for (int k = 0; k < t->settings.tiebreak_count; k++)
            half_points(&b, "<td>%s</td>", st[i].tiebreak[t->settings.tiebreaks[k]]);
        tour_printf(&b, "</tr>\n");
    }
    tour_printf(&b, "</table>\n</body>\n</html>\n");
    free(st);
    free(place_of);
    return tour_text_take(&b);
}
