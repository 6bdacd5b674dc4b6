#!/usr/bin/env bash
# serve_tournament.sh — CTest entry for tests/browser/tournament.js (issue
# 52): a 4-player, 3-round Swiss run on `tengen serve` in headless
# Chromium (playwright-core, Debian's /usr/bin/chromium) — registration,
# pairing, rounds started with their clocks, a loss by absence after the
# lateness delay, a both-lose (双负) ruled by the organiser, the standings
# and the exports.  Installs the npm packages of tests/browser on first use
# (no browser download).  Needs TENGEN_BIN and TENGEN_SOURCE_DIR (CTest
# sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/browser"

command -v node >/dev/null || { echo "serve_tournament: node is not installed" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "serve_tournament: no Chromium at ${CHROMIUM:-/usr/bin/chromium}" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
export TENGEN_BIN
exec node "$js_dir/tournament.js"
