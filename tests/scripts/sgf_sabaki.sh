#!/usr/bin/env bash
# sgf_sabaki.sh — CTest entry for tests/js/sgf/check.js: tengen's SGF writer
# output must parse with @sabaki/sgf (npm) to the same tree as its input and
# round-trip through tengen's own reader.  Installs @sabaki/sgf into
# tests/js/sgf/node_modules on first use.  Needs TENGEN_BIN and
# TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/sgf"

command -v node >/dev/null || { echo "sgf_sabaki: node is not installed" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
exec node "$js_dir/check.js" "$TENGEN_BIN" "$TENGEN_SOURCE_DIR"
