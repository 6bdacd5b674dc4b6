#!/usr/bin/env bash
# serve_free_opening.sh — CTest entry for tests/js/serve/free_opening.js:
# a free-opening game (002) against the built-in engine over the protocol,
# with the sealed predictions checked in every message, the API and the SGF,
# and a restart between the two predictions.  Starts its own server on a
# free 127.0.0.1 port with a temporary database.  Installs ws into
# tests/js/serve/node_modules on first use.  Needs TENGEN_BIN and
# TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"

command -v node >/dev/null || { echo "serve_free_opening: node is not installed" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
exec timeout 240 node "$js_dir/free_opening.js" "$TENGEN_BIN"
