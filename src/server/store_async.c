/*
 * store_async.c — see store_async.h.
 */
#include "store_async.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct lane {
    store_async *owner;
    store *db;               /* NULL for the worker */
    store_job *head, *tail;
    int pending;             /* queued or running */
    bool chain_failed;       /* writer: a batch failed, no reset yet */
    store_job *last_of_group; /* writer: the job run_write finished last */
    pthread_t thread;
    pthread_cond_t ready;
    bool started;
} lane;

struct store_async {
    pthread_mutex_t lock;
    pthread_cond_t idle;
    lane lanes[3];
    store_job *done, *done_tail;
    bool stop;
    void (*wake)(void *);
    void *arg;
};

int64_t store_async_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void finish_job(store_async *a, lane *l, store_job *job);

/* Chained batches queued together are one transaction: one commit (one
 * fsync) however many turns of the loop queued them meanwhile.  A failure
 * fails the first and discards the rest (they were rolled back with it). */
static void run_chain(store_async *a, lane *l, store_job *first)
{
    store *db = l->db;
    store_job *group[256];
    int n = 0;
    group[n++] = first;
    pthread_mutex_lock(&a->lock);
    while (n < 256 && l->head && l->head->chained && !l->head->reset) {
        store_job *next = l->head;
        l->head = next->next;
        if (!l->head)
            l->tail = NULL;
        group[n++] = next;
    }
    pthread_mutex_unlock(&a->lock);
    int rc = db->ops->begin(db) != 0 ? -1 : 0;
    int failed = -1;
    for (int i = 0; rc == 0 && i < n; i++) {
        group[i]->error[0] = '\0';
        if ((rc = group[i]->run(db, group[i])) != 0)
            failed = i;
    }
    if (rc == 0 && db->ops->commit(db) != 0) {
        rc = -1;
        failed = 0;
        snprintf(group[0]->error, sizeof group[0]->error, "%s", db->ops->error(db));
    } else if (rc != 0 && failed < 0) { /* BEGIN failed */
        failed = 0;
        snprintf(group[0]->error, sizeof group[0]->error, "%s", db->ops->error(db));
    }
    if (rc != 0) {
        db->ops->rollback(db);
        l->chain_failed = true;
        /* the first of the group tells of the failure; the others were
         * rolled back with it */
        if (failed != 0)
            snprintf(group[0]->error, sizeof group[0]->error, "%s", group[failed]->error);
    }
    for (int i = 0; i < n; i++) {
        group[i]->rc = rc == 0 ? 0 : i == 0 ? -1 : STORE_DISCARDED;
        if (rc != 0 && i > 0)
            snprintf(group[i]->error, sizeof group[i]->error, "an earlier write failed");
        group[i]->finished_ms = store_async_now_ms();
        if (i + 1 < n)
            finish_job(a, l, group[i]);
    }
    /* the last is finished by the caller, as any job */
    l->last_of_group = group[n - 1];
}

static void run_write(store_async *a, lane *l, store_job *job)
{
    store *db = l->db;
    l->last_of_group = job;
    if (job->reset) {
        l->chain_failed = false;
        job->rc = 0;
        return;
    }
    if (job->chained && l->chain_failed) {
        job->rc = STORE_DISCARDED;
        snprintf(job->error, sizeof job->error, "an earlier write failed");
        return;
    }
    if (job->chained && job->transaction)
        return run_chain(a, l, job);
    if (job->transaction && db->ops->begin(db) != 0) {
        job->rc = -1;
        snprintf(job->error, sizeof job->error, "%s", db->ops->error(db));
    } else {
        job->rc = job->run(db, job);
        if (job->transaction) {
            if (job->rc == 0 && db->ops->commit(db) != 0) {
                job->rc = -1;
                snprintf(job->error, sizeof job->error, "%s", db->ops->error(db));
            }
            if (job->rc != 0)
                db->ops->rollback(db);
        }
    }
    if (job->chained && job->rc != 0)
        l->chain_failed = true;
}

/* A job is done: to the loop's list, and the loop woken.  Called without
 * the lock. */
static void finish_job(store_async *a, lane *l, store_job *job)
{
    pthread_mutex_lock(&a->lock);
    job->next = NULL;
    if (a->done_tail)
        a->done_tail->next = job;
    else
        a->done = job;
    a->done_tail = job;
    l->pending--;
    pthread_cond_broadcast(&a->idle);
    pthread_mutex_unlock(&a->lock);
    if (a->wake)
        a->wake(a->arg);
}

/* The writer checkpoints when idle at most this often (autocheckpoint
 * does it by size meanwhile). */
#define IDLE_EVERY_MS 1000

static void *lane_main(void *arg)
{
    lane *l = arg;
    store_async *a = l->owner;
    bool worked = false;
    int64_t last_idle = 0;
    pthread_mutex_lock(&a->lock);
    for (;;) {
        while (!l->head && !a->stop) {
            if (!worked || !l->db) {
                pthread_cond_wait(&l->ready, &a->lock);
                continue;
            }
            /* idle after work: give back read snapshots and checkpoint, at
             * most once a second (autocheckpoint works by size meanwhile) */
            int64_t wait_ms = last_idle + IDLE_EVERY_MS - store_async_now_ms();
            if (wait_ms > 0) {
                struct timespec until;
                clock_gettime(CLOCK_REALTIME, &until);
                until.tv_sec += wait_ms / 1000;
                until.tv_nsec += (wait_ms % 1000) * 1000000L;
                if (until.tv_nsec >= 1000000000L) {
                    until.tv_sec++;
                    until.tv_nsec -= 1000000000L;
                }
                pthread_cond_timedwait(&l->ready, &a->lock, &until);
                continue;
            }
            pthread_mutex_unlock(&a->lock);
            l->db->ops->idle(l->db);
            pthread_mutex_lock(&a->lock);
            worked = false;
            last_idle = store_async_now_ms();
        }
        store_job *job = l->head;
        if (!job)
            break; /* stopping, and nothing left */
        l->head = job->next;
        if (!l->head)
            l->tail = NULL;
        pthread_mutex_unlock(&a->lock);
        job->error[0] = '\0';
        if (l == &a->lanes[STORE_WRITE]) {
            run_write(a, l, job);
            job = l->last_of_group;
        } else {
            job->rc = job->run(l->db, job);
        }
        job->finished_ms = store_async_now_ms();
        worked = true;
        finish_job(a, l, job);
        pthread_mutex_lock(&a->lock);
    }
    pthread_mutex_unlock(&a->lock);
    return NULL;
}

store_async *store_async_new(store *writer, store *reader, void (*wake)(void *), void *arg)
{
    store_async *a = calloc(1, sizeof *a);
    if (!a) {
        store_close(writer);
        store_close(reader);
        return NULL;
    }
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->idle, NULL);
    a->wake = wake;
    a->arg = arg;
    a->lanes[STORE_WRITE].db = writer;
    a->lanes[STORE_READ].db = reader;
    for (int i = 0; i < 3; i++) {
        lane *l = &a->lanes[i];
        l->owner = a;
        pthread_cond_init(&l->ready, NULL);
        l->started = pthread_create(&l->thread, NULL, lane_main, l) == 0;
        if (!l->started) {
            store_async_free(a);
            return NULL;
        }
    }
    return a;
}

static void enqueue(store_async *a, store_lane which, store_job *job)
{
    lane *l = &a->lanes[which];
    job->lane = which;
    job->next = NULL;
    job->queued_ms = store_async_now_ms();
    pthread_mutex_lock(&a->lock);
    if (l->tail)
        l->tail->next = job;
    else
        l->head = job;
    l->tail = job;
    l->pending++;
    pthread_cond_signal(&l->ready);
    pthread_mutex_unlock(&a->lock);
}

void store_async_submit(store_async *a, store_lane lane, store_job *job)
{
    job->reset = false;
    enqueue(a, lane, job);
}

void store_async_reset(store_async *a, store_job *job)
{
    job->reset = true;
    job->chained = false;
    enqueue(a, STORE_WRITE, job);
}

store_job *store_async_done(store_async *a)
{
    pthread_mutex_lock(&a->lock);
    store_job *job = a->done;
    if (job) {
        a->done = job->next;
        if (!a->done)
            a->done_tail = NULL;
        job->next = NULL;
    }
    pthread_mutex_unlock(&a->lock);
    return job;
}

int store_async_pending(store_async *a, store_lane which)
{
    pthread_mutex_lock(&a->lock);
    int n = a->lanes[which].pending;
    pthread_mutex_unlock(&a->lock);
    return n;
}

void store_async_drain(store_async *a)
{
    pthread_mutex_lock(&a->lock);
    while (a->lanes[0].pending || a->lanes[1].pending || a->lanes[2].pending)
        pthread_cond_wait(&a->idle, &a->lock);
    pthread_mutex_unlock(&a->lock);
}

void store_async_free(store_async *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    a->stop = true;
    for (int i = 0; i < 3; i++)
        pthread_cond_signal(&a->lanes[i].ready);
    pthread_mutex_unlock(&a->lock);
    for (int i = 0; i < 3; i++) {
        lane *l = &a->lanes[i];
        if (l->started)
            pthread_join(l->thread, NULL);
        pthread_cond_destroy(&l->ready);
        store_close(l->db);
    }
    for (store_job *job = a->done; job;) {
        store_job *next = job->next;
        free(job);
        job = next;
    }
    pthread_cond_destroy(&a->idle);
    pthread_mutex_destroy(&a->lock);
    free(a);
}
