#!/usr/bin/env bash
# gtp_final_score.sh — issue 41, item 5: `tengen gtp` gives one count and
# one dead list per position, whichever command asks and however often,
# and it is the count `tengen score` gives.  The position (a GNU Go
# self-play game at level 1, 9x9, stopped at move 50) has six dead black
# stones; GNU Go counts it W+41.0 too.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
tengen=${TENGEN_BIN:-$source_dir/build/tengen}
sgf=$source_dir/tests/data/score/gnugo_dead_9x9.sgf
failures=0

check() {
    if [ "$2" == "$3" ]; then
        echo "ok   $1"
    else
        echo "FAIL $1: got '$2', expected '$3'"
        failures=$((failures + 1))
    fi
}

# The answers of one GTP session, one line each (a multi-line list joined by spaces).
answers=$(printf 'loadsgf %s\nfinal_score\nfinal_status_list dead\nfinal_score\nfinal_status_list dead\nplay b pass\nundo\nfinal_score\n' "$sgf" |
    "$tengen" gtp --playouts 200 |
    awk 'BEGIN { RS = ""; FS = "\n" } { line = $1; for (i = 2; i <= NF; i++) line = line " " $i; sub(/^= ?/, "", line); print line }')
mapfile -t a <<<"$answers"
score=$("$tengen" score "$sgf" | sed -n 's/^result *//p')

check "first final_score is tengen score's" "${a[1]}" "$score"
check "tengen score's count" "$score" "W+41"
check "second final_score" "${a[3]}" "${a[1]}"
check "final_score after a move and its undo" "${a[7]}" "${a[1]}"
check "second dead list" "${a[4]}" "${a[2]}"
check "dead list" "${a[2]}" "D4 D3 D2 F3 B2 C1"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
