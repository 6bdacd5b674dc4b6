/*
 * main.c — `tengen <command> [options]`: finds the subcommand and hands it
 * the rest of the command line.  Nothing else happens here.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"serve", cmd_serve, "serve Go in the browser: people against people and engines"},
    {"backup", cmd_backup, "copy tengen serve's database while it runs, or restore a copy"},
    {"play", cmd_play, "play a game against the engine in the terminal"},
    {"gtp", cmd_gtp, "speak the Go Text Protocol on stdin/stdout (for GUIs and referees)"},
    {"score", cmd_score, "count a finished game from an SGF file"},
    {"sgf", cmd_sgf, "check, normalise or convert SGF files"},
    {"match", cmd_match, "referee games between GTP engines (matches, tournaments)"},
    {"tournament", cmd_tournament, "pair rounds, enter results and print standings of a tournament"},
    {"bench", cmd_bench, "measure the speed of the board, playouts and SGF reader"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: tengen <command> [options]\n\n"
                 "tengen plays, referees and records Go by the Chinese rules (and others).\n\n"
                 "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s  %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n`tengen <command> --help` documents each command's options.\n"
                 "`tengen --version` prints the version.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("tengen 0.1.0\n");
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "tengen: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
