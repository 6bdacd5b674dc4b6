#!/usr/bin/env bash
# serve_protocol_pg.sh — CTest entry (issue 50): `tengen serve --db
# postgresql://...` on a throwaway PostgreSQL (pg_env.sh).  First
# --migrate-only: a new database is created at the schema version, then up
# to date, and six servers migrating one new database at once all succeed,
# one of them creating it (the advisory lock); then tests/js/serve/protocol.js,
# the protocol test, against the server on PostgreSQL.  Installs ws into
# tests/js/serve/node_modules on first use.  Needs TENGEN_BIN and
# TENGEN_SOURCE_DIR (CTest sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_SOURCE_DIR:?TENGEN_SOURCE_DIR must name the source tree}"
js_dir="$TENGEN_SOURCE_DIR/tests/js/serve"
. "$TENGEN_SOURCE_DIR/tests/scripts/pg_env.sh"

command -v node >/dev/null || { echo "serve_protocol_pg: node is not installed" >&2; exit 1; }
bash "$TENGEN_SOURCE_DIR/tools/npm_deps.sh" "$js_dir"

fail() { echo "FAIL serve_protocol_pg: $*" >&2; pg_env_log | tail -n 20 >&2; exit 1; }

pg_env_start

pg_env_createdb migrated
url=$(pg_env_url migrated)
out=$("$TENGEN_BIN" serve --db "$url" --migrate-only) || fail "--migrate-only on a new database: $out"
case "$out" in *"schema version 5 (created)"*) ;; *) fail "--migrate-only on a new database said: $out" ;; esac
out=$("$TENGEN_BIN" serve --db "$url" --migrate-only) || fail "--migrate-only again: $out"
case "$out" in *"(up to date)"*) ;; *) fail "--migrate-only again said: $out" ;; esac
echo "ok --migrate-only creates the schema, then finds it up to date"

# a database of version 2 (the single-node schema) gains the id blocks,
# which start after the games and challenges it has, and the ratings
pg_env_psql -d "$url" -c "DROP TABLE docs; DROP TABLE rating_history; DROP TABLE ratings; DROP TABLE id_blocks;
  UPDATE schema_version SET version = 2;
  INSERT INTO users(name, password_hash, guest, created) VALUES ('old', '', false, 0);
  INSERT INTO games(id, black, white, black_name, white_name, black_engine, white_engine, nigiri,
    settings, created) VALUES (41, 1, 1, 'old', 'old', '', '', '', '{}', 0);
  UPDATE challenge_last SET id = 17;" || fail "making a version-2 database"
out=$("$TENGEN_BIN" serve --db "$url" --migrate-only) || fail "--migrate-only from version 2: $out"
case "$out" in *"schema version 5"*"from 2"*) ;; *) fail "--migrate-only from version 2 said: $out" ;; esac
blocks=$(pg_env_psql -d "$url" -At -c "SELECT kind || '=' || last FROM id_blocks ORDER BY kind")
[ "$blocks" = "$(printf 'challenge=17\ngame=41')" ] || fail "id blocks after the migration: $blocks"
[ "$(pg_env_psql -d "$url" -At -c "SELECT count(*) FROM ratings")" = 0 ] || fail "no ratings table after the migration"
[ "$(pg_env_psql -d "$url" -At -c "SELECT count(*) FROM docs")" = 0 ] || fail "no docs table after the migration"
echo "ok a version-2 database migrates to 5: ids continue after game 41 and challenge 17, the ratings' and documents' tables made"

pg_env_createdb raced
pids=()
for i in 1 2 3 4 5 6; do
    "$TENGEN_BIN" serve --db "$(pg_env_url raced)" --migrate-only >"$PG_ENV_DIR/race$i.out" 2>&1 &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || fail "a --migrate-only racing others failed: $(cat "$PG_ENV_DIR"/race*.out)"; done
created=$(cat "$PG_ENV_DIR"/race*.out | grep -c "(created)" || true)
[ "$created" -eq 1 ] || fail "six servers migrating at once: $created said created"
echo "ok six servers migrating one new database at once: all succeed, one creates it"

pg_env_createdb protocol
if ! TENGEN_TEST_DB=$(pg_env_url protocol) timeout 180 node "$js_dir/protocol.js" "$TENGEN_BIN"; then
    pg_env_log | tail -n 20 >&2
    exit 1
fi
