/*
 * server_quickmatch.c — the quick match (issue 52): a player states what
 * they would play (board sizes, speeds, rated or not, a handicap or not,
 * the widest gap of ranks they accept) and the server pairs them with
 * another seeker whose wishes meet theirs, the closest in rating first,
 * and starts the game exactly as an accepted challenge starts (game_start).
 *
 * A seek lives in this node's memory only, owned by its connection: it
 * goes when the connection closes or logs out, when it is cancelled or
 * replaced (one seek an account), and when its player begins another game.
 * Nothing is stored: a seek is worth nothing once its player has gone.
 *
 * The gap of ranks a seek accepts widens with its waiting: GAP_START ranks
 * at first, one more every GAP_WIDEN_MS, never past the player's own
 * max_rank_gap.  Two seeks pair when the difference of their ranks is
 * within both windows.  A new seek is matched at once against the waiting
 * ones (one linear scan); a timer's pass every PASS_PERIOD_MS pairs what
 * the widening allows: the seeks sorted by rating, each (the longest
 * waiting first) looks outward from its place for the nearest compatible
 * partner, at most SCAN_EACH_WAY seeks each way, so that a pass costs
 * O(n log n) whatever the crowd.
 *
 * The game: the first size and speed of the longer-waiting seeker's lists
 * that the other accepts.  Even (nigiri, the ruleset's komi) unless both
 * allowed a handicap, the game is unrated and their ranks differ: then the
 * weaker takes Black with one stone a rank of difference (at most 9, and no
 * more than the board's fixed points hold; a difference of one rank gives
 * no stone) and komi 0.5, on which the ruleset adds its own handicap
 * compensation.  A rated quick match is always even: the server's Glicko-2
 * rates even games only (room_rated).
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/tournament.h"

#define SEEKS_MAX 1000          /* waiting in the whole server */
#define SEEKS_PER_ADDRESS 20
#define SCAN_EACH_WAY 64        /* neighbours in rating order a pass looks at */
#define GAP_START 1             /* ranks accepted at first */
#define GAP_WIDEN_MS 10000      /* one more rank each */
#define GAP_DEFAULT 9
#define GAP_MAX 40              /* the whole scale, 30k..9d */
#define PASS_PERIOD_MS 1000
#define HANDICAP_MAX 9

static const int SIZES[] = {9, 13, 19};
#define NSIZES 3

/* The server's standard speeds: Japanese byo-yomi, as most servers play. */
static const struct speed {
    const char *name;
    const char *time;
} SPEEDS[] = {{"blitz", "byoyomi:120+5x10"},
              {"rapid", "byoyomi:600+5x30"},
              {"classical", "byoyomi:1800+5x60"}};
#define NSPEEDS 3

typedef struct seek {
    int64_t client, user, addr;
    uint8_t sizes[NSIZES], speeds[NSPEEDS]; /* indexes, in the player's order of preference */
    int nsizes, nspeeds;
    bool rated, handicap;
    int max_gap;
    double rating;
    int rank;                /* tg_glicko_rank of rating */
    char rank_text[12];      /* "" unknown (a guest: rated as a new account) */
    int64_t since_ms;        /* monotonic */
    bool gone;               /* paired or dropped in this pass */
} seek;

/* The seeks, oldest first (appended, removed in place). */
typedef struct quickmatch {
    seek *seeks;
    int count, cap;
    net_timer *timer;
    bool armed;
    int max_total, max_per_address;
} quickmatch;

static int window_of(const seek *k, int64_t now)
{
    int64_t waited = now > k->since_ms ? now - k->since_ms : 0;
    int64_t w = GAP_START + waited / GAP_WIDEN_MS;
    return w < k->max_gap ? (int)w : k->max_gap;
}

static int rank_gap(const seek *a, const seek *b) { return abs(a->rank - b->rank); }

/* The first of a's choices (indexes) that b's list holds, or -1. */
static int first_common(const uint8_t *a, int na, const uint8_t *b, int nb)
{
    for (int i = 0; i < na; i++)
        for (int k = 0; k < nb; k++)
            if (a[i] == b[k])
                return a[i];
    return -1;
}

/* The seek's connection is still there, and still its player's. */
static client *seek_client(server *s, const seek *k)
{
    client *c = client_by_id(s, k->client);
    return c && !c->closed && c->user == k->user ? c : NULL;
}

static bool compatible(server *s, const seek *a, const seek *b, int64_t now)
{
    int gap = rank_gap(a, b);
    return a->user != b->user && a->rated == b->rated && gap <= window_of(a, now) &&
           gap <= window_of(b, now) &&
           first_common(a->sizes, a->nsizes, b->sizes, b->nsizes) >= 0 &&
           first_common(a->speeds, a->nspeeds, b->speeds, b->nspeeds) >= 0 && seek_client(s, a) &&
           seek_client(s, b);
}

static bool user_playing(server *s, int64_t user)
{
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->lives, &i, &id, &v);) {
        const room *r = ((live *)v)->r;
        if (r->phase != ROOM_OVER && (r->user[TG_BLACK] == user || r->user[TG_WHITE] == user))
            return true;
    }
    return false;
}

static json_t *seek_json(const seek *k)
{
    json_t *sizes = json_array(), *speeds = json_array();
    for (int i = 0; i < k->nsizes; i++)
        json_array_append_new(sizes, json_integer(SIZES[k->sizes[i]]));
    for (int i = 0; i < k->nspeeds; i++)
        json_array_append_new(speeds, json_string(SPEEDS[k->speeds[i]].name));
    return json_pack("{s:o, s:o, s:b, s:b, s:i, s:s}", "sizes", sizes, "speeds", speeds, "rated",
                     k->rated, "handicap", k->handicap, "max_rank_gap", k->max_gap, "rank",
                     k->rank_text);
}

static void tell_cancelled(server *s, const seek *k, const char *reason)
{
    client *c = seek_client(s, k);
    if (c)
        send_json(c, json_pack("{s:s, s:s}", "type", "match.cancelled", "reason", reason));
}

/* ---- the seeks' list ---------------------------------------------------------------- */

static quickmatch *qm_of(server *s)
{
    if (!s->quickmatch && (s->quickmatch = calloc(1, sizeof *s->quickmatch))) {
        s->quickmatch->max_total = SEEKS_MAX;
        s->quickmatch->max_per_address = SEEKS_PER_ADDRESS;
    }
    return s->quickmatch;
}

/* Drops the seeks marked gone, keeping the others' order. */
static void compact(quickmatch *qm)
{
    int n = 0;
    for (int i = 0; i < qm->count; i++)
        if (!qm->seeks[i].gone)
            qm->seeks[n++] = qm->seeks[i];
    qm->count = n;
}

static int find_seek(const quickmatch *qm, bool by_user, int64_t key)
{
    for (int i = 0; qm && i < qm->count; i++)
        if ((by_user ? qm->seeks[i].user : qm->seeks[i].client) == key)
            return i;
    return -1;
}

static void on_timer(void *arg)
{
    server *s = arg;
    s->quickmatch->armed = false;
    quickmatch_pass(s, server_now_ms());
    if (s->quickmatch->count > 0 && s->quickmatch->timer) {
        net_timer_set(s->quickmatch->timer, PASS_PERIOD_MS);
        s->quickmatch->armed = true;
    }
}

/* ---- reading a seek ----------------------------------------------------------------- */

/* A value or a list of them (at most n, none twice) into indexes: sizes
 * (integers of SIZES) or speeds (names of SPEEDS). */
static bool read_choices(const json_t *v, bool sizes, uint8_t *out, int *count, char *err,
                         size_t errlen)
{
    const char *field = sizes ? "seek.sizes" : "seek.speeds";
    int n = sizes ? NSIZES : NSPEEDS;
    size_t len = json_is_array(v) ? json_array_size(v) : 1;
    if (len < 1 || len > (size_t)n) {
        snprintf(err, errlen, "%s: give 1 to %d choices", field, n);
        return false;
    }
    *count = 0;
    for (size_t i = 0; i < len; i++) {
        const json_t *e = json_is_array(v) ? json_array_get(v, i) : v;
        int found = -1;
        for (int k = 0; k < n && found < 0; k++)
            if (sizes ? json_is_integer(e) && json_integer_value(e) == SIZES[k]
                      : json_is_string(e) && strcmp(json_string_value(e), SPEEDS[k].name) == 0)
                found = k;
        for (int k = 0; k < *count && found >= 0; k++)
            if (out[k] == found)
                found = -1;
        if (found < 0) {
            snprintf(err, errlen, sizes ? "%s: 9, 13 or 19, each once"
                                        : "%s: \"blitz\", \"rapid\" or \"classical\", each once",
                     field);
            return false;
        }
        out[(*count)++] = (uint8_t)found;
    }
    return true;
}

static bool read_seek(const json_t *obj, bool guest, seek *k, char *err, size_t errlen)
{
    json_t *sizes = NULL, *speeds = NULL;
    int rated = !guest, handicap = 1, gap = GAP_DEFAULT;
    json_error_t e;
    if (obj && json_unpack_ex((json_t *)obj, &e, JSON_STRICT, "{s?o, s?o, s?b, s?b, s?i}", "sizes",
                              &sizes, "speeds", &speeds, "rated", &rated, "handicap", &handicap,
                              "max_rank_gap", &gap) != 0) {
        snprintf(err, errlen, "seek: %s", e.text);
        return false;
    }
    json_t *size19 = json_integer(19), *rapid = json_string("rapid");
    bool ok = read_choices(sizes ? sizes : size19, true, k->sizes, &k->nsizes, err, errlen) &&
              read_choices(speeds ? speeds : rapid, false, k->speeds, &k->nspeeds, err, errlen);
    json_decref(size19);
    json_decref(rapid);
    if (!ok)
        return false;
    if (gap < 0 || gap > GAP_MAX) {
        snprintf(err, errlen, "seek.max_rank_gap: 0..%d", GAP_MAX);
        return false;
    }
    k->rated = rated;
    k->handicap = handicap;
    k->max_gap = gap;
    return true;
}

/* ---- making the game ---------------------------------------------------------------- */

/* The settings of a's game against b (a the longer waiting), the
 * handicap reduced until the board's fixed points hold it. */
static bool match_settings(const seek *a, const seek *b, room_settings *st, int *speed,
                           bool *handicap_game)
{
    int size = first_common(a->sizes, a->nsizes, b->sizes, b->nsizes);
    *speed = first_common(a->speeds, a->nspeeds, b->speeds, b->nspeeds);
    int gap = rank_gap(a, b);
    bool handicap = *handicap_game = !a->rated && a->handicap && b->handicap && gap > 0;
    int stones = gap < HANDICAP_MAX ? gap : HANDICAP_MAX;
    for (;; stones--) {
        json_t *o = json_pack("{s:i, s:s, s:b}", "size", SIZES[size], "time", SPEEDS[*speed].time,
                              "rated", a->rated);
        if (o && handicap) {
            json_object_set_new(o, "komi", json_real(0.5));
            json_object_set_new(o, "handicap", json_integer(stones >= 2 ? stones : 0));
        }
        char err[200];
        bool ok = o && room_settings_from_json(o, st, err, sizeof err);
        json_decref(o);
        if (ok || !handicap || stones < 2)
            return ok;
    }
}

static void tell_found(server *s, const seek *me, const seek *other, const live *lv, tg_color color,
                       int speed)
{
    client *c = seek_client(s, me);
    if (!c)
        return;
    const room_settings *st = &lv->r->settings;
    send_json_after(c,
                    json_pack("{s:s, s:I, s:s, s:s, s:s, s:i, s:s, s:i, s:f, s:b}", "type",
                              "match.found", "game", (json_int_t)lv->r->id, "color",
                              color == TG_BLACK ? "black" : "white", "opponent",
                              lv->r->name[tg_opponent(color)], "opponent_rank", other->rank_text,
                              "size", st->size, "speed", SPEEDS[speed].name, "handicap",
                              st->handicap, "komi", st->rules.komi2 / 2.0, "rated", !st->unrated),
                    lv->dep);
}

/* a (the longer waiting) against b; false when the game could not begin. */
static bool make_game(server *s, seek *a, seek *b)
{
    room_settings st;
    int speed;
    bool handicap;
    client *ca = seek_client(s, a), *cb = seek_client(s, b);
    if (!ca || !cb || !match_settings(a, b, &st, &speed, &handicap))
        return false;
    char nigiri[160] = "";
    tg_color a_color;
    if (handicap) /* the weaker takes Black */
        a_color = a->rank < b->rank ? TG_BLACK : TG_WHITE;
    else /* the longer waiting holds White in the draw, as a challenger does */
        a_color = lobby_draw_color(&st, nigiri, sizeof nigiri);
    const seek *black = a_color == TG_BLACK ? a : b, *white = a_color == TG_BLACK ? b : a;
    client *cblack = a_color == TG_BLACK ? ca : cb, *cwhite = a_color == TG_BLACK ? cb : ca;
    engine_spec none[3];
    memset(none, 0, sizeof none);
    char err[200];
    live *lv = game_start(s, &st, black->user, cblack->name, white->user, cwhite->name, nigiri, none,
                          NULL, err, sizeof err);
    if (!lv)
        return false;
    tell_found(s, black, white, lv, TG_BLACK, speed);
    tell_found(s, white, black, lv, TG_WHITE, speed);
    a->gone = b->gone = true;
    return true;
}

/* ---- matching ----------------------------------------------------------------------- */

/* The nearest partner in rating for the seek at position p of order
 * (indexes sorted by rating), looking outward while the ranks' gap is
 * within its window; -1 when none. */
static int nearest(server *s, const quickmatch *qm, const int *order, int p, int64_t now)
{
    const seek *me = &qm->seeks[order[p]];
    int best = -1;
    for (int dir = -1; dir <= 1; dir += 2)
        for (int k = 1; k <= SCAN_EACH_WAY; k++) {
            int q = p + dir * k;
            if (q < 0 || q >= qm->count)
                break;
            const seek *other = &qm->seeks[order[q]];
            if (rank_gap(me, other) > window_of(me, now))
                break; /* farther ones differ more */
            if (other->gone || !compatible(s, me, other, now))
                continue;
            double d = other->rating - me->rating, bd = best < 0 ? 0 : qm->seeks[best].rating - me->rating;
            if (best < 0 || d * d < bd * bd || (d * d == bd * bd && order[q] < best))
                best = order[q];
            break; /* the first found is the nearest this way */
        }
    return best;
}

typedef struct ranked {
    double rating;
    int seek;
} ranked;

static int by_rating(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->rating != b->rating)
        return a->rating < b->rating ? -1 : 1;
    return a->seek - b->seek;
}

/* Seeks whose connection went, or whose player began another game, go. */
static void drop_stale(server *s, quickmatch *qm)
{
    imap by_user = {0};
    for (int i = 0; i < qm->count; i++) {
        seek *k = &qm->seeks[i];
        if (!seek_client(s, k))
            k->gone = true;
        else if (!imap_put(&by_user, k->user, k))
            k->gone = true; /* out of memory: it may seek again */
    }
    int64_t id;
    void *v;
    for (size_t i = 0; by_user.count && imap_next(&s->lives, &i, &id, &v);) {
        const room *r = ((live *)v)->r;
        for (tg_color c = TG_BLACK; r->phase != ROOM_OVER && c <= TG_WHITE; c++) {
            seek *k = r->user[c] > 0 ? imap_get(&by_user, r->user[c]) : NULL;
            if (k && !k->gone) {
                tell_cancelled(s, k, "playing");
                k->gone = true;
            }
        }
    }
    imap_free(&by_user);
    compact(qm);
}

int quickmatch_pass(server *s, int64_t now_ms)
{
    quickmatch *qm = s->quickmatch;
    if (!qm)
        return 0;
    drop_stale(s, qm);
    size_t n = (size_t)(qm->count ? qm->count : 1);
    ranked *sorted = malloc(sizeof *sorted * n);
    int *order = malloc(sizeof *order * n), *pos = malloc(sizeof *pos * n);
    int made = 0;
    if (sorted && order && pos && qm->count >= 2) {
        for (int i = 0; i < qm->count; i++)
            sorted[i] = (ranked){qm->seeks[i].rating, i};
        qsort(sorted, (size_t)qm->count, sizeof *sorted, by_rating);
        for (int p = 0; p < qm->count; p++) {
            order[p] = sorted[p].seek;
            pos[order[p]] = p;
        }
        for (int i = 0; i < qm->count; i++) { /* the longest waiting first */
            if (qm->seeks[i].gone)
                continue;
            int j = nearest(s, qm, order, pos[i], now_ms);
            if (j >= 0 && make_game(s, &qm->seeks[i], &qm->seeks[j]))
                made++;
        }
    }
    free(sorted);
    free(order);
    free(pos);
    compact(qm);
    return made;
}

int quickmatch_seeks(const server *s) { return s->quickmatch ? s->quickmatch->count : 0; }

/* ---- requests ----------------------------------------------------------------------- */

static int seeks_from(const quickmatch *qm, int64_t addr)
{
    int n = 0;
    for (int i = 0; i < qm->count; i++)
        n += qm->seeks[i].addr == addr;
    return n;
}

/* The new seek (last) against the waiting ones, at once: one scan. */
static void match_newest(server *s, quickmatch *qm, int64_t now)
{
    seek *me = &qm->seeks[qm->count - 1];
    int best = -1;
    for (int i = 0; i < qm->count - 1; i++) {
        const seek *other = &qm->seeks[i];
        if (!compatible(s, me, other, now))
            continue;
        double d = other->rating - me->rating, bd = best < 0 ? 0 : qm->seeks[best].rating - me->rating;
        if (best < 0 || d * d < bd * bd)
            best = i;
    }
    /* a partner who began another game meanwhile is dropped by the pass */
    if (best < 0 || user_playing(s, qm->seeks[best].user))
        return;
    if (make_game(s, &qm->seeks[best], me))
        compact(qm);
}

static void on_seek(server *s, client *c, const proto_request *rq)
{
    quickmatch *qm = qm_of(s);
    seek k;
    memset(&k, 0, sizeof k);
    char err[200];
    if (!qm)
        return send_error(c, rq, "internal", "out of memory");
    if (!read_seek(rq->seek, c->guest, &k, err, sizeof err))
        return send_error(c, rq, "bad_request", err);
    if (c->guest && k.rated)
        return send_error(c, rq, "forbidden", "guests play unrated games: register to play rated");
    if (user_playing(s, c->user))
        return send_error(c, rq, "forbidden", "finish your game before seeking another");
    int mine = find_seek(qm, true, c->user);
    if (mine >= 0) { /* one seek an account: the new one replaces it */
        if (qm->seeks[mine].client != c->id)
            tell_cancelled(s, &qm->seeks[mine], "replaced");
        qm->seeks[mine].gone = true;
        compact(qm);
    }
    if (qm->count >= qm->max_total)
        return send_error(c, rq, "rate_limited", "the quick match is full: try again later");
    if (seeks_from(qm, c->addr) >= qm->max_per_address)
        return send_error(c, rq, "rate_limited", "too many players seek from your address");
    if (!qm->timer)
        qm->timer = net_timer_new(s->net, on_timer, s);
    if (!qm->timer || !grow_array((void **)&qm->seeks, &qm->cap, qm->count, sizeof *qm->seeks))
        return send_error(c, rq, "internal", "out of memory");
    account *a = account_of(s, c->user);
    k.client = c->id;
    k.user = c->user;
    k.addr = c->addr;
    k.rating = 1500.0; /* a guest, or a rating not read: a new account's */
    if (a && a->rating_known && !c->guest) {
        k.rating = a->rating.rating;
        rating_rank_text(&a->rating, k.rank_text, sizeof k.rank_text);
    }
    k.rank = tg_glicko_rank(k.rating);
    k.since_ms = server_now_ms();
    qm->seeks[qm->count++] = k;
    send_ok(c, rq, json_pack("{s:o, s:i}", "seek", seek_json(&k), "seekers", qm->count));
    match_newest(s, qm, k.since_ms);
    if (qm->count > 0 && !qm->armed) {
        net_timer_set(qm->timer, PASS_PERIOD_MS);
        qm->armed = true;
    }
}

static void on_cancel(server *s, client *c, const proto_request *rq)
{
    quickmatch *qm = s->quickmatch;
    int i = find_seek(qm, true, c->user);
    if (i < 0)
        return send_error(c, rq, "not_found", "you are not seeking a game");
    if (qm->seeks[i].client != c->id)
        tell_cancelled(s, &qm->seeks[i], "cancelled");
    qm->seeks[i].gone = true;
    compact(qm);
    send_ok(c, rq, NULL);
}

void quickmatch_handle(server *s, client *c, const proto_request *rq)
{
    if (rq->type == P_MATCH_SEEK)
        return on_seek(s, c, rq);
    return on_cancel(s, c, rq);
}

void quickmatch_client_gone(server *s, client *c)
{
    int i = find_seek(s->quickmatch, false, c->id);
    if (i >= 0) {
        s->quickmatch->seeks[i].gone = true;
        compact(s->quickmatch);
    }
}

void quickmatch_limits(server *s, int total, int per_address)
{
    quickmatch *qm = qm_of(s);
    if (qm) {
        qm->max_total = total;
        qm->max_per_address = per_address;
    }
}

void quickmatch_free(server *s)
{
    if (!s->quickmatch)
        return;
    net_timer_free(s->quickmatch->timer);
    free(s->quickmatch->seeks);
    free(s->quickmatch);
    s->quickmatch = NULL;
}
