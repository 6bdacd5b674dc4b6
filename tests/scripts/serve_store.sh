#!/usr/bin/env bash
# serve_store.sh — CTest entry for tests/js/serve/store.js: `tengen serve` while
# another process (python3's sqlite3) holds SQLite's write lock on its
# database (issue 48): pings answered at once, a move acknowledged only when
# durable and its opponent's clock not charged for the wait; with a short busy
# wait, the failure told truthfully (internal, a corrective game.state,
# "store failing" then "store ok"), sessions not half made; /metrics' loop lag.
# Starts its own servers on free 127.0.0.1 ports with temporary databases.
# Installs ws into tests/js/serve/node_modules on first use.  Needs TENGEN_BIN
# and TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"

command -v node >/dev/null || { echo "serve_store: node is not installed" >&2; exit 1; }
command -v python3 >/dev/null || { echo "serve_store: python3 is not installed" >&2; exit 1; }
python3 -c 'import sqlite3' || { echo "serve_store: python3 has no sqlite3 module" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
exec timeout 90 node "$js_dir/store.js" "$TENGEN_BIN"
