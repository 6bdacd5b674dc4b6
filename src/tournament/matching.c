/*
 * matching.c — maximum-weight matching in a general graph: Edmonds'
 * blossom algorithm in the primal-dual form of Galil ("Efficient
 * algorithms for finding maximum matching in graphs", 1986), O(n^3).
 *
 * The walk, for a reader new to it.  Each vertex v has a dual u(v) and each
 * non-trivial blossom b a dual z(b); an edge k = (i, j) of weight w is
 * *tight* when its slack u(i) + u(j) - 2w (plus the z of the blossoms
 * holding both ends) is zero.  Weights are doubled in the slack so that
 * every dual stays an integer.  A *stage* grows alternating trees from
 * every free vertex over tight edges only, labelling the top-level
 * blossoms S (outer: even distance from a root) and T (inner).  An edge
 * between two S blossoms either closes an odd cycle — a new blossom,
 * shrunk to one vertex — or joins two trees: an augmenting path, which
 * flips the matching along it and ends the stage.  When no tight edge is
 * left to follow, the duals move by the largest delta that keeps every
 * slack non-negative; that makes a new edge tight (delta 2, 3), brings a T
 * blossom's dual to zero so it is expanded (delta 4), or brings a vertex
 * dual to zero, which proves the matching optimal (delta 1).
 *
 * Edges are named by their two *endpoints*: endpoint p = 2k or 2k + 1 is
 * ends[p], and p ^ 1 is the other end of the same edge.  mate[v] is the
 * endpoint at the far side of v's matched edge; labelend[b] the endpoint
 * through which b got its label.  Blossom ids n..2n-1 are recycled.
 */
#include "tournament/matching.h"

#include <stdlib.h>
#include <string.h>

typedef struct int_list {
    int *item;
    int count, capacity;
} int_list;

enum { FREE = 0, OUTER = 1, INNER = 2, BREADCRUMB = 4 };

typedef struct blossom_state {
    int n, m;
    const int *ends;
    const int64_t *weight;
    int *adjacency_start, *adjacency; /* per vertex: the far endpoints of its edges */
    int *mate;                        /* n: far endpoint, or -1 */
    int *label, *labelend;            /* 2n */
    int *inblossom;                   /* n: top-level blossom of a vertex */
    int *parent, *base;               /* 2n */
    int_list *children, *child_ends;  /* 2n: the odd cycle, and the edges joining it */
    int *bestedge;                    /* 2n: least-slack edge to another S blossom */
    int_list *best_edges;             /* 2n: an S blossom's candidates (count -1: none) */
    int *unused, unused_count;
    int64_t *dual;                    /* 2n */
    bool *allowed;                    /* m: known tight */
    int *best_to;                     /* 2n scratch, -1 outside add_blossom */
    int_list queue, scratch;
    bool out_of_memory;
} blossom_state;

static void list_push(blossom_state *s, int_list *l, int x)
{
    if (l->count == l->capacity) {
        int capacity = l->capacity ? l->capacity * 2 : 16;
        int *grown = realloc(l->item, (size_t)capacity * sizeof *grown);
        if (!grown) {
            s->out_of_memory = true;
            return;
        }
        l->item = grown;
        l->capacity = capacity;
    }
    l->item[l->count++] = x;
}

static int64_t slack(const blossom_state *s, int k)
{
    return s->dual[s->ends[2 * k]] + s->dual[s->ends[2 * k + 1]] - 2 * s->weight[k];
}

/* Every vertex inside blossom b, appended to out. */
static void leaves(blossom_state *s, int b, int_list *out)
{
    if (b < s->n) {
        list_push(s, out, b);
        return;
    }
    for (int i = 0; i < s->children[b].count; i++)
        leaves(s, s->children[b].item[i], out);
}

/* Python-style index into a cyclic list: j may be negative. */
static int at(const int_list *l, int j)
{
    j %= l->count;
    return l->item[j < 0 ? j + l->count : j];
}

static void assign_label(blossom_state *s, int w, int t, int p)
{
    int b = s->inblossom[w];
    s->label[w] = s->label[b] = t;
    s->labelend[w] = s->labelend[b] = p;
    s->bestedge[w] = s->bestedge[b] = -1;
    if (t == OUTER) {
        leaves(s, b, &s->queue);
    } else {
        /* an inner blossom's base is matched: its mate becomes outer */
        int base = s->base[b];
        assign_label(s, s->ends[s->mate[base]], OUTER, s->mate[base] ^ 1);
    }
}

/* Trace back from v and w to their roots: the base of the blossom the
 * edge closes, or -1 when the roots differ (an augmenting path). */
static int scan_blossom(blossom_state *s, int v, int w)
{
    int_list *path = &s->scratch;
    path->count = 0;
    int base = -1;
    while (v != -1 || w != -1) {
        int b = s->inblossom[v];
        if (s->label[b] & BREADCRUMB) {
            base = s->base[b];
            break;
        }
        list_push(s, path, b);
        s->label[b] = OUTER | BREADCRUMB;
        if (s->labelend[b] == -1) {
            v = -1;
        } else {
            v = s->ends[s->labelend[b]];
            b = s->inblossom[v];
            v = s->ends[s->labelend[b]];
        }
        if (w != -1) {
            int t = v;
            v = w;
            w = t;
        }
    }
    for (int i = 0; i < path->count; i++)
        s->label[path->item[i]] = OUTER;
    return base;
}

static void reverse(int_list *l)
{
    for (int i = 0, j = l->count - 1; i < j; i++, j--) {
        int t = l->item[i];
        l->item[i] = l->item[j];
        l->item[j] = t;
    }
}

/* The least-slack edges from the new blossom b to each other S blossom. */
static void gather_best_edges(blossom_state *s, int b)
{
    int_list *path = &s->children[b];
    int_list touched = {0};
    for (int c = 0; c < path->count; c++) {
        int bv = path->item[c];
        int_list edges = {0};
        if (s->best_edges[bv].count >= 0 && bv >= s->n) {
            edges = s->best_edges[bv];
        } else {
            s->scratch.count = 0;
            leaves(s, bv, &s->scratch);
            for (int i = 0; i < s->scratch.count; i++) {
                int v = s->scratch.item[i];
                for (int a = s->adjacency_start[v]; a < s->adjacency_start[v + 1]; a++)
                    list_push(s, &edges, s->adjacency[a] / 2);
            }
        }
        for (int e = 0; e < edges.count; e++) {
            int k = edges.item[e];
            int j = s->ends[2 * k + 1];
            if (s->inblossom[j] == b)
                j = s->ends[2 * k];
            int bj = s->inblossom[j];
            if (bj != b && s->label[bj] == OUTER &&
                (s->best_to[bj] == -1 || slack(s, k) < slack(s, s->best_to[bj]))) {
                if (s->best_to[bj] == -1)
                    list_push(s, &touched, bj);
                s->best_to[bj] = k;
            }
        }
        free(edges.item);
        s->best_edges[bv] = (int_list){.count = -1};
        s->bestedge[bv] = -1;
    }
    int_list *best = &s->best_edges[b];
    *best = (int_list){0};
    s->bestedge[b] = -1;
    for (int i = 0; i < touched.count; i++) {
        int k = s->best_to[touched.item[i]];
        s->best_to[touched.item[i]] = -1;
        list_push(s, best, k);
        if (s->bestedge[b] == -1 || slack(s, k) < slack(s, s->bestedge[b]))
            s->bestedge[b] = k;
    }
    free(touched.item);
}

/* Shrink the odd cycle closed by edge k, whose stem ends at base. */
static void add_blossom(blossom_state *s, int base, int k)
{
    int v = s->ends[2 * k], w = s->ends[2 * k + 1];
    int bb = s->inblossom[base], bv = s->inblossom[v], bw = s->inblossom[w];
    int b = s->unused[--s->unused_count];
    s->base[b] = base;
    s->parent[b] = -1;
    s->parent[bb] = b;
    int_list *path = &s->children[b], *endps = &s->child_ends[b];
    path->count = endps->count = 0;
    while (bv != bb) {
        s->parent[bv] = b;
        list_push(s, path, bv);
        list_push(s, endps, s->labelend[bv]);
        v = s->ends[s->labelend[bv]];
        bv = s->inblossom[v];
    }
    list_push(s, path, bb);
    reverse(path);
    reverse(endps);
    list_push(s, endps, 2 * k);
    while (bw != bb) {
        s->parent[bw] = b;
        list_push(s, path, bw);
        list_push(s, endps, s->labelend[bw] ^ 1);
        w = s->ends[s->labelend[bw]];
        bw = s->inblossom[w];
    }
    s->label[b] = OUTER;
    s->labelend[b] = s->labelend[bb];
    s->dual[b] = 0;
    s->scratch.count = 0;
    leaves(s, b, &s->scratch);
    for (int i = 0; i < s->scratch.count; i++) {
        int x = s->scratch.item[i];
        if (s->label[s->inblossom[x]] == INNER)
            list_push(s, &s->queue, x);
        s->inblossom[x] = b;
    }
    gather_best_edges(s, b);
}

static void set_inblossom(blossom_state *s, int b, int to)
{
    s->scratch.count = 0;
    leaves(s, b, &s->scratch);
    for (int i = 0; i < s->scratch.count; i++)
        s->inblossom[s->scratch.item[i]] = to;
}

/* Relabel the children of an expanded inner blossom so that the tree
 * stays alternating: the path from the entry child to the base is
 * relabelled T/S, the other children lose their labels unless reached. */
static void relabel_expanded(blossom_state *s, int b)
{
    int_list *ch = &s->children[b], *ep = &s->child_ends[b];
    int entry = s->inblossom[s->ends[s->labelend[b] ^ 1]];
    int j = 0;
    while (ch->item[j] != entry)
        j++;
    int step, trick;
    if (j & 1) {
        j -= ch->count;
        step = 1;
        trick = 0;
    } else {
        step = -1;
        trick = 1;
    }
    int p = s->labelend[b];
    while (j != 0) {
        s->label[s->ends[p ^ 1]] = FREE;
        s->label[s->ends[at(ep, j - trick) ^ trick ^ 1]] = FREE;
        assign_label(s, s->ends[p ^ 1], INNER, p);
        s->allowed[at(ep, j - trick) / 2] = true;
        j += step;
        p = at(ep, j - trick) ^ trick;
        s->allowed[p / 2] = true;
        j += step;
    }
    int bv = at(ch, j);
    s->label[s->ends[p ^ 1]] = s->label[bv] = INNER;
    s->labelend[s->ends[p ^ 1]] = s->labelend[bv] = p;
    s->bestedge[bv] = -1;
    j += step;
    while (at(ch, j) != entry) {
        bv = at(ch, j);
        j += step;
        if (s->label[bv] == OUTER)
            continue;
        s->scratch.count = 0;
        leaves(s, bv, &s->scratch);
        int v = -1;
        for (int i = 0; i < s->scratch.count; i++)
            if (s->label[s->scratch.item[i]] != FREE) {
                v = s->scratch.item[i];
                break;
            }
        if (v != -1) {
            s->label[v] = FREE;
            s->label[s->ends[s->mate[s->base[bv]]]] = FREE;
            assign_label(s, v, INNER, s->labelend[v]);
        }
    }
}

static void expand_blossom(blossom_state *s, int b, bool end_of_stage)
{
    for (int i = 0; i < s->children[b].count; i++) {
        int c = s->children[b].item[i];
        s->parent[c] = -1;
        if (c < s->n)
            s->inblossom[c] = c;
        else if (end_of_stage && s->dual[c] == 0)
            expand_blossom(s, c, end_of_stage);
        else
            set_inblossom(s, c, c);
    }
    if (!end_of_stage && s->label[b] == INNER)
        relabel_expanded(s, b);
    s->label[b] = s->labelend[b] = -1;
    s->children[b].count = s->child_ends[b].count = 0;
    s->base[b] = -1;
    free(s->best_edges[b].item);
    s->best_edges[b] = (int_list){.count = -1};
    s->bestedge[b] = -1;
    s->unused[s->unused_count++] = b;
}

static void rotate(blossom_state *s, int_list *l, int i)
{
    int_list copy = {0};
    for (int j = 0; j < l->count; j++)
        list_push(s, &copy, l->item[(i + j) % l->count]);
    if (copy.count == l->count)
        memcpy(l->item, copy.item, (size_t)l->count * sizeof *l->item);
    free(copy.item);
}

/* Flip the matching inside blossom b along the even path from vertex v to
 * its base; v becomes the base. */
static void augment_blossom(blossom_state *s, int b, int v)
{
    int t = v;
    while (s->parent[t] != b)
        t = s->parent[t];
    if (t >= s->n)
        augment_blossom(s, t, v);
    int_list *ch = &s->children[b], *ep = &s->child_ends[b];
    int i = 0;
    while (ch->item[i] != t)
        i++;
    int j = i, step, trick;
    if (i & 1) {
        j -= ch->count;
        step = 1;
        trick = 0;
    } else {
        step = -1;
        trick = 1;
    }
    while (j != 0) {
        j += step;
        t = at(ch, j);
        int p = at(ep, j - trick) ^ trick;
        if (t >= s->n)
            augment_blossom(s, t, s->ends[p]);
        j += step;
        t = at(ch, j);
        if (t >= s->n)
            augment_blossom(s, t, s->ends[p ^ 1]);
        s->mate[s->ends[p]] = p ^ 1;
        s->mate[s->ends[p ^ 1]] = p;
    }
    rotate(s, ch, i);
    rotate(s, ep, i);
    s->base[b] = s->base[ch->item[0]];
}

static void augment_matching(blossom_state *s, int k)
{
    int starts[2] = {s->ends[2 * k], s->ends[2 * k + 1]};
    int far[2] = {2 * k + 1, 2 * k};
    for (int side = 0; side < 2; side++) {
        int v = starts[side], p = far[side];
        for (;;) {
            int bs = s->inblossom[v];
            if (bs >= s->n)
                augment_blossom(s, bs, v);
            s->mate[v] = p;
            if (s->labelend[bs] == -1)
                break;
            int t = s->ends[s->labelend[bs]];
            int bt = s->inblossom[t];
            v = s->ends[s->labelend[bt]];
            int j = s->ends[s->labelend[bt] ^ 1];
            if (bt >= s->n)
                augment_blossom(s, bt, j);
            s->mate[j] = s->labelend[bt];
            p = s->labelend[bt] ^ 1;
        }
    }
}

/* Follow tight edges from the queued S vertices; true once augmented. */
static bool grow_trees(blossom_state *s)
{
    while (s->queue.count > 0 && !s->out_of_memory) {
        int v = s->queue.item[--s->queue.count];
        for (int a = s->adjacency_start[v]; a < s->adjacency_start[v + 1]; a++) {
            int p = s->adjacency[a], k = p / 2, w = s->ends[p];
            if (s->inblossom[v] == s->inblossom[w])
                continue;
            int64_t kslack = 0;
            if (!s->allowed[k]) {
                kslack = slack(s, k);
                if (kslack <= 0)
                    s->allowed[k] = true;
            }
            int bw = s->inblossom[w];
            if (s->allowed[k]) {
                if (s->label[bw] == FREE) {
                    assign_label(s, w, INNER, p ^ 1);
                } else if (s->label[bw] == OUTER) {
                    int base = scan_blossom(s, v, w);
                    if (base >= 0) {
                        add_blossom(s, base, k);
                    } else {
                        augment_matching(s, k);
                        return true;
                    }
                } else if (s->label[w] == FREE) {
                    s->label[w] = INNER;
                    s->labelend[w] = p ^ 1;
                }
            } else if (s->label[bw] == OUTER) {
                int b = s->inblossom[v];
                if (s->bestedge[b] == -1 || kslack < slack(s, s->bestedge[b]))
                    s->bestedge[b] = k;
            } else if (s->label[w] == FREE) {
                if (s->bestedge[w] == -1 || kslack < slack(s, s->bestedge[w]))
                    s->bestedge[w] = k;
            }
        }
    }
    return false;
}

/* Move the duals by the largest safe delta; false when the matching is
 * optimal (delta 1). */
static bool update_duals(blossom_state *s, bool max_cardinality)
{
    int n = s->n, type = -1, edge = -1, blossom = -1;
    int64_t delta = 0;
    if (!max_cardinality) {
        type = 1;
        delta = s->dual[0];
        for (int v = 1; v < n; v++)
            if (s->dual[v] < delta)
                delta = s->dual[v];
    }
    for (int v = 0; v < n; v++)
        if (s->label[s->inblossom[v]] == FREE && s->bestedge[v] != -1) {
            int64_t d = slack(s, s->bestedge[v]);
            if (type == -1 || d < delta) {
                delta = d;
                type = 2;
                edge = s->bestedge[v];
            }
        }
    for (int b = 0; b < 2 * n; b++)
        if (s->parent[b] == -1 && s->label[b] == OUTER && s->bestedge[b] != -1) {
            int64_t d = slack(s, s->bestedge[b]) / 2;
            if (type == -1 || d < delta) {
                delta = d;
                type = 3;
                edge = s->bestedge[b];
            }
        }
    for (int b = n; b < 2 * n; b++)
        if (s->base[b] >= 0 && s->parent[b] == -1 && s->label[b] == INNER &&
            (type == -1 || s->dual[b] < delta)) {
            delta = s->dual[b];
            type = 4;
            blossom = b;
        }
    if (type == -1) {
        /* max cardinality and nothing left to grow: the optimum */
        type = 1;
        delta = s->dual[0];
        for (int v = 1; v < n; v++)
            if (s->dual[v] < delta)
                delta = s->dual[v];
        if (delta < 0)
            delta = 0;
    }
    for (int v = 0; v < n; v++) {
        int l = s->label[s->inblossom[v]];
        if (l == OUTER)
            s->dual[v] -= delta;
        else if (l == INNER)
            s->dual[v] += delta;
    }
    for (int b = n; b < 2 * n; b++)
        if (s->base[b] >= 0 && s->parent[b] == -1) {
            if (s->label[b] == OUTER)
                s->dual[b] += delta;
            else if (s->label[b] == INNER)
                s->dual[b] -= delta;
        }
    if (type == 1)
        return false;
    if (type == 4) {
        expand_blossom(s, blossom, false);
    } else {
        s->allowed[edge] = true;
        int i = s->ends[2 * edge];
        if (s->label[s->inblossom[i]] == FREE)
            i = s->ends[2 * edge + 1];
        list_push(s, &s->queue, i);
    }
    return true;
}

/* One stage: grow trees from every free vertex until an augmentation;
 * false when none is possible any more. */
static bool run_stage(blossom_state *s, bool max_cardinality)
{
    int n = s->n;
    for (int b = 0; b < 2 * n; b++) {
        s->label[b] = FREE;
        s->bestedge[b] = -1;
        if (b >= n) {
            free(s->best_edges[b].item);
            s->best_edges[b] = (int_list){.count = -1};
        }
    }
    memset(s->allowed, 0, (size_t)s->m * sizeof *s->allowed);
    s->queue.count = 0;
    for (int v = 0; v < n; v++)
        if (s->mate[v] == -1 && s->label[s->inblossom[v]] == FREE)
            assign_label(s, v, OUTER, -1);
    bool augmented = false;
    for (;;) {
        augmented = grow_trees(s);
        if (augmented || s->out_of_memory || !update_duals(s, max_cardinality))
            break;
    }
    if (!augmented)
        return false;
    for (int b = n; b < 2 * n; b++)
        if (s->parent[b] == -1 && s->base[b] >= 0 && s->label[b] == OUTER && s->dual[b] == 0)
            expand_blossom(s, b, true);
    return true;
}

static void release(blossom_state *s)
{
    if (s->children)
        for (int b = 0; b < 2 * s->n; b++) {
            free(s->children[b].item);
            free(s->child_ends[b].item);
            free(s->best_edges[b].item);
        }
    free(s->adjacency_start);
    free(s->adjacency);
    free(s->label);
    free(s->labelend);
    free(s->inblossom);
    free(s->parent);
    free(s->base);
    free(s->children);
    free(s->child_ends);
    free(s->bestedge);
    free(s->best_edges);
    free(s->unused);
    free(s->dual);
    free(s->allowed);
    free(s->best_to);
    free(s->queue.item);
    free(s->scratch.item);
}

static bool build_adjacency(blossom_state *s)
{
    int n = s->n, m = s->m;
    s->adjacency_start = calloc((size_t)n + 1, sizeof *s->adjacency_start);
    s->adjacency = malloc((size_t)(2 * m + 1) * sizeof *s->adjacency);
    if (!s->adjacency_start || !s->adjacency)
        return false;
    for (int p = 0; p < 2 * m; p++)
        s->adjacency_start[s->ends[p] + 1]++;
    for (int v = 0; v < n; v++)
        s->adjacency_start[v + 1] += s->adjacency_start[v];
    int *fill = malloc((size_t)(n + 1) * sizeof *fill);
    if (!fill)
        return false;
    memcpy(fill, s->adjacency_start, (size_t)(n + 1) * sizeof *fill);
    /* vertex ends[p] reaches the far endpoint p ^ 1 */
    for (int p = 0; p < 2 * m; p++)
        s->adjacency[fill[s->ends[p]]++] = p ^ 1;
    free(fill);
    return true;
}

tg_status matching_max_weight(int n, int m, const int *ends, const int64_t *weight,
                              bool max_cardinality, int *mate)
{
    if (n < 0 || m < 0 || (n > 0 && !mate))
        return TG_ERR_INVALID;
    int64_t max_weight = 0;
    for (int k = 0; k < m; k++) {
        if (ends[2 * k] < 0 || ends[2 * k] >= n || ends[2 * k + 1] < 0 || ends[2 * k + 1] >= n ||
            ends[2 * k] == ends[2 * k + 1])
            return TG_ERR_INVALID;
        if (weight[k] > max_weight)
            max_weight = weight[k];
    }
    for (int v = 0; v < n; v++)
        mate[v] = -1;
    if (n == 0 || m == 0)
        return TG_OK;
    blossom_state s = {.n = n, .m = m, .ends = ends, .weight = weight};
    size_t n2 = 2 * (size_t)n;
    s.mate = mate; /* far endpoints while running, vertices at the end */
    s.label = malloc(n2 * sizeof *s.label);
    s.labelend = malloc(n2 * sizeof *s.labelend);
    s.inblossom = malloc((size_t)n * sizeof *s.inblossom);
    s.parent = malloc(n2 * sizeof *s.parent);
    s.base = malloc(n2 * sizeof *s.base);
    s.children = calloc(n2, sizeof *s.children);
    s.child_ends = calloc(n2, sizeof *s.child_ends);
    s.bestedge = malloc(n2 * sizeof *s.bestedge);
    s.best_edges = calloc(n2, sizeof *s.best_edges);
    s.unused = malloc((size_t)n * sizeof *s.unused);
    s.dual = malloc(n2 * sizeof *s.dual);
    s.allowed = calloc((size_t)m, sizeof *s.allowed);
    s.best_to = malloc(n2 * sizeof *s.best_to);
    if (!s.label || !s.labelend || !s.inblossom || !s.parent || !s.base || !s.children ||
        !s.child_ends || !s.bestedge || !s.best_edges || !s.unused || !s.dual || !s.allowed ||
        !s.best_to || !build_adjacency(&s)) {
        release(&s);
        return TG_ERR_NO_MEMORY;
    }
    for (size_t b = 0; b < n2; b++) {
        s.labelend[b] = -1;
        s.parent[b] = -1;
        s.base[b] = b < (size_t)n ? (int)b : -1;
        s.best_edges[b].count = -1;
        s.best_to[b] = -1;
        s.dual[b] = b < (size_t)n ? max_weight : 0;
    }
    for (int v = 0; v < n; v++) {
        s.inblossom[v] = v;
        s.unused[v] = 2 * n - 1 - v;
    }
    s.unused_count = n;
    for (int stage = 0; stage < n && !s.out_of_memory; stage++)
        if (!run_stage(&s, max_cardinality))
            break;
    bool failed = s.out_of_memory;
    release(&s);
    if (failed)
        return TG_ERR_NO_MEMORY;
    for (int v = 0; v < n; v++)
        if (mate[v] >= 0)
            mate[v] = ends[mate[v]];
    return TG_OK;
}
