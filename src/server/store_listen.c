/*
 * store_listen.c — the LISTEN connection of a node (store_listen.h).  The
 * thread waits in poll() on the connection's socket and on a pipe that
 * store_listen_free writes to; it never holds a transaction open (an idle
 * listener in a transaction would keep the database's notification queue
 * from being cleaned).
 */
#include "store_listen.h"

#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Payloads waiting beyond this are dropped and the server told `lost`
 * (it reads everything again): a loop that stalls cannot make the
 * listener grow without bound. */
#define QUEUE_MAX 100000

typedef struct heard {
    struct heard *next;
    char text[];
} heard;

struct store_listener {
    char *url;
    void (*wake)(void *);
    void *arg;
    pthread_t thread;
    bool started;
    int stop_pipe[2];
    pthread_mutex_t lock;
    heard *head, *tail;      /* under lock */
    int count;
    bool lost;               /* under lock */
    bool connected;          /* under lock */
    bool stop;               /* under lock */
    PGconn *conn;            /* the thread's */
};

static void ignore_notice(void *arg, const PGresult *r)
{
    (void)arg;
    (void)r;
}

/* A new connection that listens: NULL (and the error in err) when not. */
static PGconn *listen_on(const char *url, char *err, size_t errlen)
{
    PGconn *c = store_pg_connect(url);
    if (!c) {
        snprintf(err, errlen, "PostgreSQL: out of memory");
        return NULL;
    }
    PQsetNoticeReceiver(c, ignore_notice, NULL);
    if (PQstatus(c) == CONNECTION_OK) {
        PGresult *r = PQexec(c, "LISTEN tengen");
        bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (ok && PQsetnonblocking(c, 1) == 0)
            return c;
    }
    snprintf(err, errlen, "PostgreSQL: %s", PQerrorMessage(c));
    size_t n = strlen(err);
    while (n > 0 && (err[n - 1] == '\n' || err[n - 1] == ' '))
        err[--n] = '\0';
    PQfinish(c);
    return NULL;
}

static bool stopping(store_listener *l)
{
    pthread_mutex_lock(&l->lock);
    bool stop = l->stop;
    pthread_mutex_unlock(&l->lock);
    return stop;
}

static void set_state(store_listener *l, bool connected, bool lost)
{
    pthread_mutex_lock(&l->lock);
    l->connected = connected;
    l->lost |= lost;
    pthread_mutex_unlock(&l->lock);
    if (lost && l->wake)
        l->wake(l->arg);
}

/* Wait up to ms for the socket (fd >= 0) or the stop pipe: false when
 * stopping. */
static bool wait_for(store_listener *l, int fd, int ms)
{
    struct pollfd p[2] = {{l->stop_pipe[0], POLLIN, 0}, {fd, POLLIN, 0}};
    int n = poll(p, fd >= 0 ? 2 : 1, ms);
    if (n < 0 && errno != EINTR)
        return false;
    return !(p[0].revents & POLLIN) && !stopping(l);
}

static void take_notifications(store_listener *l)
{
    PGnotify *n;
    int added = 0;
    while ((n = PQnotifies(l->conn))) {
        size_t len = strlen(n->extra);
        heard *h = malloc(sizeof *h + len + 1);
        pthread_mutex_lock(&l->lock);
        if (!h || l->count >= QUEUE_MAX) {
            free(h);
            l->lost = true; /* the server reads everything again */
        } else {
            memcpy(h->text, n->extra, len + 1);
            h->next = NULL;
            if (l->tail)
                l->tail->next = h;
            else
                l->head = h;
            l->tail = h;
            l->count++;
            added++;
        }
        pthread_mutex_unlock(&l->lock);
        PQfreemem(n);
    }
    if (added && l->wake)
        l->wake(l->arg);
}

static void *listen_main(void *arg)
{
    store_listener *l = arg;
    int pause_ms = 0;
    while (!stopping(l)) {
        if (!l->conn) {
            if (pause_ms && !wait_for(l, -1, pause_ms))
                break;
            char err[256];
            l->conn = listen_on(l->url, err, sizeof err);
            if (!l->conn) {
                pause_ms = pause_ms ? (pause_ms * 2 > 1000 ? 1000 : pause_ms * 2) : 50;
                continue;
            }
            pause_ms = 0;
            /* whatever was written while nobody listened is read again */
            set_state(l, true, true);
        }
        if (!wait_for(l, PQsocket(l->conn), 1000))
            break;
        if (!PQconsumeInput(l->conn) || PQstatus(l->conn) != CONNECTION_OK) {
            PQfinish(l->conn);
            l->conn = NULL;
            set_state(l, false, false);
            pause_ms = 50;
            continue;
        }
        take_notifications(l);
    }
    return NULL;
}

store_listener *store_listen_new(const char *url, void (*wake)(void *), void *arg, char *err,
                                 size_t errlen)
{
    store_listener *l = calloc(1, sizeof *l);
    if (!l || !(l->url = strdup(url))) {
        free(l);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    l->wake = wake;
    l->arg = arg;
    l->stop_pipe[0] = l->stop_pipe[1] = -1;
    pthread_mutex_init(&l->lock, NULL);
    if (pipe(l->stop_pipe) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        store_listen_free(l);
        return NULL;
    }
    if (!(l->conn = listen_on(url, err, errlen))) {
        store_listen_free(l);
        return NULL;
    }
    l->connected = true;
    l->started = pthread_create(&l->thread, NULL, listen_main, l) == 0;
    if (!l->started) {
        snprintf(err, errlen, "cannot start the listener's thread");
        store_listen_free(l);
        return NULL;
    }
    return l;
}

char *store_listen_next(store_listener *l, bool *lost)
{
    pthread_mutex_lock(&l->lock);
    *lost = l->lost;
    l->lost = false;
    heard *h = l->head;
    if (h) {
        l->head = h->next;
        if (!l->head)
            l->tail = NULL;
        l->count--;
    }
    pthread_mutex_unlock(&l->lock);
    if (!h)
        return NULL;
    /* the payload moves to the front of its own allocation */
    size_t len = strlen(h->text);
    memmove(h, h->text, len + 1);
    return (char *)h;
}

bool store_listen_connected(store_listener *l)
{
    pthread_mutex_lock(&l->lock);
    bool up = l->connected;
    pthread_mutex_unlock(&l->lock);
    return up;
}

void store_listen_free(store_listener *l)
{
    if (!l)
        return;
    pthread_mutex_lock(&l->lock);
    l->stop = true;
    pthread_mutex_unlock(&l->lock);
    if (l->stop_pipe[1] >= 0) {
        ssize_t w = write(l->stop_pipe[1], "x", 1);
        (void)w;
    }
    if (l->started)
        pthread_join(l->thread, NULL);
    PQfinish(l->conn);
    for (heard *h = l->head; h;) {
        heard *next = h->next;
        free(h);
        h = next;
    }
    for (int i = 0; i < 2; i++)
        if (l->stop_pipe[i] >= 0)
            close(l->stop_pipe[i]);
    pthread_mutex_destroy(&l->lock);
    free(l->url);
    free(l);
}
