/*
 * net_fake.h — net.h without sockets, for the tests of the server's logic
 * (tests/test_server_logic.c): connections are made, spoken to and closed
 * by the test; what the server sends is kept per connection and read back
 * in the order the real network would deliver it (a message waiting for
 * the store is held; one that depends on nothing passes it); turns of the
 * loop are run by the test.
 */
#ifndef TENGEN_TEST_NET_FAKE_H
#define TENGEN_TEST_NET_FAKE_H

#include "server/net.h"

/* The net the server made last. */
net *fake_net(void);
net_conn *fake_connect(net *n, const char *peer);
/* A client message, as if one frame arrived. */
void fake_say(net_conn *c, const char *text);
/* The client goes away. */
void fake_disconnect(net_conn *c);
/* The loop's turn ends (the server hands its writes to the store). */
void fake_turn(net *n);
/* Run the timers that are due (the server's clocks, retries). */
void fake_run_timers(net *n);
/* The next message delivered to c (malloc'd; the caller frees), or NULL. */
char *fake_next(net_conn *c);
/* Messages still held for c (waiting for the store). */
int fake_held(const net_conn *c);
int fake_close_code(const net_conn *c);

#endif
