/*
 * cli_util.c — helpers shared by the front ends (see cli_util.h).
 */
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"

#include "tengen/search.h"

int cli_parse_int(const char *text, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

void cli_print_board(FILE *out, const tg_game *g)
{
    char board[4096];
    tg_game_render(g, board, sizeof board);
    fprintf(out, "%s\n", board);
}

/* The whole file (or standard input for "-"), malloc'd and ended by a NUL
 * (not counted in *length); NULL with errno set. */
char *cli_read_file(const char *path, size_t *length)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f)
        return NULL;
    size_t capacity = 1 << 16, n = 0;
    char *data = malloc(capacity);
    while (data) {
        n += fread(data + n, 1, capacity - n, f);
        if (n < capacity)
            break;
        char *bigger = capacity < SIZE_MAX / 2 ? realloc(data, capacity * 2) : NULL;
        if (!bigger) {
            free(data);
            data = NULL;
            errno = ENOMEM;
            break;
        }
        data = bigger;
        capacity *= 2;
    }
    if (data && ferror(f)) {
        free(data);
        data = NULL;
        errno = EIO;
    }
    if (f != stdin)
        fclose(f);
    if (data)
        data[n] = '\0'; /* the loop ends with n < capacity */
    *length = n;
    return data;
}

void cli_print_sgf_notes(const char *path, const tg_sgf_notes *notes)
{
    int kept = notes->count < TG_SGF_MAX_NOTES ? notes->count : TG_SGF_MAX_NOTES;
    for (int i = 0; i < kept; i++)
        fprintf(stderr, "%s:%d:%d: warning: %s\n", path, notes->note[i].line, notes->note[i].column,
                notes->note[i].message);
    if (notes->count > kept)
        fprintf(stderr, "%s: warning: %d more\n", path, notes->count - kept);
}
