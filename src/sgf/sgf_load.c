/*
 * sgf_load.c — an SGF game tree replayed into a tg_game.
 *
 * The root gives the board size (SZ), the rules (RU, through
 * tg_rules_from_sgf, so a record is replayed under the rules it names and a
 * New Zealand game with multi-stone suicide loads), the komi (KM, see
 * tg_sgf_decode_komi), the handicap (HA with AB) and the game information.
 * Then the main line is walked node by node: setup (AB AW AE, in file
 * order), PL, then the moves, played with TG_PLAY_ANY_ORDER because records
 * may hold two moves by one colour.
 *
 * Choices where files differ:
 *   - no KM: the komi of the ruleset (RU, else Chinese 7.5);
 *   - HA[n] with exactly n black AB stones (and no AW AE) before the first
 *     move, in the root or in the nodes after it (Fox puts them in the
 *     second), is a handicap (tg_game_place_handicap); other stones are setup;
 *   - a move after two passes resumes the game (C9: play went on because
 *     the players disagreed about the dead stones);
 *   - RE is kept in the information, not applied: the game stays open;
 *   - TB/TW on the main line's last node mark a counted game's areas: the
 *     stones under the other colour's mark are its dead stones
 *     (tg_sgf_info.has_dead), as tengen and CGoban, Sabaki and OGS write;
 *   - with max_moves the replay stops at the first move beyond it, after
 *     the setup of that move's node and of the nodes before it (the
 *     position before that move, as GTP's loadsgf asks).
 * Everything is built on a fresh game that is freed on any error, so a
 * broken record never changes anything the caller holds.
 */
#include <stdlib.h>
#include <string.h>

#include "tengen/free_opening.h"
#include "sgf/sgf_internal.h"

typedef struct loader {
    tg_game *game;
    tg_sgf_error *err;
    int max_moves;       /* < 0: all */
    int moves;           /* moves played so far */
    bool stopped;        /* max_moves reached */
    tg_sgf_notes notes;  /* what the replay doubts (unknown rules, repeated KM) */
    tg_point points[TG_MAX_POINTS];
} loader;

static tg_status bad_property(tg_sgf_error *err, const tg_sgf_property *prop, const char *why)
{
    char shown[41];   /* the value on one line, and short */
    sgf_copy_simple_text(shown, sizeof shown, prop->values);
    sgf_error_at_property(err, prop, "%.8s[%s]: %s", prop->id, shown, why);
    return TG_ERR_PARSE;
}

/* ---- the root: game type, size, rules --------------------------------- */

static tg_status read_game_type(const tg_sgf_node *root, tg_sgf_error *err)
{
    const tg_sgf_property *gm = tg_sgf_property_find(root, "GM");
    int game;
    if (gm && (tg_sgf_decode_number(gm->values->text, &game) != TG_OK || game != 1))
        return bad_property(err, gm, "not a game of Go (GM[1])");
    return TG_OK;
}

static tg_status read_size(const tg_sgf_node *root, int *size, tg_sgf_error *err)
{
    const tg_sgf_property *sz = tg_sgf_property_find(root, "SZ");
    *size = 19;
    if (!sz)
        return TG_OK;
    tg_status st = tg_sgf_decode_size(sz->values->text, size);
    if (st == TG_ERR_INVALID)
        return bad_property(err, sz, "rectangular boards are not supported");
    if (st != TG_OK)
        return bad_property(err, sz, "the board size is not a number");
    if (*size < TG_MIN_SIZE || *size > TG_MAX_SIZE)
        return bad_property(err, sz, "board sizes 2 to 25 are supported");
    return TG_OK;
}

/* The second property `id` of node, if the file repeats it (FF[4] forbids it). */
static const tg_sgf_property *repeated(const tg_sgf_node *node, const char *id)
{
    const tg_sgf_property *first = tg_sgf_property_find(node, id);
    for (const tg_sgf_property *prop = first ? first->next : NULL; prop; prop = prop->next)
        if (!strcmp(prop->id, id))
            return prop;
    return NULL;
}

static tg_status read_rules(const tg_sgf_node *root, tg_rules *rules, tg_sgf_notes *notes,
                            tg_sgf_error *err)
{
    const tg_sgf_property *ru_prop = tg_sgf_property_find(root, "RU");
    const char *ru = ru_prop ? ru_prop->values->text : NULL;
    bool known = ru && tg_rules_from_sgf(rules, ru) == TG_OK;
    if (!known)
        tg_rules_default(rules);   /* unknown rules: the default, as documented in rules.h */
    if (ru && !known) {
        char shown[41];
        sgf_copy_simple_text(shown, sizeof shown, ru_prop->values);
        sgf_note_add(notes, ru_prop->line, ru_prop->column,
                     "RU[%s]: rules tengen does not know; counted under Chinese rules", shown);
    }
    const tg_sgf_property *km = tg_sgf_property_find(root, "KM"), *again = repeated(root, "KM");
    if (!km)
        return TG_OK;
    if (again) {
        char first[41], second[41];
        sgf_copy_simple_text(first, sizeof first, km->values);
        sgf_copy_simple_text(second, sizeof second, again->values);
        sgf_note_add(notes, again->line, again->column,
                     "a second KM[%s] in the root; the first, KM[%s], is the komi", second, first);
    }
    tg_status st = tg_sgf_decode_komi(km->values->text, &rules->komi2);
    if (st == TG_ERR_INVALID)
        return bad_property(err, km, "komi beyond 400 points");
    if (st != TG_OK)
        return bad_property(err, km, "komi is not a number");
    return TG_OK;
}

/* ---- setup ------------------------------------------------------------ */

static tg_color setup_color(const char *id)
{
    if (!strcmp(id, "AB"))
        return TG_BLACK;
    if (!strcmp(id, "AW"))
        return TG_WHITE;
    if (!strcmp(id, "AE"))
        return TG_EMPTY;
    return TG_OFFBOARD;
}

static int read_points(loader *ld, const tg_sgf_property *prop)
{
    tg_status st;
    int n = tg_sgf_decode_points(tg_game_board(ld->game), prop, ld->points, &st);
    if (n < 0)
        bad_property(ld->err, prop,
                     st == TG_ERR_OFF_BOARD ? "a point is off the board" : "a value is not a point");
    return n;
}

static tg_status apply_setup(loader *ld, const tg_sgf_node *node)
{
    for (const tg_sgf_property *prop = node->properties; prop; prop = prop->next) {
        tg_color color = setup_color(prop->id);
        if (color == TG_OFFBOARD)
            continue;
        int n = read_points(ld, prop);
        if (n < 0)
            return TG_ERR_PARSE;
        for (int i = 0; i < n; i++) {
            tg_status st = tg_game_setup(ld->game, ld->points[i], color);
            if (st != TG_OK)
                return bad_property(ld->err, prop, tg_status_text(st));
        }
    }
    return TG_OK;
}

static tg_status apply_player(loader *ld, const tg_sgf_node *node)
{
    const tg_sgf_property *pl = tg_sgf_property_find(node, "PL");
    if (!pl)
        return TG_OK;
    char c = pl->values->text[0];
    if ((c == '1' || c == '2') && pl->values->text[1] == '\0') {   /* CGoban 1.9 */
        sgf_note_add(&ld->notes, pl->line, pl->column, "repaired: PL[%c] read as PL[%c]", c,
                     c == '1' ? 'B' : 'W');
        c = c == '1' ? 'B' : 'W';
    }
    if ((c != 'B' && c != 'b' && c != 'W' && c != 'w') || pl->values->text[1] != '\0')
        return bad_property(ld->err, pl, "the player is neither B nor W");
    tg_game_set_to_move(ld->game, (c == 'B' || c == 'b') ? TG_BLACK : TG_WHITE);
    return TG_OK;
}

static bool has_move(const tg_sgf_node *node)
{
    return tg_sgf_property_find(node, "B") || tg_sgf_property_find(node, "W");
}

/* HA[n] (in the root) with exactly n black stones and nothing else set up
 * before the first move, whichever nodes hold them (Fox writes them in the
 * second node): the handicap of tg_game_place_handicap.  Returns the last
 * node whose setup that placed, or NULL when there is no such handicap. */
static const tg_sgf_node *place_handicap(loader *ld, const tg_sgf_node *root)
{
    const char *ha = tg_sgf_property_text(root, "HA");
    int handicap, n = 0;
    const tg_sgf_node *last = NULL;
    tg_point stones[TG_MAX_POINTS];
    if (!ha || tg_sgf_decode_number(ha, &handicap) != TG_OK || handicap < 2)
        return NULL;
    for (const tg_sgf_node *node = root; node; node = node->child) {
        for (const tg_sgf_property *prop = node->properties; prop; prop = prop->next) {
            tg_color color = setup_color(prop->id);
            if (color == TG_OFFBOARD)
                continue;
            tg_status st;
            int k = color == TG_BLACK ? tg_sgf_decode_points(tg_game_board(ld->game), prop, stones, &st) : -1;
            if (k < 0 || n + k > handicap)
                return NULL;
            memcpy(ld->points + n, stones, sizeof stones[0] * (size_t)k);
            n += k;
            last = node;
        }
        if (has_move(node))
            break;
    }
    return n == handicap && tg_game_place_handicap(ld->game, ld->points, n) == TG_OK ? last : NULL;
}

/* ---- moves ------------------------------------------------------------ */

static tg_status play_move(loader *ld, const tg_sgf_property *prop, tg_color color, tg_point point,
                           unsigned flags)
{
    flags |= TG_PLAY_ANY_ORDER;
    tg_status st = tg_game_play(ld->game, color, point, flags);
    if (st == TG_ERR_GAME_OVER && tg_game_result(ld->game)->kind == TG_RESULT_NONE &&
        tg_game_resume(ld->game, color) == TG_OK)
        st = tg_game_play(ld->game, color, point, flags);
    if (st != TG_OK) {
        char shown[9];
        sgf_copy_simple_text(shown, sizeof shown, prop->values);
        sgf_error_at_property(ld->err, prop, "move %d %s[%s] is illegal under the %s rules: %s",
                              ld->moves + 1, prop->id, shown,
                              tg_game_rules(ld->game)->name, tg_status_text(st));
        return TG_ERR_PARSE;
    }
    ld->moves++;
    return TG_OK;
}

static tg_status apply_moves(loader *ld, const tg_sgf_node *node)
{
    for (const tg_sgf_property *prop = node->properties; prop; prop = prop->next) {
        bool black = !strcmp(prop->id, "B"), white = !strcmp(prop->id, "W");
        if (!black && !white)
            continue;
        if (prop->values->next)   /* B[dd][ee] would be two stones in one move */
            return bad_property(ld->err, prop, "a move takes one value");
        for (const tg_sgf_value *value = prop->values; value; value = value->next) {
            if (ld->max_moves >= 0 && ld->moves >= ld->max_moves) {
                ld->stopped = true;
                return TG_OK;
            }
            tg_point point;
            tg_status st = tg_sgf_decode_move(tg_game_board(ld->game), value->text, &point);
            if (st != TG_OK)
                return bad_property(ld->err, prop,
                                    st == TG_ERR_OFF_BOARD ? "the move is off the board"
                                                           : "the move is not a point");
            /* CC[own]: the free-opening ruleset's capture choice */
            const char *cc = tg_sgf_property_text(node, "CC");
            st = play_move(ld, prop, black ? TG_BLACK : TG_WHITE, point,
                           cc && !strcmp(cc, "own") ? TG_PLAY_CAPTURE_OWN : 0);
            if (st != TG_OK)
                return st;
        }
    }
    return TG_OK;
}

static tg_status replay_main_line(loader *ld, const tg_sgf_node *root)
{
    tg_status st = TG_OK;
    /* the nodes up to handicap_end had their setup placed as the handicap */
    const tg_sgf_node *handicap_end = place_handicap(ld, root);
    bool in_handicap = handicap_end != NULL;
    for (const tg_sgf_node *node = root; node && st == TG_OK && !ld->stopped; node = node->child) {
        if (!in_handicap)
            st = apply_setup(ld, node);
        if (node == handicap_end)
            in_handicap = false;
        if (st == TG_OK)
            st = apply_player(ld, node);
        if (st == TG_OK)
            st = apply_moves(ld, node);
    }
    return st;
}

/* ---- game information ------------------------------------------------- */

static void copy_text(const tg_sgf_node *root, const char *id, char *dst, size_t capacity)
{
    const tg_sgf_property *prop = tg_sgf_property_find(root, id);
    if (prop)
        sgf_copy_simple_text(dst, capacity, prop->values);
    else
        dst[0] = '\0';
}

static void read_info(const tg_sgf_node *root, tg_sgf_info *info)
{
    copy_text(root, "PB", info->black, sizeof info->black);
    copy_text(root, "PW", info->white, sizeof info->white);
    copy_text(root, "BR", info->black_rank, sizeof info->black_rank);
    copy_text(root, "WR", info->white_rank, sizeof info->white_rank);
    copy_text(root, "DT", info->date, sizeof info->date);
    copy_text(root, "EV", info->event, sizeof info->event);
    copy_text(root, "RO", info->round, sizeof info->round);
    copy_text(root, "RE", info->result, sizeof info->result);
    copy_text(root, "RU", info->rules, sizeof info->rules);
    copy_text(root, "OT", info->overtime, sizeof info->overtime);
    const char *tm = tg_sgf_property_text(root, "TM");
    if (!tm || tg_sgf_decode_real(tm, &info->main_time) != TG_OK || info->main_time < 0)
        info->main_time = -1;
    info->clocks = NULL; /* an output info may be saved again: never leave a stray pointer */
    info->clock_count = 0;
    const char *pf = tg_sgf_property_text(root, "PF"), *ps = tg_sgf_property_text(root, "PS");
    const char *fc = tg_sgf_property_text(root, "FC");
    info->has_predictions = pf && ps && tg_prediction_parse(pf, &info->prediction_first2) == TG_OK &&
                            tg_prediction_parse(ps, &info->prediction_second2) == TG_OK;
    info->first_player = fc && !strcmp(fc, "B") ? TG_BLACK : TG_WHITE;
    if (!info->has_predictions)
        info->prediction_first2 = info->prediction_second2 = 0;
}

int tg_sgf_main_line_clocks(const tg_sgf_node *root, tg_sgf_move_clock *out, int max)
{
    int moves = 0;
    for (const tg_sgf_node *node = root; node; node = node->child) {
        tg_color mover = tg_sgf_property_find(node, "B") ? TG_BLACK
                       : tg_sgf_property_find(node, "W") ? TG_WHITE
                                                         : TG_EMPTY;
        if (mover == TG_EMPTY)
            continue;
        if (moves < max) {
            tg_sgf_move_clock *mc = &out[moves];
            mc->recorded = tg_sgf_node_clock(node, mover, &mc->seconds, &mc->moves);
        }
        moves++;
    }
    return moves;
}

/* The dead stones of a counted game: the stones of the final position
 * under the other colour's TB/TW on the main line's last node.  A mark
 * that is not a point is a note, and the record then marks none. */
static void read_dead(loader *ld, const tg_sgf_node *root, tg_sgf_info *info)
{
    const tg_sgf_node *last = root;
    while (last->child)
        last = last->child;
    const tg_board *b = tg_game_board(ld->game);
    info->has_dead = false;
    memset(info->dead, 0, sizeof info->dead);
    if (ld->stopped)
        return;
    for (tg_color c = TG_BLACK; c <= TG_WHITE; c++) {
        const tg_sgf_property *marks = tg_sgf_property_find(last, c == TG_BLACK ? "TB" : "TW");
        if (!marks)
            continue;
        tg_status st;
        int n = tg_sgf_decode_points(b, marks, ld->points, &st);
        if (n < 0) {
            sgf_note_add(&ld->notes, marks->line, marks->column,
                         "%s: a value is not a point of the board; the dead stones are not marked",
                         marks->id);
            info->has_dead = false;
            memset(info->dead, 0, sizeof info->dead);
            return;
        }
        for (int i = 0; i < n; i++)
            if (tg_board_at(b, ld->points[i]) == tg_opponent(c))
                info->dead[ld->points[i]] = 1;
        info->has_dead = true;
    }
}

/* ---- entry points ----------------------------------------------------- */

/* The rules given on top of the record's (the komi stays unless they set
 * one), before any move is replayed under them. */
static tg_status rules_over(const tg_sgf_node *root, const char *text, tg_rules *rules, tg_sgf_error *err)
{
    int komi2 = rules->komi2;
    char why[160] = "";
    if (tg_rules_apply(rules, text, why, sizeof why) != TG_OK) {
        sgf_error_set(err, root->line, root->column, "rules: %s", why[0] ? why : "invalid rules");
        return TG_ERR_INVALID;
    }
    if (!strstr(text, "komi="))
        rules->komi2 = komi2;
    return TG_OK;
}

static tg_status new_game(const tg_sgf_node *root, tg_game **out, const char *over,
                          tg_sgf_notes *notes, tg_sgf_error *err)
{
    int size;
    tg_rules rules;
    tg_status st = read_game_type(root, err);
    if (st == TG_OK)
        st = read_size(root, &size, err);
    if (st == TG_OK)
        st = read_rules(root, &rules, notes, err);
    if (st == TG_OK && over)
        st = rules_over(root, over, &rules, err);
    if (st != TG_OK)
        return st;
    *out = tg_game_new(size, &rules);
    if (!*out) {
        sgf_error_set(err, root->line, root->column, "out of memory");
        return TG_ERR_NO_MEMORY;
    }
    return TG_OK;
}

static tg_status game_from_tree(const tg_sgf_node *root, int max_moves, const char *over, tg_game **out,
                                tg_sgf_info *info, tg_sgf_error *err)
{
    *out = NULL;
    if (!root) {
        sgf_error_set(err, 1, 1, "no game in the collection");
        return TG_ERR_PARSE;
    }
    loader *ld = calloc(1, sizeof *ld);
    if (!ld) {
        sgf_error_set(err, root->line, root->column, "out of memory");
        return TG_ERR_NO_MEMORY;
    }
    *ld = (loader){.err = err, .max_moves = max_moves};
    tg_status st = new_game(root, &ld->game, over, &ld->notes, err);
    if (st == TG_OK)
        st = replay_main_line(ld, root);
    if (st == TG_OK) {
        if (info) {
            read_info(root, info);
            read_dead(ld, root, info);
            info->notes = ld->notes;
        }
        *out = ld->game;
    } else {
        tg_game_free(ld->game);
    }
    free(ld);
    return st;
}

tg_status tg_sgf_game_from_tree(const tg_sgf_node *root, int max_moves, tg_game **out,
                                tg_sgf_info *info, tg_sgf_error *err)
{
    return game_from_tree(root, max_moves, NULL, out, info, err);
}

tg_status tg_sgf_load_game(const char *data, size_t len, int max_moves, tg_game **out,
                           tg_sgf_info *info, tg_sgf_error *err)
{
    return tg_sgf_load_game_under(data, len, max_moves, NULL, out, info, err);
}

tg_status tg_sgf_load_game_under(const char *data, size_t len, int max_moves, const char *rules,
                                 tg_game **out, tg_sgf_info *info, tg_sgf_error *err)
{
    tg_sgf_tree *tree;
    *out = NULL;
    tg_status st = tg_sgf_parse(data, len, &tree, err);
    if (st != TG_OK)
        return st;
    st = game_from_tree(tg_sgf_tree_games(tree), max_moves, rules, out, info, err);
    if (st == TG_OK && info) {
        /* the parse's repairs first, as they come first in the file */
        tg_sgf_notes all = *tg_sgf_tree_notes(tree);
        int kept = info->notes.count < TG_SGF_MAX_NOTES ? info->notes.count : TG_SGF_MAX_NOTES;
        for (int i = 0; i < kept; i++) {
            const tg_sgf_error *n = &info->notes.note[i];
            sgf_note_add(&all, n->line, n->column, "%s", n->message);
        }
        all.count += info->notes.count - kept;
        info->notes = all;
    }
    tg_sgf_tree_free(tree);
    return st;
}
