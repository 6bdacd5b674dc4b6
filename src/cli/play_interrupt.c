/*
 * play_interrupt.c — see play_interrupt.h.
 */
#include "cli/play_interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;
static tg_search *volatile running_search;
/* The self-pipe: the handler writes a byte to wake[1], which the poll(2)
 * waiting for the person's line also watches, so that a Ctrl-C falling
 * just before that wait begins still ends it. */
static int wake[2] = {-1, -1};

static void on_sigint(int sig)
{
    (void)sig;
    int saved_errno = errno;
    interrupted = 1;
    tg_search *search = running_search;
    if (search)
        tg_search_stop(search);
    if (wake[1] >= 0 && write(wake[1], "!", 1) < 0) {
        /* full or gone: the flag alone has to do */
    }
    errno = saved_errno;
}

static bool open_wake_pipe(void)
{
    if (pipe(wake) != 0) {
        wake[0] = wake[1] = -1;
        return false;
    }
    for (int i = 0; i < 2; i++) {
        /* above 2: with standard input closed, the pipe would take its
         * number, and the wait would read the pipe for the person */
        int fd = fcntl(wake[i], F_DUPFD_CLOEXEC, 3);
        close(wake[i]);
        wake[i] = fd;
    }
    if (wake[0] < 0 || wake[1] < 0) {
        for (int i = 0; i < 2; i++)
            if (wake[i] >= 0)
                close(wake[i]);
        wake[0] = wake[1] = -1;
        return false;
    }
    for (int i = 0; i < 2; i++)
        fcntl(wake[i], F_SETFL, fcntl(wake[i], F_GETFL) | O_NONBLOCK);
    return true;
}

void play_interrupt_catch(tg_search *search, struct sigaction *old)
{
    interrupted = 0;
    running_search = search;
    memset(old, 0, sizeof *old); /* SIG_DFL, should the query below fail */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND;
    if (sigaction(SIGINT, NULL, old) == 0 && old->sa_handler != SIG_IGN) {
        open_wake_pipe(); /* without it, EINTR alone wakes the wait */
        sigaction(SIGINT, &sa, NULL);
    }
}

void play_interrupt_release(const struct sigaction *old)
{
    sigaction(SIGINT, old, NULL);
    running_search = NULL;
    for (int i = 0; i < 2; i++) {
        if (wake[i] >= 0)
            close(wake[i]);
        wake[i] = -1;
    }
}

bool play_interrupted(void) { return interrupted != 0; }

int play_interrupt_fd(void) { return wake[0]; }
