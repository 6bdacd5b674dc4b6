#!/usr/bin/env bash
# serve.sh — build tengen (Release) and start `tengen serve` on its embedded
# defaults: SQLite under ~/.local/share/tengen, http://127.0.0.1:8080/.
# Extra arguments go to `tengen serve` (e.g. --listen 0.0.0.0:8080).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
# clang's code for the board's hot loop measures 15-25% faster than gcc's
CC=clang cmake -S . -B build-play -DCMAKE_BUILD_TYPE=Release -DTENGEN_TESTS=OFF >/dev/null
cmake --build build-play -j"$(nproc)" >/dev/null
exec build-play/tengen serve "$@"
