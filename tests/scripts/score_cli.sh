#!/usr/bin/env bash
# score_cli.sh — `tengen score` end to end: the T18 position of CASES.md
# counted under Chinese, Tromp-Taylor and Japanese rules, as a table and as
# JSON, a counted game's record counted with the dead stones it marks, plus
# the errors a user can make.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
tengen=${TENGEN_BIN:-$source_dir/build/tengen}
data=$source_dir/tests/data/score
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

t18=$data/t18.sgf
expect "T18 chinese result" "result       W+5" "$tengen" score "$t18"
expect "T18 chinese in stones" "White wins by 2½ stones" "$tengen" score "$t18"
expect "T18 dead stone found" "dead         black: -   white: A4" "$tengen" score "$t18"
expect "T18 json" '"dead":{"black":[],"white":["A4"]}' "$tengen" score --json "$t18"
expect "T18 json totals" '"result":"W+5","margin":-5' "$tengen" score --json "$t18"
expect "T18 strict tromp-taylor" '"result":"W+9"' "$tengen" score --json --rules tromp-taylor "$t18"
expect "T18 japanese" '"result":"B+2"' "$tengen" score --json --rules japanese "$t18"
expect "T18 no dead stones" '"result":"W+9"' "$tengen" score --json --dead none "$t18"
expect "komi override" '"result":"W+12"' "$tengen" score --json --rules komi=7 "$t18"
expect "T18 marks no dead stones: estimated" '"dead_from":"estimate"' "$tengen" score --json "$t18"
# a counted game's record as tengen serve writes it (issue 48): the players
# agreed that B2 alone is dead, and the record marks it (the white stone
# under Black's TB); counted again it gives its RE, where the estimate,
# which takes D5 and E5 dead as well, counts B+24.5
served=$data/served_counted.sgf
re=$(sed -n 's/.*RE\[\([^]]*\)\].*/\1/p' "$served")
expect "served record: RE is B+12.5" "B+12.5" echo "$re"
expect "served record counts to its RE" "\"result\":\"$re\"" "$tengen" score --json "$served"
expect "served record: its dead stones" '"dead":{"black":[],"white":["B2"]},"dead_from":"record"' \
    "$tengen" score --json "$served"
expect "served record: said in the table" "dead         black: -   white: B2   (the record's TB/TW)" \
    "$tengen" score "$served"
expect "served record: --dead estimate" '"white":["B2","D5","E5"]},"dead_from":"estimate"' \
    "$tengen" score --json --dead estimate "$served"
expect "served record: --dead none" '"dead":{"black":[],"white":[]},"dead_from":"none"' \
    "$tengen" score --json --dead none "$served"
expect "help" "usage: tengen score" "$tengen" score --help
expect_status "help status" 0 "$tengen" score --help
expect_status "no file" 2 "$tengen" score
expect_status "bad option" 2 "$tengen" score --frobnicate "$t18"
expect_status "bad playouts" 2 "$tengen" score --playouts 0 "$t18"
expect_status "bad dead mode" 2 "$tengen" score --dead maybe "$t18"
expect_status "bad rules" 2 "$tengen" score --rules nonsense "$t18"
# a record that repeats a position is replayed under the rules it is counted
# by (issue 41): refused under the Chinese superko it names, read under
# --rules japanese (simple ko), its komi kept
ko=$data/triple_ko.sgf
expect_status "triple ko under its Chinese rules" 1 "$tengen" score "$ko"
expect "triple ko refused, saying why" "is illegal under the chinese rules: whole-board repetition" "$tengen" score "$ko"
expect "triple ko under --rules japanese" '"moves":6,"rules":"ko=simple' "$tengen" score --json --rules japanese "$ko"
expect "triple ko keeps its komi" '"komi":6.5' "$tengen" score --json --rules japanese "$ko"
expect_status "missing file" 1 "$tengen" score "$data/no-such-file.sgf"
broken=$(mktemp)
trap 'rm -f "$broken"' EXIT
printf '(;FF[4]SZ[9];B[ee' >"$broken"
expect_status "broken file" 1 "$tengen" score "$broken"
expect "broken file position" "$broken:1:" "$tengen" score "$broken"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
