/*
 * cmd_score.c — `tengen score`: count the final position of an SGF game
 * under its rules (or others), with the dead stones its record marks (TB/TW,
 * as a counted game's record has them), estimated, or none, and print the
 * breakdown and the result in SGF RE syntax and in stones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_options.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "tengen/free_opening.h"
#include "tengen/score.h"
#include "tengen/sgf.h"

/* --dead: where the dead stones come from */
typedef enum dead_mode { DEAD_RECORD, DEAD_ESTIMATE, DEAD_NONE } dead_mode;

typedef struct score_options {
    const char *rules;     /* --rules text, or NULL: the rules the SGF names */
    dead_mode dead;        /* --dead: the record's marks (default), estimate or none */
    int playouts;
    uint64_t seed;
    bool json;
    const char *file;
} score_options;

static const char score_synopsis[] =
    "usage: tengen score [options] FILE.sgf\n\n"
    "Count the final position of the game's main line and print the count and\n"
    "the result (SGF RE syntax, and in stones as the Chinese rules state it).\n\n";
static const char score_epilogue[] =
    "Under dead=keep rules (tromp-taylor) every stone on the board counts as alive.\n"
    "Exit status: 0 counted, 1 the file cannot be read or parsed, 2 bad usage.\n";

static const char *const dead_choices[] = {"record", "estimate", "none", NULL};

/* --rules: kept as text (applied on top of RU when the record is read),
 * checked here so that bad rules are a usage error. */
static int read_rules_text(void *dest, const char *value, char *err, size_t errlen)
{
    tg_rules check;
    tg_rules_default(&check);
    if (cli_read_rules(&check, value, err, errlen) != 0)
        return -1;
    *(const char **)dest = value;
    return 0;
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, score_options *o)
{
    *o = (score_options){NULL, DEAD_RECORD, TG_DEAD_PLAYOUTS, 0, false, NULL};
    int dead = 0, files = 0;
    const cli_option options[] = {
        {"--rules", NULL, CLI_CALL, "R", 0, 0, NULL, read_rules_text, "a ruleset", &o->rules,
         "count under rules R: a preset (chinese, japanese, korean,\n"
         "aga, new-zealand, tromp-taylor, ancient) and/or key=value\n"
         "overrides, applied on top of the rules the SGF names (RU);\n"
         "the SGF's komi (KM) stays unless R sets komi=K"},
        {"--dead", NULL, CLI_CHOICE, "MODE", 0, 0, dead_choices, NULL, NULL, &dead,
         "record: the dead stones the record marks, as the record of\n"
         "a counted game does (the stones under the other colour's\n"
         "TB/TW on its last node), else estimated (default);\n"
         "estimate: dead stones from Benson's unconditional life and\n"
         "Monte-Carlo ownership; none: every stone lives"},
        CLI_OPT_PLAYOUTS(&o->playouts, "playouts of the ownership estimate (default 1000)"),
        CLI_OPT_SEED(&o->seed, "seed of the playouts, mixed with the position (default 0);\n"
                               "one position and seed give one answer, and by default\n"
                               "the count is the one GTP final_score and the referee give"),
        {"--json", NULL, CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &o->json,
         "print one JSON object instead of the table"},
    };
    const cli_command cmd = {"score", score_synopsis, score_epilogue, options, CLI_COUNT(options), &o->file, 1,
                             &files};
    int r = cli_parse(&cmd, argc, argv);
    if (r)
        return r == CLI_HELP ? 0 : 2;
    o->dead = (dead_mode)dead;
    if (!files)
        return cli_usage_error(&cmd, "no SGF file given (see tengen score --help)");
    return -1;
}

/* The record replayed under its rules with --rules (may be NULL) on top,
 * and the dead stones it marks (*marked false when it marks none). */
static tg_game *load(const char *path, const char *rules, bool *marked, uint8_t *dead)
{
    size_t len;
    char *data = cli_read_file(path, &len);
    if (!data) {
        fprintf(stderr, "tengen score: cannot read %s: %s\n", path, strerror(errno));
        return NULL;
    }
    tg_game *g = NULL;
    tg_sgf_error err = {0, 0, ""};
    tg_sgf_info *info = malloc(sizeof *info);
    tg_status st = info ? tg_sgf_load_game_under(data, len, -1, rules, &g, info, &err) : TG_ERR_NO_MEMORY;
    free(data);
    if (st != TG_OK || !g) {
        fprintf(stderr, "%s:%d:%d: %s\n", path, err.line, err.column,
                err.message[0] ? err.message : tg_status_text(st));
        free(info);
        return NULL;
    }
    cli_print_sgf_notes(path, &info->notes);
    if (info->has_predictions && !(rules && strstr(rules, "komi="))) /* the threshold, exactly */
        tg_game_reveal(g, info->prediction_first2, info->prediction_second2);
    *marked = info->has_dead;
    memcpy(dead, info->dead, sizeof info->dead);
    free(info);
    return g;
}

/* Half points as text: "7", "7.5", "-0.5". */
static void half_points(int v2, char *buf, size_t len)
{
    snprintf(buf, len, "%s%d%s", v2 < 0 ? "-" : "", abs(v2) / 2, abs(v2) % 2 ? ".5" : "");
}

static void dead_list(const tg_board *b, const uint8_t *dead, tg_color c, bool json, FILE *out)
{
    bool first = true;
    for (tg_point p = 0; p < b->npoints; p++) {
        if (!dead[p] || tg_board_at(b, p) != c)
            continue;
        char v[8];
        tg_point_to_vertex(b, p, v);
        fprintf(out, json ? "%s\"%s\"" : "%s%s", first ? "" : json ? "," : " ", v);
        first = false;
    }
    if (first && !json)
        fprintf(out, "-");
}

/* Where the dead stones came from, as the table and the JSON say it. */
static const char *const dead_from_text[] = {"the record's TB/TW", "estimated", "--dead none"};
static const char *const dead_from_json[] = {"record", "estimate", "none"};

static void print_table(const tg_game *g, const uint8_t *dead, dead_mode from, const tg_score *s)
{
    const tg_board *b = tg_game_board(g);
    const tg_rules *r = tg_game_rules(g);
    char rules[256], komi[16], black[16], white[16], re[32], stones[128], stones_zh[128];
    tg_rules_describe(r, rules, sizeof rules);
    tg_komi_format(s->komi2, komi, sizeof komi);
    half_points(s->black2, black, sizeof black);
    half_points(s->white2, white, sizeof white);
    tg_result_to_sgf(&s->result, re, sizeof re);
    printf("rules        %s: %s\n", r->name, rules);
    printf("board        %dx%d, handicap %d, %d moves\n", b->size, b->size, tg_game_handicap(g),
           tg_game_move_count(g));
    printf("dead         black: ");
    dead_list(b, dead, TG_BLACK, false, stdout);
    printf("   white: ");
    dead_list(b, dead, TG_WHITE, false, stdout);
    printf("   (%s)", dead_from_text[from]);
    printf("\n%-12s %7s %7s\n", "", "black", "white");
    printf("%-12s %7d %7d\n", "stones", s->stones[TG_BLACK], s->stones[TG_WHITE]);
    printf("%-12s %7d %7d\n", "territory", s->territory[TG_BLACK], s->territory[TG_WHITE]);
    printf("%-12s %7d %7d\n", "prisoners", s->prisoners[TG_BLACK], s->prisoners[TG_WHITE]);
    if (r->tax == TG_TAX_ALL)
        printf("%-12s %7d %7d\n", "taxed groups", s->groups_taxed[TG_BLACK], s->groups_taxed[TG_WHITE]);
    printf("%-12s %7d\n", "dame", s->dame);
    printf("%-12s %7s %7s   (%s counting)\n", "total", black, white,
           r->scoring == TG_SCORING_AREA ? "area" : "territory");
    printf("komi         %s, handicap compensation %d to White\n", komi, s->handicap_points);
    if (r->revealed) {
        char threshold[16];
        tg_predictions p;
        tg_predictions_decide(r->prediction_first2, r->prediction_second2, &p);
        tg_threshold_format(p.threshold4, threshold, sizeof threshold);
        printf("threshold    %s, the mean of the predictions (002 §5.3.2): the result is against it\n",
               threshold);
    }
    printf("result       %s\n", re);
    if (r->scoring == TG_SCORING_AREA) {
        tg_result_stated(r, &s->result, false, stones, sizeof stones);
        tg_result_stated(r, &s->result, true, stones_zh, sizeof stones_zh);
        printf("             %s (%s)\n", stones, stones_zh);
    }
}

static void print_side(const char *name, const tg_score *s, tg_color c, int total2)
{
    char total[16];
    half_points(total2, total, sizeof total);
    printf("\"%s\":{\"stones\":%d,\"territory\":%d,\"prisoners\":%d,\"groups_taxed\":%d,"
           "\"total\":%s}",
           name, s->stones[c], s->territory[c], s->prisoners[c], s->groups_taxed[c], total);
}

static void print_json(const tg_game *g, const uint8_t *dead, dead_mode from, const tg_score *s)
{
    const tg_board *b = tg_game_board(g);
    const tg_rules *r = tg_game_rules(g);
    char rules[256], komi[16], re[32], stones[128], margin[16];
    int signed4 = s->result.winner == TG_WHITE ? -s->result.margin4 : s->result.margin4;
    tg_rules_describe(r, rules, sizeof rules);
    tg_komi_format(s->komi2, komi, sizeof komi);
    tg_result_to_sgf(&s->result, re, sizeof re);
    tg_result_stated(r, &s->result, false, stones, sizeof stones);
    tg_margin_format(signed4, margin, sizeof margin);
    printf("{\"size\":%d,\"handicap\":%d,\"moves\":%d,\"rules\":\"%s\",\"komi\":%s,", b->size,
           tg_game_handicap(g), tg_game_move_count(g), rules, komi);
    printf("\"dead\":{\"black\":[");
    dead_list(b, dead, TG_BLACK, true, stdout);
    printf("],\"white\":[");
    dead_list(b, dead, TG_WHITE, true, stdout);
    printf("]},\"dead_from\":\"%s\",", dead_from_json[from]);
    print_side("black", s, TG_BLACK, s->black2);
    printf(",");
    print_side("white", s, TG_WHITE, s->white2);
    printf(",\"dame\":%d,\"handicap_points\":%d,\"result\":\"%s\",\"margin\":%s,"
           "\"in_stones\":\"%s\"}\n",
           s->dame, s->handicap_points, re, margin,
           r->scoring == TG_SCORING_AREA ? stones : "");
}

int cmd_score(int argc, char **argv)
{
    score_options o;
    int status = parse_args(argc, argv, &o);
    if (status >= 0)
        return status;
    bool marked;
    uint8_t dead[TG_MAX_POINTS];
    tg_game *g = load(o.file, o.rules, &marked, dead);
    if (!g)
        return 1;
    dead_mode from = o.dead == DEAD_RECORD && !marked ? DEAD_ESTIMATE : o.dead;
    if (from != DEAD_RECORD)
        memset(dead, 0, sizeof dead);
    if (from == DEAD_ESTIMATE)
        tg_game_estimate_dead(g, o.playouts, o.seed, dead);
    tg_score s;
    tg_score_game(g, dead, &s);
    if (o.json)
        print_json(g, dead, from, &s);
    else
        print_table(g, dead, from, &s);
    tg_game_free(g);
    return 0;
}
