/*
 * tactics.c — the shared tactics of tactics.h: acceptable moves, liberties
 * after a move, the answers to an atari and to the last move, the
 * two-liberty fights, the random move, the area count at a playout's end
 * and the cleanup moves.  Everything here is read from the board; only
 * TACTICS_COUNT_PLAYED and the ladders play moves, on copies.
 */
#include "tactics/tactics.h"
#include "tactics/ladder.h"
#include "tactics/nakade.h"


bool tactics_bad_self_atari(const tg_board *b, tg_point p, tg_color c, int min_stones)
{
    if (tg_nbr_count(b, p, TG_EMPTY) >= 2)
        return false; /* two liberties at least, whatever it joins */
    int stones;
    return tg_board_is_self_atari(b, p, c, &stones) && stones >= min_stones &&
           !(stones > 1 && nakade_sacrifice(b, p, c));
}

bool tactics_chain_self_atari(const tg_board *b, tg_point p, tg_color c)
{
    int stones;
    return tg_board_is_self_atari(b, p, c, &stones) && stones > 1;
}

/* ---- Liberties after a move -------------------------------------------- */

static bool add_distinct(tg_point *set, int *n, tg_point p)
{
    for (int i = 0; i < *n; i++)
        if (set[i] == p)
            return false;
    set[(*n)++] = p;
    return true;
}

static int liberties_after_quick(const tg_board *b, tg_point p, tg_color c, int max)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    tg_point libs[16], chain_libs[16];
    int n = 0;
    if (max > 7)
        max = 7; /* the chain's own count below stops at max + 1 <= 8 */
    for (int i = 0; i < 4 && n < max; i++) {
        int q = p + d[i];
        if (b->color[q] == TG_EMPTY)
            add_distinct(libs, &n, q);
        else if (b->color[q] == tg_opponent(c) && tg_chain_in_atari(tg_chain_at(b, q)))
            add_distinct(libs, &n, q); /* captured: at least this point frees */
    }
    for (int i = 0; i < 4 && n < max; i++) {
        int q = p + d[i];
        if (b->color[q] != c)
            continue;
        /* max + 1 liberties or more: max of them stay besides p */
        if (tg_chain_more_libs_than(tg_chain_at(b, q), max))
            return max;
        int k = tg_chain_liberties_upto(b, q, chain_libs, max + 1);
        for (int j = 0; j < k && j < max + 1 && n < max; j++)
            if (chain_libs[j] != p)
                add_distinct(libs, &n, chain_libs[j]);
    }
    return n;
}

static int liberties_after_played(const tg_board *b, tg_point p, tg_color c, int max)
{
    tg_board after;
    tg_board_copy(&after, b);
    tg_board_play(&after, p, c);
    if (after.color[p] != c)
        return 0;
    int n = tg_chain_liberties(&after, p, NULL, max);
    return n < max ? n : max;
}

int tactics_liberties_after(const tg_board *b, tg_point p, tg_color c, int max, tactics_count how)
{
    return how == TACTICS_COUNT_QUICK ? liberties_after_quick(b, p, c, max) : liberties_after_played(b, p, c, max);
}

/* ---- Answering an atari ------------------------------------------------ */

/* Save c's chain at q, in atari, by capturing one of its attackers or by
 * extending (TACTICS_SAVE_BY_CAPTURE_OR_EXTENSION). */
static tg_point capture_or_extend(const tg_board *b, tg_point q, tg_color c, const tactics_answer_rule *rule)
{
    int s = b->chain_of[q], head = s;
    do {
        tg_point p = tactics_capture_next_to(b, s, c, rule);
        if (p != TG_PASS)
            return p;
        s = b->next_stone[s];
    } while (s != head);
    tg_point lib = tg_chain_atari_point(tg_chain_at(b, q));
    if (!rule->legal(rule->context, b, lib, c))
        return TG_PASS;
    int libs = liberties_after_quick(b, lib, c, 3);
    if (libs < 2)
        return TG_PASS;
    /* two liberties after the extension: running is futile in a working ladder */
    if (rule->read_ladders && libs == 2 && ladder_captured(b, q))
        return TG_PASS;
    return lib;
}

tg_point tactics_answer_atari(const tg_board *b, tg_point q, tg_color c, const tactics_answer_rule *rule)
{
    tg_point lib = tg_chain_atari_point(tg_chain_at(b, q));
    if (b->color[q] != c)
        return rule->legal(rule->context, b, lib, c) ? lib : TG_PASS;
    switch (rule->save) {
    case TACTICS_SAVE_NO_SELF_ATARI:
        return rule->legal(rule->context, b, lib, c) && !tg_board_is_self_atari(b, lib, c, NULL) ? lib : TG_PASS;
    case TACTICS_SAVE_BY_CAPTURE_OR_EXTENSION:
        return capture_or_extend(b, q, c, rule);
    case TACTICS_SAVE_BY_PLAYED_EXTENSION:
        return rule->legal(rule->context, b, lib, c) && liberties_after_played(b, lib, c, 2) >= 2 ? lib : TG_PASS;
    }
    return TG_PASS;
}

int tactics_two_liberty_moves(const tg_board *b, tg_color c, tg_point out[10])
{
    tg_point last = b->last_move;
    if (last < 0 || b->color[last] != tg_opponent(c))
        return 0;
    const int d[5] = {0, -1, 1, -b->stride, b->stride};
    tg_point libs[3];
    int n = 0;
    for (int i = 0; i < 5; i++) {
        int q = last + d[i];
        if (b->color[q] != TG_BLACK && b->color[q] != TG_WHITE)
            continue;
        /* two liberties touch at most eight stones: more pseudo-liberties
         * than that mean more liberties, without walking the chain; a
         * chain in atari has one liberty: no walk needed */
        const tg_chain *ch = tg_chain_at(b, q);
        if (tg_chain_more_libs_than(ch, 2) || tg_chain_in_atari(ch) || tg_chain_liberties_upto(b, q, libs, 3) != 2)
            continue;
        int need = b->color[q] == c ? 3 : 2;
        for (int k = 0; k < 2 && n < 10; k++)
            if (tactics_move_ok(b, libs[k], c) && liberties_after_quick(b, libs[k], c, need) >= need)
                out[n++] = libs[k];
    }
    return n;
}

/* ---- The random move --------------------------------------------------- */

typedef struct random_filter {
    tg_color color;
    tg_suicide_rule suicide;
    tactics_random_rule rule;
    int min_self_atari; /* TACTICS_RANDOM_PLAYOUT: the smallest chain a self-atari may not make */
} random_filter;

static bool random_acceptable(const tg_board *b, tg_point p, void *context)
{
    const random_filter *f = context;
    if (tg_nbr_count(b, p, TG_EMPTY) >= 2)
        return true; /* legal, not an eye, not the ko point, not a self-atari */
    if (f->rule == TACTICS_RANDOM_PLAYOUT)
        return tactics_move_ok(b, p, f->color) && !tactics_bad_self_atari(b, p, f->color, f->min_self_atari);
    return !tg_board_is_eye(b, p, f->color) && tg_board_check(b, p, f->color, f->suicide) == TG_OK &&
           !tactics_chain_self_atari(b, p, f->color);
}

tg_point tactics_random_move(const tg_board *b, tg_color c, tg_suicide_rule suicide, tactics_random_rule rule,
                             tg_rng *rng)
{
    int n = b->empty_count;
    if (n == 0)
        return TG_PASS;
    int start = (int)tg_rng_below(rng, (uint32_t)n);
    random_filter f = {c, suicide, rule, 2};
    if (rule == TACTICS_RANDOM_PLAYOUT && !(tg_rng_next(rng) & 1))
        f.min_self_atari = 1; /* no throw-in this time */
    return tg_board_scan_empty(b, start, random_acceptable, &f);
}

/* ---- The end of a playout ---------------------------------------------- */

static inline __attribute__((always_inline)) int area_score(const tg_board *b, tactics_owner_rule rule,
                                                            uint8_t *owner)
{
    int score = 0;
    for (int p = b->stride + 1; p < b->npoints - b->stride; p++) {
        tg_color c = (tg_color)b->color[p];
        if (c == TG_EMPTY)
            c = tactics_final_owner(b, p, rule);
        else if (c == TG_OFFBOARD)
            continue;
        score += (c == TG_BLACK) - (c == TG_WHITE);
        if (owner)
            owner[p] = (uint8_t)c;
    }
    return 2 * score;
}

int tactics_area_score(const tg_board *b, tactics_owner_rule rule, uint8_t *owner)
{
    /* one copy of the loop for each rule, the rule's test folded into it */
    if (rule == TACTICS_OWNER_SURROUNDED)
        return area_score(b, TACTICS_OWNER_SURROUNDED, owner);
    return area_score(b, TACTICS_OWNER_TOUCHED, owner);
}

/* ---- Cleanup ----------------------------------------------------------- */

int tactics_cleanup_moves(const tg_board *b, tg_color c, const uint8_t *dead, const tactics_cleanup_rule *rule,
                          tg_point *out)
{
    uint8_t seen[TG_MAX_POINTS] = {0};
    tg_point libs[TG_MAX_POINTS];
    int n = 0;
    for (int p = 0; p < b->npoints; p++) {
        if (!dead[p] || b->color[p] != tg_opponent(c))
            continue;
        int head = b->chain_of[p];
        if (rule->chains_by_first_stone ? seen[head] : head != p)
            continue; /* each dead chain once */
        seen[head] = 1;
        int k = tg_chain_liberties(b, p, libs, TG_MAX_POINTS);
        for (int i = 0; i < k; i++) {
            if (!rule->legal(rule->context, b, libs[i], c))
                continue;
            if (rule->avoid_self_atari && tactics_chain_self_atari(b, libs[i], c))
                continue;
            out[n++] = libs[i];
        }
    }
    return n;
}
