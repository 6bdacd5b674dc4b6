#!/usr/bin/env bash
# bench_review.sh — bench_review end to end on a short 9x9 game: one line
# for each position where the reviewed player was to move, with the move it
# played as the record has it, a summary line, the player found by name or
# given by colour, and clear errors (no such player, a broken file, no file).
# Tiny budgets: what is checked is the review's bookkeeping, not a winrate.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
build_dir=${TENGEN_BUILD_DIR:-$source_dir/build}
review=$build_dir/bench_review
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # check NAME CONDITION-STATUS DETAIL
    if [ "$2" -eq 0 ]; then
        echo "ok   $1"
    else
        echo "FAIL $1: $3"
        failures=$((failures + 1))
    fi
}

game=$tmp/game.sgf
cat >"$game" <<'SGF'
(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[gnugo]PW[tengen]
;B[ee];W[gc];B[cg];W[cc];B[gg];W[dc];B[ge];W[ed];B[fd];W[fc])
SGF

out=$("$review" --short 20 --long 40 "$game" 2>&1)
status=$?
check "runs" $status "exit status $status: $out"
lines=$(grep -c '^[^ ]* [0-9]* W ' <<<"$out")
check "one line per White move" $([ "$lines" -eq 5 ]; echo $?) "$lines lines in: $out"
played=$(awk '$3 == "W" { printf "%s ", $4 }' <<<"$out")
check "the moves White played" $([ "$played" = "G7 C7 D7 E6 F7 " ]; echo $?) "got '$played'"
numbers=$(awk '$3 == "W" { printf "%s ", $2 }' <<<"$out")
check "their move numbers" $([ "$numbers" = "2 4 6 8 10 " ]; echo $?) "got '$numbers'"
grep -q "summary: overestimate .* fall .* after move" <<<"$out"
check "a summary line" $? "$out"

out=$("$review" --short 20 --long 40 --color B --from 4 "$game" 2>&1)
played=$(awk '$3 == "B" { printf "%s ", $4 }' <<<"$out")
check "--color B --from 4: Black's moves from the fifth" $([ "$played" = "G3 G5 F6 " ]; echo $?) "got '$played' in: $out"

out=$("$review" --player nobody "$game" 2>&1)
status=$?
check "no such player: exit 1" $([ $status -eq 1 ]; echo $?) "status $status"
grep -q "no player named nobody" <<<"$out"
check "no such player: says so" $? "$out"

printf '(;GM[1]SZ[9];B[ee' >"$tmp/broken.sgf"
out=$("$review" "$tmp/broken.sgf" 2>&1)
status=$?
check "a broken file: exit 1" $([ $status -eq 1 ]; echo $?) "status $status"
grep -q "broken.sgf:1:" <<<"$out"
check "a broken file: where" $? "$out"

"$review" >/dev/null 2>&1
status=$?
check "no file: exit 2" $([ $status -eq 2 ]; echo $?) "status $status"

out=$("$review" --short 10x "$game" 2>&1)
status=$?
check "a bad budget: exit 2" $([ $status -eq 2 ]; echo $?) "status $status"
grep -q "bad value '10x' for --short" <<<"$out"
check "a bad budget: says so" $? "$out"

out=$("$review" "$tmp/missing.sgf" 2>&1)
status=$?
check "a missing file: exit 1" $([ $status -eq 1 ]; echo $?) "status $status"
grep -q "cannot read .*missing.sgf: No such file" <<<"$out"
check "a missing file: says why" $? "$out"

[ "$failures" -eq 0 ] && echo "all bench_review checks passed"
exit $((failures > 0))
