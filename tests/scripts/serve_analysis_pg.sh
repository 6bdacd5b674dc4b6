#!/usr/bin/env bash
# serve_analysis_pg.sh — CTest entry: tests/browser/analysis.js (analysis
# with the engine, issue 51) against `tengen serve --db postgresql://...` on
# a throwaway PostgreSQL (pg_env.sh): the analyses are stored and read back
# as documents of the PostgreSQL back end as of SQLite's (serve_analysis).
# Needs TENGEN_BIN and TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/browser"
. "$TENGEN_SOURCE_DIR/tests/scripts/pg_env.sh"

command -v node >/dev/null || { echo "serve_analysis_pg: node is not installed" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "serve_analysis_pg: no Chromium at ${CHROMIUM:-/usr/bin/chromium}" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"

pg_env_start
pg_env_createdb analysis
TENGEN_DB_URL=$(pg_env_url analysis)
export TENGEN_BIN TENGEN_SOURCE_DIR TENGEN_DB_URL
if ! node "$js_dir/analysis.js"; then
    pg_env_log | tail -n 20 >&2
    exit 1
fi
