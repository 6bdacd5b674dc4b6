/*
 * engines.c — worker threads, each owning at most one engine process
 * (restarted when a job names another command line), taking jobs from one
 * queue and handing answers back to the event loop.
 */
#include "engines.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/referee.h"

struct engine_pool {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    engine_job *queue, *queue_tail, *done;
    int queued, queue_max;
    bool stop;
    atomic_int stop_flag;   /* makes an engine's wait return at once */
    net *wake;
    pthread_t *threads;
    int workers;
};

void engine_job_free(engine_job *job)
{
    if (job) {
        free(job->setup);
        free(job);
    }
}

static engine_job *take(engine_pool *p)
{
    pthread_mutex_lock(&p->lock);
    while (!p->queue && !p->stop)
        pthread_cond_wait(&p->ready, &p->lock);
    engine_job *job = p->queue;
    if (job && !p->stop) {
        p->queue = job->next;
        if (!p->queue)
            p->queue_tail = NULL;
        p->queued--;
    } else {
        job = NULL;
    }
    pthread_mutex_unlock(&p->lock);
    return job;
}

static void finish(engine_pool *p, engine_job *job)
{
    pthread_mutex_lock(&p->lock);
    job->next = p->done;
    p->done = job;
    pthread_mutex_unlock(&p->lock);
    net_wake(p->wake);
}

/* Send each setup line, then genmove; true with job->move on success. */
static bool run_job(tg_engine *e, engine_job *job)
{
    char answer[256];
    int64_t deadline = tg_clock_now_ms() + 30000;
    for (char *line = job->setup, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        tg_reply r = tg_engine_send(e, line, deadline, answer, sizeof answer);
        if (r != TG_REPLY_OK && r != TG_REPLY_FAILURE) {
            snprintf(job->error, sizeof job->error, "%s: %s", line, tg_reply_text(r));
            return false;
        }
    }
    tg_reply r = tg_engine_send(e, job->genmove, tg_clock_now_ms() + job->timeout_ms, answer,
                                sizeof answer);
    if (r != TG_REPLY_OK) {
        snprintf(job->error, sizeof job->error, "genmove: %s %.100s", tg_reply_text(r), answer);
        return false;
    }
    snprintf(job->move, sizeof job->move, "%.31s", answer);
    return true;
}

static void *worker(void *arg)
{
    engine_pool *p = arg;
    tg_engine *engine = NULL;
    char running[512] = "";
    engine_job *job;
    while ((job = take(p))) {
        for (int attempt = 0; attempt < 2 && !job->ok; attempt++) {
            if (!engine || strcmp(running, job->command) != 0 || !tg_engine_running(engine)) {
                tg_engine_free(engine);
                engine = NULL;
                tg_engine_config cfg = {job->name, job->command, NULL, 1000, &p->stop_flag};
                if (tg_engine_start(&cfg, &engine, job->error, sizeof job->error) != TG_OK) {
                    engine = NULL;
                    continue;
                }
                snprintf(running, sizeof running, "%s", job->command);
            }
            job->ok = run_job(engine, job);
            if (!job->ok) { /* a fresh process for the second try */
                tg_engine_free(engine);
                engine = NULL;
            }
        }
        finish(p, job);
    }
    tg_engine_free(engine);
    return NULL;
}

engine_pool *engine_pool_new(int workers, int queue_max, net *wake)
{
    engine_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->ready, NULL);
    p->queue_max = queue_max;
    p->wake = wake;
    p->threads = calloc((size_t)workers, sizeof *p->threads);
    if (!p->threads) {
        free(p);
        return NULL;
    }
    for (int i = 0; i < workers; i++)
        if (pthread_create(&p->threads[p->workers], NULL, worker, p) == 0)
            p->workers++;
    return p;
}

bool engine_pool_submit(engine_pool *p, engine_job *job)
{
    pthread_mutex_lock(&p->lock);
    bool ok = p->queued < p->queue_max && !p->stop;
    if (ok) {
        job->next = NULL;
        if (p->queue_tail)
            p->queue_tail->next = job;
        else
            p->queue = job;
        p->queue_tail = job;
        p->queued++;
        pthread_cond_signal(&p->ready);
    }
    pthread_mutex_unlock(&p->lock);
    return ok;
}

bool engine_pool_cancel(engine_pool *p, uint64_t id)
{
    pthread_mutex_lock(&p->lock);
    engine_job *prev = NULL, *job = p->queue;
    while (job && job->id != id) {
        prev = job;
        job = job->next;
    }
    if (job) {
        if (prev)
            prev->next = job->next;
        else
            p->queue = job->next;
        if (p->queue_tail == job)
            p->queue_tail = prev;
        p->queued--;
    }
    pthread_mutex_unlock(&p->lock);
    engine_job_free(job);
    return job != NULL;
}

bool engine_pool_has_room(engine_pool *p)
{
    pthread_mutex_lock(&p->lock);
    bool room = p->queued < p->queue_max;
    pthread_mutex_unlock(&p->lock);
    return room;
}

engine_job *engine_pool_done(engine_pool *p)
{
    pthread_mutex_lock(&p->lock);
    engine_job *job = p->done;
    if (job)
        p->done = job->next;
    pthread_mutex_unlock(&p->lock);
    return job;
}

static void free_list(engine_job *job)
{
    while (job) {
        engine_job *next = job->next;
        engine_job_free(job);
        job = next;
    }
}

void engine_pool_free(engine_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    atomic_store(&p->stop_flag, 1);
    pthread_cond_broadcast(&p->ready);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->workers; i++)
        pthread_join(p->threads[i], NULL);
    free_list(p->queue);
    free_list(p->done);
    free(p->threads);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->ready);
    free(p);
}
