/*
 * matching.h — maximum-weight matching in a general graph (Edmonds'
 * blossom algorithm with Galil's O(n^3) dual updates), the engine under
 * the tournament pairing.  Vertices are 0..n-1, edges are given as pairs of
 * ends with an integer weight; the result is each vertex's mate or -1.
 *
 * With max_cardinality the matching is, among those of the greatest
 * number of edges, one of greatest weight: the pairing wants everyone
 * paired first and the best pairing second.
 */
#ifndef TENGEN_TOURNAMENT_MATCHING_H
#define TENGEN_TOURNAMENT_MATCHING_H

#include <stdbool.h>
#include <stdint.h>

#include "tengen/common.h"

/* ends[2k], ends[2k+1]: the vertices of edge k (distinct, in 0..n-1);
 * weight[k]: its weight, |weight| < 2^60 / n.  mate[v] (n entries) gets
 * v's partner or -1.  TG_ERR_INVALID for a bad edge, TG_ERR_NO_MEMORY. */
tg_status matching_max_weight(int n, int m, const int *ends, const int64_t *weight,
                              bool max_cardinality, int *mate);

#endif
