/*
 * cmd_play.c — `tengen play`: a game against the engine in the terminal.
 *
 * The board is drawn with coordinates after every move, the last move in
 * brackets and the captures beside it.  The person types a vertex, `pass`,
 * `undo`, `resign`, `score`, `help` or `quit`; after two passes the dead
 * stones are agreed (play_agreement.c); the game is written as SGF when it
 * ends (or is left: `quit`, the end of input, or Ctrl-C, which stops the
 * engine's thinking too: play_interrupt.c), and the exit status is 1 if it
 * could not be or if the engine's search failed (130 after Ctrl-C, the
 * game saved).
 *
 * Moves go through the game-control layer (control.h), which runs the clock
 * of --time: both clocks are shown with the board, the byo-yomi calls are
 * printed while the person thinks, and the clock alone decides a loss on
 * time.  Standard input is read with poll() so that the clock keeps
 * running while no line comes, and so that Ctrl-C ends the wait.  An
 * illegal move typed at the terminal is refused (the usual online
 * behaviour, R6) whatever the ruleset's policy, so a slip of the keyboard
 * never costs a warning; but under repetition=lose (the free-opening
 * ruleset, 002 §5.4) a move that repeats a situation is played and loses,
 * as in `tengen match` and the server.  Under the free opening the game
 * clocks start at the reveal of the predictions (the opening's stones and
 * the predictions have the prediction time alone), and undo never takes
 * back an opening stone (§2.4).
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/cli_options.h"
#include "cli/cli_util.h"
#include "cli/play_agreement.h"
#include "cli/play_free_opening.h"
#include "cli/play_interrupt.h"
#include "engine_gtp/gtp_player.h"
#include "engine_gtp/prediction.h"
#include "tengen/control.h"
#include "tengen/search.h"
#include "tengen/score.h"
#include "tengen/sgf.h"

typedef struct play_options {
    int size;
    tg_color human;
    tg_rules rules;
    int handicap;
    const char *sgf_path;
    uint64_t seed;
    int playouts;
    double seconds;       /* --time-per-move; 0: the clock or the defaults */
    bool baseline;        /* --player baseline */
    int threads;          /* --threads */
    int max_memory_mb;    /* --max-memory */
    tg_time_control time; /* TG_CLOCK_NONE: untimed */
    int first;            /* free-opening: 1 the person is first, 0 tengen, -1 by lot */
    int prediction_s;     /* free-opening: the person's time to predict; -1 from the clock, 0 none */
    int policy_net_visits; /* --policy-net-visits (0: the search's default) */
    int policy_net_batch;  /* --policy-net-batch (0: the search's default) */
    int policy_net_value;  /* --policy-net-value (0: off) */
} play_options;

static const char *const color_choices[] = {"black", "white", "b", "w", NULL};
static const char *const first_choices[] = {"me", "tengen", "lot", NULL};

static const char play_synopsis[] =
    "usage: tengen play [options]\n\n"
    "Play a game against tengen's engine in the terminal.\n\n";
static const char play_epilogue[] =
    "During the game type a vertex (D4, q16), or: pass, undo, resign, score, help, quit;\n"
    "under capture=choose (the free-opening ruleset) 'D4 own' takes the capture choice.\n"
    "After two passes tengen proposes the dead stones: accept them, or mark chains dead\n"
    "or alive by a vertex and type done; if you disagree, play resumes, with whoever\n"
    "claims a disputed stone dead (C9), or in turn order under dispute=turn (the\n"
    "free-opening ruleset, 002 §6.3).\n";

/* 0, CLI_HELP or CLI_USAGE_ERROR (cli_options.h). */
static int parse_play_options(int argc, char **argv, play_options *o)
{
    *o = (play_options){.size = 19, .human = TG_BLACK, .seed = (uint64_t)time(NULL), .threads = 1,
                        .max_memory_mb = 256, .time = {.system = TG_CLOCK_NONE}, .first = -1,
                        .prediction_s = -1};
    tg_rules_default(&o->rules);
    int color = 0, first = 2, player = 0;
    cli_komi komi = {0};
    const cli_option options[] = {
        CLI_OPT_SIZE(&o->size, "board size, 2..25 (default 19)"),
        {"--color", NULL, CLI_CHOICE, "C", 0, 0, color_choices, NULL, NULL, &color,
         "your colour: black or white (default black)"},
        {"--first", NULL, CLI_CHOICE, "WHO", 0, 0, first_choices, NULL, NULL, &first,
         "under --rules free-opening, the first player: me, tengen or\n"
         "lot (default); the predictions then decide the colours"},
        CLI_OPT_PREDICTION_TIME(&o->prediction_s,
                                "free-opening: your time to seal a prediction, from the\n"
                                "third stone if you are first, else the fourth (002 §5.3.3;\n"
                                "default a tenth of --time, at least 10 s; 0: none)"),
        CLI_OPT_RULES(&o->rules, "ruleset preset and key=value overrides, e.g. \"japanese\" or\n"
                                 "\"chinese ko=situational\" (default chinese)"),
        CLI_OPT_KOMI(&komi, "komi in points, integer or half-integer (default: the rules')"),
        CLI_OPT_HANDICAP(&o->handicap, "fixed handicap stones for Black, 2..9 (default none)"),
        {"--sgf", NULL, CLI_TEXT, "FILE", 0, 0, NULL, NULL, NULL, &o->sgf_path,
         "save the game there (default tengen-YYYYMMDD-HHMMSS.sgf)"},
        CLI_OPT_SEED(&o->seed, "random seed of the engine (default: from the clock)"),
        CLI_OPT_PLAYOUTS(&o->playouts, "engine playouts per move (default: 10000, at most 5 s\n"
                                       "a move; in a timed game the clock decides)"),
        CLI_OPT_TIME_PER_MOVE(&o->seconds, "seconds the engine thinks per move (0: as without it)"),
        CLI_OPT_PLAYER(&player, "mcts (the tree search, default) or baseline (the quick\n"
                                "flat Monte-Carlo player of the core)"),
        CLI_OPT_THREADS(&o->threads, "search threads, 1..64 (default 1)"),
        CLI_OPT_MODEL("the move model's weights from FILE instead of the built-in\n"
                      "ones (as tengen gtp --help says)"),
        CLI_OPT_VALUE_NET("a value network from FILE (as tengen gtp --help says)"),
        CLI_OPT_POLICY_NET("a policy network from FILE, or off (as tengen gtp --help says)"),
        CLI_OPT_POLICY_NET_VISITS(&o->policy_net_visits, "a node's visits before it is given the policy network's\n"
                                                         "priors (as tengen gtp --help says)"),
        CLI_OPT_POLICY_NET_BATCH(&o->policy_net_batch, "the policy network's evaluations a batch gathers across\n"
                                                       "the threads (as tengen gtp --help says)"),
        CLI_OPT_POLICY_NET_VALUE(&o->policy_net_value, "the value head's prior visits (as tengen gtp --help\n"
                                                       "says; 0: off)"),
        CLI_OPT_MAX_MEMORY(&o->max_memory_mb, "memory for the search tree in MiB, 2..1048576 (default\n"
                                              "256); a full tree is pruned, as in tengen gtp"),
        CLI_OPT_TIME(&o->time, "clocks for both players (seconds): none, absolute:300,\n"
                               "byoyomi:600+5x30, canadian:600+25/600, periods:3600+15/600,\n"
                               "fischer:300+10[max600], simple:10; add ,pass to byoyomi or\n"
                               "simple to take an overrun of the last period as a pass\n"
                               "instead of a loss (default none; undo is off in timed games)"),
    };
    const cli_command cmd = {.name = "play", .synopsis = play_synopsis, .epilogue = play_epilogue, .options = options,
                             .option_count = CLI_COUNT(options)};
    int r = cli_parse(&cmd, argc, argv);
    if (r)
        return r;
    o->human = color % 2 == 0 ? TG_BLACK : TG_WHITE;
    o->first = 1 - first; /* me 1, tengen 0, lot -1 */
    o->baseline = player == 1;
    if (komi.given)
        o->rules.komi2 = komi.komi2;
    return 0;
}

static void announce_score(tg_game *g, bool final)
{
    uint8_t dead[TG_MAX_POINTS];
    tg_score score;
    tg_game_estimate_dead(g, 0, 0, dead);
    tg_score_game(g, dead, &score);
    char count[1024];
    tg_score_explain(&score, tg_game_rules(g), count, sizeof count);
    printf("%s\n%s\n", final ? "Final count:" : "Count if the game ended now:", count);
    if (final)
        tg_game_set_result(g, &score.result);
}

/* ---- the session ------------------------------------------------------- */

/* A byo-yomi call scheduled while the person thinks. */
typedef struct pending_call {
    bool set;
    int64_t at;            /* tg_clock_now_ms() when it is due */
    tg_byoyomi_call call;
} pending_call;

/* Standard input read with read(2), so that poll(2) sees all that is unread. */
typedef struct line_reader {
    char buf[1024];
    size_t len;
    bool eof;
    bool skipping; /* the rest of an overlong line is being dropped */
} line_reader;

typedef struct play_session {
    tg_game *g;
    tg_control ctl;
    const play_options *o;
    gtp_player player;         /* the search or the baseline player, as tengen gtp's */
    tg_search *search;         /* player.search; NULL: the baseline player */
    bool timed;
    tg_sgf_move_clock *clocks; /* clocks[i]: the mover's clock after move i */
    int clock_cap;
    line_reader in;
    pending_call call;
    bool has_predictions;      /* free-opening: for the record */
    play_fo_result fo;
    bool search_failed;        /* the engine's search could not run: the game stops */
} play_session;

static const char *color_name(tg_color c) { return c == TG_BLACK ? "Black" : "White"; }

static int64_t session_now(const play_session *s) { return s->timed ? tg_clock_now_ms() : 0; }

static void print_clocks(const play_session *s)
{
    if (!s->timed)
        return;
    int64_t now = tg_clock_now_ms();
    char text[2][96];
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        tg_clock_view v;
        tg_clock_view_of(&s->ctl.clock, c, now, &v);
        tg_clock_view_format(&v, &s->ctl.clock.tc, text[c - 1], sizeof text[0]);
    }
    printf("Clock: Black %s | White %s\n", text[0], text[1]);
}

static void show_position(const play_session *s)
{
    cli_print_board(stdout, s->g);
    print_clocks(s);
}

/* Remember the mover's clock after the last move, for SGF BL/WL/OB/OW:
 * none for the free opening's stones, made before the game clocks start. */
static void record_clock(play_session *s, tg_color mover, int64_t now)
{
    if (s->timed && s->ctl.clock_started)
        tg_sgf_record_clock(&s->clocks, &s->clock_cap, tg_game_move_count(s->g) - 1, &s->ctl.clock, mover,
                            now);
}

/* What the clock did instead of a move. */
static void report_clock_action(tg_color color, tg_control_action action)
{
    if (action == TG_ACTION_TIME_LOSS)
        printf("Time is up: %s loses on time.\n", color_name(color));
    else if (action == TG_ACTION_OVERTIME_PASS)
        printf("Time is up: %s's move is taken as a pass; %s has a fresh last period for the "
               "next move.\n",
               color_name(color), color_name(color));
}

/* A move that lost the game (R6's lose policy, a second warning, or a
 * repetition under repetition=lose, 002 §5.4). */
static void report_forfeit(const play_session *s, tg_color color, tg_point p, const tg_control_outcome *out)
{
    char v[8];
    tg_point_to_vertex(tg_game_board(s->g), p, v);
    bool repetition = out->illegal == TG_ERR_KO || out->illegal == TG_ERR_SUPERKO;
    printf("%s %s: %s. %s: %s loses.\n", color_name(color), v, tg_status_text(out->illegal),
           out->warning                                           ? "A second warning"
           : repetition && tg_game_rules(s->g)->repetition_loses ? "A repetition loses at once (002 §5.4)"
                                                                  : "Under these rules an illegal move loses",
           color_name(color));
}

/* Play through game control at the current time; true when the move stood. */
static bool control_move(play_session *s, tg_color color, tg_point p, unsigned flags)
{
    int64_t now = session_now(s);
    int before = tg_game_move_count(s->g);
    tg_control_outcome out;
    if (tg_control_play_flags(&s->ctl, color, p, flags, now, &out) != TG_OK)
        return false;
    if (tg_game_move_count(s->g) > before)
        record_clock(s, color, now);
    report_clock_action(color, out.action);
    if (out.action == TG_ACTION_FORFEIT)
        report_forfeit(s, color, p, &out);
    return out.action == TG_ACTION_PLAYED;
}

/* The dead stones a counted game's result was counted with (the
 * agreement's, else announce_score's estimate), for the record's TB/TW;
 * false when the result is no count. */
static bool counted_dead(const play_session *s, uint8_t *dead)
{
    if (tg_game_result(s->g)->kind != TG_RESULT_SCORE)
        return false;
    if (s->ctl.score.result.kind == TG_RESULT_SCORE)
        memcpy(dead, s->ctl.dead[TG_BLACK], TG_MAX_POINTS);
    else
        tg_game_estimate_dead(s->g, 0, 0, dead);
    return true;
}

/* Write the game as SGF; false (and said) when it could not be written. */
static bool save_game(const play_session *s)
{
    const play_options *o = s->o;
    char path[64];
    const char *where = o->sgf_path;
    if (!where) {
        time_t now = time(NULL);
        struct tm tmv;
        localtime_r(&now, &tmv);
        strftime(path, sizeof path, "tengen-%Y%m%d-%H%M%S.sgf", &tmv);
        where = path;
    }
    tg_sgf_info info;
    memset(&info, 0, sizeof info);
    info.main_time = -1;
    snprintf(o->human == TG_BLACK ? info.black : info.white, sizeof info.black, "%s", "Human");
    snprintf(o->human == TG_BLACK ? info.white : info.black, sizeof info.white, "%s", "tengen");
    if (s->has_predictions) {
        info.has_predictions = true;
        info.prediction_first2 = s->fo.decision.first2;
        info.prediction_second2 = s->fo.decision.second2;
        info.first_player = s->fo.decision.first_takes_white ? TG_WHITE : TG_BLACK;
    }
    if (s->timed) {
        info.main_time = tg_time_control_sgf_tm(&o->time);
        tg_time_control_to_sgf_ot(&o->time, info.overtime, sizeof info.overtime);
        info.clocks = s->clocks;
        info.clock_count = s->clock_cap < tg_game_move_count(s->g) ? s->clock_cap
                                                                   : tg_game_move_count(s->g);
    }
    info.has_dead = counted_dead(s, info.dead);
    char *text = tg_sgf_save_game(s->g, &info);
    FILE *f = text ? fopen(where, "w") : NULL;
    bool saved = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        saved = false;
    if (saved)
        printf("Game saved to %s\n", where);
    else
        fprintf(stderr, "tengen play: could not save the game to %s: %s\n", where,
                text ? strerror(errno) : "out of memory");
    free(text);
    return saved;
}

/* The engine's move: its limits are --time-per-move, else the plan for the
 * real clock, whole (Fischer's increment, moves-per-period), else
 * --playouts, else 10,000 playouts or 5 s (engine_gtp/gtp_player.c). */
static tg_point engine_choice(play_session *s, tg_color color, unsigned *flags)
{
    tg_time_state time = {.control = {.system = TG_CLOCK_NONE}};
    if (s->timed)
        tg_clock_time_state(&s->ctl.clock, color, tg_clock_now_ms(), &time);
    tg_point move = TG_PASS;
    *flags = TG_PLAY_CAPTURE_OWN; /* the terminal can play and show the capture choice */
    tg_status st = gtp_player_genmove(&s->player, s->g, color, &time, false, flags, &move);
    if (st != TG_OK) {
        fprintf(stderr, "tengen play: the engine's search failed: %s\n", tg_status_text(st));
        s->search_failed = true;
    }
    return move;
}

static void engine_move(play_session *s, tg_color color)
{
    unsigned flags;
    tg_point p = engine_choice(s, color, &flags);
    if (play_interrupted() || s->search_failed)
        return; /* the search was cut short or failed: no move is played */
    char v[8];
    int own_before = tg_board_stone_count(tg_game_board(s->g), color);
    bool played = control_move(s, color, p, flags);
    if (p == TG_RESIGN && tg_control_phase_of(&s->ctl) == TG_PHASE_OVER
        && tg_game_result(s->g)->kind == TG_RESULT_RESIGN) {
        printf("tengen resigns.\n");
    } else if (played) {
        tg_point_to_vertex(tg_game_board(s->g), p, v);
        int lost = p == TG_PASS ? 0 : own_before + 1 - tg_board_stone_count(tg_game_board(s->g), color);
        if (flags & TG_PLAY_CAPTURE_OWN)
            printf("tengen plays %s own: the capture choice, removing %d of its own stones\n", v, lost);
        else if (lost > 0)
            printf("tengen plays %s, a suicide of %d stones\n", v, lost);
        else
            printf("tengen plays %s\n", v);
    }
}

/* ---- the person's input --------------------------------------------------- */

/* A whole line from the reader's buffer (or its rest at end of input),
 * without its end of line and surrounding blanks; of a line longer than
 * the buffer, the first 1,024 bytes (cut to len - 1), the rest dropped. */
static bool take_line(line_reader *r, char *line, size_t len)
{
    for (;;) {
        char *nl = memchr(r->buf, '\n', r->len);
        bool full = r->len == sizeof r->buf;
        if (!nl && !full && !(r->eof && r->len))
            return false; /* the line is not all there yet */
        size_t n = nl ? (size_t)(nl - r->buf) : r->len;
        size_t consumed = nl ? n + 1 : n;
        bool dropping = r->skipping;
        r->skipping = !nl && full;
        if (!dropping) {
            size_t start = 0;
            while (start < n && isspace((unsigned char)r->buf[start]))
                start++;
            while (n > start && isspace((unsigned char)r->buf[n - 1]))
                n--;
            size_t copy = n - start < len - 1 ? n - start : len - 1;
            memcpy(line, r->buf + start, copy);
            line[copy] = '\0';
        }
        memmove(r->buf, r->buf + consumed, r->len - consumed);
        r->len -= consumed;
        if (!dropping)
            return true;
    }
}

static void fill_reader(line_reader *r)
{
    ssize_t got = read(STDIN_FILENO, r->buf + r->len, sizeof r->buf - r->len);
    if (got > 0)
        r->len += (size_t)got;
    else if (got == 0 || errno != EINTR)
        r->eof = true;
}

static bool is_byoyomi(const tg_time_control *tc)
{
    return tc->system == TG_CLOCK_BYOYOMI || tc->system == TG_CLOCK_SIMPLE;
}

static int64_t earliest(int64_t a, int64_t b) { return a < b ? a : b; }

/* When to wake up next: the loss (deadline + 1), the next byo-yomi call,
 * and the end of the main time or of the period, where the calls start
 * again. */
static int64_t next_wake(play_session *s, tg_color color, int64_t now)
{
    const tg_clock *c = &s->ctl.clock;
    int64_t deadline = tg_clock_deadline_ms(c, color);
    int64_t wake = deadline == INT64_MAX ? INT64_MAX : deadline + 1;
    if (!is_byoyomi(&c->tc))
        return wake;
    tg_clock_view v;
    tg_clock_view_of(c, color, now, &v);
    if (!v.in_overtime)
        return earliest(wake, now + v.main_left_ms + 1);
    int64_t used = c->tc.period_ms - v.period_left_ms;
    if (!s->call.set && tg_byoyomi_next_call(c->tc.period_ms, v.periods_left == 1, used, &s->call.call)) {
        s->call.set = true;
        s->call.at = now + (s->call.call.at_ms - used);
    }
    wake = earliest(wake, now + v.period_left_ms + 1);
    return s->call.set ? earliest(wake, s->call.at) : wake;
}

static void announce_call(play_session *s, tg_color color, int64_t now)
{
    if (!s->call.set || now < s->call.at)
        return;
    s->call.set = false;
    if (s->call.call.count)
        printf("\n[byo-yomi] %d\n", s->call.call.number);
    else
        printf("\n[byo-yomi] %d seconds\n", s->call.call.number);
    printf("%s to move > ", color_name(color));
    fflush(stdout);
}

typedef enum input_kind { INPUT_LINE, INPUT_END, INPUT_CLOCK } input_kind;

/* A line from the person.  In a timed game the byo-yomi calls are printed
 * as they fall due, and the clock may decide the turn first.  Ctrl-C ends
 * the wait (the wake pipe, or EINTR). */
static input_kind read_line(play_session *s, char *line, size_t len)
{
    tg_color color = s->o->human;
    s->call.set = false;
    for (;;) {
        if (play_interrupted())
            return INPUT_END;
        if (take_line(&s->in, line, len))
            return INPUT_LINE;
        if (s->in.eof)
            return INPUT_END;
        int timeout = -1;
        if (s->timed) {
            int64_t now = tg_clock_now_ms();
            int64_t wait = next_wake(s, color, now) - now;
            timeout = wait > 86400000 ? 86400000 : wait < 0 ? 0 : (int)wait;
        }
        int wake = play_interrupt_fd();
        struct pollfd pfd[2] = {{.fd = STDIN_FILENO, .events = POLLIN}, {.fd = wake, .events = POLLIN}};
        int ready = poll(pfd, wake >= 0 ? 2 : 1, timeout);
        if (ready < 0) {
            if (errno != EINTR)
                s->in.eof = true; /* no way to wait for input: as its end */
            continue;
        }
        if (pfd[0].revents & POLLNVAL) {
            s->in.eof = true; /* no standard input at all */
            continue;
        }
        if (pfd[0].revents) {
            fill_reader(&s->in);
            continue;
        }
        if (ready > 0 || !s->timed)
            continue; /* the wake pipe: the loop's first test ends it */
        int64_t now = tg_clock_now_ms();
        announce_call(s, color, now);
        tg_control_action action;
        tg_control_tick(&s->ctl, now, &action);
        if (action != TG_ACTION_PLAYED) {
            printf("\n");
            if (action == TG_ACTION_OVERTIME_PASS)
                record_clock(s, color, now);
            report_clock_action(color, action);
            return INPUT_CLOCK;
        }
    }
}

/* ---- the person ---------------------------------------------------------- */

/* The moves an undo takes back: to before the person's last move, so one
 * (theirs) or two (theirs and tengen's answer); 0 when they have none
 * since the free opening, whose stones are never taken back (002 §2.4). */
static int undo_count(const tg_game *g, tg_color person)
{
    int total = tg_game_move_count(g), floor = tg_game_rules(g)->free_opening;
    for (int back = 1; back <= 2 && back <= total - floor; back++)
        if (tg_game_move(g, total - back)->color == person)
            return back;
    return 0;
}

static void undo_for_person(play_session *s)
{
    if (s->timed) {
        printf("Undo is not available in a timed game.\n");
        return;
    }
    int n = undo_count(s->g, s->o->human);
    if (n == 0) {
        printf(tg_game_rules(s->g)->free_opening ? "Nothing to undo: the opening's stones are never taken "
                                                   "back (002 §2.4).\n"
                                                 : "Nothing to undo.\n");
        return;
    }
    for (int i = 0; i < n; i++)
        if (tg_game_undo(s->g) != TG_OK)
            break;
}

/* One line of the person's input. */
static void handle_input(play_session *s, const char *line, bool *quit)
{
    tg_game *g = s->g;
    const play_options *o = s->o;
    tg_point p;
    unsigned flags;
    if (!strcasecmp(line, "quit") || !strcasecmp(line, "exit")) {
        *quit = true;
    } else if (!strcasecmp(line, "help") || !strcmp(line, "?")) {
        printf("Type a vertex like D4, or: pass, undo, resign, score, quit.\n");
    } else if (!strcasecmp(line, "resign")) {
        tg_control_resign(&s->ctl, o->human);
    } else if (!strcasecmp(line, "score")) {
        announce_score(g, false);
    } else if (!strcasecmp(line, "undo")) {
        undo_for_person(s);
    } else if (tg_move_parse(tg_game_board(g), line, tg_game_rules(g)->capture_choice, &p, &flags) != TG_OK) {
        printf("'%s' is not a vertex of this board or a command (type help).\n", line);
    } else {
        tg_status st = tg_game_check(g, o->human, p, flags);
        bool repetition = st == TG_ERR_KO || st == TG_ERR_SUPERKO;
        if (st != TG_OK && !(repetition && tg_game_rules(g)->repetition_loses))
            printf("Illegal move: %s.\n", (flags & TG_PLAY_CAPTURE_OWN) && st == TG_ERR_NOT_ALLOWED
                                               ? "the capture choice needs a move that leaves both sides' "
                                                 "chains without liberties"
                                               : tg_status_text(st));
        else /* legal, or a repetition that loses (game control rules on it) */
            control_move(s, o->human, p, flags);
    }
}

/* The person's turn; false when the input ended. */
static bool human_turn(play_session *s, bool *quit)
{
    char line[256];
    show_position(s);
    printf("%s to move > ", color_name(s->o->human));
    fflush(stdout);
    input_kind got = read_line(s, line, sizeof line);
    if (got == INPUT_END) {
        printf("\n"); /* end of input: finish the prompt's line */
        return false;
    }
    if (got == INPUT_LINE)
        handle_input(s, line, quit);
    return true;
}

/* ---- the free opening (play_free_opening.c) ---------------------------------- */

static tg_point fo_engine_stone(void *ctx, tg_color color)
{
    unsigned flags; /* none in the opening: four stones on empty points */
    return engine_choice(ctx, color, &flags);
}

/* tengen's sealed prediction: the count difference its search expects. */
static int fo_engine_prediction(void *ctx)
{
    play_session *s = ctx;
    if (!s->search)
        return 0;
    unsigned flags;
    engine_choice(s, tg_game_to_move(s->g), &flags);
    return predicted_white_margin2(s->search, tg_game_board(s->g));
}

static bool fo_play(void *ctx, tg_color color, tg_point p) { return control_move(ctx, color, p, 0); }
static void fo_show(void *ctx) { show_position(ctx); }

/* The agreement's reader: the person's next line, false at the end of input. */
static bool read_agreement_line(void *ctx, char *line, size_t len)
{
    play_session *s = ctx;
    input_kind got;
    while ((got = read_line(s, line, len)) == INPUT_CLOCK)
        continue; /* the clocks stand still after two passes */
    return got == INPUT_LINE;
}

static void announce_end(play_session *s)
{
    tg_game *g = s->g;
    show_position(s);
    if (tg_game_over(g) && tg_game_result(g)->kind == TG_RESULT_NONE) {
        announce_score(g, true);
    } else if (tg_game_result(g)->kind == TG_RESULT_SCORE && s->ctl.score.result.kind == TG_RESULT_SCORE) {
        char count[1024];   /* counted with the agreed dead stones */
        tg_score_explain(&s->ctl.score, tg_game_rules(g), count, sizeof count);
        printf("Final count:\n%s\n", count);
    } else if (tg_game_over(g)) {
        char re[32], en[96];
        tg_result_to_sgf(tg_game_result(g), re, sizeof re);
        tg_result_stated(tg_game_rules(g), tg_game_result(g), false, en, sizeof en);
        printf("Result: %s — %s\n", re, en);
    }
}

static bool place_handicap(tg_game *g, const play_options *o)
{
    if (!o->handicap)
        return true;
    tg_point pts[9];
    int n = tg_fixed_handicap_points(tg_game_board(g), o->handicap, pts);
    if (n == o->handicap && tg_game_place_handicap(g, pts, n) == TG_OK)
        return true;
    fprintf(stderr, "tengen play: %d handicap stones do not fit a %dx%d board\n", o->handicap,
            o->size, o->size);
    return false;
}

static void announce_start(const play_options *o)
{
    char rules[256], clock[200];
    tg_rules_describe(&o->rules, rules, sizeof rules);
    printf("tengen play: %dx%d, you are %s. Rules: %s\n", o->size, o->size,
           o->rules.free_opening ? "the colour the predictions give you"
           : o->human == TG_BLACK ? "Black (X)"
                                  : "White (O)",
           rules);
    if (o->time.system != TG_CLOCK_NONE) {
        tg_time_control_describe(&o->time, clock, sizeof clock);
        printf("Time: %s\n", clock);
    }
}

int cmd_play(int argc, char **argv)
{
    play_options o;
    int r = parse_play_options(argc, argv, &o);
    if (r)
        return r == CLI_HELP ? 0 : 2;
    play_session *s = calloc(1, sizeof *s);
    tg_game *g = s ? tg_game_new(o.size, &o.rules) : NULL;
    if (!g || !place_handicap(g, &o)) {
        tg_game_free(g);
        free(s);
        return g ? 2 : 1;
    }
    s->g = g;
    s->o = &o;
    s->timed = o.time.system != TG_CLOCK_NONE;
    gtp_player_config cfg; /* tengen gtp's player, with a terminal's defaults */
    gtp_player_config_default(&cfg);
    cfg.baseline = o.baseline;
    cfg.search.seed = o.seed;
    cfg.search.threads = o.threads;
    cfg.search.max_memory = (size_t)o.max_memory_mb << 20;
    cfg.search.policy_net_visits = o.policy_net_visits;
    cfg.search.policy_net_batch = o.policy_net_batch;
    cfg.search.policy_net_value = o.policy_net_value;
    cfg.playouts = o.playouts;
    cfg.time_per_move = o.seconds;
    cfg.lag = 0.2;
    cfg.default_seconds = 5;
    if (!gtp_player_init(&s->player, &cfg)) {
        fprintf(stderr, "tengen play: out of memory for the search tree\n");
        tg_game_free(g);
        free(s);
        return 1;
    }
    s->search = s->player.search;
    tg_control_init(&s->ctl, g);
    announce_start(&o);
    if (s->timed) {
        tg_control_set_clock(&s->ctl, &o.time, 0);
        if (!o.rules.free_opening) /* else at the reveal (002 §5.3.3) */
            tg_control_start_clock(&s->ctl, tg_clock_now_ms());
    }
    struct sigaction old_sigint;
    play_interrupt_catch(s->search, &old_sigint);
    bool quit = false, input_ended = false;
    if (o.rules.free_opening) {
        play_fo_io io = {s, read_agreement_line, fo_engine_stone, fo_engine_prediction, fo_play, fo_show};
        bool first = o.first >= 0 ? o.first == 1 : (tg_rng_next(&s->player.rng) & 1) != 0;
        int64_t limit = o.prediction_s >= 0 ? (int64_t)o.prediction_s * 1000 : tg_prediction_time_ms(&o.time);
        if (play_free_opening(&s->ctl, first, limit, &io, &s->fo)) {
            s->has_predictions = true;
            o.human = s->fo.person;
            if (s->timed) /* the game clocks start at the reveal: the opening had the prediction time */
                tg_control_start_clock(&s->ctl, tg_clock_now_ms());
        } else {
            if (tg_game_over(g)) /* lost on time: the seat the person had */
                o.human = s->fo.person;
            input_ended = true;
        }
    }
    while (!quit && !play_interrupted() && !input_ended && !s->search_failed) {
        while (!quit && !play_interrupted() && !s->search_failed && !tg_game_over(g)) {
            if (tg_game_to_move(g) != o.human)
                engine_move(s, tg_game_to_move(g));
            else if (!human_turn(s, &quit)) {
                input_ended = true;
                break;
            }
        }
        /* two passes: the dead stones are agreed, or play resumes (C9; in
         * turn order under dispute=turn, 002 §6.3) */
        if (quit || play_interrupted() || input_ended || s->search_failed ||
            tg_control_phase_of(&s->ctl) != TG_PHASE_AGREEMENT)
            break;
        show_position(s);
        if (play_agree_dead_stones(&s->ctl, o.human, session_now(s), read_agreement_line, s) != TG_PHASE_PLAY)
            break;
    }
    if (play_interrupted())
        printf("\nInterrupted: the game stops here.\n");
    play_interrupt_release(&old_sigint);
    announce_end(s);
    bool saved = save_game(s);
    bool was_interrupted = play_interrupted(), failed = s->search_failed;
    gtp_player_free(&s->player);
    tg_game_free(g);
    free(s->clocks);
    free(s);
    return !saved || failed ? 1 : was_interrupted ? 130 : 0;
}
