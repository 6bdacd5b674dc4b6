#!/bin/sh
# fake_gtp.sh — a scripted GTP engine for the referee's tests.  It keeps no
# board: genmove answers the next move of a list (then "pass"), and every
# other command succeeds, so each test says exactly what the engine does.
# Words of the command line (POSIX sh, no python needed):
#   moves=C3,D4,...   genmove answers, in order, then pass (B1:own answers "B1 own",
#                     the capture choice, to tengen-genmove_choice)
#   fail=N:WHAT       on the Nth genmove: crash (exit), hang (sleep), garbage
#                     (an answer without '='), error (a '?' answer)
#   slow=SECONDS      every genmove waits that long first
#   dead=A1,B2        the answer to final_status_list dead
#   lacks=CMD         known_command CMD is false (and CMD fails)
#   predict=W+3       the answer to tengen-predict (else an empty answer)
#   predict_slow=S    tengen-predict waits that long first
#   log=FILE          every command line is appended to FILE
#   tag=WORD          ignored: lets a test find its processes
moves="" fail_at=0 fail_what="" slow="" dead="" lacks="" predict="" predict_slow="" log=""
for arg in "$@"; do
    case "$arg" in
    moves=*) moves=$(echo "${arg#moves=}" | tr ',' ' ') ;;
    fail=*) v=${arg#fail=}; fail_at=${v%%:*}; fail_what=${v#*:} ;;
    slow=*) slow=${arg#slow=} ;;
    dead=*) dead=$(echo "${arg#dead=}" | tr ',' ' ') ;;
    lacks=*) lacks="$lacks ${arg#lacks=} " ;;
    predict=*) predict=${arg#predict=} ;;
    predict_slow=*) predict_slow=${arg#predict_slow=} ;;
    log=*) log=${arg#log=} ;;
    esac
done
n=0
answer() { printf '= %s\n\n' "$1"; }
while IFS= read -r line; do
    [ -n "$log" ] && printf '%s\n' "$line" >> "$log"
    set -- $line
    cmd=$1
    case "$lacks" in *" $cmd "*) printf '? unknown command\n\n'; continue ;; esac
    case "$cmd" in
    known_command)
        case "$lacks" in *" $2 "*) answer false ;; *) answer true ;; esac ;;
    name) answer fake ;;
    protocol_version) answer 2 ;;
    quit) answer ""; exit 0 ;;
    final_status_list) answer "$dead" ;;
    tengen-predict)
        [ -n "$predict_slow" ] && sleep "$predict_slow"
        answer "$predict" ;;
    genmove|kgs-genmove_cleanup|tengen-genmove_choice)
        n=$((n + 1))
        if [ "$n" = "$fail_at" ]; then
            case "$fail_what" in
            crash) exit 3 ;;
            hang) sleep 1000 ;;
            garbage) printf 'I think D4 is nice\n\n'; continue ;;
            error) printf '? no move\n\n'; continue ;;
            esac
        fi
        [ -n "$slow" ] && sleep "$slow"
        set -- $moves
        if [ $# -gt 0 ]; then
            answer "$(echo "$1" | tr ':' ' ')"; shift; moves="$*"
        else
            answer pass
        fi ;;
    *) answer "" ;;
    esac
done
