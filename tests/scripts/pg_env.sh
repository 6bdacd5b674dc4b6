#!/usr/bin/env bash
# pg_env.sh — a throwaway PostgreSQL for the tests of the PostgreSQL back end
# (issue 50).  Sourced by tests/scripts/*_pg.sh:
#
#   . "$TENGEN_SOURCE_DIR/tests/scripts/pg_env.sh"
#   pg_env_start            # a new cluster in a mktemp -d folder, stopped and removed on exit
#   pg_env_createdb NAME    # an empty database; its URI is then pg_env_url NAME
#
# pg_env_start exports PGHOST (the folder: the server listens on a Unix
# socket there and on no TCP port, so clusters of tests run side by side),
# PGPORT, PGUSER=postgres and PGDATABASE=postgres, and PG_BIN (initdb,
# pg_ctl, psql).  initdb refuses to run as root, so as root the server runs
# as the user postgres (made by Debian's postgresql package) through
# runuser; otherwise as whoever runs the test.  Trust authentication,
# fsync off: a cluster for one test, never for data.  A script with an EXIT
# trap of its own calls pg_env_stop in it.
#
# Run by itself (the CTest test pg_env) it starts a cluster, asks it one
# query and stops it, printing how long each step took.

pg_env_bin() {
    local dir
    dir=$(pg_config --bindir 2>/dev/null || true)
    if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
        dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    fi
    if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
        echo "pg_env: no initdb (apt-get install postgresql)" >&2
        return 1
    fi
    printf '%s\n' "$dir"
}

# Runs a server program as the cluster's owner, from the cluster's folder
# (postgres may not enter the caller's).
pg_env_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        (cd "$PG_ENV_DIR" && runuser -u postgres -- "$@")
    else
        (cd "$PG_ENV_DIR" && "$@")
    fi
}

pg_env_start() {
    PG_BIN=$(pg_env_bin) || return 1
    if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
        echo "pg_env: running as root, and there is no user postgres to run the server" >&2
        return 1
    fi
    PG_ENV_DIR=$(mktemp -d /tmp/tengen-pg-XXXXXX)
    trap pg_env_stop EXIT
    [ "$(id -u)" -eq 0 ] && chown postgres "$PG_ENV_DIR"
    if ! pg_env_as_owner "$PG_BIN/initdb" -D "$PG_ENV_DIR/data" -A trust -U postgres -E UTF8 \
            --locale=C --no-sync >"$PG_ENV_DIR/initdb.log" 2>&1; then
        cat "$PG_ENV_DIR/initdb.log" >&2
        return 1
    fi
    if ! pg_env_as_owner "$PG_BIN/pg_ctl" -D "$PG_ENV_DIR/data" -l "$PG_ENV_DIR/data/server.log" -w -t 30 \
            -o "-k $PG_ENV_DIR -p 5432 -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=32MB" \
            start >/dev/null; then
        cat "$PG_ENV_DIR/data/server.log" >&2
        return 1
    fi
    unset PGSERVICE PGSERVICEFILE PGOPTIONS PGPASSWORD PGPASSFILE PGSSLMODE PGHOSTADDR
    export PGHOST="$PG_ENV_DIR" PGPORT=5432 PGUSER=postgres PGDATABASE=postgres PG_BIN
}

pg_env_stop() {
    [ -n "${PG_ENV_DIR:-}" ] && [ -d "$PG_ENV_DIR" ] || return 0
    if [ -f "$PG_ENV_DIR/data/postmaster.pid" ]; then
        pg_env_as_owner "$PG_BIN/pg_ctl" -D "$PG_ENV_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$PG_ENV_DIR"
    PG_ENV_DIR=
}

# The server's log, for a test that failed.
pg_env_log() { cat "$PG_ENV_DIR/data/server.log" 2>/dev/null || true; }

pg_env_psql() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

pg_env_createdb() {
    pg_env_psql -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS \"$1\"" \
        -c "CREATE DATABASE \"$1\"" >/dev/null
}

# A database's URI, whole (tengen serve --db takes it as it is).
pg_env_url() { printf 'postgresql:///%s?host=%s&port=%s&user=postgres\n' "$1" "$PGHOST" "$PGPORT"; }

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    now() { date +%s.%N; }
    t0=$(now)
    pg_env_start
    t1=$(now)
    version=$(pg_env_psql -At -c 'SHOW server_version')
    t2=$(now)
    pg_env_createdb probe
    t3=$(now)
    pg_env_stop
    t4=$(now)
    awk -v v="$version" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v e="$t4" 'BEGIN {
        printf "pg_env: PostgreSQL %s: initdb and start %.2f s, first query %.3f s, CREATE DATABASE %.3f s, stop %.2f s\n",
               v, b - a, c - b, d - c, e - d }'
fi
