#!/usr/bin/env bash
# test.sh — every test of tengen, as CI runs it:
#   1. Release build with gcc, warnings as errors; the whole CTest suite
#      (unit, golden, differential, GNU Go agreement, @sabaki GTP/SGF);
#      then libtengen installed and docs/example built against it;
#   2. the suite again under AddressSanitizer + UndefinedBehaviorSanitizer;
#   3. a clang build with warnings as errors;
#   4. each libFuzzer target for a bounded time (FUZZ_SECONDS, default 35:
#      nine targets, and the whole run kept well under CI's 25 minutes).
# Installs its own Debian packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
jobs=$(nproc)
fuzz_seconds=${FUZZ_SECONDS:-35}

step() { printf '\n=== %s ===\n' "$*"; }

step "npm packages for the scripted tests (once, before CTest runs them in parallel)"
bash tools/npm_deps.sh tests/js/serve tests/js/sgf tests/js/gtp tests/browser

step "Release build (gcc, -Werror) and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTENGEN_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

step "libtengen installed: docs/example built against it with pkg-config and with find_package"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install build --prefix "$prefix" >/dev/null
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" sh -c \
  'cc -Wall -Wextra -Werror docs/example/example.c $(pkg-config --cflags --libs tengen) -o "$0/example-pc"' "$prefix"
cmake -S docs/example -B "$prefix/build-example" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/build-example" >/dev/null
LD_LIBRARY_PATH="$prefix/lib" "$prefix/example-pc"
"$prefix/build-example/example" | tail -n 1
readelf -d "$prefix/lib/libtengen.so" | grep -q 'SONAME.*libtengen.so.0'

step "AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTENGEN_SANITIZE=ON -DTENGEN_WERROR=ON -DTENGEN_SHARED=OFF >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  TENGEN_SANITIZED=1 ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE slow

step "clang build (-Werror)"
CC=clang cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=Release -DTENGEN_WERROR=ON -DTENGEN_TESTS=OFF -DTENGEN_SHARED=OFF >/dev/null
cmake --build build-clang -j"$jobs"

step "libFuzzer targets, ${fuzz_seconds}s each"
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DTENGEN_FUZZ=ON -DTENGEN_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$jobs"
for fuzzer in build-fuzz/fuzz/fuzz_*; do
  [ -x "$fuzzer" ] || continue
  name=$(basename "$fuzzer")
  corpus="build-fuzz/corpus-$name"
  mkdir -p "$corpus"
  args=("$corpus")
  [ -d "fuzz/corpus/${name#fuzz_}" ] && args+=("fuzz/corpus/${name#fuzz_}")
  [ -f "fuzz/${name#fuzz_}.dict" ] && args=(-dict="fuzz/${name#fuzz_}.dict" "${args[@]}")
  log="build-fuzz/$name.log"
  if ! "$fuzzer" -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 "${args[@]}" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "$name found a failure"
    exit 1
  fi
  tail -n 12 "$log"
done

echo
echo "all tests passed"
