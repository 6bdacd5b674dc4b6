/*
 * test_server_logic_quickmatch.c — the quick match (issue 52,
 * server_quickmatch.c) driven through the server with fake peers
 * (tests/fake_net), as test_server_logic.c drives the rest:
 *
 *   - two seekers whose wishes meet are paired into one game, told
 *     match.found with its id, colours by nigiri and the first size and
 *     speed of the longer waiting one's lists that the other accepts;
 *   - ranks that differ: the weaker takes Black with a stone a rank and
 *     komi 0.5 in an unrated game where both allowed it; a rated match
 *     and a refused handicap stay even;
 *   - the accepted gap of ranks widens by one every 10 s of waiting (the
 *     pass is given the time: nothing is timed), never past max_rank_gap;
 *   - seekers that do not meet (sizes, speeds, rated) are not paired;
 *   - cancel, a closed connection, a new seek of the same account and a
 *     game begun elsewhere take a seek away; a player in a game cannot seek;
 *   - guests seek unrated only; malformed seeks are refused; the limits of
 *     seeks for the server and an address.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "net_fake.h"
#include "server/server_internal.h"
#include "tengen/tournament.h"

typedef struct peer {
    net_conn *c;
    json_t *got;             /* every message delivered, in order */
    int64_t user;
} peer;

static char dir[64];
static int db_count;

static server *start(void)
{
    char db[128];
    snprintf(db, sizeof db, "%s/q%d.db", dir, ++db_count);
    server_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.db_path = db;
    cfg.listen_addr = "127.0.0.1";
    cfg.engines = 1;
    cfg.tengen_command = "/bin/false";
    cfg.max_connections = 100;
    cfg.quiet = true;
    char err[256];
    server *s = server_new(&cfg, err, sizeof err);
    if (!s)
        fail_msg("server_new: %s", err);
    return s;
}

static void pump(peer *p)
{
    char *text;
    while ((text = fake_next(p->c))) {
        json_error_t e;
        json_t *j = json_loads(text, 0, &e);
        assert_non_null(j);
        json_array_append_new(p->got, j);
        free(text);
    }
}

static void say(server *s, peer *p, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fake_say(p->c, text);
    fake_turn(fake_net());
    server_settle(s);
    pump(p);
}

/* The answer to request id (ok or error), or NULL. */
static json_t *answer(peer *p, int64_t id)
{
    pump(p);
    json_t *found = NULL, *m;
    size_t i;
    json_array_foreach(p->got, i, m) {
        const char *type = json_string_value(json_object_get(m, "type"));
        json_t *mid = json_object_get(m, "id");
        if (mid && json_integer_value(mid) == id && type &&
            (!strcmp(type, "ok") || !strcmp(type, "error")))
            found = m;
    }
    return found;
}

static bool answered_ok(peer *p, int64_t id)
{
    json_t *m = answer(p, id);
    return m && !strcmp(json_string_value(json_object_get(m, "type")), "ok");
}

/* The error code of the answer to id ("" when it was ok). */
static const char *error_code(peer *p, int64_t id)
{
    json_t *m = answer(p, id);
    assert_non_null(m);
    const char *code = json_string_value(json_object_get(m, "code"));
    return code ? code : "";
}

/* The last message of a type p received, or NULL. */
static json_t *last_of(peer *p, const char *type)
{
    pump(p);
    json_t *last = NULL, *msg;
    size_t i;
    json_array_foreach(p->got, i, msg)
        if (!strcmp(json_string_value(json_object_get(msg, "type")), type))
            last = msg;
    return last;
}

static void drop(peer *p) { json_decref(p->got); }

/* A peer from addr, registered as name (NULL: a guest). */
static peer join(server *s, const char *addr, const char *name)
{
    peer p = {fake_connect(fake_net(), addr), json_array(), 0};
    assert_non_null(p.c);
    if (name)
        say(s, &p, "{\"type\":\"register\",\"id\":1,\"name\":\"%s\",\"password\":\"correct horse\"}",
            name);
    else
        say(s, &p, "{\"type\":\"guest\",\"id\":1}");
    json_t *m = answer(&p, 1);
    assert_non_null(m);
    assert_string_equal(json_string_value(json_object_get(m, "type")), "ok");
    p.user = json_integer_value(json_object_get(json_object_get(m, "user"), "id"));
    assert_true(p.user > 0);
    return p;
}

/* p's rating as the server knows it (as if read at login). */
static void set_rating(server *s, const peer *p, double rating)
{
    account *a = account_of(s, p->user);
    assert_non_null(a);
    a->rating = (store_rating){rating, 60.0, 0.06, 30};
    a->rating_known = true;
}

/* The game of p's match.found (0: none). */
static json_int_t found_game(peer *p)
{
    json_t *m = last_of(p, "match.found");
    return m ? json_integer_value(json_object_get(m, "game")) : 0;
}

/* A pass of the matcher as if `later_ms` had gone by, then the turn. */
static int pass_after(server *s, int64_t later_ms)
{
    int made = quickmatch_pass(s, server_now_ms() + later_ms);
    fake_turn(fake_net());
    server_settle(s);
    return made;
}

/* ---- pairing -------------------------------------------------------------------------- */

static void test_two_seekers_paired_even(void **state)
{
    (void)state;
    server *s = start();
    peer a = join(s, "10.0.0.1", "ana"), b = join(s, "10.0.0.2", "bo");
    say(s, &a, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":[19,9],\"speeds\":[\"blitz\"],\"rated\":true}}");
    assert_true(answered_ok(&a, 2));
    json_t *seek = json_object_get(answer(&a, 2), "seek");
    assert_true(json_is_true(json_object_get(seek, "rated")));
    assert_int_equal(json_integer_value(json_object_get(seek, "max_rank_gap")), 9);
    assert_int_equal(quickmatch_seeks(s), 1);
    assert_null(last_of(&a, "match.found"));
    say(s, &b, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":[9,19],\"speeds\":[\"rapid\",\"blitz\"],\"rated\":true}}");
    assert_true(answered_ok(&b, 2));
    pump(&a);
    json_int_t g = found_game(&a);
    assert_true(g > 0);
    assert_int_equal(found_game(&b), g);
    assert_int_equal(quickmatch_seeks(s), 0);
    /* the longer waiting one's first choice the other accepts: 19, blitz */
    json_t *fa = last_of(&a, "match.found"), *fb = last_of(&b, "match.found");
    assert_int_equal(json_integer_value(json_object_get(fa, "size")), 19);
    assert_string_equal(json_string_value(json_object_get(fa, "speed")), "blitz");
    assert_true(json_is_true(json_object_get(fa, "rated")));
    assert_int_equal(json_integer_value(json_object_get(fa, "handicap")), 0);
    assert_string_equal(json_string_value(json_object_get(fa, "opponent")), "bo");
    assert_string_not_equal(json_string_value(json_object_get(fa, "color")),
                            json_string_value(json_object_get(fb, "color")));
    live *lv = live_get(s, g);
    assert_non_null(lv);
    const room *r = lv->r;
    assert_int_equal(r->settings.size, 19);
    assert_string_equal(r->settings.time_spec, "byoyomi:120+5x10");
    assert_false(r->settings.unrated);
    assert_int_equal(r->settings.handicap, 0);
    assert_true(room_rated(r));
    assert_true(r->nigiri[0] != '\0'); /* colours by nigiri, recorded */
    bool a_black = !strcmp(json_string_value(json_object_get(fa, "color")), "black");
    assert_int_equal(r->user[TG_BLACK], a_black ? a.user : b.user);
    assert_int_equal(r->user[TG_WHITE], a_black ? b.user : a.user);
    /* a player in a game cannot seek */
    say(s, &a, "{\"type\":\"match.seek\",\"id\":3,\"seek\":{\"rated\":true}}");
    assert_string_equal(error_code(&a, 3), "forbidden");
    drop(&a);
    drop(&b);
    server_free(s);
}

static void test_handicap_where_ranks_differ(void **state)
{
    (void)state;
    server *s = start();
    peer a = join(s, "10.0.0.1", "ana"), b = join(s, "10.0.0.2", "bo");
    set_rating(s, &a, 1900); /* stronger */
    set_rating(s, &b, 1500);
    int gap = tg_glicko_rank(1900) - tg_glicko_rank(1500);
    assert_true(gap >= 3 && gap <= 9);
    say(s, &a, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":19,\"speeds\":\"rapid\",\"rated\":false}}");
    say(s, &b, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":[19],\"speeds\":[\"rapid\"],\"rated\":false,\"handicap\":true}}");
    assert_true(answered_ok(&a, 2) && answered_ok(&b, 2));
    /* one rank accepted at first, one more each 10 s of waiting */
    assert_int_equal(found_game(&a), 0);
    assert_int_equal(pass_after(s, (int64_t)(gap - 2) * 10000), 0);
    assert_int_equal(quickmatch_seeks(s), 2);
    assert_int_equal(pass_after(s, (int64_t)(gap - 1) * 10000 + 500), 1);
    json_int_t g = found_game(&a);
    assert_true(g > 0);
    assert_int_equal(found_game(&b), g);
    const room *r = live_get(s, g)->r;
    assert_int_equal(r->user[TG_BLACK], b.user); /* the weaker takes Black */
    assert_int_equal(r->user[TG_WHITE], a.user);
    assert_int_equal(r->settings.handicap, gap);
    assert_int_equal(r->settings.rules.komi2, 1); /* komi 0.5 */
    assert_true(r->settings.unrated);
    assert_string_equal(r->nigiri, "");
    json_t *fb = last_of(&b, "match.found");
    assert_string_equal(json_string_value(json_object_get(fb, "color")), "black");
    assert_int_equal(json_integer_value(json_object_get(fb, "handicap")), gap);
    drop(&a);
    drop(&b);
    server_free(s);
}

/* A rated match is even; so is one where a seeker refused a handicap. */
static void test_even_when_rated_or_refused(void **state)
{
    (void)state;
    server *s = start();
    peer a = join(s, "10.0.0.1", "ana"), b = join(s, "10.0.0.2", "bo");
    peer c = join(s, "10.0.0.3", "cy"), d = join(s, "10.0.0.4", "di");
    set_rating(s, &a, 1900);
    set_rating(s, &b, 1500);
    set_rating(s, &c, 1900);
    set_rating(s, &d, 1500);
    say(s, &a, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"speeds\":\"blitz\",\"rated\":true}}");
    say(s, &b, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"speeds\":\"blitz\",\"rated\":true}}");
    say(s, &c, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"speeds\":\"rapid\",\"rated\":false,\"handicap\":false}}");
    say(s, &d, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"speeds\":\"rapid\",\"rated\":false}}");
    assert_int_equal(pass_after(s, 120000), 2);
    const room *r1 = live_get(s, found_game(&a))->r, *r2 = live_get(s, found_game(&c))->r;
    assert_int_equal(found_game(&b), r1->id);
    assert_int_equal(found_game(&d), r2->id);
    for (int i = 0; i < 2; i++) {
        const room *r = i ? r2 : r1;
        assert_int_equal(r->settings.handicap, 0);
        assert_int_equal(r->settings.rules.komi2, 15); /* the ruleset's 7.5 */
        assert_true(r->nigiri[0] != '\0');
    }
    assert_false(r1->settings.unrated);
    assert_true(r2->settings.unrated);
    drop(&a);
    drop(&b);
    drop(&c);
    drop(&d);
    server_free(s);
}

static void test_incompatible_not_paired(void **state)
{
    (void)state;
    server *s = start();
    peer a = join(s, "10.0.0.1", "ana"), b = join(s, "10.0.0.2", "bo");
    peer c = join(s, "10.0.0.3", "cy"), d = join(s, "10.0.0.4", "di");
    set_rating(s, &d, 2400); /* far stronger than the others (1500) */
    say(s, &a, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":[9],\"speeds\":\"blitz\"}}");
    say(s, &b, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":[13,19],\"speeds\":\"blitz\"}}");
    say(s, &c, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":[9,13,19],\"speeds\":[\"rapid\",\"classical\"]}}");
    say(s, &d, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":[19],\"speeds\":[\"blitz\"],\"max_rank_gap\":2}}");
    assert_true(answered_ok(&a, 2) && answered_ok(&b, 2) && answered_ok(&c, 2) && answered_ok(&d, 2));
    /* sizes apart (a, b), speeds apart (c), ranks apart past max_rank_gap (b, d) */
    assert_int_equal(pass_after(s, 3600 * 1000), 0);
    assert_int_equal(quickmatch_seeks(s), 4);
    /* rated and unrated do not meet: a's replaced seek (one an account) */
    say(s, &a, "{\"type\":\"match.seek\",\"id\":3,\"seek\":{\"sizes\":[13],\"speeds\":\"blitz\",\"rated\":false}}");
    assert_true(answered_ok(&a, 3));
    assert_int_equal(quickmatch_seeks(s), 4);
    assert_int_equal(pass_after(s, 3600 * 1000), 0);
    assert_int_equal(found_game(&a) + found_game(&b) + found_game(&c) + found_game(&d), 0);
    drop(&a);
    drop(&b);
    drop(&c);
    drop(&d);
    server_free(s);
}

/* ---- seeks taken away ------------------------------------------------------------------ */

static void test_cancel_disconnect_replace(void **state)
{
    (void)state;
    server *s = start();
    peer a = join(s, "10.0.0.1", "ana"), b = join(s, "10.0.0.2", "bo");
    say(s, &a, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":9}}");
    say(s, &a, "{\"type\":\"match.cancel\",\"id\":3}");
    assert_true(answered_ok(&a, 3));
    assert_int_equal(quickmatch_seeks(s), 0);
    say(s, &a, "{\"type\":\"match.cancel\",\"id\":4}");
    assert_string_equal(error_code(&a, 4), "not_found");
    /* a closed connection leaves no seek behind */
    say(s, &a, "{\"type\":\"match.seek\",\"id\":5,\"seek\":{\"sizes\":9}}");
    assert_int_equal(quickmatch_seeks(s), 1);
    fake_disconnect(a.c);
    server_settle(s);
    assert_int_equal(quickmatch_seeks(s), 0);
    say(s, &b, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":9}}");
    assert_int_equal(pass_after(s, 60000), 0);
    assert_int_equal(found_game(&b), 0);
    /* the same account from a second connection: the new seek replaces
     * the first, whose connection is told */
    peer b2 = {fake_connect(fake_net(), "10.0.0.2"), json_array(), 0};
    say(s, &b2, "{\"type\":\"login\",\"id\":1,\"name\":\"bo\",\"password\":\"correct horse\"}");
    assert_true(answered_ok(&b2, 1));
    say(s, &b2, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":13}}");
    assert_true(answered_ok(&b2, 2));
    assert_int_equal(quickmatch_seeks(s), 1);
    json_t *gone = last_of(&b, "match.cancelled");
    assert_non_null(gone);
    assert_string_equal(json_string_value(json_object_get(gone, "reason")), "replaced");
    drop(&a);
    drop(&b);
    drop(&b2);
    server_free(s);
}

/* A seeker who begins a game another way (a challenge) leaves the queue. */
static void test_game_begun_elsewhere(void **state)
{
    (void)state;
    server *s = start();
    peer a = join(s, "10.0.0.1", "ana"), b = join(s, "10.0.0.2", "bo");
    peer c = join(s, "10.0.0.3", "cy");
    say(s, &a, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":9}}");
    say(s, &b, "{\"type\":\"challenge.create\",\"id\":2,\"settings\":{\"size\":9}}");
    json_int_t ch = json_integer_value(json_object_get(json_object_get(answer(&b, 2), "challenge"), "id"));
    say(s, &a, "{\"type\":\"challenge.accept\",\"id\":3,\"challenge\":%lld}", (long long)ch);
    assert_true(answered_ok(&a, 3));
    say(s, &c, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":9}}");
    assert_int_equal(found_game(&c), 0); /* not paired with a, now playing */
    pass_after(s, 0);
    assert_int_equal(quickmatch_seeks(s), 1);
    json_t *gone = last_of(&a, "match.cancelled");
    assert_non_null(gone);
    assert_string_equal(json_string_value(json_object_get(gone, "reason")), "playing");
    drop(&a);
    drop(&b);
    drop(&c);
    server_free(s);
}

/* ---- guests, malformed seeks, limits ---------------------------------------------------- */

static void test_guests_unrated_only(void **state)
{
    (void)state;
    server *s = start();
    peer g = join(s, "10.0.0.1", NULL), h = join(s, "10.0.0.2", NULL);
    say(s, &g, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":9,\"rated\":true}}");
    assert_string_equal(error_code(&g, 2), "forbidden");
    assert_int_equal(quickmatch_seeks(s), 0);
    say(s, &g, "{\"type\":\"match.seek\",\"id\":3,\"seek\":{\"sizes\":9}}");
    assert_true(answered_ok(&g, 3)); /* a guest's seek is unrated by default */
    assert_true(json_is_false(json_object_get(json_object_get(answer(&g, 3), "seek"), "rated")));
    say(s, &h, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":9}}");
    json_int_t game = found_game(&g);
    assert_true(game > 0 && found_game(&h) == game);
    assert_false(room_rated(live_get(s, game)->r));
    drop(&g);
    drop(&h);
    server_free(s);
}

static void test_malformed_and_limits(void **state)
{
    (void)state;
    server *s = start();
    peer a = join(s, "10.0.0.1", NULL);
    static const char *const bad[] = {
        "{\"sizes\":[10]}", "{\"sizes\":[9,9]}", "{\"sizes\":[]}", "{\"speeds\":\"bullet\"}",
        "{\"speeds\":[\"blitz\",\"blitz\"]}", "{\"max_rank_gap\":41}", "{\"max_rank_gap\":-1}",
        "{\"colour\":\"black\"}", "{\"rated\":1}"};
    for (int i = 0; i < (int)(sizeof bad / sizeof *bad); i++) {
        say(s, &a, "{\"type\":\"match.seek\",\"id\":%d,\"seek\":%s}", 10 + i, bad[i]);
        assert_string_equal(error_code(&a, 10 + i), "bad_request");
    }
    say(s, &a, "{\"type\":\"match.seek\",\"id\":30,\"seek\":[9]}");
    assert_string_equal(error_code(&a, 30), "bad_request");
    assert_int_equal(quickmatch_seeks(s), 0);
    peer anon = {fake_connect(fake_net(), "10.0.0.9"), json_array(), 0};
    say(s, &anon, "{\"type\":\"match.seek\",\"id\":1}");
    assert_string_equal(error_code(&anon, 1), "auth_required");

    /* three seeks in all, two an address; seeks apart so that none pair */
    quickmatch_limits(s, 3, 2);
    peer a2 = join(s, "10.0.0.1", NULL), a3 = join(s, "10.0.0.1", NULL);
    peer b = join(s, "10.0.0.2", NULL), c = join(s, "10.0.0.3", NULL);
    say(s, &a, "{\"type\":\"match.seek\",\"id\":40,\"seek\":{\"sizes\":9,\"speeds\":\"blitz\"}}");
    say(s, &a2, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":13,\"speeds\":\"blitz\"}}");
    say(s, &a3, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":19,\"speeds\":\"blitz\"}}");
    assert_true(answered_ok(&a, 40) && answered_ok(&a2, 2));
    assert_string_equal(error_code(&a3, 2), "rate_limited");
    say(s, &b, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":19,\"speeds\":\"rapid\"}}");
    assert_true(answered_ok(&b, 2));
    say(s, &c, "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"sizes\":19,\"speeds\":\"classical\"}}");
    assert_string_equal(error_code(&c, 2), "rate_limited");
    assert_int_equal(quickmatch_seeks(s), 3);
    /* a seek replaced is not counted twice */
    say(s, &b, "{\"type\":\"match.seek\",\"id\":3,\"seek\":{\"sizes\":19,\"speeds\":\"classical\"}}");
    assert_true(answered_ok(&b, 3));
    drop(&a);
    drop(&anon);
    drop(&a2);
    drop(&a3);
    drop(&b);
    drop(&c);
    server_free(s);
}

/* Many seekers: every pass pairs the nearest in rating, and all of a
 * crowd at one rank meet without anyone paired twice. */
static void test_crowd_paired_nearest(void **state)
{
    (void)state;
    server *s = start();
    enum { N = 12 };
    peer p[N];
    for (int i = 0; i < N; i++) {
        char addr[32], name[16];
        snprintf(addr, sizeof addr, "10.0.1.%d", i + 1);
        snprintf(name, sizeof name, "player%d", i);
        p[i] = join(s, addr, name);
        set_rating(s, &p[i], 800 * pow(1.1, i)); /* neighbours 2 ranks apart or more */
    }
    /* nobody pairs on arrival (one rank at first); a long wait then pairs
     * each, the longest waiting first, with its nearest in rating */
    for (int i = 0; i < N; i++)
        say(s, &p[i], "{\"type\":\"match.seek\",\"id\":2,\"seek\":{\"speeds\":\"blitz\",\"max_rank_gap\":40}}");
    pass_after(s, 3600 * 1000);
    assert_int_equal(quickmatch_seeks(s), 0);
    for (int i = 0; i < N; i++) {
        json_int_t g = found_game(&p[i]);
        assert_true(g > 0);
        const room *r = live_get(s, g)->r;
        int64_t other = r->user[TG_BLACK] == p[i].user ? r->user[TG_WHITE] : r->user[TG_BLACK];
        int j = 0;
        while (j < N && p[j].user != other)
            j++;
        assert_true(j < N && j != i);
        assert_true(abs(i - j) == 1); /* a neighbour in rating */
    }
    for (int i = 0; i < N; i++)
        drop(&p[i]);
    server_free(s);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/tengen-qm-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_seekers_paired_even),
        cmocka_unit_test(test_handicap_where_ranks_differ),
        cmocka_unit_test(test_even_when_rated_or_refused),
        cmocka_unit_test(test_incompatible_not_paired),
        cmocka_unit_test(test_cancel_disconnect_replace),
        cmocka_unit_test(test_game_begun_elsewhere),
        cmocka_unit_test(test_guests_unrated_only),
        cmocka_unit_test(test_malformed_and_limits),
        cmocka_unit_test(test_crowd_paired_nearest),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
