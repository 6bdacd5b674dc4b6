/*
 * tax.c — independent-life regions, which decide what counts under tax=seki
 * (territory inside seki groups counts nothing) and tax=all (each such region
 * pays the group tax).
 *
 * An independent-life region of colour c is a maximal connected set of
 * points that are empty or hold c's stones, containing an empty point, none
 * of whose empty points touches an opponent stone.  That definition presumes
 * the dame have been filled, as the territory rules do before counting: an
 * unfilled dame point next to a wall would otherwise make the whole wall and
 * the territory behind it "not independent".  So the dame are filled first,
 * on a copy: every empty point touching both colours that one side can fill
 * without being left in atari gets a stone of that side (where the fill
 * leaves an opponent chain in atari, the opponent connects at once, and a
 * fill that threatens a capture the opponent cannot escape is not made), until no such point is
 * left.  What remains touching both colours are the shared liberties of
 * seki (filling them is self-atari) — exactly what must break independence.
 */
#include <string.h>

#include "score/playout.h"
#include "score/regions.h"
#include "score/tax.h"

/* The most stones the opponent plays in a row to answer one fill. */
#define MAX_ANSWERS 3

typedef struct answers {
    tg_point at[MAX_ANSWERS];
    int n;
} answers;

/* The opponent o connects a chain that a fill left in atari at lib: it
 * extends at lib, and while the chain is still in atari (a connection of its
 * own it has not yet made, such as the point that joins it to the rest of
 * its group inside its territory) at that next liberty, as the territory
 * rules' players fill the points they must before the count.  Returns false
 * when the chain cannot get two liberties so. */
static bool connect_out(tg_board *after, tg_point lib, tg_color o, answers *out)
{
    while (out->n < MAX_ANSWERS) {
        if (tg_board_check(after, lib, o, TG_SUICIDE_FORBIDDEN) != TG_OK)
            return false;
        tg_board_play(after, lib, o);
        out->at[out->n++] = lib;
        const tg_chain *ch = tg_chain_at(after, lib);
        if (!tg_chain_in_atari(ch))
            return true;
        lib = tg_chain_atari_point(ch);
    }
    return false;
}

/* The answers the opponent owes to c's filling p: the connection of an
 * opponent chain that the fill leaves in atari (connect_out); none when the
 * fill leaves no chain in atari.  Returns false when a chain is left in atari
 * with no such answer (the fill is a threat to capture, not a dame) or more
 * than one chain is. */
static bool owed_answers(const tg_board *b, tg_point p, tg_color c, answers *out)
{
    tg_point nb[4], lib = TG_PASS;
    tg_board after;
    out->n = 0;
    score_neighbours(b, p, nb);
    bool threatens = false;
    for (int i = 0; i < 4; i++)
        threatens |= b->color[nb[i]] == tg_opponent(c) && tg_chain_liberties(b, nb[i], NULL, 0) <= 2;
    if (!threatens)
        return true;
    tg_board_copy(&after, b);
    tg_board_play(&after, p, c);
    for (int i = 0; i < 4; i++) {
        if (after.color[nb[i]] != tg_opponent(c) || !tg_chain_in_atari(tg_chain_at(&after, nb[i])))
            continue;
        tg_point l = tg_chain_atari_point(tg_chain_at(&after, nb[i]));
        if (lib != TG_PASS && lib != l)
            return false;
        lib = l;
    }
    return lib == TG_PASS || connect_out(&after, lib, tg_opponent(c), out);
}

/* Can c fill p, and with which answers of the opponent (owed_answers)?  A fill
 * that ataris a chain which connects out of it is still a dame: in play the
 * opponent connects at once, as the territory rules' players fill the points
 * they still have to fill. */
static bool can_fill(const tg_board *b, tg_point p, tg_color c, answers *answer)
{
    return tg_board_check(b, p, c, TG_SUICIDE_FORBIDDEN) == TG_OK &&
           !tg_board_is_self_atari(b, p, c, NULL) && owed_answers(b, p, c, answer);
}

/* One sweep over the board; returns the number of points filled.  The
 * points are those of empty regions bordered by both colours, filled from a
 * stone next to them: a dame region two points wide touches each colour at
 * one end only, and must be filled as much as a single dame point. */
static int fill_sweep(tg_board *b)
{
    uint8_t empty[TG_MAX_POINTS], borders[TG_MAX_POINTS];
    int16_t region[TG_MAX_POINTS];
    for (tg_point p = 0; p < b->npoints; p++)
        empty[p] = b->color[p] == TG_EMPTY;
    int n = score_label_components(b, empty, region);
    memset(borders, 0, (size_t)n);
    for (tg_point p = 0; p < b->npoints; p++) {
        if (region[p] < 0)
            continue;
        tg_point nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++)
            if (b->color[nb[i]] == TG_BLACK || b->color[nb[i]] == TG_WHITE)
                borders[region[p]] |= (uint8_t)(1u << b->color[nb[i]]);
    }
    int filled = 0;
    for (tg_point p = 0; p < b->npoints; p++) {
        if (b->color[p] != TG_EMPTY || region[p] < 0 ||
            borders[region[p]] != ((1u << TG_BLACK) | (1u << TG_WHITE)))
            continue;
        /* the two sides take turns, as they would filling the dame in play */
        tg_color c = filled % 2 ? TG_WHITE : TG_BLACK;
        answers answer;
        if (tg_nbr_count(b, p, c) == 0 || !can_fill(b, p, c, &answer))
            c = tg_opponent(c);
        if (tg_nbr_count(b, p, c) > 0 && can_fill(b, p, c, &answer)) {
            tg_board_play(b, p, c);
            for (int i = 0; i < answer.n; i++)
                tg_board_play(b, answer.at[i], tg_opponent(c));
            filled++;
        }
    }
    return filled;
}

static void fill_dame(tg_board *b)
{
    while (fill_sweep(b) > 0)
        ;
}

/* After the dame are filled: own[p] = 1 where p holds c's stone or lies in
 * an empty region bordered by c only (an eye or territory of c); shared[p] =
 * 1 on an empty point that still touches both colours (a shared liberty). */
static void own_and_shared(const tg_board *filled, tg_color c, uint8_t *own, uint8_t *shared,
                           int16_t *eye_region)
{
    uint8_t empty[TG_MAX_POINTS], touches_opp[TG_MAX_POINTS];
    for (tg_point p = 0; p < filled->npoints; p++)
        empty[p] = filled->color[p] == TG_EMPTY;
    int n = score_label_components(filled, empty, eye_region);
    memset(touches_opp, 0, (size_t)n);
    for (tg_point p = 0; p < filled->npoints; p++)
        if (eye_region[p] >= 0 && tg_nbr_count(filled, p, tg_opponent(c)) > 0)
            touches_opp[eye_region[p]] = 1;
    for (tg_point p = 0; p < filled->npoints; p++) {
        bool eye = eye_region[p] >= 0 && !touches_opp[eye_region[p]];
        own[p] = filled->color[p] == c || eye;
        shared[p] = empty[p] && !eye && tg_nbr_count(filled, p, c) > 0 &&
                    tg_nbr_count(filled, p, tg_opponent(c)) > 0;
        if (!eye)
            eye_region[p] = -1;
    }
}

/* connecting[e] = 1 for an eye region e of c that is no eye of its own: a
 * chain of c whose every liberty but one is a shared liberty, the one being
 * a point of e, must fill e to stay connected (the stone of a seki that
 * joins its group through the eye).  So e is the chain's liberty, not an eye
 * that lets the group live independently of the seki. */
static void mark_connecting_eyes(const tg_board *filled, tg_color c, const uint8_t *shared,
                                 const int16_t *eye_region, uint8_t *connecting)
{
    uint8_t done[TG_MAX_POINTS];
    memset(connecting, 0, TG_MAX_POINTS);
    memset(done, 0, sizeof done);
    for (tg_point p = 0; p < filled->npoints; p++) {
        if (filled->color[p] != c || done[filled->chain_of[p]])
            continue;
        done[filled->chain_of[p]] = 1;
        tg_point libs[TG_MAX_POINTS];
        int n = tg_chain_liberties(filled, p, libs, TG_MAX_POINTS), own_libs = 0, eye = -1;
        for (int i = 0; i < n; i++) {
            if (shared[libs[i]])
                continue;
            own_libs++;
            eye = eye_region[libs[i]];
        }
        if (own_libs == 1 && eye >= 0 && n > 1)
            connecting[eye] = 1;
    }
}

int score_independent_regions(const tg_board *b, const uint8_t *dead, tg_color c,
                              uint8_t *independent)
{
    tg_board filled;
    uint8_t own[TG_MAX_POINTS], shared[TG_MAX_POINTS], in_seki[TG_MAX_POINTS];
    uint8_t connecting[TG_MAX_POINTS];
    int16_t label[TG_MAX_POINTS], eye_region[TG_MAX_POINTS], first_eye[TG_MAX_POINTS];
    int eyes[TG_MAX_POINTS];
    tg_board_copy(&filled, b);
    for (tg_point p = 0; dead && p < b->npoints; p++)
        if (dead[p] && (b->color[p] == TG_BLACK || b->color[p] == TG_WHITE))
            tg_board_set_point(&filled, p, TG_EMPTY);
    fill_dame(&filled);
    own_and_shared(&filled, c, own, shared, eye_region);
    mark_connecting_eyes(&filled, c, shared, eye_region, connecting);
    int n = score_label_components(b, own, label);
    memset(in_seki, 0, (size_t)n);
    for (int i = 0; i < n; i++)
        eyes[i] = 0, first_eye[i] = -1;
    for (tg_point p = 0; p < b->npoints; p++) {
        if (label[p] < 0)
            continue;
        int16_t e = eye_region[p];
        /* a component meets each of its eyes' regions whole: count a region
         * once, by the first point seen of it (regions are numbered in scan
         * order, so a new one is always larger than the last counted) */
        if (e >= 0 && e > first_eye[label[p]]) {
            eyes[label[p]] += !connecting[e];
            first_eye[label[p]] = e;
        }
        tg_point nb[4];
        score_neighbours(b, p, nb);
        for (int i = 0; i < 4; i++)
            in_seki[label[p]] |= filled.color[p] == c && shared[nb[i]];
    }
    /* A group with its eyes lives independently unless it keeps a shared
     * liberty with the opponent (seki) and has fewer than two eyes: one
     * dame point the fill could not reach next to a group with two eyes
     * or more (a ko, an unfinished border) is not a seki. */
    int count = 0;
    for (int i = 0; i < n; i++)
        count += eyes[i] > 0 && (!in_seki[i] || eyes[i] >= 2);
    for (tg_point p = 0; p < b->npoints; p++)
        independent[p] = label[p] >= 0 && eyes[label[p]] > 0 && (!in_seki[label[p]] || eyes[label[p]] >= 2);
    return count;
}
