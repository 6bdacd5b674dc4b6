/*
 * referee_overhead.c — the referee's cost per move: games between two
 * instant engines (this program run with --engine: a few lines of GTP that
 * answer genmove with a random legal move in microseconds), timed from the
 * first genmove to the count.  What remains is the referee: two pipe round
 * trips per move (genmove, play), the legality check, the clock, the
 * bookkeeping.  Prints `name value unit` lines as tengen bench does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/referee.h"

/* The instant engine: plays random legal non-eye-filling moves. */
static int run_engine(void)
{
    tg_rules rules;
    tg_rules_default(&rules);
    tg_game *g = tg_game_new(19, &rules);
    tg_rng rng;
    tg_rng_seed(&rng, 7);
    char line[256], cmd[64], a[32], b[16];
    while (fgets(line, sizeof line, stdin)) {
        int n = sscanf(line, "%63s %31s %15s", cmd, a, b);
        if (n >= 2 && !strcmp(cmd, "boardsize")) {
            tg_game_free(g);
            g = tg_game_new(atoi(a), &rules);
        } else if (!strcmp(cmd, "clear_board")) {
            tg_game_clear(g);
        } else if (n == 3 && !strcmp(cmd, "play")) {
            tg_point p;
            tg_color c = (a[0] == 'b' || a[0] == 'B') ? TG_BLACK : TG_WHITE;
            if (tg_vertex_parse(tg_game_board(g), b, &p) == TG_OK)
                tg_game_play(g, c, p, TG_PLAY_ANY_ORDER);
        } else if (n == 2 && !strcmp(cmd, "genmove")) {
            tg_color c = (a[0] == 'b' || a[0] == 'B') ? TG_BLACK : TG_WHITE;
            tg_point p = TG_PASS;
            for (int tries = 0; tries < 20; tries++) {
                p = tg_board_random_move(tg_game_board(g), c, TG_SUICIDE_FORBIDDEN, &rng);
                if (p == TG_PASS || tg_game_check(g, c, p, 0) == TG_OK)
                    break;
                p = TG_PASS;
            }
            tg_game_play(g, c, p, TG_PLAY_ANY_ORDER);
            char v[8];
            tg_point_to_vertex(tg_game_board(g), p, v);
            printf("= %s\n\n", v);
            fflush(stdout);
            continue;
        } else if (!strcmp(cmd, "quit")) {
            printf("=\n\n");
            break;
        } else if (!strcmp(cmd, "known_command")) {
            printf("= %s\n\n", !strcmp(a, "final_status_list") ? "false" : "true");
            fflush(stdout);
            continue;
        }
        printf("=\n\n");
        fflush(stdout);
    }
    tg_game_free(g);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--engine"))
        return run_engine();
    char command[4096];
    snprintf(command, sizeof command, "'%s' --engine", argv[0]);
    tg_engine_config ec = {.name = "instant", .command = command, .quit_grace_ms = 500};
    tg_engine *black, *white;
    char err[256];
    if (tg_engine_start(&ec, &black, err, sizeof err) != TG_OK ||
        tg_engine_start(&ec, &white, err, sizeof err) != TG_OK) {
        fprintf(stderr, "bench_referee_overhead: %s\n", err);
        return 1;
    }
    tg_referee_config cfg = {.size = 19, .timeout_ms = 10000, .move_cap = 400,
                             .estimate_playouts = 1};
    tg_rules_default(&cfg.rules);
    tg_time_control_parse("byoyomi:600+5x30", &cfg.time, err, sizeof err);
    int games = argc > 1 ? atoi(argv[1]) : 20, moves = 0;
    int64_t total_ms = 0;
    for (int i = 0; i < games; i++) {
        tg_referee_outcome out;
        cfg.seed = (uint64_t)i + 1;
        if (tg_referee_play(&cfg, black, white, NULL, &out, NULL) != TG_OK)
            return 1;
        moves += out.moves;
        total_ms += out.duration_ms;
    }
    tg_engine_free(black);
    tg_engine_free(white);
    printf("referee_games %d games\n", games);
    printf("referee_moves %d moves\n", moves);
    printf("referee_per_move %.1f us\n", moves ? 1000.0 * (double)total_ms / moves : 0.0);
    return 0;
}
