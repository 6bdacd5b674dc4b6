#!/usr/bin/env bash
# serve_browser.sh — CTest entry for tests/browser/browser.js: the page in
# web/ driven in headless Chromium (playwright-core, Debian's
# /usr/bin/chromium) against a `tengen serve` the script starts itself:
# accounts, lobby, a game with a stone-removal dispute watched by a
# spectator, an engine game, a loss on time, the SGF download.  Installs
# playwright-core and @sabaki/sgf into tests/browser/node_modules on first
# use (no browser download).  Needs TENGEN_BIN and TENGEN_SOURCE_DIR (CTest
# sets both); SCREENSHOT=1 also saves docs/serve-game.png.
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/browser"

command -v node >/dev/null || { echo "serve_browser: node is not installed" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "serve_browser: no Chromium at ${CHROMIUM:-/usr/bin/chromium}" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
export TENGEN_BIN TENGEN_SOURCE_DIR
exec node "$js_dir/browser.js"
