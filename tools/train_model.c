/*
 * train_model — learns the move model's feature weights (src/engine/model.c)
 * from game records, by Coulom's minorization-maximization for the
 * generalized Bradley-Terry model ("Computing Elo ratings of move patterns
 * in the game of Go", 2007).
 *
 * Each position of a record is a competition among the moves the search
 * would consider (legal, not an own eye: policy_move_ok); the move played
 * wins.  A move's strength is the product of the weights (gammas) of its
 * features (features.c).  Every weight gets one virtual win and one
 * virtual loss against a weight of 1, Coulom's prior, so rare features stay
 * near 1.  Shapes chosen fewer than --min-wins times share one weight, and
 * so do the wide shapes chosen fewer than --wide-min-wins times (0: no wide
 * shapes at all, the model of the 3x3 shapes alone).
 *
 * Input: one game a line, as in the TYGEM files of the public
 * computer-go-dataset collection: anything, a tab, then the moves as
 * ";B[pd];W[dp];..." (19x19, no handicap stones).  A line whose moves
 * stop being legal is used up to there.
 *
 * usage: train_model [--games N] [--test N] [--iterations N] [--min-wins N]
 *                    [--wide-min-wins N] [--out FILE] RECORDS...
 * Prints the log-likelihood and how often the model's first choice is the
 * move played, on the training positions and on --test held-out games; writes
 * the C table to --out (default: standard output).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_internal.h"

typedef struct candidate {
    uint32_t shape; /* compact shape id, 0 for a rare shape */
    uint32_t wide;  /* compact wide shape id, 0 for a rare one */
    uint8_t value[FEATURE_GROUPS];
} candidate;

typedef struct dataset {
    candidate *cand;
    size_t count, cap;
    size_t *start; /* position j: candidates start[j] .. start[j + 1] - 1 */
    uint32_t *chosen;
    uint32_t *raw_shape; /* canonical key of each candidate, before compact ids */
    uint64_t *raw_wide;  /* canonical wide key of each candidate */
    size_t positions, pos_cap;
} dataset;

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
    int fights = policy_two_liberty_moves(b, c, fight);
    size_t first = d->count;
    features_board fb;
    features_board_init(&fb, b);
    long chosen = -1;
    for (int i = 0; i < b->empty_count; i++) {
        tg_point p = b->empty[i];
        if (!policy_move_ok(b, p, c))
            continue;
        move_features f;
        features_compute(b, &fb, p, c, last2, fight, fights, &f);
        reserve(d, d->count + 1, d->positions);
        candidate *k = &d->cand[d->count];
        memcpy(k->value, f.value, sizeof k->value);
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
    s = s ? s + 1 : line;
    tg_board b;
    tg_board_init(&b, 19);
    tg_point prev[2] = {TG_NO_POINT, TG_NO_POINT}; /* the last two moves */
    int moves = 0;
    while ((s = strchr(s, ';')) != NULL) {
        s++;
        if ((s[0] != 'B' && s[0] != 'W') || s[1] != '[')
            break;
        tg_color c = s[0] == 'B' ? TG_BLACK : TG_WHITE;
        tg_point p;
        if (s[2] == ']' || (s[2] == 't' && s[3] == 't')) {
            p = TG_PASS;
        } else {
            int x = s[2] - 'a', y = s[3] - 'a';
            if (x < 0 || x >= 19 || y < 0 || y >= 19 || s[4] != ']')
                break;
            p = tg_point_at(&b, x, y);
        }
        if (p == TG_PASS) {
            tg_board_pass(&b);
        } else {
            if (b.color[p] != TG_EMPTY || tg_board_check(&b, p, c, TG_SUICIDE_FORBIDDEN) != TG_OK)
                break;
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
    double g = m->gamma[k->shape] * m->gamma[m->wide_offset + k->wide];
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

static void write_table(FILE *out, const model *m, size_t positions, int games, const char *source)
{
    const char *base = strrchr(source, '/');
    fprintf(out, "/* Generated by tools/train_model from the first %d games of %s (%zu positions);\n   do not edit. */\n",
            games, base ? base + 1 : source, positions);
    fprintf(out, "#include \"engine/model_data.h\"\n\n");
    fprintf(out, "const int model_shape_count = %d;\n", m->shapes);
    fprintf(out, "const float model_rare_shape_gamma = %#.6gf;\n", m->gamma[0]);
    fprintf(out, "const model_shape model_shapes[%d] = {\n", m->shapes);
    for (int i = 1; i <= m->shapes; i++)
        fprintf(out, "    {0x%05x, %#.6gf},\n", m->shape_key[i], m->gamma[i]);
    fprintf(out, "};\n");
    fprintf(out, "const int model_wide_count = %d;\n", m->wides);
    fprintf(out, "const float model_rare_wide_gamma = %#.6gf;\n", m->gamma[m->wide_offset]);
    fprintf(out, "const model_wide model_wides[%d] = {\n", m->wides ? m->wides : 1);
    for (int i = 0; i < m->wides; i++)
        fprintf(out, "    {0x%012llxull, %#.6gf},\n", (unsigned long long)m->wide_key[i], m->gamma[m->wide_offset + 1 + i]);
    if (!m->wides)
        fprintf(out, "    {0, 1.0f}, /* unused */\n");
    fprintf(out, "};\n");
    fprintf(out, "const float model_group_gammas[FEATURE_GROUPS][MODEL_MAX_VALUES] = {\n");
    for (int g = 0; g < FEATURE_GROUPS; g++) {
        fprintf(out, "    {");
        for (int v = 0; v < group_values[g]; v++)
            fprintf(out, "%s%#.6gf", v ? ", " : "", m->gamma[m->offset[g] + v]);
        fprintf(out, "},\n");
    }
    fprintf(out, "};\n");
}

static int read_file(const char *path, dataset *d, int skip, int games)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(1);
    }
    char *line = NULL;
    size_t cap = 0;
    int n = 0, seen = 0;
    while (n < games && getline(&line, &cap, f) > 0) {
        if (seen++ < skip)
            continue;
        if (read_game(d, line) > 0)
            n++;
    }
    free(line);
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    int games = 600, test_games = 100, iterations = 8, min_wins = 3, wide_min_wins = 5;
    const char *out_path = NULL, *input = NULL;
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
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out_path = argv[++i];
        else if (argv[i][0] != '-' && !input)
            input = argv[i];
        else {
            fprintf(stderr, "usage: train_model [--games N] [--test N] [--iterations N] [--min-wins N] "
                            "[--wide-min-wins N (0: none)] [--out FILE] RECORDS\n");
            return 2;
        }
    }
    if (!input) {
        fprintf(stderr, "train_model: no records given\n");
        return 2;
    }
    pattern_init();
    dataset train = {0}, test = {0};
    int used = read_file(input, &train, 0, games);
    int tested = read_file(input, &test, games, test_games);
    fprintf(stderr, "training: %d games, %zu positions, %zu candidates; test: %d games, %zu positions\n", used,
            train.positions, train.count, tested, test.positions);

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

    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) {
        perror(out_path);
        return 1;
    }
    write_table(out, &m, train.positions, used, input);
    if (out != stdout)
        fclose(out);
    return 0;
}
