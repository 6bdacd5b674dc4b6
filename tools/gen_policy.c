/*
 * gen_policy — the training positions of the policy network
 * (src/engine/policy_net.c) from game records, for tools/train_policy.py.
 *
 * Records are one game a line, as in the TYGEM files of the public
 * computer-go-dataset collection: the game's id, a tab, then the moves as
 * ";B[pd];W[dp];..." (19x19, no handicap stones).  A line whose moves stop
 * being legal is used up to there.  --index FILE names the collection's
 * index (one game a line: id, a tab, ... the ninth field the result as
 * "B+Resign", "W+3.5"): a game's winner teaches the value head, a game not
 * in it or without a winner teaches the policy only.
 *
 * Each position is kept with probability --keep (default 0.25: the
 * positions of one game are much alike, so a sample of many games teaches
 * more than every position of a few) and written as one record of
 * POLICY_RECORD_BYTES:
 *
 *     planes   the binary planes of policy_net_planes (all but plane 13),
 *              each a plane of 361 bits, packed most significant bit first
 *              and padded to 46 bytes (14 x 46 bytes)
 *     model    plane 13, the move model's opinion, times 30 rounded, i8[361]
 *     move     u16, y * 19 + x of the move played (361: a pass)
 *     outcome  i8, +1 the mover won the game, -1 lost, 0 not known
 *
 * usage: gen_policy [--index FILE] [--keep P] [--seed N] [--games N]
 *                   [--skip N] --out FILE RECORDS...
 * --skip N leaves out the first N games met (so that a later run can carry
 * on where an earlier one stopped); --games N stops after N games used.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/policy_net.h"
#include "tengen/board.h"
#include "tengen/common.h"
#include "record_line.h"

#define N 19
#define PLANE_BYTES 46
#define BINARY_PLANES (POLICY_PLANES - 1)
#define RECORD_BYTES (BINARY_PLANES * PLANE_BYTES + N * N + 3)

typedef struct result {
    long long id;
    signed char winner; /* +1 Black, -1 White */
} result;

static result *results;
static size_t result_count, result_cap;

static int cmp_result(const void *a, const void *b)
{
    long long x = ((const result *)a)->id, y = ((const result *)b)->id;
    return x < y ? -1 : x > y;
}

static void read_index(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "gen_policy: cannot open %s: %s\n", path, strerror(errno));
        exit(1);
    }
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char *field[10];
        int k = 0;
        char *s = line;
        for (; k < 10 && s; k++) {
            field[k] = s;
            s = strchr(s, '\t');
            if (s)
                *s++ = 0;
        }
        if (k < 9 || (field[8][0] != 'B' && field[8][0] != 'W') || field[8][1] != '+')
            continue;
        if (result_count == result_cap) {
            result_cap = result_cap ? 2 * result_cap : 1 << 16;
            result *r = realloc(results, result_cap * sizeof *r);
            if (!r) {
                fprintf(stderr, "gen_policy: out of memory\n");
                exit(1);
            }
            results = r;
        }
        results[result_count].id = atoll(field[0]);
        results[result_count++].winner = field[8][0] == 'B' ? 1 : -1;
    }
    fclose(f);
    qsort(results, result_count, sizeof *results, cmp_result);
}

static int winner_of(long long id)
{
    result key = {id, 0};
    const result *r = bsearch(&key, results, result_count, sizeof *results, cmp_result);
    return r ? r->winner : 0;
}

static void write_record(FILE *out, const tg_board *b, tg_color c, tg_point last2, tg_point played, int winner)
{
    float planes[N * N * POLICY_PLANES];
    policy_net_planes(b, c, last2, planes);
    uint8_t rec[RECORD_BYTES];
    memset(rec, 0, sizeof rec);
    int k = 0;
    for (int plane = 0; plane < POLICY_PLANES; plane++) {
        if (plane == 13)
            continue;
        uint8_t *bits = rec + k++ * PLANE_BYTES;
        for (int i = 0; i < N * N; i++)
            if (planes[i * POLICY_PLANES + plane] != 0)
                bits[i / 8] |= (uint8_t)(0x80 >> (i % 8));
    }
    int8_t *model = (int8_t *)(rec + BINARY_PLANES * PLANE_BYTES);
    for (int i = 0; i < N * N; i++) {
        model[i] = (int8_t)lroundf(planes[i * POLICY_PLANES + 13] * 30); /* exact: steps of 1/30 */
    }
    uint16_t move = played == TG_PASS ? N * N : (uint16_t)(tg_point_y(b, played) * N + tg_point_x(b, played));
    memcpy(rec + BINARY_PLANES * PLANE_BYTES + N * N, &move, 2);
    rec[RECORD_BYTES - 1] = (uint8_t)(int8_t)(winner == 0 ? 0 : (winner > 0) == (c == TG_BLACK) ? 1 : -1);
    fwrite(rec, 1, sizeof rec, out);
}

/* One game's line: the positions kept, or -1 when it is no game. */
static long play_line(const char *line, double keep, tg_rng *rng, FILE *out)
{
    const char *s = strchr(line, '\t');
    if (!s)
        return -1;
    int winner = winner_of(atoll(line));
    tg_board b;
    tg_board_init(&b, N);
    tg_point prev[2] = {TG_NO_POINT, TG_NO_POINT};
    long kept = 0;
    int moves = 0;
    tg_color c;
    tg_point p;
    while (record_next_move(&s, N, &b, &c, &p)) {
        if (c != (moves % 2 ? TG_WHITE : TG_BLACK))
            break; /* two moves of a side in a row: not the game as played */
        if (p != TG_PASS && (b.color[p] != TG_EMPTY || tg_board_check(&b, p, c, TG_SUICIDE_FORBIDDEN) != TG_OK))
            break;
        if (tg_rng_below(rng, 1u << 20) < (uint32_t)(keep * (1u << 20))) {
            write_record(out, &b, c, prev[0], p, winner);
            kept++;
        }
        if (p == TG_PASS)
            tg_board_pass(&b);
        else
            tg_board_play(&b, p, c);
        prev[0] = prev[1];
        prev[1] = p;
        moves++;
    }
    return moves >= 20 ? kept : -1;
}

int main(int argc, char **argv)
{
    const char *out_path = NULL;
    double keep = 0.25;
    long games = -1, skip = 0;
    uint64_t seed = 1;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i += 2) { /* each option takes a value */
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "gen_policy: %s wants a value\n", argv[i]);
            return 2;
        }
        if (strcmp(argv[i], "--index") == 0)
            read_index(v);
        else if (strcmp(argv[i], "--keep") == 0)
            keep = atof(v);
        else if (strcmp(argv[i], "--seed") == 0)
            seed = (uint64_t)record_option_long("gen_policy", argv[i], v, 0, 1L << 40);
        else if (strcmp(argv[i], "--games") == 0)
            games = record_option_long("gen_policy", argv[i], v, 0, 1L << 30);
        else if (strcmp(argv[i], "--skip") == 0)
            skip = record_option_long("gen_policy", argv[i], v, 0, 1L << 30);
        else if (strcmp(argv[i], "--out") == 0)
            out_path = v;
        else {
            fprintf(stderr, "gen_policy: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (!out_path || i == argc || keep <= 0 || keep > 1) {
        fprintf(stderr, "usage: gen_policy [--index FILE] [--keep P] [--seed N] [--games N] [--skip N] "
                        "--out FILE RECORDS...\n");
        return 2;
    }
    FILE *out = fopen(out_path, "wb");
    if (!out) {
        fprintf(stderr, "gen_policy: cannot write %s: %s\n", out_path, strerror(errno));
        return 1;
    }
    tg_rng rng;
    tg_rng_seed(&rng, seed);
    long used = 0, met = 0, records = 0, with_winner = 0;
    static char line[1 << 16];
    for (; i < argc && (games < 0 || used < games); i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            fprintf(stderr, "gen_policy: cannot open %s: %s\n", argv[i], strerror(errno));
            return 1;
        }
        while ((games < 0 || used < games) && fgets(line, sizeof line, f)) {
            if (met++ < skip)
                continue;
            long k = play_line(line, keep, &rng, out);
            if (k < 0)
                continue;
            used++;
            records += k;
            if (winner_of(atoll(line)))
                with_winner++;
        }
        fclose(f);
    }
    if (fclose(out) != 0) {
        fprintf(stderr, "gen_policy: cannot write %s: %s\n", out_path, strerror(errno));
        return 1;
    }
    fprintf(stderr, "gen_policy: %ld games (%ld with a winner), %ld positions, %d bytes each\n", used, with_winner,
            records, RECORD_BYTES);
    return 0;
}
