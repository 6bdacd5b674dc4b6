/*
 * cmd_serve.c — `tengen serve`: the options, where the database goes, the
 * address printed for people to open; the server itself is src/server.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "server/server.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tengen serve [options]\n\n"
            "Serve Go in the browser: people play each other and engines, refereed by the\n"
            "rules (clock, illegal moves, stone removal, absence), every game kept.\n\n"
            "options:\n"
            "  --listen ADDR:PORT  where to listen (default: 127.0.0.1:8080); for a club,\n"
            "                  an address of this machine, e.g. 0.0.0.0:8080\n"
            "  --db FILE       the SQLite database (default: $XDG_DATA_HOME/tengen/tengen.db,\n"
            "                  else ~/.local/share/tengen/tengen.db)\n"
            "  --engines N     engine processes playing at once (default: 1); further engine\n"
            "                  moves wait in a queue\n"
            "  --engine NAME=COMMAND  offer another GTP engine (repeatable), e.g.\n"
            "                  --engine 'gnugo=gnugo --mode gtp --level 5'\n"
            "  --web DIR       serve the page from DIR instead of the copy built in\n"
            "  --max-connections N  (default: 10000)\n"
            "  -q, --quiet     print only the address and errors\n"
            "  -h, --help      show this help\n\n"
            "Stop it with Ctrl-C or SIGTERM: games in progress are kept and resume at the\n"
            "next start. The protocol for other clients is docs/protocol.md.\n");
}

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

static int parse_listen(const char *text, char *addr, size_t len, int *port)
{
    const char *colon = strrchr(text, ':');
    if (!colon || colon == text || (size_t)(colon - text) >= len)
        return -1;
    memcpy(addr, text, (size_t)(colon - text));
    addr[colon - text] = '\0';
    return cli_parse_int(colon + 1, 0, 65535, port);
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

int cmd_serve(int argc, char **argv)
{
    static char db[PATH_MAX], addr[256] = "127.0.0.1", self[PATH_MAX], tengen[PATH_MAX + 8];
    server_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.listen_addr = addr;
    cfg.port = 8080;
    cfg.engines = 1;
    cfg.max_connections = 10000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            cfg.quiet = true;
            continue;
        }
        if (!v) {
            fprintf(stderr, "tengen serve: %s needs a value (see --help)\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--listen")) {
            if (parse_listen(v, addr, sizeof addr, &cfg.port) != 0)
                return cli_bad_value("serve", a, v), 2;
        } else if (!strcmp(a, "--db")) {
            snprintf(db, sizeof db, "%s", v);
        } else if (!strcmp(a, "--engines")) {
            if (cli_parse_int(v, 1, 64, &cfg.engines) != 0)
                return cli_bad_value("serve", a, v), 2;
        } else if (!strcmp(a, "--max-connections")) {
            if (cli_parse_int(v, 1, 1000000, &cfg.max_connections) != 0)
                return cli_bad_value("serve", a, v), 2;
        } else if (!strcmp(a, "--web")) {
            cfg.web_dir = v;
        } else if (!strcmp(a, "--engine")) {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || eq - v >= 31 || !eq[1] || cfg.extra_count == SERVER_MAX_ENGINES ||
                !strncmp(v, "tengen=", 7))
                return cli_bad_value("serve", a, v), 2;
            static char names[SERVER_MAX_ENGINES][32];
            memcpy(names[cfg.extra_count], v, (size_t)(eq - v));
            names[cfg.extra_count][eq - v] = '\0';
            cfg.extra[cfg.extra_count].name = names[cfg.extra_count];
            cfg.extra[cfg.extra_count].command = eq + 1;
            cfg.extra_count++;
        } else {
            fprintf(stderr, "tengen serve: unknown option %s (see --help)\n", a);
            return 2;
        }
    }
    if (!db[0] && default_db(db, sizeof db) != 0) {
        fprintf(stderr, "tengen serve: no place for the database: give --db FILE\n");
        return 1;
    }
    cfg.db_path = db;
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
    const char *shown = strcmp(addr, "0.0.0.0") == 0 ? "127.0.0.1" : addr;
    printf("tengen serve: open http://%s:%d/ (database %s)\n", shown, server_port(s), db);
    fflush(stdout);
    server_run(s);
    server_free(s);
    if (!cfg.quiet)
        fprintf(stderr, "tengen serve: stopped; games in progress are kept\n");
    return 0;
}
