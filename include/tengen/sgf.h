/*
 * sgf.h — Smart Game Format FF[4]: a tolerant, non-recursive reader of
 * collections, variations and properties; a writer; and the bridge between an
 * SGF game tree and a tg_game (replayed under the rules its RU names).
 *
 * (The tree-level API below the marker is the SGF layer's own and is
 *  documented where it is declared.)
 */
#ifndef TENGEN_SGF_H
#define TENGEN_SGF_H

#include "clock.h"
#include "game.h"

typedef struct tg_sgf_error {
    int line, column;      /* 1-based position of the problem in the input */
    char message[160];
} tg_sgf_error;

/* What a reader repaired, or doubts, in a file it still read (a missing
 * final ')', rules it does not know, a repeated KM ...): where, and a
 * sentence.  Front ends show them as warnings; the first TG_SGF_MAX_NOTES
 * are kept, `count` counts them all. */
#define TG_SGF_MAX_NOTES 8
typedef struct tg_sgf_notes {
    int count;
    tg_sgf_error note[TG_SGF_MAX_NOTES];
} tg_sgf_notes;

/* One move's clock as SGF records it in the move's node, for the player
 * who made the move: BL/WL (seconds left) and OB/OW (moves or byo-yomi
 * periods left; see tg_clock_sgf_left in clock.h). */
typedef struct tg_sgf_move_clock {
    bool recorded;   /* false: the node has no clock for its mover */
    double seconds;  /* BL / WL */
    int moves;       /* OB / OW, < 0 when absent */
} tg_sgf_move_clock;

/* Record, as entry `index` of a growing array for tg_sgf_info.clocks, the
 * clock of `mover` just after its move (clock c read at now_ms).  *clocks
 * and *cap grow as needed, new entries unrecorded; false when out of
 * memory (the record then lacks that move's clock). */
bool tg_sgf_record_clock(tg_sgf_move_clock **clocks, int *cap, int index, const tg_clock *c,
                         tg_color mover, int64_t now_ms);

/* Game information kept beside a tg_game when loading or saving. */
typedef struct tg_sgf_info {
    char black[128], white[128];     /* PB PW */
    char black_rank[32], white_rank[32]; /* BR WR */
    char date[64], event[128], round[64]; /* DT EV RO */
    char result[64];                 /* RE as written */
    char rules[64];                  /* RU as written */
    char overtime[128];              /* OT */
    double main_time;                /* TM, seconds; < 0 when absent */
    /* Saving only: clocks[i] (i < clock_count) is written in the node of
     * move i (NULL: no per-move clock).  Loading sets NULL and 0; read the
     * clocks with tg_sgf_main_line_clocks. */
    const tg_sgf_move_clock *clocks;
    int clock_count;
    /* The free-opening ruleset's sealed predictions (002 §5.3), written as
     * tengen's root properties PF (the first player's), PS (the second's)
     * and FC (the colour the first player took, "W" or "B"); the threshold
     * is KM with its sign turned, and a move that took the capture choice
     * carries CC[own]. */
    bool has_predictions;
    int prediction_first2, prediction_second2; /* half stones, White's margin */
    tg_color first_player;
    /* The dead stones a counted game was counted with (dead[p] != 0: the
     * players' agreement, or the estimate that decided), so that counting
     * the record again gives its RE.  They are written as the count's
     * areas on the main line's last node, as CGoban, Sabaki and OGS mark a
     * counted game: TB Black's territory and TW White's (tg_score_territory),
     * and every dead stone's point in its opponent's, whether or not it
     * counts as territory, so the dead stones are exactly the stones lying
     * under the other colour's mark.  (Under dead=keep rules no stone is
     * dead and the marks are the territory alone.)
     * Saving: written when has_dead.  Loading: has_dead when the last node
     * of the main line holds TB or TW (and the whole line was replayed),
     * and dead[] marks the stones of the final position that lie under the
     * opponent's mark; a stone under its own colour's mark lives. */
    bool has_dead;
    uint8_t dead[TG_MAX_POINTS];
    /* Loading: the reader's repairs (tg_sgf_load_game) and what it doubts
     * in the game (rules it does not know and counts as Chinese, a
     * repeated root property).  Ignored when saving. */
    tg_sgf_notes notes;
} tg_sgf_info;

/* Load the first game of an SGF collection and replay its main line, at
 * most `max_moves` moves (< 0: all), under the rules its RU names (komi from
 * KM, handicap from HA/AB).  On error *out is NULL, err says where and why,
 * and nothing else changes.  info may be NULL. */
tg_status tg_sgf_load_game(const char *data, size_t len, int max_moves, tg_game **out,
                           tg_sgf_info *info, tg_sgf_error *err);
/* The same under other rules: `rules` (tg_rules_apply's text; NULL: none)
 * applied on top of those RU names, the record's komi kept unless they set
 * one, before any move is replayed, so that a record the default would
 * refuse (a position repeated under the default's superko) loads under the
 * rules it is to be counted by.  TG_ERR_INVALID, err saying why, for rules
 * tg_rules_apply refuses. */
tg_status tg_sgf_load_game_under(const char *data, size_t len, int max_moves, const char *rules,
                                 tg_game **out, tg_sgf_info *info, tg_sgf_error *err);

/* Write a game (its setup, moves and result) as an SGF FF[4] text,
 * malloc'd and NUL-terminated; NULL when out of memory.  info may be NULL. */
char *tg_sgf_save_game(const tg_game *g, const tg_sgf_info *info);

/* ---- tree-level API (SGF layer) ---- */

/*
 * An SGF collection held as a tree, as the FF[4] grammar has it:
 *
 *   Collection = GameTree+      GameTree = "(" Sequence GameTree* ")"
 *   Sequence   = Node+          Node     = ";" Property*
 *   Property   = PropIdent PropValue+
 *
 * Every node links to its first child and its next sibling; a sequence is a
 * chain of first children, and the main line of a game is the path of first
 * children from its root.  The roots of the games of a collection are
 * siblings of one another.  A tree owns all its nodes, properties and values
 * (they live in one arena and are freed together with tg_sgf_tree_free).
 *
 * Values are stored with the escapes of FF[4] resolved ("\]" is "]", "\\"
 * is "\", a backslash before a line break removes both) and otherwise as
 * written: the tree does not know property types.  Typed readings (points,
 * numbers, komi, size, simple text) are the decoders further below.
 */

typedef struct tg_sgf_value {
    struct tg_sgf_value *next;       /* next value of the same property */
    size_t length;                   /* bytes in text, not counting the NUL */
    char text[];                     /* unescaped, NUL-terminated (may hold NULs) */
} tg_sgf_value;

typedef struct tg_sgf_property {
    struct tg_sgf_property *next;    /* next property of the same node */
    tg_sgf_value *values;            /* one or more, in file order */
    int line, column;                /* where its identifier starts; 0 if built in memory */
    char id[];                       /* PropIdent: uppercase letters, e.g. "B", "AB", "KM" */
} tg_sgf_property;

typedef struct tg_sgf_node {
    struct tg_sgf_node *parent;      /* NULL for the root of a game */
    struct tg_sgf_node *child;       /* first child: where the main line goes on */
    struct tg_sgf_node *sibling;     /* next variation of the parent (next game for a root) */
    tg_sgf_property *properties;     /* in file order */
    int line, column;                /* of its ';'; 0 if built in memory */
} tg_sgf_node;

typedef struct tg_sgf_tree tg_sgf_tree;

/* Parse a whole collection in one pass, without recursion (variations may
 * nest as deep as memory allows).  The reader is tolerant of what real files
 * contain: text before, between and after game trees is skipped; FF[3]
 * identifiers keep only their uppercase letters ("AddBlack" is AB) and one
 * with no uppercase letter is dropped with its values; an empty game tree
 * "()" is ignored.  It repairs, and says so in tg_sgf_tree_notes: a root
 * written without its ';', game trees the file does not close, UTF-16 text
 * with a byte-order mark, a '(' in the text before a game that opens none.
 * Anything else that breaks the grammar is an error: on
 * error *out is NULL and err (if not NULL) gives the 1-based line and
 * column (in bytes) and a message.  Time is linear in the input; the tree
 * takes at most 40 bytes per input byte (a bare ";" is a 40-byte node; a
 * game record takes 10 to 16).  Properties stay as the file has them: a
 * node that repeats an identifier (which FF[4] forbids) holds it twice, and
 * tg_sgf_property_find gives the first. */
tg_status tg_sgf_parse(const char *data, size_t len, tg_sgf_tree **out, tg_sgf_error *err);

/* What the parse repaired to read the file (see tg_sgf_parse). */
const tg_sgf_notes *tg_sgf_tree_notes(const tg_sgf_tree *tree);

/* An empty collection to build in memory; NULL when out of memory. */
tg_sgf_tree *tg_sgf_tree_new(void);
void tg_sgf_tree_free(tg_sgf_tree *tree);

/* The root of the first game (its siblings are the other games), or NULL. */
tg_sgf_node *tg_sgf_tree_games(const tg_sgf_tree *tree);
/* Number of nodes in the whole collection. */
size_t tg_sgf_tree_node_count(const tg_sgf_tree *tree);

/* A new node appended as the last child of parent, or as the root of a new
 * last game when parent is NULL.  NULL when out of memory. */
tg_sgf_node *tg_sgf_node_add(tg_sgf_tree *tree, tg_sgf_node *parent);
/* Append a value (length bytes, stored unescaped as given) to the property
 * `id` of node, creating the property after the others if the node has none
 * of that name.  TG_ERR_INVALID when id is not 1..31 uppercase letters. */
tg_status tg_sgf_property_add(tg_sgf_tree *tree, tg_sgf_node *node, const char *id,
                              const char *value, size_t length);
/* The first property of node named id, or NULL. */
const tg_sgf_property *tg_sgf_property_find(const tg_sgf_node *node, const char *id);
/* The first value of that property, or NULL when the node has none. */
const char *tg_sgf_property_text(const tg_sgf_node *node, const char *id);

/* The collection as SGF text, malloc'd and NUL-terminated (its length in
 * *length when not NULL); NULL when out of memory.  "]" and "\" in values
 * are escaped; one node with several children opens a "(" per variation.
 * Written without recursion; parsing the text gives back the same tree. */
char *tg_sgf_write(const tg_sgf_tree *tree, size_t *length);

/* Replay the main line of the game whose root is `root`, as
 * tg_sgf_load_game does for the first game of a collection. */
tg_status tg_sgf_game_from_tree(const tg_sgf_node *root, int max_moves, tg_game **out,
                                tg_sgf_info *info, tg_sgf_error *err);
/* The tree tg_sgf_save_game writes: one game, its root holding the game
 * information and setup, then one node per move.  NULL when out of memory. */
tg_sgf_tree *tg_sgf_tree_from_game(const tg_game *g, const tg_sgf_info *info);

/* ---- decoders for Go property values ---- */

/* A move value on board b: "" (FF[4]) and "tt" on boards up to 19x19
 * (FF[3]) are TG_PASS.  TG_ERR_PARSE for text that is not a point,
 * TG_ERR_OFF_BOARD for a point outside the board. */
tg_status tg_sgf_decode_move(const tg_board *b, const char *text, tg_point *out);
/* The points of a list-of-point property (AB AW AE ...), expanding
 * compressed rectangles "aa:cc", each point once, in the order first met;
 * empty values are skipped.  out has room for TG_MAX_POINTS.  Returns the
 * count, or -1 with *status set when a value is not a point on b. */
int tg_sgf_decode_points(const tg_board *b, const tg_sgf_property *prop, tg_point *out,
                         tg_status *status);
/* The SGF text of a point ("" for a pass): out has room for 3 bytes. */
void tg_sgf_encode_point(const tg_board *b, tg_point p, char out[3]);
/* Board size from SZ: "19" or "19:19" (a square given as columns:rows). */
tg_status tg_sgf_decode_size(const char *text, int *size);
/* Komi in half points from KM, tolerating Fox's integer hundredths (see
 * sgf_value.c: KM[375] is 3.75 stones, 7.5 points; KM[650] is 6.5 points).
 * Rounded to the nearest half point. */
tg_status tg_sgf_decode_komi(const char *text, int *komi2);
/* A Number ("[+-]digits") that fits an int. */
tg_status tg_sgf_decode_number(const char *text, int *out);
/* A Real ("[+-]digits[.digits]"). */
tg_status tg_sgf_decode_real(const char *text, double *out);
/* The clock of `color` recorded at node: BL/WL (seconds left) and OB/OW
 * (moves left in the current byo-yomi period, -1 when absent).  False when the
 * node records no time for that colour. */
bool tg_sgf_node_clock(const tg_sgf_node *node, tg_color color, double *time_left,
                       int *moves_left);
/* The clocks of the moves of the main line from `root`: out[i] for move i
 * (the i-th node holding B or W), at most max of them.  Returns the number
 * of moves on the main line (which may exceed max). */
int tg_sgf_main_line_clocks(const tg_sgf_node *root, tg_sgf_move_clock *out, int max);


#endif
