/*
 * analysis.h — tengen's analysis of a whole game record for `tengen serve`:
 * every position of an SGF's main line searched by the tree search with a
 * fixed playout budget, giving for each the win rate and score lead, the
 * best candidates with their visits, win rates and principal variations,
 * and the ownership map, as one JSON document (the page's graph and board
 * read it; the store keeps it).
 *
 * The searches run on one worker thread of their own, in-process, never on
 * the event loop: the search's report (candidates, score lead, ownership)
 * is taken as the library gives it instead of parsed back from a GTP
 * engine's text, one search tree follows the game from position to
 * position (each search starts from the subtree its move leads to), and
 * the engine processes of the live games are never kept waiting by an
 * analysis.  Finished jobs come back to the loop through net_wake, as the
 * engine pool's answers do.
 */
#ifndef TENGEN_SERVER_ANALYSIS_H
#define TENGEN_SERVER_ANALYSIS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net.h"

#define ANALYSIS_SGF_MAX (128 * 1024) /* bytes of an SGF to analyse */
#define ANALYSIS_MOVES_MAX 600        /* moves of its main line */
#define ANALYSIS_CANDIDATES 8         /* candidates kept a position */
#define ANALYSIS_PV_MAX 12            /* moves of a principal variation kept */

typedef struct analysis_job {
    struct analysis_job *next;
    int64_t task;             /* the caller's id for it */
    char *sgf;                /* the record (malloc'd, NUL-terminated) */
    size_t sgf_len;
    int playouts;             /* a position */
    int first;                /* the first position analysed (analysis_run) */
    /* progress, written by the worker, read by the loop meanwhile */
    atomic_int positions_done, positions_total;
    /* the answer */
    bool ok;
    char error[160];
    char *json;               /* the analysis (malloc'd) */
} analysis_job;

/* A record's main line, checked as the analysis will read it (size, at
 * most ANALYSIS_MOVES_MAX moves, every move legal): 0 with *moves, or -1
 * with err saying what is wrong and where. */
int analysis_check_sgf(const char *sgf, size_t len, int *moves, char *err, size_t errlen);

/* Analyse the positions of the record's main line (the start and after
 * each move) from the one after `first` moves (< 0: the last alone) with
 * `playouts` a position; *done counts positions as they finish, *total is
 * set first.  Stops early (-1, "stopped") when *stop becomes true.  0 with
 * *json (malloc'd), or -1 with err. */
int analysis_run(const char *sgf, size_t len, int first, int playouts, atomic_int *done,
                 atomic_int *total, const atomic_bool *stop, char **json, char *err, size_t errlen);

typedef struct analysis_pool analysis_pool;

/* One worker thread; net_wake(wake) when a job is done (wake may be NULL:
 * the caller polls). */
analysis_pool *analysis_pool_new(net *wake);
/* Queue a job (the pool takes it; the caller bounds how many). */
bool analysis_pool_submit(analysis_pool *p, analysis_job *job);
/* A finished job (the caller frees it with analysis_job_free), or NULL. */
analysis_job *analysis_pool_done(analysis_pool *p);
void analysis_job_free(analysis_job *job);
/* Stop the running search, drop the queue, join and free. */
void analysis_pool_free(analysis_pool *p);

#endif
