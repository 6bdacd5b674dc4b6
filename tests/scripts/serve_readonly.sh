#!/usr/bin/env bash
# serve_readonly.sh — `tengen serve` refuses to start on a database it cannot
# write (issue 48, fault 13: it used to start silently and lose every write).
# The file is made by the server, then made read-only (as root, the server is
# run as the user nobody, for whom it is).  Needs TENGEN_BIN.
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
dir=$(mktemp -d)
trap 'chmod -R u+w "$dir" 2>/dev/null; rm -rf "$dir"' EXIT
chmod 755 "$dir"

# the server makes the file, then stops
"$TENGEN_BIN" serve --listen 127.0.0.1:0 --db "$dir/ro.db" --quiet >"$dir/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'http://' "$dir/out" 2>/dev/null && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid" || true
[ -s "$dir/ro.db" ] || { echo "FAIL: the server did not make its database"; cat "$dir/out"; exit 1; }
chmod 444 "$dir/ro.db"
rm -f "$dir/ro.db-wal" "$dir/ro.db-shm"
chmod 555 "$dir"

run=("$TENGEN_BIN")
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null || { echo "SKIP: root without setpriv"; exit 0; }
    chmod 755 "$TENGEN_BIN" 2>/dev/null || true
    run=(setpriv --reuid=nobody --regid=nogroup --clear-groups "$TENGEN_BIN")
fi
set +e
timeout 10 "${run[@]}" serve --listen 127.0.0.1:0 --db "$dir/ro.db" --quiet >"$dir/out2" 2>&1
rc=$?
set -e
if [ "$rc" = 0 ] || [ "$rc" = 124 ]; then
    echo "FAIL: tengen serve ran on a read-only database (exit $rc)"
    cat "$dir/out2"
    exit 1
fi
grep -qiE 'read-only|readonly|cannot|unable' "$dir/out2" || { echo "FAIL: no reason given:"; cat "$dir/out2"; exit 1; }
echo "ok   tengen serve refuses a read-only database: $(head -n 1 "$dir/out2")"
