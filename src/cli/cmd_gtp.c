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
#include "cli/cli_util.h"
#include "engine_gtp/gtp_analyze.h"
#include "engine_gtp/gtp_player.h"
#include "tengen/gtp.h"

/* loadsgf refuses files larger than this. */
#define MAX_SGF_FILE (64u << 20)

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tengen gtp [options]\n\n"
            "Speak the Go Text Protocol version 2 on stdin/stdout.\n\n"
            "options:\n"
            "  --rules TEXT    ruleset: a preset (chinese, japanese, korean, aga,\n"
            "                  new-zealand, tromp-taylor, ancient) and/or key=value\n"
            "                  overrides, e.g. --rules 'japanese ko=positional';\n"
            "                  may be repeated (default: chinese)\n"
            "  --komi K        komi, an integer or half-integer (default: the rules')\n"
            "  --size N        initial board size, 2..25 (default: 19)\n"
            "  --seed N        random seed for move generation (default: 1); final_score\n"
            "                  and final_status_list count as tengen score does, one\n"
            "                  answer per position\n"
            "  --playouts N    playouts per move; with a\n"
            "                  clock or --time-per-move, whichever limit comes first\n"
            "                  (default: the clock decides; without one 10000 playouts\n"
            "                  or 10 s a move)\n"
            "  --time-per-move S  seconds per move, ignoring the clock\n"
            "  --threads N     search threads (default: 1)\n"
            "  --max-memory MB memory for the search tree in MiB (default: 256); a full\n"
            "                  tree stops growing, it never fails\n"
            "  --resign-threshold X  resign when the winrate is below X three moves in a\n"
            "                  row, past the first quarter of the board (0..1, 0: never;\n"
            "                  default: 0.1)\n"
            "  --lag S         seconds kept in reserve on every move for the lag between\n"
            "                  the controller's clock and ours (default: 0.3)\n"
            "  --value on|off|auto  the learned value function beside the playouts, where\n"
            "                  one was trained for the board and komi (9x9, komi 7.5);\n"
            "                  auto (the default): on when a move's budget is a playout\n"
            "                  count alone (--playouts), off under a clock or\n"
            "                  --time-per-move, where its cost outweighs it\n"
            "  --model FILE    the move model's weights from FILE (a weights file that\n"
            "                  tools/train_model writes) instead of the built-in ones\n"
            "  --value-net FILE  a value network (a weights file of tools/train_value.py)\n"
            "                  for the board size and komi it names, before the built-in\n"
            "  --player NAME   mcts (the tree search, default) or baseline (the flat\n"
            "                  Monte-Carlo player of the core, fast, for tests)\n"
            "  -h, --help      show this help\n\n"
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
            "                  line stops their search\n");
}

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

/* The value of option `name` at argv[*i] ("--name V" or "--name=V"), or
 * NULL when argv[*i] is another option. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

static bool parse_count(const char *s, long long max, long long *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || v < 0 || v > max)
        return false;
    *out = v;
    return true;
}

/* Fills opt from the command line; prints why and returns false on error. */
static bool parse_seconds(const char *s, double max, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !(v >= 0) || v > max)
        return false;
    *out = v;
    return true;
}

/* The search's options; false when argv[*i] is not one of them. */
static bool parse_search_option(int argc, char **argv, int *i, gtp_player_config *cfg, bool *ok)
{
    bool missing = false;
    const char *v;
    long long n;
    double x;
    *ok = true;
    if ((v = option_value(argc, argv, i, "--threads", &missing))) {
        if (!(*ok = parse_count(v, 64, &n) && n >= 1))
            fprintf(stderr, "tengen gtp: --threads must be 1..64\n");
        else
            cfg->search.threads = (int)n;
    } else if ((v = option_value(argc, argv, i, "--max-memory", &missing))) {
        if (!(*ok = parse_count(v, 1 << 20, &n) && n >= 2))
            fprintf(stderr, "tengen gtp: --max-memory must be 2..1048576 (MiB)\n");
        else
            cfg->search.max_memory = (size_t)n << 20;
    } else if ((v = option_value(argc, argv, i, "--time-per-move", &missing))) {
        if (!(*ok = parse_seconds(v, 86400, &cfg->time_per_move)))
            fprintf(stderr, "tengen gtp: --time-per-move must be 0..86400 seconds\n");
    } else if ((v = option_value(argc, argv, i, "--lag", &missing))) {
        if (!(*ok = parse_seconds(v, 60, &cfg->lag)))
            fprintf(stderr, "tengen gtp: --lag must be 0..60 seconds\n");
    } else if ((v = option_value(argc, argv, i, "--resign-threshold", &missing))) {
        if (!(*ok = parse_seconds(v, 1, &x)))
            fprintf(stderr, "tengen gtp: --resign-threshold must be 0..1\n");
        else
            cfg->search.resign_threshold = x;
    } else if ((v = option_value(argc, argv, i, "--value", &missing))) {
        if (!strcmp(v, "on"))
            cfg->search.value_function = TG_VALUE_ON;
        else if (!strcmp(v, "off"))
            cfg->search.value_function = TG_VALUE_OFF;
        else if (!strcmp(v, "auto"))
            cfg->search.value_function = TG_VALUE_AUTO;
        else {
            *ok = false;
            fprintf(stderr, "tengen gtp: --value must be on, off or auto\n");
        }
    } else if ((v = option_value(argc, argv, i, "--model", &missing))) {
        *ok = cli_load_weights("gtp", "--model", v) == 0;
    } else if ((v = option_value(argc, argv, i, "--value-net", &missing))) {
        *ok = cli_load_weights("gtp", "--value-net", v) == 0;
    } else if ((v = option_value(argc, argv, i, "--player", &missing))) {
        cfg->baseline = !strcmp(v, "baseline");
        if (!(*ok = cfg->baseline || !strcmp(v, "mcts")))
            fprintf(stderr, "tengen gtp: --player must be mcts or baseline\n");
    } else {
        if (missing) {
            fprintf(stderr, "tengen gtp: missing value for '%s'\n", argv[*i]);
            *ok = false;
            return true;
        }
        return false;
    }
    return true;
}

static bool parse_options(int argc, char **argv, tg_gtp_options *opt, gtp_player_config *cfg,
                          const char **komi)
{
    for (int i = 1; i < argc; i++) {
        bool missing = false;
        const char *v;
        long long n;
        char err[160] = "";
        bool ok;
        if (parse_search_option(argc, argv, &i, cfg, &ok)) {
            if (!ok)
                return false;
        } else if ((v = option_value(argc, argv, &i, "--rules", &missing))) {
            if (tg_rules_apply(&opt->rules, v, err, sizeof err) != TG_OK) {
                fprintf(stderr, "tengen gtp: --rules: %s\n", err[0] ? err : "invalid rules");
                return false;
            }
        } else if ((v = option_value(argc, argv, &i, "--komi", &missing))) {
            *komi = v;
        } else if ((v = option_value(argc, argv, &i, "--size", &missing))) {
            if (!parse_count(v, TG_MAX_SIZE, &n) || n < TG_MIN_SIZE) {
                fprintf(stderr, "tengen gtp: --size must be %d..%d\n", TG_MIN_SIZE, TG_MAX_SIZE);
                return false;
            }
            opt->size = (int)n;
        } else if ((v = option_value(argc, argv, &i, "--seed", &missing))) {
            if (!parse_count(v, INT64_MAX, &n)) {
                fprintf(stderr, "tengen gtp: --seed must be a non-negative integer\n");
                return false;
            }
            cfg->search.seed = (uint64_t)n;
        } else if ((v = option_value(argc, argv, &i, "--playouts", &missing))) {
            if (!parse_count(v, 1000000000, &n)) {
                fprintf(stderr, "tengen gtp: --playouts must be a non-negative integer\n");
                return false;
            }
            cfg->playouts = (int)n;
        } else {
            fprintf(stderr, "tengen gtp: %s '%s'\n", missing ? "missing value for" : "unknown option",
                    argv[i]);
            return false;
        }
    }
    return true;
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
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    gtp_player_config cfg;
    gtp_player_config_default(&cfg);
    const char *komi = NULL;
    if (!parse_options(argc, argv, &opt, &cfg, &komi)) {
        fprintf(stderr, "`tengen gtp --help` lists the options.\n");
        return 2;
    }
    if (komi && tg_komi_parse(komi, &opt.rules.komi2) != TG_OK) {
        fprintf(stderr, "tengen gtp: --komi must be an integer or half-integer, |komi| <= 400\n");
        return 2;
    }
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
