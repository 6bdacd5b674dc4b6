#!/usr/bin/env bash
# cli_options.sh — every `tengen <command>` reads its options with the one
# parser of src/cli/cli_options.c: a bad number, a value out of range, a
# missing value and an unknown option are the same one-line error in every
# command, naming the option and what it accepts, with exit status 2 and
# nothing run; good values are still taken, in both spellings
# (--name VALUE, --name=VALUE); --help still documents each command.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
tengen=${TENGEN_BIN:-$source_dir/build/tengen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}

# refused CMD... -- EXPECTED: exit status 2, and stderr one line that is EXPECTED
refused() {
    local args=() expected
    while [ "$1" != "--" ]; do
        args+=("$1")
        shift
    done
    expected=$2
    (cd "$work" && "$tengen" "${args[@]}" </dev/null >"$work/out" 2>"$work/err")
    local status=$?
    if [ "$status" -ne 2 ]; then
        fail "tengen ${args[*]}: exit status $status, expected 2"
    elif [ "$(cat "$work/err")" != "$expected" ]; then
        fail "tengen ${args[*]}: said '$(cat "$work/err")', expected '$expected'"
    elif [ -s "$work/out" ]; then
        fail "tengen ${args[*]}: printed on stdout: $(head -c 200 "$work/out")"
    else
        echo "ok   tengen ${args[*]}"
    fi
}

seed_range="expected an integer in 0..18446744073709551615"
playouts_range="expected an integer in 1..1000000000"

# --seed: every command that takes one refuses a non-number the same way
for cmd in play gtp match score bench; do
    refused "$cmd" --seed abc -- "tengen $cmd: bad value 'abc' for --seed: $seed_range"
    refused "$cmd" --seed=-1 -- "tengen $cmd: bad value '-1' for --seed: $seed_range"
    refused "$cmd" --seed -- "tengen $cmd: --seed needs a value (see tengen $cmd --help)"
done

# --playouts: one range in play, gtp and score
for cmd in play gtp score; do
    for n in 0 1000000001 12x; do
        refused "$cmd" --playouts "$n" -- "tengen $cmd: bad value '$n' for --playouts: $playouts_range"
    done
done

# an unknown option, in every command
for cmd in play gtp match score serve bench; do
    refused "$cmd" --frobnicate -- "tengen $cmd: unknown option '--frobnicate' (see tengen $cmd --help)"
done
refused sgf check --frobnicate x.sgf -- "tengen sgf: unknown option '--frobnicate' (see tengen sgf --help)"
refused sgf normalize --frobnicate x.sgf -- "tengen sgf: unknown option '--frobnicate' (see tengen sgf --help)"

# the shared options have one name and one range everywhere
for cmd in play gtp match; do
    refused "$cmd" --size 26 -- "tengen $cmd: bad value '26' for --size: expected an integer in 2..25"
    refused "$cmd" --komi 7.3 -- \
        "tengen $cmd: bad value '7.3' for --komi: expected an integer or half-integer, |komi| <= 400"
done
for cmd in play gtp; do
    refused "$cmd" --threads 65 -- "tengen $cmd: bad value '65' for --threads: expected an integer in 1..64"
    refused "$cmd" --max-memory 1 -- \
        "tengen $cmd: bad value '1' for --max-memory: expected an integer in 2..1048576"
    refused "$cmd" --time-per-move -1 -- \
        "tengen $cmd: bad value '-1' for --time-per-move: expected a number in 0..86400"
    refused "$cmd" --player fast -- "tengen $cmd: bad value 'fast' for --player: expected mcts or baseline"
done
for cmd in play match; do
    refused "$cmd" --handicap 1 -- "tengen $cmd: bad value '1' for --handicap: expected 0 (none) or 2..9"
done
# the policy network's file (issue 53): a missing file, another kind of
# weights and a truncated one are refused with what is wrong
head -c 1000 "$source_dir/data/policy/policy19-run1.tgw" >"$work/short.tgw"
for cmd in gtp play; do
    refused "$cmd" --policy-net "$work/none.tgw" -- \
        "tengen $cmd: bad value '$work/none.tgw' for --policy-net: No such file or directory"
    refused "$cmd" --policy-net "$source_dir/data/value9.tgw" -- \
        "tengen $cmd: bad value '$source_dir/data/value9.tgw' for --policy-net: weights: not a policy network for one board size"
    refused "$cmd" --policy-net "$work/short.tgw" -- \
        "tengen $cmd: bad value '$work/short.tgw' for --policy-net: weights: a truncated tensor at byte 47"
done
refused serve --engines 0 -- "tengen serve: bad value '0' for --engines: expected an integer in 1..64"
refused bench --seconds 0 -- "tengen bench: bad value '0' for --seconds: expected an integer in 1..3600"
refused match --colors red -- "tengen match: bad value 'red' for --colors: expected alternate, nigiri or fixed"
refused score --dead maybe -- "tengen score: bad value 'maybe' for --dead: expected record, estimate or none"
refused play extra -- "tengen play: unexpected argument 'extra' (see tengen play --help)"
refused score a.sgf b.sgf -- "tengen score: unexpected argument 'b.sgf' (see tengen score --help)"

# good values are taken, as --name VALUE and --name=VALUE
answer=$(printf 'boardsize 9\nclear_board\ngenmove b\nquit\n' |
    "$tengen" gtp --seed 3 --playouts=50 --threads 1 --max-memory=64 --value off --komi 6.5 2>&1)
if grep -q '^= [A-HJ-T][0-9]' <<<"$answer"; then
    echo "ok   tengen gtp with good options plays"
else
    fail "tengen gtp with good options: $answer"
fi
for cmd in play gtp match score serve sgf bench; do
    if "$tengen" "$cmd" --help >"$work/help" 2>&1 && grep -q "usage: tengen $cmd" "$work/help"; then
        echo "ok   tengen $cmd --help"
    else
        fail "tengen $cmd --help: $(head -c 300 "$work/help")"
    fi
done
for option in --seed --playouts --size --threads --max-memory --time-per-move --player --model; do
    for cmd in play gtp; do
        grep -q -- "$option" <("$tengen" "$cmd" --help) || fail "tengen $cmd --help lacks $option"
    done
done

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all passed"
