#!/usr/bin/env bash
# sgf_notes.sh — issue 41, items 7 to 9, end to end: what the SGF reader
# repairs or doubts in a file it still reads is said where a person looks
# (warnings from `tengen sgf check` and `tengen score`, standard error of
# `tengen gtp`), and what it must refuse is refused with its place.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
tengen=${TENGEN_BIN:-$source_dir/build/tengen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect NAME PATTERN COMMAND...: the output (both streams) must contain PATTERN
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
    if [ "$got" -eq "$want" ]; then echo "ok   $name"; else
        echo "FAIL $name: exit status $got, expected $want"; failures=$((failures + 1)); fi
}

# Item 7: files other programs read are read, and sgf check says what was repaired.
printf '(;GM[1]FF[4]SZ[9];B[ee];W[cc]' >"$work/unclosed.sgf"
expect "missing ')': sgf check repairs it" "unclosed.sgf:1:30: warning: repaired: no ')' closes the game tree" \
    "$tengen" sgf check "$work/unclosed.sgf"
expect_status "missing ')': the file passes" 0 "$tengen" sgf check "$work/unclosed.sgf"
printf 'Kifu (c) Nihon Ki-in\n(GM[1]SZ[9]PL[2]AB[cc]\n;W[ee])\n' >"$work/nihonkiin.sgf"
expect "a '(' before the game" "nihonkiin.sgf:1:6: warning: repaired: a '(' in the text" \
    "$tengen" sgf check "$work/nihonkiin.sgf"
expect "a root without ';'" "nihonkiin.sgf:2:2: warning: repaired: the game tree opened at line 2, column 1 has no ';'" \
    "$tengen" sgf check "$work/nihonkiin.sgf"
expect "PL[2]" "nihonkiin.sgf:2:12: warning: repaired: PL[2] read as PL[W]" "$tengen" sgf check "$work/nihonkiin.sgf"
printf '\xff\xfe(\0;\0S\0Z\0[\0\x39\0]\0;\0B\0[\0e\0e\0]\0)\0' >"$work/utf16.sgf"
expect "UTF-16" "utf16.sgf:1:1: warning: repaired: UTF-16 (little-endian) text read as UTF-8" \
    "$tengen" sgf check "$work/utf16.sgf"
expect "UTF-16 counted" "board        9x9, handicap 0, 1 moves" "$tengen" score "$work/utf16.sgf"

# Item 8: rules names.
printf '(;GM[1]FF[4]SZ[9]RU[Tromp/Taylor]KM[7.5];B[ee];W[])\n' >"$work/tt.sgf"
printf '(;GM[1]FF[4]SZ[9]RU[Klingon]KM[7.5];B[ee];W[])\n' >"$work/klingon.sgf"
expect "RU[Tromp/Taylor] is Tromp-Taylor" "rules        tromp-taylor" "$tengen" score "$work/tt.sgf"
expect "unknown RU: sgf check warns" "klingon.sgf:1:18: warning: RU[Klingon]: rules tengen does not know" \
    "$tengen" sgf check "$work/klingon.sgf"
expect_status "unknown RU: the file still passes" 0 "$tengen" sgf check "$work/klingon.sgf"
expect "unknown RU: score warns" "warning: RU[Klingon]" "$tengen" score "$work/klingon.sgf"
gtp_err=$(printf 'loadsgf %s\n' "$work/klingon.sgf" | "$tengen" gtp 2>&1 >/dev/null)
expect "unknown RU: gtp warns on stderr" "tengen gtp: $work/klingon.sgf:1:18: warning: RU[Klingon]" echo "$gtp_err"

# Item 9: a second KM; a move with two values.
printf '(;GM[1]FF[4]SZ[9]KM[6.5]KM[0.5];B[ee])\n' >"$work/km.sgf"
expect "second KM: sgf check warns" "km.sgf:1:25: warning: a second KM[0.5]" "$tengen" sgf check "$work/km.sgf"
printf '(;GM[1]SZ[9]\n;B[dd][ee];W[cc])\n' >"$work/two.sgf"
expect "B[dd][ee]: refused with its place" "two.sgf:2:2: B[dd]: a move takes one value" \
    "$tengen" sgf check "$work/two.sgf"
expect_status "B[dd][ee]: the file fails" 1 "$tengen" sgf check "$work/two.sgf"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
