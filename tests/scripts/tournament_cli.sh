#!/usr/bin/env bash
# tournament_cli.sh — `tengen tournament` end to end, as an organiser at a
# venue uses it: create a McMahon tournament, register players (one late),
# pair, enter and correct results (with 双负 and a forfeit), re-pair, pair
# by lot past a missing result, print standings, export to every format
# and import the OpenGotha file back; plus the errors a user can make.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
tengen=${TENGEN_BIN:-$source_dir/build/tengen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect NAME PATTERN COMMAND...: the output of COMMAND must contain PATTERN
expect() {
    local name=$1 pattern=$2 out
    shift 2
    out=$("$@" 2>&1)
    if grep -qF -- "$pattern" <<<"$out"; then
        echo "ok   $name"
    else
        echo "FAIL $name: expected '$pattern' in:"
        sed 's/^/     /' <<<"$out"
        failures=$((failures + 1))
    fi
}

# expect_status NAME STATUS COMMAND...
expect_status() {
    local name=$1 want=$2
    shift 2
    "$@" >/dev/null 2>&1
    local got=$?
    if [ "$got" -eq "$want" ]; then
        echo "ok   $name"
    else
        echo "FAIL $name: exit status $got, expected $want"
        failures=$((failures + 1))
    fi
}

f=$work/cup.json
T() { "$tengen" tournament "$@"; }
expect_status "new" 0 T new "$f" --name "Spring Cup" --rounds 3 --bar 3d --floor 15k --seed 7
expect_status "new refuses to overwrite" 1 T new "$f"
for p in "Ann 4d" "Bob 2d" "Cy 1k" "Di 3k" "Ed 5k" "Flo 9k"; do
    set -- $p
    expect_status "add $1" 0 T add "$f" "$1" "$2" --club "Club$(( ${#1} % 2 ))"
done
expect "duplicate name refused" "already a player named 'Ann'" T add "$f" Ann 3d
expect "bad rank refused" "not a rank" T add "$f" Gus 40k
expect "round 1 paired" "Spring Cup — round 1" T pair "$f"
expect "re-pair before results" "Board  Black" T pair "$f" --repair
expect_status "result 1" 0 T result "$f" 1 1 B+R
expect_status "result 2 both lose" 0 T result "$f" 1 2 BL
expect "jigo refused at 6.5 komi" "no jigo" T result "$f" 1 3 jigo
expect "bad result refused" "not a result" T result "$f" 1 3 B+banana
expect "no such board" "round 1 has no board 9" T result "$f" 1 9 B+R
expect "missing result stops the next pairing" "has no result yet" T pair "$f"
expect "no re-pair after results" "has results already" T pair "$f" --repair
expect_status "late joiner" 0 T add "$f" Gus 2k
expect "pair by lot (T2)" "counted as won by" T pair "$f" --by-lot
expect_status "result round 1 board 3 forfeit" 0 T result "$f" 1 3 W+F
expect_status "correction" 0 T result "$f" 1 1 W+R --note "wrong colour entered"
grep -q '"note": "wrong colour entered"' "$f" && echo "ok   correction logged" ||
    { echo "FAIL correction logged"; failures=$((failures + 1)); }
expect "standings" "after round 2 of 3" T standings "$f"
expect "standings tie-breaks" "sosos" T standings "$f"
expect "show round" "Spring Cup — round 2" T show "$f" --round 2
expect_status "export html" 0 T export "$f" "$work/s.html" --format html
grep -q "<title>Spring Cup — standings</title>" "$work/s.html" && echo "ok   html page" ||
    { echo "FAIL html page"; failures=$((failures + 1)); }
expect "export egf" "; EV[Spring Cup]" T export "$f" - --format egf
expect "export aga" "GAMES" T export "$f" - --format aga
expect_status "export opengotha" 0 T export "$f" "$work/cup.xml" --format opengotha
expect_status "import opengotha" 0 T import "$work/cup.xml" "$work/back.json"
expect "imported players" "Gus" T standings "$work/back.json"
expect "ratings" "Ann" T rate "$f" --round 1
# a manual pairing of round 3 after round 2's results
for b in 1 2 3; do T result "$f" 2 $b B+R >/dev/null 2>&1; done
expect "manual pairing" "(by hand)" T pair "$f" --manual "Ann-Flo,Bob-Ed,Cy-Di" --bye Gus
expect "manual pairing unknown player" "no player 'Zed'" T pair "$f" --repair --manual "Zed-Ann"
# errors
expect_status "unknown action" 2 T frobnicate "$f"
expect_status "missing file" 1 T standings "$work/none.json"
printf '{"format":"tengen-tournament","version":1,"settings":{"rounds":"x"}}' >"$work/bad.json"
expect "bad file explained" "'rounds' must be an integer" T standings "$work/bad.json"
printf 'not json' >"$work/bad2.json"
expect_status "not json" 1 T standings "$work/bad2.json"
printf '<Tournament><Players>' >"$work/bad.xml"
expect "bad xml explained" "XML line 1" T import "$work/bad.xml" "$work/x.json"
expect_status "help" 0 T --help

[ "$failures" -eq 0 ] && echo "all tournament CLI checks passed"
exit $((failures > 0))
