/*
 * search_report.c — what a search tells its caller: the root's candidates
 * by visits with their winrates, score leads and principal variations
 * (tg_search_report, for genmove's decisions and the analysis commands),
 * and the dead stones by the playouts' ownership map.
 */
#include <stdlib.h>

#include "engine/search_internal.h"

const tg_search_report *tg_search_last_report(const tg_search *s) { return &s->report; }
const float *tg_search_ownership(const tg_search *s) { return s->ownership; }

static void principal_variation(tg_search *s, uint32_t from, tg_search_candidate *c)
{
    tree_pool *pool = search_active_pool(s);
    uint32_t n = from;
    c->pv_length = 0;
    while (n && c->pv_length < 24) {
        tree_node *node = tree_at(pool, n);
        c->pv[c->pv_length++] = node->move;
        uint32_t first = stat_get(&node->first_child), best = 0, bv = 0;
        for (uint32_t i = 0; first && i < node->child_count; i++) {
            uint32_t v = stat_get(&tree_at(pool, first + i)->visits);
            if (v > bv) {
                bv = v;
                best = first + i;
            }
        }
        if (bv < 2)
            break;
        n = best;
    }
}

static int by_visits(const void *a, const void *b)
{
    const tg_search_candidate *x = a, *y = b;
    return (y->visits > x->visits) - (y->visits < x->visits);
}

void search_make_report(tg_search *s)
{
    tg_search_report *r = &s->report;
    tree_pool *pool = search_active_pool(s);
    const tree_node *root = tree_at(pool, s->root);
    uint32_t first = stat_get((_Atomic uint32_t *)&root->first_child);
    tg_search_candidate all[TG_MAX_POINTS + 1];
    int n = 0;
    for (uint32_t i = 0; first && i < root->child_count; i++) {
        tree_node *c = tree_at(pool, first + i);
        uint32_t v = stat_get(&c->visits);
        tg_search_candidate *k = &all[n++];
        k->move = c->move;
        k->visits = (int)v;
        k->winrate = v ? node_wins(c, s->lambda) / v : 0;
        unsigned pv = node_prior_visits(c);
        k->prior = pv ? atomic_load_explicit(&c->prior_wins2, memory_order_relaxed) * 0.5 / pv : 0;
        k->score_lead = v ? (double)atomic_load_explicit(&c->score_sum2, memory_order_relaxed) / (2.0 * v) : 0;
        k->pv_length = 0;
    }
    qsort(all, (size_t)n, sizeof all[0], by_visits);
    r->candidate_count = n < 32 ? n : 32;
    for (int i = 0; i < r->candidate_count; i++) {
        r->candidates[i] = all[i];
        principal_variation(s, search_child_for(pool, s->root, all[i].move, s->to_move), &r->candidates[i]);
    }
    r->playouts = atomic_load(&s->playouts);
    r->seconds = search_seconds_since(&s->start);
    r->value_function = s->value != NULL;
    r->winrate = r->candidate_count ? r->candidates[0].winrate : 0.5;
}

void tg_search_dead_stones(const tg_search *s, const tg_board *b, uint8_t *dead)
{
    for (int p = 0; p < b->npoints; p++) {
        tg_color c = (tg_color)b->color[p];
        float own = s->ownership[p];
        dead[p] = (c == TG_BLACK && own < -0.5f) || (c == TG_WHITE && own > 0.5f);
    }
}
