/*
 * cmd_sgf.c — `tengen sgf`: check SGF files (parse them and replay every
 * game's main line under the rules it names) and normalise them (parse and
 * write back with tengen's writer).  Errors are printed as FILE:LINE:COL:
 * message, as compilers do, so editors can jump to them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_options.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "tengen/sgf.h"

static const char sgf_synopsis[] =
    "usage: tengen sgf check [-q] FILE...\n"
    "       tengen sgf normalize FILE\n\n"
    "check      parse each file and replay the main line of every game in it\n"
    "           under the rules its RU property names; print FILE:LINE:COL: message\n"
    "           for the first problem of a file.  Exit status 1 if any file fails.\n"
    "           What the reader repaired to read a file, and what it doubts\n"
    "           (rules it does not know, a repeated KM), are printed as\n"
    "           FILE:LINE:COL: warning: message; the file still passes.\n"
    "normalize  parse FILE and write the whole collection (every game and\n"
    "           variation, every property) to standard output as tengen writes\n"
    "           SGF.  FILE may be - for standard input.\n\n";

static const char sgf_epilogue[] = "Exit status: 0 all well, 1 a file failed, 2 bad usage.\n";

/* The options of `tengen sgf ACTION` (argv[0] is ACTION) and its files:
 * 0, CLI_HELP or CLI_USAGE_ERROR; files[] points into argv. */
static int parse_action(int argc, char **argv, bool *quiet, const char **files, int max_files, int *count)
{
    const cli_option options[] = {
        {"--quiet", "-q", CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, quiet, "check: print nothing for files that pass"},
    };
    const cli_command cmd = {"sgf", sgf_synopsis, sgf_epilogue, options, quiet ? 1 : 0, files, max_files, count};
    int r = cli_parse(&cmd, argc, argv);
    if (r == 0 && *count == 0)
        r = cli_usage_error(&cmd, "no FILE given (see tengen sgf --help)");
    return r;
}

static void report(const char *path, const tg_sgf_error *err)
{
    fprintf(stderr, "%s:%d:%d: %s\n", path, err->line, err->column, err->message);
}

/* Parse and replay one file; 0 when it is sound. */
static int check_file(const char *path, bool quiet)
{
    size_t length;
    char *data = cli_read_file(path, &length);
    if (!data) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return 1;
    }
    tg_sgf_tree *tree;
    tg_sgf_error err;
    tg_status st = tg_sgf_parse(data, length, &tree, &err);
    free(data);
    if (st != TG_OK) {
        report(path, &err);
        return 1;
    }
    cli_print_sgf_notes(path, tg_sgf_tree_notes(tree));
    int games = 0;
    tg_sgf_info *info = malloc(sizeof *info);
    if (!info)
        st = TG_ERR_NO_MEMORY;
    for (const tg_sgf_node *root = tg_sgf_tree_games(tree); root && st == TG_OK;
         root = root->sibling, games++) {
        tg_game *game;
        st = tg_sgf_game_from_tree(root, -1, &game, info, &err);
        if (st == TG_OK) {
            cli_print_sgf_notes(path, &info->notes);
            tg_game_free(game);
        } else {
            report(path, &err);
        }
    }
    free(info);
    if (st == TG_OK && !quiet)
        printf("%s: ok (%d game%s, %zu nodes)\n", path, games, games == 1 ? "" : "s",
               tg_sgf_tree_node_count(tree));
    tg_sgf_tree_free(tree);
    return st == TG_OK ? 0 : 1;
}

static int check(int argc, char **argv)
{
    bool quiet = false;
    int count = 0;
    const char **files = malloc((size_t)argc * sizeof *files);
    if (!files) {
        fprintf(stderr, "tengen sgf: out of memory\n");
        return 1;
    }
    int r = parse_action(argc, argv, &quiet, files, argc, &count);
    int failed = 0;
    for (int i = 0; i < count && !r; i++)
        failed |= check_file(files[i], quiet);
    free(files);
    return r ? (r == CLI_HELP ? 0 : 2) : failed;
}

static int normalize(int argc, char **argv)
{
    const char *path;
    int count = 0;
    int r = parse_action(argc, argv, NULL, &path, 1, &count);
    if (r)
        return r == CLI_HELP ? 0 : 2;
    size_t length;
    char *data = cli_read_file(path, &length);
    if (!data) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return 1;
    }
    tg_sgf_tree *tree;
    tg_sgf_error err;
    tg_status st = tg_sgf_parse(data, length, &tree, &err);
    free(data);
    if (st != TG_OK) {
        report(path, &err);
        return 1;
    }
    char *text = tg_sgf_write(tree, &length);
    tg_sgf_tree_free(tree);
    if (!text) {
        fprintf(stderr, "tengen sgf: out of memory\n");
        return 1;
    }
    bool ok = fwrite(text, 1, length, stdout) == length && fflush(stdout) == 0;
    free(text);
    return ok ? 0 : 1;
}

int cmd_sgf(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(sgf_synopsis, argc < 2 ? stderr : stdout);
        fputs(sgf_epilogue, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "check"))
        return check(argc - 1, argv + 1);
    if (!strcmp(argv[1], "normalize") || !strcmp(argv[1], "normalise"))
        return normalize(argc - 1, argv + 1);
    fprintf(stderr, "tengen sgf: unknown action '%s' (see tengen sgf --help)\n", argv[1]);
    return 2;
}
