#!/usr/bin/env bash
# serve_lockout.sh — CTest entry for tests/js/serve/lockout.js: one client attacking beside an honest one, each from its own loopback address
# (limits per address: logins, guests, the lobby, engine games, finished games read).

# Starts its own server on a free 127.0.0.1 port with a temporary database.
# Installs ws into tests/js/serve/node_modules on first use.  Needs TENGEN_BIN
# and TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"

command -v node >/dev/null || { echo "serve_lockout: node is not installed" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
exec timeout 180 node "$js_dir/lockout.js" "$TENGEN_BIN"
