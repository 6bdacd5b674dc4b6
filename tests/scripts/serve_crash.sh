#!/usr/bin/env bash
# serve_crash.sh — CTest entry for tests/js/serve/crash.js: `tengen serve` killed with
# SIGKILL during 4 games, twice, loses no acknowledged move, and play and the
# clocks go on after the restart (bounded: 60 s).
# Starts its own server on a free 127.0.0.1 port with a temporary database.
# Installs ws into tests/js/serve/node_modules on first use.  Needs TENGEN_BIN
# and TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"

command -v node >/dev/null || { echo "serve_crash: node is not installed" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
exec timeout 180 node "$js_dir/crash.js" "$TENGEN_BIN"
