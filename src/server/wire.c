/*
 * wire.c — a connection's bytes followed as libwebsockets will read them:
 * request heads (to their blank line; an Upgrade: websocket head is
 * followed by frames, a head announcing a body ends the following, since
 * net.c refuses bodies and closes), then WebSocket frame headers (each
 * must carry the mask bit; payloads are skipped).  And the recv() that puts
 * this in lws 4.1's way.  Also the two handshake and close-frame checks
 * net.c makes, as plain functions.
 */
#undef _FORTIFY_SOURCE /* recv() is defined here, not wrapped */
#include "wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

enum { PHASE_HEAD, PHASE_FRAMES, PHASE_OFF };

void wire_state_init(wire_state *w)
{
    memset(w, 0, sizeof *w);
    w->phase = PHASE_HEAD;
}

bool wire_reads_frames(const wire_state *w) { return w->phase == PHASE_FRAMES; }

static bool starts(const char *line, const char *name)
{
    return strncmp(line, name, strlen(name)) == 0;
}

static const char *value_of(const char *line)
{
    const char *v = strchr(line, ':') + 1;
    while (*v == ' ' || *v == '\t')
        v++;
    return v;
}

/* A header line, lower case, its first sizeof w->line - 1 bytes: what it
 * says of an upgrade or a body.  A value too long to be seen whole is taken
 * as the worst case (a body), which ends the following. */
static void header_line(wire_state *w)
{
    bool whole = w->line_len < sizeof w->line;
    w->line[w->line_len < sizeof w->line ? w->line_len : sizeof w->line - 1] = '\0';
    if (starts(w->line, "upgrade:")) {
        const char *v = value_of(w->line);
        size_t n = strlen(v);
        while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
            n--;
        w->upgrade = whole && n == 9 && strncmp(v, "websocket", 9) == 0;
    } else if (starts(w->line, "transfer-encoding:")) {
        w->body = true;
    } else if (starts(w->line, "content-length:")) {
        const char *v = value_of(w->line);
        while (*v == '0')
            v++;
        w->body |= !whole || (*v != '\0' && *v != ' ' && *v != '\t');
    }
}

/* One byte of a head; false at its blank line. */
static bool head_byte(wire_state *w, unsigned char c)
{
    w->head_len++;
    if (c == '\r')
        return true;
    if (c == '&' && w->lines == 0)
        w->query_parts++;
    if (c != '\n') {
        if (w->line_len < sizeof w->line - 1)
            w->line[w->line_len] = (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
        if (w->line_len < UINT16_MAX)
            w->line_len++;
        return true;
    }
    if (w->line_len == 0)
        return false;
    header_line(w);
    w->line_len = 0;
    w->lines++;
    return true;
}

static bool head_too_large(const wire_state *w)
{
    return w->head_len >= WIRE_HEAD_MAX || w->lines > WIRE_HEAD_LINES_MAX + 1 /* the request line */ ||
           w->query_parts > WIRE_QUERY_PARTS_MAX;
}

static void head_done(wire_state *w)
{
    w->phase = w->upgrade ? PHASE_FRAMES : w->body ? PHASE_OFF : PHASE_HEAD;
    w->upgrade = w->body = false;
    w->head_len = 0;
    w->line_len = w->lines = w->query_parts = 0;
}

/* The frame header's length once its first two bytes are in. */
static size_t frame_head_size(const wire_state *w)
{
    uint8_t len7 = w->frame_head[1] & 0x7f;
    return 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + 4;
}

static uint64_t frame_payload(const wire_state *w)
{
    uint8_t len7 = w->frame_head[1] & 0x7f;
    if (len7 < 126)
        return len7;
    int bytes = len7 == 126 ? 2 : 8;
    uint64_t n = 0;
    for (int i = 0; i < bytes; i++)
        n = n << 8 | w->frame_head[2 + i];
    return n;
}

wire_verdict wire_follow(wire_state *w, const unsigned char *bytes, size_t n, size_t *good)
{
    size_t i = 0;
    size_t frame_start = 0; /* where in bytes the frame being read began */
    *good = 0;
    if (w->fault)
        return (wire_verdict)w->fault;
    while (i < n && w->phase != PHASE_OFF) {
        if (w->phase == PHASE_HEAD) {
            if (head_too_large(w)) {
                *good = i;
                return (wire_verdict)(w->fault = WIRE_HEAD_TOO_LARGE);
            }
            if (!head_byte(w, bytes[i++]))
                head_done(w);
            continue;
        }
        if (w->payload_left) { /* PHASE_FRAMES, within a payload */
            size_t skip = n - i < w->payload_left ? n - i : (size_t)w->payload_left;
            i += skip;
            w->payload_left -= skip;
            continue;
        }
        if (w->frame_head_len == 0)
            frame_start = i;
        w->frame_head[w->frame_head_len++] = bytes[i++];
        if (w->frame_head_len == 2 && !(w->frame_head[1] & 0x80)) {
            *good = frame_start;
            return (wire_verdict)(w->fault = WIRE_UNMASKED);
        }
        if (w->frame_head_len >= 2 && w->frame_head_len == frame_head_size(w)) {
            w->payload_left = frame_payload(w);
            w->frame_head_len = 0;
        }
    }
    *good = n;
    return WIRE_PASS;
}

bool wire_websocket_key_valid(const char *key)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (strlen(key) != 24 || strspn(key, b64) != 22 || strcmp(key + 22, "==") != 0)
        return false;
    /* the last character holds 2 bits of the 16th byte and 4 of padding */
    return (strchr(b64, key[21]) - b64) % 16 == 0;
}

bool wire_close_payload_valid(const unsigned char *payload, size_t len)
{
    if (len == 0)
        return true;
    if (len == 1)
        return false;
    unsigned code = (unsigned)payload[0] << 8 | payload[1];
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) ||
           (code >= 3000 && code <= 4999);
}

/* ---- the guard ---------------------------------------------------------- */

typedef struct followed {
    void *conn;              /* NULL: not followed */
    bool closing;            /* after an unmasked frame, the close frame is on its way */
    wire_state state;
} followed;

static struct {
    followed *fds;
    int count;
    wire_fault_fn on_unmasked;
    wire_idle_fn may_answer;
    char too_large[512];     /* the 431 response */
    size_t too_large_len;
} guard;

#define TOO_LARGE_BODY                                                                         \
    "{\"error\":\"headers_too_large\",\"message\":\"a request's line and headers may take %d bytes, " \
    "%d header lines and %d query parameters\"}"

bool wire_guard_open(int max_fd, wire_fault_fn on_unmasked, wire_idle_fn may_answer)
{
    wire_guard_close();
    guard.fds = calloc((size_t)max_fd, sizeof *guard.fds);
    if (!guard.fds)
        return false;
    guard.count = max_fd;
    guard.on_unmasked = on_unmasked;
    guard.may_answer = may_answer;
    char body[256];
    int len = snprintf(body, sizeof body, TOO_LARGE_BODY, WIRE_HEAD_MAX, WIRE_HEAD_LINES_MAX,
                       WIRE_QUERY_PARTS_MAX + 1);
    guard.too_large_len = (size_t)snprintf(guard.too_large, sizeof guard.too_large,
                                           "HTTP/1.1 431 Request Header Fields Too Large\r\n"
                                           "content-type: application/json\r\n"
                                           "content-length: %d\r\n"
                                           "connection: close\r\n\r\n%s",
                                           len, body);
    return true;
}

void wire_guard_close(void)
{
    free(guard.fds);
    memset(&guard, 0, sizeof guard);
}

void wire_guard_adopt(int fd, void *conn)
{
    if (fd < 0 || fd >= guard.count)
        return;
    guard.fds[fd].conn = conn;
    guard.fds[fd].closing = false;
    wire_state_init(&guard.fds[fd].state);
}

void wire_guard_closing(int fd)
{
    if (fd >= 0 && fd < guard.count)
        guard.fds[fd].closing = true;
}

const wire_state *wire_guard_state(int fd)
{
    return fd >= 0 && fd < guard.count && guard.fds[fd].conn ? &guard.fds[fd].state : NULL;
}

/* lws 4.1 reads every plain socket with recv(fd, buf, len, 0).  A fault
 * cuts the bytes lws sees short of it.  A head too large ends the
 * connection (a 431 written first, unless a response is going out).  An
 * unmasked frame is reported once; lws is told of nothing more (the
 * client's bytes are no longer frames one can trust) until the owner
 * closes, and then the stream ends. */
ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    ssize_t got = recvfrom(fd, buf, len, flags, NULL, NULL);
    if (got <= 0 || flags != 0 || fd < 0 || fd >= guard.count || !guard.fds[fd].conn)
        return got;
    followed *f = &guard.fds[fd];
    if (f->state.fault == WIRE_HEAD_TOO_LARGE || f->closing)
        return 0;
    if (f->state.fault) {
        errno = EAGAIN;
        return -1;
    }
    size_t good;
    switch (wire_follow(&f->state, buf, (size_t)got, &good)) {
    case WIRE_PASS:
        break;
    case WIRE_HEAD_TOO_LARGE:
        if (guard.may_answer(f->conn))
            (void)!send(fd, guard.too_large, guard.too_large_len, MSG_NOSIGNAL | MSG_DONTWAIT);
        return 0;
    case WIRE_UNMASKED:
        guard.on_unmasked(f->conn);
        if (good)
            return (ssize_t)good;
        errno = EAGAIN;
        return -1;
    }
    return got;
}
