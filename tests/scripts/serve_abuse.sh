#!/usr/bin/env bash
# serve_abuse.sh — CTest entry for tests/js/serve/abuse.js: `tengen serve`
# against hostile and vanished clients below the protocol (frames and
# handshakes built byte by byte: unmasked frames, conflicting lengths,
# oversized headers, bad handshakes and close codes; peers that stop
# answering pings; the cap per address and X-Forwarded-For).
# Starts its own server on a free 127.0.0.1 port with a temporary database,
# with a ping after 1 s and a hangup after 3 s of silence.  Installs ws into
# tests/js/serve/node_modules on first use.  Needs TENGEN_BIN and
# TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"

command -v node >/dev/null || { echo "serve_abuse: node is not installed" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
exec timeout 90 node "$js_dir/abuse.js" "$TENGEN_BIN"
