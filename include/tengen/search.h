/*
 * search.h — the Monte-Carlo tree search behind `genmove`: UCT with RAVE
 * (all-moves-as-first) statistics, priors from 3x3 shapes and tactics, a
 * MoGo-style playout policy, tree parallelism with virtual loss, a tree of
 * bounded memory kept from one move to the next, and time management.
 *
 * A tg_search is created once (per engine) and asked for moves on the
 * positions of a game; it keeps the part of its tree that the game's new
 * moves lead to.  All of its functions are for one controlling thread,
 * except tg_search_stop, which any thread may call.
 */
#ifndef TENGEN_SEARCH_H
#define TENGEN_SEARCH_H

#include "clock.h"
#include "game.h"

/* When the search judges leaves by the learned value function too. */
typedef enum tg_value_mode {
    TG_VALUE_OFF = 0,
    TG_VALUE_ON = 1,
    TG_VALUE_AUTO = 2 /* on for a search bounded by playouts alone, off under a clock:
                         it makes each playout worth more and costs time */
} tg_value_mode;

typedef struct tg_search_options {
    int threads;              /* search threads, 1..64 */
    size_t max_memory;        /* bytes the tree may use (at least 1 MiB) */
    double resign_threshold;  /* resign below this winrate on three searches in a
                                 row, past a quarter of the board (0: never) */
    uint64_t seed;
    bool reuse_tree;          /* keep the subtree of the new position */
    tg_value_mode value_function; /* judge leaves by the learned value function too, where
                                 one was trained for the board size and komi (default:
                                 TG_VALUE_AUTO) */
    bool no_policy_net;       /* leave the policy network out even where one serves the
                                 board size (`--policy-net off`) */
    int policy_net_visits;    /* a node of the tree gets the policy network's priors once it
                                 has been visited this many times, the root at once (0: the
                                 default, docs/policy-net.md; 1 or 2: every node when it is
                                 expanded; `--policy-net-visits N`) */
    int policy_net_batch;     /* the network's evaluations gathered across the threads into one
                                 batch, 1..64 (0: the default, docs/policy-net.md; 1: none, each
                                 evaluated where it is asked; `--policy-net-batch N`) */
    int policy_net_value;     /* where > 0, the policy network's value head counts as this many
                                 prior visits of a node when the node is given its priors
                                 (0: off, the default: docs/policy-net.md has the match;
                                 `--policy-net-value N`) */
} tg_search_options;

/* The learned weights: built in (data/NAME.tgw), or given as the bytes of a
 * weights file (`--model FILE`, `--value-net FILE`) before the first
 * search of the process.  A move model for board size 0 replaces the main
 * table, one for a small size the small boards' corrections; a value
 * network serves the board size and komi its file names, before the
 * built-in one.  A bad or truncated file: TG_ERR_PARSE or TG_ERR_INVALID
 * and err says what is wrong and where. */
tg_status tg_search_use_model(const uint8_t *data, size_t len, char *err, size_t errlen);
tg_status tg_search_use_value_net(const uint8_t *data, size_t len, char *err, size_t errlen);
/* A policy network (tools/train_policy.py, `--policy-net FILE`) serves the
 * board size its file names, before a built-in one; data NULL (`--policy-net
 * off`): no policy network at all. */
tg_status tg_search_use_policy_net(const uint8_t *data, size_t len, char *err, size_t errlen);

/* 1 thread, 256 MiB, resign below 10%, seed 1, tree reuse on. */
void tg_search_options_default(tg_search_options *opt);

typedef struct tg_search tg_search;

/* NULL when out of memory or the options are out of range. */
tg_search *tg_search_new(const tg_search_options *opt);
void tg_search_free(tg_search *s);

/* How much to search for one decision; the first limit reached stops it. */
typedef struct tg_search_limits {
    int playouts;             /* 0: no playout limit */
    double seconds;           /* planned time (0: none) */
    double max_seconds;       /* hard limit a difficult move may stretch to (>= seconds) */
} tg_search_limits;

/* One candidate at the root, for analysis (lz-analyze, kata-analyze). */
typedef struct tg_search_candidate {
    tg_point move;
    int visits;
    double winrate;           /* for the side to move, 0..1 */
    double prior;             /* the prior's winrate */
    double score_lead;        /* mean final margin for the side to move, in points */
    int pv_length;
    tg_point pv[24];          /* principal variation, starting with move */
} tg_search_candidate;

typedef struct tg_search_report {
    int playouts;             /* in this decision, threads together */
    double seconds;
    double winrate;           /* of the best candidate, for the side to move */
    bool value_function;      /* the learned value function judged its leaves */
    int candidate_count;
    tg_search_candidate candidates[32]; /* by visits, best first */
} tg_search_report;

/* Called by the controlling thread about every interval (see
 * tg_search_run) while it searches; return false to stop early. */
typedef bool (*tg_search_progress_fn)(void *ctx, const tg_search_report *report);

/* Search the position of g (which is not changed) for `color` and set
 * *move to the move to play: a point legal under g's rules, TG_PASS or
 * TG_RESIGN.  In cleanup mode (kgs-genmove_cleanup) it does not pass while
 * enemy stones it owns by the search's count are left on the board.
 * TG_OK, or TG_ERR_NO_MEMORY when the search could not run (*move is then
 * TG_NO_POINT, not a move to play). */
tg_status tg_search_genmove(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits,
                            bool cleanup, tg_point *move);

/* tg_search_genmove where the rules offer moves no playout plays: a
 * suicide of more than one stone (suicide=yes, the free-opening ruleset)
 * and, where *flags has TG_PLAY_CAPTURE_OWN on entry (the caller can play
 * and relay it), the capture choice (capture=choose).  Where the search's
 * move is not winning, each such move is judged against it by a search of
 * the position it leaves (a quarter of the budget for all of them, within
 * the hard time limit), and played when clearly better: they can win only
 * where the rule against repetition stands in the way of the ordinary
 * moves.  On return *flags holds the move's play flags (tg_game_play). */
tg_status tg_search_genmove_choice(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits,
                                   bool cleanup, unsigned *flags, tg_point *move);

/* The same search for analysis: runs until the limits (or until
 * tg_search_stop, or the callback says stop), reporting every
 * interval_seconds; *move (move may be NULL) is the best move.  TG_OK, or
 * TG_ERR_NO_MEMORY as tg_search_genmove. */
tg_status tg_search_run(tg_search *s, const tg_game *g, tg_color color, const tg_search_limits *limits,
                        double interval_seconds, tg_search_progress_fn progress, void *ctx, tg_point *move);

/* tg_search_genmove reporting its progress as tg_search_run does (for
 * lz-genmove_analyze and kata-genmove_analyze). */
tg_status tg_search_genmove_analyze(tg_search *s, const tg_game *g, tg_color color,
                                    const tg_search_limits *limits, bool cleanup, double interval_seconds,
                                    tg_search_progress_fn progress, void *ctx, tg_point *move);

/* Ask a running search to stop soon (thread-safe, async-signal-safe). */
void tg_search_stop(tg_search *s);

/* The last search's report, and its ownership map: for every point,
 * -1 (White's) .. +1 (Black's) from the ends of its playouts.  Both stay
 * valid until the next search; during a search, a progress callback sees
 * them as of that report. */
const tg_search_report *tg_search_last_report(const tg_search *s);
const float *tg_search_ownership(const tg_search *s);

/* Dead stones by the last search's ownership (dead[p] = 1 for a stone the
 * opponent owns in most playouts). */
void tg_search_dead_stones(const tg_search *s, const tg_board *b, uint8_t *dead);

/* The time to spend on the next move in b of the player whose time this
 * is (clock.h: a running clock's, or what a GTP controller said), keeping
 * lag_seconds in reserve for the lag between the controller's clock and
 * ours.  Sets limits->seconds and max_seconds; false (and nothing set)
 * when there is no time limit. */
bool tg_search_time_plan(const tg_time_state *time, const tg_board *b, double lag_seconds,
                         tg_search_limits *limits);

/* Forget the tree (new game, changed rules). */
void tg_search_clear(tg_search *s);

#endif
