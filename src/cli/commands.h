/*
 * commands.h — the subcommands of the `tengen` program.  main.c is a thin
 * dispatcher; each command lives in its own cmd_<name>.c, parses its own
 * options, prints its own --help, and returns the process exit status.
 */
#ifndef TENGEN_CLI_COMMANDS_H
#define TENGEN_CLI_COMMANDS_H

int cmd_gtp(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_score(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_sgf(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_backup(int argc, char **argv);
int cmd_tournament(int argc, char **argv);

#endif
