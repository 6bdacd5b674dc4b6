/*
 * referee.h — the referee of engine matches: GTP engines as child
 * processes, one game refereed between two of them under the rules and the
 * clock, a deterministic schedule of many games (matches, round-robins,
 * gauntlets) run in parallel, the results file (JSON lines) and the
 * statistics (Elo with its 95% interval, SPRT).
 *
 * The referee trusts no engine: every move is checked by the game layer,
 * every answer is awaited with a deadline, and an engine that crashes,
 * hangs, answers garbage or plays an illegal move (under the lose policy)
 * loses that game by forfeit and is restarted for the next.
 *
 * Library code: nothing here prints or exits.  Progress comes back through
 * a callback; errors as a status and a message.  Engine processes run in
 * process groups of their own (so a terminal's Ctrl-C reaches only the
 * referee) and are always killed and reaped.  Writes to engines never raise
 * SIGPIPE.
 */
#ifndef TENGEN_REFEREE_H
#define TENGEN_REFEREE_H

#include <stdatomic.h>

#include "clock.h"
#include "free_opening.h"
#include "game.h"

/* ---- Engine processes ------------------------------------------------------ */

typedef struct tg_engine_config {
    const char *name;
    const char *command;       /* run by /bin/sh -c */
    const char *stderr_path;   /* engine's stderr: NULL discards, "-" inherits, else appended */
    int quit_grace_ms;         /* after `quit`, how long before SIGKILL */
    const atomic_int *stop;    /* when non-zero, every wait returns TG_REPLY_STOPPED */
} tg_engine_config;

typedef struct tg_engine tg_engine;

typedef enum tg_reply {
    TG_REPLY_OK = 0,    /* "= ..." */
    TG_REPLY_FAILURE,   /* "? ..." */
    TG_REPLY_GARBAGE,   /* not a GTP answer, or an unreasonably long one */
    TG_REPLY_TIMEOUT,   /* no complete answer by the deadline */
    TG_REPLY_DIED,      /* the engine closed its output or could not be written to */
    TG_REPLY_STOPPED    /* the stop flag was raised */
} tg_reply;

/* Start the engine (the strings are copied). */
tg_status tg_engine_start(const tg_engine_config *config, tg_engine **out, char *err,
                          size_t errlen);
/* Stop the process (quit, grace, SIGKILL to its group, reap) and start it again. */
tg_status tg_engine_restart(tg_engine *e, char *err, size_t errlen);
/* Stop and reap the process and free everything.  NULL is fine. */
void tg_engine_free(tg_engine *e);
bool tg_engine_running(const tg_engine *e);
const char *tg_engine_name(const tg_engine *e);
/* Send one command line and wait for its answer until deadline_ms (a
 * tg_clock_now_ms() time; < 0: no deadline).  The answer's text, without
 * "=", id and the blank line, goes to answer (len bytes, truncated). */
tg_reply tg_engine_send(tg_engine *e, const char *command, int64_t deadline_ms, char *answer,
                        size_t len);
/* known_command, asked once per process and remembered. */
bool tg_engine_knows(tg_engine *e, const char *command, int64_t deadline_ms);
const char *tg_reply_text(tg_reply r);

/* ---- One game ------------------------------------------------------------- */

/* What to do when the engines disagree on the dead stones after two passes. */
typedef enum tg_dispute_policy {
    TG_DISPUTE_CLEANUP = 0, /* play on with kgs-genmove_cleanup (or genmove), then count */
    TG_DISPUTE_ESTIMATE     /* tengen's own estimate of the dead stones (score.h) */
} tg_dispute_policy;

typedef struct tg_referee_config {
    int size;
    tg_rules rules;               /* komi and the illegal-move policy included */
    int handicap;                 /* fixed handicap stones, 0 or 2..9 */
    tg_time_control time;
    int64_t lag_ms;               /* clock lag allowance per move */
    int move_cap;                 /* moves after which the game is adjudicated; 0: 4*size*size */
    tg_dispute_policy dispute;
    int timeout_ms;               /* answers no clock bounds (setup, genmove without a
                                     clock, final_status_list); 0: wait for ever */
    int estimate_playouts;        /* dead-stone estimate; 0: TG_DEAD_PLAYOUTS */
    const tg_move *opening;       /* moves both engines are told before play starts */
    int opening_len;
    uint64_t seed;                /* the estimator's random numbers */
    const char *black_name, *white_name, *event, *round;
    const char *note;             /* added to the SGF's GC (the nigiri draw), or NULL */
    /* the free-opening ruleset's predictions, for the record (PF, PS, FC) */
    bool has_predictions;
    int prediction_first2, prediction_second2;
    tg_color first_player;
    /* the free opening's prediction time (002 §5.3.3) for each engine; 0:
     * from the clock (tg_prediction_time_ms), < 0: none (timeout_ms bounds it) */
    int64_t prediction_ms;
} tg_referee_config;

/* Why a game ended, as written in the results file. */
typedef enum tg_end_reason {
    TG_END_SCORE = 0,   /* two passes and a count */
    TG_END_RESIGN,
    TG_END_TIME,        /* the clock ran out */
    TG_END_ILLEGAL,     /* illegal move under the lose policy, or too many under reject */
    TG_END_WARNINGS,    /* second warning (void policy, R7) */
    TG_END_CRASH,       /* the engine died */
    TG_END_HANG,        /* no answer within --timeout (no clock bounding it) */
    TG_END_GARBAGE,     /* an answer that is not GTP or not a move */
    TG_END_REFUSED,     /* the engine answered an error to a command it must obey */
    TG_END_MOVE_CAP,    /* adjudicated by the estimator after the move cap */
    TG_END_CYCLE,       /* a repetition ended the game (simple ko) */
    TG_END_START,       /* the engine could not be started */
    TG_END_COUNT_
} tg_end_reason;
const char *tg_end_reason_name(tg_end_reason r);
/* The reason named by its name; TG_END_COUNT_ when unknown. */
tg_end_reason tg_end_reason_parse(const char *name);

typedef struct tg_referee_outcome {
    tg_result result;
    char result_text[24];  /* SGF RE: "B+3.5", "W+T", "B+F", "Void" */
    tg_end_reason reason;
    tg_color culprit;      /* whose engine failed (forfeits, time), else TG_EMPTY */
    char detail[240];      /* what happened, for the log: the answer, the move */
    int moves;             /* moves of the game record (passes included) */
    int warnings[3];
    bool restart[3];       /* [colour]: that engine must be restarted before reuse */
    bool stopped;          /* the stop flag interrupted it: no result */
    int64_t duration_ms;
} tg_referee_outcome;

/* Referee one game between two running engines (both are set up first:
 * boardsize, clear_board, komi, rules, time settings, handicap, opening).
 * On TG_OK, *out holds the outcome and *sgf (when sgf is not NULL) a malloc'd
 * SGF record with the clock after every move.  An engine's failure is an
 * outcome, not an error; errors are out of memory and bad configuration. */
tg_status tg_referee_play(const tg_referee_config *cfg, tg_engine *black, tg_engine *white,
                          const atomic_int *stop, tg_referee_outcome *out, char **sgf);

/* The free-opening ruleset's opening and sealed predictions between two
 * engines (002 §5.2-§5.3), before tg_referee_play plays the game on with
 * the four stones as its opening and the threshold as its komi. */
typedef struct tg_free_opening_outcome {
    tg_move stones[4];
    int first2, second2;           /* the predictions, half stones for White */
    char first_how[16], second_how[16]; /* tengen-predict, final_score or default */
    tg_predictions decision;
    bool failed;                   /* an engine failed in the opening: it loses */
    int culprit;                   /* 0 the first player's engine, 1 the second's */
    tg_end_reason reason;
    char detail[240];
} tg_free_opening_outcome;
tg_status tg_referee_free_opening(const tg_referee_config *cfg, tg_engine *first, tg_engine *second,
                                  tg_free_opening_outcome *out);

/* ---- A schedule of games --------------------------------------------------- */

typedef enum tg_tournament {
    TG_TOURNAMENT_MATCH = 0,   /* exactly two engines */
    TG_TOURNAMENT_ROUND_ROBIN, /* every pair */
    TG_TOURNAMENT_GAUNTLET     /* the first engine against each of the others */
} tg_tournament;

typedef struct tg_scheduled_game {
    int game;           /* 1-based number, stable across --resume */
    int black, white;   /* engine indices */
    int opening;        /* index into the openings, -1 for none */
    uint64_t seed;      /* per-game seed, from the match seed and the game number */
    int nigiri_guess;   /* with nigiri: 1 (odd) or 2 (even) guessed, else 0 */
    int nigiri_stones;  /* the handful drawn, else 0 */
} tg_scheduled_game;

typedef struct tg_schedule_config {
    tg_tournament tournament;
    int engines;        /* number of engines */
    int games;          /* games per pair */
    int openings;       /* number of openings (0: none); each is played with both colours */
    bool nigiri;        /* colours by nigiri (R1) instead of alternating */
    uint64_t seed;
    /* the first engine of each pair Black in every game (a handicap match,
     * the weaker engine named first); not with nigiri */
    bool fixed;
} tg_schedule_config;

/* The whole schedule, a malloc'd array in *out (count in *count).  The same
 * config always gives the same schedule, so a resumed match plays exactly
 * the games that were missing. */
tg_status tg_schedule_make(const tg_schedule_config *cfg, tg_scheduled_game **out, int *count);

/* ---- Openings ------------------------------------------------------------- */

typedef struct tg_openings {
    tg_move **moves;   /* moves[k]: opening k */
    int *len;          /* its number of moves */
    int count;
} tg_openings;

/* Openings from text: an SGF collection (text starting with '(': the main
 * line of each game, at most max_moves moves, < 0 for all) or one opening a
 * line, vertices separated by blanks ("D4 Q16 pass"), Black first; '#'
 * starts a comment.  Every opening is checked by replaying it under the
 * rules on a board of `size`; err says which one is wrong. */
tg_status tg_openings_parse(const char *text, size_t len, int size, const tg_rules *rules,
                            int max_moves, tg_openings *out, char *err, size_t errlen);
void tg_openings_free(tg_openings *o);

/* ---- Results and statistics ----------------------------------------------- */

typedef struct tg_game_record {
    int game;
    int black, white;          /* engine indices */
    char black_name[64], white_name[64];
    char result[24];           /* SGF RE */
    tg_end_reason reason;
    tg_color culprit;
    int moves;
    uint64_t seed;
    int opening;
    char sgf[512];             /* path of the SGF file, "" when none */
    char detail[240];
    char nigiri[192];          /* the recorded draw when colours were decided by nigiri */
    /* the free-opening ruleset: the colour the first player's engine
     * played (TG_EMPTY under any other ruleset), both predictions and the
     * threshold ("W+6.5") */
    tg_color first_colour;
    char prediction_first[16], prediction_second[16], threshold[16];
    int64_t duration_ms;
} tg_game_record;

/* One JSON object (no newline), malloc'd; NULL when out of memory. */
char *tg_game_record_to_json(const tg_game_record *r);
/* Parse one line written by tg_game_record_to_json; TG_ERR_PARSE otherwise. */
tg_status tg_game_record_from_json(const char *line, tg_game_record *r);
/* 1 when the record's black wins, 0 for white, -1 for a draw or no result. */
int tg_game_record_black_wins(const tg_game_record *r);

/* Win/draw/loss of engine A against engine B, and what follows from it. */
typedef struct tg_score_line {
    int wins, draws, losses;
} tg_score_line;

/* Elo difference of A over B from a score line, with the 95% interval from
 * the normal approximation of the score's standard error (trinomial).  With
 * no games, or all won or all lost, the interval is infinite and *elo is
 * +-INFINITY or 0. */
void tg_elo(const tg_score_line *s, double *elo, double *low, double *high);
/* Likelihood of Elo from 0.5 + score difference: the probability the
 * score's better side is really stronger (LOS). */
double tg_elo_los(const tg_score_line *s);

typedef struct tg_sprt {
    double elo0, elo1, alpha, beta;
} tg_sprt;
/* "elo0,elo1,alpha,beta", e.g. "0,10,0.05,0.05". */
tg_status tg_sprt_parse(const char *text, tg_sprt *out);
typedef enum tg_sprt_verdict { TG_SPRT_CONTINUE = 0, TG_SPRT_H0, TG_SPRT_H1 } tg_sprt_verdict;
/* The log-likelihood ratio of H1 (elo1) over H0 (elo0) for the score line
 * (the BayesElo-free trinomial approximation fishtest used), its bounds
 * log(beta/(1-alpha)) and log((1-beta)/alpha), and the verdict. */
tg_sprt_verdict tg_sprt_test(const tg_sprt *sprt, const tg_score_line *s, double *llr,
                             double *lower, double *upper);

/* ---- Running a schedule ---------------------------------------------------- */

typedef struct tg_match_engine {
    char name[64];
    const char *command;
} tg_match_engine;

typedef struct tg_match_config {
    tg_referee_config game;         /* opening, seed, names are set per game */
    const tg_match_engine *engines;
    int engine_count;
    const tg_scheduled_game *schedule;
    int schedule_len;
    const bool *done;               /* [i]: schedule[i] already played (--resume), may be NULL */
    const tg_move *const *openings; /* openings[k] is a list of opening_len[k] moves */
    const int *opening_len;
    int jobs;                       /* games at once, >= 1 */
    const char *engine_stderr;      /* as tg_engine_config.stderr_path */
    int quit_grace_ms;
    const char *sgf_dir;            /* NULL: no SGF files */
    atomic_int *stop;               /* raised by the caller (Ctrl-C), and by the match
                                       itself when the report callback says stop */
} tg_match_config;

/* Called (from worker threads, one call at a time) for each finished game;
 * returning false stops the match: games in progress are abandoned unrecorded. */
typedef bool (*tg_match_report_fn)(void *ctx, const tg_game_record *record);
/* Called when a game starts, under the same lock. */
typedef void (*tg_match_start_fn)(void *ctx, const tg_scheduled_game *game);

/* Play every game of the schedule not done, `jobs` at a time, each worker
 * thread with its own engine processes.  Returns when all are played, the
 * report callback returns false, or *stop is raised.  err holds the first
 * error (an engine that cannot be started is not one: it forfeits). */
tg_status tg_match_run(const tg_match_config *cfg, tg_match_report_fn report,
                       tg_match_start_fn started, void *ctx, char *err, size_t errlen);

#endif
