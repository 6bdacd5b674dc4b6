#!/usr/bin/env bash
# nodes.sh — load.js against 1, 2 and 3 `tengen serve` nodes on one
# throwaway PostgreSQL (tests/scripts/pg_env.sh: a cluster in a temporary
# folder on a Unix socket, fsync on unless FSYNC=off), each game's players
# on different nodes.  Prints each run's report; loopback only, bounded in
# time (each run --seconds, default 20), stops by itself.
# Usage: bash bench/serve/nodes.sh BUILD/tengen [load.js options...]
set -euo pipefail
bin=${1:?usage: nodes.sh TENGEN_BIN [load.js options]}
shift
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tests/scripts/pg_env.sh"
pg_env_start
if [ "${FSYNC:-on}" = on ]; then # a test cluster runs with fsync off: a benchmark with it on
    pg_env_as_owner "$PG_BIN/pg_ctl" -D "$PG_ENV_DIR/data" -m fast -w stop >/dev/null
    pg_env_as_owner "$PG_BIN/pg_ctl" -D "$PG_ENV_DIR/data" -l "$PG_ENV_DIR/data/server.log" -w -t 30 \
        -o "-k $PG_ENV_DIR -p 5432 -c listen_addresses= -c shared_buffers=128MB -c max_connections=200" start >/dev/null
fi
echo "# PostgreSQL $(pg_env_psql -d postgres -At -c 'SHOW server_version'), fsync $(pg_env_psql -d postgres -At -c 'SHOW fsync'), synchronous_commit $(pg_env_psql -d postgres -At -c 'SHOW synchronous_commit')"
for k in ${NODES:-1 2 3}; do
    pg_env_createdb "load$k"
    echo
    echo "## $k node(s)"
    node "$here/load.js" --server "$bin" --nodes "$k" --db "$(pg_env_url "load$k")" "$@"
done
