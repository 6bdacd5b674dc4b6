/*
 * fuzz_wire.c — the bytes a client sends, followed as the server's network
 * layer follows them before libwebsockets reads them (src/server/wire.c):
 * request heads, then WebSocket frames.  The input is fed whole and again
 * in chunks of a size its first byte chooses: both must reach the same
 * verdict, at the same byte but for a frame header split between chunks,
 * a fault once found must stay, and the bytes said good must never pass
 * the fault.  The handshake key and close-frame
 * checks get slices of the input too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/wire.h"

/* The verdict and how many bytes came before it, fed n at a time. */
static wire_verdict follow(const uint8_t *data, size_t size, size_t chunk, size_t *at)
{
    wire_state w;
    wire_state_init(&w);
    size_t offset = 0;
    while (offset < size) {
        size_t n = size - offset < chunk ? size - offset : chunk, good = 0;
        wire_verdict v = wire_follow(&w, data + offset, n, &good);
        if (v != WIRE_PASS) {
            if (good > n)
                abort();
            *at = offset + good;
            /* a fault stays: more bytes change nothing */
            size_t again = 0;
            if (wire_follow(&w, data, size, &again) != v && w.fault != v)
                abort();
            return v;
        }
        offset += n;
    }
    *at = size;
    return WIRE_PASS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t chunk = (size_t)data[0] % 17 + 1;
    data++, size--;
    size_t at_whole = 0, at_chunks = 0;
    wire_verdict whole = follow(data, size, size ? size : 1, &at_whole);
    wire_verdict parts = follow(data, size, chunk, &at_chunks);
    /* the same verdict; bytes already handed on in an earlier chunk cannot
     * be taken back, so in chunks the fault may be found up to a frame
     * header's length later (those bytes reach lws, the connection is then
     * closed and nothing more is read) */
    if (whole != parts || at_chunks < at_whole || at_chunks - at_whole >= 14)
        abort();
    /* the two checks made at a handshake and a close frame */
    char key[64];
    size_t k = size < sizeof key - 1 ? size : sizeof key - 1;
    memcpy(key, data, k);
    key[k] = '\0';
    (void)wire_websocket_key_valid(key);
    (void)wire_close_payload_valid(data, size < 125 ? size : 125);
    return 0;
}
