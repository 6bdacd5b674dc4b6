/*
 * store_async.h — the store off the event loop.  Three threads, each a
 * FIFO of jobs: the writer (its own connection: every write, in order),
 * the reader (another connection: reads, which never wait for a write
 * lock under WAL), and a worker with no store (Argon2id and other slow
 * computation).  A job runs on its thread and comes back to the loop
 * (store_async_done, after the wake callback), where its `done` runs.
 *
 * The game events of one turn of the loop form one "chained" write job
 * (a batch).  Batches depend on each other: when one fails, those queued
 * after it are discarded unrun (rc STORE_DISCARDED) until the loop, having
 * rebuilt its state from the store, queues store_async_reset.  Other jobs
 * (an account, a challenge) stand alone and run whatever failed before.
 *
 * Both back ends run on these threads: SQLite, and PostgreSQL
 * (store_pg.c) with libpq's synchronous calls, each thread a connection of
 * its own.
 */
#ifndef TENGEN_SERVER_STORE_ASYNC_H
#define TENGEN_SERVER_STORE_ASYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

#define STORE_DISCARDED (-2)

typedef struct store_job store_job;
typedef enum store_lane { STORE_WRITE, STORE_READ, STORE_WORK } store_lane;
/* On a store thread: 0 or an error (with job->error).  db is NULL on the
 * worker. */
typedef int (*store_run_fn)(store *db, store_job *job);
/* On the loop, once run returned; the job is then the done function's. */
typedef void (*store_done_fn)(void *ctx, store_job *job);

struct store_job {
    store_job *next;
    store_run_fn run;
    store_done_fn done;
    bool transaction;        /* writer: run between BEGIN and COMMIT (rolled back on failure) */
    bool chained;            /* writer: a batch of game events (see above) */
    bool reset;              /* writer: the end of a failed chain */
    store_lane lane;         /* where it ran */
    int rc;
    char error[200];
    int64_t queued_ms, finished_ms;
};

typedef struct store_async store_async;

/* Takes writer and reader (two connections to one database).  wake(arg)
 * is called from the threads when a job is done. */
store_async *store_async_new(store *writer, store *reader, void (*wake)(void *), void *arg);
void store_async_submit(store_async *a, store_lane lane, store_job *job);
/* Queue the end of a failed chain: batches after it run again. */
void store_async_reset(store_async *a, store_job *job);
/* A finished job, or NULL. */
store_job *store_async_done(store_async *a);
/* Jobs queued or running on a lane. */
int store_async_pending(store_async *a, store_lane lane);
/* Wait until every queued job has run (shutdown and tests). */
void store_async_drain(store_async *a);
/* Stop the threads after their queues are empty; close the stores.  Jobs
 * done but not collected are freed with free(). */
void store_async_free(store_async *a);
int64_t store_async_now_ms(void);

#endif
