/*
 * cmd_serve.c — `tengen serve`: the options, where the database goes, the
 * address printed for people to open; the server itself is src/server.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_options.h"
#include "cli_util.h"
#include "commands.h"
#include "server/server.h"
#include "server/store.h"

static const char serve_synopsis[] =
    "usage: tengen serve [options]\n\n"
    "Serve Go in the browser: people play each other and engines, refereed by the\n"
    "rules (clock, illegal moves, stone removal, absence), every game kept.\n\n";
static const char serve_epilogue[] =
    "Stop it with Ctrl-C or SIGTERM: games in progress are kept and resume at the\n"
    "next start. The protocol for other clients is docs/protocol.md. Copies of the\n"
    "database while it runs: tengen backup.\n\n"
    "A connection that stops answering is closed: it is pinged after\n"
    "TENGEN_WS_PING_S seconds without a pong (default 20) and closed after\n"
    "TENGEN_WS_HANGUP_S (default 60); its player then shows offline.\n";

/* mkdir -p for the database's folder. */
static int make_dirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0700) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return 0;
}

static int default_db(char *out, size_t len)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        snprintf(out, len, "%s/tengen/tengen.db", xdg);
    else if (home && home[0])
        snprintf(out, len, "%s/.local/share/tengen/tengen.db", home);
    else
        return -1;
    return make_dirs(out);
}

/* --listen ADDR:PORT */
typedef struct listen_spec {
    char addr[256];
    int port;
} listen_spec;

static int read_listen(void *dest, const char *text, char *err, size_t errlen)
{
    listen_spec *l = dest;
    (void)err, (void)errlen;
    const char *colon = strrchr(text, ':');
    if (!colon || colon == text || (size_t)(colon - text) >= sizeof l->addr)
        return -1;
    memcpy(l->addr, text, (size_t)(colon - text));
    l->addr[colon - text] = '\0';
    return cli_parse_int(colon + 1, 0, 65535, &l->port);
}

/* --engine NAME=COMMAND: another engine offered, into server_config. */
static int read_engine(void *dest, const char *v, char *err, size_t errlen)
{
    static char names[SERVER_MAX_ENGINES][32];
    server_config *cfg = dest;
    const char *eq = strchr(v, '=');
    if (!eq || eq == v || eq - v >= 31 || !eq[1] || !strncmp(v, "tengen=", 7))
        return -1;
    if (cfg->extra_count == SERVER_MAX_ENGINES) {
        snprintf(err, errlen, "at most %d engines", SERVER_MAX_ENGINES);
        return -1;
    }
    memcpy(names[cfg->extra_count], v, (size_t)(eq - v));
    names[cfg->extra_count][eq - v] = '\0';
    cfg->extra[cfg->extra_count].name = names[cfg->extra_count];
    cfg->extra[cfg->extra_count].command = eq + 1;
    cfg->extra_count++;
    return 0;
}

/* --trusted-proxy ADDR: a proxy whose X-Forwarded-For is believed. */
static int read_trusted_proxy(void *dest, const char *v, char *err, size_t errlen)
{
    server_config *cfg = dest;
    unsigned char addr[16];
    if (inet_pton(AF_INET, v, addr) != 1 && inet_pton(AF_INET6, v, addr) != 1)
        return -1;
    if (cfg->trusted_proxy_count == SERVER_MAX_TRUSTED_PROXIES) {
        snprintf(err, errlen, "at most %d trusted proxies", SERVER_MAX_TRUSTED_PROXIES);
        return -1;
    }
    cfg->trusted_proxies[cfg->trusted_proxy_count++] = v;
    return 0;
}

/* TENGEN_WS_PING_S, TENGEN_WS_HANGUP_S: how soon a dead peer is found
 * (tests make it seconds); unset leaves the default. */
static int read_env_seconds(const char *name, int *out)
{
    const char *v = getenv(name);
    if (!v || !v[0])
        return 0;
    if (cli_parse_int(v, 1, 65535, out) != 0) {
        fprintf(stderr, "tengen serve: %s must be a number of seconds in 1..65535, not '%s'\n", name, v);
        return -1;
    }
    return 0;
}

/* The descriptor limit raised to what the connections need. */
static void raise_fd_limit(int want)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)want) {
        rl.rlim_cur = rl.rlim_max < (rlim_t)want ? rl.rlim_max : (rlim_t)want;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* --migrate-only, on either back end */
static int migrate(const char *db)
{
    char err[PATH_MAX + 256], shown[PATH_MAX];
    int before, after;
    if (store_migrate(db, &before, &after, err, sizeof err) != 0) {
        fprintf(stderr, "tengen serve: %s\n", err);
        return 1;
    }
    store_shown_name(db, shown, sizeof shown);
    printf("tengen serve: %s: schema version %d", shown, after);
    if (before == 0)
        printf(" (created)\n");
    else if (before < after)
        printf(" (migrated from %d)\n", before);
    else
        printf(" (up to date)\n");
    return 0;
}

/* --backup FILE: SQLite's online copy; PostgreSQL's is pg_dump's. */
static int backup_copy(const char *db, const char *out)
{
    char err[PATH_MAX + 512];
    if (store_is_postgres(db)) {
        char shown[PATH_MAX];
        store_shown_name(db, shown, sizeof shown);
        fprintf(stderr,
                "tengen serve: a PostgreSQL database is copied with pg_dump while the servers run:\n"
                "  pg_dump --format=custom --file='%s' '%s'\n"
                "and put back with pg_restore --clean --dbname=... (README, \"Backups\")\n",
                out, shown);
        return 1;
    }
    store_copy_report r;
    if (store_sqlite_backup(db, out, 0, &r, err, sizeof err) != 0) {
        fprintf(stderr, "tengen serve: %s\n", err);
        return 1;
    }
    printf("tengen serve: wrote %s: schema version %d, %lld users, %lld games, integrity ok\n", r.path,
           r.schema_version, r.users, r.games);
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    static char db[PATH_MAX], self[PATH_MAX], tengen[PATH_MAX + 8];
    static listen_spec listen = {"127.0.0.1", 8080};
    server_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.engines = 1;
    cfg.max_connections = 10000;
    cfg.max_connections_per_ip = 64;
    cfg.analysis_playouts = 400;
    cfg.analysis_max = 4;
    const char *db_option = NULL;
    bool migrate_only = false;
    const char *backup_to = NULL;
    const cli_option options[] = {
        {"--listen", NULL, CLI_CALL, "ADDR:PORT", 0, 0, NULL, read_listen, "ADDR:PORT, the port 0..65535", &listen,
         "where to listen (default: 127.0.0.1:8080); for a club,\n"
         "an address of this machine, e.g. 0.0.0.0:8080"},
        {"--db", NULL, CLI_TEXT, "FILE|URI", 0, 0, NULL, NULL, NULL, &db_option,
         "the SQLite database (default: $XDG_DATA_HOME/tengen/tengen.db,\n"
         "else ~/.local/share/tengen/tengen.db), or PostgreSQL:\n"
         "postgresql://[user@][host][:port][/dbname][?param=value],\n"
         "what it leaves out taken from PGHOST, PGPORT, PGUSER,\n"
         "PGPASSWORD, PGDATABASE...; any number of servers (nodes)\n"
         "may share one PostgreSQL database"},
        {"--engines", NULL, CLI_INT, "N", 1, 64, NULL, NULL, NULL, &cfg.engines,
         "engine processes playing at once (default: 1); further engine\n"
         "moves wait in a queue"},
        {"--engine", NULL, CLI_CALL, "NAME=COMMAND", 0, 0, NULL, read_engine, "NAME=COMMAND, NAME not tengen",
         &cfg, "offer another GTP engine (repeatable), e.g.\n"
               "--engine 'gnugo=gnugo --mode gtp --level 5'"},
        {"--analysis-playouts", NULL, CLI_INT, "N", 0, 100000, NULL, NULL, NULL, &cfg.analysis_playouts,
         "analysis with the engine of finished games and uploaded\n"
         "records: playouts a position (default: 400; 0: no analysis)"},
        {"--analysis-max", NULL, CLI_INT, "N", 1, 1000, NULL, NULL, NULL, &cfg.analysis_max,
         "analyses queued or running at once, over all clients\n"
         "(default: 4; one at a time an account, two an address)"},
        {"--web", NULL, CLI_TEXT, "DIR", 0, 0, NULL, NULL, NULL, &cfg.web_dir,
         "serve the page from DIR instead of the copy built in"},
        {"--max-connections", NULL, CLI_INT, "N", 1, 1000000, NULL, NULL, NULL, &cfg.max_connections,
         "(default: 10000)"},
        {"--max-connections-per-ip", NULL, CLI_INT, "N", 1, 1000000, NULL, NULL, NULL,
         &cfg.max_connections_per_ip,
         "WebSockets one client address may hold open (default: 64);\n"
         "an IPv6 client counts by its /64"},
        {"--trusted-proxy", NULL, CLI_CALL, "ADDR", 0, 0, NULL, read_trusted_proxy, "ADDR, an IPv4 or IPv6 address",
         &cfg, "a reverse proxy in front (repeatable): a connection from it\n"
               "is the client named last in its X-Forwarded-For"},
        {"--quiet", "-q", CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &cfg.quiet, "print only the address and errors"},
        {"--migrate-only", NULL, CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &migrate_only,
         "create the database's tables or bring them to this version's\n"
         "schema, print the schema version and exit (0, or 1 with why)"},
        {"--backup", NULL, CLI_TEXT, "FILE", 0, 0, NULL, NULL, NULL, &backup_to,
         "copy the database (SQLite) to FILE, or into the folder FILE,\n"
         "while a server runs on it, and exit; as tengen backup --db.\n"
         "PostgreSQL's copy is pg_dump's (it prints the command)"},
    };
    const cli_command cmd = {.name = "serve", .synopsis = serve_synopsis, .epilogue = serve_epilogue, .options = options,
                             .option_count = CLI_COUNT(options)};
    int r = cli_parse(&cmd, argc, argv);
    if (r)
        return r == CLI_HELP ? 0 : 2;
    if (read_env_seconds("TENGEN_WS_PING_S", &cfg.ws_ping_s) != 0 ||
        read_env_seconds("TENGEN_WS_HANGUP_S", &cfg.ws_hangup_s) != 0)
        return 2;
    cfg.listen_addr = listen.addr;
    cfg.port = listen.port;
    if (db_option)
        snprintf(db, sizeof db, "%s", db_option);
    if (!db[0] && default_db(db, sizeof db) != 0) {
        fprintf(stderr, "tengen serve: no place for the database: give --db FILE\n");
        return 1;
    }
    cfg.db_path = db;
    if (migrate_only)
        return migrate(db);
    if (backup_to)
        return backup_copy(db, backup_to);
    /* the built-in engine is this very program */
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "tengen serve: cannot find its own program\n");
        return 1;
    }
    self[n] = '\0';
    snprintf(tengen, sizeof tengen, "'%s'", self);
    cfg.tengen_command = tengen;
    raise_fd_limit(cfg.max_connections + 256);

    char err[512];
    server *s = server_new(&cfg, err, sizeof err);
    if (!s) {
        fprintf(stderr, "tengen serve: %s\n", err);
        return 1;
    }
    const char *shown = strcmp(listen.addr, "0.0.0.0") == 0 ? "127.0.0.1" : listen.addr;
    char db_shown[PATH_MAX];
    store_shown_name(db, db_shown, sizeof db_shown);
    printf("tengen serve: open http://%s:%d/ (database %s)\n", shown, server_port(s), db_shown);
    fflush(stdout);
    server_run(s);
    server_free(s);
    if (!cfg.quiet)
        fprintf(stderr, "tengen serve: stopped; games in progress are kept\n");
    return 0;
}
