/*
 * engines.h — the server's engine opponents: a bounded pool of worker
 * threads, each driving one GTP engine process through the referee's
 * engine module (tg_engine), never a search inside the event loop.  A job
 * is a whole position (set up afresh in the engine, so one process serves
 * any game) and a colour to move; its answer comes back on the loop
 * thread through net_wake.
 */
#ifndef TENGEN_SERVER_ENGINES_H
#define TENGEN_SERVER_ENGINES_H

#include <stdbool.h>
#include <stdint.h>

#include "net.h"

typedef struct engine_job {
    struct engine_job *next;
    uint64_t id;              /* the server's number for it (engine_pool_cancel) */
    int64_t game;
    int epoch;                /* the game's position count when asked: a stale answer is dropped */
    char command[512];        /* the engine's command line (/bin/sh -c) */
    char name[32];
    char *setup;              /* GTP lines to send first, '\n'-separated, malloc'd */
    char genmove[32];         /* "genmove b", or for a prediction "tengen-predict" / "final_score" */
    bool predict;             /* the free opening's sealed prediction, not a move */
    int64_t timeout_ms;
    /* the answer */
    bool ok;
    char move[32];            /* "D4", "pass", "resign" */
    char error[160];
} engine_job;

typedef struct engine_pool engine_pool;

/* `workers` threads (>= 1), at most `queue_max` jobs waiting. */
engine_pool *engine_pool_new(int workers, int queue_max, net *wake);
/* Queue a job (the pool takes it); false when the queue is full. */
bool engine_pool_submit(engine_pool *p, engine_job *job);
/* Take back a job still waiting in the queue (freed); false when a worker
 * has it already (its answer comes back as usual) or it is done. */
bool engine_pool_cancel(engine_pool *p, uint64_t id);
/* Whether a job submitted now would be queued. */
bool engine_pool_has_room(engine_pool *p);
/* A finished job (the caller frees it with engine_job_free), or NULL. */
engine_job *engine_pool_done(engine_pool *p);
void engine_job_free(engine_job *job);
/* Stop the workers (engines are told to quit and reaped) and free. */
void engine_pool_free(engine_pool *p);

#endif
