/*
 * fuzz_text.c — libFuzzer target for the small text parsers: the --time
 * SPEC and SGF TM/OT, the rules' key=value lists and SGF RU, komi, SGF RE,
 * vertices, the referee's --sprt and openings files, and a line of its
 * results file (--resume).
 *
 * The first byte picks the parser, the rest is its text.  For any input the
 * parser either refuses it or gives a value; where a format has a writer,
 * the value written and read again is the same value, written the same way.
 * Any crash, sanitizer report or broken invariant (abort) is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/board.h"
#include "tengen/clock.h"
#include "tengen/game.h"
#include "tengen/referee.h"
#include "tengen/rules.h"

static void require(bool condition)
{
    if (!condition)
        abort();
}

static bool same_control(const tg_time_control *a, const tg_time_control *b)
{
    return a->system == b->system && a->main_ms == b->main_ms && a->period_ms == b->period_ms &&
           a->periods == b->periods && a->stones == b->stones && a->increment_ms == b->increment_ms &&
           a->cap_ms == b->cap_ms && a->last_period_pass == b->last_period_pass;
}

/* --time SPEC: spec -> control -> spec -> the same control; and through
 * SGF's TM and OT to the same control. */
static void time_spec(const char *text)
{
    tg_time_control tc, again, from_sgf;
    char err[128], spec[128], ot[128];
    if (tg_time_control_parse(text, &tc, err, sizeof err) != TG_OK) {
        require(err[0] != 0);
        return;
    }
    tg_time_control_format(&tc, spec, sizeof spec);
    require(tg_time_control_parse(spec, &again, err, sizeof err) == TG_OK);
    require(same_control(&tc, &again));
    char describe[128]; /* read by people only: it must just not fail */
    tg_time_control_describe(&tc, describe, sizeof describe);
    tg_time_control_to_sgf_ot(&tc, ot, sizeof ot);
    require(tg_time_control_from_sgf(tg_time_control_sgf_tm(&tc), ot, &from_sgf) == TG_OK);
    require(same_control(&tc, &from_sgf));
}

/* SGF OT (and a TM from the first bytes): read, or refused. */
static void time_sgf(const char *text)
{
    tg_time_control tc;
    double tm = -1;
    if (text[0] >= '0' && text[0] <= '9')
        tm = (text[0] - '0') * 60.5;
    if (tg_time_control_from_sgf(tm, text, &tc) == TG_OK) {
        char spec[128], err[128];
        tg_time_control again;
        tg_time_control_format(&tc, spec, sizeof spec);
        require(tg_time_control_parse(spec, &again, err, sizeof err) == TG_OK);
        require(same_control(&tc, &again));
    }
}

/* key=value lists: applied, written as RU, read back to the same rules
 * (komi aside). */
static void rules_text(const char *text)
{
    tg_rules r, before, back;
    char err[128], ru[256], a[256], b[256];
    tg_rules_default(&r);
    before = r;
    if (tg_rules_apply(&r, text, err, sizeof err) != TG_OK) {
        require(err[0] != 0);
        require(!memcmp(&r, &before, sizeof r)); /* on error nothing is changed */
        return;
    }
    tg_rules_to_sgf(&r, ru, sizeof ru);
    require(tg_rules_from_sgf(&back, ru) == TG_OK);
    back.komi2 = r.komi2; /* SGF keeps the komi in KM, not in RU */
    tg_rules_describe(&r, a, sizeof a);
    tg_rules_describe(&back, b, sizeof b);
    require(!strcmp(a, b));
}

static void rules_sgf(const char *text)
{
    tg_rules r;
    char describe[256];
    tg_rules_from_sgf(&r, text); /* unknown values give the default */
    tg_rules_describe(&r, describe, sizeof describe);
    require(describe[0] != 0);
}

static void komi(const char *text)
{
    int k, again;
    char buf[32];
    if (tg_komi_parse(text, &k) != TG_OK)
        return;
    require(k >= -800 && k <= 800);
    tg_komi_format(k, buf, sizeof buf);
    require(tg_komi_parse(buf, &again) == TG_OK && again == k);
}

static void result(const char *text)
{
    tg_result r, again;
    char buf[64], buf2[64];
    if (tg_result_from_sgf(text, &r) != TG_OK)
        return;
    tg_result_to_sgf(&r, buf, sizeof buf);
    require(tg_result_from_sgf(buf, &again) == TG_OK);
    tg_result_to_sgf(&again, buf2, sizeof buf2);
    require(!strcmp(buf, buf2) && again.kind == r.kind && again.winner == r.winner);
}

static void vertex(const char *text, int size)
{
    static tg_board boards[26];
    tg_board *b = &boards[size];
    if (!b->size)
        tg_board_init(b, size);
    tg_point p, again;
    if (tg_vertex_parse(b, text, &p) != TG_OK)
        return;
    char buf[8];
    tg_point_to_vertex(b, p, buf);
    require(tg_vertex_parse(b, buf, &again) == TG_OK && again == p);
}

static void sprt(const char *text)
{
    tg_sprt s;
    tg_sprt_parse(text, &s);
}

static void openings(const char *text, size_t len, int size)
{
    tg_rules rules;
    tg_rules_default(&rules);
    tg_openings o;
    char err[256];
    if (tg_openings_parse(text, len, size, &rules, 12, &o, err, sizeof err) != TG_OK) {
        require(err[0] != 0);
        return;
    }
    tg_openings_free(&o);
}

/* A results line: read, written, read again, written the same. */
static void results_line(const char *text)
{
    tg_game_record r, again;
    if (tg_game_record_from_json(text, &r) != TG_OK)
        return;
    char *json = tg_game_record_to_json(&r);
    require(json != NULL);
    require(tg_game_record_from_json(json, &again) == TG_OK);
    char *json2 = tg_game_record_to_json(&again);
    require(json2 && !strcmp(json, json2));
    free(json);
    free(json2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 4096)
        return 0;
    char *text = malloc(size); /* the text after the selector, NUL-terminated */
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    size_t len = size - 1;
    int board_size = 2 + data[0] / 10 % 24;
    switch (data[0] % 10) {
    case 0: time_spec(text); break;
    case 1: time_sgf(text); break;
    case 2: rules_text(text); break;
    case 3: rules_sgf(text); break;
    case 4: komi(text); break;
    case 5: result(text); break;
    case 6: vertex(text, board_size); break;
    case 7: sprt(text); break;
    case 8: openings(text, len, data[0] < 128 ? 9 : 19); break;
    default: results_line(text); break;
    }
    free(text);
    return 0;
}
