/*
 * store_backup.c — copies of the SQLite store while servers use it
 * (`tengen backup`), and restores from them.
 *
 * A copy is SQLite's online backup API between two connections.  The
 * source connection holds one read transaction for the whole copy, so
 * every page comes from one snapshot: a server committing meanwhile never
 * makes the copy start over, and in WAL mode (the store's) a reader never
 * holds up a writer; it only keeps checkpoints from passing its snapshot
 * until it ends.  The pages go over a few at a time with a pause between,
 * so that the copy's reads do not crowd out the server's.  The copy is
 * written under a temporary name beside its destination, checked (PRAGMA
 * integrity_check, the schema version), turned into a self-contained file
 * (journal_mode DELETE: no -wal beside it to lose) and only then renamed
 * into place, so a destination is either the previous copy or a whole new
 * one.
 */
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
    PAGES_PER_STEP = 128,     /* 512 KiB at SQLite's default page size */
    PAUSE_MS = 5,             /* between two steps */
    BUSY_MS = 10000,          /* the longest wait for another connection's lock */
};

/* The name of a dated copy in a folder: tengen-YYYYMMDD-HHMMSS.db */
#define COPY_PREFIX "tengen-"
#define COPY_SUFFIX ".db"
#define COPY_NAME_LEN 25

static void pause_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

static int db_error(char *err, size_t errlen, const char *path, sqlite3 *db)
{
    snprintf(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
    return -1;
}

/* The first column of the first row of sql, as an integer. */
static int query_int(sqlite3 *db, const char *sql, long long *out)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

/* PRAGMA integrity_check answers one row "ok", or rows naming problems. */
static int check_integrity(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK)
        return db_error(err, errlen, path, db);
    int rc = sqlite3_step(st);
    const unsigned char *first = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
    int ok = first && strcmp((const char *)first, "ok") == 0;
    if (!ok)
        snprintf(err, errlen, "%s: integrity check failed: %s", path,
                 first ? (const char *)first : sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return ok ? 0 : -1;
}

/* The checks of a copy or of a file to restore: whole, and a tengen store
 * (its schema version as store_sqlite_migrate's *before; rows counted). */
static int check_store(sqlite3 *db, const char *path, store_copy_report *r, char *err,
                       size_t errlen)
{
    if (check_integrity(db, path, err, errlen) != 0)
        return -1;
    long long tables = 0, version = 0, page_size = 0;
    if (query_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN"
                      " ('users', 'games', 'events')", &tables) != 0 ||
        query_int(db, "PRAGMA user_version", &version) != 0 ||
        query_int(db, "PRAGMA page_size", &page_size) != 0 ||
        query_int(db, "PRAGMA page_count", &r->pages) != 0)
        return db_error(err, errlen, path, db);
    if (tables != 3) {
        snprintf(err, errlen, "%s: not a database of tengen serve (no users, games and events)",
                 path);
        return -1;
    }
    r->schema_version = version < 1 ? 1 : (int)version;
    r->bytes = r->pages * page_size;
    if (query_int(db, "SELECT count(*) FROM users", &r->users) != 0 ||
        query_int(db, "SELECT count(*) FROM games", &r->games) != 0)
        return db_error(err, errlen, path, db);
    return 0;
}

/* Every page of src's main database into dst's: pages_per_step at a time
 * (-1: all at once) with pause_ms between steps, waiting out locks that
 * others hold for at most BUSY_MS in all. */
static int copy_pages(sqlite3 *src, sqlite3 *dst, int pages_per_step, int pause,
                      const char *dst_path, char *err, size_t errlen)
{
    sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
    if (!b)
        return db_error(err, errlen, dst_path, dst);
    int rc, waited = 0;
    while ((rc = sqlite3_backup_step(b, pages_per_step)) != SQLITE_DONE) {
        if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
            if (waited >= BUSY_MS)
                break;
            waited += PAUSE_MS;
            pause_ms(PAUSE_MS);
        } else if (rc != SQLITE_OK) {
            break;
        } else if (pause > 0) {
            pause_ms(pause);
        }
    }
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
        snprintf(err, errlen, "%s: the copy failed: %s", dst_path, sqlite3_errstr(rc));
        return -1;
    }
    return 0;
}

static void remove_with_journals(const char *path)
{
    static const char *const suffixes[] = {"", "-journal", "-wal", "-shm"};
    char name[PATH_MAX + 16];
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        snprintf(name, sizeof name, "%s%s", path, suffixes[i]);
        unlink(name);
    }
}

/* What is renamed is on disk, and so is the rename. */
static int sync_path(const char *path, int flags)
{
    int fd = open(path, flags);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

static void dir_of(const char *path, char *dir, size_t len)
{
    snprintf(dir, len, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
}

static int is_copy_name(const char *name)
{
    if (strlen(name) != COPY_NAME_LEN || strncmp(name, COPY_PREFIX, 7) != 0 ||
        strcmp(name + COPY_NAME_LEN - 3, COPY_SUFFIX) != 0 || name[15] != '-')
        return 0;
    for (int i = 7; i < COPY_NAME_LEN - 3; i++)
        if (i != 15 && (name[i] < '0' || name[i] > '9'))
            return 0;
    return 1;
}

static int newest_first(const void *a, const void *b)
{
    return strcmp(*(char *const *)b, *(char *const *)a);
}

/* Only the keep newest dated copies stay in dir (never the one just made). */
static void prune_copies(const char *dir, int keep, const char *made)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_copy_name(e->d_name))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown)
                break;
            names = grown;
        }
        if ((names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, newest_first);
    char path[PATH_MAX + COPY_NAME_LEN + 2];
    for (size_t i = 0; i < n; i++) {
        if (i >= (size_t)keep && strcmp(names[i], made) != 0) {
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            unlink(path);
        }
        free(names[i]);
    }
    free(names);
}

/* Where a copy goes: out_path itself (0), or a dated name in the folder it
 * names (1); -1 with err. */
static int copy_target(const char *out_path, int keep, store_copy_report *r, char *err,
                       size_t errlen)
{
    struct stat st;
    if (stat(out_path, &st) == 0 && S_ISDIR(st.st_mode)) {
        time_t now = time(NULL);
        struct tm utc;
        char name[32];
        gmtime_r(&now, &utc);
        strftime(name, sizeof name, COPY_PREFIX "%Y%m%d-%H%M%S" COPY_SUFFIX, &utc);
        if ((size_t)snprintf(r->path, sizeof r->path, "%s/%s", out_path, name) >= sizeof r->path) {
            snprintf(err, errlen, "%s: the path is too long", out_path);
            return -1;
        }
        return 1;
    }
    if (keep > 0) {
        snprintf(err, errlen, "%s: keeping several copies needs a folder", out_path);
        return -1;
    }
    if ((size_t)snprintf(r->path, sizeof r->path, "%s", out_path) >= sizeof r->path) {
        snprintf(err, errlen, "%s: the path is too long", out_path);
        return -1;
    }
    return 0;
}

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* The source, opened for a copy: an existing file (never made here), read
 * from one snapshot until the connection is closed. */
static sqlite3 *open_snapshot(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    sqlite3 *db = NULL;
    /* read-write so that the WAL's shared memory can be made when no
     * server has the file open; SQLite falls back to read-only by itself
     * on a file it may not write */
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        db_error(err, errlen, path, db);
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, BUSY_MS);
    long long tables;
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
        query_int(db, "SELECT count(*) FROM sqlite_master", &tables) != 0) {
        db_error(err, errlen, path, db);
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

/* src's snapshot into a new file at tmp, made self-contained and checked. */
static int write_copy(sqlite3 *src, const char *tmp, store_copy_report *r, char *err,
                      size_t errlen)
{
    sqlite3 *dst = NULL;
    int rc = -1;
    if (sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
        db_error(err, errlen, tmp, dst);
    else if (copy_pages(src, dst, PAGES_PER_STEP, PAUSE_MS, tmp, err, errlen) == 0) {
        /* the copied header says WAL, as the source's: a copy is one file */
        if (sqlite3_exec(dst, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) != SQLITE_OK)
            db_error(err, errlen, tmp, dst);
        else
            rc = check_store(dst, tmp, r, err, errlen);
    }
    if (sqlite3_close(dst) != SQLITE_OK && rc == 0)
        rc = db_error(err, errlen, tmp, dst);
    return rc;
}

/* A PostgreSQL database is PostgreSQL's to copy. */
static bool refused_postgres(const char *db_path, char *err, size_t errlen)
{
    if (store_is_postgres(db_path))
        snprintf(err, errlen, "a PostgreSQL database: copy it with pg_dump (this copies SQLite files)");
    return store_is_postgres(db_path);
}

int store_sqlite_backup(const char *db_path, const char *out_path, int keep,
                        store_copy_report *report, char *err, size_t errlen)
{
    memset(report, 0, sizeof *report);
    if (refused_postgres(db_path, err, errlen))
        return -1;
    int in_folder = copy_target(out_path, keep, report, err, errlen);
    if (in_folder < 0)
        return -1;
    if (same_file(db_path, report->path)) {
        snprintf(err, errlen, "%s: the copy would overwrite the database itself", report->path);
        return -1;
    }
    char tmp[sizeof report->path + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", report->path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        return -1;
    }
    close(fd);
    sqlite3 *src = open_snapshot(db_path, err, errlen);
    int rc = src ? write_copy(src, tmp, report, err, errlen) : -1;
    sqlite3_close(src); /* ends the read snapshot (it wrote nothing) */
    char dir[sizeof report->path];
    dir_of(report->path, dir, sizeof dir);
    if (rc == 0 && (sync_path(tmp, O_RDONLY) != 0 || rename(tmp, report->path) != 0 ||
                    sync_path(dir, O_RDONLY | O_DIRECTORY) != 0)) {
        snprintf(err, errlen, "%s: %s", report->path, strerror(errno));
        rc = -1;
    }
    if (rc != 0) {
        remove_with_journals(tmp);
        return -1;
    }
    if (in_folder && keep > 0)
        prune_copies(out_path, keep, report->path + strlen(report->path) - COPY_NAME_LEN);
    return 0;
}

int store_sqlite_in_use(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    /* In WAL mode every connection holds a read lock on the dead-man
     * switch byte of the -shm file (offset 128; sqlite.org/walformat.html,
     * "the DMS lock") for as long as it is open, busy or idle.  F_GETLK
     * asks whether another process holds a lock there without taking it. */
    char shm[PATH_MAX + 8];
    snprintf(shm, sizeof shm, "%s-shm", path);
    int fd = open(shm, O_RDONLY);
    if (fd >= 0) {
        struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 128, .l_len = 1};
        int held = fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type != F_UNLCK;
        close(fd);
        if (held) {
            snprintf(err, errlen, "%s: process %ld has it open", path, (long)lock.l_pid);
            return 1;
        }
    }
    /* a connection in another journal mode shows only while it writes */
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        db_error(err, errlen, path, db);
        sqlite3_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db, 0);
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    int in_use = rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
    if (rc == SQLITE_OK)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    else if (in_use)
        snprintf(err, errlen, "%s: another connection is writing to it", path);
    else
        db_error(err, errlen, path, db);
    sqlite3_close(db);
    return in_use ? 1 : rc == SQLITE_OK ? 0 : -1;
}

int store_sqlite_restore(const char *backup_path, const char *db_path, store_copy_report *report,
                         char *err, size_t errlen)
{
    memset(report, 0, sizeof *report);
    snprintf(report->path, sizeof report->path, "%s", db_path);
    if (refused_postgres(db_path, err, errlen))
        return -1;
    if (same_file(backup_path, db_path)) {
        snprintf(err, errlen, "%s: the backup is the database itself", backup_path);
        return -1;
    }
    sqlite3 *from = NULL, *to = NULL;
    int rc = -1;
    if (sqlite3_open_v2(backup_path, &from, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        db_error(err, errlen, backup_path, from);
    else if (check_store(from, backup_path, report, err, errlen) != 0)
        ;
    else if (report->schema_version > STORE_SCHEMA_VERSION)
        snprintf(err, errlen, "%s: written by a newer tengen (schema version %d, this one %d)",
                 backup_path, report->schema_version, STORE_SCHEMA_VERSION);
    else if (sqlite3_open_v2(db_path, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
             SQLITE_OK)
        db_error(err, errlen, db_path, to);
    else {
        sqlite3_busy_timeout(to, BUSY_MS);
        /* one step: the database is replaced in one transaction */
        if (copy_pages(from, to, -1, 0, db_path, err, errlen) == 0)
            rc = check_store(to, db_path, report, err, errlen);
    }
    sqlite3_close(from);
    if (sqlite3_close(to) != SQLITE_OK && rc == 0)
        rc = db_error(err, errlen, db_path, to);
    return rc;
}
