/*
 * cmd_tournament.c — `tengen tournament ACTION FILE ...`: an organiser at
 * the venue creates a tournament file, registers players, pairs rounds,
 * enters results and prints standings, all offline.  The work is the
 * library's (src/tournament/); this file reads the command line, reads
 * and writes the tournament file (through a temporary file renamed into
 * place, so that an interrupted write never loses the tournament) and
 * says what happened.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"
#include "cli_util.h"
#include "commands.h"
#include "tengen/tournament.h"

static const char tournament_synopsis[] =
    "usage: tengen tournament ACTION FILE [ARGS] [options]\n\n"
    "Run a tournament on points (McMahon, Swiss or round-robin) from a tournament\n"
    "file (JSON, see README.md). Actions:\n"
    "  new FILE            create it (--system, --rounds, --bar, --floor, ...)\n"
    "  add FILE NAME RANK  register a player (late joiners start next round)\n"
    "  withdraw FILE NAME  --round N: not paired from round N on\n"
    "  skip FILE NAME      --round N [--undo]: not paired in round N\n"
    "  pair FILE           pair the next round (--repair: pair the last again;\n"
    "                      --manual 'A-B,C-D' --bye NAME: by hand; --by-lot)\n"
    "  unpair FILE         remove the last round's pairing (no results in)\n"
    "  show FILE           print a round's pairing (--round N)\n"
    "  result FILE ROUND BOARD RESULT   enter or correct a result (--note)\n"
    "  standings FILE      the standings and crosstable (--round N)\n"
    "  rate FILE           Glicko-2 ratings after --round N\n"
    "  export FILE OUT     --format opengotha|egf|aga|html|json\n"
    "  import XML FILE     a new tournament file from an OpenGotha file\n\n"
    "RESULT: B+R W+T B+F (forfeit) W+L (late) B+A (adjudicated) B+3.5 W+\n"
    "jigo BL (both lose, 双负) replay none.\n\n";
static const char tournament_epilogue[] =
    "Exit status: 0 done, 1 refused or failed (the reason on standard error),\n"
    "2 bad usage.\n";

static const char *const system_choices[] = {"mcmahon", "swiss", "round-robin", NULL};
static const char *const handicap_choices[] = {"none", "mcmahon", "rank", NULL};
static const char *const seeding_choices[] = {"adjacent", "fold", NULL};
static const char *const format_choices[] = {"opengotha", "egf", "aga", "html", "json", NULL};

typedef struct tournament_options {
    const char *operands[4];
    int operand_count;
    int system, rounds, handicap, reduction, max_handicap, seeding, round, format;
    cli_komi komi;
    double bye_points, absent_points;
    uint64_t seed;
    const char *name, *bar, *floor, *tiebreaks, *club, *country, *manual, *bye, *note, *skip;
    bool jigo, repair, by_lot, undo;
} tournament_options;

static int fail(const char *what, const char *err)
{
    fprintf(stderr, "tengen tournament: %s%s%s\n", what, err && err[0] ? ": " : "", err ? err : "");
    return 1;
}

static tg_tournament *load(const char *path)
{
    size_t length;
    char *text = cli_read_file(path, &length);
    if (!text) {
        fprintf(stderr, "tengen tournament: cannot read %s: %s\n", path, strerror(errno));
        return NULL;
    }
    char err[512];
    tg_tournament *t = NULL;
    if (tg_tour_from_json(text, length, &t, err, sizeof err) != TG_OK)
        fprintf(stderr, "tengen tournament: %s: %s\n", path, err);
    free(text);
    return t;
}

/* Writes text to path through path.tmp renamed into place. */
static int write_text(const char *path, const char *text)
{
    if (!text)
        return fail("out of memory", NULL);
    if (!strcmp(path, "-")) {
        fputs(text, stdout);
        return 0;
    }
    size_t size = strlen(path) + 8;
    char *tmp = malloc(size);
    if (!tmp)
        return fail("out of memory", NULL);
    snprintf(tmp, size, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    bool ok = f && fputs(text, f) >= 0;
    ok = (f && fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        fprintf(stderr, "tengen tournament: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return ok ? 0 : 1;
}

static int save(const char *path, const tg_tournament *t)
{
    char *text = tg_tour_to_json(t);
    int status = write_text(path, text);
    free(text);
    return status;
}

static int player_arg(const tg_tournament *t, const char *name)
{
    int id = tg_tour_find_player(t, name);
    if (id < 0)
        fprintf(stderr, "tengen tournament: no player '%s' (names as registered, or #ID)\n", name);
    return id;
}

static int action_new(const tournament_options *o)
{
    tg_tour_settings s;
    tg_tour_settings_default(&s, (tg_tour_system)o->system);
    char err[256] = "";
    if (o->name)
        snprintf(s.name, sizeof s.name, "%s", o->name);
    if (o->rounds)
        s.rounds = o->rounds;
    if ((o->bar && tg_rank_parse(o->bar, &s.bar) != TG_OK) ||
        (o->floor && tg_rank_parse(o->floor, &s.floor) != TG_OK))
        return fail("--bar and --floor take ranks such as 4d or 20k", NULL);
    if (s.floor > s.bar)
        return fail("the McMahon floor is above the bar", NULL);
    if (o->handicap >= 0)
        s.handicap = (tg_handicap_mode)o->handicap;
    if (o->reduction >= 0)
        s.handicap_reduction = o->reduction;
    if (o->max_handicap >= 0)
        s.max_handicap = o->max_handicap;
    if (o->komi.given)
        s.komi2 = o->komi.komi2;
    s.jigo_allowed = o->jigo || (o->komi.given && o->komi.komi2 % 2 == 0);
    if (o->bye_points >= 0)
        s.bye_points2 = (int)(o->bye_points * 2 + 0.5);
    if (o->absent_points >= 0)
        s.absent_points2 = (int)(o->absent_points * 2 + 0.5);
    s.seeding = (tg_seeding)o->seeding;
    s.seed = o->seed;
    if (o->tiebreaks &&
        tg_tiebreaks_parse(o->tiebreaks, s.tiebreaks, &s.tiebreak_count, err, sizeof err) != TG_OK)
        return fail("--tiebreaks", err);
    FILE *exists = fopen(o->operands[0], "r");
    if (exists) {
        fclose(exists);
        return fail("the file exists already; not overwritten", o->operands[0]);
    }
    tg_tournament *t = tg_tour_new(&s);
    if (!t)
        return fail("out of memory", NULL);
    int status = save(o->operands[0], t);
    tg_tour_free(t);
    return status;
}

/* "A-B,C-D" by names or #ids into pairs. */
static int parse_manual(const tg_tournament *t, const char *text, int (*pairs)[2], int *count)
{
    char *copy = strdup(text), *save_ptr = NULL;
    if (!copy)
        return -1;
    *count = 0;
    for (char *item = strtok_r(copy, ",", &save_ptr); item; item = strtok_r(NULL, ",", &save_ptr)) {
        char *dash = strstr(item, "-");
        if (!dash || *count >= t->player_count) {
            fprintf(stderr, "tengen tournament: --manual takes BLACK-WHITE pairs separated by commas\n");
            free(copy);
            return -1;
        }
        *dash = 0;
        int black = player_arg(t, item), white = player_arg(t, dash + 1);
        if (black < 0 || white < 0) {
            free(copy);
            return -1;
        }
        pairs[*count][0] = black;
        pairs[(*count)++][1] = white;
    }
    free(copy);
    return 0;
}

static int action_pair(tg_tournament *t, const tournament_options *o)
{
    char err[512] = "";
    int round = o->repair ? t->round_count : t->round_count + 1;
    if (o->manual) {
        int (*pairs)[2] = malloc(((size_t)t->player_count + 1) * sizeof *pairs);
        int count = 0, bye = -1;
        if (!pairs || parse_manual(t, o->manual, pairs, &count) != 0 ||
            (o->bye && (bye = player_arg(t, o->bye)) < 0)) {
            free(pairs);
            return 1;
        }
        tg_status s = tg_tour_pair_manual(t, round, (const int(*)[2])pairs, count, &bye,
                                          bye >= 0 ? 1 : 0, err, sizeof err);
        free(pairs);
        if (s != TG_OK)
            return fail("cannot pair by hand", err);
    } else {
        tg_pair_options po = {.by_lot = o->by_lot};
        if (tg_tour_pair(t, round, &po, err, sizeof err) != TG_OK)
            return fail("cannot pair", err);
    }
    char *text = tg_tour_pairing_text(t, round);
    if (text)
        fputs(text, stdout);
    free(text);
    return 0;
}

static int run_action(const char *action, tg_tournament *t, const tournament_options *o)
{
    char err[512] = "";
    if (!strcmp(action, "add")) {
        tg_tour_player p = {0};
        snprintf(p.name, sizeof p.name, "%s", o->operands[1]);
        if (tg_rank_parse(o->operands[2], &p.rank) != TG_OK)
            return fail("not a rank (30k..9d)", o->operands[2]);
        snprintf(p.club, sizeof p.club, "%s", o->club ? o->club : "");
        snprintf(p.country, sizeof p.country, "%s", o->country ? o->country : "");
        int id;
        if (tg_tour_add_player(t, &p, &id, err, sizeof err) != TG_OK)
            return fail("cannot add the player", err);
        if (o->skip) {
            char *end;
            long r = strtol(o->skip, &end, 10);
            if (*end || tg_tour_skip_round(t, id, (int)r, true, err, sizeof err) != TG_OK)
                return fail("--skip", err);
        }
        printf("added #%d %s (%s), first round %d\n", id, p.name, o->operands[2],
               t->players[id].joined_round);
        return 0;
    }
    if (!strcmp(action, "withdraw") || !strcmp(action, "skip")) {
        int id = player_arg(t, o->operands[1]);
        if (id < 0)
            return 1;
        int round = o->round ? o->round : t->round_count + 1;
        tg_status s = !strcmp(action, "withdraw") ? tg_tour_withdraw(t, id, round, err, sizeof err)
                                                  : tg_tour_skip_round(t, id, round, !o->undo, err, sizeof err);
        return s == TG_OK ? 0 : fail(action, err);
    }
    if (!strcmp(action, "pair"))
        return action_pair(t, o);
    if (!strcmp(action, "unpair"))
        return tg_tour_unpair(t, t->round_count, err, sizeof err) == TG_OK ? 0 : fail("unpair", err);
    if (!strcmp(action, "result")) {
        int round, board;
        tg_tour_result r;
        if (cli_parse_int(o->operands[1], 1, TG_TOUR_MAX_ROUNDS, &round) ||
            cli_parse_int(o->operands[2], 1, TG_TOUR_MAX_PLAYERS, &board))
            return fail("ROUND and BOARD are numbers", NULL);
        if (tg_tour_result_parse(o->operands[3], &r) != TG_OK)
            return fail("not a result (B+R, W+T, B+3.5, jigo, BL, replay, ...)", o->operands[3]);
        if (tg_tour_set_result(t, round, board, &r, o->note, err, sizeof err) != TG_OK)
            return fail("cannot enter the result", err);
        return 0;
    }
    if (!strcmp(action, "rate")) {
        int round = o->round ? o->round : t->round_count;
        if (tg_tour_update_ratings(t, round) != TG_OK)
            return fail("no such round", NULL);
        for (int i = 0; i < t->player_count; i++) {
            const tg_tour_player *p = &t->players[i];
            char rank[8];
            printf("%-24s %7.1f %6.1f %.5f %s%s\n", p->name, p->rating, p->deviation, p->volatility,
                   tg_rank_text(tg_glicko_rank(p->rating), rank, sizeof rank),
                   p->deviation >= TG_GLICKO_PROVISIONAL_DEVIATION ? "?" : "");
        }
        return 0;
    }
    return -1;
}

/* Actions that only read: show, standings, export. */
static int read_action(const char *action, const tg_tournament *t, const tournament_options *o)
{
    char *text = NULL;
    if (!strcmp(action, "show")) {
        int round = o->round ? o->round : t->round_count;
        if (round < 1 || round > t->round_count)
            return fail("no such round paired", NULL);
        text = tg_tour_pairing_text(t, round);
    } else if (!strcmp(action, "standings")) {
        text = tg_tour_crosstable_text(t, o->round);
    } else {
        switch (o->format) {
        case 0: text = tg_tour_to_opengotha(t); break;
        case 1: text = tg_tour_to_egf(t); break;
        case 2: text = tg_tour_to_aga(t); break;
        case 3: text = tg_tour_standings_html(t, o->round); break;
        default: text = tg_tour_to_json(t); break;
        }
        int status = write_text(o->operands[1], text);
        free(text);
        return status;
    }
    if (!text)
        return fail("out of memory", NULL);
    fputs(text, stdout);
    free(text);
    return 0;
}

static int action_import(const tournament_options *o)
{
    size_t length;
    char *xml = cli_read_file(o->operands[0], &length);
    if (!xml)
        return fail("cannot read", o->operands[0]);
    char err[512] = "";
    tg_tournament *t = NULL;
    tg_status s = tg_tour_from_opengotha(xml, length, &t, err, sizeof err);
    free(xml);
    if (s != TG_OK)
        return fail(o->operands[0], err);
    int status = save(o->operands[1], t);
    tg_tour_free(t);
    return status;
}

typedef struct action_shape {
    const char *name;
    int operands;       /* FILE and the rest */
    bool writes;
} action_shape;

static const action_shape actions[] = {
    {"new", 1, true},       {"add", 3, true},        {"withdraw", 2, true}, {"skip", 2, true},
    {"pair", 1, true},      {"unpair", 1, true},     {"result", 4, true},   {"rate", 1, true},
    {"show", 1, false},     {"standings", 1, false}, {"export", 2, false},  {"import", 2, false},
};

int cmd_tournament(int argc, char **argv)
{
    tournament_options o = {.system = 0, .handicap = -1, .reduction = -1, .max_handicap = -1,
                            .bye_points = -1, .absent_points = -1, .seed = 1, .format = 3};
    const cli_option options[] = {
        {"--system", NULL, CLI_CHOICE, "S", 0, 0, system_choices, NULL, NULL, &o.system,
         "new: mcmahon (default), swiss or round-robin"},
        {"--rounds", NULL, CLI_INT, "N", 1, TG_TOUR_MAX_ROUNDS, NULL, NULL, NULL, &o.rounds,
         "new: the number of rounds (5)"},
        {"--name", NULL, CLI_TEXT, "TEXT", 0, 0, NULL, NULL, NULL, &o.name, "new: the event's name"},
        {"--bar", NULL, CLI_TEXT, "RANK", 0, 0, NULL, NULL, NULL, &o.bar, "new: McMahon bar (4d)"},
        {"--floor", NULL, CLI_TEXT, "RANK", 0, 0, NULL, NULL, NULL, &o.floor, "new: McMahon floor (20k)"},
        {"--handicap", NULL, CLI_CHOICE, "H", 0, 0, handicap_choices, NULL, NULL, &o.handicap,
         "new: none, mcmahon (score difference; McMahon's default) or rank"},
        {"--handicap-reduction", NULL, CLI_INT, "N", 0, 40, NULL, NULL, NULL, &o.reduction,
         "new: stones taken off the difference (1)"},
        {"--max-handicap", NULL, CLI_INT, "N", 0, 9, NULL, NULL, NULL, &o.max_handicap,
         "new: the largest handicap (9)"},
        CLI_OPT_KOMI(&o.komi, "new: komi of even games (6.5); a whole komi allows jigo"),
        {"--jigo", NULL, CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &o.jigo, "new: the rules allow jigo"},
        {"--bye-points", NULL, CLI_REAL, "P", 0, 1, NULL, NULL, NULL, &o.bye_points,
         "new: what a bye scores: 0, 0.5 or 1 (1)"},
        {"--absent-points", NULL, CLI_REAL, "P", 0, 1, NULL, NULL, NULL, &o.absent_points,
         "new: what a skipped round scores (0)"},
        {"--seeding", NULL, CLI_CHOICE, "S", 0, 0, seeding_choices, NULL, NULL, &o.seeding,
         "new: adjacent (default) or fold, within a score group"},
        {"--tiebreaks", NULL, CLI_TEXT, "LIST", 0, 0, NULL, NULL, NULL, &o.tiebreaks,
         "new: e.g. mms,sos,sosos or wins,sos,cumulative,direct"},
        CLI_OPT_SEED(&o.seed, "new: the seed of the lots (1)"),
        {"--club", NULL, CLI_TEXT, "TEXT", 0, 0, NULL, NULL, NULL, &o.club, "add: the player's club"},
        {"--country", NULL, CLI_TEXT, "CC", 0, 0, NULL, NULL, NULL, &o.country, "add: the player's country"},
        {"--skip", NULL, CLI_TEXT, "N", 0, 0, NULL, NULL, NULL, &o.skip, "add: not paired in round N"},
        {"--round", NULL, CLI_INT, "N", 1, TG_TOUR_MAX_ROUNDS, NULL, NULL, NULL, &o.round,
         "withdraw, skip, show, standings, rate: the round"},
        {"--undo", NULL, CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &o.undo, "skip: pair the player again"},
        {"--repair", NULL, CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &o.repair,
         "pair: pair the last round again (before any result)"},
        {"--manual", NULL, CLI_TEXT, "PAIRS", 0, 0, NULL, NULL, NULL, &o.manual,
         "pair: 'BLACK-WHITE,BLACK-WHITE' by name or #id"},
        {"--bye", NULL, CLI_TEXT, "NAME", 0, 0, NULL, NULL, NULL, &o.bye, "pair --manual: the bye"},
        {"--by-lot", NULL, CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &o.by_lot,
         "pair: games without a result count by lot for this pairing (T2)"},
        {"--note", NULL, CLI_TEXT, "TEXT", 0, 0, NULL, NULL, NULL, &o.note,
         "result: why a result is corrected (kept in the log)"},
        {"--format", NULL, CLI_CHOICE, "F", 0, 0, format_choices, NULL, NULL, &o.format,
         "export: opengotha, egf, aga, html (default) or json"},
    };
    char name[64];
    const char *action = argc > 1 ? argv[1] : "";
    snprintf(name, sizeof name, "tournament%s%s", action[0] && action[0] != '-' ? " " : "",
             action[0] != '-' ? action : "");
    cli_command cmd = {name, tournament_synopsis, tournament_epilogue, options, CLI_COUNT(options),
                       o.operands, 4, &o.operand_count};
    if (argc < 2 || action[0] == '-') {
        int r = cli_parse(&cmd, argc, argv);
        if (r == CLI_HELP)
            return 0;
        return r ? 2 : cli_usage_error(&cmd, "give an ACTION (see tengen tournament --help)");
    }
    const action_shape *shape = NULL;
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
        if (!strcmp(actions[i].name, action))
            shape = &actions[i];
    if (!shape)
        return cli_usage_error(&cmd, "unknown action '%s' (see tengen tournament --help)", action);
    int r = cli_parse(&cmd, argc - 1, argv + 1);
    if (r)
        return r == CLI_HELP ? 0 : 2;
    if (o.operand_count != shape->operands)
        return cli_usage_error(&cmd, "%s takes %d argument%s (see tengen tournament --help)", action,
                               shape->operands, shape->operands > 1 ? "s" : "");
    if (!strcmp(action, "new"))
        return action_new(&o);
    if (!strcmp(action, "import"))
        return action_import(&o);
    tg_tournament *t = load(o.operands[0]);
    if (!t)
        return 1;
    int status = shape->writes ? run_action(action, t, &o) : read_action(action, t, &o);
    if (status == 0 && shape->writes)
        status = save(o.operands[0], t);
    tg_tour_free(t);
    return status;
}
