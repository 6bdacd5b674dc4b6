/*
 * gtp_analyze.c — the analysis commands of `tengen gtp` (see
 * gtp_analyze.h): argument parsing, the search loop that streams info
 * lines until the controller's next line arrives, and the formats.
 *
 *   lz-analyze [COLOR] [INTERVAL] [interval CS] [minmoves N] [maxmoves N]
 *   kata-analyze ... [ownership true|false]
 *
 * answer "=id" on a line of its own, then every INTERVAL centiseconds one
 * line "info move D4 visits 120 winrate 5432 ... pv D4 Q16 info move ..."
 * (all candidates on one line, as Leela Zero and KataGo print them), a last
 * line when the search stops, and the closing empty line once input
 * arrives.  Values are for the side analysed; KataGo's ownership is too
 * (row by row from the top left), GoGui's INFLUENCE is Black's (+1).
 *
 * The search stops after --playouts when that is given (it then waits for
 * the next line).
 *
 *   lz-genmove_analyze [COLOR] [INTERVAL] ...
 *   kata-genmove_analyze [COLOR] [INTERVAL] ...
 *
 * are genmove (the same search limits, pass and resignation, and the move
 * played as genmove plays it, through tg_gtp_genmove_with) streaming the
 * same info lines while the search runs, then a line "play D4" ("play
 * pass", "play resign") and the closing empty line.  Like Leela Zero's and
 * KataGo's, they are ordinary commands: input arriving meanwhile does not
 * stop them, it waits its turn.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "tengen/free_opening.h"
#include "engine_gtp/gtp_analyze.h"
#include "engine_gtp/prediction.h"

#define TICK_SECONDS 0.02       /* how often a search looks for input */
#define NO_LIMIT 1000000000     /* the playouts of an analysis without --playouts */
#define GFX_PLAYOUTS 5000       /* gogui-ownership, tengen-candidates without --playouts */
#define GFX_CANDIDATES 10       /* labels of tengen-candidates */
#define LCB_Z 1.96              /* the lower confidence bound's normal quantile */
#define MAX_ARGS 64

typedef enum analyze_format { FORMAT_LZ, FORMAT_KATA } analyze_format;

typedef struct analyze_request {
    analyze_format format;
    tg_color color;             /* the side to move in the analysis */
    double interval;            /* seconds between info lines; 0: only the last */
    int min_moves;              /* show at least this many candidates, unvisited ones too */
    int max_moves;              /* show at most this many (0: all the search reports) */
    bool ownership;             /* kata-analyze ownership true */
} analyze_request;

typedef struct analysis {
    const gtp_analyzer *analyzer;
    tg_search *search;
    const tg_board *board;      /* of the position searched */
    analyze_request req;
    tg_gtp_reply *reply;
    struct timespec start;
    double next_info;           /* seconds since start */
    int info_playouts;          /* of the last info line sent (-1: none) */
    bool interrupted;           /* input arrived */
} analysis;

/* ---- Arguments -------------------------------------------------------- */

static bool parse_color(const char *s, tg_color *out)
{
    if (!strcasecmp(s, "b") || !strcasecmp(s, "black"))
        *out = TG_BLACK;
    else if (!strcasecmp(s, "w") || !strcasecmp(s, "white"))
        *out = TG_WHITE;
    else
        return false;
    return true;
}

/* A number in [0, max], the whole token. */
static bool parse_number(const char *s, double max, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !(v >= 0 && v <= max))
        return false;
    *out = v;
    return true;
}

static bool parse_bool(const char *s, bool *out)
{
    if (!strcasecmp(s, "true") || !strcmp(s, "1"))
        *out = true;
    else if (!strcasecmp(s, "false") || !strcmp(s, "0"))
        *out = false;
    else
        return false;
    return true;
}

/* KataGo's keys for fields tengen does not compute: accepted (a GUI may
 * send them) and left out of the answer. */
static bool is_ignored_key(const char *key)
{
    static const char *const keys[] = {"ownershipStdev", "movesOwnership", "movesOwnershipStdev",
                                       "pvVisits", "pvEdgeVisits", "rootInfo"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(key, keys[i]))
            return true;
    return false;
}

/* One KEY VALUE pair; NULL when good, else why not. */
static const char *parse_pair(analyze_request *req, const char *key, const char *value)
{
    double x;
    bool flag;
    if (!strcmp(key, "interval")) {
        if (!parse_number(value, 1e7, &x))
            return "syntax error: interval must be centiseconds";
        req->interval = x / 100;
    } else if (!strcmp(key, "minmoves") || !strcmp(key, "maxmoves")) {
        if (!parse_number(value, 1000, &x) || x != floor(x))
            return "syntax error: minmoves and maxmoves take a count";
        *(!strcmp(key, "minmoves") ? &req->min_moves : &req->max_moves) = (int)x;
    } else if (!strcmp(key, "avoid") || !strcmp(key, "allow")) {
        return "avoid and allow are not supported";
    } else if (req->format == FORMAT_KATA && !strcmp(key, "ownership")) {
        if (!parse_bool(value, &req->ownership))
            return "syntax error: ownership must be true or false";
    } else if (req->format == FORMAT_KATA && is_ignored_key(key)) {
        if (!parse_bool(value, &flag))
            return "syntax error: expected true or false";
    } else {
        return "syntax error: unknown key";
    }
    return NULL;
}

/* [COLOR] [INTERVAL] KEY VALUE ...; NULL when good, else why not. */
static const char *parse_request(const tg_game *g, int argc, char **argv, analyze_request *req)
{
    int i = 0;
    double centiseconds;
    req->color = tg_game_to_move(g);
    if (i < argc && parse_color(argv[i], &req->color))
        i++;
    if (i < argc && parse_number(argv[i], 1e7, &centiseconds)) {
        req->interval = centiseconds / 100;
        i++;
    }
    for (; i < argc; i += 2) {
        if (i + 1 == argc)
            return "syntax error: a key without its value";
        const char *why = parse_pair(req, argv[i], argv[i + 1]);
        if (why)
            return why;
    }
    return NULL;
}

/* ---- Info lines ------------------------------------------------------- */

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* The lower confidence bound of a winrate measured over `visits` playouts
 * (normal approximation), which GUIs use to rank moves. */
static double lower_bound(double winrate, int visits)
{
    if (visits <= 0)
        return 0;
    double lcb = winrate - LCB_Z * sqrt(winrate * (1 - winrate) / visits);
    return lcb > 0 ? lcb : 0;
}

static void put_vertex(tg_gtp_reply *reply, const tg_board *b, tg_point p)
{
    char vertex[8];
    tg_point_to_vertex(b, p, vertex);
    tg_gtp_reply_printf(reply, "%s", vertex);
}

static void put_candidate(const analysis *a, const tg_search_candidate *c, int order)
{
    tg_gtp_reply *r = a->reply;
    double lcb = lower_bound(c->winrate, c->visits);
    tg_gtp_reply_printf(r, "%sinfo move ", order ? " " : "");
    put_vertex(r, a->board, c->move);
    if (a->req.format == FORMAT_LZ)
        tg_gtp_reply_printf(r, " visits %d winrate %d prior %d lcb %d order %d pv", c->visits,
                            (int)lround(c->winrate * 10000), (int)lround(c->prior * 10000),
                            (int)lround(lcb * 10000), order);
    else
        tg_gtp_reply_printf(r,
                            " visits %d utility %.6f winrate %.6f scoreMean %.6f scoreLead %.6f"
                            " prior %.6f lcb %.6f order %d pv",
                            c->visits, 2 * c->winrate - 1, c->winrate, c->score_lead, c->score_lead,
                            c->prior, lcb, order);
    for (int i = 0; i < c->pv_length; i++) {
        tg_gtp_reply_printf(r, " ");
        put_vertex(r, a->board, c->pv[i]);
    }
    if (c->pv_length == 0) {
        tg_gtp_reply_printf(r, " ");
        put_vertex(r, a->board, c->move);
    }
}

/* KataGo's ownership: every point from the top left, row by row, for the
 * side analysed. */
static void put_ownership(const analysis *a, const float *ownership)
{
    const tg_board *b = a->board;
    double sign = a->req.color == TG_WHITE ? -1 : 1;
    tg_gtp_reply_printf(a->reply, "ownership");
    for (int y = b->size - 1; y >= 0; y--)
        for (int x = 0; x < b->size; x++) {
            double v = sign * ownership[tg_point_at(b, x, y)];
            tg_gtp_reply_printf(a->reply, " %.4f", v < -1 ? -1 : v > 1 ? 1 : v);
        }
}

/* One info line from a report (and the ownership as of that report, when
 * asked for), sent at once unless the last line showed the same report. */
static void send_info(analysis *a, const tg_search_report *r)
{
    if (r->playouts == a->info_playouts)
        return;
    const float *ownership = a->req.ownership ? tg_search_ownership(a->search) : NULL;
    int shown = 0;
    for (int i = 0; i < r->candidate_count; i++) {
        const tg_search_candidate *c = &r->candidates[i];
        if (a->req.max_moves > 0 && shown >= a->req.max_moves)
            break;
        if (c->visits == 0 && shown >= a->req.min_moves)
            break; /* by visits: the rest are unvisited too */
        put_candidate(a, c, shown++);
    }
    if (ownership) {
        tg_gtp_reply_printf(a->reply, shown ? " " : "");
        put_ownership(a, ownership);
    }
    if (shown == 0 && !ownership)
        return;
    tg_gtp_reply_printf(a->reply, "\n");
    tg_gtp_reply_flush(a->reply);
    a->info_playouts = r->playouts;
}

/* ---- The streaming analysis ------------------------------------------- */

static bool input_waiting(const gtp_analyzer *an, int timeout_ms)
{
    return an->input_waiting(an->input_ctx, timeout_ms);
}

/* Called by the search every tick: stop on input; send an info line when
 * one is due. */
static bool on_progress(void *ctx, const tg_search_report *report)
{
    analysis *a = ctx;
    if (input_waiting(a->analyzer, 0)) {
        a->interrupted = true;
        return false;
    }
    if (a->req.interval > 0 && seconds_since(&a->start) >= a->next_info) {
        send_info(a, report);
        a->next_info = seconds_since(&a->start) + a->req.interval;
    }
    return true;
}

/* Search until input arrives or the playouts are spent, streaming info
 * lines; then send the last one and keep the answer open until the
 * controller's next line.  TG_OK, or why the search could not run. */
static tg_status stream_analysis(analysis *a, const tg_game *g, int max_playouts)
{
    tg_gtp_reply_flush(a->reply); /* the "=id" line: the controller sees the answer begin */
    clock_gettime(CLOCK_MONOTONIC, &a->start);
    a->next_info = a->req.interval;
    tg_search_limits limits = {.playouts = max_playouts};
    tg_status st = tg_search_run(a->search, g, a->req.color, &limits, TICK_SECONDS, on_progress, a, NULL);
    if (st != TG_OK)
        return st;
    send_info(a, tg_search_last_report(a->search));
    if (!a->interrupted)
        input_waiting(a->analyzer, -1);
    return TG_OK;
}

/* The request of an analysis command, parsed; NULL when good, else why
 * not. */
static const char *start_analysis(analysis *a, const gtp_analyzer *an, tg_gtp *gtp, int argc, char **argv,
                                  tg_gtp_reply *reply, analyze_format format)
{
    const tg_game *g = tg_gtp_game(gtp);
    *a = (analysis){.analyzer = an, .search = an->player->search, .board = tg_game_board(g),
                    .reply = reply, .info_playouts = -1};
    a->req.format = format;
    return parse_request(g, argc, argv, &a->req);
}

static bool run_analyze(const gtp_analyzer *an, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply,
                        analyze_format format)
{
    analysis a;
    const char *why = start_analysis(&a, an, gtp, argc, argv, reply, format);
    if (why)
        return tg_gtp_reply_fail(reply, why);
    int playouts = an->player->cfg.playouts;
    if (stream_analysis(&a, tg_gtp_game(gtp), playouts > 0 ? playouts : NO_LIMIT) != TG_OK)
        return tg_gtp_reply_fail(reply, "out of memory");
    return true;
}

static bool cmd_lz_analyze(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    return run_analyze(ctx, gtp, argc, argv, reply, FORMAT_LZ);
}

static bool cmd_kata_analyze(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    return run_analyze(ctx, gtp, argc, argv, reply, FORMAT_KATA);
}

/* ---- genmove with analysis ---------------------------------------------- */

/* Called by genmove's search every interval: never stops it. */
static bool on_genmove_progress(void *ctx, const tg_search_report *report)
{
    send_info(ctx, report);
    return true;
}

/* tg_gtp_genmove_fn: genmove's search, with genmove's limits, streaming
 * its info lines (with no INTERVAL only the last). */
static tg_status genmove_reporting(void *ctx, const tg_game *g, tg_color color, const tg_time_state *time,
                                   bool cleanup, unsigned *flags, tg_point *move)
{
    analysis *a = ctx;
    a->board = tg_game_board(g);
    tg_search_limits limits = gtp_player_limits(a->analyzer->player, g, time);
    *flags = 0; /* lz-genmove_analyze answers a vertex: the ordinary moves */
    tg_status st = tg_search_genmove_analyze(a->search, g, color, &limits, cleanup, a->req.interval,
                                             on_genmove_progress, a, move);
    if (st == TG_OK)
        send_info(a, tg_search_last_report(a->search));
    return st;
}

static bool run_genmove_analyze(const gtp_analyzer *an, tg_gtp *gtp, int argc, char **argv,
                                tg_gtp_reply *reply, analyze_format format)
{
    analysis a;
    const char *why = start_analysis(&a, an, gtp, argc, argv, reply, format);
    if (why)
        return tg_gtp_reply_fail(reply, why);
    tg_gtp_reply_flush(reply); /* "=id" at once, as the analysis commands answer */
    tg_point move;
    if (tg_gtp_genmove_with(gtp, a.req.color, false, genmove_reporting, &a, &move) != TG_OK)
        return tg_gtp_reply_fail(reply, "out of memory");
    tg_gtp_reply_printf(reply, "play ");
    put_vertex(reply, tg_game_board(tg_gtp_game(gtp)), move);
    tg_gtp_reply_printf(reply, "\n");
    return true;
}

static bool cmd_lz_genmove_analyze(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    return run_genmove_analyze(ctx, gtp, argc, argv, reply, FORMAT_LZ);
}

static bool cmd_kata_genmove_analyze(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    return run_genmove_analyze(ctx, gtp, argc, argv, reply, FORMAT_KATA);
}

/* ---- GoGui ------------------------------------------------------------ */

static bool until_interrupt(void *ctx, const tg_search_report *report)
{
    const gtp_analyzer *an = ctx;
    (void)report;
    return !an->interrupt_requested(an->input_ctx);
}

/* The search behind GoGui's graphics: --playouts or GFX_PLAYOUTS, cut
 * short by GoGui's "# interrupt" line.  false (and the
 * answer an error) for a bad colour or a search that could not run. */
static bool gfx_search(const gtp_analyzer *an, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply,
                       tg_color *color)
{
    const tg_game *g = tg_gtp_game(gtp);
    *color = tg_game_to_move(g);
    if (argc == 1 && !parse_color(argv[0], color))
        return tg_gtp_reply_fail(reply, "invalid color");
    int playouts = an->player->cfg.playouts;
    tg_search_limits limits = {.playouts = playouts > 0 ? playouts : GFX_PLAYOUTS};
    if (tg_search_run(an->player->search, g, *color, &limits, TICK_SECONDS, until_interrupt, (void *)an, NULL) !=
        TG_OK)
        return tg_gtp_reply_fail(reply, "out of memory");
    return true;
}

/* "TEXT Black: D4 54.3%, 5000 playouts" (the best move's winrate). */
static void put_summary(tg_gtp_reply *r, const tg_board *b, tg_color color, const tg_search_report *report)
{
    tg_gtp_reply_printf(r, "TEXT %s:", color == TG_BLACK ? "Black" : "White");
    if (report->candidate_count > 0) {
        tg_gtp_reply_printf(r, " ");
        put_vertex(r, b, report->candidates[0].move);
        tg_gtp_reply_printf(r, " %.1f%%,", 100 * report->candidates[0].winrate);
    }
    tg_gtp_reply_printf(r, " %d playouts\n", report->playouts);
}

/* gfx: the search's ownership map as GoGui's influence (+1: Black's). */
static bool cmd_ownership(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    const gtp_analyzer *an = ctx;
    tg_color color;
    if (!gfx_search(an, gtp, argc, argv, reply, &color))
        return false;
    const tg_board *b = tg_game_board(tg_gtp_game(gtp));
    const float *own = tg_search_ownership(an->player->search);
    tg_gtp_reply_printf(reply, "INFLUENCE");
    for (int y = b->size - 1; y >= 0; y--)
        for (int x = 0; x < b->size; x++) {
            tg_gtp_reply_printf(reply, " ");
            put_vertex(reply, b, tg_point_at(b, x, y));
            tg_gtp_reply_printf(reply, " %.2f", own[tg_point_at(b, x, y)]);
        }
    tg_gtp_reply_printf(reply, "\n");
    put_summary(reply, b, color, tg_search_last_report(an->player->search));
    return true;
}

/* gfx: the best moves labelled with their winrates (per cent), and the
 * principal variation of the best in the status line. */
static bool cmd_candidates(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    const gtp_analyzer *an = ctx;
    tg_color color;
    if (!gfx_search(an, gtp, argc, argv, reply, &color))
        return false;
    const tg_board *b = tg_game_board(tg_gtp_game(gtp));
    const tg_search_report *report = tg_search_last_report(an->player->search);
    tg_gtp_reply_printf(reply, "LABEL");
    for (int i = 0; i < report->candidate_count && i < GFX_CANDIDATES; i++) {
        const tg_search_candidate *c = &report->candidates[i];
        if (c->move == TG_PASS || c->visits == 0)
            continue;
        tg_gtp_reply_printf(reply, " ");
        put_vertex(reply, b, c->move);
        tg_gtp_reply_printf(reply, " %d", (int)lround(100 * c->winrate));
    }
    tg_gtp_reply_printf(reply, "\n");
    put_summary(reply, b, color, report);
    return true;
}

/* tengen-predict: the engine's sealed prediction of the free-opening
 * ruleset (002 §5.3), from its own search of the position: the final
 * difference of the counts it expects, by the search's ownership map
 * (each point +1 Black's, -1 White's), to the nearest half stone, as
 * "W+N", "B+N" or "0". */
static bool cmd_predict(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    const gtp_analyzer *an = ctx;
    tg_color color;
    if (!gfx_search(an, gtp, argc, argv, reply, &color))
        return false;
    char text[16];
    tg_prediction_format(predicted_white_margin2(an->player->search, tg_game_board(tg_gtp_game(gtp))),
                         text, sizeof text);
    tg_gtp_reply_printf(reply, "%s", text);
    return true;
}

/* GoGui's convention: listing this command says that a "# interrupt"
 * line stops a long command (the search of gogui-ownership and
 * tengen-candidates; any input stops lz-analyze and kata-analyze, and
 * nothing the genmove_analyze commands, as in Leela Zero and KataGo). */
static bool cmd_interrupt(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    (void)ctx, (void)gtp, (void)argc, (void)argv, (void)reply;
    return true;
}

static bool cmd_analyze_commands(void *ctx, tg_gtp *gtp, int argc, char **argv, tg_gtp_reply *reply)
{
    const gtp_analyzer *an = ctx;
    (void)gtp, (void)argc, (void)argv;
    if (an->player->search)
        tg_gtp_reply_printf(reply, "gfx/Ownership/gogui-ownership\n"
                                   "gfx/Candidate moves/tengen-candidates\n");
    tg_gtp_reply_printf(reply, "plist/Dead stones/final_status_list dead\n"
                               "string/Final score/final_score\n"
                               "string/Rules/tengen-rules\n"
                               "none/Set rules/tengen-rules %%s\n");
    return true;
}

/* gogui-analyze_commands first: it is the only one without a search. */
static const tg_gtp_extension extensions[] = {
    {"gogui-analyze_commands", 0, 0, cmd_analyze_commands},
    {"lz-analyze", 0, MAX_ARGS, cmd_lz_analyze},
    {"kata-analyze", 0, MAX_ARGS, cmd_kata_analyze},
    {"lz-genmove_analyze", 0, MAX_ARGS, cmd_lz_genmove_analyze},
    {"kata-genmove_analyze", 0, MAX_ARGS, cmd_kata_genmove_analyze},
    {"gogui-ownership", 0, 1, cmd_ownership},
    {"tengen-candidates", 0, 1, cmd_candidates},
    {"tengen-predict", 0, 0, cmd_predict},
    {"gogui-interrupt", 0, 0, cmd_interrupt},
};

const tg_gtp_extension *gtp_analyze_extensions(const gtp_analyzer *a, int *count)
{
    *count = a->player->search ? (int)(sizeof extensions / sizeof extensions[0]) : 1;
    return extensions;
}
