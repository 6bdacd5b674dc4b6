#!/usr/bin/env bash
# play.sh — build tengen (Release) and start a 19x19 Chinese-rules game
# against the engine in the terminal.  Extra arguments go to `tengen play`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec build/tengen play "$@"
