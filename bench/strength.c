/*
 * strength.c — how strong is tengen's search?  Plays the matches of issue 4
 * against GNU Go through `tengen match` (the referee: every move checked,
 * colours alternating, two games at once with -j 2) and reports tengen's
 * win rate with its 95% interval (Wilson) and the Elo difference with its
 * interval (from the referee's statistics).
 *
 *   9x9-time      9x9, komi 7.5, Chinese rules, GNU Go 3.8 level 10,
 *                 tengen 0.5 s a move on 1 thread            (target >= 95%)
 *   19x19-time    the same on 19x19 with 2 s a move           (target >= 80%)
 *   9x9-playouts  9x9 with 1,000 playouts a move: the search's efficiency,
 *                 independent of speed                       (target >= 85%)
 *   13x13-time    13x13 with 1 s a move: the size between, which issue 4
 *                 sets no target for (not part of `all`)
 * and issue 53's (the 19x19 policy network; not part of `all`):
 *   19x19-main    19x19, tengen 0.25 s a move against today's main at the
 *                 same time, given by --opponent (e.g. 'main=PATH gtp
 *                 --threads 1 --time-per-move 0.25'), 100 games (target
 *                 >= 60%: the acceptance line)
 *   19x19-h5      19x19, tengen 0.25 s a move as White against GNU Go
 *                 taking 5 handicap stones, komi 0.5, 40 games (>= 50%)
 *   19x19-pachi   19x19, tengen 0.25 s a move against Pachi at 2 s, given
 *                 by --opponent, 40 games (>= 50%)
 *
 * A benchmark program, not a test: it prints figures and asserts nothing.
 * usage: bench_strength [--match NAME|all] [--games N] [-j N]
 *                       [--tengen PATH] [--gnugo PATH] [--out DIR] [--level L]
 *                       [--tengen-args ARGS] [--opponent NAME=COMMAND]
 * --tengen-args appends options to tengen's `gtp` command after the match's
 * own, so they override them: `--match 9x9-playouts --tengen-args
 * "--playouts 4000"` measures the same match at another budget.
 * --opponent replaces GNU Go by another GTP engine, its command whole (its
 * budget included): `--opponent 'pachi=cd DIR && exec ./pachi -t =1000
 * threads=1'` plays tengen against Pachi, built locally, at the same 1,000
 * playouts (the match's target is then GNU Go's, printed for reference).
 * The results (JSON lines) and the SGF files stay in --out (default
 * ./strength-results) for inspection; an existing results file is resumed,
 * so a match with other --tengen-args needs its own --out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tengen/referee.h"

typedef struct match_spec {
    const char *name;
    int size;
    const char *tengen_args;
    int default_games;
    double target; /* 0: none */
    bool in_all;   /* played by --match all */
    /* the handicap the opponent takes as Black every game (0: none, colours
     * alternate), and the komi ("7.5" where NULL) */
    int handicap;
    const char *komi;
    bool needs_opponent; /* no match against GNU Go: --opponent names the engine */
} match_spec;

static const match_spec matches[] = {
    {"9x9-time", 9, "--threads 1 --time-per-move 0.5", 100, 0.95, true, 0, NULL, false},
    {"19x19-time", 19, "--threads 1 --time-per-move 2", 20, 0.80, true, 0, NULL, false},
    {"9x9-playouts", 9, "--threads 1 --playouts 1000", 100, 0.85, true, 0, NULL, false},
    {"13x13-time", 13, "--threads 1 --time-per-move 1", 20, 0, false, 0, NULL, false},
    {"19x19-main", 19, "--threads 1 --time-per-move 0.25", 100, 0.60, false, 0, NULL, true},
    {"19x19-h5", 19, "--threads 1 --time-per-move 0.25", 40, 0.50, false, 5, "0.5", false},
    {"19x19-pachi", 19, "--threads 1 --time-per-move 0.25", 40, 0.50, false, 0, NULL, true},
};

typedef struct options {
    const char *match, *tengen, *gnugo, *out, *tengen_args;
    const char *opponent; /* NAME=COMMAND instead of GNU Go, or NULL */
    int games, jobs, level;
} options;

/* Wilson score interval for p = wins/n at 95%. */
static void wilson(double wins, double n, double *low, double *high)
{
    const double z = 1.96;
    double p = wins / n, d = 1 + z * z / n;
    double centre = (p + z * z / (2 * n)) / d;
    double half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
    *low = centre - half;
    *high = centre + half;
}

/* Count tengen's results in the results file. */
static int tally(const char *path, tg_score_line *s)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    memset(s, 0, sizeof *s);
    while (fgets(line, sizeof line, f)) {
        tg_game_record r;
        if (tg_game_record_from_json(line, &r) != TG_OK)
            continue;
        int black_wins = tg_game_record_black_wins(&r);
        bool tengen_black = !strcmp(r.black_name, "tengen");
        if (black_wins < 0)
            s->draws++;
        else if ((black_wins == 1) == tengen_black)
            s->wins++;
        else
            s->losses++;
    }
    fclose(f);
    return 0;
}

static int run_match(const match_spec *m, const options *o)
{
    char results[1024], sgf_dir[1024], command[8192];
    int games = o->games > 0 ? o->games : m->default_games;
    snprintf(sgf_dir, sizeof sgf_dir, "%s/%s-sgf", o->out, m->name);
    snprintf(results, sizeof results, "%s/%s.jsonl", o->out, m->name);
    mkdir(o->out, 0777);
    mkdir(sgf_dir, 0777);
    struct stat st;
    bool resume = stat(results, &st) == 0;
    /* GNU Go unless --opponent names another engine; `who` names it in the Elo line */
    char gnugo[2048], who[256];
    const char *opponent = o->opponent;
    if (m->needs_opponent && !opponent) {
        fprintf(stderr, "bench_strength: --match %s plays the engine --opponent names\n", m->name);
        return 1;
    }
    if (opponent) {
        snprintf(who, sizeof who, "%.*s", (int)strcspn(opponent, "="), opponent);
    } else {
        snprintf(gnugo, sizeof gnugo, "gnugo=%s --mode gtp --level %d --chinese-rules", o->gnugo, o->level);
        snprintf(who, sizeof who, "GNU Go level %d", o->level);
        opponent = gnugo;
    }
    /* a handicap match: the opponent named first, Black every game */
    char tengen[4096], handicap[64] = "";
    snprintf(tengen, sizeof tengen, "tengen=%s gtp %s %s", o->tengen, m->tengen_args, o->tengen_args);
    if (m->handicap)
        snprintf(handicap, sizeof handicap, " --handicap %d --colors fixed", m->handicap);
    int len = snprintf(command, sizeof command,
                       "'%s' match --engine '%s' --engine '%s' "
                       "--games %d --size %d --komi %s%s --rules chinese -j %d --seed 1 "
                       "--results '%s' --sgf-dir '%s'%s",
                       o->tengen, m->handicap ? opponent : tengen, m->handicap ? tengen : opponent, games, m->size,
                       m->komi ? m->komi : "7.5", handicap, o->jobs, results, sgf_dir, resume ? " --resume" : "");
    if (len < 0 || (size_t)len >= sizeof command) {
        fprintf(stderr, "bench_strength: the match's command line is too long\n");
        return 1;
    }
    printf("# %s: %s\n", m->name, command);
    fflush(stdout);
    int status = system(command);
    tg_score_line s;
    if (tally(results, &s) != 0) {
        fprintf(stderr, "bench_strength: no results in %s (tengen match exit status %d)\n", results, status);
        return 1;
    }
    int n = s.wins + s.draws + s.losses;
    if (n == 0)
        return 1;
    double rate = (s.wins + 0.5 * s.draws) / n, low, high, elo, elo_low, elo_high;
    wilson(s.wins + 0.5 * s.draws, n, &low, &high);
    tg_elo(&s, &elo, &elo_low, &elo_high);
    char target[32] = "no target";
    if (m->target > 0)
        snprintf(target, sizeof target, "target %.2f", m->target);
    printf("%s_winrate %.3f (95%% interval %.3f..%.3f; %d won, %d drawn, %d lost of %d; %s)\n", m->name,
           rate, low, high, s.wins, s.draws, s.losses, n, target);
    printf("%s_elo %+.0f (95%% interval %+.0f..%+.0f) over %s\n", m->name, elo, elo_low, elo_high, who);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_strength [--match 9x9-time|19x19-time|9x9-playouts|13x13-time|19x19-main|\n"
                    "                       19x19-h5|19x19-pachi|all]\n"
                    "                      [--games N] [-j N] [--tengen PATH] [--gnugo PATH] [--out DIR] [--level L]\n"
                    "                      [--tengen-args ARGS] [--opponent NAME=COMMAND]\n");
    return 2;
}

int main(int argc, char **argv)
{
    options o = {"9x9-playouts", "build/tengen", "/usr/games/gnugo", "strength-results", "", NULL, 0, 2, 10};
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage();
        if (!strcmp(a, "--match"))
            o.match = v;
        else if (!strcmp(a, "--games"))
            o.games = atoi(v);
        else if (!strcmp(a, "-j"))
            o.jobs = atoi(v);
        else if (!strcmp(a, "--tengen"))
            o.tengen = v;
        else if (!strcmp(a, "--gnugo"))
            o.gnugo = v;
        else if (!strcmp(a, "--out"))
            o.out = v;
        else if (!strcmp(a, "--level"))
            o.level = atoi(v);
        else if (!strcmp(a, "--tengen-args"))
            o.tengen_args = v;
        else if (!strcmp(a, "--opponent"))
            o.opponent = v;
        else
            return usage();
    }
    if (strchr(o.tengen_args, '\'')) {
        fprintf(stderr, "bench_strength: --tengen-args cannot hold a single quote\n");
        return 2;
    }
    if (o.opponent) {
        const char *eq = strchr(o.opponent, '=');
        if (!eq || eq == o.opponent || !eq[1] || strchr(o.opponent, '\'') ||
            (eq - o.opponent == 6 && !strncmp(o.opponent, "tengen", 6))) {
            fprintf(stderr, "bench_strength: --opponent wants NAME=COMMAND, a name other than tengen and no "
                            "single quote\n");
            return 2;
        }
    }
    if (o.jobs < 1)
        o.jobs = 1;
    int failures = 0, ran = 0;
    for (size_t k = 0; k < sizeof matches / sizeof matches[0]; k++) {
        bool all = !strcmp(o.match, "all");
        if (all ? !matches[k].in_all : strcmp(o.match, matches[k].name) != 0)
            continue;
        ran++;
        failures += run_match(&matches[k], &o);
    }
    if (!ran)
        return usage();
    return failures ? 1 : 0;
}
