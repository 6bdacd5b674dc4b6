/*
 * tournament.h — tournaments on points (计算机积分编排, T1): McMahon,
 * Swiss and round-robin; players who join late, skip rounds or withdraw;
 * pairing by maximum-weight matching over the organiser's weighted
 * criteria; handicap and komi; results with the competition's outcomes
 * (双负 both lose, jigo, replay, forfeit, lateness) and a log of
 * corrections; standings with tie-breaks and a crosstable; Glicko-2
 * ratings; the tournament file (JSON) and OpenGotha XML, EGF, AGA and HTML.
 *
 * A layer above control/referee and below the server and the CLI.  Like
 * all of libtengen it never prints or exits: functions return a tg_status
 * and, where a person must be told why, fill err.  Texts (files, pages)
 * come back as malloc'd strings; the caller reads and writes the files.
 *
 * Scores are kept in half points (score2) so that jigo and half-point
 * byes stay integers.  Rounds are numbered from 1, players by their index
 * in t->players (their id), boards from 1.
 */
#ifndef TENGEN_TOURNAMENT_H
#define TENGEN_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tengen/common.h"

#define TG_TOUR_MAX_ROUNDS 64
#define TG_TOUR_MAX_PLAYERS 100000
#define TG_TOUR_TEXT 128  /* names, clubs, notes: bytes with the NUL */

/* Ranks: 30k = -30 ... 1k = -1, 1d = 0 ... 9d = 8 (as OpenGotha counts). */
#define TG_RANK_MIN (-30)
#define TG_RANK_MAX 8

/* "5k", "3d", "1D", "12K"; professional ranks "1p".."9p" are read as 9d.
 * TG_ERR_PARSE for anything else. */
tg_status tg_rank_parse(const char *text, int *rank);
/* "5k", "3d" into buf (at least 4 bytes). */
const char *tg_rank_text(int rank, char *buf, size_t size);

typedef enum tg_tour_system {
    TG_SYSTEM_MCMAHON,      /* score = McMahon start score (from rank) + points */
    TG_SYSTEM_SWISS,        /* score = points */
    TG_SYSTEM_ROUND_ROBIN   /* Berger tables: everyone meets everyone */
} tg_tour_system;

typedef enum tg_handicap_mode {
    TG_HANDICAP_NONE,       /* even games, colours balanced */
    TG_HANDICAP_MCMAHON,    /* from the difference of McMahon scores */
    TG_HANDICAP_RANK        /* from the difference of ranks */
} tg_handicap_mode;

typedef enum tg_seeding {
    TG_SEED_ADJACENT,       /* within a score group pair neighbours in strength */
    TG_SEED_FOLD            /* split and fold: 1st of the group meets the middle one */
} tg_seeding;

/* Pairing criteria: each is a penalty subtracted from an edge's weight.
 * The defaults (tg_tour_settings_default) rank them: repeats are never
 * paired; the bye goes to the lowest-placed player without one; then
 * score group, handicap limit, club, colours, country, floats, seeding;
 * lots break what is still tied. */
typedef struct tg_pairing_weights {
    int64_t score_gap;      /* per half point of score difference, squared */
    int64_t handicap_over;  /* per stone above max_handicap */
    int64_t colour;         /* both players due the same colour */
    int64_t same_club;      /* while round <= club_rounds */
    int64_t same_country;   /* while round <= club_rounds */
    int64_t float_repeat;   /* a player drawn up (down) again */
    int64_t seeding;        /* per step away from the seeding's ideal partner */
    int64_t bye_repeat;     /* a bye to someone who had one */
    int64_t bye_place;      /* per place above the lowest for the bye (64 at most) */
    int club_rounds;
} tg_pairing_weights;

typedef enum tg_tiebreak {
    TG_TB_SCORE,            /* McMahon score, or points in Swiss/round-robin */
    TG_TB_POINTS,           /* wins (half points for jigo and half byes) */
    TG_TB_SOS,              /* sum of opponents' scores */
    TG_TB_SOSOS,            /* sum of opponents' SOS */
    TG_TB_SODOS,            /* sum of beaten opponents' scores (half for jigo) */
    TG_TB_CUMULATIVE,       /* 累进分: the sum of one's points after each round */
    TG_TB_DIRECT,           /* direct encounter among those still tied */
    TG_TB_COUNT
} tg_tiebreak;

const char *tg_tiebreak_name(tg_tiebreak tb);  /* "sos" ... */
/* "mms,sos,sosos" (names: score|mms|wins|points|sos|sosos|sodos|cumulative|
 * cuss|direct) into list; TG_ERR_PARSE with err. */
tg_status tg_tiebreaks_parse(const char *text, tg_tiebreak *list, int *count, char *err,
                             size_t errlen);

typedef struct tg_tour_settings {
    char name[TG_TOUR_TEXT];
    tg_tour_system system;
    int rounds;              /* planned, 1..TG_TOUR_MAX_ROUNDS */
    int bar, floor;          /* McMahon: ranks at and above bar start equal, as do those at and below floor */
    tg_handicap_mode handicap;
    int handicap_reduction;  /* stones taken off the difference */
    int max_handicap;        /* cap, 0..9 */
    int komi2;               /* even games' komi in half points (15 = 7.5) */
    bool jigo_allowed;       /* the ruleset can give a draw (integer komi) */
    int bye_points2;         /* a bye scores this (half points) */
    int absent_points2;      /* a skipped round, a round before joining, after withdrawing */
    tg_seeding seeding;
    tg_pairing_weights weights;
    tg_tiebreak tiebreaks[TG_TB_COUNT];
    int tiebreak_count;
    uint64_t seed;           /* the lots: every round's draw is derived from it */
    double glicko_tau;       /* Glicko-2 system constant, 0.5 by default */
} tg_tour_settings;

typedef struct tg_tour_player {
    char name[TG_TOUR_TEXT];
    char club[TG_TOUR_TEXT];
    char country[8];
    int rank;
    double rating, deviation, volatility;  /* Glicko-2, on the Glicko scale */
    int joined_round;                       /* first round to be paired in */
    int withdrawn_round;                    /* 0, or not paired from this round on */
    uint64_t skipped;                       /* bit r-1: not paired in round r */
} tg_tour_player;

typedef enum tg_outcome {
    TG_OUTCOME_NONE,        /* not played yet */
    TG_OUTCOME_BLACK_WINS,
    TG_OUTCOME_WHITE_WINS,
    TG_OUTCOME_JIGO,        /* only where jigo_allowed */
    TG_OUTCOME_BOTH_LOSE,   /* 双负 (T3) */
    TG_OUTCOME_REPLAY       /* to be replayed (T5): no points yet */
} tg_outcome;

typedef enum tg_win_reason {
    TG_REASON_UNSTATED,
    TG_REASON_SCORE,        /* counted: margin2 half points */
    TG_REASON_RESIGNATION,
    TG_REASON_TIME,
    TG_REASON_FORFEIT,      /* not played: a rule broken, a no-show declared */
    TG_REASON_ABSENCE,      /* lateness beyond the limit (T4, R8) */
    TG_REASON_ADJUDICATION  /* the referee's ruling */
} tg_win_reason;

typedef struct tg_tour_result {
    tg_outcome outcome;
    tg_win_reason reason;
    int margin2;            /* TG_REASON_SCORE: the winner's margin in half points */
} tg_tour_result;

/* "B+R" "W+T" "B+F" (forfeit) "W+L" (late/absent) "B+A" (adjudicated)
 * "B+7.5" "W+" "jigo" "=" "BL" / "both-lose" "replay" "none" "?"; any
 * case.  TG_ERR_PARSE otherwise. */
tg_status tg_tour_result_parse(const char *text, tg_tour_result *r);
const char *tg_tour_result_text(const tg_tour_result *r, char *buf, size_t size);

typedef struct tg_tour_game {
    int board;
    int black, white;       /* player ids */
    int handicap;           /* stones; 1 = no stones, no komi */
    int komi2;
    tg_tour_result result;
    bool manual;            /* paired by the organiser */
} tg_tour_game;

typedef struct tg_tour_round {
    int number;
    tg_tour_game *games;
    int game_count;
    int *byes;              /* ids of players given a bye */
    int bye_count;
    uint64_t lot_seed;      /* the draw of lots of this round */
    int *lots;              /* a lot per player id registered when the round was
                             * paired (lot_count entries): ties go to the lower lot */
    int lot_count;
    /* games of earlier rounds without a result, decided by lot for this
     * round's pairing only (T2): round, board and the winner's colour */
    int (*by_lot)[3];
    int by_lot_count;
} tg_tour_round;

typedef struct tg_tour_correction {
    int round, board;
    tg_tour_result from, to;
    char note[TG_TOUR_TEXT];
} tg_tour_correction;

typedef struct tg_tournament {
    tg_tour_settings settings;
    tg_tour_player *players;
    int player_count, player_capacity;
    tg_tour_round *rounds;  /* rounds[0] is round 1; round_count paired so far */
    int round_count;
    tg_tour_correction *corrections;
    int correction_count;
} tg_tournament;

/* McMahon bar 9d..floor 30k... sensible defaults for a system. */
void tg_tour_settings_default(tg_tour_settings *s, tg_tour_system system);
tg_tournament *tg_tour_new(const tg_tour_settings *s);
void tg_tour_free(tg_tournament *t);

/* Adds p (joined_round 0: the next round to be paired); *id its id. */
tg_status tg_tour_add_player(tg_tournament *t, const tg_tour_player *p, int *id, char *err,
                             size_t errlen);
/* The player by name (exact, then case-insensitive), or by "#id"; -1. */
int tg_tour_find_player(const tg_tournament *t, const char *name);
tg_status tg_tour_withdraw(tg_tournament *t, int player, int from_round, char *err, size_t errlen);
tg_status tg_tour_skip_round(tg_tournament *t, int player, int round, bool skip, char *err,
                             size_t errlen);
/* Whether the player is to be paired in round. */
bool tg_tour_present(const tg_tournament *t, int player, int round);

typedef struct tg_pair_options {
    bool by_lot;            /* decide earlier games without a result by lot (T2) */
} tg_pair_options;

/* Pairs round round_count + 1, or re-pairs the last round while none of
 * its results is in.  TG_ERR_NOT_ALLOWED with err when it cannot (a result
 * missing without by_lot, no pairing without a repeat, all rounds done). */
tg_status tg_tour_pair(tg_tournament *t, int round, const tg_pair_options *o, char *err,
                       size_t errlen);
/* Pairs round by hand: pairs[i] = {black, white}; byes listed; everyone
 * else present gets nothing (absent).  Colours as given; handicap and komi
 * by the settings. */
tg_status tg_tour_pair_manual(tg_tournament *t, int round, const int (*pairs)[2], int pair_count,
                              const int *byes, int bye_count, char *err, size_t errlen);
/* Removes the last round's pairing while none of its results is in. */
tg_status tg_tour_unpair(tg_tournament *t, int round, char *err, size_t errlen);

/* Enters or corrects a result; a change of an entered result is logged
 * with note.  Jigo is refused unless the settings allow it. */
tg_status tg_tour_set_result(tg_tournament *t, int round, int board, const tg_tour_result *r,
                             const char *note, char *err, size_t errlen);

/* Handicap stones and komi for a game of the two (black is the weaker
 * where there is a handicap), by the settings and the scores before round. */
void tg_tour_handicap(const tg_tournament *t, int stronger, int weaker, int round, int *handicap,
                      int *komi2);

/* The standings after `round` (0: all paired rounds). */
typedef struct tg_standing {
    int player;
    int place;              /* equal for players tied on every criterion */
    int score2, points2;
    int64_t tiebreak[TG_TB_COUNT];  /* by tg_tiebreak, in half points */
    int wins, losses, jigos, byes;
} tg_standing;

/* *out: player_count entries in order of place (malloc'd). */
tg_status tg_tour_standings(const tg_tournament *t, int round, tg_standing **out);
/* A player's score (half points) before round (after round - 1). */
int tg_tour_score_before(const tg_tournament *t, int player, int round);
/* McMahon start score of a rank by bar and floor (0 at the floor). */
int tg_tour_mcmahon_start(const tg_tour_settings *s, int rank);

/* Texts, malloc'd (NULL: no memory). */
char *tg_tour_crosstable_text(const tg_tournament *t, int round);
char *tg_tour_standings_html(const tg_tournament *t, int round);
char *tg_tour_pairing_text(const tg_tournament *t, int round);
char *tg_tour_to_egf(const tg_tournament *t);
char *tg_tour_to_aga(const tg_tournament *t);
char *tg_tour_to_opengotha(const tg_tournament *t);

/* The tournament file: one JSON document (see tournament_file.c). */
char *tg_tour_to_json(const tg_tournament *t);
tg_status tg_tour_from_json(const char *text, size_t length, tg_tournament **out, char *err,
                            size_t errlen);
tg_status tg_tour_from_opengotha(const char *text, size_t length, tg_tournament **out, char *err,
                                 size_t errlen);

/* Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): ratings
 * and deviations on the Glicko scale (1500, 350), volatility; tau the
 * system constant (0.3..1.2; tengen uses 0.5). */
typedef struct tg_glicko {
    double rating, deviation, volatility;
} tg_glicko;

/* One rating period: the player's games against opponents (as they were
 * before the period) with scores 1, 0.5, 0.  No games: only the deviation
 * grows. */
void tg_glicko2_update(const tg_glicko *player, const tg_glicko *opponents, const double *scores,
                       int count, double tau, tg_glicko *out);
#define TG_GLICKO_PROVISIONAL_DEVIATION 160.0
/* The rank of a rating as OGS maps it (rank = 23.15 ln(rating / 525),
 * 30 = 1d): -30 (30k) .. 8 (9d), clamped. */
int tg_glicko_rank(double rating);
/* Every player's rating after one period of the games of round. */
tg_status tg_tour_update_ratings(tg_tournament *t, int round);

#endif
