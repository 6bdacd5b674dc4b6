/*
 * cmd_gtp.c — `tengen gtp`: speaks the Go Text Protocol on standard input
 * and output, for GUIs (Sabaki, GoGui), servers (KGS, OGS bridges) and
 * referees.  The protocol itself lives in the library (tengen/gtp.h); this
 * front end only parses the options, moves bytes, and gives the engine its
 * file access for loadsgf and printsgf.
 *
 * Input is read in bounded chunks and each chunk is fed as soon as a line
 * ends, so a controller waiting for an answer is never kept waiting, and a
 * line of any length is answered once without the reader going out of step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
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
            "  --seed N        random seed for move generation and scoring (default: 1)\n"
            "  --playouts N    playouts per move decision and per dead-stone estimate\n"
            "                  (default: built in)\n"
            "  -h, --help      show this help\n\n"
            "Besides the standard commands, tengen answers kgs-rules, kgs-time_settings,\n"
            "kgs-genmove_cleanup, printsgf, is_legal, list_stones, captures and\n"
            "tengen-rules [NAME | key=value ...]; `list_commands` lists them all.\n");
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
static bool parse_options(int argc, char **argv, tg_gtp_options *opt, const char **komi)
{
    for (int i = 1; i < argc; i++) {
        bool missing = false;
        const char *v;
        long long n;
        char err[160] = "";
        if ((v = option_value(argc, argv, &i, "--rules", &missing))) {
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
            opt->seed = (uint64_t)n;
        } else if ((v = option_value(argc, argv, &i, "--playouts", &missing))) {
            if (!parse_count(v, 1000000000, &n)) {
                fprintf(stderr, "tengen gtp: --playouts must be a non-negative integer\n");
                return false;
            }
            opt->playouts = (int)n;
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

/* Feed stdin to the engine, a line (or a full chunk of a long one) at a time. */
static void serve(tg_gtp *gtp)
{
    static char chunk[1 << 16];
    size_t n = 0;
    int c;
    while ((c = getc(stdin)) != EOF) {
        chunk[n++] = (char)c;
        if (c != '\n' && n < sizeof chunk)
            continue;
        bool quit = tg_gtp_feed(gtp, chunk, n, write_answer, stdout);
        n = 0;
        if (quit)
            return;
    }
    if (!tg_gtp_feed(gtp, chunk, n, write_answer, stdout))
        tg_gtp_finish(gtp, write_answer, stdout);
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
    const char *komi = NULL;
    if (!parse_options(argc, argv, &opt, &komi)) {
        fprintf(stderr, "`tengen gtp --help` lists the options.\n");
        return 2;
    }
    if (komi && tg_komi_parse(komi, &opt.rules.komi2) != TG_OK) {
        fprintf(stderr, "tengen gtp: --komi must be an integer or half-integer, |komi| <= 400\n");
        return 2;
    }
    opt.read_file = read_file;
    opt.write_file = write_file;
    tg_gtp *gtp = tg_gtp_new(&opt);
    if (!gtp) {
        fprintf(stderr, "tengen gtp: out of memory\n");
        return 1;
    }
    serve(gtp);
    tg_gtp_free(gtp);
    return 0;
}
