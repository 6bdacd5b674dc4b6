/*
 * store_pg_shared.c — what several nodes on one PostgreSQL share (ids in
 * blocks, notifications inside the writing transaction), and the ratings
 * (rows locked by the transaction that rates a game).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_pg_internal.h"

/* ---- what nodes share --------------------------------------------------------------- */

int pg_ids_take(store *s, const char *kind, int count, int64_t *first)
{
    params p = {0};
    pg_param_text(&p, kind);
    pg_param_int(&p, count);
    PGresult *r = pg_run(P(s), Q_IDS_TAKE, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rc = PQntuples(r) == 1 ? 0 : -1;
    if (rc == 0)
        *first = pg_int_value(r, 0, 0);
    else
        pg_keep_error(P(s), "no id block of that kind");
    PQclear(r);
    return rc;
}

int pg_notify(store *s, const char *payload)
{
    params p = {0};
    pg_param_text(&p, payload);
    PGresult *r = pg_run(P(s), Q_NOTIFY, &p, PGRES_TUPLES_OK);
    bool ok = r != NULL;
    PQclear(r);
    return ok ? 0 : -1;
}

/* ---- ratings ------------------------------------------------------------------ */

static int read_rating(PGresult *r, store_rating *out)
{
    *out = (store_rating)STORE_RATING_START;
    if (!r)
        return -1;
    int rc = PQntuples(r) == 0 ? 1 : 0;
    if (rc == 0) {
        out->rating = strtod(PQgetvalue(r, 0, 0), NULL);
        out->deviation = strtod(PQgetvalue(r, 0, 1), NULL);
        out->volatility = strtod(PQgetvalue(r, 0, 2), NULL);
        out->games = (int)pg_int_value(r, 0, 3);
    }
    PQclear(r);
    return rc;
}

int pg_rating_lock(store *s, int64_t user, store_rating *out)
{
    params p = {0};
    pg_param_int(&p, user);
    if (pg_run_command(P(s), Q_RATING_MAKE, &p) < 0)
        return -1;
    return read_rating(pg_run(P(s), Q_RATING_LOCK, &p, PGRES_TUPLES_OK), out) == 0 ? 0 : -1;
}

static void param_double(params *p, double v)
{
    snprintf(p->number[p->n], sizeof p->number[p->n], "%.17g", v);
    pg_param_text(p, p->number[p->n]);
}

int pg_rating_put(store *s, int64_t user, int64_t game, int64_t at, const store_rating *r)
{
    params p = {0};
    pg_param_int(&p, user);
    param_double(&p, r->rating);
    param_double(&p, r->deviation);
    param_double(&p, r->volatility);
    pg_param_int(&p, r->games);
    pg_param_int(&p, at);
    if (pg_run_command(P(s), Q_RATING_PUT, &p) != 0)
        return -1;
    params h = {0};
    pg_param_int(&h, user);
    pg_param_int(&h, game);
    pg_param_int(&h, at);
    param_double(&h, r->rating);
    param_double(&h, r->deviation);
    return pg_run_command(P(s), Q_RATING_POINT, &h) < 0 ? -1 : 0;
}

int pg_rating_get(store *s, int64_t user, store_rating *out)
{
    params p = {0};
    pg_param_int(&p, user);
    return read_rating(pg_run(P(s), Q_RATING_GET, &p, PGRES_TUPLES_OK), out);
}

int pg_rating_history(store *s, int64_t user, int limit, store_rating_point **out, int *count)
{
    *out = NULL;
    *count = 0;
    params p = {0};
    pg_param_int(&p, user);
    pg_param_int(&p, limit);
    PGresult *r = pg_run(P(s), Q_RATING_HISTORY, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rows = PQntuples(r);
    store_rating_point *list = rows ? calloc((size_t)rows, sizeof *list) : NULL;
    for (int i = 0; list && i < rows; i++)
        list[i] = (store_rating_point){pg_int_value(r, i, 0), pg_int_value(r, i, 1),
                                       strtod(PQgetvalue(r, i, 2), NULL), strtod(PQgetvalue(r, i, 3), NULL)};
    PQclear(r);
    *out = list;
    *count = list ? rows : 0;
    return rows && !list ? -1 : 0;
}


/* ---- documents ---------------------------------------------------------------- */

int pg_doc_new_id(store *s, const char *kind, int64_t *id)
{
    params p = {0};
    pg_param_text(&p, kind);
    PGresult *r = pg_run(P(s), Q_DOC_NEW_ID, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rc = PQntuples(r) == 1 ? 0 : -1;
    if (rc == 0)
        *id = pg_int_value(r, 0, 0);
    PQclear(r);
    return rc;
}

int pg_doc_put(store *s, const char *kind, int64_t id, const char *summary, const char *body, int64_t at)
{
    params p = {0};
    pg_param_text(&p, kind);
    pg_param_int(&p, id);
    pg_param_text(&p, summary);
    pg_param_text(&p, body);
    pg_param_int(&p, at);
    return pg_run_command(P(s), Q_DOC_PUT, &p) == 0 ? 0 : -1;
}

int pg_doc_get(store *s, const char *kind, int64_t id, bool lock, char **body, int64_t *updated)
{
    *body = NULL;
    params p = {0};
    pg_param_text(&p, kind);
    pg_param_int(&p, id);
    PGresult *r = pg_run(P(s), lock ? Q_DOC_LOCK : Q_DOC_GET, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rc = 1;
    if (PQntuples(r) == 1) {
        rc = (*body = strdup(PQgetvalue(r, 0, 0))) ? 0 : -1;
        if (updated)
            *updated = pg_int_value(r, 0, 1);
    }
    PQclear(r);
    return rc;
}

int pg_doc_list(store *s, const char *kind, int limit, store_doc **out, int *count)
{
    *out = NULL;
    *count = 0;
    params p = {0};
    pg_param_text(&p, kind);
    pg_param_int(&p, limit);
    PGresult *r = pg_run(P(s), Q_DOC_LIST, &p, PGRES_TUPLES_OK);
    if (!r)
        return -1;
    int rows = PQntuples(r), n = 0;
    store_doc *list = rows ? calloc((size_t)rows, sizeof *list) : NULL;
    for (; list && n < rows; n++) {
        list[n].id = pg_int_value(r, n, 0);
        list[n].updated_unix_ms = pg_int_value(r, n, 1);
        if (!(list[n].summary = strdup(PQgetvalue(r, n, 2))))
            break;
    }
    PQclear(r);
    *out = list;
    *count = n;
    return n == rows ? 0 : -1;
}
