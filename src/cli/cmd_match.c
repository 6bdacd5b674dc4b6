/*
 * cmd_match.c — `tengen match`: GTP engines against each other (a match, a
 * round-robin or a gauntlet), refereed by the library (tengen/referee.h).
 * This front end parses the options, loads openings, reads a results file
 * back for --resume, writes each finished game as a JSON line, keeps the
 * score, shows a progress line, prints the results table and the Elo, and
 * turns Ctrl-C into a clean stop.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_options.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "tengen/referee.h"

#define MAX_ENGINES 32
#define MATCH_RULES_TEXT 512 /* the --rules texts together */

typedef struct match_options {
    tg_match_engine engines[MAX_ENGINES];
    int engine_count;
    tg_tournament tournament;
    bool tournament_given;
    int games, jobs, opening_moves;
    bool nigiri, resume, quiet, sprt_on;
    bool fixed_colors; /* --colors fixed */
    const char *openings_path, *sgf_dir, *results_path, *engine_stderr;
    tg_referee_config game;
    tg_sprt sprt;
    uint64_t seed;
} match_options;

/* ---- Options ------------------------------------------------------------------ */

static const char match_synopsis[] =
    "usage: tengen match --engine NAME=COMMAND --engine NAME=COMMAND [options]\n\n"
    "Referee games between GTP engines: every move checked under the rules, the\n"
    "clock kept and enforced by the referee, crashes, hangs, garbage and illegal\n"
    "moves lost by forfeit (the engine is restarted and the match goes on).  An\n"
    "illegal move forfeits (reason \"illegal\") whatever the ruleset's own policy,\n"
    "unless --rules names another one with illegal=reject or illegal=void.\n\n";
static const char match_epilogue[] =
    "Ctrl-C stops cleanly: finished games are written, games in progress dropped,\n"
    "engines killed; --resume continues.  Exit status 0, 1 on an error, 2 on bad\n"
    "usage, 130 when interrupted.\n";

static const char *const tournament_choices[] = {"round-robin", "gauntlet", NULL};
static const char *const colors_choices[] = {"alternate", "nigiri", "fixed", NULL};
static const char *const dispute_choices[] = {"cleanup", "estimate", NULL};

/* --engine NAME=COMMAND, into match_options. */
static int read_engine(void *dest, const char *spec, char *err, size_t errlen)
{
    match_options *o = dest;
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1] || (size_t)(eq - spec) >= sizeof o->engines[0].name)
        return -1;
    if (o->engine_count == MAX_ENGINES) {
        snprintf(err, errlen, "at most %d engines", MAX_ENGINES);
        return -1;
    }
    tg_match_engine *e = &o->engines[o->engine_count];
    snprintf(e->name, sizeof e->name, "%.*s", (int)(eq - spec), spec);
    e->command = eq + 1;
    for (int i = 0; i < o->engine_count; i++)
        if (!strcmp(o->engines[i].name, e->name)) {
            snprintf(err, errlen, "two engines are named '%s'", e->name);
            return -1;
        }
    o->engine_count++;
    return 0;
}

/* --rules, gathered: applied once all are read (check_options). */
static int read_rules_text(void *dest, const char *value, char *err, size_t errlen)
{
    char *rules = dest;
    (void)err, (void)errlen;
    size_t used = strlen(rules);
    snprintf(rules + used, MATCH_RULES_TEXT - used, " %s", value);
    return 0;
}

/* --sprt, into match_options. */
static int read_sprt(void *dest, const char *value, char *err, size_t errlen)
{
    match_options *o = dest;
    (void)err, (void)errlen;
    o->sprt_on = true;
    return tg_sprt_parse(value, &o->sprt) == TG_OK ? 0 : -1;
}

static void defaults(match_options *o)
{
    memset(o, 0, sizeof *o);
    o->games = 2;
    o->jobs = 1;
    o->opening_moves = -1;
    o->seed = 1;
    o->game.size = 19;
    o->game.timeout_ms = 60000;
    o->game.time.system = TG_CLOCK_NONE;
    tg_rules_default(&o->game.rules);
}

/* Whether the --rules text names the illegal-move policy itself. */
static bool names_illegal_policy(const char *rules)
{
    for (const char *w = rules; *w; w++)
        if ((w == rules || isspace((unsigned char)w[-1])) && !strncasecmp(w, "illegal=", 8))
            return true;
    return false;
}

/* Cross-option checks; 0 when the options make a match. */
static int check_options(const cli_command *cmd, match_options *o, const char *rules, const cli_komi *komi)
{
    char err[160];
    if (rules[0] && tg_rules_apply(&o->game.rules, rules, err, sizeof err) != TG_OK)
        return cli_usage_error(cmd, "bad value '%s' for --rules: %s", rules + 1, err);
    if (komi->given)
        o->game.rules.komi2 = komi->komi2;
    /* The human policies of R6 (void, warnings) are for people at a board;
     * engine referees (CGOS, KGS, gogui-twogtp) forfeit an illegal move. */
    if (!names_illegal_policy(rules))
        o->game.rules.illegal = TG_ILLEGAL_LOSE;
    if (o->engine_count < 2)
        return cli_usage_error(cmd, "give at least two --engine NAME=COMMAND");
    if (o->engine_count > 2 && !o->tournament_given)
        return cli_usage_error(cmd, "%d engines need --tournament round-robin|gauntlet", o->engine_count);
    if (!o->tournament_given)
        o->tournament = TG_TOURNAMENT_MATCH;
    if (o->resume && !o->results_path)
        return cli_usage_error(cmd, "--resume needs --results FILE");
    return 0;
}

/* 0, CLI_HELP or CLI_USAGE_ERROR (cli_options.h). */
static int parse_match_options(int argc, char **argv, match_options *o)
{
    defaults(o);
    char rules[MATCH_RULES_TEXT] = "";
    cli_komi komi = {0};
    int tournament = -1, colors = 0, dispute = 0, lag_ms = 0, prediction_s = -1;
    const char *engine_stderr = "discard";
    const cli_option options[] = {
        {"--engine", NULL, CLI_CALL, "NAME=CMD", 0, 0, NULL, read_engine, "NAME=COMMAND", o,
         "an engine: a name and the shell command that starts it\n"
         "(twice for a match, more with --tournament)"},
        {"--tournament", NULL, CLI_CHOICE, "T", 0, 0, tournament_choices, NULL, NULL, &tournament,
         "round-robin (every pair) or gauntlet (the first engine\n"
         "against each other one); needed with 3 or more engines"},
        {"--games", NULL, CLI_INT, "N", 1, 1000000, NULL, NULL, NULL, &o->games,
         "games per pair of engines (default 2)"},
        {"--colors", NULL, CLI_CHOICE, "C", 0, 0, colors_choices, NULL, NULL, &colors,
         "alternate (default: each pair swaps colours every game,\n"
         "each opening played once with each colour), nigiri\n"
         "(a random draw per game, R1, recorded by its seed) or\n"
         "fixed (the first engine of each pair Black every game:\n"
         "a handicap match, the weaker engine named first)"},
        {"--openings", NULL, CLI_TEXT, "FILE", 0, 0, NULL, NULL, NULL, &o->openings_path,
         "openings: an SGF collection (the main line of each game)\n"
         "or one opening a line (\"D4 Q16 C3\", Black first)"},
        {"--opening-moves", NULL, CLI_INT, "N", 0, 10000, NULL, NULL, NULL, &o->opening_moves,
         "use at most N moves of each SGF opening (default all)"},
        {"--jobs", "-j", CLI_INT, "N", 1, 256, NULL, NULL, NULL, &o->jobs,
         "games played at once (default 1); each has its own\n"
         "engine processes"},
        CLI_OPT_SEED(&o->seed, "match seed: per-game seeds, nigiri (default 1); the same\n"
                               "options give the same schedule, so --resume is exact"),
        CLI_OPT_SIZE(&o->game.size, "board size, 2..25 (default 19)"),
        {"--rules", NULL, CLI_CALL, "R", 0, 0, NULL, read_rules_text, "a ruleset", rules,
         "ruleset preset and key=value overrides, e.g. \"japanese\",\n"
         "\"chinese illegal=void\" (default chinese); the illegal=\n"
         "option is the referee's policy: reject, void, or lose\n"
         "(the default here, as engine referees do)"},
        CLI_OPT_KOMI(&komi, "komi (default: the rules')"),
        CLI_OPT_HANDICAP(&o->game.handicap, "fixed handicap stones, 2..9 (default none)"),
        CLI_OPT_TIME(&o->game.time, "none (default), absolute:300, byoyomi:600+5x30,\n"
                                    "canadian:600+25/600, periods:3600+15/600, fischer:300+10,\n"
                                    "fischer:300+10max600, simple:10; seconds, decimals allowed;\n"
                                    "',pass' after byoyomi/simple: overrunning the last period\n"
                                    "is a pass, not a loss"),
        CLI_OPT_PREDICTION_TIME(&prediction_s, "free-opening: each engine's time to predict (002\n"
                                               "§5.3.3; default a tenth of the clock's time, at least\n"
                                               "10 s; 0: none, --timeout bounds it)"),
        {"--lag", NULL, CLI_INT, "MS", 0, 600000, NULL, NULL, NULL, &lag_ms,
         "lag allowance per move in milliseconds (default 0)"},
        {"--timeout", NULL, CLI_INT, "MS", 0, 86400000, NULL, NULL, NULL, &o->game.timeout_ms,
         "longest wait for an answer no clock bounds: setup,\n"
         "scoring, genmove under --time none (default 60000; 0: for ever)"},
        {"--move-cap", NULL, CLI_INT, "N", 1, 100000, NULL, NULL, NULL, &o->game.move_cap,
         "moves after which a game is adjudicated by tengen's\n"
         "estimator (default 4 x size x size)"},
        {"--dispute", NULL, CLI_CHOICE, "D", 0, 0, dispute_choices, NULL, NULL, &dispute,
         "when the engines' final_status_list dead disagree:\n"
         "cleanup (default: play on with kgs-genmove_cleanup, or\n"
         "genmove, then count; the estimator if still disputed) or\n"
         "estimate (tengen's estimator at once)"},
        {"--sgf-dir", NULL, CLI_TEXT, "DIR", 0, 0, NULL, NULL, NULL, &o->sgf_dir,
         "one SGF per game, DIR/game-NNNNN.sgf (clock after every move)"},
        {"--results", NULL, CLI_TEXT, "FILE", 0, 0, NULL, NULL, NULL, &o->results_path,
         "one JSON object a line per finished game"},
        {"--resume", NULL, CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &o->resume,
         "continue the match recorded in --results FILE: its games\n"
         "are counted, the missing ones played"},
        {"--sprt", NULL, CLI_CALL, "E0,E1,A,B", 0, 0, NULL, read_sprt, "E0,E1,ALPHA,BETA", o,
         "stop as soon as the SPRT decides between Elo E0 and E1\n"
         "(first engine over second) with error rates A and B"},
        {"--engine-stderr", NULL, CLI_TEXT, "S", 0, 0, NULL, NULL, NULL, &engine_stderr,
         "engines' stderr: discard (default), inherit, or a file\n"
         "to append to"},
        {"--quiet", NULL, CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &o->quiet, "no progress line"},
    };
    const cli_command cmd = {.name = "match", .synopsis = match_synopsis, .epilogue = match_epilogue,
                             .options = options, .option_count = CLI_COUNT(options)};
    int r = cli_parse(&cmd, argc, argv);
    if (r)
        return r;
    o->tournament_given = tournament >= 0;
    o->tournament = tournament == 1 ? TG_TOURNAMENT_GAUNTLET : TG_TOURNAMENT_ROUND_ROBIN;
    o->nigiri = colors == 1;
    o->fixed_colors = colors == 2;
    o->game.dispute = dispute == 1 ? TG_DISPUTE_ESTIMATE : TG_DISPUTE_CLEANUP;
    o->game.lag_ms = lag_ms;
    /* the referee's 0 is "from the clock", < 0 none */
    o->game.prediction_ms = prediction_s > 0 ? (int64_t)prediction_s * 1000 : prediction_s == 0 ? -1 : 0;
    o->engine_stderr = !strcmp(engine_stderr, "discard") ? NULL : !strcmp(engine_stderr, "inherit") ? "-"
                                                                                                      : engine_stderr;
    return check_options(&cmd, o, rules, &komi);
}

/* ---- The score ------------------------------------------------------------------ */

typedef struct engine_tally {
    int games, wins, losses, draws;
    int black_games, black_wins, white_games, white_wins;
} engine_tally;

typedef struct match_run {
    match_options *opt;
    FILE *results;
    engine_tally tally[MAX_ENGINES];
    int reasons[TG_END_COUNT_];
    int finished, finished_now, total, running;
    tg_score_line first_vs_second; /* for Elo and SPRT in a two-engine match */
    int64_t started_ms;
    bool sprt_decided, tty;
    tg_sprt_verdict verdict;
    char error[256];
} match_run;

static void tally(match_run *run, const tg_game_record *r)
{
    int bw = tg_game_record_black_wins(r);
    engine_tally *b = &run->tally[r->black], *w = &run->tally[r->white];
    b->games++, w->games++;
    b->black_games++, w->white_games++;
    if (bw == 1) {
        b->wins++, w->losses++, b->black_wins++;
    } else if (bw == 0) {
        w->wins++, b->losses++, w->white_wins++;
    } else {
        b->draws++, w->draws++;
    }
    run->reasons[r->reason < TG_END_COUNT_ ? r->reason : 0]++;
    run->finished++;
    bool first_black = r->black == 0 && r->white == 1, first_white = r->black == 1 && r->white == 0;
    if (!first_black && !first_white)
        return;
    int first_wins = bw < 0 ? -1 : first_black ? bw : 1 - bw;
    if (first_wins == 1)
        run->first_vs_second.wins++;
    else if (first_wins == 0)
        run->first_vs_second.losses++;
    else
        run->first_vs_second.draws++;
}

static void format_duration(double seconds, char *buf, size_t len)
{
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else
        snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
}

static void progress(match_run *run)
{
    if (run->opt->quiet)
        return;
    double elapsed = (double)(tg_clock_now_ms() - run->started_ms) / 1000.0;
    char eta[32] = "?";
    if (run->finished_now > 0)
        format_duration(elapsed / run->finished_now * (run->total - run->finished), eta, sizeof eta);
    const match_options *o = run->opt;
    fprintf(stderr, "%s[%d/%d] ", run->tty ? "\r\033[K" : "", run->finished, run->total);
    if (o->engine_count == 2)
        fprintf(stderr, "%s %d - %d %s (draws %d)", o->engines[0].name,
                run->first_vs_second.wins, run->first_vs_second.losses, o->engines[1].name,
                run->first_vs_second.draws);
    else
        for (int i = 0; i < o->engine_count; i++)
            fprintf(stderr, "%s%s %.1f", i ? ", " : "", o->engines[i].name,
                    run->tally[i].wins + 0.5 * run->tally[i].draws);
    fprintf(stderr, "  running %d  ETA %s%s", run->running, eta, run->tty ? "" : "\n");
}

static bool sprt_step(match_run *run)
{
    if (!run->opt->sprt_on)
        return true;
    double llr, lower, upper;
    run->verdict = tg_sprt_test(&run->opt->sprt, &run->first_vs_second, &llr, &lower, &upper);
    run->sprt_decided = run->verdict != TG_SPRT_CONTINUE;
    return !run->sprt_decided;
}

/* The library's report callback: write, count, show; false stops the match. */
static bool on_game(void *ctx, const tg_game_record *r)
{
    match_run *run = ctx;
    run->running--;
    if (run->results) {
        char *line = tg_game_record_to_json(r);
        if (!line || fprintf(run->results, "%s\n", line) < 0 || fflush(run->results) != 0) {
            snprintf(run->error, sizeof run->error, "cannot write %s%s", run->opt->results_path,
                     line ? "" : ": out of memory");
            free(line);
            return false;
        }
        free(line);
    }
    run->finished_now++;
    tally(run, r);
    progress(run);
    return sprt_step(run);
}

static void on_start(void *ctx, const tg_scheduled_game *g)
{
    (void)g;
    match_run *run = ctx;
    run->running++;
    progress(run);
}

/* ---- The table ------------------------------------------------------------------ */

static void print_elo_line(const char *label, const tg_score_line *s)
{
    double elo, low, high;
    tg_elo(s, &elo, &low, &high);
    printf("%s: %+.1f Elo, 95%% interval [%+.1f, %+.1f] (%d games, LOS %.1f%%)\n", label, elo,
           low, high, s->wins + s->draws + s->losses, 100.0 * tg_elo_los(s));
}

static void print_table(const match_run *run)
{
    const match_options *o = run->opt;
    printf("\n%-16s %6s %6s %6s %6s %7s %13s %13s\n", "engine", "games", "wins", "losses",
           "draws", "score", "as black", "as white");
    for (int i = 0; i < o->engine_count; i++) {
        const engine_tally *t = &run->tally[i];
        char black[24], white[24];
        snprintf(black, sizeof black, "%d/%d", t->black_wins, t->black_games);
        snprintf(white, sizeof white, "%d/%d", t->white_wins, t->white_games);
        double score = t->games ? 100.0 * (t->wins + 0.5 * t->draws) / t->games : 0;
        printf("%-16s %6d %6d %6d %6d %6.1f%% %13s %13s\n", o->engines[i].name, t->games,
               t->wins, t->losses, t->draws, score, black, white);
    }
    printf("\nendings:");
    for (int r = 0; r < TG_END_COUNT_; r++)
        if (run->reasons[r])
            printf(" %s %d", tg_end_reason_name((tg_end_reason)r), run->reasons[r]);
    printf("\n\n");
    if (o->engine_count == 2) {
        char label[160];
        snprintf(label, sizeof label, "%s vs %s", o->engines[0].name, o->engines[1].name);
        print_elo_line(label, &run->first_vs_second);
    } else {
        for (int i = 0; i < o->engine_count; i++) {
            const engine_tally *t = &run->tally[i];
            tg_score_line s = {t->wins, t->draws, t->losses};
            char label[160];
            snprintf(label, sizeof label, "%s vs the field", o->engines[i].name);
            print_elo_line(label, &s);
        }
    }
    if (o->sprt_on) {
        double llr, lower, upper;
        tg_sprt_verdict v = tg_sprt_test(&o->sprt, &run->first_vs_second, &llr, &lower, &upper);
        printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f [%.2f, %.2f] %s\n", o->sprt.elo0,
               o->sprt.elo1, o->sprt.alpha, o->sprt.beta, llr, lower, upper,
               v == TG_SPRT_H1 ? "H1 accepted" : v == TG_SPRT_H0 ? "H0 accepted" : "undecided");
    }
}

/* ---- Resuming --------------------------------------------------------------------- */

static int engine_index(const match_options *o, const char *name)
{
    for (int i = 0; i < o->engine_count; i++)
        if (!strcmp(o->engines[i].name, name))
            return i;
    return -1;
}

/* One line of an earlier run: checked against the schedule, counted, marked done. */
static int resume_line(match_run *run, const char *line, int number,
                       const tg_scheduled_game *schedule, int count, bool *done)
{
    tg_game_record r;
    if (tg_game_record_from_json(line, &r) != TG_OK) {
        fprintf(stderr, "tengen match: %s line %d: not a game record\n", run->opt->results_path, number);
        return -1;
    }
    r.black = engine_index(run->opt, r.black_name);
    r.white = engine_index(run->opt, r.white_name);
    if (r.game > count || r.black != schedule[r.game - 1].black ||
        r.white != schedule[r.game - 1].white) {
        fprintf(stderr, "tengen match: %s line %d: game %d is not this match's (other engines, "
                        "options or seed?)\n", run->opt->results_path, number, r.game);
        return -1;
    }
    if (!done[r.game - 1]) {
        done[r.game - 1] = true;
        tally(run, &r);
    }
    return 0;
}

static int load_previous(match_run *run, const tg_scheduled_game *schedule, int count, bool *done)
{
    FILE *f = fopen(run->opt->results_path, "r");
    if (!f)
        return errno == ENOENT ? 0 : -1;
    char line[8192];
    int number = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        number++;
        if (strspn(line, " \t\r\n") != strlen(line))
            rc = resume_line(run, line, number, schedule, count, done);
    }
    fclose(f);
    return rc;
}

static int open_results(match_run *run, const tg_scheduled_game *schedule, int count, bool *done)
{
    const char *path = run->opt->results_path;
    if (!path)
        return 0;
    struct stat st;
    if (!run->opt->resume && stat(path, &st) == 0 && st.st_size > 0) {
        fprintf(stderr, "tengen match: %s exists; add --resume to continue it, or remove it\n", path);
        return -1;
    }
    if (run->opt->resume && load_previous(run, schedule, count, done) != 0)
        return -1;
    run->results = fopen(path, "a");
    if (!run->results) {
        fprintf(stderr, "tengen match: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- Running ------------------------------------------------------------------------ */

static atomic_int interrupted;
static atomic_int stop_flag;

static void on_sigint(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
    atomic_store(&stop_flag, 1);
    signal(SIGINT, SIG_DFL); /* a second Ctrl-C kills at once */
}

static int load_openings(match_options *o, tg_openings *openings)
{
    memset(openings, 0, sizeof *openings);
    if (!o->openings_path)
        return 0;
    size_t len = 0;
    char *text = cli_read_file(o->openings_path, &len);
    if (!text) {
        fprintf(stderr, "tengen match: cannot read %s: %s\n", o->openings_path, strerror(errno));
        return -1;
    }
    char err[256] = "out of memory";
    tg_status st =
        tg_openings_parse(text, len, o->game.size, &o->game.rules, o->opening_moves, openings, err, sizeof err);
    free(text);
    if (st != TG_OK)
        fprintf(stderr, "tengen match: %s: %s\n", o->openings_path, err);
    return st == TG_OK ? 0 : -1;
}

static int prepare_output(const match_options *o)
{
    if (o->sgf_dir && mkdir(o->sgf_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "tengen match: cannot create %s: %s\n", o->sgf_dir, strerror(errno));
        return -1;
    }
    return 0;
}

static int run_schedule(match_run *run, const tg_openings *openings,
                        const tg_scheduled_game *schedule, int count, const bool *done)
{
    match_options *o = run->opt;
    tg_match_config mc = {.game = o->game, .engines = o->engines, .engine_count = o->engine_count,
                          .schedule = schedule, .schedule_len = count, .done = done,
                          .openings = (const tg_move *const *)openings->moves,
                          .opening_len = openings->len, .jobs = o->jobs,
                          .engine_stderr = o->engine_stderr, .quit_grace_ms = 1000,
                          .sgf_dir = o->sgf_dir, .stop = &stop_flag};
    char err[256];
    run->started_ms = tg_clock_now_ms();
    signal(SIGINT, on_sigint);
    signal(SIGPIPE, SIG_IGN);
    tg_status st = sprt_step(run) ? tg_match_run(&mc, on_game, on_start, run, err, sizeof err) : TG_OK;
    signal(SIGINT, SIG_DFL);
    if (!o->quiet && run->tty)
        fprintf(stderr, "\n");
    if (st != TG_OK || run->error[0]) {
        fprintf(stderr, "tengen match: %s\n", run->error[0] ? run->error : err);
        return 1;
    }
    if (atomic_load(&interrupted))
        fprintf(stderr, "tengen match: interrupted after %d of %d games; --resume continues\n",
                run->finished, run->total);
    return 0;
}

static int play_match(match_options *o, const tg_openings *openings)
{
    tg_schedule_config sc = {.tournament = o->tournament, .engines = o->engine_count,
                             .games = o->games, .openings = openings->count,
                             .nigiri = o->nigiri, .seed = o->seed, .fixed = o->fixed_colors};
    tg_scheduled_game *schedule;
    int count;
    if (tg_schedule_make(&sc, &schedule, &count) != TG_OK) {
        fprintf(stderr, "tengen match: cannot make the schedule\n");
        return 1;
    }
    bool *done = calloc((size_t)count, sizeof *done);
    match_run run = {.opt = o, .total = count, .tty = isatty(2)};
    int rc = done && open_results(&run, schedule, count, done) == 0 ? 0 : 1;
    if (rc == 0)
        rc = run_schedule(&run, openings, schedule, count, done);
    if (run.results)
        fclose(run.results);
    if (rc == 0)
        print_table(&run);
    free(done);
    free(schedule);
    return rc ? rc : atomic_load(&interrupted) ? 130 : 0;
}

int cmd_match(int argc, char **argv)
{
    match_options o;
    int rc = parse_match_options(argc, argv, &o);
    if (rc)
        return rc == CLI_HELP ? 0 : 2;
    tg_openings openings;
    if (load_openings(&o, &openings) != 0 || prepare_output(&o) != 0)
        return 1;
    atomic_store(&stop_flag, 0);
    atomic_store(&interrupted, 0);
    rc = play_match(&o, &openings);
    tg_openings_free(&openings);
    return rc;
}
