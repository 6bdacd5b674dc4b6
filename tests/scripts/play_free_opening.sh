#!/usr/bin/env bash
# play_free_opening.sh — `tengen play --rules free-opening` (issue 43): the
# person (first player) and tengen place the four opening stones in turn
# (a pass refused), the person seals a prediction and tengen reveals its
# own only after; the colours and the threshold follow, and the record has
# RU[free-opening], the threshold as KM, PF, PS and FC; a late prediction
# loses on time; "VERTEX own" asks for the capture choice where the rules
# have it (refused with the reason where the move leaves no choice) and is
# no move where they do not.  Needs TENGEN_BIN.
set -euo pipefail
: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "play_free_opening: $*"; cat "$dir/out.txt"; exit 1; }

printf 'E5\npass\nC3\nW+3\npass\npass\n' |
    timeout 120 "$TENGEN_BIN" play --rules free-opening --size 9 --first me --playouts 100 --seed 3 \
        --sgf "$dir/game.sgf" > "$dir/out.txt" 2>&1 || fail "tengen play failed"
grep -q "no pass in the opening" "$dir/out.txt" || fail "a pass in the opening was not refused"
grep -q "tengen places Black at" "$dir/out.txt" || fail "tengen placed no black opening stone"
grep -q "tengen places White at" "$dir/out.txt" || fail "tengen placed no white opening stone"
grep -q "^.*You predicted W+3, tengen [WB0]" "$dir/out.txt" || fail "the predictions were not revealed"
sgf=$(tr -d '\n' < "$dir/game.sgf")
grep -q 'RU\[free-opening\]' <<< "$sgf" || fail "no RU[free-opening]"
grep -q 'PF\[W+3\]PS\[[WB0]' <<< "$sgf" || fail "no predictions in the record"
grep -q 'FC\[[WB]\]' <<< "$sgf" || fail "no first player's colour in the record"
grep -q ';W\[ee\];B\[[a-i][a-i]\];W\[[a-i][a-i]\];B\[cg\]' <<< "$sgf" || fail "the opening is not W E5, B, W, B C3"
"$TENGEN_BIN" sgf check "$dir/game.sgf" > /dev/null || fail "the record does not check"

# the prediction clock (002 §5.3.3): the first player's prediction comes 2 s
# after the third stone against --prediction-time 1: lost on time, recorded
# with the person at White, the first player's seat
(printf 'E5\nC3\n'; sleep 2; printf 'W+3\n') |
    timeout 120 "$TENGEN_BIN" play --rules free-opening --size 9 --first me --playouts 50 --seed 3 \
        --prediction-time 1 --sgf "$dir/late.sgf" > "$dir/out.txt" 2>&1 || fail "tengen play failed"
grep -q "you lose on time" "$dir/out.txt" || fail "a late prediction was not lost on time"
sgf=$(tr -d '\n' < "$dir/late.sgf")
grep -q 'RE\[B+T\]' <<< "$sgf" && grep -q 'PW\[Human\]' <<< "$sgf" || fail "the record of the time loss: $sgf"
# the capture choice typed by the person: refused with its reason on an
# empty board under capture=choose, not a move at all under the Chinese rules
printf 'C3 own\nquit\n' |
    timeout 60 "$TENGEN_BIN" play --rules "chinese capture=choose" --size 5 --color black --playouts 20 \
        --sgf "$dir/own.sgf" > "$dir/out.txt" 2>&1 || fail "tengen play failed"
grep -q "Illegal move: the capture choice needs a move that leaves both sides' chains without liberties" "$dir/out.txt" ||
    fail "'C3 own' was not refused for want of a choice"
printf 'C3 own\nquit\n' |
    timeout 60 "$TENGEN_BIN" play --size 5 --color black --playouts 20 --sgf "$dir/own.sgf" > "$dir/out.txt" 2>&1 ||
    fail "tengen play failed"
grep -q "'C3 own' is not a vertex of this board or a command" "$dir/out.txt" || fail "'C3 own' was taken under the Chinese rules"
echo "play_free_opening: opening W B W B placed in turn, predictions sealed and revealed, record complete; a late prediction lost on time; 'C3 own' refused with its reason"
