#!/usr/bin/env bash
# gtp_analyze.sh — the analysis commands of `tengen gtp` as GUIs use them:
# lz-analyze and kata-analyze (with ownership) stream info lines until the
# next command arrives, which is then answered normally with its id; the
# info lines parse, visits never go down, principal variations are
# vertices of the board and the best moves legal, ownership has size*size
# values in [-1, 1]; with --playouts the search stops and the answer waits
# for the next line; GoGui's gogui-analyze_commands and gogui-ownership;
# kata-analyze with ownership in one search (visits growing line by line);
# lz-genmove_analyze and kata-genmove_analyze: info lines, then "play MOVE",
# the move on the board and undone by undo, the next command not stopping it;
# --value on|off|auto accepted, anything else refused with a message.
#
# The engine reads a FIFO, so the script sends each command when it has
# seen what it waits for.  Nothing is timed: waits only have a generous
# bound (a hung engine fails the test instead of blocking it).
# Env: TENGEN_BIN (the tengen program).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
tengen=${TENGEN_BIN:-$source_dir/build/tengen}
work=$(mktemp -d)
engine_pid=
failures=0
trap 'exec 3>&-; [ -n "$engine_pid" ] && kill "$engine_pid" 2>/dev/null; rm -rf "$work"' EXIT

fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}

# start ARGS...: a `tengen gtp ARGS` reading the FIFO on fd 3, writing $work/out
start() {
    exec 3>&-
    [ -n "$engine_pid" ] && wait "$engine_pid" 2>/dev/null
    rm -f "$work/in" && mkfifo "$work/in"
    : >"$work/out"
    "$tengen" gtp "$@" <"$work/in" >"$work/out" 2>"$work/err" &
    engine_pid=$!
    exec 3>"$work/in"
}

send() { printf '%s\n' "$1" >&3; }

# await NAME PATTERN [COUNT [ID]]: wait (up to 60 s) until the output (the
# answer to ID, if given) has COUNT (default 1) lines matching PATTERN
await() {
    local i
    for ((i = 0; i < 600; i++)); do
        if [ -n "${4:-}" ]; then
            [ "$(answer "$4" | grep -cE -- "$2")" -ge "$3" ] && return 0
        else
            [ "$(grep -cE -- "$2" "$work/out")" -ge "${3:-1}" ] && return 0
        fi
        sleep 0.1
    done
    fail "$1: no line matching '$2' in:"
    sed 's/^/     /' "$work/out" | cut -c1-200
    return 1
}

# answer ID: the text of answer ID (its first line without "=ID "), up to
# its empty line
answer() {
    awk -v id="$1" '!on && ($0 == "=" id || index($0, "=" id " ") == 1 || index($0, "?" id " ") == 1) {
        on = 1; if ($0 != "=" id) print substr($0, length(id) + 3); next }
        on && $0 == "" { exit } on { print }' "$work/out"
}

# check_info NAME FORMAT SIZE OWNERSHIP MAXMOVES < info lines: the format of
# every line; prints the number of lines, then the moves of the last line.
check_info() {
    awk -v name="$1" -v format="$2" -v size="$3" -v ownership="$4" -v maxmoves="$5" '
    function bad(why) { print "FAIL " name ": " why " in line " NR ": " substr($0, 1, 160); failed = 1; exit 1 }
    function vertex(v,   col, row) {
        if (v == "pass") return 1
        col = index("ABCDEFGHJKLMNOPQRSTUVWXYZ", substr(v, 1, 1)); row = substr(v, 2)
        return col >= 1 && col <= size && row ~ /^[0-9]+$/ && row + 0 >= 1 && row + 0 <= size
    }
    function number(v) { return v ~ /^-?[0-9]+(\.[0-9]+)?$/ }
    function info(i,   key, n, k, count) {
        split("", field)
        for (i++; i <= NF && $i != "pv"; i += 2) field[$i] = $(i + 1)
        if (format == "lz") n = split("move visits winrate prior lcb order", keys, " ")
        else n = split("move visits utility winrate scoreMean scoreLead prior lcb order", keys, " ")
        for (k = 1; k <= n; k++) {
            if (!(keys[k] in field)) bad("no " keys[k])
            if (keys[k] != "move" && !number(field[keys[k]])) bad(keys[k] " is not a number")
        }
        if (!vertex(field["move"])) bad("move " field["move"] " is not a vertex")
        if (field["order"] != moves) bad("order " field["order"] " is not " moves)
        if (field["visits"] !~ /^[0-9]+$/) bad("visits are not a count")
        if (format == "lz" && (field["winrate"] !~ /^[0-9]+$/ || field["winrate"] > 10000)) bad("winrate not in 0..10000")
        if (format == "kata" && (field["winrate"] < 0 || field["winrate"] > 1)) bad("winrate not in [0, 1]")
        if (field["move"] in seen && field["visits"] + 0 < seen[field["move"]]) bad("visits of " field["move"] " went down")
        seen[field["move"]] = field["visits"] + 0
        last = last " " field["move"]
        for (count = 0; i + 1 <= NF && $(i + 1) != "info" && $(i + 1) != "ownership"; count++)
            if (!vertex($(++i))) bad("pv move " $i " is not a vertex")
        i++
        if (count == 0) bad("empty pv")
        moves++
        return i
    }
    function owned(i,   count) {
        for (count = 0; i + 1 <= NF; count++)
            if (!number($(++i)) || $i < -1 || $i > 1) bad("ownership value " $i " not in [-1, 1]")
        i++
        if (count != size * size) bad(count " ownership values for " size "x" size)
        return i
    }
    {
        moves = 0; last = ""; has_ownership = 0
        for (i = 1; i <= NF;) {
            if ($i == "info") i = info(i)
            else if ($i == "ownership") { has_ownership = 1; i = owned(i) }
            else bad("unexpected " $i)
        }
        if (maxmoves > 0 && moves > maxmoves) bad(moves " moves, more than maxmoves " maxmoves)
        if (ownership && !has_ownership) bad("no ownership")
        if (!ownership && has_ownership) bad("ownership not asked for")
        lines++
    }
    END { if (!failed) { print lines + 0; print last } }'
}

# check_analysis NAME ID FORMAT SIZE OWNERSHIP MAXMOVES: answer ID is an
# analysis with at least one valid info line; sets $best_moves.
check_analysis() {
    local result
    best_moves=
    if ! result=$(answer "$2" | check_info "$1" "$3" "$4" "$5" "$6"); then
        echo "$result"
        failures=$((failures + 1))
        return 1
    fi
    local lines
    lines=$(head -n 1 <<<"$result")
    best_moves=$(tail -n 1 <<<"$result")
    if [ "$lines" -lt 1 ]; then
        fail "$1: no info line"
        return 1
    fi
    echo "ok   $1 ($lines info lines)"
}

# expect_answer NAME ID TEXT: the answer to ID is "=ID TEXT"
expect_answer() {
    if grep -qxF -- "=$2 $3" "$work/out"; then
        echo "ok   $1"
    else
        fail "$1: no line '=$2 $3'"
        sed 's/^/     /' "$work/out" | tail -n 5 | cut -c1-200
    fi
}

# check_legal NAME COLOR ID: the moves of the last analysis's last line
# are legal for COLOR (asked with is_legal, ids from ID + 1)
check_legal() {
    local name=$1 color=$2 id=$3 move bad=0
    for move in $best_moves; do
        id=$((id + 1))
        send "$id is_legal $color $move"
        await "$name" "^=$id " || return
        grep -qxF "=$id 1" "$work/out" || { fail "$name: $move is not legal"; bad=1; }
    done
    [ "$bad" -eq 0 ] && echo "ok   $name"
}

# ---- Streaming until the next command (no playout limit) --------------------

start --size 9 --playouts 1000000000 --seed 3
send "1 play b E5"
send "2 play w C3"
send "10 lz-analyze b 5"
await "lz-analyze streams" '^info move .*info move ' 3 10
send "11 name"
await "the command after lz-analyze" '^=11 ' && {
    expect_answer "the command after lz-analyze is answered with its id" 11 tengen
    check_analysis "lz-analyze" 10 lz 9 0 0
    check_legal "lz-analyze's moves are legal" b 100
}

send "20 kata-analyze w interval 5 ownership true maxmoves 3"
await "kata-analyze streams" '^info move .* ownership ' 3 20
send "21 version"
await "the command after kata-analyze" '^=21 ' && {
    expect_answer "the command after kata-analyze is answered with its id" 21 0.1.0
    check_analysis "kata-analyze ownership" 20 kata 9 1 3
    check_legal "kata-analyze's moves are legal" w 200
}

# A raw newline also ends the analysis, and gets no answer of its own.
send "30 kata-analyze 10"
await "kata-analyze without ownership" '^info move .*scoreLead' 2 30
send ""
send "31 protocol_version"
await "the command after a newline" '^=31 ' && {
    expect_answer "a newline ends kata-analyze" 31 2
    check_analysis "kata-analyze" 30 kata 9 0 0
}

send "40 lz-analyze b 10 avoid b D4 1"
send "41 kata-analyze b 10 ownership perhaps"
send "42 known_command kata-analyze"
await "errors" '^=42 ' && {
    grep -q '^?40 ' "$work/out" && echo "ok   avoid is refused" || fail "avoid is not refused"
    grep -q '^?41 syntax error' "$work/out" && echo "ok   a bad ownership value is refused" ||
        fail "ownership perhaps is not refused"
    expect_answer "known_command kata-analyze" 42 true
}
send "43 list_commands"
await "list_commands" '^gogui-interrupt$' && {
    for c in lz-analyze kata-analyze gogui-analyze_commands gogui-ownership; do
        grep -qxF -- "$c" "$work/out" || fail "list_commands lacks $c"
    done
    echo "ok   list_commands lists the analysis commands"
}
send "quit"
wait "$engine_pid"
status=$?
engine_pid=
[ "$status" -eq 0 ] && echo "ok   quit" || fail "exit status $status"

# ---- With --playouts the search stops; the answer waits for the next line ---

start --size 7 --playouts 300
send "1 kata-analyze b 1000 ownership true"
await "kata-analyze with --playouts" '^info move .* ownership ' && sleep 0.5
if grep -q '^$' "$work/out"; then
    fail "kata-analyze ended its answer before the next command"
else
    echo "ok   kata-analyze waits for the next command"
fi
send "2 name"
await "the command after a finished analysis" '^=2 ' && {
    expect_answer "the command after a finished analysis" 2 tengen
    check_analysis "kata-analyze with --playouts" 1 kata 7 1 0
}

send "3 gogui-analyze_commands"
send "4 gogui-ownership"
await "gogui-ownership" '^=4 ' && {
    commands=$(answer 3)
    if grep -qxF 'gfx/Ownership/gogui-ownership' <<<"$commands" &&
        ! grep -vqE '^[a-z]+/[^/]+/[^/]+$' <<<"$commands"; then
        echo "ok   gogui-analyze_commands"
    else
        fail "gogui-analyze_commands: $commands"
    fi
    influence=$(answer 4 | sed -n 's/^INFLUENCE //p')
    if awk '{ if (NF != 2 * 49) exit 1
              for (i = 2; i <= NF; i += 2) if ($i < -1 || $i > 1) exit 1 }' <<<"$influence"; then
        echo "ok   gogui-ownership"
    else
        fail "gogui-ownership: $(answer 4 | cut -c1-200)"
    fi
}
send "quit"
wait "$engine_pid"
engine_pid=

# ---- kata-analyze with ownership: one search, its visits growing ----------

# visits_grow NAME ID: the visits of the lines of answer ID (all candidates
# together) never go down and grow from the first line to the last
visits_grow() {
    if answer "$2" | awk '
        { total = 0; for (i = 1; i < NF; i++) if ($i == "visits") total += $(i + 1) }
        NR > 1 && total < previous { exit 1 }
        NR == 1 { first = total } { previous = total }
        END { exit !(NR >= 2 && previous > first) }'; then
        echo "ok   $1"
    else
        fail "$1: $(answer "$2" | awk '{ t = 0; for (i = 1; i < NF; i++) if ($i == "visits") t += $(i + 1); printf "%d ", t }')"
    fi
}

start --size 7 --playouts 4000 --seed 5
send "1 play b D4"
send "2 kata-analyze w 1 ownership true"
await "kata-analyze ownership in one search" '^info move .* ownership ' 3 2 && sleep 0.3
send "3 name"
await "the command after kata-analyze ownership" '^=3 ' && {
    check_analysis "kata-analyze ownership in one search" 2 kata 7 1 0
    visits_grow "kata-analyze ownership: the visits grow from line to line" 2
}

# ---- lz-genmove_analyze and kata-genmove_analyze --------------------------

# check_genmove NAME ID FORMAT COLOR OWNERSHIP: answer ID is info lines and
# then "play MOVE"; the move is COLOR's on the board (list_stones), and undo
# takes it back (ids from ID + 1).  Sets $played.
check_genmove() {
    local name=$1 id=$2 color=$4 last
    last=$(answer "$id" | tail -n 1)
    played=${last#play }
    if ! grep -qE '^play ([A-HJ-Z][0-9]+|pass|resign)$' <<<"$last"; then
        fail "$name: the last line is '$(cut -c1-80 <<<"$last")', not 'play MOVE'"
        return 1
    fi
    local result
    if ! result=$(answer "$id" | sed '$d' | check_info "$name" "$3" 7 "$5" 0); then
        echo "$result"
        failures=$((failures + 1))
        return 1
    fi
    [ "$(head -n 1 <<<"$result")" -ge 2 ] || { fail "$name: fewer than 2 info lines"; return 1; }
    echo "ok   $name ($(head -n 1 <<<"$result") info lines, play $played)"
    [ "$played" = pass ] || [ "$played" = resign ] && return 0
    send "$((id + 1)) list_stones $color"
    send "$((id + 2)) undo"
    send "$((id + 3)) list_stones $color"
    await "$name: undo" "^=$((id + 3))( |$)" || return 1
    if grep -qw -- "$played" <<<"$(answer $((id + 1)))" && ! grep -qw -- "$played" <<<"$(answer $((id + 3)))" &&
        grep -qxF "=$((id + 2))" "$work/out"; then
        echo "ok   $name: $played is on the board, and undo takes it back"
    else
        fail "$name: $played: before undo '$(answer $((id + 1)))', after '$(answer $((id + 3)))'"
    fi
}

start --size 7 --playouts 600 --seed 7
send "1 play b D4"
# the next command comes at once: a genmove_analyze is not stopped by it
send "2 lz-genmove_analyze w 1"
send "9 name"
await "lz-genmove_analyze" '^=9 ' && {
    expect_answer "the command after lz-genmove_analyze waits its turn" 9 tengen
    check_genmove "lz-genmove_analyze" 2 lz white 0
}
send "20 kata-genmove_analyze b interval 1 ownership true maxmoves 3"
await "kata-genmove_analyze" '^play ' 2 && {
    check_genmove "kata-genmove_analyze" 20 kata black 1
}
send "30 kata-genmove_analyze w"
send "31 known_command lz-genmove_analyze"
await "kata-genmove_analyze without interval" '^=31 ' && {
    expect_answer "known_command lz-genmove_analyze" 31 true
    [ "$(answer 30 | grep -c '^info ')" -eq 1 ] && answer 30 | tail -n 1 | grep -q '^play ' &&
        echo "ok   kata-genmove_analyze without an interval: the last info line, then play" ||
        fail "kata-genmove_analyze w: $(answer 30 | cut -c1-80)"
}
send "40 lz-genmove_analyze purple"
send "41 name"
await "lz-genmove_analyze errors" '^=41 ' && {
    grep -q '^?40 ' "$work/out" && echo "ok   lz-genmove_analyze refuses a bad argument" ||
        fail "lz-genmove_analyze purple is not refused"
}
send "quit"
wait "$engine_pid"
engine_pid=

# --value takes on, off or auto, and refuses anything else with a message
for mode in on off auto; do
    if printf 'quit\n' | "$tengen" gtp --value "$mode" >/dev/null 2>&1; then
        echo "ok   --value $mode accepted"
    else
        fail "--value $mode refused"
    fi
done
if printf 'quit\n' | "$tengen" gtp --value maybe >/dev/null 2>"$work/err"; then
    fail "--value maybe accepted"
elif grep -q -- "bad value 'maybe' for --value: expected off, on or auto" "$work/err"; then
    echo "ok   --value maybe refused with a message"
else
    fail "--value maybe refused without the message"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all passed"
