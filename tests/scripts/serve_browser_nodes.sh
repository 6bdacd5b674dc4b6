#!/usr/bin/env bash
# serve_browser_nodes.sh — CTest entry (issue 50): tests/browser/nodes.js,
# the page in headless Chromium across three `tengen serve` nodes on one
# throwaway PostgreSQL (pg_env.sh): the players on two nodes, the
# spectator on a third.  Needs TENGEN_BIN and TENGEN_SOURCE_DIR (CTest
# sets both); installs the browser tests' npm packages on first use.
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/browser"
. "$TENGEN_SOURCE_DIR/tests/scripts/pg_env.sh"

command -v node >/dev/null || { echo "serve_browser_nodes: node is not installed" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "serve_browser_nodes: no Chromium at ${CHROMIUM:-/usr/bin/chromium}" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"

pg_env_start
pg_env_createdb page
if ! TENGEN_TEST_DB=$(pg_env_url page) node "$js_dir/nodes.js"; then
    pg_env_log | tail -n 20 >&2
    exit 1
fi
