/*
 * rules.c — rulesets as plain option structs: the named presets, the
 * key=value language that overrides them, komi, and the mapping to and
 * from SGF's RU property.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tengen/free_opening.h"
#include "tengen/rules.h"

typedef struct preset {
    const char *name;
    tg_rules rules;
} preset;

/* Illegal-move policies follow each tradition: the Chinese competition rules
 * void the move with a warning (R6), Japanese and Korean professional
 * practice loses the game, online and computer rulesets refuse the move. */
static const preset presets[] = {
    {"chinese", {TG_KO_POSITIONAL, false, TG_SCORING_AREA, TG_TAX_NONE, TG_CYCLE_NO_RESULT,
                 TG_HCOMP_N, TG_ILLEGAL_VOID, true, 15, "chinese", false, 0, false, false, false, false, false, false, 0, 0}},
    {"japanese", {TG_KO_SIMPLE, false, TG_SCORING_TERRITORY, TG_TAX_SEKI, TG_CYCLE_NO_RESULT,
                  TG_HCOMP_NONE, TG_ILLEGAL_LOSE, true, 13, "japanese", false, 0, false, false, false, false, false, false, 0, 0}},
    {"korean", {TG_KO_SIMPLE, false, TG_SCORING_TERRITORY, TG_TAX_SEKI, TG_CYCLE_NO_RESULT,
                TG_HCOMP_NONE, TG_ILLEGAL_LOSE, true, 13, "korean", false, 0, false, false, false, false, false, false, 0, 0}},
    {"aga", {TG_KO_SITUATIONAL, false, TG_SCORING_AREA, TG_TAX_NONE, TG_CYCLE_NO_RESULT,
             TG_HCOMP_N_MINUS_1, TG_ILLEGAL_REJECT, true, 15, "aga", false, 0, false, false, false, false, false, false, 0, 0}},
    {"new-zealand", {TG_KO_SITUATIONAL, true, TG_SCORING_AREA, TG_TAX_NONE, TG_CYCLE_NO_RESULT,
                     TG_HCOMP_NONE, TG_ILLEGAL_REJECT, true, 14, "new-zealand", false, 0, false, false, false, false, false, false, 0, 0}},
    {"tromp-taylor", {TG_KO_POSITIONAL, true, TG_SCORING_AREA, TG_TAX_NONE, TG_CYCLE_NO_RESULT,
                      TG_HCOMP_NONE, TG_ILLEGAL_REJECT, false, 15, "tromp-taylor", false, 0, false, false, false, false, false, false, 0, 0}},
    {"ancient", {TG_KO_POSITIONAL, false, TG_SCORING_AREA, TG_TAX_ALL, TG_CYCLE_NO_RESULT,
                 TG_HCOMP_N, TG_ILLEGAL_VOID, true, 15, "ancient", false, 0, false, false, false, false, false, false, 0, 0}},
    /* 002 §4-§6: an illegal placement (an occupied point) is simply not a
     * move; a repetition loses */
    {"free-opening", {TG_KO_SITUATIONAL, true, TG_SCORING_AREA, TG_TAX_NONE, TG_CYCLE_NO_RESULT,
                      TG_HCOMP_NONE, TG_ILLEGAL_REJECT, true, 0, "free-opening", true, 4, true, true,
                      true, true, false, false, 0, 0}},
};
#define NPRESETS (sizeof presets / sizeof presets[0])

/* Other spellings people and programs use for the presets. */
static const struct {
    const char *alias, *name;
} aliases[] = {
    {"cn", "chinese"},       {"jp", "japanese"},         {"ja", "japanese"},
    {"kr", "korean"},        {"ko", "korean"},           {"nz", "new-zealand"},
    {"new_zealand", "new-zealand"}, {"newzealand", "new-zealand"}, {"tromp_taylor", "tromp-taylor"},
    {"tt", "tromp-taylor"},  {"tromptaylor", "tromp-taylor"}, {"stone-scoring", "ancient"},
    {"free", "free-opening"}, {"002", "free-opening"},
};

/* A name as records spell it reduced to its lowercase letters and digits,
 * without a trailing "rules": "Tromp/Taylor", "TT--", "tromp_taylor" and
 * "Chinese rules" become "tromptaylor", "tt", "tromptaylor", "chinese". */
static void squeeze(const char *name, char *out, size_t len)
{
    size_t n = 0;
    for (; *name && n + 1 < len; name++)
        if (isalnum((unsigned char)*name))
            out[n++] = (char)tolower((unsigned char)*name);
    out[n] = 0;
    if (n > 5 && !strcmp(out + n - 5, "rules"))
        out[n - 5] = 0;
}

static bool same_name(const char *a, const char *b)
{
    char x[64], y[64];
    squeeze(a, x, sizeof x);
    squeeze(b, y, sizeof y);
    return x[0] && !strcmp(x, y);
}

static const preset *find_preset(const char *name)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (same_name(name, aliases[i].alias))
            name = aliases[i].name;
    for (size_t i = 0; i < NPRESETS; i++)
        if (same_name(name, presets[i].name))
            return &presets[i];
    return NULL;
}

void tg_rules_default(tg_rules *r) { *r = presets[0].rules; }

tg_status tg_rules_preset(tg_rules *r, const char *name)
{
    const preset *p = find_preset(name);
    if (!p)
        return TG_ERR_INVALID;
    *r = p->rules;
    return TG_OK;
}

/* ---- Komi ----------------------------------------------------------- */

tg_status tg_komi_parse(const char *text, int *komi2)
{
    char *end;
    if (!text || !*text || isspace((unsigned char)*text))
        return TG_ERR_PARSE;
    double k = strtod(text, &end);
    if (*end || k != k)
        return TG_ERR_PARSE;
    if (k > 400 || k < -400)
        return TG_ERR_INVALID;
    double twice = k * 2;
    if (twice != (double)(long)twice)
        return TG_ERR_INVALID; /* only integers and half-integers */
    *komi2 = (int)twice;
    return TG_OK;
}

void tg_komi_format(int komi2, char *buf, size_t len)
{
    const char *sign = komi2 < 0 ? "-" : "";
    int a = komi2 < 0 ? -komi2 : komi2;
    if (a % 2)
        snprintf(buf, len, "%s%d.5", sign, a / 2);
    else
        snprintf(buf, len, "%s%d", sign, a / 2);
}

int tg_rules_handicap_points(const tg_rules *r, int handicap)
{
    if (handicap < 2)
        return 0;
    switch (r->handicap_comp) {
    case TG_HCOMP_N: return handicap;
    case TG_HCOMP_N_MINUS_1: return handicap - 1;
    case TG_HCOMP_NONE: break;
    }
    return 0;
}

/* ---- key=value ------------------------------------------------------ */

typedef struct option_value {
    const char *text;
    int value;
} option_value;

static const option_value ko_values[] = {{"simple", TG_KO_SIMPLE}, {"positional", TG_KO_POSITIONAL},
                                         {"situational", TG_KO_SITUATIONAL}, {"psk", TG_KO_POSITIONAL},
                                         {"ssk", TG_KO_SITUATIONAL}, {NULL, 0}};
static const option_value yes_no[] = {{"yes", 1}, {"no", 0}, {"true", 1}, {"false", 0},
                                      {"1", 1}, {"0", 0}, {"allowed", 1}, {"forbidden", 0}, {NULL, 0}};
static const option_value scoring_values[] = {{"area", TG_SCORING_AREA},
                                              {"territory", TG_SCORING_TERRITORY}, {NULL, 0}};
static const option_value tax_values[] = {{"none", TG_TAX_NONE}, {"seki", TG_TAX_SEKI},
                                          {"all", TG_TAX_ALL}, {NULL, 0}};
static const option_value cycle_values[] = {{"no-result", TG_CYCLE_NO_RESULT},
                                            {"draw", TG_CYCLE_DRAW}, {NULL, 0}};
static const option_value handicap_values[] = {{"0", TG_HCOMP_NONE}, {"N", TG_HCOMP_N},
                                               {"N-1", TG_HCOMP_N_MINUS_1}, {NULL, 0}};
static const option_value illegal_values[] = {{"reject", TG_ILLEGAL_REJECT}, {"void", TG_ILLEGAL_VOID},
                                              {"lose", TG_ILLEGAL_LOSE}, {NULL, 0}};
static const option_value dead_values[] = {{"remove", 1}, {"keep", 0}, {NULL, 0}};
static const option_value first_values[] = {{"black", 0}, {"white", 1}, {NULL, 0}};
static const option_value opening_values[] = {{"none", 0}, {"free", 4}, {NULL, 0}};
static const option_value capture_values[] = {{"opponent", 0}, {"choose", 1}, {NULL, 0}};
static const option_value repetition_values[] = {{"illegal", 0}, {"lose", 1}, {NULL, 0}};
static const option_value dispute_values[] = {{"claimer", 0}, {"turn", 1}, {NULL, 0}};
static const option_value decide_values[] = {{"no", 0}, {"yes", 1}, {NULL, 0}};

static const char *value_name(const option_value *values, int v)
{
    for (; values->text; values++)
        if (values->value == v)
            return values->text;
    return "?";
}

static bool lookup(const option_value *values, const char *text, int *out)
{
    for (; values->text; values++)
        if (!strcasecmp(values->text, text)) {
            *out = values->value;
            return true;
        }
    return false;
}

/* Apply one word: a preset name or key=value. */
static tg_status apply_word(tg_rules *r, char *word, char *err, size_t errlen)
{
    char *eq = strchr(word, '=');
    if (!eq) {
        if (tg_rules_preset(r, word) == TG_OK)
            return TG_OK;
        snprintf(err, errlen, "unknown ruleset '%s'", word);
        return TG_ERR_INVALID;
    }
    *eq = 0;
    const char *key = word, *val = eq + 1;
    int v = 0;
    bool ok = true;
    if (!strcasecmp(key, "komi")) {
        ok = tg_komi_parse(val, &v) == TG_OK;
        if (ok) {
            r->komi2 = v;
            r->revealed = false; /* a komi given replaces the predictions' threshold */
        }
    } else if (!strcasecmp(key, "ko") && (ok = lookup(ko_values, val, &v))) {
        r->ko = (tg_ko_rule)v;
    } else if (!strcasecmp(key, "suicide") && !strcasecmp(val, "any")) {
        r->suicide = r->suicide_any = true;
    } else if (!strcasecmp(key, "suicide") && (ok = lookup(yes_no, val, &v))) {
        r->suicide = v;
        r->suicide_any = false;
    } else if (!strcasecmp(key, "first") && (ok = lookup(first_values, val, &v))) {
        r->white_first = v;
    } else if (!strcasecmp(key, "opening") && (ok = lookup(opening_values, val, &v))) {
        r->free_opening = v;
    } else if (!strcasecmp(key, "capture") && (ok = lookup(capture_values, val, &v))) {
        r->capture_choice = v;
    } else if (!strcasecmp(key, "repetition") && (ok = lookup(repetition_values, val, &v))) {
        r->repetition_loses = v;
    } else if (!strcasecmp(key, "dispute") && (ok = lookup(dispute_values, val, &v))) {
        r->dispute_in_turn = v;
    } else if (!strcasecmp(key, "decide") && (ok = lookup(decide_values, val, &v))) {
        r->decisive = v;
        if (r->revealed) /* the komi that decides like the threshold moves with it */
            tg_rules_reveal(r, r->prediction_first2, r->prediction_second2);
    } else if (!strcasecmp(key, "scoring") && (ok = lookup(scoring_values, val, &v))) {
        r->scoring = (tg_scoring)v;
    } else if (!strcasecmp(key, "tax") && (ok = lookup(tax_values, val, &v))) {
        r->tax = (tg_tax)v;
    } else if (!strcasecmp(key, "cycle") && (ok = lookup(cycle_values, val, &v))) {
        r->cycle = (tg_cycle)v;
    } else if (!strcasecmp(key, "handicap") && (ok = lookup(handicap_values, val, &v))) {
        r->handicap_comp = (tg_handicap_comp)v;
    } else if (!strcasecmp(key, "illegal") && (ok = lookup(illegal_values, val, &v))) {
        r->illegal = (tg_illegal_policy)v;
    } else if (!strcasecmp(key, "dead") && (ok = lookup(dead_values, val, &v))) {
        r->dead_removed = v;
    } else if (ok) {
        snprintf(err, errlen, "unknown rule option '%s'", key);
        return TG_ERR_INVALID;
    }
    if (!ok) {
        snprintf(err, errlen, "bad value '%s' for %s", val, key);
        return TG_ERR_INVALID;
    }
    if (strcasecmp(key, "komi"))
        snprintf(r->name, sizeof r->name, "custom");
    return TG_OK;
}

tg_status tg_rules_apply(tg_rules *r, const char *text, char *err, size_t errlen)
{
    char scratch[64];
    if (!err) {
        err = scratch;
        errlen = sizeof scratch;
    }
    err[0] = 0;
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    if (!copy)
        return TG_ERR_NO_MEMORY;
    memcpy(copy, text, n + 1);
    tg_rules work = *r;
    tg_status st = TG_OK;
    for (char *save = NULL, *w = strtok_r(copy, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save))
        if ((st = apply_word(&work, w, err, errlen)) != TG_OK)
            break;
    free(copy);
    if (st == TG_OK) {
        /* a bare preset keeps its own name; any override makes it custom */
        *r = work;
    }
    return st;
}

void tg_rules_describe(const tg_rules *r, char *buf, size_t len)
{
    char komi[16];
    tg_komi_format(r->komi2, komi, sizeof komi);
    /* the free opening's options only where set, so that every other
     * ruleset reads as it always has */
    char extra[192] = "";
    if (r->white_first || r->free_opening || r->capture_choice || r->repetition_loses ||
        r->dispute_in_turn || r->decisive)
        snprintf(extra, sizeof extra, " first=%s opening=%s capture=%s repetition=%s dispute=%s%s",
                 value_name(first_values, r->white_first), value_name(opening_values, r->free_opening),
                 value_name(capture_values, r->capture_choice),
                 value_name(repetition_values, r->repetition_loses),
                 value_name(dispute_values, r->dispute_in_turn), r->decisive ? " decide=yes" : "");
    snprintf(buf, len, "ko=%s suicide=%s scoring=%s tax=%s cycle=%s handicap=%s illegal=%s dead=%s%s komi=%s",
             value_name(ko_values, r->ko), r->suicide_any ? "any" : r->suicide ? "yes" : "no",
             value_name(scoring_values, r->scoring), value_name(tax_values, r->tax),
             value_name(cycle_values, r->cycle), value_name(handicap_values, r->handicap_comp),
             value_name(illegal_values, r->illegal), r->dead_removed ? "remove" : "keep", extra, komi);
}

/* ---- SGF RU --------------------------------------------------------- */

tg_status tg_rules_from_sgf(tg_rules *r, const char *ru)
{
    tg_rules_default(r);
    if (!ru)
        return TG_ERR_INVALID;
    char word[256];
    size_t n = 0;
    /* "Chinese", "Japanese", "AGA", "NZ", "GOE", "Tromp-Taylor", "Korean", and
     * tengen's own key=value lists */
    while (*ru && isspace((unsigned char)*ru))
        ru++;
    for (; ru[n] && n < sizeof word - 1; n++)
        word[n] = ru[n];
    word[n] = 0;
    while (n && isspace((unsigned char)word[n - 1]))
        word[--n] = 0;
    for (char *s = word; *s; s++)
        if (*s == ' ' && !strchr(word, '='))
            *s = '-';
    if (tg_rules_preset(r, word) == TG_OK)
        return TG_OK;
    /* Ing's rules (SGF "GOE"): area counting, multi-stone suicide allowed,
     * positional superko (CASES T5, T10) */
    if (same_name(word, "GOE") || same_name(word, "Ing") || same_name(word, "Ings")) {
        tg_rules_apply(r, "new-zealand ko=positional komi=7.5", NULL, 0);
        return TG_OK;
    }
    tg_rules work;
    tg_rules_default(&work);
    if (strchr(word, '=') && tg_rules_apply(&work, word, NULL, 0) == TG_OK) {
        *r = work;
        return TG_OK;
    }
    return TG_ERR_INVALID;
}

void tg_rules_to_sgf(const tg_rules *r, char *buf, size_t len)
{
    /* A preset whose options are untouched is written by its SGF name.  The
     * illegal-move policy is what a referee does during play (R6), not how
     * the record is counted, so it does not make a preset custom here. */
    static const char *const sgf_names[] = {"Chinese", "Japanese", "Korean", "AGA", "NZ",
                                            "Tromp-Taylor", "ancient", "free-opening"};
    for (size_t i = 0; i < NPRESETS; i++) {
        tg_rules p = presets[i].rules;
        p.komi2 = r->komi2;
        p.illegal = r->illegal;
        if (!strcmp(r->name, presets[i].name) && !memcmp(&p, r, offsetof(tg_rules, komi2)) &&
            r->white_first == p.white_first && r->free_opening == p.free_opening &&
            r->capture_choice == p.capture_choice && r->repetition_loses == p.repetition_loses &&
            r->suicide_any == p.suicide_any && r->dispute_in_turn == p.dispute_in_turn &&
            r->decisive == p.decisive) {
            snprintf(buf, len, "%s", sgf_names[i]);
            return;
        }
    }
    char all[256];
    tg_rules_describe(r, all, sizeof all);
    char *k = strstr(all, " komi=");
    if (k)
        *k = 0; /* komi is KM's business */
    snprintf(buf, len, "%s", all);
}
