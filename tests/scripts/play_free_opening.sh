#!/usr/bin/env bash
# play_free_opening.sh — `tengen play --rules free-opening` (issues 43, 49):
# the person (first player) and tengen place the four opening stones in
# turn (a pass refused), the person seals a prediction and tengen reveals
# its own only after; the colours and the threshold follow, and the record
# has RU[free-opening], the threshold as KM, PF, PS and FC; a late
# prediction loses on time; "VERTEX own" asks for the capture choice where
# the rules have it (refused with the reason where the move leaves no
# choice) and is no move where they do not.  Issue 49, on 2x2 boards whose
# opening the person steers: a repetition loses (002 §5.4), here a
# one-stone suicide after a dispute resumed play, and the text after the
# dispute says play resumes in turn order (§6.3); no undo reaches an
# opening stone (§2.4); in a timed game the game clocks start at the
# reveal, and the opening's moves carry no BL/WL.  Needs TENGEN_BIN.
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
# (the prediction is typed 2 s after the prompt shows, however long
# tengen took over its stones: a loaded or sanitized build is slower)
rm -f "$dir/out.txt"
(printf 'E5\nC3\n'
 for _ in $(seq 600); do grep -q "to seal your prediction" "$dir/out.txt" 2>/dev/null && break; sleep 0.1; done
 sleep 2; printf 'W+3\n') |
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

# ---- issue 49, on 2x2: the person is second.  tengen places stone 1 (White)
# at X; the person's stone 2 (Black) goes next to it and stone 3 (White)
# diagonally opposite X, taking stone 2; tengen's stone 4 (Black) is then a
# one-stone suicide on either empty point (P2, Q).  White holds X and its
# diagonal, two stones with two one-point eyes: position F, White to move.
play2() { # play2 NAME [options]: the person's lines on standard input
    local name=$1
    shift
    timeout 120 "$TENGEN_BIN" play --rules free-opening --size 2 --first tengen --playouts 50 --seed 3 \
        --sgf "$dir/$name.sgf" "$@" > "$dir/out.txt" 2>&1 || fail "tengen play failed ($name)"
}
: | play2 probe
x=$(sed -n 's/^tengen places White at \([AB][12]\)$/\1/p' "$dir/out.txt" | head -n 1)
declare -A diagonal=([A1]=B2 [B2]=A1 [A2]=B1 [B1]=A2)
[ -n "$x" ] || fail "tengen placed no first stone"
opposite=${diagonal[$x]}
for v in A1 A2 B1 B2; do [ "$v" != "$x" ] && [ "$v" != "$opposite" ] && p2=$v && break; done

# 002 §5.4 and §6.3: the person predicts B+100 and takes Black; White
# (tengen) passes on F, the person passes, and marks White's stone on X dead:
# a dispute, so play resumes in turn order, White first; White passes again
# and Black's one-stone suicide on P2 leaves White facing F again, as after
# stone 4: a repetition, which loses at once rather than being refused
printf '%s\n' "$p2" "$opposite" B+100 pass "$x" done "$p2" quit | play2 repetition
grep -q "You predicted B+100, tengen .*: you play Black" "$dir/out.txt" || fail "the person does not play Black"
grep -q "If you and tengen disagree, play\$" "$dir/out.txt" && grep -q "^resumes in turn order (002 §6.3)\.\$" "$dir/out.txt" ||
    fail "the dead-stone prompt does not say that play resumes in turn order"
grep -q "whoever claims a disputed stone dead" "$dir/out.txt" && fail "the prompt speaks of C9's claimer of dead"
grep -q "play resumes in turn order, White to move" "$dir/out.txt" || fail "play did not resume in turn order"
grep -q "Black $p2: whole-board repetition (superko)\. A repetition loses at once (002 §5.4): Black loses\." "$dir/out.txt" ||
    fail "the repetition was not a loss"
grep -q "Illegal move: whole-board repetition" "$dir/out.txt" && fail "the repetition was refused"
grep -q "^Result: W+F — White wins by forfeit" "$dir/out.txt" || fail "no forfeit stated"
grep -q 'RE\[W+F\]' "$dir/repetition.sgf" || fail "the record has no W+F: $(cat "$dir/repetition.sgf")"

# 002 §2.4: the person predicts W+100 and plays White, first after the
# reveal: an undo then has nothing to take back (the opening's stones stay);
# after White fills an eye and tengen answers, undo takes back both
printf '%s\n' W+100 undo "$p2" undo quit | { printf '%s\n' "$p2" "$opposite"; cat; } | play2 undo
grep -q "you play White" "$dir/out.txt" || fail "the person does not play White"
grep -q "Nothing to undo: the opening's stones are never taken back (002 §2.4)\." "$dir/out.txt" ||
    fail "an undo right after the reveal was not refused"
[ "$(grep -c "Nothing to undo" "$dir/out.txt")" -eq 1 ] || fail "the undo after the person's move was refused"
moves=$(tr -d '\n' < "$dir/undo.sgf" | grep -o ';[BW]\[' | tr -d ';[' | tr -d '\n')
[ "$moves" = "WBWB" ] || fail "the record after the undos holds $moves, not the four opening stones: $(cat "$dir/undo.sgf")"

# 002 §5.3.3: timed (absolute:600), the person first (tengen's stones come
# from its clock's plan, so stone 4 is tried on each point, and the points
# left over are refused as no prediction), waiting 2 s over stone 4: that
# is the prediction clock's time, not Black's game clock; both game clocks
# start at the reveal (10:00 each), and the opening's moves carry no BL/WL
(printf 'A1\n'; sleep 2; printf '%s\n' A2 B1 B2 W+100 pass quit) |
    timeout 120 "$TENGEN_BIN" play --rules free-opening --size 2 --first me --seed 3 --time absolute:600 \
        --time-per-move 0.05 --sgf "$dir/timed.sgf" > "$dir/out.txt" 2>&1 || fail "tengen play failed (timed)"
grep -q "you play White" "$dir/out.txt" || fail "the person does not play White (timed)"
sed -n '/You predicted/,$p' "$dir/out.txt" | grep -m 1 "^Clock:" | grep -q "^Clock: Black 10:00 | White 10:00\$" ||
    fail "the game clocks did not start at the reveal: $(sed -n '/You predicted/,$p' "$dir/out.txt" | grep -m 1 '^Clock:')"
sgf=$(tr -d '\n' < "$dir/timed.sgf")
opening=$(grep -o ';W\[[ab][ab]\][^;]*;B\[[ab][ab]\][^;]*;W\[[ab][ab]\][^;]*;B\[[ab][ab]\][^;]*' <<< "$sgf")
[ -n "$opening" ] || fail "no opening in the timed record: $sgf"
grep -q '[BW]L\[' <<< "$opening" && fail "the opening's moves carry clock times: $opening"
grep -q ';W\[\]WL\[600\]' <<< "$sgf" || grep -q ';W\[\]WL\[599' <<< "$sgf" ||
    fail "White's first move after the reveal does not carry its full clock: $sgf"

echo "play_free_opening: opening W B W B placed in turn, predictions sealed and revealed, record complete; a late prediction lost on time; 'C3 own' refused with its reason; a repetition after a dispute lost, play resumed in turn order; no undo of an opening stone; game clocks from the reveal"
