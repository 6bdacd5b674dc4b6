#!/usr/bin/env bash
# server_logic_pg.sh — CTest entry (issue 50): tests/test_server_logic.c, the
# server's logic with no socket (the store failing at each write in turn,
# memory equal to the store after a restart, names unique whatever their
# case, challenges kept, ...), on the PostgreSQL back end: a throwaway
# cluster (pg_env.sh), each test on a database of its own, plus the
# connections lost and refused and made again.  Needs TENGEN_BUILD_DIR and
# TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BUILD_DIR:?TENGEN_BUILD_DIR must name the build tree}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
. "$TENGEN_SOURCE_DIR/tests/scripts/pg_env.sh"

pg_env_start
TENGEN_TEST_PG_URL=$(pg_env_url postgres)
export TENGEN_TEST_PG_URL
if ! timeout 120 "$TENGEN_BUILD_DIR/tests/test_server_logic"; then
    echo "--- the PostgreSQL server's log:" >&2
    pg_env_log | tail -n 40 >&2
    exit 1
fi
