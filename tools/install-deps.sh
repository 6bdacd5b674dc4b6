#!/usr/bin/env bash
# install-deps.sh — the Debian packages tengen needs to build, test and
# benchmark.  Installs only what is missing; needs root (or sudo).
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# file: cpack's Debian generator runs it before dpkg-shlibdeps; systemd: the
# package test's systemd-analyze verify of the units; libpq-dev: the
# PostgreSQL back end of tengen serve; postgresql: the throwaway servers of
# its tests (tests/scripts/pg_env.sh)
for pkg in build-essential cmake pkg-config clang libclang-rt-14-dev libcmocka-dev libjansson-dev gnugo \
           libwebsockets-dev libuv1-dev libsqlite3-dev libsodium-dev libpq-dev postgresql chromium file \
           systemd "$@"; do
  have_pkg "$pkg" || need+=("$pkg")
done
# Node.js and npm drive the GUI-compatibility tests (@sabaki/gtp, @sabaki/sgf);
# keep an existing installation, whatever its origin.
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)

if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
