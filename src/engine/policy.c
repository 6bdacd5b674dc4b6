/*
 * policy.c — the playout policy of the search, in the spirit of MoGo's:
 * moves near the last one first, because that is where the fight is.
 *
 * For the side to move, in order:
 *   1. capture the chain the opponent's last move left in atari;
 *   1b. (up to 11x11) capture a chain the mover's own previous move put in
 *      atari, when the opponent answered elsewhere;
 *   2. save an own chain the last move put in atari, by capturing one of
 *      its attackers that is in atari, or by extending when that gives it
 *      three liberties, or two and (up to 11x11) no ladder that works;
 *   2a. play the vital point of the opponent's small eye space (three to
 *      five points) next to the last move: nakade;
 *   2b. (half the time) when the last move left a chain next to it with two
 *      liberties: gain liberties for it if it is the mover's, atari it if
 *      it is the opponent's;
 *   3. (nine times in ten) play one of the good 3x3 shapes (pattern.c) on the
 *      eight points around the last move, chosen at random;
 *   3b. from 13x13 up, a point in an empty area (fill_board), when a few
 *      random tries find one (on 9x9 it lost 42-58 in self-play);
 *   4. otherwise a random move that is legal, not an own eye, and not a
 *      self-atari of a chain (a lone stone may still be thrown in, half the
 *      time: that is how false eyes and nakade happen; a chain of two to
 *      five whose capture leaves a dead eye space always may);
 *   5. pass when there is none.
 * (On the small boards the search draws a playout's first move from the
 * move model instead: policy_model_move.)  Two passes end the playout,
 * which is then counted by area; so does a lead of a third of the board in
 * stones (the mercy rule).  Simple ko
 * only and suicide never: superko and the ruleset's suicide option matter
 * for the moves the search plays, which the tree checks at its root.
 */
#include "engine/engine_internal.h"

#ifndef POLICY_LAST2
#define POLICY_LAST2 1
#endif
#ifndef POLICY_LADDER
#define POLICY_LADDER 1
#endif
/* Rules 1b and 2's ladder reading are used up to this size: they gained
 * against Pachi on 9x9, and nothing on 19x19 (49 of 100 self-play games,
 * for 4% more instructions a playout; docs/speed.md). */
#ifndef POLICY_NEW_RULES_MAX_SIZE
#define POLICY_NEW_RULES_MAX_SIZE 11
#endif

bool policy_move_ok(const tg_board *b, tg_point p, tg_color c)
{
    return b->color[p] == TG_EMPTY && tg_board_playout_move_ok(b, p, c, TG_SUICIDE_FORBIDDEN);
}

bool policy_bad_self_atari(const tg_board *b, tg_point p, tg_color c, int min_stones)
{
    if (tg_nbr_count(b, p, TG_EMPTY) >= 2)
        return false; /* two liberties at least, whatever it joins */
    int stones;
    return tg_board_is_self_atari(b, p, c, &stones) && stones >= min_stones &&
           !(stones > 1 && policy_nakade_sacrifice(b, p, c));
}

/* A self-atari is all its chain's neighbours but one liberty, so once the
 * opponent captures the chain, the stones' points are an eye space of the
 * opponent's.  The sacrifice kills when that space is one eye or cannot
 * make two: two or three points, the square or pyramid four, the bulky or
 * crossed five.  The playouts need it: without it a group whose only
 * other eye space sits in a false seki (two shared liberties, one of them
 * next to a chain of the opponent's that throws in and captures back)
 * lives in every playout and dies in the game. */
bool policy_nakade_sacrifice(const tg_board *b, tg_point p, tg_color c)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    tg_point shape[6];
    int n = 0;
    shape[n++] = p;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (b->color[q] != c)
            continue;
        bool seen = false;
        for (int k = 1; k < n; k++)
            seen |= shape[k] == q;
        if (seen)
            continue; /* a chain met again through another side */
        if (n + tg_chain_at(b, q)->stones > 5)
            return false;
        n += tg_chain_stones(b, q, shape + n);
    }
    int links = 0, max_degree = 0;
    for (int k = 0; k < n; k++) {
        int degree = 0;
        for (int j = 0; j < n; j++) {
            int diff = shape[j] - shape[k];
            degree += diff == 1 || diff == -1 || diff == b->stride || diff == -b->stride;
        }
        links += degree;
        if (degree > max_degree)
            max_degree = degree;
    }
    links /= 2;
    if (n <= 3)
        return true;
    if (n == 4)
        return max_degree == 3 || links == 4;
    return max_degree == 4 || links == 5;
}

static bool add_distinct(tg_point *set, int *n, tg_point p)
{
    for (int i = 0; i < *n; i++)
        if (set[i] == p)
            return false;
    set[(*n)++] = p;
    return true;
}

int policy_liberties_after(const tg_board *b, tg_point p, tg_color c, int max)
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

/* A move capturing an enemy chain next to p that is in atari, or TG_PASS. */
static tg_point capture_next_to(const tg_board *b, tg_point p, tg_color c)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (b->color[q] != tg_opponent(c) || !tg_chain_in_atari(tg_chain_at(b, q)))
            continue;
        tg_point lib = tg_chain_atari_point(tg_chain_at(b, q));
        if (policy_move_ok(b, lib, c))
            return lib;
    }
    return TG_PASS;
}

/* Save the chain at q (c's, in atari): capture a chain of its attackers in
 * atari, or extend when that gives two liberties or more. */
static tg_point save_chain(const tg_board *b, tg_point q, tg_color c)
{
    int s = b->chain_of[q], head = s;
    do {
        tg_point p = capture_next_to(b, s, c);
        if (p != TG_PASS)
            return p;
        s = b->next_stone[s];
    } while (s != head);
    tg_point lib = tg_chain_atari_point(tg_chain_at(b, q));
    if (!policy_move_ok(b, lib, c))
        return TG_PASS;
    int libs = policy_liberties_after(b, lib, c, 3);
    if (libs < 2)
        return TG_PASS;
    /* two liberties after the extension: running is futile in a working ladder */
    if (POLICY_LADDER && libs == 2 && b->size <= POLICY_NEW_RULES_MAX_SIZE && ladder_captured(b, q))
        return TG_PASS;
    return lib;
}

/* 1 and 2: the tactical answer to the opponent's last move, or TG_PASS:
 * take what it left in atari, or save what it put in atari. */
static tg_point answer_atari(const tg_board *b, tg_color c)
{
    tg_point last = b->last_move;
    if (last < 0 || b->color[last] != tg_opponent(c))
        return TG_PASS;
    const tg_chain *played = tg_chain_at(b, last);
    if (tg_chain_in_atari(played)) {
        tg_point lib = tg_chain_atari_point(played);
        if (policy_move_ok(b, lib, c))
            return lib;
    }
    const int d[4] = {-1, 1, -b->stride, b->stride};
    for (int i = 0; i < 4; i++) {
        int q = last + d[i];
        if (b->color[q] != c || !tg_chain_in_atari(tg_chain_at(b, q)))
            continue;
        tg_point p = save_chain(b, q, c);
        if (p != TG_PASS)
            return p;
    }
    return TG_PASS;
}

/* 2b: the last move left a chain next to it with two liberties: the side
 * of that chain gains liberties (a move giving it three or more), the
 * other side ataris it (from a point where its own stone keeps two
 * liberties). */
int policy_two_liberty_moves(const tg_board *b, tg_color c, tg_point out[10])
{
    tg_point last = b->last_move;
    if (last < 0 || b->color[last] != tg_opponent(c))
        return 0;
    const int d[5] = {0, -1, 1, -b->stride, b->stride};
    tg_point libs[3];
    int n = 0;
    for (int i = 0; i < 5; i++) {
        int q = last + d[i];
        /* two liberties touch at most eight stones: more pseudo-liberties
         * than that mean more liberties, without walking the chain */
        if (b->color[q] != TG_BLACK && b->color[q] != TG_WHITE)
            continue;
        /* a chain in atari has one liberty: no walk needed */
        const tg_chain *ch = tg_chain_at(b, q);
        if (tg_chain_more_libs_than(ch, 2) || tg_chain_in_atari(ch) || tg_chain_liberties_upto(b, q, libs, 3) != 2)
            continue;
        int need = b->color[q] == c ? 3 : 2;
        for (int k = 0; k < 2 && n < 10; k++)
            if (policy_move_ok(b, libs[k], c) && policy_liberties_after(b, libs[k], c, need) >= need)
                out[n++] = libs[k];
    }
    return n;
}

/* The vital point of the small eye space holding the empty point q, or
 * TG_PASS: the empty region around q (three to five points) must be
 * enclosed by the stones of one colour and the board's edge, and one of
 * its points must touch more of the region than every other point: the
 * middle of a straight or bent three, the centre of a pyramid four, a
 * bulky five or a crossed five.  Whoever plays there first decides the
 * group's life: the owner makes two eyes, the other side kills by nakade.
 * (The T-shaped five also qualifies; playing its centre is harmless.) */
tg_point policy_nakade_point(const tg_board *b, tg_point q, tg_color *owner_out)
{
    const int d[4] = {-1, 1, -b->stride, b->stride};
    tg_point region[6];
    int n = 0, degrees = 0;
    unsigned owner = TG_EMPTY;
    if (b->color[q] != TG_EMPTY)
        return TG_PASS;
    region[n++] = q;
    for (int k = 0; k < n; k++) {
        /* a closed region's points touch only each other, so a point's
         * empty neighbours are its neighbours in the region; five points
         * have at most five links (ten ends) between them */
        degrees += tg_nbr_count(b, region[k], TG_EMPTY);
        if (degrees > 10)
            return TG_PASS;
        for (int i = 0; i < 4; i++) {
            int r = region[k] + d[i];
            unsigned rc = b->color[r];
            if (rc == TG_OFFBOARD)
                continue;
            if (rc != TG_EMPTY) {
                if (owner != TG_EMPTY && owner != rc)
                    return TG_PASS; /* both colours around: no one's eye */
                owner = rc;
                continue;
            }
            bool seen = false;
            for (int j = 0; j < n; j++)
                seen |= region[j] == r;
            if (seen)
                continue;
            if (n == 5)
                return TG_PASS; /* too big to be killed by one point */
            region[n++] = r;
        }
    }
    if (n < 3 || owner == TG_EMPTY)
        return TG_PASS;
    int best = -1, best_degree = 0, ties = 0;
    for (int k = 0; k < n; k++) {
        int degree = tg_nbr_count(b, region[k], TG_EMPTY);
        if (degree > best_degree) {
            best = k;
            best_degree = degree;
            ties = 0;
        } else if (degree == best_degree) {
            ties++;
        }
    }
    if (ties || best_degree < (n == 3 ? 2 : 3))
        return TG_PASS;
    if (owner_out)
        *owner_out = (tg_color)owner;
    return region[best];
}

/* 2a: the vital point of the opponent's small eye space next to the last
 * move (the space a capture left, or one the opponent just closed), or
 * TG_PASS.  Only the killing side is told: letting the owner fill its own
 * vital point too measured -38 Elo [-88, +10] in self-play, this +21
 * [-13, +55] over 400 games (9x9, 1,000 playouts a move). */
static tg_point nakade(const tg_board *b, tg_color c)
{
    tg_point last = b->last_move;
    if (last < 0)
        return TG_PASS;
    const int d[4] = {-1, 1, -b->stride, b->stride};
    for (int i = 0; i < 4; i++) {
        int q = last + d[i];
        /* an eye space's points have at most two empty neighbours, except
         * the centre of the four and five shapes, reached through another */
        if (b->color[q] != TG_EMPTY || tg_nbr_count(b, q, c))
            continue; /* the killer's stone next to it: not the opponent's eye */
        int empty = tg_nbr_count(b, q, TG_EMPTY);
        if (empty == 0 || empty > 2)
            continue; /* a one-point eye has no vital point */
        tg_color owner;
        tg_point v = policy_nakade_point(b, q, &owner);
        if (v != TG_PASS && owner == tg_opponent(c) && policy_move_ok(b, v, c))
            return v;
    }
    return TG_PASS;
}

static tg_point two_liberty_fight(const tg_board *b, tg_color c, tg_rng *rng)
{
    tg_point found[10];
    int n = policy_two_liberty_moves(b, c, found);
    return n ? found[tg_rng_below(rng, (uint32_t)n)] : TG_PASS;
}

/* 3: a good shape around the last move, or TG_PASS. */
static tg_point local_shape(const tg_board *b, tg_color c, tg_rng *rng)
{
    tg_point last = b->last_move;
    if (last < 0)
        return TG_PASS;
    const int s = b->stride;
    const int around[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
    tg_point found[8];
    int n = 0;
    for (int i = 0; i < 8; i++) {
        tg_point q = last + around[i];
        if (b->color[q] == TG_EMPTY && pattern_match(b, q) && policy_move_ok(b, q, c) &&
            !policy_bad_self_atari(b, q, c, 1))
            found[n++] = q;
    }
    return n ? found[tg_rng_below(rng, (uint32_t)n)] : TG_PASS;
}

/* 3b: filling the board (Chatriot, Gelly, Hoock, Perez, Rimmel and
 * Teytaud, 2008, who measured it on 19x19): a few random points, the
 * first whose eight neighbours are all empty, or TG_PASS.  Playouts then
 * spread over empty areas the way games do instead of clustering by
 * chance. */
static tg_point fill_board(const tg_board *b, tg_rng *rng)
{
    for (int k = 0; k < 4 && b->empty_count > 0; k++) {
        tg_point p = b->empty[tg_rng_below(rng, (uint32_t)b->empty_count)];
        if (pattern_key(b, p) == 0)
            return p;
    }
    return TG_PASS;
}

/* 4: a random acceptable move, scanning the empty points from a random start. */
static tg_point random_move(const tg_board *b, tg_color c, tg_rng *rng)
{
    int n = b->empty_count;
    if (n == 0)
        return TG_PASS;
    int i = (int)tg_rng_below(rng, (uint32_t)n);
    bool allow_throw_in = tg_rng_next(rng) & 1;
    for (int k = 0; k < n; k++) {
        tg_point p = b->empty[i];
        if (++i == n)
            i = 0;
        if (tg_nbr_count(b, p, TG_EMPTY) >= 2)
            return p; /* legal, not an eye, not the ko point, not a self-atari */
        if (policy_move_ok(b, p, c) && !policy_bad_self_atari(b, p, c, allow_throw_in ? 2 : 1))
            return p;
    }
    return TG_PASS;
}

tg_point policy_choose(const tg_board *b, tg_color c, tg_point last2, tg_rng *rng)
{
    tg_point p = answer_atari(b, c);
    if (p != TG_PASS)
        return p;
    if (POLICY_LAST2 && last2 >= 0 && b->size <= POLICY_NEW_RULES_MAX_SIZE) {
        /* 1b: the opponent let a chain the mover's own previous move put in
         * atari stand: take it */
        p = capture_next_to(b, last2, c);
        if (p != TG_PASS)
            return p;
    }
    p = nakade(b, c);
    if (p != TG_PASS)
        return p;
    if (tg_rng_below(rng, 2) == 0) {
        p = two_liberty_fight(b, c, rng);
        if (p != TG_PASS)
            return p;
    }
    if (tg_rng_below(rng, 10) != 0) {
        p = local_shape(b, c, rng);
        if (p != TG_PASS)
            return p;
    }
    if (b->size >= 13) {
        p = fill_board(b, rng);
        if (p != TG_PASS)
            return p;
    }
    return random_move(b, c, rng);
}

tg_point policy_model_move(const tg_board *b, tg_color c, tg_point last2, tg_rng *rng)
{
    tg_point moves[TG_MAX_POINTS], fight[10];
    double upto[TG_MAX_POINTS], sum = 0;
    int n = 0;
    int fights = policy_two_liberty_moves(b, c, fight);
    features_board fb;
    features_board_init(&fb, b);
    for (int i = 0; i < b->empty_count; i++) {
        tg_point p = b->empty[i];
        if (!policy_move_ok(b, p, c))
            continue;
        move_features f;
        features_compute(b, &fb, p, c, last2, fight, fights, &f);
        sum += model_gamma_for(&f, b->size);
        upto[n] = sum;
        moves[n++] = p;
    }
    if (n == 0)
        return TG_PASS;
    double r = (double)(tg_rng_next(rng) >> 11) * 0x1p-53 * sum;
    for (int i = 0; i < n - 1; i++)
        if (r < upto[i])
            return moves[i];
    return moves[n - 1];
}

int policy_area_score(const tg_board *b, uint8_t *owner)
{
    int score = 0;
    for (int p = b->stride + 1; p < b->npoints - b->stride; p++) {
        tg_color c = (tg_color)b->color[p];
        if (c == TG_EMPTY) {
            unsigned off = (unsigned)tg_nbr_count(b, p, TG_OFFBOARD);
            if (tg_nbr_count(b, p, TG_BLACK) + off == 4)
                c = TG_BLACK;
            else if (tg_nbr_count(b, p, TG_WHITE) + off == 4)
                c = TG_WHITE;
        } else if (c == TG_OFFBOARD) {
            continue;
        }
        score += (c == TG_BLACK) - (c == TG_WHITE);
        if (owner)
            owner[p] = (uint8_t)c;
    }
    return 2 * score;
}

int policy_playout(tg_board *b, tg_color to_move, tg_point last2, tg_rng *rng, int max_moves,
                   policy_moves *moves)
{
    int passes = 0;
    tg_point previous = last2, last = TG_NO_POINT; /* the mover's previous move, then the other side's */
    tg_color c = to_move;
    /* the mercy rule: a side ahead by a third of the board in stones has
     * won; counting it now saves the rest of a hopeless playout */
    int lead = tg_board_stone_count(b, TG_BLACK) - tg_board_stone_count(b, TG_WHITE);
    int mercy = b->size * b->size / 3;
    for (int m = 0; m < max_moves && passes < 2 && lead < mercy && lead > -mercy; m++) {
        tg_point p = policy_choose(b, c, previous, rng);
        previous = last;
        last = p;
        if (p == TG_PASS) {
            tg_board_pass(b);
            passes++;
        } else {
            int gained = 1 + tg_board_play(b, p, c);
            lead += c == TG_BLACK ? gained : -gained;
            passes = 0;
        }
        if (moves && moves->count < 3 * TG_MAX_POINTS) {
            moves->point[moves->count] = (int16_t)p;
            moves->color[moves->count++] = (uint8_t)c;
        }
        c = tg_opponent(c);
    }
    return policy_area_score(b, NULL);
}
