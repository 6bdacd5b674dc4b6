#!/usr/bin/env bash
# serve.sh — build tengen (Release) and start `tengen serve` on its embedded
# defaults: SQLite under ~/.local/share/tengen, http://127.0.0.1:8080/.
# Extra arguments go to `tengen serve` (e.g. --listen 0.0.0.0:8080).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build-release.sh
exec build-play/tengen serve "$@"
