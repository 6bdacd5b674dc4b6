/*
 * fuzz_referee.c — libFuzzer target for the referee's side of GTP: one
 * refereed 5x5 game between two engines whose every answer is a line of the
 * input.
 *
 * The input's first byte picks the illegal-move policy, the dispute policy
 * and whether the game has a clock; its lines then go in turn to Black's
 * and White's engine, a shell loop that answers each command the referee
 * sends with its next line (and a blank line, so that an answer is always
 * complete, whatever it says) and exits when its lines run out.  Whatever
 * the engines say — garbage, errors, illegal or off-board moves, silence,
 * a dead process — the referee must end the game with a result it can
 * state, write a record that reads back as the game it refereed, and a
 * results line that reads back too.
 * Any crash, sanitizer report or broken invariant (abort) is a bug.
 *
 * The seeds in fuzz/corpus/referee are games: each engine's lines answer,
 * in order, boardsize, clear_board, known_command tengen-rules,
 * tengen-rules, komi, known_command kgs-time_settings, kgs-time_settings,
 * then its genmoves and the opponent's plays (with a clock, known_command
 * time_left and a time_left before each genmove), then known_command
 * final_status_list and final_status_list dead.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tengen/game.h"
#include "tengen/referee.h"
#include "tengen/rules.h"
#include "tengen/sgf.h"

static void require(bool condition)
{
    if (!condition)
        abort();
}

static char dir[64];
static char black_file[96], white_file[96];
static char black_command[256], white_command[256], script[96];

static void clean_up(void)
{
    unlink(black_file);
    unlink(white_file);
    unlink(script);
    rmdir(dir);
}

/* The answering engine, and its two files, in a directory of our own. */
static void set_up(void)
{
    snprintf(dir, sizeof dir, "/tmp/tengen-fuzz-referee-XXXXXX");
    require(mkdtemp(dir) != NULL);
    snprintf(script, sizeof script, "%s/replay.sh", dir);
    atexit(clean_up);
    FILE *f = fopen(script, "w");
    require(f != NULL);
    fputs("exec 3<\"$1\"\n"
          "while IFS= read -r command; do\n"
          "  case \"$command\" in quit*) printf '=\\n\\n'; exit 0 ;; esac\n"
          "  IFS= read -r answer <&3 || exit 0\n"
          "  printf '%s\\n\\n' \"$answer\"\n"
          "done\n",
          f);
    require(fclose(f) == 0);
    snprintf(black_file, sizeof black_file, "%s/black", dir);
    snprintf(white_file, sizeof white_file, "%s/white", dir);
    snprintf(black_command, sizeof black_command, "exec /bin/sh %s %s", script, black_file);
    snprintf(white_command, sizeof white_command, "exec /bin/sh %s %s", script, white_file);
}

static void write_lines(const uint8_t *data, size_t size)
{
    FILE *b = fopen(black_file, "w"), *w = fopen(white_file, "w");
    require(b && w);
    int line = 0;
    for (size_t i = 0; i < size; i++) {
        fputc(data[i], line % 2 ? w : b);
        if (data[i] == '\n')
            line++;
    }
    require(fclose(b) == 0 && fclose(w) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 8192)
        return 0;
    if (!dir[0])
        set_up();
    write_lines(data + 1, size - 1);

    tg_referee_config cfg = {.size = 5, .timeout_ms = 30, .estimate_playouts = 16, .seed = 1,
                             .black_name = "b", .white_name = "w"};
    tg_rules_default(&cfg.rules);
    cfg.rules.illegal = (tg_illegal_policy)(data[0] % 3);
    cfg.dispute = (data[0] >> 2) & 1 ? TG_DISPUTE_ESTIMATE : TG_DISPUTE_CLEANUP;
    if ((data[0] >> 3) & 1) {
        char err[128];
        require(tg_time_control_parse("byoyomi:0.2+1x0.2", &cfg.time, err, sizeof err) == TG_OK);
    }

    tg_engine *black = NULL, *white = NULL;
    char err[256];
    tg_engine_config bc = {.name = "b", .command = black_command, .quit_grace_ms = 50};
    tg_engine_config wc = {.name = "w", .command = white_command, .quit_grace_ms = 50};
    require(tg_engine_start(&bc, &black, err, sizeof err) == TG_OK);
    require(tg_engine_start(&wc, &white, err, sizeof err) == TG_OK);

    tg_referee_outcome out;
    char *sgf = NULL;
    require(tg_referee_play(&cfg, black, white, NULL, &out, &sgf) == TG_OK);
    require(out.reason >= 0 && out.reason < TG_END_COUNT_ && !out.stopped);
    tg_result result;
    require(tg_result_from_sgf(out.result_text, &result) == TG_OK);
    require(result.kind == out.result.kind && result.winner == out.result.winner);
    require(out.moves >= 0 && out.moves <= 4 * 5 * 5 + 4);

    /* the results file's line for it (an engine's answer quoted in the
     * detail can be any bytes) */
    tg_game_record record = {.game = 1, .reason = out.reason, .culprit = out.culprit, .moves = out.moves,
                             .black_name = "b", .white_name = "w", .opening = -1};
    snprintf(record.result, sizeof record.result, "%s", out.result_text);
    snprintf(record.detail, sizeof record.detail, "%s", out.detail);
    char *json = tg_game_record_to_json(&record);
    tg_game_record back;
    require(json != NULL && tg_game_record_from_json(json, &back) == TG_OK);
    free(json);

    require(sgf != NULL);
    tg_game *g = NULL;
    tg_sgf_error serr;
    if (getenv("FUZZ_REFEREE_SHOW")) /* for reading what a seed does */
        fprintf(stderr, "%s %s moves %d: %s\n", out.result_text, tg_end_reason_name(out.reason), out.moves,
                out.detail);
    require(tg_sgf_load_game(sgf, strlen(sgf), -1, &g, NULL, &serr) == TG_OK);
    require(tg_game_move_count(g) == out.moves);
    tg_game_free(g);
    free(sgf);
    tg_engine_free(black);
    tg_engine_free(white);
    return 0;
}
