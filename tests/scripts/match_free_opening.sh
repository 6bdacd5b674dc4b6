#!/usr/bin/env bash
# match_free_opening.sh — `tengen match --rules free-opening` (issue 43):
# the referee runs the free opening and the sealed predictions between two
# engines, then the game; the results line records both predictions and
# the threshold, the SGF RU[free-opening], KM (the threshold with its sign
# turned), PF, PS and FC.  One engine is GNU Go, which knows no
# tengen-predict: its prediction comes from its final_score.  A loss
# before the reveal is recorded with the first player at White (issue 49).
# Needs TENGEN_BIN; skips GNU Go's half when it is not installed.
set -euo pipefail
: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
gnugo=$(command -v gnugo || echo /usr/games/gnugo)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# GNU Go plays under its own rules: a legal move of this ruleset it does not
# know (a suicide) makes it refuse and lose, as a referee must rule
engines=(--engine "strong=$TENGEN_BIN gtp --playouts 100"
         --engine "weak=$TENGEN_BIN gtp --player baseline --playouts 20")
[ -x "$gnugo" ] && engines[3]="gnugo=$gnugo --mode gtp --level 1"
"$TENGEN_BIN" match "${engines[@]}" --rules free-opening --size 9 --games 2 --seed 5 \
    --sgf-dir "$dir" --results "$dir/results.jsonl" --quiet > "$dir/out.txt" 2>&1 ||
    { cat "$dir/out.txt"; exit 1; }

fail() { echo "match_free_opening: $*"; cat "$dir/results.jsonl"; exit 1; }
[ "$(wc -l < "$dir/results.jsonl")" -eq 2 ] || fail "expected 2 results"
while read -r line; do
    for key in first_player first_prediction second_prediction threshold; do
        grep -q "\"$key\"" <<< "$line" || fail "no $key in: $line"
    done
    grep -q '"result":"[BW]+' <<< "$line" || fail "no winner: $line"
    grep -q '"reason":"\(score\|resign\|refused\|illegal\)"' <<< "$line" || fail "an unexpected end: $line"
done < "$dir/results.jsonl"
for sgf in "$dir"/game-*.sgf; do
    grep -q 'RU\[free-opening\]' "$sgf" || fail "$sgf has no RU[free-opening]"
    grep -q 'PF\[[WB0]' "$sgf" && grep -q 'PS\[[WB0]' "$sgf" && grep -q 'FC\[[WB]\]' "$sgf" ||
        fail "$sgf lacks the predictions"
    # the first four moves are W B W B
    moves=$(tr -d '\n' < "$sgf" | grep -o ';[BW]\[' | head -n 4 | tr -d ';[' | tr -d '\n')
    [ "$moves" = "WBWB" ] || fail "$sgf opens $moves, not WBWB"
    "$TENGEN_BIN" sgf check "$sgf" > /dev/null || fail "$sgf does not check"
done

# the prediction clock (002 §5.3.3): the second player's engine takes 3 s
# to predict against --prediction-time 1 and loses on time; the first's
# prediction comes in time
fake="$TENGEN_SOURCE_DIR/tests/fake_engines/fake_gtp.sh"
"$TENGEN_BIN" match --engine "quick=sh $fake moves=C3,G7 predict=W+2" \
    --engine "slow=sh $fake moves=E5,D4 predict=W+1 predict_slow=3" \
    --rules free-opening --size 9 --games 1 --prediction-time 1 --time absolute:600 \
    --results "$dir/clock.jsonl" --quiet > "$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; exit 1; }
grep -q '"reason":"time"' "$dir/clock.jsonl" || fail "no loss on time: $(cat "$dir/clock.jsonl")"
grep -q '"result":"[BW]+T"' "$dir/clock.jsonl" || fail "not a time result: $(cat "$dir/clock.jsonl")"
# issue 49: a loss before the reveal is recorded as `tengen play` and the
# server record it, with the first player at White (the seat equal
# predictions give it) and the second at Black: here the first player's
# engine predicts too late, so White ("slow") loses on time, B+T
"$TENGEN_BIN" match --engine "slow=sh $fake moves=C3,G7 predict=W+2 predict_slow=3" \
    --engine "quick=sh $fake moves=E5,D4 predict=W+1" \
    --rules free-opening --size 9 --games 1 --prediction-time 1 --time absolute:600 \
    --results "$dir/first.jsonl" --quiet > "$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; exit 1; }
line=$(cat "$dir/first.jsonl")
grep -q '"black":"quick","white":"slow","result":"B+T","reason":"time","culprit":"W"' <<< "$line" ||
    fail "the first player's late prediction is not White's loss on time: $line"
grep -q '"first_player":"W"' <<< "$line" || fail "the first player is not recorded at White: $line"
echo "match_free_opening: 2 games, predictions and thresholds recorded, records WBWB and valid; a slow prediction lost on time, the first player's as White's (B+T)"
