/*
 * train_model — learns the move model's feature weights (src/engine/model.c)
 * from game records, by Coulom's minorization-maximization for the
 * generalized Bradley-Terry model ("Computing Elo ratings of move patterns
 * in the game of Go", 2007).
 *
 * Each position of a record is a competition among the moves the search
 * would consider (legal, not an own eye: tactics_move_ok); the move played
 * wins.  A move's strength is the product of the weights (gammas) of its
 * features (features.c).  Every weight gets one virtual win and one
 * virtual loss against a weight of 1, Coulom's prior, so rare features stay
 * near 1.  Shapes chosen fewer than --min-wins times share one weight, and
 * so do the wide shapes chosen fewer than --wide-min-wins times (0: no wide
 * shapes at all, the model of the 3x3 shapes alone).
 *
 * Input: record files of two kinds, read in the order given.  A file
 * named *.sgf is one game (its main line; --player NAME: only the moves of
 * the player so named in PB or PW, and games without that player are left
 * out; games of another size than --size or with handicap stones too;
 * give --player and --size before the files they apply to).
 * Any other file is one game a line, as in the TYGEM files of the public
 * computer-go-dataset collection: anything, a tab, then the moves as
 * ";B[pd];W[dp];..." (no handicap stones); "B" or "W" before the tab means
 * that side's moves only.  A line whose moves stop being legal is used up
 * to there.  The first --games games that give positions train the model,
 * the next --test games test it.
 *
 * --base: learn corrections to the built-in model (data/model_main.tgw):
 * each candidate's strength is the built-in one times the weights learned,
 * and Coulom's prior pulls those towards 1, so the little a small data set
 * teaches is added to what the large one taught.  That is how
 * data/model_small9.tgw, the small boards' table, was made (docs/player.md).
 *
 * usage: train_model [--games N] [--test N] [--iterations N] [--min-wins N]
 *                    [--wide-min-wins N] [--size N] [--base] [--player NAME]
 *                    [--out FILE] RECORDS...
 * Prints the log-likelihood and how often the model's first choice is the
 * move played, on the training positions and on the held-out test games
 * (and the built-in model's on those); writes the table as a weights file
 * (engine/weights.h) to --out (default model.tgw): data/model_main.tgw, or
 * with --base --size 9, data/model_small9.tgw.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/features.h"
#include "engine/model.h"
#include "engine/pattern.h"
#include "tactics/tactics.h"
#include "engine/model_data.h"
#include "engine/weights.h"
#include "tengen/game.h"
#include "tengen/sgf.h"
#include "cli/cli_util.h"
#include "record_line.h"

typedef struct candidate {
    uint32_t shape; /* compact shape id, 0 for a rare shape */
    uint32_t wide;  /* compact wide shape id, 0 for a rare one */
    uint8_t value[FEATURE_GROUPS];
    float base; /* the built-in model's strength (--base: the weights learned correct it) */
} candidate;

static bool use_base;

typedef struct dataset {
    candidate *cand;
    size_t count, cap;
    size_t *start; /* position j: candidates start[j] .. start[j + 1] - 1 */
    uint32_t *chosen;
    uint32_t *raw_shape; /* canonical key of each candidate, before compact ids */
    uint64_t *raw_wide;  /* canonical wide key of each candidate */
    size_t positions, pos_cap;
    double base_ll;     /* the built-in model's log-likelihood of the moves played */
    size_t base_hits;   /* how often its first choice is the move played */
} dataset;

static int board_size = 19;

static const int group_values[FEATURE_GROUPS] = FEATURE_VALUES_INIT;

static void *resize(void *p, size_t n, size_t size)
{
    void *q = realloc(p, n * size);
    if (!q) {
        fprintf(stderr, "train_model: out of memory\n");
        exit(1);
    }
    return q;
}

/* Room for `need` candidates and `positions` + 2 position entries. */
static void reserve(dataset *d, size_t need, size_t positions)
{
    if (need > d->cap) {
        d->cap = d->cap ? 2 * d->cap : 1 << 20;
        d->cand = resize(d->cand, d->cap, sizeof *d->cand);
        d->raw_shape = resize(d->raw_shape, d->cap, sizeof *d->raw_shape);
        d->raw_wide = resize(d->raw_wide, d->cap, sizeof *d->raw_wide);
    }
    if (positions + 2 > d->pos_cap) {
        d->pos_cap = d->pos_cap ? 2 * d->pos_cap : 1 << 16;
        d->start = resize(d->start, d->pos_cap, sizeof *d->start);
        d->chosen = resize(d->chosen, d->pos_cap, sizeof *d->chosen);
    }
}

static void add_position(dataset *d, const tg_board *b, tg_color c, tg_point played, tg_point last2)
{
    tg_point fight[10];
    int fights = tactics_two_liberty_moves(b, c, fight);
    size_t first = d->count;
    features_board fb;
    features_board_init(&fb, b);
    long chosen = -1;
    double base_sum = 0, base_best = -1, base_chosen = 0;
    bool base_first = false;
    for (int i = 0; i < b->empty_count; i++) {
        tg_point p = b->empty[i];
        if (!tactics_move_ok(b, p, c))
            continue;
        move_features f;
        features_compute(b, &fb, p, c, last2, fight, fights, &f);
        double g = model_gamma(&f);
        base_sum += g;
        if (g > base_best) {
            base_best = g;
            base_first = p == played;
        }
        if (p == played)
            base_chosen = g;
        reserve(d, d->count + 1, d->positions);
        candidate *k = &d->cand[d->count];
        memcpy(k->value, f.value, sizeof k->value);
        k->base = use_base ? (float)g : 1.0f;
        k->shape = 0;
        k->wide = 0;
        d->raw_shape[d->count] = features_shape_canonical(f.shape_key);
        d->raw_wide[d->count] = features_wide_canonical(f.wide_key);
        if (p == played)
            chosen = (long)(d->count - first);
        d->count++;
    }
    if (chosen < 0) {
        d->count = first; /* an own eye filled, or the like: not a competition */
        return;
    }
    d->base_ll += log(base_chosen / base_sum);
    d->base_hits += base_first;
    reserve(d, d->count, d->positions);
    d->start[d->positions] = first;
    d->chosen[d->positions] = (uint32_t)(first + (size_t)chosen);
    d->positions++;
    d->start[d->positions] = d->count;
}

/* Replay one record line into the dataset; returns the moves used. */
static int read_game(dataset *d, const char *line)
{
    const char *s = strchr(line, '\t');
    /* "B\t" or "W\t" before the moves: learn only that side's moves */
    bool learn[3] = {false, true, true};
    if (s && s - line == 1 && (line[0] == 'B' || line[0] == 'W')) {
        learn[TG_BLACK] = line[0] == 'B';
        learn[TG_WHITE] = line[0] == 'W';
    }
    s = s ? s + 1 : line;
    tg_board b;
    tg_board_init(&b, board_size);
    tg_point prev[2] = {TG_NO_POINT, TG_NO_POINT}; /* the last two moves */
    int moves = 0;
    tg_color c;
    tg_point p;
    while (record_next_move(&s, board_size, &b, &c, &p)) {
        if (p == TG_PASS) {
            tg_board_pass(&b);
        } else {
            if (b.color[p] != TG_EMPTY || tg_board_check(&b, p, c, TG_SUICIDE_FORBIDDEN) != TG_OK)
                break;
            if (learn[c])
                add_position(d, &b, c, p, prev[0]);
            tg_board_play(&b, p, c);
        }
        prev[0] = prev[1];
        prev[1] = p;
        moves++;
    }
    return moves;
}

typedef struct model {
    int shapes;            /* compact ids 1..shapes, 0 rare */
    uint32_t *shape_key;   /* by compact id */
    int wides;             /* compact wide ids 1..wides, 0 rare */
    uint64_t *wide_key;    /* by compact id - 1 */
    int wide_offset;       /* where the wide shapes' weights start */
    double *gamma;         /* shapes + 1, wides + 1, then the groups' values */
    int offset[FEATURE_GROUPS];
    int total;
} model;

static double strength(const model *m, const candidate *k)
{
    double g = k->base * m->gamma[k->shape] * m->gamma[m->wide_offset + k->wide];
    for (int i = 0; i < FEATURE_GROUPS; i++)
        g *= m->gamma[m->offset[i] + k->value[i]];
    return g;
}

static int feature_of(const model *m, const candidate *k, int group)
{
    return group == -1 ? (int)k->shape : group == -2 ? m->wide_offset + (int)k->wide : m->offset[group] + k->value[group];
}

/* One MM update of the weights of one group (-1: the shapes, -2: the wide
 * shapes). */
static void mm_update(model *m, const dataset *d, int group, const double *wins)
{
    double *denom = calloc((size_t)m->total, sizeof *denom);
    for (size_t j = 0; j < d->positions; j++) {
        double e = 0;
        for (size_t k = d->start[j]; k < d->start[j + 1]; k++)
            e += strength(m, &d->cand[k]);
        for (size_t k = d->start[j]; k < d->start[j + 1]; k++) {
            int f = feature_of(m, &d->cand[k], group);
            denom[f] += strength(m, &d->cand[k]) / m->gamma[f] / e;
        }
    }
    int lo = group == -1 ? 0 : group == -2 ? m->wide_offset : m->offset[group];
    int hi = group == -1 ? m->shapes + 1 : group == -2 ? lo + m->wides + 1 : lo + group_values[group];
    for (int f = lo; f < hi; f++) {
        if (group >= 0 && group != FEATURE_LAST && group != FEATURE_LAST2 && group != FEATURE_LINE && f == lo)
            continue; /* "not this feature" stays 1: the anchor */
        m->gamma[f] = (wins[f] + 1) / (denom[f] + 2 / (m->gamma[f] + 1));
    }
    free(denom);
}

/* Mean log-likelihood of the move played, and how often it is the model's
 * first choice. */
static void evaluate(const model *m, const dataset *d, double *loglik, double *top1)
{
    double ll = 0;
    size_t hits = 0;
    for (size_t j = 0; j < d->positions; j++) {
        double e = 0, best = -1;
        size_t arg = 0;
        for (size_t k = d->start[j]; k < d->start[j + 1]; k++) {
            double g = strength(m, &d->cand[k]);
            e += g;
            if (g > best) {
                best = g;
                arg = k;
            }
        }
        ll += log(strength(m, &d->cand[d->chosen[j]]) / e);
        hits += arg == d->chosen[j];
    }
    *loglik = d->positions ? ll / (double)d->positions : 0;
    *top1 = d->positions ? (double)hits / (double)d->positions : 0;
}

static void assign_shapes(dataset *d, const uint32_t *ids)
{
    for (size_t k = 0; k < d->count; k++)
        d->cand[k].shape = ids[d->raw_shape[k]];
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Compact wide ids: the position of the key in m->wide_key (sorted), plus one. */
static void assign_wides(dataset *d, const model *m)
{
    for (size_t k = 0; k < d->count; k++) {
        const uint64_t *hit = m->wides ? bsearch(&d->raw_wide[k], m->wide_key, (size_t)m->wides, sizeof *m->wide_key,
                                                 cmp_u64)
                                       : NULL;
        d->cand[k].wide = hit ? (uint32_t)(hit - m->wide_key) + 1 : 0;
    }
}

/* The table as a weights file (engine/weights.h, engine/model_data.h):
 * board size 0 for a table of its own, the --size trained on for
 * corrections to the built-in one (--base). */
static uint8_t *table_bytes(const model *m, size_t *len)
{
    weights_writer wr;
    weights_writer_begin(&wr, WEIGHTS_MOVE_MODEL, use_base ? board_size : 0, WEIGHTS_ANY_KOMI);
    uint32_t shapes = (uint32_t)m->shapes, wides = (uint32_t)m->wides, one = 1;
    uint32_t groups[2] = {FEATURE_GROUPS, MODEL_MAX_VALUES};
    uint32_t *shape_keys = malloc((shapes + 1) * sizeof *shape_keys);
    uint64_t *wide_keys = malloc((wides + 1) * sizeof *wide_keys);
    float *wide_gammas = malloc((wides + 1) * sizeof *wide_gammas);
    float group_gammas[FEATURE_GROUPS][MODEL_MAX_VALUES] = {{0}};
    if (!shape_keys || !wide_keys || !wide_gammas) {
        free(shape_keys);
        free(wide_keys);
        free(wide_gammas);
        return NULL;
    }
    for (uint32_t i = 0; i < shapes; i++)
        shape_keys[i] = m->shape_key[i + 1];
    for (uint32_t i = 0; i < wides; i++) {
        wide_keys[i] = m->wide_key[i];
        wide_gammas[i] = (float)m->gamma[m->wide_offset + 1 + i];
    }
    for (int g = 0; g < FEATURE_GROUPS; g++)
        for (int v = 0; v < group_values[g]; v++)
            group_gammas[g][v] = (float)m->gamma[m->offset[g] + v];
    float rare_shape = (float)m->gamma[0], rare_wide = (float)m->gamma[m->wide_offset];
    float *shape_gammas = malloc((shapes + 1) * sizeof *shape_gammas);
    for (uint32_t i = 0; shape_gammas && i < shapes; i++)
        shape_gammas[i] = (float)m->gamma[i + 1];
    weights_writer_add(&wr, "shape_keys", WEIGHTS_U32, 1, &shapes, shape_keys);
    weights_writer_add(&wr, "shape_gammas", WEIGHTS_F32, 1, &shapes, shape_gammas ? shape_gammas : (float[]){0});
    weights_writer_add(&wr, "rare_shape_gamma", WEIGHTS_F32, 1, &one, &rare_shape);
    weights_writer_add(&wr, "wide_keys", WEIGHTS_U64, 1, &wides, wide_keys);
    weights_writer_add(&wr, "wide_gammas", WEIGHTS_F32, 1, &wides, wide_gammas);
    weights_writer_add(&wr, "rare_wide_gamma", WEIGHTS_F32, 1, &one, &rare_wide);
    weights_writer_add(&wr, "group_gammas", WEIGHTS_F32, 2, groups, group_gammas);
    free(shape_keys);
    free(shape_gammas);
    free(wide_keys);
    free(wide_gammas);
    return shape_gammas ? weights_writer_end(&wr, len) : NULL;
}

/* The records, one game a line: "B" or "W" and a tab (learn only that
 * side's moves) or anything and a tab, then the moves. */
typedef struct records {
    char **line;
    size_t count, cap;
} records;

static void records_add(records *r, char *line)
{
    if (r->count == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 1024;
        r->line = resize(r->line, r->cap, sizeof *r->line);
    }
    r->line[r->count++] = line;
}

static void read_lines(records *r, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(1);
    }
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        records_add(r, line);
        line = NULL;
        cap = 0;
    }
    free(line);
    fclose(f);
}

/* An SGF file's first game as a record line: its main line, the moves of
 * the player named `player` (PB or PW) only when one is given.  A file
 * that does not load, is of another size, has handicap stones or lacks
 * the player is left out, with a word on standard error for the first
 * two. */
static void read_sgf(records *r, const char *path, const char *player)
{
    size_t len;
    char *data = cli_read_file(path, &len);
    if (!data) {
        perror(path);
        exit(1);
    }
    tg_game *g = NULL;
    tg_sgf_info info;
    tg_sgf_error err;
    if (tg_sgf_load_game(data, len, -1, &g, &info, &err) != TG_OK) {
        fprintf(stderr, "train_model: %s: %s, left out\n", path, err.message);
        free(data);
        return;
    }
    free(data);
    char learn = '-';
    if (player)
        learn = !strcmp(info.black, player) ? 'B' : !strcmp(info.white, player) ? 'W' : 0;
    if (tg_game_size(g) != board_size || tg_game_setup_count(g) > 0 || !learn) {
        tg_game_free(g);
        return;
    }
    int n = tg_game_move_count(g);
    char *line = resize(NULL, (size_t)n * 6 + 4, 1);
    char *at = line;
    *at++ = learn;
    *at++ = '\t';
    for (int i = 0; i < n; i++) {
        const tg_move *m = tg_game_move(g, i);
        char xy[3] = "";
        if (m->point != TG_PASS)
            tg_sgf_encode_point(tg_game_board(g), m->point, xy);
        at += sprintf(at, ";%c[%s]", m->color == TG_BLACK ? 'B' : 'W', xy);
    }
    *at = '\0';
    tg_game_free(g);
    records_add(r, line);
}

/* Replay records from *next on until `games` of them gave positions. */
static int use_records(const records *r, size_t *next, dataset *d, int games)
{
    int n = 0;
    while (n < games && *next < r->count)
        if (read_game(d, r->line[(*next)++]) > 0)
            n++;
    return n;
}

int main(int argc, char **argv)
{
    int games = 600, test_games = 100, iterations = 8, min_wins = 3, wide_min_wins = 5;
    const char *out_path = "model.tgw", *player = NULL, *source = NULL;
    records recs = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--games") && i + 1 < argc)
            games = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--test") && i + 1 < argc)
            test_games = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
            iterations = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--min-wins") && i + 1 < argc)
            min_wins = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--wide-min-wins") && i + 1 < argc)
            wide_min_wins = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--base"))
            use_base = true;
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            board_size = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out_path = argv[++i];
        else if (!strcmp(argv[i], "--player") && i + 1 < argc)
            player = argv[++i];
        else if (argv[i][0] != '-') {
            size_t len = strlen(argv[i]);
            if (len > 4 && !strcmp(argv[i] + len - 4, ".sgf"))
                read_sgf(&recs, argv[i], player);
            else
                read_lines(&recs, argv[i]);
            if (!source)
                source = argv[i];
        }
        else {
            fprintf(stderr, "usage: train_model [--games N] [--test N] [--iterations N] [--min-wins N] "
                            "[--wide-min-wins N (0: none)] [--size N] [--base] [--player NAME] "
                            "[--out FILE] RECORDS...\n");
            return 2;
        }
    }
    if (!source) {
        fprintf(stderr, "train_model: no records given\n");
        return 2;
    }
    pattern_init();
    model_init();
    dataset train = {0}, test = {0};
    size_t next = 0;
    int used = use_records(&recs, &next, &train, games);
    int tested = use_records(&recs, &next, &test, test_games);
    fprintf(stderr, "training: %d games, %zu positions, %zu candidates; test: %d games, %zu positions\n", used,
            train.positions, train.count, tested, test.positions);
    if (test.positions)
        fprintf(stderr, "built-in model on the test positions: log-likelihood %.4f, first choice %.1f%%\n",
                test.base_ll / (double)test.positions, 100.0 * (double)test.base_hits / (double)test.positions);

    /* shapes: compact ids for those chosen min_wins times or more */
    uint32_t *chosen_count = calloc(1u << 20, sizeof *chosen_count);
    uint32_t *ids = calloc(1u << 20, sizeof *ids);
    for (size_t j = 0; j < train.positions; j++)
        chosen_count[train.raw_shape[train.chosen[j]]]++;
    model m = {0};
    m.shape_key = calloc((1u << 20) + 1, sizeof *m.shape_key);
    for (uint32_t key = 0; key < (1u << 20); key++)
        if (chosen_count[key] >= (uint32_t)min_wins) {
            ids[key] = (uint32_t)++m.shapes;
            m.shape_key[m.shapes] = key;
        }
    assign_shapes(&train, ids);
    assign_shapes(&test, ids);
    /* wide shapes: those chosen wide_min_wins times or more, sorted */
    uint64_t *chosen_wide = malloc((train.positions + 1) * sizeof *chosen_wide);
    for (size_t j = 0; j < train.positions; j++)
        chosen_wide[j] = train.raw_wide[train.chosen[j]];
    qsort(chosen_wide, train.positions, sizeof *chosen_wide, cmp_u64);
    m.wide_key = malloc((train.positions + 1) * sizeof *m.wide_key);
    for (size_t j = 0, run; wide_min_wins > 0 && j < train.positions; j += run) {
        for (run = 1; j + run < train.positions && chosen_wide[j + run] == chosen_wide[j]; run++)
            ;
        if (run >= (size_t)wide_min_wins)
            m.wide_key[m.wides++] = chosen_wide[j];
    }
    free(chosen_wide);
    assign_wides(&train, &m);
    assign_wides(&test, &m);
    m.wide_offset = m.shapes + 1;
    m.total = m.wide_offset + m.wides + 1;
    for (int g = 0; g < FEATURE_GROUPS; g++) {
        m.offset[g] = m.total;
        m.total += group_values[g];
    }
    m.gamma = malloc((size_t)m.total * sizeof *m.gamma);
    for (int f = 0; f < m.total; f++)
        m.gamma[f] = 1;
    double *wins = calloc((size_t)m.total, sizeof *wins);
    for (size_t j = 0; j < train.positions; j++) {
        const candidate *k = &train.cand[train.chosen[j]];
        wins[k->shape]++;
        wins[m.wide_offset + k->wide]++;
        for (int g = 0; g < FEATURE_GROUPS; g++)
            wins[m.offset[g] + k->value[g]]++;
    }
    fprintf(stderr, "%d shapes chosen %d times or more, %d wide shapes %d times or more\n", m.shapes, min_wins,
            m.wides, wide_min_wins);

    for (int it = 0; it <= iterations; it++) {
        double ll, top1, tll, ttop1;
        evaluate(&m, &train, &ll, &top1);
        evaluate(&m, &test, &tll, &ttop1);
        fprintf(stderr, "iteration %d: training log-likelihood %.4f, first choice %.1f%%; test %.4f, %.1f%%\n", it,
                ll, 100 * top1, tll, 100 * ttop1);
        if (it == iterations)
            break;
        mm_update(&m, &train, -1, wins);
        if (m.wides)
            mm_update(&m, &train, -2, wins);
        for (int g = 0; g < FEATURE_GROUPS; g++)
            mm_update(&m, &train, g, wins);
    }

    size_t len = 0;
    uint8_t *bytes = table_bytes(&m, &len);
    FILE *out = fopen(out_path, "wb");
    if (!bytes || !out || fwrite(bytes, 1, len, out) != len || fclose(out) != 0) {
        perror(out_path);
        return 1;
    }
    free(bytes);
    fprintf(stderr, "wrote %s (%zu bytes) from the first %d games of %s (%zu positions)\n", out_path,
            len, used, source, train.positions);
    return 0;
}
