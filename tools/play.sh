#!/usr/bin/env bash
# play.sh — build tengen (Release) and start a 19x19 Chinese-rules game
# against the engine in the terminal.  Extra arguments go to `tengen play`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build-release.sh
exec build-play/tengen play "$@"
