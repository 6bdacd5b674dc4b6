#!/usr/bin/env bash
# serve_nodes.sh — CTest entry (issue 50): three `tengen serve` nodes on one
# throwaway PostgreSQL (pg_env.sh), driven by tests/js/serve/nodes.js:
# across nodes (accounts, a challenge, moves seen by the opponent and a
# spectator), the race of two moves at once, the database stopped and
# started again, a node killed with SIGKILL and its game timed by another.
# Installs ws into tests/js/serve/node_modules on first use.  Needs
# TENGEN_BIN and TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"
. "$TENGEN_SOURCE_DIR/tests/scripts/pg_env.sh"

command -v node >/dev/null || { echo "serve_nodes: node is not installed" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"

pg_env_start
pg_env_createdb nodes

# the test stops and starts the database itself (its options are kept in
# postmaster.opts, which pg_ctl start -o reads back)
cat >"$PG_ENV_DIR/stop.sh" <<STOP
$(declare -f pg_env_as_owner)
PG_ENV_DIR=$PG_ENV_DIR
pg_env_as_owner "$PG_BIN/pg_ctl" -D "$PG_ENV_DIR/data" -m fast -w stop
STOP
cat >"$PG_ENV_DIR/start.sh" <<START
$(declare -f pg_env_as_owner)
PG_ENV_DIR=$PG_ENV_DIR
pg_env_as_owner "$PG_BIN/pg_ctl" -D "$PG_ENV_DIR/data" -l "$PG_ENV_DIR/data/server.log" -w -t 30 \
    -o "-k $PG_ENV_DIR -p 5432 -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=32MB" start
START

if ! TENGEN_TEST_DB=$(pg_env_url nodes) PG_STOP="$PG_ENV_DIR/stop.sh" PG_START="$PG_ENV_DIR/start.sh" \
        timeout 200 node "$js_dir/nodes.js" "$TENGEN_BIN"; then
    pg_env_log | tail -n 30 >&2
    exit 1
fi

# the PostgreSQL backup (README, "Backups"): pg_dump while nothing is
# stopped, pg_restore into a new database that tengen then serves as it is
count() { pg_env_psql -d "$1" -At -c "SELECT (SELECT count(*) FROM games) || ' ' || (SELECT count(*) FROM events) || ' ' || (SELECT count(*) FROM users)"; }
"$PG_BIN/pg_dump" --format=custom --file="$PG_ENV_DIR/nodes.dump" "$(pg_env_url nodes)" ||
    { echo "FAIL serve_nodes: pg_dump" >&2; exit 1; }
pg_env_createdb restored
"$PG_BIN/pg_restore" --no-owner --dbname="$(pg_env_url restored)" "$PG_ENV_DIR/nodes.dump" ||
    { echo "FAIL serve_nodes: pg_restore" >&2; exit 1; }
[ "$(count "$(pg_env_url nodes)")" = "$(count "$(pg_env_url restored)")" ] ||
    { echo "FAIL serve_nodes: the restored database holds $(count "$(pg_env_url restored)"), not $(count "$(pg_env_url nodes)")" >&2; exit 1; }
out=$("$TENGEN_BIN" serve --db "$(pg_env_url restored)" --migrate-only)
case "$out" in *"(up to date)"*) ;; *) echo "FAIL serve_nodes: the restored database: $out" >&2; exit 1 ;; esac
echo "ok pg_dump and pg_restore: the restored database holds the same games, events and players ($(count "$(pg_env_url restored)")), and is tengen's schema, up to date"
