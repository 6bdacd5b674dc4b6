/*
 * fuzz_play.c — libFuzzer target for `tengen play`: the terminal front end
 * itself (cmd_play, linked in), driven by a person whose every line is
 * the input's.
 *
 * The input's first four bytes choose the game: byte 0 the board size (2
 * to 7), the person's colour and a handicap of two; byte 1 the ruleset
 * and an override of its ko and suicide rules; byte 2 the clock (none,
 * absolute, byo-yomi with or without the pass on overrun, Canadian,
 * Fischer, simple); byte 3 the engine (the baseline player or the tree
 * search, and its playouts).  The rest is what the person types: vertices
 * in any spelling, pass, undo, resign, score, help, quit, and anything
 * else; the game ends where the input does.
 *
 * What must hold, whatever was typed:
 *   - `tengen play` returns 0 (2 only for a handicap the board cannot
 *     hold), without a crash, a sanitizer report or a hang;
 *   - it says where it saved the game, and that SGF loads: its setup and
 *     every move replay legally under its rules;
 *   - when the record has a result, the last result the transcript
 *     states is that result.
 * Any broken invariant aborts.
 *
 * The seeds in fuzz/corpus/play are sessions: the four bytes, then lines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "tengen/game.h"
#include "tengen/sgf.h"

static void require(bool condition)
{
    if (!condition)
        abort();
}

static char dir[64], input_file[96], transcript_file[96], sgf_file[96];

static void clean_up(void)
{
    unlink(input_file);
    unlink(transcript_file);
    unlink(sgf_file);
    rmdir(dir);
}

static void set_up(void)
{
    snprintf(dir, sizeof dir, "/tmp/tengen-fuzz-play-XXXXXX");
    require(mkdtemp(dir) != NULL);
    snprintf(input_file, sizeof input_file, "%s/typed", dir);
    snprintf(transcript_file, sizeof transcript_file, "%s/transcript", dir);
    snprintf(sgf_file, sizeof sgf_file, "%s/game.sgf", dir);
    atexit(clean_up);
}

/* The last "Result: " the transcript states, its RE word; "" if none. */
static void last_result(const char *transcript, char *out, size_t len)
{
    out[0] = 0;
    for (const char *p = transcript; (p = strstr(p, "Result: ")) != NULL; p++) {
        if (p != transcript && p[-1] != '\n')
            continue;
        const char *word = p + strlen("Result: ");
        size_t n = strcspn(word, " \n");
        if (n >= len)
            n = len - 1;
        memcpy(out, word, n);
        out[n] = 0;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 || size > 4096)
        return 0;
    if (!dir[0])
        set_up();

    static const char *rules[] = {"chinese", "japanese", "korean", "aga", "new-zealand",
                                  "tromp-taylor", "ancient", "free-opening"};
    static const char *overrides[] = {"", " ko=simple", " ko=situational", " suicide=yes"};
    static const char *clocks[] = {"none",         "absolute:600",   "byoyomi:0+3x1",
                                   "byoyomi:0+1x0.05,pass", "canadian:0+3/1", "fischer:60+1",
                                   "simple:1",     "simple:0.05,pass"};
    char size_text[8], rules_text[64], seed[24], playouts[8];
    snprintf(size_text, sizeof size_text, "%d", 2 + data[0] % 6);
    snprintf(rules_text, sizeof rules_text, "%s%s", rules[data[1] % 8], overrides[(data[1] >> 3) % 4]);
    snprintf(seed, sizeof seed, "%u", (unsigned)data[1] * 256 + data[3]);
    bool baseline = data[3] & 1;
    snprintf(playouts, sizeof playouts, "%d", 1 + (data[3] >> 1) % 32);
    char *argv[32];
    int argc = 0;
    argv[argc++] = "play";
    argv[argc++] = "--size";
    argv[argc++] = size_text;
    argv[argc++] = "--color";
    argv[argc++] = (data[0] >> 3) & 1 ? "white" : "black";
    argv[argc++] = "--rules";
    argv[argc++] = rules_text;
    if (((data[0] >> 4) & 3) == 3) {
        argv[argc++] = "--handicap";
        argv[argc++] = "2";
    }
    argv[argc++] = "--time";
    argv[argc++] = (char *)clocks[data[2] % 8];
    argv[argc++] = "--player";
    argv[argc++] = baseline ? "baseline" : "mcts";
    argv[argc++] = "--playouts";
    argv[argc++] = playouts;
    argv[argc++] = "--max-memory";
    argv[argc++] = "2";
    argv[argc++] = "--seed";
    argv[argc++] = seed;
    argv[argc++] = "--sgf";
    argv[argc++] = sgf_file;
    argv[argc] = NULL;

    FILE *typed = fopen(input_file, "wb");
    require(typed != NULL);
    require(fwrite(data + 4, 1, size - 4, typed) == size - 4 && fclose(typed) == 0);
    unlink(sgf_file);
    require(freopen(input_file, "rb", stdin) != NULL);
    require(freopen(transcript_file, "w", stdout) != NULL);
    int rc = cmd_play(argc, argv);
    require(fflush(stdout) == 0);

    size_t tlen = 0, slen = 0;
    char *transcript = cli_read_file(transcript_file, &tlen);
    require(transcript != NULL);
    char *sgf = cli_read_file(sgf_file, &slen);
    if (rc == 2) {
        /* only a handicap that does not fit refuses to start */
        require(((data[0] >> 4) & 3) == 3 && sgf == NULL);
    } else {
        require(rc == 0);
        require(strstr(transcript, "Game saved to ") != NULL);
        require(sgf != NULL);
        tg_game *g = NULL;
        tg_sgf_info info;
        tg_sgf_error err;
        require(tg_sgf_load_game(sgf, slen, -1, &g, &info, &err) == TG_OK);
        require(tg_game_move_count(g) <= (int)(size - 4) * 2 + 2);
        if (info.result[0]) {
            char said[64];
            last_result(transcript, said, sizeof said);
            if (getenv("FUZZ_PLAY_SHOW"))
                fprintf(stderr, "RE %s, said %s, %d moves\n", info.result, said, tg_game_move_count(g));
            require(!strcmp(said, info.result));
        }
        tg_game_free(g);
    }
    free(sgf);
    free(transcript);
    return 0;
}
