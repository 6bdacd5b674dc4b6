/*
 * rules.h — a ruleset as a plain struct of independent options, the named
 * presets, and the key=value language to override them.
 *
 * Every option stands alone (KataGo's model), so any mix can be configured:
 * "chinese", "japanese ko=positional", "tromp-taylor komi=6.5", ...
 */
#ifndef TENGEN_RULES_H
#define TENGEN_RULES_H

#include "common.h"

typedef enum tg_ko_rule {
    TG_KO_SIMPLE = 0,       /* only the immediate recapture of a single stone is barred */
    TG_KO_POSITIONAL,       /* no whole-board position may recur */
    TG_KO_SITUATIONAL       /* no position may recur with the same player to move */
} tg_ko_rule;

typedef enum tg_scoring { TG_SCORING_AREA = 0, TG_SCORING_TERRITORY } tg_scoring;

typedef enum tg_tax {
    TG_TAX_NONE = 0,  /* every surrounded empty point counts */
    TG_TAX_SEKI,      /* points inside seki groups count nothing (Japanese) */
    TG_TAX_ALL        /* as SEKI, and each independently living group pays 2 points (还棋头) */
} tg_tax;

/* What a repeating cycle means when the ko rule does not forbid it (simple ko). */
typedef enum tg_cycle { TG_CYCLE_NO_RESULT = 0, TG_CYCLE_DRAW } tg_cycle;

/* Handicap compensation given to White under area scoring. */
typedef enum tg_handicap_comp {
    TG_HCOMP_NONE = 0, /* 0 */
    TG_HCOMP_N,        /* one point per handicap stone (Chinese) */
    TG_HCOMP_N_MINUS_1 /* one point per handicap stone after the first (AGA) */
} tg_handicap_comp;

/* What a referee does with an illegal move (RULES.md R6). */
typedef enum tg_illegal_policy {
    TG_ILLEGAL_REJECT = 0, /* refused, the player moves again */
    TG_ILLEGAL_VOID,       /* void and counted as a pass with a warning; two warnings lose */
    TG_ILLEGAL_LOSE        /* the game is lost at once */
} tg_illegal_policy;

typedef struct tg_rules {
    tg_ko_rule ko;
    bool suicide;                 /* multi-stone suicide allowed (single-stone never is) */
    tg_scoring scoring;
    tg_tax tax;
    tg_cycle cycle;
    tg_handicap_comp handicap_comp;
    tg_illegal_policy illegal;
    bool dead_removed;            /* false: every stone on the board counts as alive (Tromp-Taylor) */
    int komi2;                    /* komi in half points: 15 = 7.5 */
    char name[32];                /* preset the options came from, or "custom" */
    /* The free-opening ruleset of 002 (RULES.md §4); false and 0 in every other
     * preset, so that their options and descriptions are unchanged. */
    bool white_first;             /* first=white: White moves first */
    int free_opening;             /* opening=free: no pass among the first 4 stones (W B W B) */
    bool capture_choice;          /* capture=choose: when both sides' chains lack liberties,
                                     the mover chooses whose are removed (tg_game_play's
                                     TG_PLAY_CAPTURE_OWN) */
    bool repetition_loses;        /* repetition=lose: a move repeating a situation loses at
                                     once (game control), rather than being refused */
    bool suicide_any;             /* suicide=any: single-stone suicide too */
    bool dispute_in_turn;         /* dispute=turn: a disagreement on dead stones resumes
                                     play in turn order, not with the claimer of "dead" */
    bool decisive;                /* decide=yes: a count equal to the free opening's
                                     threshold wins for the colour the threshold favours
                                     (002 §5.3.2, where a decision is required) rather
                                     than drawing */
    /* The free opening's sealed predictions once revealed (002 §5.3;
     * tg_rules_reveal in free_opening.h): the threshold is their mean, and
     * a count is stated against it exactly (tg_result_of_count, in quarter
     * points where it is a quarter), while komi2 holds the komi that
     * decides every count alike, for the engine and SGF KM.  A komi set
     * afterwards (komi=K, GTP komi) replaces the threshold. */
    bool revealed;
    int prediction_first2, prediction_second2; /* half stones for White */
} tg_rules;

/* The presets: chinese (default), japanese, korean, aga, new-zealand,
 * free-opening (002: white first, a free opening of four stones, suicide of
 * any size, the capture choice, situational repetition losing, disputes in
 * turn order, komi 0 until the predictions set the threshold),
 * tromp-taylor, ancient.  Returns TG_ERR_INVALID for an unknown name. */
tg_status tg_rules_preset(tg_rules *r, const char *name);
/* The default ruleset (chinese). */
void tg_rules_default(tg_rules *r);

/* Apply a space-separated list of preset names and key=value pairs, left to
 * right.  Keys: ko=simple|positional|situational, suicide=yes|no,
 * scoring=area|territory, tax=none|seki|all, cycle=no-result|draw,
 * handicap=0|N|N-1, illegal=reject|void|lose, dead=remove|keep, komi=K;
 * and the free opening's first=black|white, opening=none|free,
 * capture=opponent|choose, repetition=illegal|lose, dispute=claimer|turn,
 * decide=no|yes.
 * On error nothing is changed and err (if not NULL) says why. */
tg_status tg_rules_apply(tg_rules *r, const char *text, char *err, size_t errlen);

/* Map an SGF RU value ("Chinese", "Japanese", "AGA", "NZ", "Tromp-Taylor",
 * "GOE", ...) to a ruleset; unknown values give the default and TG_ERR_INVALID. */
tg_status tg_rules_from_sgf(tg_rules *r, const char *ru);
/* The SGF RU value for a ruleset (a preset name or a key=value list). */
void tg_rules_to_sgf(const tg_rules *r, char *buf, size_t len);

/* One line "ko=positional suicide=no scoring=area tax=none cycle=no-result
 * handicap=N illegal=void dead=remove komi=7.5". */
void tg_rules_describe(const tg_rules *r, char *buf, size_t len);

/* Komi parsing/validation: integer or half-integer, |komi| <= 400. */
tg_status tg_komi_parse(const char *text, int *komi2);
/* "7.5", "-3", "0.5" */
void tg_komi_format(int komi2, char *buf, size_t len);

/* Points of compensation White receives for `handicap` stones (< 2 means none). */
int tg_rules_handicap_points(const tg_rules *r, int handicap);

#endif
