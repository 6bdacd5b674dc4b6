#!/usr/bin/env bash
# gtp_free_opening.sh — the free-opening ruleset through `tengen gtp`
# itself (issue 43): tengen-predict answers a prediction from the search
# (W+N, B+N or 0, halves allowed), the same one twice for the same seed,
# and list_commands lists the ruleset's commands; in a 2x2 position where
# the capture choice alone wins (solved exactly: test_special_moves.c),
# tengen-genmove_choice answers it and plain genmove cannot.  Issue 49:
# final_score against a threshold of a quarter and under decide=yes,
# printsgf's PF, PS and FC (read back by loadsgf to the same count), and
# undo refused on an opening stone.  Needs TENGEN_BIN.
set -euo pipefail
: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"

session() {
    printf 'tengen-rules free-opening\nboardsize 9\nclear_board\nplay w E5\nplay b C3\nplay w G7\nplay b C7\ntengen-predict\nlist_commands\n' |
        "$TENGEN_BIN" gtp --playouts 300 --seed 7
}
out=$(session)
prediction=$(printf '%s\n' "$out" | grep -E '^= (W|B)\+[0-9]+(\.5)?$|^= 0$' | head -n 1)
[ -n "$prediction" ] || { echo "gtp_free_opening: no prediction in:"; printf '%s\n' "$out"; exit 1; }
again=$(session | grep -E '^= (W|B)\+[0-9]+(\.5)?$|^= 0$' | head -n 1)
[ "$prediction" = "$again" ] || { echo "gtp_free_opening: $prediction then $again for the same seed"; exit 1; }
for cmd in tengen-predict tengen-predictions tengen-capture_own tengen-genmove_choice tengen-rules; do
    printf '%s\n' "$out" | grep -qx "$cmd" || { echo "gtp_free_opening: list_commands lacks $cmd"; exit 1; }
done
# decide=yes (002 §5.3.2): equal predictions of W+7 let White win at
# exactly 7 ahead, so the komi is -6.5 rather than -7
for decide in no yes; do
    want=$([ $decide = yes ] && echo -6.5 || echo -7)
    got=$(printf 'tengen-rules free-opening decide=%s\ntengen-predictions W+7 W+7\ntengen-rules\n' $decide |
        "$TENGEN_BIN" gtp | grep -o 'komi=[-0-9.]*' | tail -n 1)
    [ "$got" = "komi=$want" ] || { echo "gtp_free_opening: decide=$decide gave $got, not komi=$want"; exit 1; }
done
choice() {
    printf 'boardsize 2\ntengen-rules free-opening\nkomi 0\nplay W B1\nplay B A2\nplay W A1\nplay B B2\nplay W pass\nplay B B1\nplay W A1\nplay B B1\nplay W A2\n%s b\nprintsgf\n' "$1" |
        "$TENGEN_BIN" gtp --playouts 10000 --seed 3
}
out=$(choice tengen-genmove_choice)
printf '%s\n' "$out" | grep -qx '= B2 own' || { echo "gtp_free_opening: no capture choice in:"; printf '%s\n' "$out"; exit 1; }
printf '%s\n' "$out" | grep -q ';B\[ba\]CC\[own\]' || { echo "gtp_free_opening: the record lacks CC[own]:"; printf '%s\n' "$out"; exit 1; }
out=$(choice genmove)
printf '%s\n' "$out" | grep -q 'CC\[own\]' && { echo "gtp_free_opening: genmove took the capture choice:"; printf '%s\n' "$out"; exit 1; }

# issue 49, on White's wall (White 45, Black 36 on 9x9: 9 ahead): the count
# against a threshold of a quarter is exact, W+8.75 gives W+0.25, and a
# count equal to the threshold under decide=yes is White's by 0, W+0; the
# record holds the predictions (PF, PS, FC) and reads back to the same
# count; no undo reaches an opening stone
wall=""
for i in 1 2 3 4 5 6 7 8 9; do wall+="play w E$i"$'\n'"play b F$i"$'\n'; done
record="$(mktemp -d)"
trap 'rm -rf "$record"' EXIT
out=$(printf 'tengen-rules free-opening\nboardsize 9\nclear_board\nplay w E5\nundo\nclear_board\n%splay w pass\nplay b pass\ntengen-predictions W+8.5 W+9\nfinal_score\nprintsgf %s\nprintsgf\ntengen-predictions W+9 W+9\nfinal_score\ntengen-rules decide=yes\nfinal_score\nloadsgf %s\nfinal_score\n' \
    "$wall" "$record/wall.sgf" "$record/wall.sgf" | "$TENGEN_BIN" gtp)
expect() { printf '%s\n' "$out" | grep -qxF -- "$1" || { echo "gtp_free_opening: no '$1' ($2) in:"; printf '%s\n' "$out"; exit 1; }; }
expect "? cannot undo" "the undo of an opening stone"
expect "= W+8.75 black" "the threshold of W+8.5 and W+9"
[ "$(printf '%s\n' "$out" | grep -cxF '= W+0.25')" -eq 2 ] ||
    { echo "gtp_free_opening: the count against W+8.75 is not W+0.25 twice (then read back):"; printf '%s\n' "$out"; exit 1; }
expect "= 0" "a count equal to W+9"
expect "= W+0" "a count equal to W+9 under decide=yes"
printf '%s\n' "$out" | grep -q 'PF\[W+8.5\]PS\[W+9\]FC\[B\]' || { echo "gtp_free_opening: printsgf lacks PF, PS, FC:"; printf '%s\n' "$out"; exit 1; }
grep -q 'PF\[W+8.5\]PS\[W+9\]FC\[B\]' "$record/wall.sgf" || { echo "gtp_free_opening: the file lacks PF, PS, FC"; exit 1; }
echo "gtp_free_opening: prediction ${prediction#= }, the same twice; commands listed; decide=yes komi -6.5; B2 own where it alone wins; W+8.75 counts W+0.25, W+9 under decide=yes W+0; printsgf has PF, PS, FC; no undo of an opening stone"
