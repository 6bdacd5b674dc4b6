#!/usr/bin/env bash
# serve_page.sh — CTest entry for tests/browser/page.js: the game page as a
# Go player reads it (issue 51) in headless Chromium (playwright-core,
# Debian's /usr/bin/chromium) against a `tengen serve` the script starts:
# keyboard play, the count drawn and adding up, a 250-move record and its
# review with variations, the connection dropped, three viewports, axe-core.
# Installs the npm packages of tests/browser on first use (no browser
# download).  Needs TENGEN_BIN and TENGEN_SOURCE_DIR (CTest sets both);
# SCREENSHOT=1 also saves docs/serve-count.png and docs/serve-review.png.
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/browser"

command -v node >/dev/null || { echo "serve_page: node is not installed" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "serve_page: no Chromium at ${CHROMIUM:-/usr/bin/chromium}" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
export TENGEN_BIN TENGEN_SOURCE_DIR
exec node "$js_dir/page.js"
