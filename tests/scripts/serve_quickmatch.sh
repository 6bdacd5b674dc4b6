#!/usr/bin/env bash
# serve_quickmatch.sh — CTest entry for tests/browser/quickmatch.js: two
# browsers press the lobby's Quick match and land in one game; a guest
# seeks unrated and stops looking (issue 52).  Headless Chromium
# (playwright-core, Debian's /usr/bin/chromium) against a `tengen serve`
# the script starts itself.  Needs TENGEN_BIN and TENGEN_SOURCE_DIR (CTest
# sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/browser"

command -v node >/dev/null || { echo "serve_quickmatch: node is not installed" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "serve_quickmatch: no Chromium at ${CHROMIUM:-/usr/bin/chromium}" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"
export TENGEN_BIN TENGEN_SOURCE_DIR
exec node "$js_dir/quickmatch.js"
