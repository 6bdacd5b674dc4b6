#!/usr/bin/env bash
# gtp_sabaki.sh — runs tests/js/gtp/sabaki_gtp.js, which drives `tengen gtp`
# with @sabaki/gtp's Controller as the Sabaki GUI does.  Installs the npm
# package into tests/js/gtp/node_modules on first use (the npm registry is
# the only network it needs).  Env: TENGEN_BIN (the tengen program),
# TENGEN_SOURCE_DIR (the source tree; defaults to this script's).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_dir="${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}"
js_dir="$source_dir/tests/js/gtp"

if [[ -z "${TENGEN_BIN:-}" || ! -x "$TENGEN_BIN" ]]; then
  echo "gtp_sabaki.sh: TENGEN_BIN must name the tengen program (got '${TENGEN_BIN:-}')" >&2
  exit 2
fi
for tool in node npm; do
  if ! command -v "$tool" >/dev/null; then
    echo "gtp_sabaki.sh: '$tool' not found (Debian packages nodejs and npm)" >&2
    exit 2
  fi
done

bash "$source_dir/tools/npm_deps.sh" "$js_dir"

exec node "$js_dir/sabaki_gtp.js"
