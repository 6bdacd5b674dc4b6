/*
 * engine.c — a GTP engine as a child process: started with /bin/sh -c in a
 * process group of its own, spoken to through two pipes, waited for with
 * poll() against a deadline, and stopped (quit, then SIGKILL to the whole
 * group, then reaped) so that no process is ever left behind.
 *
 * The referee must survive whatever an engine does: crash, hang, close its
 * input, print garbage or megabytes.  So every read is bounded in time and
 * size, writes never raise SIGPIPE in the calling thread, and a caller's
 * stop flag (Ctrl-C, an SPRT decision) interrupts any wait within 50 ms.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "referee/referee_internal.h"
#include "tengen/clock.h"

/* An answer longer than this is garbage (a board is a few kilobytes). */
#define MAX_ANSWER (1u << 20)
/* The longest a wait goes without looking at the stop flag. */
#define STOP_POLL_MS 50

struct tg_engine {
    tg_engine_config config;    /* strings owned below */
    char *name, *command, *stderr_path;
    pid_t pid;                  /* 0 when not running */
    int to_engine, from_engine; /* pipe ends, -1 when closed */
    char *buf;                  /* bytes read and not yet consumed */
    size_t buf_len, buf_cap;
    struct { char name[48]; bool known; } known[16];
    int known_count;
};

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- Starting ------------------------------------------------------------ */

/* In the child, between fork and exec: only async-signal-safe calls. */
static void child_exec(const char *command, const char *stderr_path, int in_fd, int out_fd)
{
    setpgid(0, 0); /* Ctrl-C at the terminal reaches the referee, not the engines */
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    if (!stderr_path || strcmp(stderr_path, "-") != 0) {
        const char *path = stderr_path ? stderr_path : "/dev/null";
        int err_fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (err_fd >= 0)
            dup2(err_fd, 2);
    }
    /* Pipes of other engines (other threads) must not leak into this one. */
    long max_fd = sysconf(_SC_OPEN_MAX);
    if (max_fd < 0 || max_fd > 65536)
        max_fd = 65536;
    for (int fd = 3; fd < max_fd; fd++)
        close(fd);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
}

static tg_status spawn(tg_engine *e, char *err, size_t errlen)
{
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0) {
        snprintf(err, errlen, "%s: pipe: %s", e->name, strerror(errno));
        return TG_ERR_IO;
    }
    if (pipe(from_child) != 0) {
        snprintf(err, errlen, "%s: pipe: %s", e->name, strerror(errno));
        close(to_child[0]);
        close(to_child[1]);
        return TG_ERR_IO;
    }
    pid_t pid = fork();
    if (pid == 0)
        child_exec(e->command, e->stderr_path, to_child[0], from_child[1]);
    close(to_child[0]);
    close(from_child[1]);
    if (pid < 0) {
        snprintf(err, errlen, "%s: fork: %s", e->name, strerror(errno));
        close(to_child[1]);
        close(from_child[0]);
        return TG_ERR_IO;
    }
    setpgid(pid, pid); /* also here, so the group exists before any kill */
    fcntl(to_child[1], F_SETFD, FD_CLOEXEC);
    fcntl(from_child[0], F_SETFD, FD_CLOEXEC);
    e->pid = pid;
    e->to_engine = to_child[1];
    e->from_engine = from_child[0];
    e->buf_len = 0;
    e->known_count = 0;
    return TG_OK;
}

tg_status tg_engine_start(const tg_engine_config *config, tg_engine **out, char *err,
                          size_t errlen)
{
    *out = NULL;
    tg_engine *e = calloc(1, sizeof *e);
    if (!e)
        return TG_ERR_NO_MEMORY;
    e->config = *config;
    e->name = dup_or_null(config->name ? config->name : "engine");
    e->command = dup_or_null(config->command);
    e->stderr_path = dup_or_null(config->stderr_path);
    e->to_engine = e->from_engine = -1;
    if (!e->name || !e->command || (config->stderr_path && !e->stderr_path)) {
        tg_engine_free(e);
        return TG_ERR_NO_MEMORY;
    }
    tg_status st = spawn(e, err, errlen);
    if (st != TG_OK) {
        tg_engine_free(e);
        return st;
    }
    *out = e;
    return TG_OK;
}

/* ---- Stopping ------------------------------------------------------------ */

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Wait up to grace_ms for the child to exit by itself; true when reaped. */
static bool reap_within(pid_t pid, int grace_ms)
{
    int64_t end = tg_clock_now_ms() + grace_ms;
    for (;;) {
        pid_t r = waitpid(pid, NULL, WNOHANG);
        if (r == pid || (r < 0 && errno == ECHILD))
            return true;
        if (tg_clock_now_ms() >= end)
            return false;
        struct timespec pause = {0, 5 * 1000000};
        nanosleep(&pause, NULL);
    }
}

static void terminate(tg_engine *e)
{
    if (e->pid <= 0)
        return;
    if (e->to_engine >= 0)
        tg_referee_write_all(e->to_engine, "quit\n", 5);
    close_fd(&e->to_engine);
    int grace = e->config.quit_grace_ms > 0 ? e->config.quit_grace_ms : 0;
    if (!reap_within(e->pid, grace)) {
        kill(-e->pid, SIGKILL);
        kill(e->pid, SIGKILL);
        waitpid(e->pid, NULL, 0);
    } else {
        kill(-e->pid, SIGKILL); /* whatever the shell left behind in the group */
    }
    close_fd(&e->from_engine);
    e->pid = 0;
}

void tg_engine_free(tg_engine *e)
{
    if (!e)
        return;
    terminate(e);
    free(e->name);
    free(e->command);
    free(e->stderr_path);
    free(e->buf);
    free(e);
}

tg_status tg_engine_restart(tg_engine *e, char *err, size_t errlen)
{
    terminate(e);
    return spawn(e, err, errlen);
}

bool tg_engine_running(const tg_engine *e) { return e && e->pid > 0 && e->from_engine >= 0; }
const char *tg_engine_name(const tg_engine *e) { return e->name; }

/* ---- Talking ------------------------------------------------------------- */

bool tg_referee_write_all(int fd, const char *data, size_t len)
{
    /* Block SIGPIPE in this thread for the write and swallow the one a dead
     * reader raises, so a library caller need not ignore SIGPIPE globally. */
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    bool ok = true;
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            ok = false;
            break;
        }
        data += n;
        len -= (size_t)n;
    }
    if (!ok && errno == EPIPE) {
        struct timespec zero = {0, 0};
        sigset_t pending;
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE))
            sigtimedwait(&pipe_set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok;
}

/* The end of a complete answer in buf (after its blank line), or 0.  Carriage
 * returns were already dropped; empty lines before an answer are skipped. */
static size_t answer_end(const char *buf, size_t len, size_t *start)
{
    size_t s = 0;
    while (s < len && buf[s] == '\n')
        s++;
    *start = s;
    for (size_t i = s; i + 1 < len; i++)
        if (buf[i] == '\n' && buf[i + 1] == '\n')
            return i + 2;
    return 0;
}

/* Read what is there into buf, dropping CR (some engines end lines CRLF).
 * Returns false at end of file or on an error. */
static bool read_some(tg_engine *e)
{
    if (e->buf_cap - e->buf_len < 4096) {
        size_t cap = e->buf_cap ? e->buf_cap * 2 : 8192;
        char *bigger = realloc(e->buf, cap);
        if (!bigger)
            return false;
        e->buf = bigger;
        e->buf_cap = cap;
    }
    ssize_t n;
    do
        n = read(e->from_engine, e->buf + e->buf_len, e->buf_cap - e->buf_len);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return false;
    char *fresh = e->buf + e->buf_len;
    size_t kept = 0;
    for (ssize_t i = 0; i < n; i++)
        if (fresh[i] != '\r')
            fresh[kept++] = fresh[i];
    e->buf_len += kept;
    return true;
}

/* Take a complete answer out of the buffer: its text after "=" or "?" and
 * the optional id, trimmed, into answer. */
static tg_reply take_answer(tg_engine *e, size_t start, size_t end, char *answer, size_t len)
{
    char kind = e->buf[start];
    size_t i = start + 1;
    while (i < end && e->buf[i] >= '0' && e->buf[i] <= '9')
        i++;
    size_t stop = end;
    while (stop > i && (e->buf[stop - 1] == '\n' || e->buf[stop - 1] == ' '))
        stop--;
    while (i < stop && (e->buf[i] == ' ' || e->buf[i] == '\t'))
        i++;
    if (len) {
        size_t n = stop - i < len - 1 ? stop - i : len - 1;
        memcpy(answer, e->buf + i, n);
        answer[n] = 0;
    }
    memmove(e->buf, e->buf + end, e->buf_len - end);
    e->buf_len -= end;
    if (kind == '=')
        return TG_REPLY_OK;
    return kind == '?' ? TG_REPLY_FAILURE : TG_REPLY_GARBAGE;
}

static tg_reply wait_answer(tg_engine *e, int64_t deadline_ms, char *answer, size_t len)
{
    for (;;) {
        size_t start, end = answer_end(e->buf, e->buf_len, &start);
        if (end)
            return take_answer(e, start, end, answer, len);
        if (e->buf_len > MAX_ANSWER)
            return TG_REPLY_GARBAGE;
        if (e->config.stop && atomic_load(e->config.stop))
            return TG_REPLY_STOPPED;
        int wait = STOP_POLL_MS;
        if (deadline_ms >= 0) {
            int64_t left = deadline_ms - tg_clock_now_ms();
            if (left <= 0)
                return TG_REPLY_TIMEOUT;
            if (left < wait)
                wait = (int)left;
        }
        struct pollfd p = {.fd = e->from_engine, .events = POLLIN};
        int r = poll(&p, 1, wait);
        if (r < 0 && errno != EINTR)
            return TG_REPLY_DIED;
        if (r > 0 && !read_some(e))
            return TG_REPLY_DIED;
    }
}

tg_reply tg_engine_send(tg_engine *e, const char *command, int64_t deadline_ms, char *answer,
                        size_t len)
{
    if (len)
        answer[0] = 0;
    if (!tg_engine_running(e))
        return TG_REPLY_DIED;
    e->buf_len = 0; /* anything unasked for is stale */
    size_t n = strlen(command);
    if (!tg_referee_write_all(e->to_engine, command, n) ||
        !tg_referee_write_all(e->to_engine, "\n", 1))
        return TG_REPLY_DIED;
    return wait_answer(e, deadline_ms, answer, len);
}

bool tg_engine_knows(tg_engine *e, const char *command, int64_t deadline_ms)
{
    for (int i = 0; i < e->known_count; i++)
        if (!strcmp(e->known[i].name, command))
            return e->known[i].known;
    char line[96], answer[64];
    snprintf(line, sizeof line, "known_command %s", command);
    bool known = tg_engine_send(e, line, deadline_ms, answer, sizeof answer) == TG_REPLY_OK &&
                 !strcmp(answer, "true");
    if (e->known_count < (int)(sizeof e->known / sizeof e->known[0]) &&
        strlen(command) < sizeof e->known[0].name) {
        strcpy(e->known[e->known_count].name, command);
        e->known[e->known_count++].known = known;
    }
    return known;
}

const char *tg_reply_text(tg_reply r)
{
    switch (r) {
    case TG_REPLY_OK: return "ok";
    case TG_REPLY_FAILURE: return "failure";
    case TG_REPLY_GARBAGE: return "garbage";
    case TG_REPLY_TIMEOUT: return "timeout";
    case TG_REPLY_DIED: return "crash";
    case TG_REPLY_STOPPED: return "stopped";
    }
    return "?";
}
