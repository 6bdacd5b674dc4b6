/*
 * gtp_session.c — helpers for the GTP tests (test_gtp, test_gtp_play): send
 * a line to a tg_gtp and check the answer's form on the way (see
 * gtp_session.h), expect success or a given error, and snapshot everything
 * a refused command must leave as it was; engines get the baseline player
 * as their move generator.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine_gtp/gtp_player.h"
#include "gtp_session.h"

void gs_check_form(const char *text, size_t len)
{
    assert_true(len >= 3);
    assert_true(text[0] == '=' || text[0] == '?');
    assert_memory_equal(text + len - 2, "\n\n", 2);
    const char *blank = strstr(text, "\n\n");
    assert_ptr_equal(blank, text + len - 2);
    assert_null(memchr(text, '\0', len));
}

/* The whole answer to one line ("" when there is none), in a static buffer. */
const char *gs_run_len(tg_gtp *e, const char *line, size_t len)
{
    static char copy[1 << 16];
    tg_gtp_answer a;
    tg_gtp_execute(e, line, len, &a);
    if (!a.text)
        return "";
    gs_check_form(a.text, a.len);
    assert_true(a.len < sizeof copy);
    memcpy(copy, a.text, a.len);
    copy[a.len] = '\0';
    assert_int_equal(a.error, copy[0] == '?');
    return copy;
}

const char *gs_run(tg_gtp *e, const char *line) { return gs_run_len(e, line, strlen(line)); }

/* The answer's text after "= " for a command that must succeed. */
const char *gs_ok(tg_gtp *e, const char *line)
{
    static char body[1 << 16];
    const char *a = gs_run(e, line);
    if (a[0] != '=')
        fail_msg("'%s' answered '%s'", line, a);
    size_t n = strlen(a) - 2;
    const char *start = a + 1 + (a[1] == ' ');
    n -= (size_t)(start - a);
    memcpy(body, start, n);
    body[n] = '\0';
    return body;
}

void gs_refused(tg_gtp *e, const char *line, const char *message)
{
    char expected[256];
    snprintf(expected, sizeof expected, "? %s\n\n", message);
    assert_string_equal(gs_run(e, line), expected);
}

#define GS_PLAYERS 16

void gs_use_baseline(tg_gtp_options *opt, int playouts)
{
    static gtp_player players[GS_PLAYERS];
    static int next;
    gtp_player *p = &players[next++ % GS_PLAYERS];
    gtp_player_config cfg;
    gtp_player_config_default(&cfg);
    cfg.baseline = true;
    cfg.playouts = playouts;
    cfg.search.seed = 1;
    assert_true(gtp_player_init(p, &cfg));
    gtp_player_hook(p, &opt->player);
}

tg_gtp *gs_new_engine(int size)
{
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    opt.size = size;
    gs_use_baseline(&opt, 16);
    tg_gtp *e = tg_gtp_new(&opt);
    assert_non_null(e);
    return e;
}

void gs_take(tg_gtp *e, gs_snapshot *s)
{
    const tg_game *g = tg_gtp_game(e);
    s->hash = tg_game_hash(g);
    s->moves = tg_game_move_count(g);
    s->size = tg_game_size(g);
    s->to_move = tg_game_to_move(g);
    snprintf(s->board, sizeof s->board, "%.4000s", gs_ok(e, "showboard")); /* a 25x25 board is ~2 KiB */
}

void gs_assert_unchanged(tg_gtp *e, const gs_snapshot *before)
{
    gs_snapshot now;
    gs_take(e, &now);
    assert_int_equal(now.hash, before->hash);
    assert_int_equal(now.moves, before->moves);
    assert_int_equal(now.size, before->size);
    assert_int_equal(now.to_move, before->to_move);
    assert_string_equal(now.board, before->board);
}

void gs_refused_unchanged(tg_gtp *e, const char *line, const char *message)
{
    gs_snapshot before;
    gs_take(e, &before);
    gs_refused(e, line, message);
    gs_assert_unchanged(e, &before);
}

void gs_collect(void *ctx, const char *text, size_t len)
{
    gs_collected *c = ctx;
    gs_check_form(text, len);
    assert_true(c->len + len < sizeof c->text);
    memcpy(c->text + c->len, text, len);
    c->len += len;
    c->text[c->len] = '\0';
    c->count++;
}

void gs_feed_in_chunks(tg_gtp *e, const char *data, size_t len, size_t chunk, gs_collected *c)
{
    for (size_t at = 0; at < len; at += chunk)
        tg_gtp_feed(e, data + at, len - at < chunk ? len - at : chunk, gs_collect, c);
}

int gs_count_words(const char *s)
{
    int n = 0;
    for (bool in_word = false; *s; s++) {
        bool space = *s == ' ' || *s == '\n';
        n += !space && !in_word;
        in_word = !space;
    }
    return n;
}

