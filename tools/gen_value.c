/*
 * gen_value.c — positions for learning the value function
 * (tools/train_value.py): self-play games of tengen's own search on a small
 * board, every position of them searched from a fresh tree, the search's
 * verdict written beside the position.
 *
 * The label of a position is what a search of --label-playouts playouts
 * from it says: the winrate of its most visited move for the side to move
 * and the ownership of every point.  A value function learned from it
 * tells the search at each leaf what such a search would have said there,
 * one evaluation where a playout gives one noisy sample.
 *
 * The games are varied as the tree's leaves are: the first moves and, later,
 * one move in twenty are drawn from the candidates in proportion to their
 * visits, and one position in five is also labelled after a candidate drawn
 * uniformly from the ten most visited (a position after a weaker move, as
 * the tree explores them).
 *
 * usage: gen_value [--games N] [--size N] [--komi K] [--label-playouts N]
 *                  [--seed S] --out FILE
 * Records, fixed-size, appended to FILE: size*size colour bytes (0 empty,
 * 1 black, 2 white; rows from the bottom), the side to move (1, 2), the
 * simple-ko point's index in that grid or -1 (int16), the last move's
 * index or -1 (int16), the best move's winrate for the side to move and the
 * visit-weighted mean winrate of the reported candidates (float32 each),
 * then size*size ownership floats (+1 black, -1 white), then the game's
 * outcome for the side to move (float32: 1 won, 0 lost, 0.5 unknown), where
 * the game ends by a resignation (the winrate under 3% past the opening) or
 * by two passes (counted by area with the last search's dead stones off).
 *
 *        gen_value --planes [--size N] IN OUT
 * writes the value function's input planes of each record of IN to OUT
 * (size*size*VALUE_PLANES bytes a record, value.h), from the library's own
 * value_planes, so that what is learned is what the search will read.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/value.h"
#include "tengen/score.h"
#include "tengen/search.h"
#include "record_line.h"

typedef struct gen_options {
    int games, size, komi2, label_playouts;
    uint64_t seed;
    const char *out;
} gen_options;

static int grid_index(const tg_board *b, tg_point p)
{
    if (!tg_on_board(b, p))
        return -1;
    return tg_point_y(b, p) * b->size + tg_point_x(b, p);
}

static void put16(FILE *f, int v)
{
    int16_t x = (int16_t)v;
    fwrite(&x, sizeof x, 1, f);
}

/* Search the position afresh and write its record; returns the report. */
static const tg_search_report *label(tg_search *s, const tg_game *g, int playouts, FILE *out)
{
    tg_color c = tg_game_to_move(g);
    tg_search_clear(s);
    tg_search_limits limits = {.playouts = playouts};
    tg_status st = tg_search_run(s, g, c, &limits, 0, NULL, NULL, NULL);
    if (st != TG_OK) {
        fprintf(stderr, "gen_value: the search failed: %s\n", tg_status_text(st));
        exit(1);
    }
    const tg_search_report *r = tg_search_last_report(s);
    const tg_board *b = tg_game_board(g);
    const float *own = tg_search_ownership(s);
    int n = b->size;
    uint8_t colors[TG_MAX_SIZE * TG_MAX_SIZE];
    float owner[TG_MAX_SIZE * TG_MAX_SIZE];
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            tg_point p = tg_point_at(b, x, y);
            colors[y * n + x] = (uint8_t)b->color[p];
            owner[y * n + x] = own[p];
        }
    double sum = 0, visits = 0;
    for (int i = 0; i < r->candidate_count; i++) {
        sum += r->candidates[i].visits * r->candidates[i].winrate;
        visits += r->candidates[i].visits;
    }
    float best = (float)r->winrate, mean = (float)(visits > 0 ? sum / visits : 0.5);
    uint8_t to_move = (uint8_t)c;
    fwrite(colors, 1, (size_t)(n * n), out);
    fwrite(&to_move, 1, 1, out);
    put16(out, b->ko_color == c ? grid_index(b, b->ko_point) : -1);
    put16(out, grid_index(b, b->last_move));
    fwrite(&best, sizeof best, 1, out);
    fwrite(&mean, sizeof mean, 1, out);
    fwrite(owner, sizeof owner[0], (size_t)(n * n), out);
    return r;
}

/* A candidate drawn in proportion to its visits. */
static tg_point by_visits(const tg_search_report *r, tg_rng *rng)
{
    int total = 0;
    for (int i = 0; i < r->candidate_count; i++)
        total += r->candidates[i].visits;
    if (total <= 0)
        return r->candidate_count ? r->candidates[0].move : TG_PASS;
    int k = (int)tg_rng_below(rng, (uint32_t)total);
    for (int i = 0; i < r->candidate_count; i++) {
        k -= r->candidates[i].visits;
        if (k < 0)
            return r->candidates[i].move;
    }
    return r->candidates[0].move;
}

/* A record's bytes: the search's verdict (LABEL_BYTES), then the outcome. */
#define LABEL_BYTES(n) ((n) * (n) * 5 + 13)
#define RECORD_BYTES(n) (LABEL_BYTES(n) + 4)

/* Appends each buffered record of one game with the game's outcome for its
 * side to move. */
static void write_game(const char *buf, size_t len, int n, tg_color winner, FILE *out)
{
    size_t bytes = (size_t)LABEL_BYTES(n);
    for (size_t at = 0; at + bytes <= len; at += bytes) {
        tg_color mover = (tg_color)(unsigned char)buf[at + (size_t)(n * n)];
        float outcome = winner == TG_EMPTY ? 0.5f : winner == mover ? 1.0f : 0.0f;
        fwrite(buf + at, 1, bytes, out);
        fwrite(&outcome, sizeof outcome, 1, out);
    }
}

static int play_game(tg_search *s, const gen_options *o, tg_rng *rng, FILE *file)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return -1;
    tg_color winner = TG_EMPTY;
    tg_rules rules;
    tg_rules_default(&rules);
    rules.komi2 = o->komi2;
    tg_game *g = tg_game_new(o->size, &rules);
    if (!g) {
        fclose(out);
        free(buf);
        return -1;
    }
    int records = 0, passes = 0;
    int max_moves = 2 * o->size * o->size;
    for (int k = 0; k < max_moves && passes < 2 && !tg_game_over(g); k++) {
        const tg_search_report *r = label(s, g, o->label_playouts, out);
        records++;
        tg_color c = tg_game_to_move(g);
        if (r->winrate < 0.03 && k > o->size * o->size / 3) {
            winner = tg_opponent(c); /* resigned */
            break;
        }
        tg_point move = r->candidate_count ? r->candidates[0].move : TG_PASS;
        if (tg_rng_below(rng, 5) == 0 && r->candidate_count > 1) {
            int top = r->candidate_count < 10 ? r->candidate_count : 10;
            tg_point side = r->candidates[tg_rng_below(rng, (uint32_t)top)].move;
            if (side != TG_PASS && tg_game_play(g, c, side, 0) == TG_OK) {
                label(s, g, o->label_playouts, out);
                records++;
                tg_game_undo(g);
            }
        }
        if (k < 6 || tg_rng_below(rng, 20) == 0)
            move = by_visits(r, rng);
        if (tg_game_play(g, c, move, 0) != TG_OK)
            break;
        passes = move == TG_PASS ? passes + 1 : 0;
        if (passes == 2) { /* counted as final_score counts: the search's dead stones off */
            uint8_t dead[TG_MAX_POINTS];
            tg_search_dead_stones(s, tg_game_board(g), dead);
            tg_score score;
            tg_score_game(g, dead, &score);
            winner = score.result.winner;
        }
    }
    tg_game_free(g);
    fclose(out);
    write_game(buf, len, o->size, winner, file);
    free(buf);
    return records;
}

static int parse_int(const char *flag, const char *v, int lo, int hi)
{
    return (int)record_option_long("gen_value", flag, v, lo, hi);
}


static int write_planes(int size, const char *in_path, const char *out_path)
{
    FILE *in = fopen(in_path, "rb"), *out = in ? fopen(out_path, "wb") : NULL;
    if (!in || !out) {
        fprintf(stderr, "gen_value: cannot open %s: %s\n", in ? out_path : in_path, strerror(errno));
        if (in)
            fclose(in);
        return 1;
    }
    int n = size;
    uint8_t rec[RECORD_BYTES(TG_MAX_SIZE)];
    uint8_t planes[TG_MAX_SIZE * TG_MAX_SIZE * VALUE_PLANES];
    long count = 0;
    while (fread(rec, 1, (size_t)RECORD_BYTES(n), in) == (size_t)RECORD_BYTES(n)) {
        tg_board b;
        tg_board_init(&b, n);
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                if (rec[y * n + x] == TG_BLACK || rec[y * n + x] == TG_WHITE)
                    tg_board_set_point(&b, tg_point_at(&b, x, y), (tg_color)rec[y * n + x]);
        tg_color c = (tg_color)rec[n * n];
        int16_t ko;
        memcpy(&ko, rec + n * n + 1, sizeof ko);
        if (ko >= 0) {
            b.ko_point = tg_point_at(&b, ko % n, ko / n);
            b.ko_color = c;
        }
        value_planes(&b, c, planes);
        fwrite(planes, 1, (size_t)(n * n * VALUE_PLANES), out);
        count++;
    }
    fclose(in);
    fclose(out);
    fprintf(stderr, "gen_value: %ld records\n", count);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && !strcmp(argv[1], "--planes")) {
        int size = 9, k = 2;
        if (argc == 6 && !strcmp(argv[2], "--size")) {
            size = parse_int("--size", argv[3], 5, TG_MAX_SIZE);
            k = 4;
        }
        if (k + 2 != argc) {
            fprintf(stderr, "usage: gen_value --planes [--size N] IN OUT\n");
            return 2;
        }
        return write_planes(size, argv[k], argv[k + 1]);
    }
    gen_options o = {.games = 100, .size = 9, .komi2 = 15, .label_playouts = 1000, .seed = 1, .out = NULL};
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "gen_value: %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "--games"))
            o.games = parse_int(a, v, 1, 10000000);
        else if (!strcmp(a, "--size"))
            o.size = parse_int(a, v, 5, TG_MAX_SIZE);
        else if (!strcmp(a, "--komi"))
            o.komi2 = (int)(2 * strtod(v, NULL));
        else if (!strcmp(a, "--label-playouts"))
            o.label_playouts = parse_int(a, v, 1, 10000000);
        else if (!strcmp(a, "--seed"))
            o.seed = (uint64_t)parse_int(a, v, 0, 2000000000);
        else if (!strcmp(a, "--out"))
            o.out = v;
        else {
            fprintf(stderr, "gen_value: unknown option %s\n", a);
            return 2;
        }
    }
    if (!o.out) {
        fprintf(stderr, "usage: gen_value [--games N] [--size N] [--komi K] [--label-playouts N] [--seed S] --out FILE\n");
        return 2;
    }
    FILE *out = fopen(o.out, "ab");
    if (!out) {
        fprintf(stderr, "gen_value: cannot open %s: %s\n", o.out, strerror(errno));
        return 1;
    }
    tg_search_options opt;
    tg_search_options_default(&opt);
    opt.seed = o.seed;
    opt.reuse_tree = false;
    opt.resign_threshold = 0;
    opt.value_function = TG_VALUE_OFF; /* the labels are the playouts' search's */
    tg_search *s = tg_search_new(&opt);
    tg_rng rng;
    tg_rng_seed(&rng, o.seed * 7919 + 13);
    long total = 0;
    for (int i = 0; i < o.games; i++) {
        int n = play_game(s, &o, &rng, out);
        if (n < 0)
            break;
        total += n;
        fflush(out);
        fprintf(stderr, "game %d: %d records, %ld in all\n", i + 1, n, total);
    }
    fclose(out);
    tg_search_free(s);
    return 0;
}
