#!/usr/bin/env bash
# gnugo_agreement.sh — `tengen score` against GNU Go 3.8's final_score
# (--chinese-rules) on finished GNU Go self-play games, 9x9 and 13x13.
#
# The issue's requirement: on each board size the winner agrees in at least
# 97% of the games, and the margins differ by at most 2 points (in at least
# as many; the games beyond are listed).  The games are generated afresh on
# every run (seeds 1..N, GNU Go level 1, two games at a time) so the test
# stays within about three minutes on two cores; nothing is cached.
# The driver is tests/tools/gnugo_agreement.py (run it with --help for a
# larger sample).
#
# Environment: TENGEN_BIN (the tengen program), TENGEN_SOURCE_DIR,
# GNUGO_GAMES_9 / GNUGO_GAMES_13 to change the sample size.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${TENGEN_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
tengen=${TENGEN_BIN:-$source_dir/build/tengen}

find_gnugo() {
    if [ -x /usr/games/gnugo ]; then echo /usr/games/gnugo; else command -v gnugo || true; fi
}

gnugo=$(find_gnugo)
if [ -z "$gnugo" ]; then
    echo "gnugo_agreement: installing the Debian package gnugo"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y gnugo >/dev/null 2>&1 ||
        { $sudo apt-get update >/dev/null && $sudo apt-get install -y gnugo >/dev/null; }
    gnugo=$(find_gnugo)
fi
if [ -z "$gnugo" ]; then
    echo "gnugo_agreement: GNU Go is not installed and could not be installed" >&2
    exit 1
fi
if [ ! -x "$tengen" ]; then
    echo "gnugo_agreement: no tengen program at $tengen (set TENGEN_BIN)" >&2
    exit 1
fi

exec python3 "$source_dir/tests/tools/gnugo_agreement.py" \
    --tengen "$tengen" --gnugo "$gnugo" --jobs 2 --levels 1 \
    --size 9 --games "${GNUGO_GAMES_9:-80}" \
    --size 13 --games "${GNUGO_GAMES_13:-30}"
