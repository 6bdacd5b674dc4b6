#!/usr/bin/env bash
# migrate.sh — CTest entry for tests/js/serve/ops.js migrate (issue 50): tengen serve
# --migrate-only on a new file and on a version-1 database (2323faa's
# schema) holding a finished game, which the server then serves.
# Starts its own servers on free 127.0.0.1 ports with temporary databases;
# reads them with python3's sqlite3.  Installs ws into tests/js/serve/node_modules
# on first use.  Needs TENGEN_BIN and TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"

command -v node >/dev/null || { echo "migrate: node is not installed" >&2; exit 1; }
python3 -c 'import sqlite3' || { echo "migrate: python3 with its sqlite3 module is needed" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
exec timeout 120 node "$js_dir/ops.js" migrate "$TENGEN_BIN"
