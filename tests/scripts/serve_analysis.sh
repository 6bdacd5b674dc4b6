#!/usr/bin/env bash
# serve_analysis.sh — CTest entry for tests/browser/analysis.js: analysis
# with the engine (issue 51) in headless Chromium (playwright-core, Debian's
# /usr/bin/chromium) against a `tengen serve --analysis-playouts 30` the
# script starts: a finished game analysed and drawn (graph, candidates,
# principal variation, ownership), an uploaded SGF analysed, bad uploads and
# requests refused.  Installs the npm packages of tests/browser on first use
# (no browser download).  Needs TENGEN_BIN and TENGEN_SOURCE_DIR (CTest sets
# both); SCREENSHOT=1 also saves docs/serve-analysis.png.
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/browser"

command -v node >/dev/null || { echo "serve_analysis: node is not installed" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "serve_analysis: no Chromium at ${CHROMIUM:-/usr/bin/chromium}" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
export TENGEN_BIN TENGEN_SOURCE_DIR
exec node "$js_dir/analysis.js"
