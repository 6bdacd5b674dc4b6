/*
 * test_server_net.c — what the network layer checks, without a socket:
 * the bytes a client sends as wire.h follows them (request heads, their
 * limits, the switch to frames after an upgrade, an unmasked frame found
 * wherever reads split it), WebSocket keys and close codes, client addresses and the counts per address
 * (peers.h), and game.move's n as proto.h reads it.  The same faults are
 * tried over the wire by tests/js/serve/abuse.js.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "server/peers.h"
#include "server/proto.h"
#include "server/wire.h"

static const char get_head[] = "GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n";
static const char upgrade_head[] = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                                   "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n";

static wire_verdict follow_text(wire_state *w, const char *text, size_t *good)
{
    return wire_follow(w, (const unsigned char *)text, strlen(text), good);
}

/* Follows bytes one at a time, as the slowest reads would bring them; the
 * offset of the fault in the whole. */
static wire_verdict follow_bytewise(wire_state *w, const unsigned char *bytes, size_t n, size_t *at)
{
    for (size_t i = 0; i < n; i++) {
        size_t good;
        wire_verdict v = wire_follow(w, bytes + i, 1, &good);
        if (v != WIRE_PASS) {
            *at = i + good;
            return v;
        }
    }
    *at = n;
    return WIRE_PASS;
}

/* A client frame: a header for len payload bytes (masked or not), then the
 * payload; the size written into out. */
static size_t frame(unsigned char *out, bool masked, uint64_t len)
{
    size_t n = 0;
    out[n++] = 0x81;
    uint8_t mask = masked ? 0x80 : 0;
    if (len < 126) {
        out[n++] = (unsigned char)(mask | len);
    } else if (len < 65536) {
        out[n++] = mask | 126;
        out[n++] = (unsigned char)(len >> 8);
        out[n++] = (unsigned char)len;
    } else {
        out[n++] = mask | 127;
        for (int i = 7; i >= 0; i--)
            out[n++] = (unsigned char)(len >> (8 * i));
    }
    if (masked)
        for (int i = 0; i < 4; i++)
            out[n++] = (unsigned char)(0x11 * (i + 1));
    memset(out + n, 'x', (size_t)len);
    return n + (size_t)len;
}

static void test_heads_pass_one_after_another(void **state)
{
    (void)state;
    wire_state w;
    wire_state_init(&w);
    size_t good;
    for (int i = 0; i < 100; i++)
        assert_int_equal(follow_text(&w, get_head, &good), WIRE_PASS);
    assert_int_equal(good, strlen(get_head));
    assert_false(wire_reads_frames(&w));
    /* bare LF line ends, as lws also takes them */
    assert_int_equal(follow_text(&w, "GET / HTTP/1.1\nHost: x\n\n", &good), WIRE_PASS);
    assert_false(wire_reads_frames(&w));
}

static void test_head_too_large(void **state)
{
    (void)state;
    char *big = malloc(WIRE_HEAD_MAX + 64);
    int n = snprintf(big, 64, "GET / HTTP/1.1\r\nX-Padding: ");
    memset(big + n, 'a', WIRE_HEAD_MAX);
    wire_state w;
    wire_state_init(&w);
    size_t good;
    assert_int_equal(wire_follow(&w, (unsigned char *)big, (size_t)n + WIRE_HEAD_MAX, &good), WIRE_HEAD_TOO_LARGE);
    assert_int_equal(good, WIRE_HEAD_MAX);
    /* the verdict stays; nothing more is good */
    assert_int_equal(follow_text(&w, get_head, &good), WIRE_HEAD_TOO_LARGE);
    assert_int_equal(good, 0);
    /* the same, a byte at a time */
    wire_state_init(&w);
    size_t at;
    assert_int_equal(follow_bytewise(&w, (unsigned char *)big, (size_t)n + WIRE_HEAD_MAX, &at),
                     WIRE_HEAD_TOO_LARGE);
    assert_int_equal(at, WIRE_HEAD_MAX);
    /* just within the limit passes, and the next head starts afresh */
    wire_state_init(&w);
    memcpy(big + WIRE_HEAD_MAX - 4, "\r\n\r\n", 4);
    assert_int_equal(wire_follow(&w, (unsigned char *)big, WIRE_HEAD_MAX, &good), WIRE_PASS);
    assert_int_equal(wire_follow(&w, (unsigned char *)big, WIRE_HEAD_MAX, &good), WIRE_PASS);
    free(big);
}

static void test_head_lines_and_query_parts(void **state)
{
    (void)state;
    char head[4096];
    size_t good;
    wire_state w;
    for (int lines = WIRE_HEAD_LINES_MAX; lines <= WIRE_HEAD_LINES_MAX + 1; lines++) {
        int n = snprintf(head, sizeof head, "GET / HTTP/1.1\r\n");
        for (int i = 0; i < lines; i++)
            n += snprintf(head + n, sizeof head - (size_t)n, "Accept: x\r\n");
        snprintf(head + n, sizeof head - (size_t)n, "\r\n");
        wire_state_init(&w);
        assert_int_equal(follow_text(&w, head, &good),
                         lines <= WIRE_HEAD_LINES_MAX ? WIRE_PASS : WIRE_HEAD_TOO_LARGE);
    }
    for (int parts = WIRE_QUERY_PARTS_MAX; parts <= WIRE_QUERY_PARTS_MAX + 1; parts++) {
        int n = snprintf(head, sizeof head, "GET /?");
        for (int i = 0; i < parts; i++)
            n += snprintf(head + n, sizeof head - (size_t)n, "a&");
        snprintf(head + n, sizeof head - (size_t)n, " HTTP/1.1\r\nHost: x\r\n\r\n");
        wire_state_init(&w);
        assert_int_equal(follow_text(&w, head, &good),
                         parts <= WIRE_QUERY_PARTS_MAX ? WIRE_PASS : WIRE_HEAD_TOO_LARGE);
    }
}

static void test_upgrade_then_frames(void **state)
{
    (void)state;
    unsigned char bytes[300000];
    size_t n = strlen(upgrade_head);
    memcpy(bytes, upgrade_head, n);
    n += frame(bytes + n, true, 5);
    n += frame(bytes + n, true, 0);
    n += frame(bytes + n, true, 300);       /* a 16-bit length */
    n += frame(bytes + n, true, 70000);     /* a 64-bit length */
    size_t unmasked_at = n;
    n += frame(bytes + n, false, 5);
    n += frame(bytes + n, true, 5);
    wire_state w;
    wire_state_init(&w);
    size_t good;
    assert_int_equal(wire_follow(&w, bytes, n, &good), WIRE_UNMASKED);
    assert_int_equal(good, unmasked_at);
    assert_int_equal(wire_follow(&w, bytes, 10, &good), WIRE_UNMASKED);
    assert_int_equal(good, 0);
    /* the same, a byte at a time: found at its second byte (the first one
     * went by in an earlier read) */
    wire_state_init(&w);
    size_t at;
    assert_int_equal(follow_bytewise(&w, bytes, n, &at), WIRE_UNMASKED);
    assert_int_equal(at, unmasked_at + 1);
    /* masked frames alone pass, however they are split */
    wire_state_init(&w);
    assert_int_equal(wire_follow(&w, bytes, 100, &good), WIRE_PASS);
    assert_true(wire_reads_frames(&w));
    assert_int_equal(wire_follow(&w, bytes + 100, unmasked_at - 100, &good), WIRE_PASS);
    /* "Upgrade: WebSocket" in any case, with spaces around */
    wire_state_init(&w);
    assert_int_equal(follow_text(&w, "GET /ws HTTP/1.1\r\nUPGRADE:  WebSocket \r\n\r\n", &good), WIRE_PASS);
    assert_true(wire_reads_frames(&w));
    /* another protocol is no WebSocket: what follows is a head again */
    wire_state_init(&w);
    assert_int_equal(follow_text(&w, "GET /ws HTTP/1.1\r\nUpgrade: h2c\r\n\r\n", &good), WIRE_PASS);
    assert_false(wire_reads_frames(&w));
}

static void test_body_ends_the_following(void **state)
{
    (void)state;
    static char big[3 * WIRE_HEAD_MAX];
    memset(big, 'b', sizeof big);
    const char *with_body[] = {
        "GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\n",
        "GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: 000000000000000000000000000000000000000000001\r\n\r\n"};
    size_t good;
    wire_state w;
    for (size_t i = 0; i < sizeof with_body / sizeof *with_body; i++) {
        wire_state_init(&w);
        assert_int_equal(follow_text(&w, with_body[i], &good), WIRE_PASS);
        /* net.c refuses the body and closes: nothing after it is a head */
        assert_int_equal(wire_follow(&w, (unsigned char *)big, sizeof big, &good), WIRE_PASS);
    }
    /* a length of 0 is no body: the next head is followed */
    wire_state_init(&w);
    assert_int_equal(follow_text(&w, "GET / HTTP/1.1\r\nContent-Length: 00\r\n\r\n", &good), WIRE_PASS);
    assert_int_equal(wire_follow(&w, (unsigned char *)big, sizeof big, &good), WIRE_HEAD_TOO_LARGE);
}

static void test_websocket_key_and_close_codes(void **state)
{
    (void)state;
    assert_true(wire_websocket_key_valid("dGhlIHNhbXBsZSBub25jZQ=="));
    assert_true(wire_websocket_key_valid("AAAAAAAAAAAAAAAAAAAAAA=="));
    assert_true(wire_websocket_key_valid("/////////////////////w=="));
    const char *bad[] = {"", "abc", "AAAAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAB==",
                         "AAAAAAAAAAAAAAAAAAAAA===", "AAAAAAAAAAAAAAAAAAAAAA=", "!AAAAAAAAAAAAAAAAAAAAA==",
                         "AAAAAAAAAAAAAAAAAAAAAA==A", "AAAAAAAAAAAAAAAAAAAA AA=="};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_false(wire_websocket_key_valid(bad[i]));
    unsigned char payload[4] = {0, 0, 'o', 'k'};
    assert_true(wire_close_payload_valid(payload, 0));
    assert_false(wire_close_payload_valid(payload, 1));
    const unsigned valid[] = {1000, 1001, 1002, 1003, 1007, 1011, 1014, 3000, 4999};
    const unsigned invalid[] = {0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535};
    for (size_t i = 0; i < sizeof valid / sizeof *valid; i++) {
        payload[0] = (unsigned char)(valid[i] >> 8), payload[1] = (unsigned char)valid[i];
        assert_true(wire_close_payload_valid(payload, 4));
    }
    for (size_t i = 0; i < sizeof invalid / sizeof *invalid; i++) {
        payload[0] = (unsigned char)(invalid[i] >> 8), payload[1] = (unsigned char)invalid[i];
        assert_false(wire_close_payload_valid(payload, 2));
    }
}

static void test_peer_parse_and_format(void **state)
{
    (void)state;
    peer_addr a;
    char text[PEER_TEXT_MAX];
    assert_true(peer_parse("203.0.113.5", &a));
    assert_int_equal(a.family, 4);
    peer_format(&a, text, sizeof text);
    assert_string_equal(text, "203.0.113.5");
    assert_true(peer_parse("2001:DB8::1", &a));
    assert_int_equal(a.family, 6);
    peer_format(&a, text, sizeof text);
    assert_string_equal(text, "2001:db8::1");
    for (const char *bad[] = {"", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.4:80", " 1.2.3.4", "x", NULL},
                    **b = bad;
         *b; b++)
        assert_false(peer_parse(*b, &a));
    memset(&a, 0, sizeof a);
    peer_format(&a, text, sizeof text);
    assert_string_equal(text, "");
}

static void test_peer_client_trusts_only_proxies(void **state)
{
    (void)state;
    peer_addr tcp, proxy[2], got, want;
    char text[PEER_TEXT_MAX];
    assert_true(peer_parse("10.0.0.2", &proxy[0]));
    assert_true(peer_parse("::1", &proxy[1]));
    /* not a proxy: the forwarded header is the client's own say */
    assert_true(peer_parse("198.51.100.9", &tcp));
    got = peer_client(&tcp, "203.0.113.5", proxy, 2);
    assert_true(peer_equal(&got, &tcp));
    /* a proxy: its last entry, spaces aside */
    assert_true(peer_parse("10.0.0.2", &tcp));
    got = peer_client(&tcp, "192.0.2.1, 203.0.113.5 ", proxy, 2);
    peer_format(&got, text, sizeof text);
    assert_string_equal(text, "203.0.113.5");
    got = peer_client(&tcp, "192.0.2.1,2001:db8::7", proxy, 2);
    assert_true(peer_parse("2001:db8::7", &want));
    assert_true(peer_equal(&got, &want));
    /* a proxy that names nobody, or no address: the proxy itself */
    for (const char *bad[] = {"unknown", "", "203.0.113.5,", "203.0.113.5:8080", NULL}, **b = bad; *b; b++) {
        got = peer_client(&tcp, *b, proxy, 2);
        assert_true(peer_equal(&got, &tcp));
    }
    got = peer_client(&tcp, NULL, proxy, 2);
    assert_true(peer_equal(&got, &tcp));
}

static void test_peer_counts(void **state)
{
    (void)state;
    peer_counts *t = peer_counts_new();
    assert_non_null(t);
    peer_addr a;
    char text[PEER_TEXT_MAX];
    /* enough addresses to grow the table, each counted i % 3 + 1 times */
    for (int i = 0; i < 2000; i++) {
        snprintf(text, sizeof text, "10.%d.%d.1", i / 256, i % 256);
        assert_true(peer_parse(text, &a));
        for (int k = 0; k <= i % 3; k++)
            assert_true(peer_counts_add(t, &a, 1));
    }
    /* the even ones leave; the others' counts are intact after the holes */
    for (int i = 0; i < 2000; i += 2) {
        snprintf(text, sizeof text, "10.%d.%d.1", i / 256, i % 256);
        assert_true(peer_parse(text, &a));
        for (int k = 0; k <= i % 3; k++)
            assert_true(peer_counts_add(t, &a, -1));
    }
    for (int i = 0; i < 2000; i++) {
        snprintf(text, sizeof text, "10.%d.%d.1", i / 256, i % 256);
        assert_true(peer_parse(text, &a));
        assert_int_equal(peer_counts_get(t, &a), i % 2 ? i % 3 + 1 : 0);
    }
    /* one fewer of an address not there changes nothing */
    assert_true(peer_parse("192.0.2.1", &a));
    assert_true(peer_counts_add(t, &a, -1));
    assert_int_equal(peer_counts_get(t, &a), 0);
    /* IPv6 counts by /64 */
    peer_addr b, c;
    assert_true(peer_parse("2001:db8:1:2::1", &a));
    assert_true(peer_parse("2001:db8:1:2:ffff::9", &b));
    assert_true(peer_parse("2001:db8:1:3::1", &c));
    assert_true(peer_counts_add(t, &a, 1));
    assert_true(peer_counts_add(t, &b, 1));
    assert_int_equal(peer_counts_get(t, &a), 2);
    assert_int_equal(peer_counts_get(t, &c), 0);
    peer_counts_free(t);
}

static void test_move_number_must_not_be_negative(void **state)
{
    (void)state;
    proto_request rq;
    char err[200];
    const char *minus = "{\"type\":\"game.move\",\"id\":4,\"game\":3,\"move\":\"D4\",\"n\":-1}";
    assert_int_equal(proto_parse(minus, strlen(minus), &rq, err, sizeof err), -1);
    assert_true(rq.has_id);
    assert_int_equal(rq.id, 4);
    const char *zero = "{\"type\":\"game.move\",\"game\":3,\"move\":\"D4\",\"n\":0}";
    assert_int_equal(proto_parse(zero, strlen(zero), &rq, err, sizeof err), 0);
    assert_true(rq.has_n);
    assert_int_equal(rq.n, 0);
    json_decref(rq.root);
    const char *none = "{\"type\":\"game.move\",\"game\":3,\"move\":\"D4\"}";
    assert_int_equal(proto_parse(none, strlen(none), &rq, err, sizeof err), 0);
    assert_false(rq.has_n);
    json_decref(rq.root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heads_pass_one_after_another),
        cmocka_unit_test(test_head_too_large),
        cmocka_unit_test(test_head_lines_and_query_parts),
        cmocka_unit_test(test_upgrade_then_frames),
        cmocka_unit_test(test_body_ends_the_following),
        cmocka_unit_test(test_websocket_key_and_close_codes),
        cmocka_unit_test(test_peer_parse_and_format),
        cmocka_unit_test(test_peer_client_trusts_only_proxies),
        cmocka_unit_test(test_peer_counts),
        cmocka_unit_test(test_move_number_must_not_be_negative),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
