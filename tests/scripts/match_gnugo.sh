#!/usr/bin/env bash
# match_gnugo.sh — `tengen match` end to end: two short 9x9 games of
# tengen's engine against GNU Go, their SGF files and JSON lines; --resume
# of a match cut short; and Ctrl-C, which must leave finished games written
# and no engine process behind.  Skipped (exit 0 with a message) without GNU Go.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
tengen=${TENGEN_BIN:-$source_dir/build/tengen}
gnugo=/usr/games/gnugo
fake="sh $source_dir/tests/fake_engines/fake_gtp.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; failures=$((failures + 1)); }

if [ ! -x "$gnugo" ]; then
    echo "SKIP: GNU Go not found at $gnugo"
    exit 0
fi

match() { # RESULTS [options]
    local results=$1
    shift
    "$tengen" match --engine "tengen=$tengen gtp --playouts 50" \
        --engine "gnugo=$gnugo --mode gtp --level 1" --size 9 --quiet \
        --sgf-dir "$work/sgf" --results "$results" "$@"
}

match "$work/r.jsonl" --games 2 >"$work/out.txt" 2>&1
[ $? -eq 0 ] && ok "match exits 0" || bad "match exit status"
[ "$(wc -l <"$work/r.jsonl")" -eq 2 ] && ok "two JSON lines" || bad "JSON lines"
for key in game black white result reason moves sgf; do
    grep -q "\"$key\":" "$work/r.jsonl" && ok "JSON has $key" || bad "JSON lacks $key"
done
grep -q '"black":"tengen","white":"gnugo"' "$work/r.jsonl" && grep -q '"black":"gnugo","white":"tengen"' "$work/r.jsonl" \
    && ok "colours alternate" || bad "colours"
for n in 1 2; do
    f="$work/sgf/game-0000$n.sgf"
    if [ -s "$f" ] && "$tengen" sgf check "$f" >/dev/null 2>&1; then ok "game $n SGF valid"; else bad "game $n SGF"; fi
    grep -q 'RE\[' "$f" && grep -q 'PB\[' "$f" && grep -q 'PW\[' "$f" && grep -q 'RU\[' "$f" \
        && grep -q 'KM\[' "$f" && ok "game $n SGF has RE PB PW RU KM" || bad "game $n SGF properties"
done
grep -q "tengen vs gnugo" "$work/out.txt" && grep -q "95% interval" "$work/out.txt" && ok "Elo line" || bad "Elo line"
grep -q "as black" "$work/out.txt" && ok "results table" || bad "results table"

# --resume: keep the first game only, then continue: game 2 is played again, game 1 is not.
head -1 "$work/r.jsonl" >"$work/resume.jsonl"
match "$work/resume.jsonl" --games 2 >"$work/resume.txt" 2>&1
[ $? -ne 0 ] && ok "existing results file refused without --resume" || bad "results file overwritten"
match "$work/resume.jsonl" --games 2 --resume >"$work/resume.txt" 2>&1
[ "$(wc -l <"$work/resume.jsonl")" -eq 2 ] && [ "$(grep -c '"game":1,' "$work/resume.jsonl")" -eq 1 ] \
    && grep -q '"game":2,' "$work/resume.jsonl" && ok "resume plays only the missing game" || bad "resume"
grep -q "  2      " "$work/resume.txt" && ok "resumed table counts both games" || bad "resumed table"

# Ctrl-C: engines that take their time, a unique tag to find their processes.
tag="tag=tengen-match-test-$$"
"$tengen" match --engine "a=$fake slow=0.2 $tag" --engine "b=$fake slow=0.2 $tag" --size 5 \
    --games 50 -j 2 --quiet --results "$work/int.jsonl" >"$work/int.txt" 2>&1 &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
status=$?
[ $status -eq 130 ] && ok "Ctrl-C: exit status 130" || bad "Ctrl-C: exit status $status"
grep -q "interrupted" "$work/int.txt" && ok "Ctrl-C: says so" || bad "Ctrl-C message"
if [ -s "$work/int.jsonl" ]; then
    grep -vq '^{.*}$' "$work/int.jsonl" && bad "Ctrl-C: a partial line" || ok "Ctrl-C: whole lines only"
else
    ok "Ctrl-C: no game finished, none written"
fi
sleep 0.2
if pgrep -f "$tag" >/dev/null; then bad "Ctrl-C: engines left running"; else ok "Ctrl-C: no engine left"; fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
