#!/usr/bin/env bash
# serve_crash_abuse_pg.sh — CTest entry (issue 50): the crash test
# (tests/js/serve/crash.js: SIGKILL in the middle of play loses no
# acknowledged move) and the abuse test (abuse.js: hostile clients, limits
# per client and address) against `tengen serve --db postgresql://...` on
# a throwaway PostgreSQL (pg_env.sh), each on a database of its own.
# Installs ws into tests/js/serve/node_modules on first use.  Needs
# TENGEN_BIN and TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"
. "$TENGEN_SOURCE_DIR/tests/scripts/pg_env.sh"

command -v node >/dev/null || { echo "serve_crash_abuse_pg: node is not installed" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"

pg_env_start
pg_env_createdb crash
pg_env_createdb abuse
for t in crash abuse; do
    if ! TENGEN_TEST_DB=$(pg_env_url "$t") timeout 180 node "$js_dir/$t.js" "$TENGEN_BIN"; then
        pg_env_log | tail -n 20 >&2
        echo "FAIL serve_crash_abuse_pg: $t.js on PostgreSQL" >&2
        exit 1
    fi
done
