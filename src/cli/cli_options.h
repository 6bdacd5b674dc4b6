/*
 * cli_options.h — the one option parser of every `tengen <command>`: a
 * command describes its options in a table (name, kind of value, accepted
 * range, where the value goes, help text) and cli_parse reads the command
 * line by it, so that every command spells, bounds and refuses its
 * options alike and its --help is printed from the same table.
 *
 * An option is written "--name VALUE" or "--name=VALUE"; "-h" and "--help"
 * anywhere print the help.  A bad value, an unknown option, a missing value
 * or an argument too many is one line on standard error,
 *
 *     tengen play: bad value 'abc' for --seed: expected an integer in 0..18446744073709551615
 *     tengen play: unknown option '--sed' (see tengen play --help)
 *
 * and the command exits with status 2, as for every usage error.
 *
 * Options that several commands take are made by the CLI_OPT_* macros
 * below, so that --seed, --playouts, --size, --threads ... have one name and
 * one range everywhere.
 */
#ifndef TENGEN_CLI_OPTIONS_H
#define TENGEN_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum cli_kind {
    CLI_FLAG,   /* no value: *(bool *)dest = true */
    CLI_INT,    /* an integer in [min, max]: int *dest */
    CLI_SEED,   /* an integer in 0..2^64-1: uint64_t *dest */
    CLI_REAL,   /* a number in [min, max]: double *dest */
    CLI_TEXT,   /* any text: const char **dest (pointing into argv) */
    CLI_CHOICE, /* one of choices (any case): int *dest = its index */
    CLI_CALL    /* call(dest, value, err, errlen) reads and stores it */
} cli_kind;

/* A CLI_CALL option's reader: 0, or -1 with why in err (left empty:
 * the option's `expects` says what it takes). */
typedef int (*cli_option_fn)(void *dest, const char *value, char *err, size_t errlen);

typedef struct cli_option {
    const char *name;           /* "--size" */
    const char *alias;          /* another spelling ("-j"), or NULL */
    cli_kind kind;
    const char *value_name;     /* in the help: "N", "FILE"; NULL for a flag */
    double min, max;            /* CLI_INT, CLI_REAL: the accepted range */
    const char *const *choices; /* CLI_CHOICE: the words, NULL-ended */
    cli_option_fn call;         /* CLI_CALL */
    const char *expects;        /* CLI_CALL: what the value must be, for the error */
    void *dest;
    const char *help;           /* its lines separated by \n */
} cli_option;

typedef struct cli_command {
    const char *name;           /* "play": errors say "tengen play: ..." */
    const char *synopsis;       /* the help before the options ("usage: ...") */
    const char *epilogue;       /* the help after them, or NULL */
    const cli_option *options;
    int option_count;
    /* arguments that are not options (FILE...): where they go and how many
     * are allowed (0: none) */
    const char **operands;
    int max_operands;
    int *operand_count;
} cli_command;

/* The number of entries of an option table (an array). */
#define CLI_COUNT(table) ((int)(sizeof(table) / sizeof((table)[0])))

#define CLI_HELP 1        /* cli_parse printed the help: exit status 0 */
#define CLI_USAGE_ERROR 2 /* cli_parse said what is wrong: exit status 2 */

/* Read argv[1..argc-1] by the command's table: 0, CLI_HELP or
 * CLI_USAGE_ERROR. */
int cli_parse(const cli_command *cmd, int argc, char **argv);
/* The help: synopsis, one entry per option, epilogue. */
void cli_print_help(const cli_command *cmd, FILE *out);
/* A usage error found after parsing (two options that do not go together):
 * "tengen CMD: message" on standard error; returns CLI_USAGE_ERROR. */
int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The ranges the shared options accept. */
#define CLI_MAX_PLAYOUTS 1000000000
#define CLI_MAX_THREADS 64
#define CLI_MAX_MEMORY_MB (1 << 20)
#define CLI_MAX_SECONDS_PER_MOVE 86400

/* --komi: komi2 is komi in half points; given is set when the option is. */
typedef struct cli_komi {
    int komi2;
    bool given;
} cli_komi;

int cli_read_komi(void *dest, const char *value, char *err, size_t errlen);         /* cli_komi */
int cli_read_rules(void *dest, const char *value, char *err, size_t errlen);        /* tg_rules: applied */
int cli_read_time(void *dest, const char *value, char *err, size_t errlen);         /* tg_time_control */
int cli_read_handicap(void *dest, const char *value, char *err, size_t errlen);     /* int: 0 or 2..9 */
int cli_read_model(void *dest, const char *value, char *err, size_t errlen);        /* dest unused */
int cli_read_value_net(void *dest, const char *value, char *err, size_t errlen);    /* dest unused */
int cli_read_policy_net(void *dest, const char *value, char *err, size_t errlen);   /* dest unused */

extern const char *const cli_player_choices[]; /* mcts, baseline */

/* The shared options: name, kind and range fixed, the help the command's
 * (its defaults differ). */
/* The free opening's prediction time in whole seconds, 0 for none. */
#define CLI_OPT_PREDICTION_TIME(dest, help) \
    {"--prediction-time", NULL, CLI_INT, "S", 0, 86400, NULL, NULL, NULL, (dest), (help)}
#define CLI_OPT_SEED(dest, help) {"--seed", NULL, CLI_SEED, "N", 0, 0, NULL, NULL, NULL, (dest), (help)}
#define CLI_OPT_PLAYOUTS(dest, help) \
    {"--playouts", NULL, CLI_INT, "N", 1, CLI_MAX_PLAYOUTS, NULL, NULL, NULL, (dest), (help)}
#define CLI_OPT_SIZE(dest, help) \
    {"--size", NULL, CLI_INT, "N", TG_MIN_SIZE, TG_MAX_SIZE, NULL, NULL, NULL, (dest), (help)}
#define CLI_OPT_THREADS(dest, help) \
    {"--threads", NULL, CLI_INT, "N", 1, CLI_MAX_THREADS, NULL, NULL, NULL, (dest), (help)}
#define CLI_OPT_MAX_MEMORY(dest, help) \
    {"--max-memory", NULL, CLI_INT, "MB", 2, CLI_MAX_MEMORY_MB, NULL, NULL, NULL, (dest), (help)}
#define CLI_OPT_TIME_PER_MOVE(dest, help) \
    {"--time-per-move", NULL, CLI_REAL, "S", 0, CLI_MAX_SECONDS_PER_MOVE, NULL, NULL, NULL, (dest), (help)}
#define CLI_OPT_KOMI(dest, help) \
    {"--komi", NULL, CLI_CALL, "K", 0, 0, NULL, cli_read_komi, \
     "an integer or half-integer, |komi| <= 400", (dest), (help)}
#define CLI_OPT_RULES(dest, help) \
    {"--rules", NULL, CLI_CALL, "R", 0, 0, NULL, cli_read_rules, "a ruleset", (dest), (help)}
#define CLI_OPT_TIME(dest, help) \
    {"--time", NULL, CLI_CALL, "SPEC", 0, 0, NULL, cli_read_time, "a time control", (dest), (help)}
#define CLI_OPT_HANDICAP(dest, help) \
    {"--handicap", NULL, CLI_CALL, "N", 0, 0, NULL, cli_read_handicap, "0 (none) or 2..9", (dest), (help)}
#define CLI_OPT_PLAYER(dest, help) \
    {"--player", NULL, CLI_CHOICE, "NAME", 0, 0, cli_player_choices, NULL, NULL, (dest), (help)}
#define CLI_OPT_MODEL(help) \
    {"--model", NULL, CLI_CALL, "FILE", 0, 0, NULL, cli_read_model, "a weights file", NULL, (help)}
#define CLI_OPT_VALUE_NET(help) \
    {"--value-net", NULL, CLI_CALL, "FILE", 0, 0, NULL, cli_read_value_net, "a weights file", NULL, (help)}
#define CLI_OPT_POLICY_NET_VISITS(dest, help) \
    {"--policy-net-visits", NULL, CLI_INT, "N", 1, 1000000, NULL, NULL, NULL, (dest), (help)}
#define CLI_OPT_POLICY_NET_BATCH(dest, help) \
    {"--policy-net-batch", NULL, CLI_INT, "N", 1, 64, NULL, NULL, NULL, (dest), (help)}
#define CLI_OPT_POLICY_NET_VALUE(dest, help) \
    {"--policy-net-value", NULL, CLI_INT, "N", 0, 1000, NULL, NULL, NULL, (dest), (help)}
#define CLI_OPT_POLICY_NET(help) \
    {"--policy-net", NULL, CLI_CALL, "FILE|off", 0, 0, NULL, cli_read_policy_net, "a weights file or off", NULL, \
     (help)}

#endif
