/*
 * test_sgf.c — the SGF layer: the tree reader (structure, escapes, FF[3]
 * identifiers, junk outside game trees, every error with its line and
 * column, 100,000-deep variations and a 100,000-move main line), the
 * writer (escaping, variations, round trips), the value decoders (points,
 * compressed lists, komi in its real-file spellings, size, numbers,
 * clocks), loading records into games under the rules they name, and
 * saving games back, a counted game with its dead stones (TB/TW).  Test
 * data lives in tests/data/sgf.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tengen/score.h"
#include "tengen/sgf.h"

/* ---- helpers ------------------------------------------------------------ */

static char *read_data(const char *name, size_t *length)
{
    char path[512];
    const char *source = getenv("TENGEN_SOURCE_DIR");
    if (source)
        snprintf(path, sizeof path, "%s/tests/data/sgf/%s", source, name);
    else
        snprintf(path, sizeof path, "data/sgf/%s", name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *data = malloc(1 << 20);
    assert_non_null(data);
    *length = fread(data, 1, (1 << 20) - 1, f);
    data[*length] = '\0';
    fclose(f);
    return data;
}

static tg_sgf_tree *parse_ok(const char *text)
{
    tg_sgf_tree *tree = NULL;
    tg_sgf_error err = {0};
    tg_status st = tg_sgf_parse(text, strlen(text), &tree, &err);
    if (st != TG_OK)
        fail_msg("%d:%d: %s", err.line, err.column, err.message);
    return tree;
}

static tg_game *load_ok(const char *text, int max_moves, tg_sgf_info *info)
{
    tg_game *g = NULL;
    tg_sgf_error err = {0};
    tg_status st = tg_sgf_load_game(text, strlen(text), max_moves, &g, info, &err);
    if (st != TG_OK)
        fail_msg("%d:%d: %s", err.line, err.column, err.message);
    return g;
}

static tg_game *load_file(const char *name, int max_moves, tg_sgf_info *info)
{
    size_t length;
    char *data = read_data(name, &length);
    tg_game *g = load_ok(data, max_moves, info);
    free(data);
    return g;
}

static char *write_tree(const tg_sgf_tree *tree)
{
    char *text = tg_sgf_write(tree, NULL);
    assert_non_null(text);
    return text;
}

/* parse(text) written out, then parsed and written again, gives the same text. */
static void assert_round_trip(const char *text)
{
    tg_sgf_tree *tree = parse_ok(text);
    char *once = write_tree(tree);
    tg_sgf_tree_free(tree);
    tree = parse_ok(once);
    char *twice = write_tree(tree);
    assert_string_equal(once, twice);
    tg_sgf_tree_free(tree);
    free(once);
    free(twice);
}

static tg_point at(const tg_game *g, const char *sgf_point)
{
    tg_point p;
    assert_int_equal(tg_sgf_decode_move(tg_game_board(g), sgf_point, &p), TG_OK);
    return p;
}

static tg_color color_at(const tg_game *g, const char *sgf_point)
{
    return tg_board_at(tg_game_board(g), at(g, sgf_point));
}

/* ---- the tree reader ---------------------------------------------------- */

static void test_parse_structure(void **state)
{
    (void)state;
    tg_sgf_tree *tree = parse_ok("(;FF[4]GM[1]\n;B[aa];W[bb](;B[cc])(;B[dd]C[x]))(;SZ[9])");
    const tg_sgf_node *root = tg_sgf_tree_games(tree);
    assert_non_null(root);
    assert_null(root->parent);
    assert_int_equal(root->line, 1);
    assert_int_equal(root->column, 2);
    assert_string_equal(root->properties->id, "FF");
    assert_string_equal(root->properties->values->text, "4");
    assert_string_equal(tg_sgf_property_text(root, "GM"), "1");
    const tg_sgf_node *b = root->child, *w = b->child;
    assert_int_equal(b->line, 2);
    assert_int_equal(b->column, 1);
    assert_string_equal(tg_sgf_property_text(b, "B"), "aa");
    assert_ptr_equal(b->parent, root);
    assert_null(b->sibling);
    assert_string_equal(tg_sgf_property_text(w, "W"), "bb");
    assert_string_equal(tg_sgf_property_text(w->child, "B"), "cc");
    assert_string_equal(tg_sgf_property_text(w->child->sibling, "B"), "dd");
    assert_string_equal(tg_sgf_property_text(w->child->sibling, "C"), "x");
    assert_null(w->child->sibling->sibling);
    assert_ptr_equal(w->child->sibling->parent, w);
    assert_string_equal(tg_sgf_property_text(root->sibling, "SZ"), "9");
    assert_null(root->sibling->sibling);
    assert_int_equal(tg_sgf_tree_node_count(tree), 6);
    assert_null(tg_sgf_property_find(root, "XX"));
    tg_sgf_tree_free(tree);
}

static void test_parse_values(void **state)
{
    (void)state;
    tg_sgf_tree *tree = parse_ok("(;AB[aa][bb] [cc]\n[dd]C[]XY [1] [2])");
    const tg_sgf_node *root = tg_sgf_tree_games(tree);
    const tg_sgf_property *ab = tg_sgf_property_find(root, "AB");
    const char *expected[] = {"aa", "bb", "cc", "dd"};
    int n = 0;
    for (const tg_sgf_value *v = ab->values; v; v = v->next, n++)
        assert_string_equal(v->text, expected[n]);
    assert_int_equal(n, 4);
    assert_int_equal(tg_sgf_property_find(root, "C")->values->length, 0);
    assert_string_equal(tg_sgf_property_find(root, "XY")->values->next->text, "2");
    assert_int_equal(ab->line, 1);
    assert_int_equal(ab->column, 3);
    tg_sgf_tree_free(tree);
}

static void test_parse_escapes(void **state)
{
    (void)state;
    tg_sgf_tree *tree = parse_ok("(;C[a\\]b\\\\c\\:d\\x]"
                                 "N[soft\\\nbreak]GN[crlf\\\r\nsoft]PC[lfcr\\\n\rsoft]"
                                 "EV[hard\r\nbreak]AN[tail\\\\])");
    const tg_sgf_node *root = tg_sgf_tree_games(tree);
    assert_string_equal(tg_sgf_property_text(root, "C"), "a]b\\c:dx");
    assert_string_equal(tg_sgf_property_text(root, "N"), "softbreak");
    assert_string_equal(tg_sgf_property_text(root, "GN"), "crlfsoft");
    assert_string_equal(tg_sgf_property_text(root, "PC"), "lfcrsoft");
    assert_string_equal(tg_sgf_property_text(root, "EV"), "hard\r\nbreak");
    assert_string_equal(tg_sgf_property_text(root, "AN"), "tail\\");
    assert_int_equal(tg_sgf_property_find(root, "C")->values->length, 8);
    tg_sgf_tree_free(tree);
}

static void test_parse_nul_byte_in_value(void **state)
{
    (void)state;
    static const char text[] = "(;C[a\0b])";
    tg_sgf_tree *tree = NULL;
    assert_int_equal(tg_sgf_parse(text, sizeof text - 1, &tree, NULL), TG_OK);
    const tg_sgf_value *v = tg_sgf_property_find(tg_sgf_tree_games(tree), "C")->values;
    assert_int_equal(v->length, 3);
    assert_memory_equal(v->text, "a\0b", 3);
    tg_sgf_tree_free(tree);
}

static void test_parse_ff3_identifiers(void **state)
{
    (void)state;
    tg_sgf_tree *tree = parse_ok("(;AddBlack[aa]GaMe[1]b[cc]komi[5]White[bb])");
    const tg_sgf_node *root = tg_sgf_tree_games(tree);
    assert_string_equal(tg_sgf_property_text(root, "AB"), "aa");
    assert_string_equal(tg_sgf_property_text(root, "GM"), "1");
    assert_string_equal(tg_sgf_property_text(root, "W"), "bb");
    /* identifiers without an uppercase letter are dropped with their values */
    assert_null(tg_sgf_property_find(root, "B"));
    int n = 0;
    for (const tg_sgf_property *p = root->properties; p; p = p->next)
        n++;
    assert_int_equal(n, 3);
    tg_sgf_tree_free(tree);
}

static void test_parse_tolerates_junk(void **state)
{
    (void)state;
    tg_sgf_tree *tree = parse_ok("\xEF\xBB\xBFSubject: game\n) stray\n()(;B[aa])\nthe end ;");
    assert_int_equal(tg_sgf_tree_node_count(tree), 1);
    assert_string_equal(tg_sgf_property_text(tg_sgf_tree_games(tree), "B"), "aa");
    tg_sgf_tree_free(tree);
    /* a node after a closed variation becomes one more variation */
    tree = parse_ok("(;a[1]GM[1](;B[aa]);B[bb]())");
    const tg_sgf_node *root = tg_sgf_tree_games(tree);
    assert_string_equal(tg_sgf_property_text(root->child, "B"), "aa");
    assert_string_equal(tg_sgf_property_text(root->child->sibling, "B"), "bb");
    tg_sgf_tree_free(tree);
}

typedef struct bad_case {
    const char *text;
    int line, column;
    const char *words;   /* a part of the message */
} bad_case;

static void test_parse_errors(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"", 1, 1, "empty"},
        {"no game here", 1, 1, "no SGF game tree"},
        {"()", 1, 1, "no SGF game tree"},
        {"(;C[abc\n", 1, 4, "no ']'"},
        {"(;C[abc\\]", 1, 4, "no ']'"},
        {"(;C[x]\n  B;W[aa])", 2, 3, "without a value"},
        {"(;B[aa]u\n", 1, 8, "without a value"},   /* found by fuzz_sgf */
        {"(;B[aa]\nXY\n\n", 2, 1, "without a value"},
        {"(;B[aa] 7)", 1, 9, "unexpected '7'"},
        {"(;B[aa]\n\x01)", 2, 1, "unexpected 0x01"},
        {"(;B[aa](;W[bb])C[x])", 1, 16, "after a variation"},
        {"(;B[aa]((;W[bb])))", 1, 9, "must begin with a node"},
        {"(;B[aa](W[bb]))", 1, 9, "before the first node"},
        {"(;C[\r\nline]\r\n ;B)", 3, 3, "without a value"},
        {"(;C[\rold mac]\r%)", 3, 1, "unexpected '%'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tg_sgf_tree *tree = (tg_sgf_tree *)1;
        tg_sgf_error err = {0};
        tg_status st = tg_sgf_parse(cases[i].text, strlen(cases[i].text), &tree, &err);
        if (st != TG_ERR_PARSE || err.line != cases[i].line || err.column != cases[i].column ||
            !strstr(err.message, cases[i].words))
            fail_msg("case %zu \"%s\": status %d at %d:%d: %s", i, cases[i].text, st, err.line,
                     err.column, err.message);
        assert_null(tree);
    }
    tg_sgf_tree *tree = (tg_sgf_tree *)1;
    assert_int_equal(tg_sgf_parse(NULL, 0, &tree, NULL), TG_ERR_PARSE);
    assert_null(tree);
}

/* Issue 41, item 7: files other programs read are read, and each repair
 * is noted with its place. */
static void assert_repaired(const char *text, size_t len, int line, int column, const char *words)
{
    tg_sgf_tree *tree = NULL;
    tg_sgf_error err = {0};
    if (tg_sgf_parse(text, len, &tree, &err) != TG_OK)
        fail_msg("\"%s\" refused: %d:%d: %s", text, err.line, err.column, err.message);
    const tg_sgf_notes *notes = tg_sgf_tree_notes(tree);
    if (notes->count != 1 || notes->note[0].line != line || notes->note[0].column != column ||
        !strstr(notes->note[0].message, words))
        fail_msg("\"%s\": %d notes, first %d:%d: %s", text, notes->count, notes->note[0].line,
                 notes->note[0].column, notes->note[0].message);
    assert_non_null(strstr(notes->note[0].message, "repaired"));
    tg_game *g = NULL;
    assert_int_equal(tg_sgf_game_from_tree(tg_sgf_tree_games(tree), -1, &g, NULL, NULL), TG_OK);
    assert_int_equal(tg_game_move_count(g), 2);
    tg_game_free(g);
    tg_sgf_tree_free(tree);
}

static void test_parse_repairs(void **state)
{
    (void)state;
    /* the final ')' missing (GNU Go and Sabaki read it) */
    const char *text = "(;SZ[9];B[aa];W[bb]";
    assert_repaired(text, strlen(text), 1, 20, "no ')' closes the game tree opened at line 1, column 1");
    text = "(;SZ[9];B[aa]\n(;W[bb]";
    assert_repaired(text, strlen(text), 2, 8, "opened at line 1, column 1");
    /* a root with no ';' (Nihon Ki-in) */
    text = "(SZ[9]\n;B[aa];W[bb])";
    assert_repaired(text, strlen(text), 1, 2, "no ';' before its first property");
    /* a '(' in the text before the game */
    text = "Game record (c) 2003 Nihon Ki-in\n(;SZ[9];B[aa];W[bb])";
    assert_repaired(text, strlen(text), 1, 13, "opens no game tree");
    /* UTF-16 with a byte-order mark, both byte orders, a comment in Japanese */
    const char *utf8 = "(;SZ[9]C[\xe6\xa3\x8b];B[aa];W[bb])";
    unsigned char le[128], be[128];
    size_t n = 2;
    le[0] = 0xFF, le[1] = 0xFE, be[0] = 0xFE, be[1] = 0xFF;
    for (const char *p = utf8; *p; p++) {
        unsigned u = (unsigned char)*p;
        if (u == 0xe6) {   /* U+68CB, the three bytes of 棋 */
            u = 0x68CB;
            p += 2;
        }
        le[n] = (unsigned char)(u & 0xFF), le[n + 1] = (unsigned char)(u >> 8);
        be[n] = (unsigned char)(u >> 8), be[n + 1] = (unsigned char)(u & 0xFF);
        n += 2;
    }
    assert_repaired((const char *)le, n, 1, 1, "UTF-16 (little-endian)");
    assert_repaired((const char *)be, n, 1, 1, "UTF-16 (big-endian)");
    tg_sgf_tree *tree;
    assert_int_equal(tg_sgf_parse((const char *)le, n, &tree, NULL), TG_OK);
    assert_string_equal(tg_sgf_property_text(tg_sgf_tree_games(tree), "C"), "\xe6\xa3\x8b");
    tg_sgf_tree_free(tree);
    /* a sound file: no notes */
    text = "(;SZ[9];B[aa];W[bb])";
    assert_int_equal(tg_sgf_parse(text, strlen(text), &tree, NULL), TG_OK);
    assert_int_equal(tg_sgf_tree_notes(tree)->count, 0);
    tg_sgf_tree_free(tree);
}

/* PL[1] and PL[2], as CGoban 1.9 writes them: Black and White. */
static void test_load_numbered_player(void **state)
{
    (void)state;
    tg_sgf_info info;
    tg_game *g = load_ok("(;SZ[9]AB[cc]AW[gg]PL[2])", -1, &info);
    assert_int_equal(tg_game_to_move(g), TG_WHITE);
    assert_int_equal(info.notes.count, 1);
    assert_non_null(strstr(info.notes.note[0].message, "PL[2] read as PL[W]"));
    tg_game_free(g);
    g = load_ok("(;SZ[9]AB[cc]AW[gg]PL[1])", -1, &info);
    assert_int_equal(tg_game_to_move(g), TG_BLACK);
    tg_game_free(g);
    g = load_file("unclosed_tree.sgf", -1, &info);
    assert_int_equal(tg_game_move_count(g), 3);
    assert_int_equal(info.notes.count, 1);
    assert_int_equal(info.notes.note[0].line, 4);
    tg_game_free(g);
}

/* 100,000 variations each nested in the one before: nothing recursive. */
static void test_deep_variations(void **state)
{
    (void)state;
    enum { DEPTH = 100000 };
    size_t cap = (size_t)DEPTH * 16 + 64, n = 0;
    char *text = malloc(cap);
    n += (size_t)sprintf(text, "(;GM[1]SZ[19]");
    for (int i = 0; i < DEPTH; i++)
        n += (size_t)sprintf(text + n, "(;C[%d]", i % 1000);
    for (int i = 0; i <= DEPTH; i++)
        text[n++] = ')';
    text[n] = '\0';
    tg_sgf_tree *tree = parse_ok(text);
    assert_int_equal(tg_sgf_tree_node_count(tree), DEPTH + 1);
    int depth = 0;
    const tg_sgf_node *node = tg_sgf_tree_games(tree);
    for (; node->child; node = node->child)
        depth++;
    assert_int_equal(depth, DEPTH);
    assert_string_equal(tg_sgf_property_text(node, "C"), "999");
    /* a single child continues the sequence: written as one long line */
    char *once = write_tree(tree);
    assert_non_null(strstr(once, ";C[0]"));
    tg_game *g = NULL;
    assert_int_equal(tg_sgf_game_from_tree(tg_sgf_tree_games(tree), -1, &g, NULL, NULL), TG_OK);
    tg_game_free(g);
    tg_sgf_tree_free(tree);
    assert_round_trip(text);
    free(once);

    /* the same depth with two variations at every level */
    n = (size_t)sprintf(text, "(;GM[1]");
    for (int i = 0; i < DEPTH / 2; i++)
        n += (size_t)sprintf(text + n, "(;B[aa])(;");
    for (int i = 0; i <= DEPTH / 2; i++)
        text[n++] = ')';
    text[n] = '\0';
    tree = parse_ok(text);
    assert_int_equal(tg_sgf_tree_node_count(tree), DEPTH + 1);
    tg_sgf_tree_free(tree);
    assert_round_trip(text);
    /* and truncated: the open trees end with the file, and that is said */
    text[n - DEPTH / 4] = '\0';
    tree = NULL;
    tg_sgf_error err;
    assert_int_equal(tg_sgf_parse(text, strlen(text), &tree, &err), TG_OK);
    assert_int_equal(tg_sgf_tree_notes(tree)->count, 1);
    tg_sgf_tree_free(tree);
    free(text);
}

/* A 100,000-move main line: every move a legal point, the board cleared
 * by AE[aa:ss] every 180 moves (moves on the points with x + y even never
 * touch each other, so nothing is captured). */
static void test_long_main_line(void **state)
{
    (void)state;
    enum { MOVES = 100000, CYCLE = 180 };
    char even[CYCLE][3];
    for (int k = 0, y = 0; y < 19; y++)
        for (int x = 0; x < 19; x++)
            if ((x + y) % 2 == 0 && k < CYCLE)
                snprintf(even[k++], 3, "%c%c", 'a' + x, 'a' + y);
    char *text = malloc((size_t)MOVES * 8 + MOVES / CYCLE * 16 + 64);
    size_t n = (size_t)sprintf(text, "(;GM[1]FF[4]SZ[19]RU[Chinese]");
    for (int i = 0; i < MOVES; i++) {
        if (i % CYCLE == 0 && i > 0)
            n += (size_t)sprintf(text + n, ";AE[aa:ss]");
        n += (size_t)sprintf(text + n, ";%c[%s]", i % 2 ? 'W' : 'B', even[i % CYCLE]);
    }
    n += (size_t)sprintf(text + n, ")");
    tg_sgf_tree *tree = parse_ok(text);
    assert_int_equal(tg_sgf_tree_node_count(tree), 1 + MOVES + (MOVES - 1) / CYCLE);
    tg_sgf_tree_free(tree);
    tg_game *g = load_ok(text, -1, NULL);
    assert_int_equal(tg_game_move_count(g), MOVES);
    tg_game_free(g);
    g = load_ok(text, 1000, NULL);
    assert_int_equal(tg_game_move_count(g), 1000);
    tg_game_free(g);
    free(text);
}

static void test_prefixes_never_crash(void **state)
{
    (void)state;
    size_t length;
    char *data = read_data("collection_variations.sgf", &length);
    for (size_t cut = 0; cut <= length; cut++) {
        tg_sgf_tree *tree = NULL;
        tg_game *g = NULL;
        tg_sgf_error err;
        if (tg_sgf_parse(data, cut, &tree, &err) == TG_OK)
            tg_sgf_tree_free(tree);
        else
            assert_true(err.line >= 1 && err.column >= 1);
        if (tg_sgf_load_game(data, cut, -1, &g, NULL, &err) == TG_OK)
            tg_game_free(g);
        else
            assert_null(g);
    }
    free(data);
}

/* ---- the writer and the tree builder ------------------------------------- */

static void test_write_escapes_and_variations(void **state)
{
    (void)state;
    tg_sgf_tree *tree = tg_sgf_tree_new();
    tg_sgf_node *root = tg_sgf_node_add(tree, NULL);
    assert_int_equal(tg_sgf_property_add(tree, root, "GM", "1", 1), TG_OK);
    assert_int_equal(tg_sgf_property_add(tree, root, "C", "a]b\\c[d", 7), TG_OK);
    assert_int_equal(tg_sgf_property_add(tree, root, "AB", "aa", 2), TG_OK);
    assert_int_equal(tg_sgf_property_add(tree, root, "AB", "bb", 2), TG_OK);
    assert_int_equal(tg_sgf_property_add(tree, root, "b", "x", 1), TG_ERR_INVALID);
    assert_int_equal(tg_sgf_property_add(tree, root, "", "x", 1), TG_ERR_INVALID);
    tg_sgf_node *b = tg_sgf_node_add(tree, root);
    tg_sgf_property_add(tree, b, "B", "cc", 2);
    tg_sgf_node *w1 = tg_sgf_node_add(tree, b);
    tg_sgf_property_add(tree, w1, "W", "dd", 2);
    tg_sgf_node *w2 = tg_sgf_node_add(tree, b);
    tg_sgf_property_add(tree, w2, "W", "", 0);
    tg_sgf_node *b2 = tg_sgf_node_add(tree, w1);
    tg_sgf_property_add(tree, b2, "B", "ee", 2);
    tg_sgf_node *second = tg_sgf_node_add(tree, NULL);
    tg_sgf_property_add(tree, second, "SZ", "9", 1);
    assert_ptr_equal(tg_sgf_tree_games(tree)->sibling, second);
    size_t length;
    char *text = tg_sgf_write(tree, &length);
    assert_string_equal(text, "(;GM[1]C[a\\]b\\\\c[d]AB[aa][bb]\n;B[cc]\n(;W[dd];B[ee])\n(;W[]))\n"
                              "(;SZ[9])\n");
    assert_int_equal(length, strlen(text));
    tg_sgf_tree_free(tree);
    assert_round_trip(text);
    tree = parse_ok(text);
    assert_string_equal(tg_sgf_property_text(tg_sgf_tree_games(tree), "C"), "a]b\\c[d");
    tg_sgf_tree_free(tree);
    free(text);
}

static void test_write_round_trips_files(void **state)
{
    (void)state;
    static const char *const files[] = {"collection_variations.sgf", "escapes.sgf", "crlf.sgf",
                                        "game_19x19.sgf", "ff3_lowercase.sgf", "setup.sgf"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t length;
        char *data = read_data(files[i], &length);
        assert_round_trip(data);
        free(data);
    }
}

static void test_write_wraps_long_lines(void **state)
{
    (void)state;
    char text[4096];
    size_t n = (size_t)sprintf(text, "(;GM[1]");
    for (int i = 0; i < 200; i++)
        n += (size_t)sprintf(text + n, ";%c[%c%c]", i % 2 ? 'W' : 'B', 'a' + i % 19, 'a' + i / 19);
    sprintf(text + n, ")");
    tg_sgf_tree *tree = parse_ok(text);
    char *out = write_tree(tree);
    for (char *line = out; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        assert_true(strcspn(line, "\n") <= 80);
    tg_sgf_tree_free(tree);
    free(out);
}

/* ---- value decoders ------------------------------------------------------ */

static void test_decode_moves_and_points(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 19);
    tg_point p;
    assert_int_equal(tg_sgf_decode_move(&b, "", &p), TG_OK);
    assert_int_equal(p, TG_PASS);
    assert_int_equal(tg_sgf_decode_move(&b, "tt", &p), TG_OK);
    assert_int_equal(p, TG_PASS);
    assert_int_equal(tg_sgf_decode_move(&b, "aa", &p), TG_OK);
    assert_int_equal(p, tg_point_at(&b, 0, 18));   /* top left */
    assert_int_equal(tg_sgf_decode_move(&b, "sa", &p), TG_OK);
    assert_int_equal(p, tg_point_at(&b, 18, 18));
    assert_int_equal(tg_sgf_decode_move(&b, "as", &p), TG_OK);
    assert_int_equal(p, tg_point_at(&b, 0, 0));
    char text[3];
    tg_sgf_encode_point(&b, p, text);
    assert_string_equal(text, "as");
    tg_sgf_encode_point(&b, TG_PASS, text);
    assert_string_equal(text, "");
    assert_int_equal(tg_sgf_decode_move(&b, "zz", &p), TG_ERR_OFF_BOARD);
    assert_int_equal(tg_sgf_decode_move(&b, "a", &p), TG_ERR_PARSE);
    assert_int_equal(tg_sgf_decode_move(&b, "a1", &p), TG_ERR_PARSE);
    assert_int_equal(tg_sgf_decode_move(&b, "aaa", &p), TG_ERR_PARSE);
    /* on 20x20 and up "tt" is a point */
    tg_board_init(&b, 21);
    assert_int_equal(tg_sgf_decode_move(&b, "tt", &p), TG_OK);
    assert_int_equal(p, tg_point_at(&b, 19, 1));
}

static void test_decode_point_lists(void **state)
{
    (void)state;
    tg_board b;
    tg_board_init(&b, 9);
    tg_sgf_tree *tree = parse_ok("(;AB[aa:cb][bb][]AW[cc:aa]AE[ab:ab]XX[zz]YY[aa:zz]ZZ[aa:b])");
    const tg_sgf_node *root = tg_sgf_tree_games(tree);
    tg_point out[TG_MAX_POINTS];
    tg_status st;
    assert_int_equal(tg_sgf_decode_points(&b, tg_sgf_property_find(root, "AB"), out, &st), 6);
    assert_int_equal(st, TG_OK);
    assert_int_equal(tg_sgf_decode_points(&b, tg_sgf_property_find(root, "AW"), out, &st), 9);
    assert_int_equal(tg_sgf_decode_points(&b, tg_sgf_property_find(root, "AE"), out, &st), 1);
    assert_int_equal(out[0], tg_point_at(&b, 0, 7));
    assert_int_equal(tg_sgf_decode_points(&b, tg_sgf_property_find(root, "XX"), out, &st), -1);
    assert_int_equal(st, TG_ERR_OFF_BOARD);
    assert_int_equal(tg_sgf_decode_points(&b, tg_sgf_property_find(root, "YY"), out, &st), -1);
    assert_int_equal(st, TG_ERR_OFF_BOARD);
    assert_int_equal(tg_sgf_decode_points(&b, tg_sgf_property_find(root, "ZZ"), out, &st), -1);
    assert_int_equal(st, TG_ERR_PARSE);
    tg_sgf_tree_free(tree);
}

static void test_decode_komi(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        tg_status status;
        int komi2;
    } cases[] = {
        {"7.5", TG_OK, 15},   {"6.5", TG_OK, 13},     {"0", TG_OK, 0},     {"-3", TG_OK, -6},
        {"0.5", TG_OK, 1},    {" 5.50 ", TG_OK, 11},  {"6,5", TG_OK, 13},  {"+7", TG_OK, 14},
        {"375", TG_OK, 15},   {"650", TG_OK, 13},     {"750", TG_OK, 15},  {"325", TG_OK, 13},
        {"-375", TG_OK, -15}, {"3.75", TG_OK, 15},    {"2.75", TG_OK, 11}, {"100", TG_OK, 2},
        {"seven", TG_ERR_PARSE, 0}, {"", TG_ERR_PARSE, 0}, {"7.5.1", TG_ERR_PARSE, 0},
        {".", TG_ERR_PARSE, 0}, {"401", TG_ERR_INVALID, 0}, {"400.5", TG_ERR_INVALID, 0}, {"150", TG_OK, 3}, {"99999", TG_ERR_INVALID, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int komi2 = 12345;
        tg_status st = tg_sgf_decode_komi(cases[i].text, &komi2);
        if (st != cases[i].status || (st == TG_OK && komi2 != cases[i].komi2))
            fail_msg("KM[%s]: status %d komi2 %d", cases[i].text, st, komi2);
    }
}

static void test_decode_numbers_and_size(void **state)
{
    (void)state;
    int n;
    double r;
    assert_int_equal(tg_sgf_decode_number("42", &n), TG_OK);
    assert_int_equal(n, 42);
    assert_int_equal(tg_sgf_decode_number("-7", &n), TG_OK);
    assert_int_equal(n, -7);
    assert_int_equal(tg_sgf_decode_number("4x", &n), TG_ERR_PARSE);
    assert_int_equal(tg_sgf_decode_number("99999999999", &n), TG_ERR_PARSE);
    assert_int_equal(tg_sgf_decode_real("1795.25", &r), TG_OK);
    assert_true(r > 1795.24 && r < 1795.26);
    assert_int_equal(tg_sgf_decode_real("-.5", &r), TG_OK);
    assert_true(r == -0.5);
    assert_int_equal(tg_sgf_decode_real("1e3", &r), TG_ERR_PARSE);
    assert_int_equal(tg_sgf_decode_size("19", &n), TG_OK);
    assert_int_equal(n, 19);
    assert_int_equal(tg_sgf_decode_size("13:13", &n), TG_OK);
    assert_int_equal(n, 13);
    assert_int_equal(tg_sgf_decode_size("19:9", &n), TG_ERR_INVALID);
    assert_int_equal(tg_sgf_decode_size("nine", &n), TG_ERR_PARSE);
}

static void test_node_clock(void **state)
{
    (void)state;
    tg_sgf_tree *tree = parse_ok("(;B[aa]BL[30.5]OB[3];W[bb]WL[12])");
    const tg_sgf_node *b = tg_sgf_tree_games(tree), *w = b->child;
    double time;
    int moves;
    assert_true(tg_sgf_node_clock(b, TG_BLACK, &time, &moves));
    assert_true(time == 30.5);
    assert_int_equal(moves, 3);
    assert_false(tg_sgf_node_clock(b, TG_WHITE, &time, &moves));
    assert_true(tg_sgf_node_clock(w, TG_WHITE, &time, &moves));
    assert_true(time == 12);
    assert_int_equal(moves, -1);
    tg_sgf_tree_free(tree);
}

/* ---- loading records ----------------------------------------------------- */

static void test_load_server_record(void **state)
{
    (void)state;
    tg_sgf_info info;
    tg_game *g = load_file("game_19x19.sgf", -1, &info);
    assert_int_equal(tg_game_size(g), 19);
    assert_int_equal(tg_game_move_count(g), 150);
    assert_string_equal(tg_game_rules(g)->name, "japanese");
    assert_int_equal(tg_game_rules(g)->komi2, 13);
    assert_string_equal(info.black, "Black Player");
    assert_string_equal(info.white, "白方 Shiro");
    assert_string_equal(info.black_rank, "4d");
    assert_string_equal(info.white_rank, "5d");
    assert_string_equal(info.date, "2024-03-01");
    assert_string_equal(info.event, "Club ] Cup");
    assert_string_equal(info.round, "3");
    assert_string_equal(info.result, "W+R");
    assert_string_equal(info.rules, "Japanese");
    assert_string_equal(info.overtime, "5x30 byo-yomi");
    assert_true(info.main_time == 1800);
    assert_false(tg_game_over(g));   /* RE is information, not applied */
    tg_game_free(g);
    g = load_file("game_19x19.sgf", 10, NULL);
    assert_int_equal(tg_game_move_count(g), 10);
    tg_game_free(g);
    g = load_file("game_19x19.sgf", 0, NULL);
    assert_int_equal(tg_game_move_count(g), 0);
    tg_game_free(g);
}

static void test_load_fox_and_ff3(void **state)
{
    (void)state;
    tg_sgf_info info;
    tg_game *g = load_file("fox_komi.sgf", -1, &info);
    assert_int_equal(tg_game_size(g), 13);
    assert_int_equal(tg_game_rules(g)->komi2, 15);
    assert_string_equal(tg_game_rules(g)->name, "chinese");
    assert_string_equal(info.black, "黑棋");
    assert_true(info.main_time == 600);
    assert_int_equal(tg_game_move_count(g), 40);
    tg_game_free(g);

    g = load_file("ff3_lowercase.sgf", -1, &info);
    assert_int_equal(tg_game_size(g), 9);
    assert_int_equal(tg_game_rules(g)->komi2, 1);
    assert_string_equal(info.black, "Old");
    assert_int_equal(color_at(g, "cc"), TG_BLACK);
    assert_int_equal(color_at(g, "gg"), TG_WHITE);
    assert_int_equal(tg_game_move_count(g), 4);
    assert_int_equal(tg_game_move(g, 1)->point, TG_PASS);   /* W[tt] */
    tg_game_free(g);
}

static void test_load_rules_named_by_ru(void **state)
{
    (void)state;
    /* multi-stone suicide: legal under New Zealand rules, not Chinese */
    tg_game *g = load_file("nz_suicide.sgf", -1, NULL);
    assert_string_equal(tg_game_rules(g)->name, "new-zealand");
    assert_int_equal(tg_game_rules(g)->komi2, 14);
    assert_int_equal(color_at(g, "aa"), TG_EMPTY);
    assert_int_equal(color_at(g, "ba"), TG_EMPTY);
    assert_int_equal(tg_game_move_count(g), 8);
    tg_game_free(g);

    size_t length;
    char *data = read_data("bad/suicide_chinese.sgf", &length);
    tg_sgf_info info;
    memset(&info, 0x5a, sizeof info);
    tg_sgf_error err;
    g = (tg_game *)&err;
    assert_int_equal(tg_sgf_load_game(data, length, -1, &g, &info, &err), TG_ERR_PARSE);
    assert_null(g);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 2);
    assert_non_null(strstr(err.message, "B[ba]"));
    for (size_t i = 0; i < sizeof info; i++)   /* untouched on error */
        assert_int_equal(((unsigned char *)&info)[i], 0x5a);
    free(data);

    /* no RU: the default rules, with the komi of KM */
    g = load_ok("(;SZ[9]KM[6.5];B[ee])", -1, NULL);
    assert_string_equal(tg_game_rules(g)->name, "chinese");
    assert_int_equal(tg_game_rules(g)->komi2, 13);
    tg_game_free(g);
    /* no KM: the ruleset's komi */
    g = load_ok("(;SZ[9]RU[Japanese])", -1, NULL);
    assert_int_equal(tg_game_rules(g)->komi2, 13);
    tg_game_free(g);
}

static void test_load_handicap_and_setup(void **state)
{
    (void)state;
    tg_game *g = load_file("handicap.sgf", 0, NULL);
    assert_int_equal(tg_game_handicap(g), 4);
    assert_int_equal(tg_game_to_move(g), TG_WHITE);
    assert_int_equal(color_at(g, "dd"), TG_BLACK);
    tg_game_free(g);
    g = load_file("handicap.sgf", -1, NULL);
    assert_int_equal(tg_game_move_count(g), 4);
    tg_game_free(g);
    /* HA that does not match the stones: plain setup */
    g = load_ok("(;SZ[9]HA[3]AB[cc][gg];W[ee])", -1, NULL);
    assert_int_equal(tg_game_handicap(g), 0);
    assert_int_equal(color_at(g, "cc"), TG_BLACK);
    tg_game_free(g);

    /* Issue 41, item 6: Fox writes the handicap stones in the second node;
     * stones placed before the first move are the handicap wherever they are */
    g = load_ok("(;GM[1]FF[4]SZ[9]KM[0.5]HA[2]RU[Chinese];AB[cc][gg];W[cg];B[];W[])", -1, NULL);
    assert_int_equal(tg_game_handicap(g), 2);
    assert_int_equal(color_at(g, "gg"), TG_BLACK);
    assert_int_equal(tg_game_move_count(g), 3);
    assert_int_equal(tg_game_move(g, 0)->color, TG_WHITE);
    tg_score score;
    tg_score_game(g, NULL, &score);
    char re[32];
    tg_result_to_sgf(&score.result, re, sizeof re);
    assert_string_equal(re, "W+1.5");   /* as with the AB in the root */
    tg_game_free(g);
    g = load_ok("(;GM[1]FF[4]SZ[9]KM[0.5]HA[2]RU[Chinese]AB[cc][gg];W[cg];B[];W[])", -1, NULL);
    tg_score_game(g, NULL, &score);
    tg_result_to_sgf(&score.result, re, sizeof re);
    assert_string_equal(re, "W+1.5");
    tg_game_free(g);
    /* split over nodes, and with a loadsgf stop before the first move */
    g = load_ok("(;SZ[9]HA[3]AB[cc];AB[gg];AB[ee];W[cg])", 0, NULL);
    assert_int_equal(tg_game_handicap(g), 3);
    assert_int_equal(tg_game_to_move(g), TG_WHITE);
    tg_game_free(g);
    /* stones after the first move are setup, not handicap */
    g = load_ok("(;SZ[9]HA[2]AB[cc];W[cg];AB[gg])", -1, NULL);
    assert_int_equal(tg_game_handicap(g), 0);
    assert_int_equal(color_at(g, "gg"), TG_BLACK);
    tg_game_free(g);
    /* white stones before the first move: plain setup */
    g = load_ok("(;SZ[9]HA[2];AB[cc][gg]AW[ee];W[cg])", -1, NULL);
    assert_int_equal(tg_game_handicap(g), 0);
    assert_int_equal(color_at(g, "ee"), TG_WHITE);
    tg_game_free(g);

    /* stopping before move 3 applies the setup made before it */
    g = load_file("setup.sgf", 2, NULL);
    assert_int_equal(tg_game_size(g), 9);
    assert_int_equal(color_at(g, "aa"), TG_EMPTY);
    assert_int_equal(color_at(g, "hh"), TG_BLACK);
    assert_int_equal(color_at(g, "cb"), TG_BLACK);
    assert_int_equal(color_at(g, "ii"), TG_WHITE);
    assert_int_equal(tg_game_move(g, 0)->color, TG_WHITE);   /* PL[W] */
    tg_game_free(g);
    g = load_file("setup.sgf", -1, NULL);
    assert_int_equal(color_at(g, "aa"), TG_BLACK);   /* AE'd, then played again */
    assert_int_equal(color_at(g, "ba"), TG_EMPTY);
    assert_int_equal(color_at(g, "hh"), TG_BLACK);
    assert_int_equal(color_at(g, "hb"), TG_WHITE);
    assert_int_equal(tg_game_move_count(g), 4);
    tg_game_free(g);
}

static void test_load_tolerates_records(void **state)
{
    (void)state;
    /* two moves by one colour; play resumed after two passes */
    tg_game *g = load_ok("(;SZ[9];B[ee];B[cc];W[];B[];W[gg])", -1, NULL);
    assert_int_equal(tg_game_move_count(g), 5);
    assert_int_equal(color_at(g, "gg"), TG_WHITE);
    tg_game_free(g);
    /* several collections: the first game is loaded */
    g = load_ok("(;SZ[5];B[cc])(;SZ[7])", -1, NULL);
    assert_int_equal(tg_game_size(g), 5);
    tg_game_free(g);
}

static void test_load_errors(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"bad/empty.sgf", 1, 1, "empty"},
        {"bad/garbage.sgf", 1, 1, "no SGF game tree"},
        {"bad/truncated.sgf", 2, 21, "no ']'"},
        {"bad/occupied.sgf", 3, 2, "occupied"},
        {"bad/off_board.sgf", 2, 8, "off the board"},
        {"bad/size_30.sgf", 1, 8, "2 to 25"},
        {"bad/no_value.sgf", 2, 2, "without a value"},
        {"bad/stray_char.sgf", 1, 21, "unexpected '%'"},
        {"bad/komi.sgf", 1, 14, "komi"},
        {"bad/not_go.sgf", 1, 3, "not a game of Go"},
        {"bad/lowercase_no_value.sgf", 1, 21, "without a value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t length;
        char *data = read_data(cases[i].text, &length);
        tg_game *g = NULL;
        tg_sgf_error err = {0};
        tg_status st = tg_sgf_load_game(data, length, -1, &g, NULL, &err);
        if (st == TG_OK || err.line != cases[i].line || err.column != cases[i].column ||
            !strstr(err.message, cases[i].words))
            fail_msg("%s: status %d at %d:%d: %s", cases[i].text, st, err.line, err.column,
                     err.message);
        assert_null(g);
        free(data);
    }
}

/* Issue 41, items 8 and 9: what the reader doubts in a file it reads is
 * said, with its place, in the notes of tg_sgf_info. */
static void test_load_notes_what_it_doubts(void **state)
{
    (void)state;
    tg_sgf_info info;
    /* rules spelt as records spell them: known, no note */
    tg_game *g = load_ok("(;SZ[9]RU[Tromp/Taylor];B[ee])", -1, &info);
    assert_string_equal(tg_game_rules(g)->name, "tromp-taylor");
    assert_true(tg_game_rules(g)->suicide);
    assert_int_equal(info.notes.count, 0);
    tg_game_free(g);
    g = load_ok("(;SZ[9]RU[TT--];B[ee])", -1, &info);
    assert_string_equal(tg_game_rules(g)->name, "tromp-taylor");
    tg_game_free(g);
    /* unknown rules: counted under Chinese, and said */
    g = load_ok("(;SZ[9]\nRU[Klingon];B[ee])", -1, &info);
    assert_string_equal(tg_game_rules(g)->name, "chinese");
    assert_int_equal(info.notes.count, 1);
    assert_int_equal(info.notes.note[0].line, 2);
    assert_int_equal(info.notes.note[0].column, 1);
    assert_non_null(strstr(info.notes.note[0].message, "RU[Klingon]"));
    assert_non_null(strstr(info.notes.note[0].message, "Chinese"));
    tg_game_free(g);
    /* a second KM: the first is the komi, and the second is said */
    g = load_ok("(;SZ[9]KM[6.5]KM[0.5];B[ee])", -1, &info);
    assert_int_equal(tg_game_rules(g)->komi2, 13);
    assert_int_equal(info.notes.count, 1);
    assert_int_equal(info.notes.note[0].column, 15);
    assert_non_null(strstr(info.notes.note[0].message, "second KM[0.5]"));
    tg_game_free(g);
    /* the same through the tree */
    tg_sgf_tree *tree;
    const char *text = "(;SZ[9]RU[Klingon])";
    assert_int_equal(tg_sgf_parse(text, strlen(text), &tree, NULL), TG_OK);
    assert_int_equal(tg_sgf_game_from_tree(tg_sgf_tree_games(tree), -1, &g, &info, NULL), TG_OK);
    assert_int_equal(info.notes.count, 1);
    tg_game_free(g);
    tg_sgf_tree_free(tree);
}

/* Issue 41, item 9: a move takes one value; B[dd][ee] is refused where it
 * stands rather than played as two black stones. */
static void test_load_refuses_two_values_in_a_move(void **state)
{
    (void)state;
    const char *text = "(;SZ[9]\n;B[dd][ee];W[cc])";
    tg_game *g = NULL;
    tg_sgf_error err = {0};
    assert_int_equal(tg_sgf_load_game(text, strlen(text), -1, &g, NULL, &err), TG_ERR_PARSE);
    assert_null(g);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 2);
    assert_non_null(strstr(err.message, "a move takes one value"));
}

/* ---- saving games -------------------------------------------------------- */

static void assert_same_game(const tg_game *a, const tg_game *b)
{
    assert_int_equal(tg_game_size(a), tg_game_size(b));
    assert_int_equal(tg_game_move_count(a), tg_game_move_count(b));
    for (int i = 0; i < tg_game_move_count(a); i++) {
        assert_int_equal(tg_game_move(a, i)->color, tg_game_move(b, i)->color);
        assert_int_equal(tg_game_move(a, i)->point, tg_game_move(b, i)->point);
    }
    const tg_board *ba = tg_game_board(a), *bb = tg_game_board(b);
    assert_memory_equal(ba->color, bb->color, (size_t)ba->npoints);
    assert_int_equal(tg_game_handicap(a), tg_game_handicap(b));
    assert_int_equal(tg_game_to_move(a), tg_game_to_move(b));
    assert_int_equal(tg_game_rules(a)->komi2, tg_game_rules(b)->komi2);
    assert_string_equal(tg_game_rules(a)->name, tg_game_rules(b)->name);
}

static tg_game *reload(const tg_game *g, const tg_sgf_info *info, tg_sgf_info *info_out)
{
    char *text = tg_sgf_save_game(g, info);
    assert_non_null(text);
    tg_game *back = load_ok(text, -1, info_out);
    free(text);
    return back;
}

static void test_save_round_trip(void **state)
{
    (void)state;
    tg_rules rules;
    assert_int_equal(tg_rules_preset(&rules, "japanese"), TG_OK);
    rules.komi2 = 1;
    tg_game *g = tg_game_new(13, &rules);
    tg_point stones[3];
    assert_int_equal(tg_fixed_handicap_points(tg_game_board(g), 3, stones), 3);
    assert_int_equal(tg_game_place_handicap(g, stones, 3), TG_OK);
    assert_int_equal(tg_game_play(g, TG_WHITE, at(g, "cc"), 0), TG_OK);
    assert_int_equal(tg_game_play(g, TG_BLACK, at(g, "dd"), 0), TG_OK);
    assert_int_equal(tg_game_play(g, TG_BLACK, at(g, "ee"), TG_PLAY_ANY_ORDER), TG_OK);
    assert_int_equal(tg_game_play(g, TG_WHITE, TG_PASS, 0), TG_OK);
    assert_int_equal(tg_game_setup(g, at(g, "dd"), TG_EMPTY), TG_OK);
    assert_int_equal(tg_game_setup(g, at(g, "aa"), TG_WHITE), TG_OK);
    assert_int_equal(tg_game_play(g, TG_BLACK, at(g, "ff"), 0), TG_OK);
    tg_sgf_info info = {.main_time = 600};
    snprintf(info.black, sizeof info.black, "Black ] \\ name");
    snprintf(info.white, sizeof info.white, "White");
    snprintf(info.event, sizeof info.event, "Test [event]");
    snprintf(info.overtime, sizeof info.overtime, "3x30 byo-yomi");
    tg_sgf_info back_info;
    tg_game *back = reload(g, &info, &back_info);
    assert_same_game(g, back);
    assert_string_equal(back_info.black, info.black);
    assert_string_equal(back_info.event, info.event);
    assert_string_equal(back_info.overtime, info.overtime);
    assert_true(back_info.main_time == 600);
    tg_game_free(back);

    assert_int_equal(tg_game_resign(g, TG_WHITE), TG_OK);
    back = reload(g, NULL, &back_info);
    assert_string_equal(back_info.result, "B+R");
    tg_game_free(back);
    tg_game_free(g);
}

static void test_save_setup_and_player(void **state)
{
    (void)state;
    tg_game *g = tg_game_new(9, NULL);
    assert_int_equal(tg_game_setup(g, at(g, "cc"), TG_BLACK), TG_OK);
    assert_int_equal(tg_game_setup(g, at(g, "dd"), TG_WHITE), TG_OK);
    assert_int_equal(tg_game_setup(g, at(g, "cc"), TG_EMPTY), TG_OK);   /* net: nothing at cc */
    tg_game_set_to_move(g, TG_WHITE);
    tg_game *back = reload(g, NULL, NULL);
    assert_same_game(g, back);
    tg_game_free(back);
    char *text = tg_sgf_save_game(g, NULL);
    assert_non_null(strstr(text, "PL[W]"));
    assert_non_null(strstr(text, "AW[dd]"));
    assert_null(strstr(text, "AB["));
    free(text);
    assert_int_equal(tg_game_play(g, TG_WHITE, at(g, "ee"), 0), TG_OK);
    tg_game_set_to_move(g, TG_WHITE);
    back = reload(g, NULL, NULL);
    assert_same_game(g, back);
    tg_game_free(back);
    tg_game_free(g);

    /* an empty game: the header alone, readable */
    g = tg_game_new(19, NULL);
    text = tg_sgf_save_game(g, NULL);
    assert_non_null(strstr(text, "GM[1]FF[4]"));
    assert_non_null(strstr(text, "SZ[19]"));
    back = load_ok(text, -1, NULL);
    assert_same_game(g, back);
    tg_game_free(back);
    free(text);
    tg_game_free(g);
}

static void test_save_new_zealand_suicide(void **state)
{
    (void)state;
    tg_game *g = load_file("nz_suicide.sgf", -1, NULL);
    tg_game *back = reload(g, NULL, NULL);
    assert_same_game(g, back);
    tg_game_free(back);
    tg_game_free(g);
}

/* ---- a counted game's dead stones (TB/TW on the last node) ------------- */

/* CASES.md T18 after its two passes: Black lives in columns A and B, White
 * holds the rest, a white stone (A4, "ab") sits inside Black's area. */
static const char t18[] =
    "(;GM[1]FF[4]SZ[5]KM[0]RU[Chinese]AB[ba][bb][bc][ad][bd][be]"
    "AW[ca][ea][ab][cb][db][eb][cc][ec][cd][dd][ed][ce][ee];B[];W[]%s)";

static tg_game *load_t18(const char *last_node_marks, tg_sgf_info *info)
{
    char text[512];
    snprintf(text, sizeof text, t18, last_node_marks);
    return load_ok(text, -1, info);
}

static void test_score_territory_map(void **state)
{
    (void)state;
    tg_game *g = load_t18("", NULL);
    uint8_t dead[TG_MAX_POINTS] = {0}, area[TG_MAX_POINTS];
    dead[at(g, "ab")] = 1;
    tg_score_territory(tg_game_board(g), tg_game_rules(g), dead, area);
    assert_int_equal(area[at(g, "ab")], TG_BLACK); /* the dead stone's point */
    assert_int_equal(area[at(g, "aa")], TG_BLACK);
    assert_int_equal(area[at(g, "ae")], TG_BLACK);
    assert_int_equal(area[at(g, "dc")], TG_WHITE);
    assert_int_equal(area[at(g, "da")], TG_WHITE);
    assert_int_equal(area[at(g, "ba")], TG_EMPTY); /* a live stone */
    int counted[3] = {0, 0, 0};
    for (tg_point p = 0; p < TG_MAX_POINTS; p++)
        counted[area[p]]++;
    tg_score s;
    tg_score_game(g, dead, &s);
    assert_int_equal(counted[TG_BLACK], s.territory[TG_BLACK]);
    assert_int_equal(counted[TG_WHITE], s.territory[TG_WHITE]);
    /* C5 dead too: its point and D5 touch B5 and E5, dame */
    dead[at(g, "ca")] = 1;
    tg_score_territory(tg_game_board(g), tg_game_rules(g), dead, area);
    assert_int_equal(area[at(g, "ca")], TG_EMPTY);
    assert_int_equal(area[at(g, "da")], TG_EMPTY);
    assert_int_equal(area[at(g, "dc")], TG_WHITE);
    tg_game_free(g);
}

/* The writer marks the count's territory, and every dead stone under its
 * opponent's mark even where its point is dame (C5 here), so the reader
 * finds exactly the dead stones again and the count is the same. */
static void test_save_counted_game_marks_dead_stones(void **state)
{
    (void)state;
    tg_game *g = load_t18("", NULL);
    tg_sgf_info info;
    memset(&info, 0, sizeof info);
    info.has_dead = true;
    info.dead[at(g, "ab")] = info.dead[at(g, "ca")] = 1;
    tg_score counted;
    tg_score_game(g, info.dead, &counted);
    tg_game_set_result(g, &counted.result);
    char *text = tg_sgf_save_game(g, &info);
    assert_non_null(text);
    assert_non_null(strstr(text, "W[]TB[aa][ca][ab][ac][ae]TW[dc][de])"));
    tg_sgf_info back;
    tg_game *reloaded = load_ok(text, -1, &back);
    assert_true(back.has_dead);
    assert_memory_equal(back.dead, info.dead, TG_MAX_POINTS);
    tg_score again;
    tg_score_game(reloaded, back.dead, &again);
    assert_int_equal(again.black2, counted.black2);
    assert_int_equal(again.white2, counted.white2);
    tg_game_free(reloaded);
    free(text);

    /* a count with no territory and no dead stone still says so: TB[]TW[] */
    memset(info.dead, 0, sizeof info.dead);
    tg_game *full = load_ok("(;SZ[2]AB[aa][ab]AW[bb];B[];W[])", -1, NULL);
    text = tg_sgf_save_game(full, &info);
    assert_non_null(strstr(text, "W[]TB[]TW[])"));
    tg_game_free(load_ok(text, -1, &back));
    assert_true(back.has_dead);
    free(text);
    tg_game_free(full);
    tg_game_free(g);
}

/* What other programs write is read the same way; without marks, or with
 * marks that are not points, the record gives no dead stones. */
static void test_load_dead_stones_from_marks(void **state)
{
    (void)state;
    tg_sgf_info info;
    /* CGoban's and OGS's way: territory, dead stones' points included; a
     * stone under its own colour's mark (B3 here) lives */
    tg_game *g = load_t18("TB[aa][ab][ac][ae][bc]TW[dc][de]", &info);
    assert_true(info.has_dead);
    for (tg_point p = 0; p < TG_MAX_POINTS; p++)
        assert_int_equal(info.dead[p], p == at(g, "ab"));
    tg_game_free(g);

    g = load_t18("", &info);
    assert_false(info.has_dead);
    for (tg_point p = 0; p < TG_MAX_POINTS; p++)
        assert_int_equal(info.dead[p], 0);
    tg_game_free(g);

    g = load_t18("TB[ab]TW[zz]", &info);
    assert_false(info.has_dead);
    assert_int_equal(info.dead[at(g, "ab")], 0);
    assert_int_equal(info.notes.count, 1);
    assert_non_null(strstr(info.notes.note[0].message, "TW"));
    tg_game_free(g);

    /* marks on a node before the last, or a replay cut short, are not the
     * end of the game */
    g = load_t18("TB[ab];B[aa]", &info);
    assert_false(info.has_dead);
    tg_game_free(g);
    char text[512];
    snprintf(text, sizeof text, t18, "TB[ab]");
    g = load_ok(text, 1, &info);
    assert_false(info.has_dead);
    tg_game_free(g);
}

/* A custom ruleset's RU names every option, about 200 bytes: written
 * whole (it was once cut at 128) and read back to the same rules. */
static void test_save_long_custom_rules(void **state)
{
    (void)state;
    tg_rules r;
    char err[128];
    assert_int_equal(tg_rules_preset(&r, "free-opening"), TG_OK);
    assert_int_equal(tg_rules_apply(&r, "decide=yes tax=seki", err, sizeof err), TG_OK);
    tg_game *g = tg_game_new(5, &r);
    assert_non_null(g);
    char *text = tg_sgf_save_game(g, NULL);
    assert_non_null(text);
    assert_non_null(strstr(text, "dispute=turn decide=yes]"));
    tg_game *back = NULL;
    tg_sgf_error e = {0};
    assert_int_equal(tg_sgf_load_game(text, strlen(text), -1, &back, NULL, &e), TG_OK);
    const tg_rules *a = tg_game_rules(g), *b = tg_game_rules(back);
    assert_true(a->decisive && b->decisive && b->tax == a->tax && b->capture_choice && b->repetition_loses &&
                b->free_opening == a->free_opening && b->white_first);
    free(text);
    tg_game_free(back);
    tg_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_structure),
        cmocka_unit_test(test_parse_values),
        cmocka_unit_test(test_parse_escapes),
        cmocka_unit_test(test_parse_nul_byte_in_value),
        cmocka_unit_test(test_parse_ff3_identifiers),
        cmocka_unit_test(test_parse_tolerates_junk),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_deep_variations),
        cmocka_unit_test(test_long_main_line),
        cmocka_unit_test(test_prefixes_never_crash),
        cmocka_unit_test(test_write_escapes_and_variations),
        cmocka_unit_test(test_write_round_trips_files),
        cmocka_unit_test(test_write_wraps_long_lines),
        cmocka_unit_test(test_decode_moves_and_points),
        cmocka_unit_test(test_decode_point_lists),
        cmocka_unit_test(test_decode_komi),
        cmocka_unit_test(test_decode_numbers_and_size),
        cmocka_unit_test(test_node_clock),
        cmocka_unit_test(test_load_server_record),
        cmocka_unit_test(test_load_fox_and_ff3),
        cmocka_unit_test(test_load_rules_named_by_ru),
        cmocka_unit_test(test_save_long_custom_rules),
        cmocka_unit_test(test_load_handicap_and_setup),
        cmocka_unit_test(test_parse_repairs),
        cmocka_unit_test(test_load_numbered_player),
        cmocka_unit_test(test_load_notes_what_it_doubts),
        cmocka_unit_test(test_load_refuses_two_values_in_a_move),
        cmocka_unit_test(test_load_tolerates_records),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_save_round_trip),
        cmocka_unit_test(test_save_setup_and_player),
        cmocka_unit_test(test_save_new_zealand_suicide),
        cmocka_unit_test(test_score_territory_map),
        cmocka_unit_test(test_save_counted_game_marks_dead_stones),
        cmocka_unit_test(test_load_dead_stones_from_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
