/*
 * store_async.c — see store_async.h.
 */
#include "store_async.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct lane {
    store_async *owner;
    store *db;               /* NULL for the worker */
    store_job *head, *tail;
    int pending;             /* queued or running */
    bool chain_failed;       /* writer: a batch failed, no reset yet */
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

static void run_write(lane *l, store_job *job)
{
    store *db = l->db;
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

static void *lane_main(void *arg)
{
    lane *l = arg;
    store_async *a = l->owner;
    bool worked = false;
    pthread_mutex_lock(&a->lock);
    for (;;) {
        while (!l->head && !a->stop) {
            if (worked && l->db) { /* idle: give back read snapshots, checkpoint */
                pthread_mutex_unlock(&a->lock);
                l->db->ops->idle(l->db);
                pthread_mutex_lock(&a->lock);
                worked = false;
                continue;
            }
            pthread_cond_wait(&l->ready, &a->lock);
        }
        store_job *job = l->head;
        if (!job)
            break; /* stopping, and nothing left */
        l->head = job->next;
        if (!l->head)
            l->tail = NULL;
        pthread_mutex_unlock(&a->lock);
        job->error[0] = '\0';
        if (l == &a->lanes[STORE_WRITE])
            run_write(l, job);
        else
            job->rc = job->run(l->db, job);
        job->finished_ms = store_async_now_ms();
        worked = true;
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
