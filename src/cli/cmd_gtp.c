/*
 * cmd_gtp.c — `tengen gtp`: speaks the Go Text Protocol on standard input
 * and output, for GUIs (Sabaki, GoGui), servers (KGS, OGS bridges) and
 * referees.  The protocol itself lives in the library (tengen/gtp.h), the
 * search and the analysis commands behind it in src/engine_gtp; this front
 * end only parses the options, moves bytes, and gives the engine its move
 * generator and its file access for loadsgf and printsgf.
 *
 * Input is read in bounded chunks and fed a line at a time as soon as the
 * line ends, so a controller waiting for an answer is never kept waiting, a
 * line of any length is answered once without the reader going out of step,
 * and a streaming analysis (engine_gtp/gtp_analyze.c) can see that the next
 * line has arrived while it runs.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/cli_options.h"
#include "cli/cli_util.h"
#include "engine_gtp/gtp_analyze.h"
#include "engine_gtp/gtp_player.h"
#include "tengen/gtp.h"

/* loadsgf refuses files larger than this. */
#define MAX_SGF_FILE (64u << 20)

/* ---- Files ---------------------------------------------------------------- */

static tg_status read_file(void *ctx, const char *path, char **data, size_t *len)
{
    (void)ctx;
    FILE *f = fopen(path, "rb");
    if (!f)
        return TG_ERR_IO;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    tg_status st = buf ? TG_OK : TG_ERR_NO_MEMORY;
    while (st == TG_OK) {
        if (n == cap) {
            char *bigger = cap < MAX_SGF_FILE ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                st = cap < MAX_SGF_FILE ? TG_ERR_NO_MEMORY : TG_ERR_IO;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (st == TG_OK && ferror(f))
        st = TG_ERR_IO;
    fclose(f);
    if (st != TG_OK) {
        free(buf);
        return st;
    }
    *data = buf;
    *len = n;
    return TG_OK;
}

static tg_status write_file(void *ctx, const char *path, const char *data, size_t len)
{
    (void)ctx;
    FILE *f = fopen(path, "wb");
    if (!f)
        return TG_ERR_IO;
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    return ok ? TG_OK : TG_ERR_IO;
}

/* ---- Options -------------------------------------------------------------- */

static const char gtp_synopsis[] =
    "usage: tengen gtp [options]\n\n"
    "Speak the Go Text Protocol version 2 on stdin/stdout.\n\n";
static const char gtp_epilogue[] =
    "Besides the standard commands, tengen answers kgs-rules, kgs-time_settings,\n"
    "kgs-genmove_cleanup, printsgf, is_legal, list_stones, captures and\n"
    "tengen-rules [NAME | key=value ...]; `list_commands` lists them all.\n\n"
    "Analysis for GUIs (with the tree search):\n"
    "  lz-analyze [COLOR] [INTERVAL] [minmoves N] [maxmoves N]\n"
    "  kata-analyze [COLOR] [INTERVAL] [minmoves N] [maxmoves N] [ownership true]\n"
    "                  search and print a line of candidates (visits, winrate,\n"
    "                  principal variation; KataGo's format adds the score lead\n"
    "                  and ownership) every INTERVAL centiseconds until the next\n"
    "                  command arrives; --playouts, if given, caps the search\n"
    "  lz-genmove_analyze [COLOR] [INTERVAL] ..., kata-genmove_analyze ...\n"
    "                  genmove (same limits, pass and resignation; the move is\n"
    "                  played) printing those lines while it searches, then\n"
    "                  'play MOVE'; input does not stop it\n"
    "  gogui-analyze_commands, gogui-ownership [COLOR], tengen-candidates [COLOR]\n"
    "                  GoGui's analyze commands (ownership as influence, the\n"
    "                  best moves' winrates); gogui-interrupt: a '# interrupt'\n"
    "                  line stops their search\n";

static const char *const value_choices[] = {"off", "on", "auto", NULL}; /* tg_value_mode's order */

/* The engine's and the search's options from the command line: 0,
 * CLI_HELP or CLI_USAGE_ERROR (cli_options.h). */
static int parse_options(int argc, char **argv, tg_gtp_options *opt, gtp_player_config *cfg)
{
    int playouts = 0, max_memory_mb = (int)(cfg->search.max_memory >> 20), player = 0;
    int value = (int)cfg->search.value_function;
    uint64_t seed = cfg->search.seed;
    cli_komi komi = {0};
    const cli_option options[] = {
        CLI_OPT_RULES(&opt->rules, "ruleset: a preset (chinese, japanese, korean, aga,\n"
                                   "new-zealand, tromp-taylor, ancient) and/or key=value\n"
                                   "overrides, e.g. --rules 'japanese ko=positional';\n"
                                   "may be repeated (default: chinese)"),
        CLI_OPT_KOMI(&komi, "komi, an integer or half-integer (default: the rules')"),
        CLI_OPT_SIZE(&opt->size, "initial board size, 2..25 (default: 19)"),
        CLI_OPT_SEED(&seed, "random seed for move generation (default: 1); final_score\n"
                            "and final_status_list count as tengen score does, one\n"
                            "answer per position"),
        CLI_OPT_PLAYOUTS(&playouts, "playouts per move, 1..1000000000; with a clock or\n"
                                    "--time-per-move, whichever limit comes first\n"
                                    "(default: the clock decides; without one 10000 playouts\n"
                                    "or 10 s a move)"),
        CLI_OPT_TIME_PER_MOVE(&cfg->time_per_move, "seconds per move, ignoring the clock (0: the clock)"),
        CLI_OPT_THREADS(&cfg->search.threads, "search threads, 1..64 (default: 1)"),
        CLI_OPT_MAX_MEMORY(&max_memory_mb, "memory for the search tree in MiB, 2..1048576 (default:\n"
                                           "256); a full tree stops growing, it never fails"),
        {"--resign-threshold", NULL, CLI_REAL, "X", 0, 1, NULL, NULL, NULL, &cfg->search.resign_threshold,
         "resign when the winrate is below X three moves in a\n"
         "row, past the first quarter of the board (0..1, 0: never;\n"
         "default: 0.1)"},
        {"--lag", NULL, CLI_REAL, "S", 0, 60, NULL, NULL, NULL, &cfg->lag,
         "seconds kept in reserve on every move for the lag between\n"
         "the controller's clock and ours, 0..60 (default: 0.3)"},
        {"--value", NULL, CLI_CHOICE, "on|off|auto", 0, 0, value_choices, NULL, NULL, &value,
         "the learned value function beside the playouts, where\n"
         "one was trained for the board and komi (9x9, komi 7.5);\n"
         "auto (the default): on when a move's budget is a playout\n"
         "count alone (--playouts), off under a clock or\n"
         "--time-per-move, where its cost outweighs it"},
        CLI_OPT_MODEL("the move model's weights from FILE (a weights file that\n"
                      "tools/train_model writes) instead of the built-in ones"),
        CLI_OPT_VALUE_NET("a value network (a weights file of tools/train_value.py)\n"
                          "for the board size and komi it names, before the built-in"),
        CLI_OPT_POLICY_NET("a policy network (a weights file of tools/train_policy.py)\n"
                           "for the board size it names, its priors in the tree\n"
                           "instead of the move model's; off: none (default: the\n"
                           "built-in one for the board size, where there is one)"),
        CLI_OPT_POLICY_NET_VISITS(&cfg->search.policy_net_visits,
                                  "a node of the tree is given the policy network's priors\n"
                                  "once it has been visited N times, the root at once\n"
                                  "(1: every node as it is expanded; default: 8)"),
        CLI_OPT_POLICY_NET_BATCH(&cfg->search.policy_net_batch,
                                 "gather N of the policy network's evaluations across the\n"
                                 "search's threads into one batch (1: none, each evaluated\n"
                                 "where the search asks for it; the default)"),
        CLI_OPT_POLICY_NET_VALUE(&cfg->search.policy_net_value,
                                 "count the policy network's value head as N prior visits\n"
                                 "of a node when it is given the network's priors (0: off,\n"
                                 "the default)"),
        CLI_OPT_PLAYER(&player, "mcts (the tree search, default) or baseline (the flat\n"
                                "Monte-Carlo player of the core, fast, for tests)"),
    };
    const cli_command cmd = {.name = "gtp", .synopsis = gtp_synopsis, .epilogue = gtp_epilogue, .options = options,
                             .option_count = CLI_COUNT(options)};
    int r = cli_parse(&cmd, argc, argv);
    if (r)
        return r;
    cfg->playouts = playouts;
    cfg->search.seed = seed;
    cfg->search.max_memory = (size_t)max_memory_mb << 20;
    cfg->search.value_function = (tg_value_mode)value;
    cfg->baseline = player == 1;
    if (komi.given)
        opt->rules.komi2 = komi.komi2;
    return 0;
}

/* ---- Main loop ------------------------------------------------------------ */

static void write_answer(void *ctx, const char *text, size_t len)
{
    FILE *out = ctx;
    fwrite(text, 1, len, out);
    fflush(out);
}

/* Standard input, read with read(2) rather than stdio so that poll(2) tells
 * the truth about what is waiting: an analysis runs until the next line. */
typedef struct gtp_input {
    char buf[1 << 16];
    size_t start, end;  /* the bytes not yet fed are buf[start..end) */
    bool eof;
} gtp_input;

/* Read what has arrived (blocking until something has); false at the end
 * of input. */
static bool input_read(gtp_input *in)
{
    memmove(in->buf, in->buf + in->start, in->end - in->start);
    in->end -= in->start;
    in->start = 0;
    ssize_t n;
    do
        n = read(STDIN_FILENO, in->buf + in->end, sizeof in->buf - in->end);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
        in->eof = true;
        return false;
    }
    in->end += (size_t)n;
    return true;
}

/* Whether stdin has bytes (or its end, or an error) within timeout_ms. */
static bool stdin_ready(int timeout_ms)
{
    struct pollfd fd = {.fd = STDIN_FILENO, .events = POLLIN};
    int ready;
    do
        ready = poll(&fd, 1, timeout_ms);
    while (ready < 0 && errno == EINTR);
    return ready != 0;
}

/* gtp_analyzer.input_waiting: bytes not yet fed, the end of input, or
 * bytes (or a hang-up) on stdin within timeout_ms. */
static bool input_waiting(void *ctx, int timeout_ms)
{
    gtp_input *in = ctx;
    return in->start < in->end || in->eof || stdin_ready(timeout_ms);
}

/* gtp_analyzer.interrupt_requested: reads what stdin has ready into the
 * free end of the buffer (never moving the bytes there: the line being
 * executed points into them) and looks for a line "# interrupt" before
 * the next command (an interrupt after it is meant for that command). */
static bool interrupt_requested(void *ctx)
{
    gtp_input *in = ctx;
    if (!in->eof && in->end < sizeof in->buf && stdin_ready(0)) {
        ssize_t n = read(STDIN_FILENO, in->buf + in->end, sizeof in->buf - in->end);
        if (n > 0)
            in->end += (size_t)n;
        else if (n == 0 || errno != EINTR)
            in->eof = true;
    }
    static const char interrupt[] = "# interrupt";
    size_t i = in->start;
    while (i < in->end) {
        while (i < in->end && (in->buf[i] == ' ' || in->buf[i] == '\t' || in->buf[i] == '\r'))
            i++;
        if (i < in->end && in->buf[i] != '\n' && in->buf[i] != '#')
            return false; /* a command comes first */
        if (in->end - i >= sizeof interrupt - 1 && !memcmp(in->buf + i, interrupt, sizeof interrupt - 1))
            return true;
        char *lf = memchr(in->buf + i, '\n', in->end - i);
        i = lf ? (size_t)(lf - in->buf) + 1 : in->end;
    }
    return false;
}

/* Feed stdin to the engine a line (or a full buffer of a long one) at a
 * time, so that while a line is executed the next is still unread. */
static void serve(tg_gtp *gtp, gtp_input *in)
{
    for (;;) {
        char *line = in->buf + in->start;
        size_t pending = in->end - in->start;
        char *lf = memchr(line, '\n', pending);
        if (lf || pending == sizeof in->buf) {
            size_t n = lf ? (size_t)(lf - line) + 1 : pending;
            in->start += n;
            if (tg_gtp_feed(gtp, line, n, write_answer, stdout))
                return;
        } else if (!input_read(in)) {
            break;
        }
    }
    if (!tg_gtp_feed(gtp, in->buf + in->start, in->end - in->start, write_answer, stdout))
        tg_gtp_finish(gtp, write_answer, stdout);
}

/* The engine's warnings (loadsgf) for the person behind the controller. */
static void warn_on_stderr(void *ctx, const char *message)
{
    (void)ctx;
    fprintf(stderr, "tengen gtp: %s\n", message);
}

int cmd_gtp(int argc, char **argv)
{
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    gtp_player_config cfg;
    gtp_player_config_default(&cfg);
    int r = parse_options(argc, argv, &opt, &cfg);
    if (r)
        return r == CLI_HELP ? 0 : 2;
    opt.read_file = read_file;
    opt.write_file = write_file;
    opt.warn = warn_on_stderr;
    gtp_player player;
    if (!gtp_player_init(&player, &cfg)) {
        fprintf(stderr, "tengen gtp: out of memory for the search tree\n");
        return 1;
    }
    gtp_player_hook(&player, &opt.player);
    static gtp_input input;
    gtp_analyzer analyzer = {.player = &player, .input_waiting = input_waiting,
                             .interrupt_requested = interrupt_requested, .input_ctx = &input};
    opt.extensions = gtp_analyze_extensions(&analyzer, &opt.extension_count);
    opt.extension_ctx = &analyzer;
    tg_gtp *gtp = tg_gtp_new(&opt);
    if (!gtp) {
        gtp_player_free(&player);
        fprintf(stderr, "tengen gtp: out of memory\n");
        return 1;
    }
    serve(gtp, &input);
    tg_gtp_free(gtp);
    gtp_player_free(&player);
    return 0;
}
