#!/usr/bin/env bash
# npm_deps.sh DIR... — make sure each test directory's npm packages are
# installed, once, whole.  Several CTest scripts share one node_modules
# (tests/js/serve, tests/browser) and CTest runs them in parallel: each
# used to run `npm install` when a package file was missing, so one test
# could load playwright-core while another's install was rewriting it
# ("SyntaxError: Unexpected end of input" in coreBundle.js).  Here the
# install runs under an exclusive lock on DIR/.npm-lock, and a test
# proceeds only once DIR/node_modules/.tengen-installed matches
# package.json — written after npm has finished, so a half-written tree
# never counts as installed.  tools/test.sh calls this before CTest.
set -euo pipefail
for dir in "$@"; do
    [ -f "$dir/package.json" ] || { echo "npm_deps: no package.json in $dir" >&2; exit 1; }
    (
        exec 9>"$dir/.npm-lock"
        flock 9
        want=$(sha256sum "$dir/package.json" | cut -d' ' -f1)
        stamp="$dir/node_modules/.tengen-installed"
        if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
            command -v npm >/dev/null || { echo "npm_deps: npm is not installed" >&2; exit 1; }
            rm -f "$stamp"
            (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error) >&2
            echo "$want" >"$stamp"
        fi
    )
done
