/*
 * time_control.c — a time control as text: the --time SPEC of `tengen play`
 * and `tengen match` ("byoyomi:600+5x30,pass"), a short description for
 * people, and the SGF TM/OT pair, in both directions.
 *
 * Times are written in seconds with at most three decimals and kept in
 * milliseconds, so every spec round-trips exactly.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tengen/clock.h"

/* No limit is longer than about 115 days: sums of times (main time plus
 * every period) then stay far inside int64_t. */
#define MAX_MS 10000000000LL
#define MAX_COUNT 1000

/* ---- numbers ---------------------------------------------------------- */

/* Seconds "600", "0.5", "12.125" into milliseconds; advances *p. */
static bool parse_seconds(const char **p, int64_t *ms)
{
    const char *s = *p;
    int64_t whole = 0, frac = 0;
    int digits = 0, decimals = 0;
    for (; isdigit((unsigned char)*s); s++, digits++) {
        whole = whole * 10 + (*s - '0');
        if (whole * 1000 > MAX_MS)
            return false;
    }
    if (*s == '.') {
        for (s++; isdigit((unsigned char)*s); s++, decimals++) {
            if (decimals == 3)
                return false;
            frac = frac * 10 + (*s - '0');
        }
        if (decimals == 0)
            return false;
    }
    if (digits == 0)
        return false;
    for (int d = decimals; d < 3; d++)
        frac *= 10;
    *ms = whole * 1000 + frac;
    *p = s;
    return *ms <= MAX_MS;
}

/* A count 1..MAX_COUNT; advances *p. */
static bool parse_count(const char **p, int *n)
{
    const char *s = *p;
    long value = 0;
    for (; isdigit((unsigned char)*s); s++) {
        value = value * 10 + (*s - '0');
        if (value > MAX_COUNT)
            return false;
    }
    if (s == *p || value < 1)
        return false;
    *n = (int)value;
    *p = s;
    return true;
}

static bool skip(const char **p, const char *word)
{
    size_t n = strlen(word);
    if (strncasecmp(*p, word, n) != 0)
        return false;
    *p += n;
    return true;
}

/* Milliseconds as seconds: "600", "0.5", "12.125". */
static void format_seconds(int64_t ms, char *buf, size_t len)
{
    int64_t frac = ms % 1000;
    if (frac == 0)
        snprintf(buf, len, "%lld", (long long)(ms / 1000));
    else if (frac % 100 == 0)
        snprintf(buf, len, "%lld.%lld", (long long)(ms / 1000), (long long)(frac / 100));
    else if (frac % 10 == 0)
        snprintf(buf, len, "%lld.%02lld", (long long)(ms / 1000), (long long)(frac / 10));
    else
        snprintf(buf, len, "%lld.%03lld", (long long)(ms / 1000), (long long)frac);
}

/* ---- the --time SPEC --------------------------------------------------- */

typedef struct spec_form {
    const char *name;
    tg_clock_system system;
    const char *example; /* also the grammar shown in the error */
} spec_form;

static const spec_form forms[] = {
    {"none", TG_CLOCK_NONE, "none"},
    {"absolute", TG_CLOCK_ABSOLUTE, "absolute:MAIN (absolute:300)"},
    {"byoyomi", TG_CLOCK_BYOYOMI, "byoyomi:MAIN+NxPERIOD[,pass] (byoyomi:600+5x30)"},
    {"canadian", TG_CLOCK_CANADIAN, "canadian:MAIN+STONES/PERIOD (canadian:600+25/600)"},
    {"periods", TG_CLOCK_PERIODS, "periods:MAIN+MOVES/PERIOD (periods:3600+15/600)"},
    {"fischer", TG_CLOCK_FISCHER, "fischer:MAIN+INCREMENT[maxCAP] (fischer:300+10max600)"},
    {"simple", TG_CLOCK_SIMPLE, "simple:SECONDS[,pass] (simple:10)"},
};
#define FORM_COUNT (sizeof forms / sizeof forms[0])

/* What every way of stating a control (the --time SPEC, SGF's TM and OT)
 * must give: one a game can be played under.  Absolute and Fischer need
 * main time (Fischer's increment comes after a move, so without main time
 * the first move is already late), a Fischer cap is at least the main
 * time, and the overtime systems need a period. */
static bool playable(const tg_time_control *tc)
{
    switch (tc->system) {
    case TG_CLOCK_NONE:
        return true;
    case TG_CLOCK_ABSOLUTE:
        return tc->main_ms > 0;
    case TG_CLOCK_FISCHER:
        return tc->main_ms > 0 && (tc->cap_ms == 0 || tc->cap_ms >= tc->main_ms);
    default:
        return tc->period_ms > 0;
    }
}

/* The part after "name:"; false when it does not have the form's shape
 * (whether the control is playable is asked after). */
static bool parse_body(const char *s, tg_time_control *tc)
{
    switch (tc->system) {
    case TG_CLOCK_NONE:
        break;
    case TG_CLOCK_ABSOLUTE:
        return parse_seconds(&s, &tc->main_ms) && *s == '\0';
    case TG_CLOCK_BYOYOMI:
        if (!parse_seconds(&s, &tc->main_ms) || !skip(&s, "+") || !parse_count(&s, &tc->periods)
            || !skip(&s, "x") || !parse_seconds(&s, &tc->period_ms))
            return false;
        break;
    case TG_CLOCK_CANADIAN:
    case TG_CLOCK_PERIODS:
        if (!parse_seconds(&s, &tc->main_ms) || !skip(&s, "+") || !parse_count(&s, &tc->stones)
            || !skip(&s, "/") || !parse_seconds(&s, &tc->period_ms))
            return false;
        return *s == '\0';
    case TG_CLOCK_FISCHER:
        if (!parse_seconds(&s, &tc->main_ms) || !skip(&s, "+")
            || !parse_seconds(&s, &tc->increment_ms))
            return false;
        if (skip(&s, "max") && (!parse_seconds(&s, &tc->cap_ms) || tc->cap_ms == 0))
            return false; /* "max0" is no cap: written as none */
        return *s == '\0';
    case TG_CLOCK_SIMPLE:
        if (!parse_seconds(&s, &tc->period_ms))
            return false;
        tc->periods = 1;
        break;
    }
    if (tc->system != TG_CLOCK_NONE && skip(&s, ",pass"))
        tc->last_period_pass = true;
    return *s == '\0';
}

tg_status tg_time_control_parse(const char *spec, tg_time_control *out, char *err, size_t errlen)
{
    const char *colon = strchr(spec, ':');
    size_t name_len = colon ? (size_t)(colon - spec) : strlen(spec);
    for (size_t i = 0; i < FORM_COUNT; i++) {
        if (strlen(forms[i].name) != name_len || strncasecmp(spec, forms[i].name, name_len) != 0)
            continue;
        tg_time_control tc = {.system = forms[i].system};
        bool fits = forms[i].system == TG_CLOCK_NONE ? !colon
                                                     : colon && parse_body(colon + 1, &tc) && playable(&tc);
        if (fits) {
            *out = tc;
            return TG_OK;
        }
        if (err)
            snprintf(err, errlen,
                     "bad time control '%s': expected %s; times are seconds > 0 (main time may "
                     "be 0 but for absolute and fischer) with at most 3 decimals, a Fischer cap is at least the main time",
                     spec, forms[i].example);
        return TG_ERR_PARSE;
    }
    if (err)
        snprintf(err, errlen,
                 "unknown time system in '%s': use none, absolute:300, byoyomi:600+5x30[,pass], "
                 "canadian:600+25/600, periods:3600+15/600, fischer:300+10[max600] or "
                 "simple:10[,pass]",
                 spec);
    return TG_ERR_PARSE;
}

void tg_time_control_format(const tg_time_control *tc, char *buf, size_t len)
{
    char main[24], period[24], inc[24], cap[24];
    format_seconds(tc->main_ms, main, sizeof main);
    format_seconds(tc->period_ms, period, sizeof period);
    format_seconds(tc->increment_ms, inc, sizeof inc);
    format_seconds(tc->cap_ms, cap, sizeof cap);
    const char *pass = tc->last_period_pass ? ",pass" : "";
    switch (tc->system) {
    case TG_CLOCK_NONE: snprintf(buf, len, "none"); break;
    case TG_CLOCK_ABSOLUTE: snprintf(buf, len, "absolute:%s", main); break;
    case TG_CLOCK_BYOYOMI:
        snprintf(buf, len, "byoyomi:%s+%dx%s%s", main, tc->periods, period, pass);
        break;
    case TG_CLOCK_CANADIAN: snprintf(buf, len, "canadian:%s+%d/%s", main, tc->stones, period); break;
    case TG_CLOCK_PERIODS: snprintf(buf, len, "periods:%s+%d/%s", main, tc->stones, period); break;
    case TG_CLOCK_FISCHER:
        snprintf(buf, len, "fischer:%s+%s%s%s", main, inc, tc->cap_ms > 0 ? "max" : "",
                 tc->cap_ms > 0 ? cap : "");
        break;
    case TG_CLOCK_SIMPLE: snprintf(buf, len, "simple:%s%s", period, pass); break;
    }
}

void tg_time_control_describe(const tg_time_control *tc, char *buf, size_t len)
{
    char main[24], period[24], inc[24], cap[24];
    format_seconds(tc->main_ms, main, sizeof main);
    format_seconds(tc->period_ms, period, sizeof period);
    format_seconds(tc->increment_ms, inc, sizeof inc);
    format_seconds(tc->cap_ms, cap, sizeof cap);
    const char *pass = tc->last_period_pass ? ", overrunning the last period is a pass" : "";
    switch (tc->system) {
    case TG_CLOCK_NONE: snprintf(buf, len, "no time limit"); break;
    case TG_CLOCK_ABSOLUTE: snprintf(buf, len, "%s s absolute", main); break;
    case TG_CLOCK_BYOYOMI:
        snprintf(buf, len, "%s s + %d x %s s byo-yomi%s", main, tc->periods, period, pass);
        break;
    case TG_CLOCK_CANADIAN:
        snprintf(buf, len, "%s s + %d stones in %s s (Canadian)", main, tc->stones, period);
        break;
    case TG_CLOCK_PERIODS:
        snprintf(buf, len, "%s s + %d moves in %s s, saved time carried over", main, tc->stones,
                 period);
        break;
    case TG_CLOCK_FISCHER:
        snprintf(buf, len, "%s s + %s s per move (Fischer)%s%s", main, inc,
                 tc->cap_ms > 0 ? ", at most " : "", tc->cap_ms > 0 ? cap : "");
        break;
    case TG_CLOCK_SIMPLE: snprintf(buf, len, "%s s per move%s", period, pass); break;
    }
}

/* ---- SGF TM and OT ----------------------------------------------------- */

double tg_time_control_sgf_tm(const tg_time_control *tc)
{
    return tc->system == TG_CLOCK_NONE ? -1.0 : (double)tc->main_ms / 1000.0;
}

void tg_time_control_to_sgf_ot(const tg_time_control *tc, char *buf, size_t len)
{
    char period[24], inc[24], cap[24];
    format_seconds(tc->period_ms, period, sizeof period);
    format_seconds(tc->increment_ms, inc, sizeof inc);
    format_seconds(tc->cap_ms, cap, sizeof cap);
    const char *pass = tc->last_period_pass ? " pass" : "";
    switch (tc->system) {
    case TG_CLOCK_NONE:
    case TG_CLOCK_ABSOLUTE: snprintf(buf, len, "%s", ""); break;
    case TG_CLOCK_BYOYOMI: snprintf(buf, len, "%dx%s byo-yomi%s", tc->periods, period, pass); break;
    case TG_CLOCK_CANADIAN: snprintf(buf, len, "%d/%s Canadian", tc->stones, period); break;
    case TG_CLOCK_PERIODS: snprintf(buf, len, "%d/%s periods", tc->stones, period); break;
    case TG_CLOCK_FISCHER:
        snprintf(buf, len, "%s fischer%s%s", inc, tc->cap_ms > 0 ? " max " : "",
                 tc->cap_ms > 0 ? cap : "");
        break;
    case TG_CLOCK_SIMPLE: snprintf(buf, len, "%s simple%s", period, pass); break;
    }
}

static void skip_spaces(const char **p)
{
    while (isspace((unsigned char)**p))
        (*p)++;
}

/* The OT text after its leading "N" or "N/T" or "NxT": the system's word and
 * the options. */
static bool parse_ot_tail(const char *s, tg_time_control *tc)
{
    skip_spaces(&s);
    if (tc->system == TG_CLOCK_BYOYOMI || tc->system == TG_CLOCK_SIMPLE) {
        if (!(tc->system == TG_CLOCK_BYOYOMI ? skip(&s, "byo-yomi") || skip(&s, "byoyomi")
                                             : skip(&s, "simple")))
            return false;
        skip_spaces(&s);
        if (skip(&s, "pass"))
            tc->last_period_pass = true;
    } else if (tc->system == TG_CLOCK_FISCHER) {
        skip_spaces(&s);
        if (skip(&s, "max")) {
            skip_spaces(&s);
            if (!parse_seconds(&s, &tc->cap_ms))
                return false;
        }
    }
    skip_spaces(&s);
    return *s == '\0';
}

/* OT "25/600 Canadian", "15/600 periods", "5x30 byo-yomi", "10 fischer",
 * "10 simple" with main time already in tc. */
static bool parse_ot(const char *s, tg_time_control *tc)
{
    int64_t first;
    int count;
    const char *after_count = s;
    if (parse_count(&after_count, &count) && (*after_count == 'x' || *after_count == '/')) {
        bool per = *after_count == '/';
        s = after_count + 1;
        if (!parse_seconds(&s, &tc->period_ms))
            return false;
        skip_spaces(&s);
        if (!per) {
            tc->system = TG_CLOCK_BYOYOMI;
            tc->periods = count;
        } else if (skip(&s, "canadian")) {
            tc->system = TG_CLOCK_CANADIAN;
            tc->stones = count;
        } else if (skip(&s, "periods") || skip(&s, "moves")) {
            tc->system = TG_CLOCK_PERIODS;
            tc->stones = count;
        } else {
            return false;
        }
        return parse_ot_tail(s, tc);
    }
    if (!parse_seconds(&s, &first))
        return false;
    skip_spaces(&s);
    if (strncasecmp(s, "fischer", 7) == 0) {
        tc->system = TG_CLOCK_FISCHER;
        tc->increment_ms = first;
        return parse_ot_tail(s + 7, tc);
    }
    tc->system = TG_CLOCK_SIMPLE;
    tc->main_ms = 0;
    tc->period_ms = first;
    tc->periods = 1;
    return parse_ot_tail(s, tc);
}

tg_status tg_time_control_from_sgf(double tm_seconds, const char *ot, tg_time_control *out)
{
    tg_time_control tc = {.system = TG_CLOCK_NONE};
    *out = tc;
    if (!(tm_seconds <= (double)MAX_MS / 1000.0))
        return TG_ERR_PARSE;
    if (tm_seconds > 0)
        tc.main_ms = (int64_t)(tm_seconds * 1000.0 + 0.5);
    const char *s = ot ? ot : "";
    skip_spaces(&s);
    if (*s == '\0' || strcasecmp(s, "none") == 0 || strcasecmp(s, "absolute") == 0) {
        tc.system = tc.main_ms > 0 ? TG_CLOCK_ABSOLUTE : TG_CLOCK_NONE;
        *out = tc;
        return TG_OK;
    }
    if (!parse_ot(s, &tc) || !playable(&tc))
        return TG_ERR_PARSE;
    *out = tc;
    return TG_OK;
}
