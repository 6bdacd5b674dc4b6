/*
 * fuzz_gtp.c — libFuzzer target for the GTP engine: arbitrary bytes are a
 * sequence of command lines fed to one engine, each line in pieces of a
 * size the first byte picks.  Besides the sanitizers it checks the
 * protocol's promise: every line that is not empty or a comment gets
 * exactly one well-formed answer, and nothing else does.
 *
 * loadsgf reads the input itself as an SGF file when named "self" and a
 * small game otherwise; printsgf FILE writes nowhere.
 *
 *   fuzz_gtp -dict=fuzz/gtp.dict -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine_gtp/gtp_player.h"
#include "tengen/gtp.h"

static const uint8_t *fuzz_data;
static size_t fuzz_size;

static tg_status read_file(void *ctx, const char *path, char **data, size_t *len)
{
    (void)ctx;
    static const char game[] = "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Japanese];B[ee];W[cc];B[gg];W[];B[])";
    const char *text = strcmp(path, "self") ? game : (const char *)fuzz_data;
    size_t n = strcmp(path, "self") ? sizeof game - 1 : fuzz_size;
    if (!strcmp(path, "missing"))
        return TG_ERR_IO;
    *data = malloc(n ? n : 1);
    if (!*data)
        return TG_ERR_NO_MEMORY;
    memcpy(*data, text, n);
    *len = n;
    return TG_OK;
}

static tg_status write_file(void *ctx, const char *path, const char *data, size_t len)
{
    (void)ctx, (void)path;
    if (memchr(data, '\0', len))
        abort();
    return TG_OK;
}

typedef struct answers {
    int count;
} answers;

static void check_answer(void *ctx, const char *text, size_t len)
{
    answers *a = ctx;
    a->count++;
    if (len < 3 || (text[0] != '=' && text[0] != '?'))
        abort();
    const char *blank = NULL;
    for (size_t i = 0; i + 1 < len && !blank; i++)
        if (text[i] == '\n' && text[i + 1] == '\n')
            blank = text + i;
    if (blank != text + len - 2 || memchr(text, '\0', len))
        abort();
}

/* Whether the specification says this line (without its LF) gets an answer. */
static bool needs_answer(const uint8_t *line, size_t len)
{
    if (memchr(line, '\0', len))
        return true;
    for (size_t i = 0; i < len && line[i] != '#'; i++)
        if (line[i] > ' ' && line[i] != 0x7f)
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t piece = data[0] % 64 + 1;
    fuzz_data = data;
    fuzz_size = size;
    tg_gtp_options opt;
    tg_gtp_options_default(&opt);
    opt.size = 9;
    gtp_player_config cfg; /* the baseline player, fresh for every input */
    gtp_player_config_default(&cfg);
    cfg.baseline = true;
    cfg.playouts = 4;
    gtp_player player;
    if (!gtp_player_init(&player, &cfg))
        abort();
    gtp_player_hook(&player, &opt.player);
    opt.read_file = read_file;
    opt.write_file = write_file;
    tg_gtp *gtp = tg_gtp_new(&opt);
    if (!gtp)
        abort();
    bool quit = false;
    for (size_t start = 1; start < size && !quit;) {
        const uint8_t *lf = memchr(data + start, '\n', size - start);
        size_t end = lf ? (size_t)(lf - data) : size;
        answers a = {0};
        for (size_t at = start; at < end; at += piece)
            tg_gtp_feed(gtp, (const char *)data + at, end - at < piece ? end - at : piece, check_answer, &a);
        quit = lf ? tg_gtp_feed(gtp, "\n", 1, check_answer, &a) : tg_gtp_finish(gtp, check_answer, &a);
        if (a.count != (needs_answer(data + start, end - start) ? 1 : 0))
            abort();
        start = end + 1;
    }
    tg_gtp_free(gtp);
    gtp_player_free(&player);
    return 0;
}
