/*
 * wire.h — the bytes a client sends, followed before libwebsockets parses
 * them, for the two checks bookworm's libwebsockets 4.1 cannot be asked to
 * make (net.c and ../shared/research/server-stack.md):
 *
 *   - a request head (request line and headers) too large for lws is
 *     answered 431 and the connection closed; lws 4.1 drops a connection
 *     whose headers overflow its buffers without a word;
 *   - a WebSocket frame from the client without a mask is a protocol error
 *     (RFC 6455 §5.1): lws 4.1 unmasks nothing and reads it as if masked.
 *
 * wire_follow is the reader: a small state machine over a connection's
 * bytes (heads, then frames after an upgrade), with no I/O, tested alone.
 * The guard puts it in the way: this module defines recv(), which lws 4.1
 * calls for every plain (non-TLS) socket read (lib/core-net/output.c) and
 * which, linked into the program, comes before the C library's; bytes of a
 * socket lws adopted pass through wire_follow on their way to lws.  Only
 * lws calls recv in tengen; any other socket passes through untouched.
 * The guard holds the one global state of the server (recv has no context
 * argument); it serves one net at a time, on the loop thread.
 */
#ifndef TENGEN_SERVER_WIRE_H
#define TENGEN_SERVER_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A request head past any of these is answered 431.  lws 4.1 keeps one
 * fragment for each known header and each query parameter in an array of
 * 95 and drops the connection when it is full: the lines and parameters
 * allowed fit in it together. */
#define WIRE_HEAD_MAX 8192        /* bytes of one request's line and headers */
#define WIRE_HEAD_LINES_MAX 60    /* header lines */
#define WIRE_QUERY_PARTS_MAX 30   /* '&' in the request line */

typedef enum wire_verdict {
    WIRE_PASS,               /* nothing wrong so far */
    WIRE_HEAD_TOO_LARGE,     /* a request head past WIRE_HEAD_MAX: 431 */
    WIRE_UNMASKED,           /* a client frame without a mask: close 1002 */
} wire_verdict;

typedef struct wire_state {
    uint8_t phase;           /* reading a head, frames, or no longer followed */
    uint8_t fault;           /* a wire_verdict once one was found */
    bool upgrade;            /* the head so far asks for a WebSocket */
    bool body;               /* the head so far announces a body */
    uint16_t line_len;       /* bytes of the current line, without CR */
    uint16_t lines;          /* lines of the current head so far */
    uint16_t query_parts;    /* '&' in its request line */
    uint32_t head_len;       /* bytes of the current head */
    char line[40];           /* the current line's start, lower case */
    uint8_t frame_head[14];  /* the frame header being read */
    uint8_t frame_head_len;
    uint64_t payload_left;   /* bytes of the current frame still to skip */
} wire_state;

void wire_state_init(wire_state *w);
/* Follow the next n bytes from the client.  On a verdict other than
 * WIRE_PASS, *good says how many of them came before the fault (the rest,
 * and anything after, is not to be read); w stays at its verdict. */
wire_verdict wire_follow(wire_state *w, const unsigned char *bytes, size_t n, size_t *good);
/* The last complete head asked for a WebSocket: what follows is frames. */
bool wire_reads_frames(const wire_state *w);

/* RFC 6455 §4.2.1: a Sec-WebSocket-Key is 16 bytes in base64 (24
 * characters, the last two padding). */
bool wire_websocket_key_valid(const char *key);
/* RFC 6455 §7.4: a close frame's payload is empty, or a code a peer may
 * send (1000-1003, 1007-1014, 3000-4999) and a reason. */
bool wire_close_payload_valid(const unsigned char *payload, size_t len);

/* ---- the guard ---------------------------------------------------------- */

/* A client frame was unmasked on conn (the pointer given to
 * wire_guard_adopt): the owner closes it with 1002 soon.  The guard reads
 * nothing more of it. */
typedef void (*wire_fault_fn)(void *conn);
/* A head was too large on conn: may a 431 be written on its socket now
 * (nothing else of a response is being written)? */
typedef bool (*wire_idle_fn)(void *conn);

/* Follow the sockets numbered below max_fd.  False: out of memory. */
bool wire_guard_open(int max_fd, wire_fault_fn on_unmasked, wire_idle_fn may_answer);
void wire_guard_close(void);
/* A new connection on socket fd: its bytes are followed from now on (the
 * state of an earlier socket of the same number is forgotten). */
void wire_guard_adopt(int fd, void *conn);
/* The state of socket fd, or NULL when it is not followed. */
const wire_state *wire_guard_state(int fd);
/* The owner is closing socket fd after an unmasked frame (its close frame
 * is on the way): the next read ends the stream.  Until then what the
 * client sends is read and dropped. */
void wire_guard_closing(int fd);

#endif
