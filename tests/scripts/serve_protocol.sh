#!/usr/bin/env bash
# serve_protocol.sh — CTest entry for tests/js/serve/protocol.js: `tengen serve` against docs/protocol.md
# with raw WebSocket clients (the normal flow, every kind of refused request and
# its error code, the HTTP API).
# Starts its own server on a free 127.0.0.1 port with a temporary database.
# Installs ws into tests/js/serve/node_modules on first use.  Needs TENGEN_BIN
# and TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"

command -v node >/dev/null || { echo "serve_protocol: node is not installed" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
exec timeout 180 node "$js_dir/protocol.js" "$TENGEN_BIN"
