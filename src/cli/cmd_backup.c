/*
 * cmd_backup.c — `tengen backup`: a copy of tengen serve's database taken
 * while the server runs, and the restore of one.  The copying, checking
 * and locking are the store's (src/server/store_backup.c); this file reads
 * the command line, keeps the database a restore replaces, and says what
 * happened.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_options.h"
#include "commands.h"
#include "server/store.h"

static const char backup_synopsis[] =
    "usage: tengen backup --db FILE [--keep N] OUT\n"
    "       tengen backup --restore BACKUP --db FILE [--force]\n\n"
    "A consistent copy of tengen serve's database, taken while the server runs\n"
    "(SQLite's online backup: players are not held up), checked with SQLite's\n"
    "integrity check and written to OUT through a temporary file renamed into\n"
    "place when whole. OUT is a file, or a folder where the copy is named\n"
    "tengen-YYYYMMDD-HHMMSS.db (UTC). The copy is one self-contained file,\n"
    "readable by tengen serve --db and by any SQLite tool.\n\n";
static const char backup_epilogue[] =
    "A restore refuses a database that a process has open: stop tengen serve\n"
    "first (systemctl stop tengen). It checks BACKUP, keeps the database it\n"
    "replaces as FILE.before-restore-YYYYMMDD-HHMMSS, and replaces its contents\n"
    "in one transaction; an older schema is migrated by tengen serve at its\n"
    "next start. Run it as the user the server runs as (sudo -u tengen), so\n"
    "that the server can still write the files.\n"
    "Exit status: 0 done, 1 failed or refused, 2 bad usage.\n";

typedef struct backup_options {
    const char *db, *out, *restore;
    int keep;
    bool force, quiet;
} backup_options;

static void print_size(FILE *f, long long bytes)
{
    if (bytes >= 10LL << 20)
        fprintf(f, "%.1f MiB", bytes / 1048576.0);
    else
        fprintf(f, "%.1f KiB", bytes / 1024.0);
}

static void print_report(const char *what, const store_copy_report *r)
{
    printf("tengen backup: %s %s: schema version %d, %lld users, %lld games, %lld pages (", what,
           r->path, r->schema_version, r->users, r->games, r->pages);
    print_size(stdout, r->bytes);
    printf("), integrity ok\n");
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, backup_options *o)
{
    *o = (backup_options){0};
    int outs = 0;
    const cli_option options[] = {
        {"--db", NULL, CLI_TEXT, "FILE", 0, 0, NULL, NULL, NULL, &o->db,
         "the database of tengen serve (its --db; the Debian package's\n"
         "service uses /var/lib/tengen/tengen.db)"},
        {"--keep", NULL, CLI_INT, "N", 1, 100000, NULL, NULL, NULL, &o->keep,
         "with OUT a folder: keep the N newest copies there\n"
         "(tengen-*.db) and remove older ones"},
        {"--restore", NULL, CLI_TEXT, "BACKUP", 0, 0, NULL, NULL, NULL, &o->restore,
         "put the contents of BACKUP (a copy made by tengen backup)\n"
         "in the database --db FILE instead of copying it"},
        {"--force", NULL, CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &o->force,
         "restore even though a process has the database open (a\n"
         "running tengen serve must then be restarted at once: what\n"
         "it holds in memory no longer matches the file), or the\n"
         "database replaced cannot be kept"},
        {"--quiet", "-q", CLI_FLAG, NULL, 0, 0, NULL, NULL, NULL, &o->quiet, "print only errors"},
    };
    const cli_command cmd = {"backup", backup_synopsis, backup_epilogue, options, CLI_COUNT(options),
                             &o->out, 1, &outs};
    int r = cli_parse(&cmd, argc, argv);
    if (r)
        return r == CLI_HELP ? 0 : 2;
    if (!o->db)
        return cli_usage_error(&cmd, "give the database with --db FILE (see tengen backup --help)");
    if (o->restore && (outs || o->keep))
        return cli_usage_error(&cmd, "--restore takes no OUT and no --keep");
    if (!o->restore && !outs)
        return cli_usage_error(&cmd, "give OUT, the file or folder of the copy");
    if (!o->restore && o->force)
        return cli_usage_error(&cmd, "--force goes with --restore");
    return -1;
}

static int backup(const backup_options *o)
{
    char err[4096 + 256];
    store_copy_report r;
    if (store_sqlite_backup(o->db, o->out, o->keep, &r, err, sizeof err) != 0) {
        fprintf(stderr, "tengen backup: %s\n", err);
        return 1;
    }
    if (!o->quiet)
        print_report("wrote", &r);
    return 0;
}

/* The database a restore replaces, copied beside it first. */
static int keep_replaced(const backup_options *o, store_copy_report *kept)
{
    char err[4096 + 256], name[4096];
    struct stat st;
    if (stat(o->db, &st) != 0 || st.st_size == 0)
        return 0;
    time_t now = time(NULL);
    struct tm utc;
    char stamp[32];
    gmtime_r(&now, &utc);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    snprintf(name, sizeof name, "%s.before-restore-%s", o->db, stamp);
    if (store_sqlite_backup(o->db, name, 0, kept, err, sizeof err) == 0)
        return 1;
    fprintf(stderr, "tengen backup: cannot keep the database replaced: %s\n", err);
    if (!o->force) {
        fprintf(stderr, "tengen backup: nothing restored (--force restores without keeping it)\n");
        return -1;
    }
    return 0;
}

static int restore(const backup_options *o)
{
    char err[4096 + 256];
    int in_use = store_sqlite_in_use(o->db, err, sizeof err);
    if (in_use < 0) {
        fprintf(stderr, "tengen backup: %s\n", err);
        return 1;
    }
    if (in_use && !o->force) {
        fprintf(stderr, "tengen backup: %s: stop tengen serve first (systemctl stop tengen);"
                        " nothing restored\n", err);
        return 1;
    }
    if (in_use)
        fprintf(stderr, "tengen backup: %s: restoring anyway (--force): restart it now\n", err);
    store_copy_report kept, r;
    int have_kept = keep_replaced(o, &kept);
    if (have_kept < 0)
        return 1;
    if (store_sqlite_restore(o->restore, o->db, &r, err, sizeof err) != 0) {
        fprintf(stderr, "tengen backup: %s\n", err);
        return 1;
    }
    if (o->quiet)
        return 0;
    if (have_kept)
        print_report("kept the database replaced as", &kept);
    print_report("restored", &r);
    if (r.schema_version < STORE_SCHEMA_VERSION)
        printf("tengen backup: tengen serve migrates it to schema version %d at its next start\n",
               STORE_SCHEMA_VERSION);
    return 0;
}

int cmd_backup(int argc, char **argv)
{
    backup_options o;
    int r = parse_args(argc, argv, &o);
    if (r >= 0)
        return r;
    return o.restore ? restore(&o) : backup(&o);
}
