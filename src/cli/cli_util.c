/*
 * cli_util.c — helpers shared by the front ends (see cli_util.h).
 */
#include <ctype.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"

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

int cli_bad_value(const char *cmd, const char *option, const char *value)
{
    fprintf(stderr, "tengen %s: bad value '%s' for %s\n", cmd, value, option);
    return -1;
}

bool cli_read_line(FILE *in, char *buf, size_t len)
{
    if (!fgets(buf, (int)len, in))
        return false;
    size_t n = strlen(buf);
    if (n && buf[n - 1] != '\n' && !feof(in)) {
        int c;
        while ((c = fgetc(in)) != EOF && c != '\n')
            ; /* drop the rest of an overlong line */
    }
    while (n && isspace((unsigned char)buf[n - 1]))
        buf[--n] = 0;
    size_t start = 0;
    while (buf[start] && isspace((unsigned char)buf[start]))
        start++;
    memmove(buf, buf + start, n - start + 1);
    return true;
}

void cli_print_board(FILE *out, const tg_game *g)
{
    char board[4096];
    tg_game_render(g, board, sizeof board);
    fprintf(out, "%s\n", board);
}

/* The whole file (or standard input for "-"), malloc'd; NULL with errno set. */
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
    *length = n;
    return data;
}
