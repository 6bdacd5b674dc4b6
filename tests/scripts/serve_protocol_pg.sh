#!/usr/bin/env bash
# serve_protocol_pg.sh — CTest entry (issue 50): `tengen serve --db
# postgresql://...` on a throwaway PostgreSQL (pg_env.sh).  First
# --migrate-only: a new database is created at the schema version, then up
# to date, and six servers migrating one new database at once all succeed,
# one of them creating it (the advisory lock); then tests/js/serve/protocol.js,
# the protocol test, against the server on PostgreSQL.  Installs ws into
# tests/js/serve/node_modules on first use.  Needs TENGEN_BIN and
# TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"
. "$TENGEN_SOURCE_DIR/tests/scripts/pg_env.sh"

command -v node >/dev/null || { echo "serve_protocol_pg: node is not installed" >&2; exit 1; }
if [ ! -f "$js_dir/node_modules/ws/package.json" ]; then
    command -v npm >/dev/null || { echo "serve_protocol_pg: npm is not installed" >&2; exit 1; }
    (cd "$js_dir" && npm install --no-audit --no-fund --loglevel=error) >&2
fi

fail() { echo "FAIL serve_protocol_pg: $*" >&2; pg_env_log | tail -n 20 >&2; exit 1; }

pg_env_start

pg_env_createdb migrated
url=$(pg_env_url migrated)
out=$("$TENGEN_BIN" serve --db "$url" --migrate-only) || fail "--migrate-only on a new database: $out"
case "$out" in *"schema version 2 (created)"*) ;; *) fail "--migrate-only on a new database said: $out" ;; esac
out=$("$TENGEN_BIN" serve --db "$url" --migrate-only) || fail "--migrate-only again: $out"
case "$out" in *"(up to date)"*) ;; *) fail "--migrate-only again said: $out" ;; esac
echo "ok --migrate-only creates the schema, then finds it up to date"

pg_env_createdb raced
pids=()
for i in 1 2 3 4 5 6; do
    "$TENGEN_BIN" serve --db "$(pg_env_url raced)" --migrate-only >"$PG_ENV_DIR/race$i.out" 2>&1 &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || fail "a --migrate-only racing others failed: $(cat "$PG_ENV_DIR"/race*.out)"; done
created=$(cat "$PG_ENV_DIR"/race*.out | grep -c "(created)" || true)
[ "$created" -eq 1 ] || fail "six servers migrating at once: $created said created"
echo "ok six servers migrating one new database at once: all succeed, one creates it"

pg_env_createdb protocol
if ! TENGEN_TEST_DB=$(pg_env_url protocol) timeout 180 node "$js_dir/protocol.js" "$TENGEN_BIN"; then
    pg_env_log | tail -n 20 >&2
    exit 1
fi
