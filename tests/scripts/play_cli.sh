#!/usr/bin/env bash
# play_cli.sh — `tengen play` driven as a person would drive it, through
# standard input: moves, an illegal move, undo, score, pass, resign; the
# board on screen and the SGF it saves; the clocks of --time (display,
# byo-yomi calls, loss on time, the overtime pass, TM/OT/BL/WL in the SGF:
# two of these wait for a 1-2 s clock to run out).  Also `tengen bench`'s output
# format (names and units only: tests never time things).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
tengen=${TENGEN_BIN:-$source_dir/build/tengen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

check() { # NAME PATTERN FILE: FILE must contain PATTERN
    if grep -qF -- "$2" "$3"; then
        echo "ok   $1"
    else
        echo "FAIL $1: expected '$2' in:"
        sed 's/^/     /' "$3" | tail -40
        failures=$((failures + 1))
    fi
}
check_not() { # NAME PATTERN FILE
    if grep -qF -- "$2" "$3"; then
        echo "FAIL $1: did not expect '$2'"
        failures=$((failures + 1))
    else
        echo "ok   $1"
    fi
}

# A 9x9 game: Black E5, an occupied point, a non-vertex, undo, E5 again,
# the count, then resignation.
printf 'E5\nE5\nZ9\nundo\nE5\nscore\nresign\n' |
    "$tengen" play --size 9 --seed 7 --playouts 200 --sgf "$work/game.sgf" >"$work/out.txt" 2>&1
status=$?
[ $status -eq 0 ] && echo "ok   play exits 0" || { echo "FAIL play exit status $status"; failures=$((failures + 1)); }
check "coordinates shown" "    A B C D E F G H J" "$work/out.txt"
check "last move framed" "(X)" "$work/out.txt"
check "captures shown" "Black (X) has captured 0 stones" "$work/out.txt"
check "occupied point refused" "Illegal move: point is occupied." "$work/out.txt"
check "bad vertex explained" "'Z9' is not a vertex of this board or a command" "$work/out.txt"
check "count given in points and stones" "Count if the game ended now" "$work/out.txt"
# issue 41, item 2: the count states its parts and its arithmetic
check "count: each side's parts" "Count (area counting): Black 40.5 = 1 stone + 0 territory + 39.5 (half of 79 dame)" "$work/out.txt"
check "count: the arithmetic" "Black 40.5 - White 40.5 - komi 7.5 = -7.5 points for Black" "$work/out.txt"
check "count: points and stones" "Result: W+7.5 — White wins by 3¾ stones" "$work/out.txt"
check_not "no count without its parts" "komi and compensation included in the result" "$work/out.txt"
check "resignation result" "Result: W+R" "$work/out.txt"
check "saved" "Game saved to $work/game.sgf" "$work/out.txt"
check "SGF result" "RE[W+R]" "$work/game.sgf"
check "SGF rules" "RU[Chinese]" "$work/game.sgf"
check "SGF first move" ";B[ee]" "$work/game.sgf"
"$tengen" sgf check -q "$work/game.sgf" >"$work/check.txt" 2>&1 &&
    echo "ok   saved SGF reads back" || { echo "FAIL saved SGF does not read back"; failures=$((failures + 1)); }

# Handicap, komi and rules from the command line; playing White; two passes
# end the game and it is counted.
printf 'pass\npass\npass\n' |
    "$tengen" play --size 9 --color white --handicap 2 --komi 0.5 --rules japanese --seed 3 \
        --playouts 100 --sgf "$work/h.sgf" >"$work/h.txt" 2>&1
check "rules announced" "ko=simple suicide=no scoring=territory" "$work/h.txt"
check "handicap in SGF" "HA[2]" "$work/h.sgf"
check "komi in SGF" "KM[0.5]" "$work/h.sgf"
check "human is White" "PW[Human]" "$work/h.sgf"
check "game counted" "Result:" "$work/h.txt"

# Issue 41, item 3: after two passes the dead stones are agreed (C9).
# Accepted at once: counted with tengen's dead stones.
printf 'pass\naccept\n' |
    "$tengen" play --size 9 --color white --handicap 2 --komi 0.5 --rules japanese --seed 3 \
        --playouts 100 --sgf "$work/agree.sgf" >"$work/agree.txt" 2>&1
check "agreement: tengen proposes" "tengen's dead stones: Black none; White none" "$work/agree.txt"
check "agreement: counted" "Final count:" "$work/agree.txt"
check "agreement: result" "Result: B+78.5" "$work/agree.txt"
check "agreement: SGF result" "RE[B+78.5]" "$work/agree.sgf"
# Disputed: the person marks C3 dead, tengen does not: play resumes, the
# person (who claims it dead) to move; then both pass and the person accepts.
printf 'pass\nc3\nZ9\ndone\npass\naccept\n' |
    "$tengen" play --size 9 --color white --handicap 2 --komi 0.5 --rules japanese --seed 3 \
        --playouts 100 --sgf "$work/dispute.sgf" >"$work/dispute.txt" 2>&1
check "agreement: a chain marked dead" "The Black chain on c3 (1 stone) is now dead." "$work/dispute.txt"
check "agreement: the person's count" "Your dead stones: Black C3; White none" "$work/dispute.txt"
check "agreement: a bad line explained" "'Z9' is neither a vertex nor done" "$work/dispute.txt"
check "agreement: dispute resumes play" "You and tengen disagree about the dead stones: play resumes, White to move." "$work/dispute.txt"
check "agreement: counted after the resumption" "Final count:" "$work/dispute.txt"

# A line longer than the reader's buffer is one line: one complaint, and
# the next line is read as it was typed.
# (Untimed and timed: both read through the same reader.)
for clock in none absolute:600; do
    { head -c 3000 /dev/zero | tr '\0' x; printf '\nE5\nresign\n'; } |
        "$tengen" play --size 9 --seed 1 --playouts 20 --time $clock --sgf "$work/long.sgf" >"$work/long.txt" 2>&1
    complaints=$(grep -c "is not a vertex of this board" "$work/long.txt")
    [ "$complaints" -eq 1 ] && echo "ok   an overlong line is one line ($clock)" ||
        { echo "FAIL an overlong line gave $complaints complaints ($clock)"; failures=$((failures + 1)); }
    check "the line after an overlong one ($clock)" ";B[ee]" "$work/long.sgf"
done

# No standard input at all: the game ends at once, saved.
"$tengen" play --size 5 --seed 1 --playouts 20 --sgf "$work/closed.sgf" <&- >"$work/closed.txt" 2>&1
status=$?
[ $status -eq 0 ] && echo "ok   closed standard input: exits 0" ||
    { echo "FAIL closed standard input: status $status"; failures=$((failures + 1)); }
check "closed standard input: saved" "Game saved to $work/closed.sgf" "$work/closed.txt"

# End of input saves the game too.
printf 'D4\n' | "$tengen" play --size 5 --seed 1 --playouts 50 --sgf "$work/eof.sgf" >"$work/eof.txt" 2>&1
check "end of input saves" "Game saved to" "$work/eof.txt"

# A timed game: both clocks with the board, undo refused, the clock in the SGF.
printf 'E5\nundo\nD4\nresign\n' |
    "$tengen" play --size 9 --seed 7 --playouts 100 --time byoyomi:600+5x30 --sgf "$work/t.sgf" >"$work/t.txt" 2>&1
check "time control announced" "Time: 600 s + 5 x 30 s byo-yomi" "$work/t.txt"
check "clocks shown" "Clock: Black 10:00 + 5x0:30 | White 10:00 + 5x0:30" "$work/t.txt"
check "undo refused when timed" "Undo is not available in a timed game." "$work/t.txt"
check "SGF TM" "TM[600]" "$work/t.sgf"
check "SGF OT" "OT[5x30 byo-yomi]" "$work/t.sgf"
check "SGF BL" ";B[ee]BL[" "$work/t.sgf"
check "SGF WL" "WL[" "$work/t.sgf"
check_not "untimed game has no TM" "TM[" "$work/game.sgf"

# Nobody types: the last 2 s period is counted down and lost.
(sleep 3; printf 'E5\n') |
    "$tengen" play --size 9 --seed 7 --playouts 100 --time byoyomi:0+1x2 --sgf "$work/loss.sgf" >"$work/loss.txt" 2>&1
check "byo-yomi count 9" "[byo-yomi] 9" "$work/loss.txt"
check "byo-yomi count 10" "[byo-yomi] 10" "$work/loss.txt"
check "loss on time" "Time is up: Black loses on time." "$work/loss.txt"
check "result on time" "Result: W+T" "$work/loss.txt"
check "SGF result on time" "RE[W+T]" "$work/loss.sgf"
check_not "no move after the loss" ";B[ee]" "$work/loss.sgf"

# With ,pass an overrun of the last period is a pass and the game goes on.
(sleep 1.6; printf 'resign\n') |
    "$tengen" play --size 9 --seed 7 --playouts 100 --time simple:1,pass --sgf "$work/pass.sgf" >"$work/pass.txt" 2>&1
check "overtime pass" "Time is up: Black's move is taken as a pass" "$work/pass.txt"
check "SGF overtime pass" ";B[]BL[1]" "$work/pass.sgf"
check "SGF OT with pass" "OT[1 simple pass]" "$work/pass.sgf"

# Two threads in a tree of 2 MiB: the tree fills and is pruned between
# moves, and the game goes on to its end.
printf 'E5\nD4\nF6\npass\npass\npass\n' |
    "$tengen" play --size 9 --seed 5 --playouts 20000 --threads 2 --max-memory 2 \
        --sgf "$work/mem.sgf" >"$work/mem.txt" 2>&1
status=$?
[ $status -eq 0 ] && echo "ok   small tree, two threads: exits 0" ||
    { echo "FAIL small tree exit status $status"; failures=$((failures + 1)); }
check "small tree: engine moved" "tengen plays" "$work/mem.txt"
check "small tree: game saved" "Game saved to $work/mem.sgf" "$work/mem.txt"

# A game that cannot be saved says so, and the exit status says so too.
printf 'pass\n' | "$tengen" play --size 5 --seed 1 --playouts 20 --sgf "$work/no/such/dir/x.sgf" \
    >"$work/nosave.txt" 2>&1
status=$?
[ $status -eq 1 ] && echo "ok   unsaved game: exit status 1" ||
    { echo "FAIL unsaved game exit status $status"; failures=$((failures + 1)); }
check "unsaved game explained" "could not save the game to $work/no/such/dir/x.sgf: No such file or directory" "$work/nosave.txt"

# Ctrl-C ends the game, saved, while the person thinks and while the engine
# does (its search is stopped, its move not played); the status is 130.
# Job control (set -m) keeps SIGINT for the background job, which a shell
# without it would have ignored (and tengen play then leaves it ignored).
set -m
mkfifo "$work/in"
"$tengen" play --size 9 --seed 1 --playouts 50 --sgf "$work/int.sgf" <"$work/in" >"$work/int.txt" 2>&1 &
pid=$!
exec 3>"$work/in"
printf 'E5\n' >&3
for _ in $(seq 100); do grep -q "tengen plays" "$work/int.txt" && break; sleep 0.1; done
sleep 0.2
kill -INT $pid
wait $pid
status=$?
exec 3>&-
[ $status -eq 130 ] && echo "ok   Ctrl-C while the person thinks: status 130" ||
    { echo "FAIL Ctrl-C status $status"; failures=$((failures + 1)); }
check "Ctrl-C said" "Interrupted: the game stops here." "$work/int.txt"
check "Ctrl-C saved" "Game saved to $work/int.sgf" "$work/int.txt"
check "Ctrl-C kept the moves" ";B[ee];W[" "$work/int.sgf"
"$tengen" play --size 19 --seed 1 --playouts 1000000 --color white --sgf "$work/int2.sgf" \
    <"$work/in" >"$work/int2.txt" 2>&1 &
pid=$!
exec 3>"$work/in"
sleep 1
kill -INT $pid
wait $pid
status=$?
exec 3>&-
set +m
[ $status -eq 130 ] && echo "ok   Ctrl-C while the engine thinks: status 130" ||
    { echo "FAIL Ctrl-C in the search: status $status"; failures=$((failures + 1)); }
check "Ctrl-C in the search saved" "Game saved to $work/int2.sgf" "$work/int2.txt"
check_not "no move after Ctrl-C in the search" ";B[" "$work/int2.sgf"

# Bad options are refused with status 2.
for bad in "--size 1" "--size 26" "--color red" "--handicap 1" "--komi 7.25" "--rules nonsense" "--frobnicate x" \
    "--time hourglass:5" "--time byoyomi:600" "--time canadian:600+25/600,pass" \
    "--threads 0" "--threads 65" "--max-memory 1" "--max-memory x"; do
    # shellcheck disable=SC2086
    "$tengen" play $bad </dev/null >/dev/null 2>&1
    st=$?
    [ $st -eq 2 ] && echo "ok   refuses $bad" || { echo "FAIL '$bad' gave status $st"; failures=$((failures + 1)); }
done

# tengen bench prints `name value unit` lines.
"$tengen" bench --seconds 1 --only sgf_parse >"$work/bench.txt" 2>&1
if grep -qE '^sgf_parse [0-9.]+ MB/s$' "$work/bench.txt"; then echo "ok   bench line format"; else
    echo "FAIL bench output:"; cat "$work/bench.txt"; failures=$((failures + 1)); fi
"$tengen" bench --only nothing >/dev/null 2>&1 && { echo "FAIL bench accepted an unknown figure"; failures=$((failures + 1)); } || echo "ok   bench refuses unknown figure"

echo "$failures failed"
[ $failures -eq 0 ]
