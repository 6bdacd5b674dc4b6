/*
 * cli_options.c — the option parser of every command (see cli_options.h):
 * one pass over argv by the command's table, one wording for every error,
 * and the help printed from the same table.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_options.h"
#include "cli/cli_util.h"
#include "tengen/clock.h"
#include "tengen/rules.h"
#include "tengen/search.h"

#define HELP_COLUMN 20 /* where an option's help text starts */

const char *const cli_player_choices[] = {"mcts", "baseline", NULL};

int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tengen %s: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_USAGE_ERROR;
}

/* ---- Values ----------------------------------------------------------------- */

static bool read_integer(const char *text, double min, double max, int *out)
{
    return cli_parse_int(text, (int)min, (int)max, out) == 0;
}

static bool read_seed(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || text[0] == '+' || text[0] == ' ')
        return false;
    *out = (uint64_t)v;
    return true;
}

static bool read_real(const char *text, double min, double max, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !(v >= min && v <= max))
        return false;
    *out = v;
    return true;
}

static bool read_choice(const char *text, const char *const *choices, int *out)
{
    for (int i = 0; choices[i]; i++)
        if (!strcasecmp(text, choices[i])) {
            *out = i;
            return true;
        }
    return false;
}

/* What the option accepts, for its error: "an integer in 1..64". */
static void describe(const cli_option *o, char *buf, size_t len)
{
    size_t used = 0;
    switch (o->kind) {
    case CLI_INT:
        snprintf(buf, len, "an integer in %.0f..%.0f", o->min, o->max);
        break;
    case CLI_SEED:
        snprintf(buf, len, "an integer in 0..%" PRIu64, UINT64_MAX);
        break;
    case CLI_REAL:
        snprintf(buf, len, "a number in %g..%g", o->min, o->max);
        break;
    case CLI_CHOICE:
        buf[0] = '\0';
        for (int i = 0; o->choices[i] && used < len; i++) {
            const char *sep = i == 0 ? "" : o->choices[i + 1] ? ", " : " or ";
            used += (size_t)snprintf(buf + used, len - used, "%s%s", sep, o->choices[i]);
        }
        break;
    default:
        snprintf(buf, len, "%s", o->expects ? o->expects : "a value");
        break;
    }
}

/* Store the value of option o; false after saying why not. */
static bool store(const cli_command *cmd, const cli_option *o, const char *value)
{
    char err[256] = "";
    bool ok = false;
    switch (o->kind) {
    case CLI_FLAG:
        return true;
    case CLI_INT:
        ok = read_integer(value, o->min, o->max, o->dest);
        break;
    case CLI_SEED:
        ok = read_seed(value, o->dest);
        break;
    case CLI_REAL:
        ok = read_real(value, o->min, o->max, o->dest);
        break;
    case CLI_TEXT:
        *(const char **)o->dest = value;
        ok = true;
        break;
    case CLI_CHOICE:
        ok = read_choice(value, o->choices, o->dest);
        break;
    case CLI_CALL:
        ok = o->call(o->dest, value, err, sizeof err) == 0;
        break;
    }
    if (ok)
        return true;
    if (!err[0]) {
        char what[200];
        describe(o, what, sizeof what);
        snprintf(err, sizeof err, "expected %s", what);
    }
    cli_usage_error(cmd, "bad value '%s' for %s: %s", value, o->name, err);
    return false;
}

/* ---- The command line ------------------------------------------------------- */

static bool is_help(const char *arg) { return !strcmp(arg, "-h") || !strcmp(arg, "--help"); }

/* The option argv text names ("--name" or "--name=value": *value set). */
static const cli_option *find_option(const cli_command *cmd, const char *arg, const char **value)
{
    const char *eq = strchr(arg, '=');
    size_t n = eq && arg[1] == '-' ? (size_t)(eq - arg) : strlen(arg);
    *value = n < strlen(arg) ? arg + n + 1 : NULL;
    for (int i = 0; i < cmd->option_count; i++) {
        const cli_option *o = &cmd->options[i];
        if ((strlen(o->name) == n && !strncmp(o->name, arg, n)) ||
            (o->alias && strlen(o->alias) == n && !strncmp(o->alias, arg, n)))
            return o;
    }
    return NULL;
}

int cli_parse(const cli_command *cmd, int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i])) {
            cli_print_help(cmd, stdout);
            return CLI_HELP;
        }
    if (cmd->operand_count)
        *cmd->operand_count = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            if (!cmd->operand_count || *cmd->operand_count >= cmd->max_operands)
                return cli_usage_error(cmd, "unexpected argument '%s' (see tengen %s --help)", arg, cmd->name);
            cmd->operands[(*cmd->operand_count)++] = arg;
            continue;
        }
        const char *value;
        const cli_option *o = find_option(cmd, arg, &value);
        if (!o)
            return cli_usage_error(cmd, "unknown option '%s' (see tengen %s --help)", arg, cmd->name);
        if (o->kind == CLI_FLAG) {
            if (value)
                return cli_usage_error(cmd, "%s takes no value", o->name);
            *(bool *)o->dest = true;
            continue;
        }
        if (!value) {
            if (i + 1 >= argc)
                return cli_usage_error(cmd, "%s needs a value (see tengen %s --help)", o->name, cmd->name);
            value = argv[++i];
        }
        if (!store(cmd, o, value))
            return CLI_USAGE_ERROR;
    }
    return 0;
}

void cli_print_help(const cli_command *cmd, FILE *out)
{
    fputs(cmd->synopsis, out);
    if (cmd->option_count)
        fputs("options:\n", out);
    for (int i = 0; i < cmd->option_count; i++) {
        const cli_option *o = &cmd->options[i];
        char left[64];
        snprintf(left, sizeof left, "  %s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
                 o->value_name ? " " : "", o->value_name ? o->value_name : "");
        int width = (int)strlen(left);
        fprintf(out, "%s%*s", left, width < HELP_COLUMN - 1 ? HELP_COLUMN - width : 2, "");
        for (const char *line = o->help; *line;) {
            const char *nl = strchr(line, '\n');
            int n = nl ? (int)(nl - line) : (int)strlen(line);
            fprintf(out, "%.*s\n", n, line);
            line += n;
            if (*line == '\n' && *++line)
                fprintf(out, "%*s", HELP_COLUMN, "");
        }
    }
    fprintf(out, "  -h, --help%*sthis help\n", HELP_COLUMN - 12, "");
    if (cmd->epilogue)
        fprintf(out, "\n%s", cmd->epilogue);
}

/* ---- The shared options' readers ---------------------------------------------- */

int cli_read_komi(void *dest, const char *value, char *err, size_t errlen)
{
    cli_komi *k = dest;
    (void)err, (void)errlen;
    if (tg_komi_parse(value, &k->komi2) != TG_OK)
        return -1;
    k->given = true;
    return 0;
}

int cli_read_rules(void *dest, const char *value, char *err, size_t errlen)
{
    if (tg_rules_apply(dest, value, err, errlen) == TG_OK)
        return 0;
    if (!err[0])
        snprintf(err, errlen, "invalid rules");
    return -1;
}

int cli_read_time(void *dest, const char *value, char *err, size_t errlen)
{
    return tg_time_control_parse(value, dest, err, errlen) == TG_OK ? 0 : -1;
}

int cli_read_handicap(void *dest, const char *value, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    int n;
    if (!read_integer(value, 0, 9, &n) || n == 1)
        return -1;
    *(int *)dest = n;
    return 0;
}

/* --model, --value-net or --policy-net: the file handed to the search by use. */
static int read_weights(const char *path, tg_status (*use)(const uint8_t *, size_t, char *, size_t), char *err,
                        size_t errlen)
{
    size_t len = 0;
    char *data = cli_read_file(path, &len);
    if (!data) {
        snprintf(err, errlen, "%s", strerror(errno));
        return -1;
    }
    tg_status st = use((const uint8_t *)data, len, err, errlen);
    free(data);
    if (st != TG_OK && !err[0])
        snprintf(err, errlen, "%s", tg_status_text(st));
    return st == TG_OK ? 0 : -1;
}

int cli_read_model(void *dest, const char *value, char *err, size_t errlen)
{
    (void)dest;
    return read_weights(value, tg_search_use_model, err, errlen);
}

int cli_read_value_net(void *dest, const char *value, char *err, size_t errlen)
{
    (void)dest;
    return read_weights(value, tg_search_use_value_net, err, errlen);
}

int cli_read_policy_net(void *dest, const char *value, char *err, size_t errlen)
{
    (void)dest;
    if (strcmp(value, "off") == 0)
        return tg_search_use_policy_net(NULL, 0, err, errlen) == TG_OK ? 0 : -1;
    return read_weights(value, tg_search_use_policy_net, err, errlen);
}
