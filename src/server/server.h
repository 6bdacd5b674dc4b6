/*
 * server.h — `tengen serve`: people play each other and engines in a
 * browser, refereed by the library's rules, clock and game control, every
 * game kept in the store.  One event-loop thread (net.h) runs the
 * protocol of docs/protocol.md; engines run in worker threads
 * (engines.h); the store (store.h) commits each event before anyone hears
 * of it.
 */
#ifndef TENGEN_SERVER_H
#define TENGEN_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#define SERVER_MAX_ENGINES 8
#define SERVER_MAX_TRUSTED_PROXIES 16

typedef struct server_engine {
    const char *name;     /* as players choose it: "tengen", "gnugo" */
    const char *command;  /* a GTP engine's command line */
} server_engine;

typedef struct server_config {
    const char *db_path;
    const char *listen_addr;      /* "127.0.0.1" */
    int port;                     /* 0: any free port */
    int engines;                  /* engine worker processes */
    const char *web_dir;          /* serve the page from here (NULL: the embedded copy) */
    const char *tengen_command;   /* how to start `tengen gtp` (the built-in engine) */
    server_engine extra[SERVER_MAX_ENGINES];
    int extra_count;
    int max_connections;
    bool quiet;
    bool fault_injection;         /* tests: the writer fails on demand (server_inject_fault) */
    /* the network's defences (net.h's net_options; 0 or none: its defaults) */
    int ws_ping_s;                /* a silent WebSocket is pinged after this (TENGEN_WS_PING_S) */
    int ws_hangup_s;              /* ... and closed after this (TENGEN_WS_HANGUP_S) */
    int max_connections_per_ip;   /* WebSockets open at once per client address */
    const char *trusted_proxies[SERVER_MAX_TRUSTED_PROXIES]; /* X-Forwarded-For believed from these */
    int trusted_proxy_count;
    int analysis_playouts;        /* analysis with the engine: playouts a position (0: none) */
    int analysis_max;             /* analyses queued or running at once (0: 4) */
} server_config;

typedef struct server server;

/* Open the store, rebuild the unfinished games, listen.  NULL with err. */
server *server_new(const server_config *cfg, char *err, size_t errlen);
int server_port(const server *s);
/* Serve until SIGINT or SIGTERM. */
void server_run(server *s);
void server_free(server *s);

/* For tests that drive the server without sockets (a net.h of their own):
 * wait for the store and run what comes back, turn after turn, until
 * nothing is pending. */
void server_settle(server *s);
/* With cfg.fault_injection: fail the n-th write from now (0: none);
 * the writes counted so far. */
void server_inject_fault(server *s, long nth_write);
long server_store_writes(server *s);

#endif
