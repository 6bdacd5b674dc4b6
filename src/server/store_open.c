/*
 * store_open.c — which back end a database's name means: a PostgreSQL
 * connection URI (postgresql://... or postgres://...) opens store_pg.c,
 * anything else is the path of a SQLite file (store_sqlite.c).  SQLite
 * stays the default: the PG* environment variables alone never choose
 * PostgreSQL, they only fill in what a URI leaves out (`--db
 * postgresql://` takes everything from them).
 */
#include "store.h"

#include <stdio.h>
#include <string.h>

bool store_is_postgres(const char *db)
{
    return db && (!strncmp(db, "postgresql://", 13) || !strncmp(db, "postgres://", 11));
}

store *store_open(const char *db, char *err, size_t errlen)
{
    if (!db || !db[0]) {
        snprintf(err, errlen, "no database named: a SQLite file or a postgresql:// URI");
        return NULL;
    }
    return store_is_postgres(db) ? store_pg_open(db, err, errlen) : store_sqlite_open(db, err, errlen);
}

int store_migrate(const char *db, int *before, int *after, char *err, size_t errlen)
{
    if (!db || !db[0]) {
        snprintf(err, errlen, "no database named: a SQLite file or a postgresql:// URI");
        return -1;
    }
    return store_is_postgres(db) ? store_pg_migrate(db, before, after, err, errlen)
                                 : store_sqlite_migrate(db, before, after, err, errlen);
}

/* Append text[0..n) to out (of size len, used *at), cut where full. */
static void append(char *out, size_t len, size_t *at, const char *text, size_t n)
{
    while (n-- > 0 && *at + 1 < len)
        out[(*at)++] = *text++;
    out[*at < len ? *at : len - 1] = '\0';
}

void store_shown_name(const char *db, char *out, size_t len)
{
    if (!len)
        return;
    out[0] = '\0';
    if (!db)
        return;
    if (!store_is_postgres(db)) {
        snprintf(out, len, "%s", db);
        return;
    }
    size_t at = 0;
    const char *authority = strstr(db, "://") + 3;
    size_t authority_len = strcspn(authority, "/?");
    append(out, len, &at, db, (size_t)(authority - db));
    /* user:password@host: the last @ ends the user information */
    const char *sign = NULL;
    for (const char *p = authority; p < authority + authority_len; p++)
        if (*p == '@')
            sign = p;
    const char *colon = sign ? memchr(authority, ':', (size_t)(sign - authority)) : NULL;
    if (colon) {
        append(out, len, &at, authority, (size_t)(colon - authority));
        append(out, len, &at, ":***", 4);
        append(out, len, &at, sign, authority_len - (size_t)(sign - authority));
    } else {
        append(out, len, &at, authority, authority_len);
    }
    /* ...?password=...&...: the value hidden */
    for (const char *p = authority + authority_len; *p;) {
        size_t n = strcspn(p + 1, "?&") + 1;
        if (*p != '/' && !strncmp(p + 1, "password=", 9)) {
            append(out, len, &at, p, 10);
            append(out, len, &at, "***", 3);
        } else {
            append(out, len, &at, p, n);
        }
        p += n;
    }
}
