#!/usr/bin/env bash
# match_faults.sh — `tengen match` against scripted fake engines
# (tests/fake_engines/fake_gtp.sh) that misbehave on request: crashes,
# hangs, garbage, error answers, illegal moves under each policy, a ko
# retake under the void policy, disputed dead stones under both dispute
# policies, loss on time under byo-yomi and Canadian clocks, the
# last-period-pass option, an engine that cannot start, SPRT stopping,
# tournaments, and --resume.  Times are short but the margins wide: tests
# never time things, they only check which way a game ended.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
tengen=${TENGEN_BIN:-$source_dir/build/tengen}
fake="sh $source_dir/tests/fake_engines/fake_gtp.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; failures=$((failures + 1)); }
# field FILE LINE KEY: the value of "KEY" in the LINE-th JSON line
field() { sed -n "${2}p" "$1" | grep -o "\"$3\":[^,}]*" | head -1 | cut -d: -f2- | tr -d '"'; }
expect() { # NAME FILE LINE KEY VALUE
    local got
    got=$(field "$2" "$3" "$4")
    if [ "$got" = "$5" ]; then ok "$1 ($4=$got)"; else bad "$1: $4 is '$got', expected '$5'"; sed 's/^/     /' "$2"; fi
}
# run NAME ENGINE_A ENGINE_B [options]: a match on 5x5 with results in $work/NAME.jsonl
run() {
    local name=$1 a=$2 b=$3
    shift 3
    "$tengen" match --engine "a=$a" --engine "b=$b" --size 5 --games 1 --quiet --timeout 5000 \
        --results "$work/$name.jsonl" "$@" >"$work/$name.out" 2>&1
    echo $? >"$work/$name.status"
}

# Crash on the first genmove, two games: restarted, loses both by forfeit.
run crash "$fake fail=1:crash" "$fake" --games 2
expect "crash: forfeit" "$work/crash.jsonl" 1 result "W+F"
expect "crash: reason" "$work/crash.jsonl" 1 reason crash
expect "crash: restarted, loses again" "$work/crash.jsonl" 2 result "B+F"
expect "crash: culprit" "$work/crash.jsonl" 2 culprit W

run garbage "$fake fail=1:garbage" "$fake"
expect "garbage" "$work/garbage.jsonl" 1 reason garbage
run error "$fake fail=1:error" "$fake"
expect "error answer to genmove" "$work/error.jsonl" 1 reason refused
run hang "$fake fail=1:hang" "$fake" --timeout 300
expect "hang without a clock: forfeit" "$work/hang.jsonl" 1 result "W+F"
expect "hang without a clock: reason" "$work/hang.jsonl" 1 reason hang
run hang_clock "$fake fail=1:hang" "$fake" --time simple:0.3
expect "hang under simple:0.3: loss on time" "$work/hang_clock.jsonl" 1 result "W+T"
run nostart "/nonexistent/engine" "$fake"
expect "engine that cannot start" "$work/nostart.jsonl" 1 result "W+F"

# Byo-yomi 2x0.3 s, 0.5 s a move: the first move uses up a period, the second loses.
run byoyomi "$fake slow=0.5 moves=A1,A2,A3" "$fake moves=E5,E4,E3" --time byoyomi:0+2x0.3
expect "byo-yomi: loss on time" "$work/byoyomi.jsonl" 1 result "W+T"
expect "byo-yomi: on the second move" "$work/byoyomi.jsonl" 1 moves 2
# Canadian 2 moves in 0.8 s, 0.5 s a move: the second move of the block is late.
run canadian "$fake moves=E5,E4,E3" "$fake slow=0.5 moves=A1,A2,A3" --time canadian:0+2/0.8
expect "canadian: loss on time" "$work/canadian.jsonl" 1 result "B+T"
expect "canadian: on the block's second move" "$work/canadian.jsonl" 1 moves 3
# The last-period-pass option: never in time, always a pass; the game ends by passes.
run overtime_pass "$fake fail=1:hang" "$fake" --time simple:0.3,pass
expect "overtime pass: counted, not lost" "$work/overtime_pass.jsonl" 1 reason score

# The clock in the SGF: TM, OT and the time left after every move.
run sgf_clock "$fake moves=C3" "$fake" --time byoyomi:60+3x10 --sgf-dir "$work/sgf"
f="$work/sgf/game-00001.sgf"
grep -q 'TM\[60\]' "$f" && grep -q 'OT\[3x10 byo-yomi\]' "$f" && grep -q 'BL\[' "$f" && grep -q 'WL\[' "$f" \
    && grep -q 'RE\[B+' "$f" && ok "SGF has TM OT BL WL RE" || { bad "SGF clock properties"; cat "$f"; }
"$tengen" sgf check "$f" >/dev/null 2>&1 && ok "SGF valid" || bad "SGF invalid"

# Illegal moves: C3 twice (the second on an occupied point).
run lose "$fake moves=C3,C3" "$fake moves=A1,A2" --rules "chinese illegal=lose"
expect "illegal=lose: forfeit" "$work/lose.jsonl" 1 result "W+F"
expect "illegal=lose: reason" "$work/lose.jsonl" 1 reason illegal
# Issue 41, item 1: with the default rules (chinese, whose own policy is
# void) an engine referee still forfeits an illegal move; only an explicit
# illegal= in --rules changes that.
run default_policy "$fake moves=C3,C3" "$fake moves=A1,A2"
expect "default rules: illegal move forfeits" "$work/default_policy.jsonl" 1 result "W+F"
expect "default rules: reason" "$work/default_policy.jsonl" 1 reason illegal
expect "default rules: at move 3" "$work/default_policy.jsonl" 1 moves 2
run japanese_policy "$fake moves=C3,C3" "$fake moves=A1,A2" --rules japanese
expect "a preset alone: illegal move forfeits" "$work/japanese_policy.jsonl" 1 result "W+F"
run void_policy "$fake moves=C3,C3" "$fake moves=A1,A2" --rules "chinese illegal=void"
expect "explicit illegal=void: a warning, the game goes on" "$work/void_policy.jsonl" 1 reason score
run reject_again "$fake moves=C3,C3,C3,C3" "$fake moves=A1,A2" --rules "chinese illegal=reject"
expect "illegal=reject: third refusal forfeits" "$work/reject_again.jsonl" 1 reason illegal
run reject_then_legal "$fake moves=C3,C3,D4" "$fake moves=A1,A2" --rules "chinese illegal=reject"
expect "illegal=reject: asked again, plays on" "$work/reject_then_legal.jsonl" 1 reason score
expect "illegal=reject: the refused move is not recorded" "$work/reject_then_legal.jsonl" 1 moves 6
# A ko: White retakes at once.  Under void it is a pass with a warning and the game goes on.
black_ko="moves=C4,B3,C2,A1,D3,A5"
white_ko="moves=D4,E3,D2,C3,C3"
run ko_void "$fake $black_ko" "$fake $white_ko" --rules "chinese illegal=void"
expect "ko retake under void: game goes on" "$work/ko_void.jsonl" 1 reason score
run ko_lose "$fake $black_ko" "$fake $white_ko" --rules "chinese illegal=lose"
expect "ko retake under lose" "$work/ko_lose.jsonl" 1 result "B+F"

# Dead stones: Black plays C3; White says it is dead, Black does not.
run agree "$fake moves=C3" "$fake"
expect "dead stones agreed" "$work/agree.jsonl" 1 detail "dead stones agreed"
run dispute_estimate "$fake moves=C3" "$fake dead=C3" --dispute estimate
expect "dispute, estimate" "$work/dispute_estimate.jsonl" 1 detail "dead stones disputed: estimated"
expect "dispute, estimate: no play-on" "$work/dispute_estimate.jsonl" 1 moves 3
run dispute_cleanup "$fake moves=C3" "$fake dead=C3" --dispute cleanup
expect "dispute, cleanup: played on" "$work/dispute_cleanup.jsonl" 1 moves 5
expect "dispute, cleanup: then estimated" "$work/dispute_cleanup.jsonl" 1 result "B+17.5"
run no_status "$fake moves=C3 lacks=final_status_list" "$fake"
expect "no final_status_list: estimator" "$work/no_status.jsonl" 1 reason score

# Move cap.
run cap "$fake moves=A1,B1,C1,D1,E1" "$fake moves=A5,B5,C5,D5,E5" --move-cap 4
expect "move cap adjudicates" "$work/cap.jsonl" 1 reason move-cap

# SPRT: a always wins (it plays C3 then passes, b only passes); stops long
# before 40 games.
c3=$(printf 'C3,pass,%.0s' $(seq 40))
run sprt "$fake moves=$c3" "$fake" --games 40 --sprt 0,200,0.05,0.05
lines=$(wc -l <"$work/sprt.jsonl")
if [ "$lines" -lt 40 ] && grep -q "H1 accepted" "$work/sprt.out"; then ok "SPRT stops at $lines games"; else bad "SPRT did not stop ($lines games)"; cat "$work/sprt.out"; fi

# A round-robin of three and a gauntlet: the number of games, the table.
"$tengen" match --engine "x=$fake" --engine "y=$fake" --engine "z=$fake" --tournament round-robin \
    --games 2 --size 5 --quiet --results "$work/rr.jsonl" >"$work/rr.out" 2>&1
[ "$(wc -l <"$work/rr.jsonl")" -eq 6 ] && ok "round-robin: 3 pairs x 2 games" || bad "round-robin game count"
grep -q "vs the field" "$work/rr.out" && ok "round-robin: Elo per engine" || bad "round-robin Elo"
"$tengen" match --engine "x=$fake" --engine "y=$fake" --engine "z=$fake" --tournament gauntlet \
    --games 2 --size 5 --quiet --results "$work/g.jsonl" >"$work/g.out" 2>&1
[ "$(wc -l <"$work/g.jsonl")" -eq 4 ] && ok "gauntlet: 2 pairs x 2 games" || bad "gauntlet game count"

# Colours by nigiri (R1): the draw is recorded in the results and the SGF.
run nigiri "$fake" "$fake" --games 2 --colors nigiri --sgf-dir "$work/nigiri-sgf"
if grep -q '"nigiri":"nigiri: [0-9]* stones, guess \(odd\|even\)' "$work/nigiri.jsonl" &&
    grep -q 'GC\[[^]]*nigiri: [0-9]* stones' "$work"/nigiri-sgf/*.sgf; then
    ok "nigiri draw recorded in the results and the SGF"
else
    bad "nigiri draw not recorded"; cat "$work/nigiri.jsonl"
fi

# Fixed colours (a handicap match): the first engine is Black in every game,
# and the handicap stones are its.
run fixed "$fake" "$fake" --games 3 --colors fixed --handicap 2 --komi 0.5 --size 9
if [ "$(grep -c '"black":"a","white":"b"' "$work/fixed.jsonl")" -eq 3 ]; then
    ok "--colors fixed: the first engine Black in all 3 games"
else
    bad "--colors fixed"; cat "$work/fixed.jsonl"
fi

# Options: errors are refused before anything starts.
"$tengen" match --engine "a=$fake" >"$work/opt.out" 2>&1
[ $? -eq 2 ] && ok "one engine refused" || bad "one engine accepted"
"$tengen" match --engine "a=$fake" --engine "b=$fake" --time "byoyomi:abc" >"$work/opt.out" 2>&1
[ $? -eq 2 ] && ok "bad --time refused" || bad "bad --time accepted"
"$tengen" match --help | grep -q -- "--sprt" && ok "--help documents --sprt" || bad "--help"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
