/*
 * store_pg.c — the store on PostgreSQL through libpq (issue 50), for any
 * number of servers (nodes) on one database, of its own or shared with
 * other programs.  What makes the nodes agree is the database's: an event
 * is (game, seq), and the second node to write a seq finds it taken (ON
 * CONFLICT DO NOTHING: 1, the transaction goes on); ids come in blocks
 * from id_blocks; each transaction tells the others what it wrote with
 * pg_notify, delivered at commit (store_listen.c hears it).
 *
 * A store is one connection, used by one thread at a time (store_async's
 * writer or reader, or server_new's reads at start).  Every statement is
 * prepared on its connection at first use and run with its values as
 * parameters, never built from text; ids are BIGINT.  The schema carries
 * a version (the table schema_version) and is created or migrated at open
 * in one transaction, under an advisory lock so that servers starting at
 * once on one database do it once.
 *
 * A broken connection (the database restarted, the network went) fails
 * the call that finds it, with libpq's message; the next call outside a
 * transaction connects again (PQreset) and prepares its statements again,
 * so that the server recovers by itself once the database is back.  A
 * read, or a BEGIN, that finds the connection broken is tried once more
 * on a new one: nothing of it was done.  Inside a transaction the
 * connection is never re-established: what the transaction wrote is gone,
 * and its commit must fail.  While the database stays away, attempts to
 * connect are spaced out (RETRY_*_MS) and the calls between them fail at
 * once.
 */
#include "store.h"
#include "store_listen.h"
#include "store_pg_internal.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#define GAME_COLUMNS                                                                                \
    "id, black, white, black_name, white_name, black_engine, white_engine, nigiri, settings,"      \
    " created, finished, result, moves"

static const char *const sql_text[Q_COUNT_] = {
    /* a name taken (whatever its case) inserts nothing and leaves the
     * transaction usable: 1, as SQLite's constraint */
    "INSERT INTO users(name, password_hash, guest, created)"
    " VALUES($1, $2, $3, extract(epoch FROM now())::bigint) ON CONFLICT DO NOTHING RETURNING id",
    "INSERT INTO tokens(hash, user_id, created) VALUES($1, $2, extract(epoch FROM now())::bigint)",
    "DELETE FROM tokens WHERE user_id = $1",
    "INSERT INTO games(black, white, black_name, white_name, black_engine, white_engine, nigiri,"
    " settings, created, id) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING",
    /* a seq another node wrote first: nothing, and 1 (the race's loser) */
    "INSERT INTO events(game_id, seq, at_ms, kind, data) VALUES($1, $2, $3, $4, $5)"
    " ON CONFLICT (game_id, seq) DO NOTHING",
    "UPDATE games SET finished = true, result = $2, sgf = $3, moves = $4, state = $5 WHERE id = $1",
    /* every right-hand side reads the row as it was: a swap in one statement */
    "UPDATE games SET black = white, white = black, black_name = white_name,"
    " white_name = black_name, black_engine = white_engine, white_engine = black_engine WHERE id = $1",
    /* the challenge and the largest id ever given, in one statement */
    "WITH added AS (INSERT INTO challenges(id, challenger, challenger_name, opponent, settings, created)"
    " VALUES($1, $2, $3, $4, $5, $6) RETURNING id)"
    " UPDATE challenge_last SET id = greatest(challenge_last.id, (SELECT id FROM added))",
    "DELETE FROM challenges WHERE id = $1",
    /* the row's lock orders nodes taking blocks at once */
    "UPDATE id_blocks SET last = last + $2 WHERE kind = $1 RETURNING last - $2 + 1",
    "SELECT pg_notify('tengen', $1)",
    /* a row to lock, for a player's first rated game */
    "INSERT INTO ratings(user_id, rating, deviation, volatility, games, updated)"
    " VALUES($1, 1500, 350, 0.06, 0, 0) ON CONFLICT DO NOTHING",
    "SELECT rating, deviation, volatility, games FROM ratings WHERE user_id = $1 FOR UPDATE",
    "UPDATE ratings SET rating = $2, deviation = $3, volatility = $4, games = $5, updated = $6"
    " WHERE user_id = $1",
    "INSERT INTO rating_history(user_id, game_id, at, rating, deviation) VALUES($1, $2, $3, $4, $5)"
    " ON CONFLICT (user_id, game_id) DO UPDATE SET at = excluded.at, rating = excluded.rating,"
    " deviation = excluded.deviation",
    /* a kind's first id makes its row; the row's lock orders nodes */
    "INSERT INTO id_blocks(kind, last) VALUES($1, 1)"
    " ON CONFLICT (kind) DO UPDATE SET last = id_blocks.last + 1 RETURNING last",
    "INSERT INTO docs(kind, id, summary, body, updated) VALUES($1, $2, $3, $4, $5)"
    " ON CONFLICT (kind, id) DO UPDATE SET summary = excluded.summary, body = excluded.body,"
    " updated = excluded.updated",
    "SELECT body, updated FROM docs WHERE kind = $1 AND id = $2 FOR UPDATE",

    "SELECT id, name, password_hash, guest FROM users WHERE lower(name) = lower($1)",
    "SELECT id, name, password_hash, guest FROM users WHERE id = $1",
    "SELECT user_id FROM tokens WHERE hash = $1",
    "SELECT " GAME_COLUMNS " FROM games WHERE NOT finished ORDER BY id",
    "SELECT " GAME_COLUMNS " FROM games WHERE finished ORDER BY id DESC LIMIT $1",
    "SELECT " GAME_COLUMNS " FROM games WHERE black = $2 OR white = $2 ORDER BY id DESC LIMIT $1",
    "SELECT " GAME_COLUMNS " FROM games WHERE id = $1",
    "SELECT seq, at_ms, kind, data FROM events WHERE game_id = $1 ORDER BY seq",
    "SELECT sgf FROM games WHERE id = $1 AND sgf IS NOT NULL",
    "SELECT state FROM games WHERE id = $1 AND state IS NOT NULL",
    "SELECT (SELECT coalesce(max(id), 0) FROM games), (SELECT id FROM challenge_last)",
    "SELECT id, challenger, challenger_name, opponent, settings, created FROM challenges ORDER BY id",
    "SELECT rating, deviation, volatility, games FROM ratings WHERE user_id = $1",
    "SELECT game_id, at, rating, deviation FROM (SELECT * FROM rating_history WHERE user_id = $1"
    " ORDER BY at DESC, game_id DESC LIMIT $2) h ORDER BY at, game_id",
    "SELECT body, updated FROM docs WHERE kind = $1 AND id = $2",
    "SELECT id, updated, summary FROM docs WHERE kind = $1 ORDER BY updated DESC, id DESC LIMIT $2",
};


/* After a failed attempt to connect again, calls fail at once for a
 * pause that doubles from the first to the last, so that a server whose
 * database is away does not hammer it (each attempt is a new backend
 * process there). */
enum { RETRY_FIRST_MS = 50, RETRY_LAST_MS = 1000 };



/* ---- errors and connections ------------------------------------------------------- */

/* libpq's message, without its last newline. */
void pg_keep_error(pg_store *q, const char *message)
{
    snprintf(q->error, sizeof q->error, "PostgreSQL: %s", message && message[0] ? message : "failed");
    size_t n = strlen(q->error);
    while (n > 0 && (q->error[n - 1] == '\n' || q->error[n - 1] == ' '))
        q->error[--n] = '\0';
}

void pg_keep_result_error(pg_store *q, const PGresult *r)
{
    const char *m = r ? PQresultErrorMessage(r) : NULL;
    pg_keep_error(q, m && m[0] ? m : PQerrorMessage(q->conn));
}

/* NOTICEs and WARNINGs ("there is no transaction in progress") are the
 * database talking to a person; library code prints nothing. */
static void ignore_notice(void *arg, const PGresult *r)
{
    (void)arg;
    (void)r;
}

static const char *pg_error(store *s) { return P(s)->error; }

static void pg_close(store *s)
{
    PQfinish(P(s)->conn);
    free(s);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A connection that broke is made again, outside a transaction.  0, or -1
 * with the error. */
static int ensure_connected(pg_store *q)
{
    if (PQstatus(q->conn) == CONNECTION_OK)
        return 0;
    if (q->in_transaction) {
        pg_keep_error(q, "the connection was lost in a transaction: nothing of it was kept");
        return -1;
    }
    if (now_ms() < q->retry_at_ms)
        return -1; /* the last attempt's error stands */
    PQreset(q->conn);
    memset(q->prepared, 0, sizeof q->prepared);
    if (PQstatus(q->conn) != CONNECTION_OK) {
        pg_keep_error(q, PQerrorMessage(q->conn));
        q->retry_pause_ms = q->retry_pause_ms ? q->retry_pause_ms * 2 : RETRY_FIRST_MS;
        if (q->retry_pause_ms > RETRY_LAST_MS)
            q->retry_pause_ms = RETRY_LAST_MS;
        q->retry_at_ms = now_ms() + q->retry_pause_ms;
        return -1;
    }
    q->retry_pause_ms = 0;
    q->retry_at_ms = 0;
    return 0;
}

/* Whether a call that failed found the connection broken, and may be made
 * again on a new one (nothing of it can have been done). */
static bool worth_again(pg_store *q, bool nothing_done)
{
    return nothing_done && !q->in_transaction && PQstatus(q->conn) != CONNECTION_OK;
}

/* ---- statements ---------------------------------------------------------------- */


void pg_param_text(params *p, const char *text)
{
    p->value[p->n] = text;
    p->length[p->n] = 0;
    p->format[p->n++] = 0;
}

void pg_param_int(params *p, int64_t v)
{
    snprintf(p->number[p->n], sizeof p->number[p->n], "%lld", (long long)v);
    pg_param_text(p, p->number[p->n]);
}

void pg_param_bytes(params *p, const uint8_t *bytes, int length)
{
    p->value[p->n] = (const char *)bytes;
    p->length[p->n] = length;
    p->format[p->n++] = 1;
}

static PGresult *run_once(pg_store *q, int which, const params *p)
{
    char name[16];
    snprintf(name, sizeof name, "tengen_%d", which);
    if (!q->prepared[which]) {
        PGresult *r = PQprepare(q->conn, name, sql_text[which], 0, NULL);
        bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            pg_keep_result_error(q, r);
        PQclear(r);
        if (!ok)
            return NULL;
        q->prepared[which] = true;
    }
    PGresult *r = PQexecPrepared(q->conn, name, p ? p->n : 0, p ? p->value : NULL,
                                 p ? p->length : NULL, p ? p->format : NULL, 0);
    if (!r)
        pg_keep_error(q, PQerrorMessage(q->conn));
    return r;
}

/* Run statement `which` with values p: its result when it has the status
 * wanted (to PQclear), else NULL with the error kept. */
PGresult *pg_run(pg_store *q, int which, const params *p, ExecStatusType want)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        if (ensure_connected(q) != 0)
            return NULL;
        PGresult *r = run_once(q, which, p);
        if (r && PQresultStatus(r) == want)
            return r;
        if (r) /* a failed PQprepare kept its own */
            pg_keep_result_error(q, r);
        PQclear(r);
        if (!worth_again(q, which >= Q_FIRST_READ_))
            break;
    }
    return NULL;
}

/* A statement that returns no rows: 0, or 1 when it touched none. */
int pg_run_command(pg_store *q, int which, const params *p)
{
    PGresult *r = pg_run(q, which, p, PGRES_COMMAND_OK);
    if (!r)
        return -1;
    int rc = strcmp(PQcmdTuples(r), "0") == 0 ? 1 : 0;
    PQclear(r);
    return rc;
}

/* Plain SQL of our own with no values (transactions, migrations). */
int pg_exec_sql(pg_store *q, const char *sql)
{
    PGresult *r = PQexec(q->conn, sql);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK ? 0 : -1;
    if (rc != 0)
        pg_keep_result_error(q, r);
    PQclear(r);
    return rc;
}

void pg_copy_value(char *dst, size_t len, const PGresult *r, int row, int col)
{
    snprintf(dst, len, "%s", PQgetvalue(r, row, col));
}

int64_t pg_int_value(const PGresult *r, int row, int col)
{
    return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

bool pg_bool_value(const PGresult *r, int row, int col) { return PQgetvalue(r, row, col)[0] == 't'; }

/* ---- transactions -------------------------------------------------------------- */

static int pg_begin(store *s)
{
    pg_store *q = P(s);
    for (int attempt = 0; attempt < 2; attempt++) {
        if (ensure_connected(q) != 0)
            return -1;
        if (pg_exec_sql(q, "BEGIN") == 0) {
            q->in_transaction = true;
            return 0;
        }
        if (!worth_again(q, true))
            break;
    }
    return -1;
}

int pg_commit(store *s)
{
    pg_store *q = P(s);
    if (!q->in_transaction || PQstatus(q->conn) != CONNECTION_OK) {
        q->in_transaction = false;
        pg_keep_error(q, "the connection was lost in a transaction: nothing of it was kept");
        return -1;
    }
    q->in_transaction = false;
    PGresult *r = PQexec(q->conn, "COMMIT");
    int rc = -1;
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        pg_keep_result_error(q, r);
    else if (strcmp(PQcmdStatus(r), "COMMIT") != 0) /* an aborted transaction ends in ROLLBACK */
        pg_keep_error(q, "the transaction failed and was rolled back");
    else
        rc = 0;
    PQclear(r);
    return rc;
}

static int pg_rollback(store *s)
{
    pg_store *q = P(s);
    q->in_transaction = false;
    /* a broken connection's transaction ended with it; a failed COMMIT
     * ended its own */
    if (PQstatus(q->conn) != CONNECTION_OK || PQtransactionStatus(q->conn) == PQTRANS_IDLE)
        return 0;
    return pg_exec_sql(q, "ROLLBACK");
}

/* Nothing is held between calls (no snapshot outside a transaction); a
 * connection that broke is made again meanwhile. */
static void pg_idle(store *s)
{
    pg_store *q = P(s);
    if (!q->in_transaction && PQstatus(q->conn) != CONNECTION_OK)
        ensure_connected(q);
}

/* ---- accounts -------------------------------------------------------------------- */

static int pg_user_add(store *s, const store_user *u, int64_t *id)
{
    params p = {0};
    pg_param_text(&p, u->name);
    pg_param_text(&p, u->password_hash);
    pg_param_text(&p, u->guest ? "true" : "false");
    PGresult *r = pg_run(P(s), Q_USER_ADD, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rc = PQntuples(r) == 1 ? 0 : 1;
    if (rc == 0)
        *id = pg_int_value(r, 0, 0);
    PQclear(r);
    return rc;
}

static int read_user(PGresult *r, store_user *out)
{
    if (!r)
        return -1;
    int rc = PQntuples(r) == 0 ? 1 : 0;
    if (rc == 0) {
        out->id = pg_int_value(r, 0, 0);
        pg_copy_value(out->name, sizeof out->name, r, 0, 1);
        pg_copy_value(out->password_hash, sizeof out->password_hash, r, 0, 2);
        out->guest = pg_bool_value(r, 0, 3);
    }
    PQclear(r);
    return rc;
}

static int pg_user_by_name(store *s, const char *name, store_user *out)
{
    params p = {0};
    pg_param_text(&p, name);
    return read_user(pg_run(P(s), Q_USER_BY_NAME, &p, PGRES_TUPLES_OK), out);
}

static int pg_user_by_id(store *s, int64_t id, store_user *out)
{
    params p = {0};
    pg_param_int(&p, id);
    return read_user(pg_run(P(s), Q_USER_BY_ID, &p, PGRES_TUPLES_OK), out);
}

static int pg_token_add(store *s, const uint8_t hash[32], int64_t user)
{
    params p = {0};
    pg_param_bytes(&p, hash, 32);
    pg_param_int(&p, user);
    return pg_run_command(P(s), Q_TOKEN_ADD, &p) == 0 ? 0 : -1;
}

static int pg_token_user(store *s, const uint8_t hash[32], int64_t *user)
{
    params p = {0};
    pg_param_bytes(&p, hash, 32);
    PGresult *r = pg_run(P(s), Q_TOKEN_USER, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rc = PQntuples(r) == 0 ? 1 : 0;
    if (rc == 0)
        *user = pg_int_value(r, 0, 0);
    PQclear(r);
    return rc;
}

static int pg_tokens_revoke(store *s, int64_t user)
{
    params p = {0};
    pg_param_int(&p, user);
    return pg_run_command(P(s), Q_TOKENS_REVOKE, &p) < 0 ? -1 : 0;
}

/* ---- games ----------------------------------------------------------------------- */

static int pg_game_add(store *s, const store_game *g)
{
    params p = {0};
    pg_param_int(&p, g->black);
    pg_param_int(&p, g->white);
    pg_param_text(&p, g->black_name);
    pg_param_text(&p, g->white_name);
    pg_param_text(&p, g->black_engine);
    pg_param_text(&p, g->white_engine);
    pg_param_text(&p, g->nigiri);
    pg_param_text(&p, g->settings_json);
    pg_param_int(&p, g->created_unix_ms);
    pg_param_int(&p, g->id);
    int rc = pg_run_command(P(s), Q_GAME_ADD, &p);
    if (rc == 1)
        pg_keep_error(P(s), "a game with that id exists");
    return rc;
}

static int pg_event_add(store *s, int64_t game, const store_event *e)
{
    params p = {0};
    pg_param_int(&p, game);
    pg_param_int(&p, e->seq);
    pg_param_int(&p, e->at_ms);
    pg_param_text(&p, e->kind);
    pg_param_text(&p, e->data_json);
    return pg_run_command(P(s), Q_EVENT_ADD, &p);
}

static int pg_game_finish(store *s, int64_t game, const char *result, int moves, const char *sgf,
                          const char *state_json)
{
    params p = {0};
    pg_param_int(&p, game);
    pg_param_text(&p, result);
    pg_param_text(&p, sgf);
    pg_param_int(&p, moves);
    pg_param_text(&p, state_json); /* NULL stays NULL */
    return pg_run_command(P(s), Q_GAME_FINISH, &p) < 0 ? -1 : 0;
}

static int pg_game_swap_colors(store *s, int64_t game)
{
    params p = {0};
    pg_param_int(&p, game);
    return pg_run_command(P(s), Q_GAME_SWAP, &p) < 0 ? -1 : 0;
}

static int read_game(const PGresult *r, int row, store_game *g)
{
    memset(g, 0, sizeof *g);
    g->id = pg_int_value(r, row, 0);
    g->black = pg_int_value(r, row, 1);
    g->white = pg_int_value(r, row, 2);
    pg_copy_value(g->black_name, sizeof g->black_name, r, row, 3);
    pg_copy_value(g->white_name, sizeof g->white_name, r, row, 4);
    pg_copy_value(g->black_engine, sizeof g->black_engine, r, row, 5);
    pg_copy_value(g->white_engine, sizeof g->white_engine, r, row, 6);
    pg_copy_value(g->nigiri, sizeof g->nigiri, r, row, 7);
    g->settings_json = strdup(PQgetvalue(r, row, 8));
    g->created_unix_ms = pg_int_value(r, row, 9);
    g->finished = pg_bool_value(r, row, 10);
    pg_copy_value(g->result, sizeof g->result, r, row, 11);
    g->moves = (int)pg_int_value(r, row, 12);
    return g->settings_json ? 0 : -1;
}

static int pg_games_list(store *s, bool finished, int64_t user, int limit, store_game **out,
                         int *count)
{
    params p = {0};
    int which = user > 0 ? Q_GAMES_USER : finished ? Q_GAMES_FINISHED : Q_GAMES_LIVE;
    *out = NULL;
    *count = 0;
    if (which != Q_GAMES_LIVE) {
        if (limit >= 0)
            pg_param_int(&p, limit);
        else
            pg_param_text(&p, NULL); /* LIMIT NULL: all, as SQLite's negative limit */
    }
    if (which == Q_GAMES_USER)
        pg_param_int(&p, user);
    PGresult *r = pg_run(P(s), which, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rows = PQntuples(r), rc = 0;
    store_game *games = rows ? calloc((size_t)rows, sizeof *games) : NULL;
    if (rows && !games)
        rc = -1;
    int n = 0;
    while (rc == 0 && n < rows && read_game(r, n, &games[n]) == 0)
        n++;
    if (n < rows)
        rc = -1;
    PQclear(r);
    *out = games;
    *count = n;
    return rc;
}

static int pg_game_get(store *s, int64_t id, store_game *out)
{
    params p = {0};
    pg_param_int(&p, id);
    PGresult *r = pg_run(P(s), Q_GAME_GET, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rc = PQntuples(r) == 0 ? 1 : read_game(r, 0, out);
    PQclear(r);
    return rc;
}

static int pg_events(store *s, int64_t game, store_event **out, int *count)
{
    params p = {0};
    pg_param_int(&p, game);
    *out = NULL;
    *count = 0;
    PGresult *r = pg_run(P(s), Q_EVENTS, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rows = PQntuples(r), n = 0;
    store_event *events = rows ? calloc((size_t)rows, sizeof *events) : NULL;
    for (; events && n < rows; n++) {
        store_event *e = &events[n];
        e->seq = (int)pg_int_value(r, n, 0);
        e->at_ms = pg_int_value(r, n, 1);
        pg_copy_value(e->kind, sizeof e->kind, r, n, 2);
        if (!(e->data_json = strdup(PQgetvalue(r, n, 3))))
            break;
    }
    PQclear(r);
    *out = events;
    *count = n;
    return n == rows ? 0 : -1;
}

/* One text column of one row: 0, 1 when there is none. */
static int read_text(store *s, int which, int64_t id, char **out)
{
    params p = {0};
    pg_param_int(&p, id);
    PGresult *r = pg_run(P(s), which, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rc = 1;
    if (PQntuples(r) > 0) {
        *out = strdup(PQgetvalue(r, 0, 0));
        rc = *out ? 0 : -1;
    }
    PQclear(r);
    return rc;
}

static int pg_game_sgf(store *s, int64_t game, char **sgf) { return read_text(s, Q_GAME_SGF, game, sgf); }

static int pg_game_state(store *s, int64_t game, char **state)
{
    return read_text(s, Q_GAME_STATE, game, state);
}

static int pg_max_ids(store *s, int64_t *game, int64_t *challenge)
{
    PGresult *r = pg_run(P(s), Q_MAX_IDS, NULL, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rc = PQntuples(r) == 1 ? 0 : -1;
    if (rc == 0) {
        *game = pg_int_value(r, 0, 0);
        *challenge = pg_int_value(r, 0, 1);
    }
    PQclear(r);
    return rc;
}

/* ---- challenges ------------------------------------------------------------------- */

static int pg_challenge_add(store *s, const store_challenge *c)
{
    params p = {0};
    pg_param_int(&p, c->id);
    pg_param_int(&p, c->challenger);
    pg_param_text(&p, c->challenger_name);
    pg_param_text(&p, c->opponent);
    pg_param_text(&p, c->settings_json);
    pg_param_int(&p, c->created_unix_ms);
    return pg_run_command(P(s), Q_CHALLENGE_ADD, &p) < 0 ? -1 : 0;
}

static int pg_challenge_remove(store *s, int64_t id)
{
    params p = {0};
    pg_param_int(&p, id);
    return pg_run_command(P(s), Q_CHALLENGE_REMOVE, &p);
}

static int pg_challenges_list(store *s, store_challenge **out, int *count)
{
    *out = NULL;
    *count = 0;
    PGresult *r = pg_run(P(s), Q_CHALLENGES, NULL, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rows = PQntuples(r), n = 0;
    store_challenge *list = rows ? calloc((size_t)rows, sizeof *list) : NULL;
    for (; list && n < rows; n++) {
        store_challenge *c = &list[n];
        c->id = pg_int_value(r, n, 0);
        c->challenger = pg_int_value(r, n, 1);
        pg_copy_value(c->challenger_name, sizeof c->challenger_name, r, n, 2);
        pg_copy_value(c->opponent, sizeof c->opponent, r, n, 3);
        c->created_unix_ms = pg_int_value(r, n, 5);
        if (!(c->settings_json = strdup(PQgetvalue(r, n, 4))))
            break;
    }
    PQclear(r);
    *out = list;
    *count = n;
    return n == rows ? 0 : -1;
}

static const store_ops pg_ops = {
    pg_close, pg_error, pg_begin, pg_commit, pg_rollback, pg_user_add, pg_user_by_name,
    pg_user_by_id, pg_token_add, pg_token_user, pg_tokens_revoke, pg_game_add, pg_event_add,
    pg_game_finish, pg_game_swap_colors, pg_games_list, pg_game_get, pg_events, pg_game_sgf,
    pg_game_state, pg_max_ids, pg_challenge_add, pg_challenge_remove, pg_challenges_list,
    pg_ids_take, pg_notify, pg_rating_lock, pg_rating_put, pg_rating_get, pg_rating_history,
    pg_doc_new_id, pg_doc_put, pg_doc_get, pg_doc_list, pg_idle,
};

/* ---- opening and migrating ------------------------------------------------------- */

/* libpq's settings: the URL's (or the PG* variables') win over the
 * defaults before it (a database host that vanished is noticed within
 * about a minute, not the system's two hours); the encoding after it is
 * ours. */
PGconn *store_pg_connect(const char *url)
{
    const char *timeout = getenv("PGCONNECT_TIMEOUT") ? "" : "10";
    const char *keys[] = {"connect_timeout", "keepalives_idle", "keepalives_interval",
                          "keepalives_count", "application_name", "dbname", "client_encoding", NULL};
    const char *values[] = {timeout, "30", "10", "3", "tengen", url, "UTF8", NULL};
    return PQconnectdbParams(keys, values, 1);
}

static store *open_store(const char *url, int *found, char *err, size_t errlen)
{
    pg_store *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    q->base.ops = &pg_ops;
    q->base.shared = true;
    q->conn = store_pg_connect(url);
    if (!q->conn) {
        snprintf(err, errlen, "PostgreSQL: out of memory");
        free(q);
        return NULL;
    }
    PQsetNoticeReceiver(q->conn, ignore_notice, NULL);
    if (PQstatus(q->conn) != CONNECTION_OK)
        pg_keep_error(q, PQerrorMessage(q->conn));
    else if (pg_migrate(q, found) == 0)
        return &q->base;
    snprintf(err, errlen, "%s", q->error);
    pg_close(&q->base);
    return NULL;
}

store *store_pg_open(const char *url, char *err, size_t errlen)
{
    int found;
    return open_store(url, &found, err, errlen);
}

int store_pg_migrate(const char *url, int *before, int *after, char *err, size_t errlen)
{
    store *s = open_store(url, before, err, errlen);
    if (!s)
        return -1;
    store_close(s);
    *after = PG_SCHEMA_VERSION;
    return 0;
}
