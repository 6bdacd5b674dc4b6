/*
 * example.c — libtengen from the outside: play a few moves under the
 * Chinese rules, read a game from SGF, count it with the engine's estimate
 * of the dead stones, and state the result as the rules do.
 *
 *   cc example.c $(pkg-config --cflags --libs tengen) -o example
 * or, with CMake: find_package(tengen) and link tengen::tengen (see
 * CMakeLists.txt beside this file).
 */
#include <stdio.h>
#include <string.h>

#include <tengen/game.h>
#include <tengen/score.h>
#include <tengen/sgf.h>

static const char record[] =
    "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[ana]PW[bo]"
    ";B[ee];W[ge];B[gc];W[fc];B[fd];W[gd];B[hc];W[hd];B[ec];W[fb];B[eb];W[gb]"
    ";B[hb];W[ic];B[id];W[ie];B[ib];W[cg];B[dg];W[ch];B[dh];W[cf];B[df];W[ce]"
    ";B[de];W[cd];B[dd];W[cc];B[dc];W[cb];B[db];W[ca];B[da];W[fg];B[ef];W[eg]"
    ";B[di];W[];B[])";

int main(void)
{
    /* a game by hand: the library refuses what the rules forbid */
    tg_rules rules;
    tg_rules_default(&rules); /* Chinese: area counting, 7.5 komi */
    tg_game *g = tg_game_new(9, &rules);
    if (!g)
        return 1;
    tg_point p;
    tg_vertex_parse(tg_game_board(g), "E5", &p);
    printf("B E5: %s\n", tg_status_text(tg_game_play(g, TG_BLACK, p, 0)));
    printf("W E5: %s\n", tg_status_text(tg_game_play(g, TG_WHITE, p, 0)));
    tg_game_free(g);

    /* a record read, replayed and counted */
    tg_sgf_info info;
    tg_sgf_error err;
    if (tg_sgf_load_game(record, strlen(record), -1, &g, &info, &err) != TG_OK) {
        fprintf(stderr, "the record does not load: line %d: %s\n", err.line, err.message);
        return 1;
    }
    uint8_t dead[TG_MAX_POINTS];
    tg_rng rng;
    tg_rng_seed(&rng, 1);
    tg_estimate_dead(tg_game_board(g), tg_game_to_move(g), tg_game_rules(g), 400, &rng, dead);
    tg_score score;
    tg_score_game(g, dead, &score);
    char points[32], stones[96];
    tg_result_to_sgf(&score.result, points, sizeof points);
    tg_result_in_stones(&score.result, false, stones, sizeof stones);
    printf("%s against %s, %d moves: Black %.1f, White %.1f, komi %.1f: %s (%s)\n", info.black,
           info.white, tg_game_move_count(g), score.black2 / 2.0, score.white2 / 2.0,
           score.komi2 / 2.0, points, stones);
    tg_game_free(g);
    return 0;
}
