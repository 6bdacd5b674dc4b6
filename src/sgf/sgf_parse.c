/*
 * sgf_parse.c — SGF text to tree, in one pass and without recursion.
 *
 * The grammar is FF[4]'s (see sgf.h).  Open game trees are kept on an
 * explicit stack, so a file nesting variations a million deep costs a
 * million small frames on the heap, not a million C stack frames.  Nodes,
 * properties and values go straight into the tree's arena; a value is
 * scanned once to find its closing ']' and copied once, unescaping only
 * when it held a backslash.
 *
 * Tolerance, as real files need it: text outside game trees is skipped (a
 * BOM, mail headers, a stray ')', a '(' that opens no game tree); FF[3]
 * identifiers such as "AddBlack" keep their uppercase letters; an
 * identifier with no uppercase letter is dropped with its values; "()" is
 * ignored; a node after a closed variation ("(;a(;b);c)") becomes one more
 * variation.  Repairs, each noted in the tree's notes with its place: a
 * root written without its ';' (Nihon Ki-in), game trees the file ends
 * without closing (GNU Go and Sabaki read them), UTF-16 text with a
 * byte-order mark.  Everything else that breaks the grammar stops the parse
 * with the line and column of the problem.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgf/sgf_internal.h"

/* One open game tree: the node it hangs from and where it began. */
typedef struct frame {
    tg_sgf_node *branch;   /* the node its first node is a child of (tree->top at top level) */
    tg_sgf_node *first;    /* its first node, once read */
    int line, column;      /* of its '(' */
} frame;

typedef struct parser {
    const char *p, *end;
    const char *line_start;   /* first byte of the current line */
    int line;
    tg_sgf_tree *tree;
    tg_sgf_error *err;
    frame *stack;
    size_t depth, capacity;
    tg_sgf_node *current;     /* where properties go; tree->top before a game's first node */
    tg_sgf_node *last_child;  /* the last child of current, when it has children */
    bool after_variation;     /* a ')' closed a variation since current was read */
} parser;

/* Bytes a value scan must stop at. */
static const unsigned char value_stop[256] = {['\\'] = 1, [']'] = 1, ['\n'] = 1, ['\r'] = 1};

static inline int column_at(const parser *ps, const char *at)
{
    ptrdiff_t column = at - ps->line_start + 1;
    return column < INT_MAX ? (int)column : INT_MAX;
}

/* A parse error at `at`, which is on the current line. */
static tg_status fail_at(parser *ps, const char *at, const char *message)
{
    sgf_error_set(ps->err, ps->line, column_at(ps, at), "%s", message);
    return TG_ERR_PARSE;
}

static tg_status no_memory(parser *ps)
{
    sgf_error_set(ps->err, ps->line, column_at(ps, ps->p), "%s", "out of memory");
    return TG_ERR_NO_MEMORY;
}

/* Account for the line break at `at` ('\n', or '\r' not followed by '\n';
 * a "\r\n" pair is counted at its '\n'). */
static inline void count_line_break(parser *ps, const char *at)
{
    if (*at == '\n' || at + 1 == ps->end || at[1] != '\n') {
        ps->line += ps->line < INT_MAX;
        ps->line_start = at + 1;
    }
}

static void skip_space(parser *ps)
{
    const char *p = ps->p;
    for (; p < ps->end; p++) {
        char c = *p;
        if (c == '\n' || c == '\r')
            count_line_break(ps, p);
        else if (c != ' ' && c != '\t' && c != '\v' && c != '\f')
            break;
    }
    ps->p = p;
}

static bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

static const char *past_space(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f'))
        p++;
    return p;
}

/* Whether the '(' at p opens a game tree: what follows it is a node (';'),
 * a property (an uppercase identifier and '[': a root written without its
 * ';', as Nihon Ki-in records are), or a ')' closing an empty tree.  A '('
 * in the text before a game ("(c) 2003", "(see below)") opens none. */
static bool opens_game_tree(const char *p, const char *end)
{
    p = past_space(p + 1, end);
    if (p < end && (*p == ';' || *p == ')'))
        return true;
    const char *id = p;
    while (p < end && *p >= 'A' && *p <= 'Z')
        p++;
    p = past_space(p, end);
    return p > id && p < end && *p == '[';
}

/* Outside any game tree: everything up to the next '(' that opens one is
 * ignored. */
static void skip_to_game_tree(parser *ps)
{
    const char *p = ps->p;
    bool skipped_paren = false;
    for (; p < ps->end && (*p != '(' || !opens_game_tree(p, ps->end)); p++) {
        if (*p == '\n' || *p == '\r')
            count_line_break(ps, p);
        if (*p == '(' && !skipped_paren) {
            skipped_paren = true;
            sgf_note_add(&ps->tree->notes, ps->line, column_at(ps, p),
                         "repaired: a '(' in the text outside a game opens no game tree; skipped");
        }
    }
    ps->p = p;
}

/* ---- game trees and nodes -------------------------------------------- */

static tg_status open_game_tree(parser *ps)
{
    if (ps->depth && !ps->stack[ps->depth - 1].first)
        return fail_at(ps, ps->p, "a game tree must begin with a node (';') before its variations");
    if (ps->depth == ps->capacity) {
        size_t capacity = ps->capacity ? ps->capacity * 2 : 64;
        frame *stack = realloc(ps->stack, capacity * sizeof *stack);
        if (!stack)
            return no_memory(ps);
        ps->stack = stack;
        ps->capacity = capacity;
    }
    ps->stack[ps->depth++] = (frame){ps->current, NULL, ps->line, column_at(ps, ps->p)};
    ps->p++;
    return TG_OK;
}

static void close_game_tree(parser *ps)
{
    frame *f = &ps->stack[--ps->depth];
    ps->current = f->branch;
    /* The frame's first node is the newest child of its branch; an empty
     * "()" changed nothing, so last_child still describes current. */
    if (f->first)
        ps->last_child = f->first;
    ps->after_variation = ps->depth > 0;
    ps->p++;
}

/* A node at ps->p: its ';' is consumed, or there is none (a root written
 * without it). */
static tg_status read_node(parser *ps, bool has_semicolon)
{
    tg_sgf_tree *tree = ps->tree;
    tg_sgf_node *node = sgf_node_new(tree);
    if (!node)
        return no_memory(ps);
    node->line = ps->line;
    node->column = column_at(ps, ps->p);
    tg_sgf_node *parent = ps->current;
    if (parent == &tree->top) {
        if (tree->last_game)
            tree->last_game->sibling = node;
        else
            tree->top.child = node;
        tree->last_game = node;
    } else {
        node->parent = parent;
        if (parent->child)
            ps->last_child->sibling = node;
        else
            parent->child = node;
    }
    frame *f = &ps->stack[ps->depth - 1];
    if (!f->first)
        f->first = node;
    ps->current = node;
    ps->last_child = NULL;
    ps->after_variation = false;
    ps->p += has_semicolon;
    return TG_OK;
}

/* ---- properties ------------------------------------------------------- */

/* Scan the value whose '[' is at ps->p; on success ps->p is past its ']'
 * and *closing points at that ']'. */
static tg_status scan_value(parser *ps, const char **closing, bool *escaped)
{
    const char *open = ps->p;
    int open_line = ps->line, open_column = column_at(ps, open);
    const char *p = open + 1, *end = ps->end;
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (!value_stop[c]) {
            p++;
            continue;
        }
        if (c == ']') {
            *closing = p;
            ps->p = p + 1;
            return TG_OK;
        }
        if (c == '\\') {
            *escaped = true;
            if (++p == end)
                break;
            if (*p != '\n' && *p != '\r') {
                p++;
                continue;
            }
        }
        count_line_break(ps, p);
        p++;
    }
    sgf_error_set(ps->err, open_line, open_column,
                  "unterminated property value: no ']' closes the '[' opened here");
    return TG_ERR_PARSE;
}

/* Copy src..end resolving escapes; a backslash before a line break (one of
 * \n, \r, \r\n, \n\r) removes both.  Returns the bytes written. */
static size_t unescape(char *dst, const char *src, const char *end)
{
    char *d = dst;
    while (src < end) {
        if (*src != '\\') {
            *d++ = *src++;
            continue;
        }
        char c = *++src;   /* the scan guarantees a byte follows a backslash */
        src++;
        if (c == '\n' || c == '\r') {
            if (src < end && (*src == '\n' || *src == '\r') && *src != c)
                src++;
            continue;
        }
        *d++ = c;
    }
    return (size_t)(d - dst);
}

static tg_status read_value(parser *ps, tg_sgf_value **out)
{
    const char *open = ps->p, *closing = NULL;
    bool escaped = false;
    tg_status st = scan_value(ps, &closing, &escaped);
    if (st != TG_OK)
        return st;
    if (!out)
        return TG_OK;
    size_t raw = (size_t)(closing - open - 1);
    tg_sgf_value *value = sgf_value_new(ps->tree, raw);
    if (!value)
        return no_memory(ps);
    if (escaped) {
        value->length = unescape(value->text, open + 1, closing);
        value->text[value->length] = '\0';
    } else if (raw) {
        memcpy(value->text, open + 1, raw);
    }
    *out = value;
    return TG_OK;
}

/* Read the identifier at ps->p into a new property (NULL when the
 * identifier has no uppercase letter and is to be dropped). */
static tg_status read_identifier(parser *ps, tg_sgf_property **out)
{
    const char *start = ps->p, *p = start;
    size_t upper = 0;
    for (; p < ps->end && is_letter(*p); p++)
        upper += *p <= 'Z';
    ps->p = p;
    *out = NULL;
    if (!upper)
        return TG_OK;
    tg_sgf_property *prop = sgf_property_new(ps->tree, upper);
    if (!prop)
        return no_memory(ps);
    char *id = prop->id;
    for (const char *q = start; q < p; q++)
        if (*q <= 'Z')
            *id++ = *q;
    prop->line = ps->line;
    prop->column = column_at(ps, start);
    *out = prop;
    return TG_OK;
}

static tg_status read_property(parser *ps, tg_sgf_property ***tail)
{
    const char *start = ps->p;
    const frame *f = &ps->stack[ps->depth - 1];
    if (!f->first && ps->depth == 1) {
        sgf_note_add(&ps->tree->notes, ps->line, column_at(ps, start),
                     "repaired: the game tree opened at line %d, column %d has no ';' before "
                     "its first property; read as its root node", f->line, f->column);
        tg_status st = read_node(ps, false);
        if (st != TG_OK)
            return st;
        *tail = &ps->current->properties;
    }
    if (!ps->stack[ps->depth - 1].first)
        return fail_at(ps, start, "property before the first node: expected ';'");
    if (ps->after_variation || !*tail)
        return fail_at(ps, start, "property after a variation: expected ';', '(' or ')'");
    int line = ps->line, column = column_at(ps, start);
    tg_sgf_property *prop;
    tg_status st = read_identifier(ps, &prop);
    if (st != TG_OK)
        return st;
    skip_space(ps);
    if (ps->p == ps->end || *ps->p != '[') {
        sgf_error_set(ps->err, line, column, "%s",
                      "property without a value: expected '[' after its identifier");
        return TG_ERR_PARSE;
    }
    tg_sgf_value **value_tail = prop ? &prop->values : NULL;
    do {
        st = read_value(ps, value_tail);
        if (st != TG_OK)
            return st;
        if (value_tail)
            value_tail = &(*value_tail)->next;
        skip_space(ps);
    } while (ps->p < ps->end && *ps->p == '[');
    if (prop) {
        **tail = prop;
        *tail = &prop->next;
    }
    return TG_OK;
}

/* ---- the main loop ---------------------------------------------------- */

static tg_status unexpected(parser *ps)
{
    unsigned char c = (unsigned char)*ps->p;
    char shown[8];
    if (c >= 0x21 && c < 0x7f)
        snprintf(shown, sizeof shown, "'%c'", c);
    else
        snprintf(shown, sizeof shown, "0x%02x", c);
    sgf_error_set(ps->err, ps->line, column_at(ps, ps->p),
                  "unexpected %s: expected ';', '(', ')' or a property", shown);
    return TG_ERR_PARSE;
}

static tg_status parse_game_trees(parser *ps)
{
    /* Where the next property of the current node goes; read_property
     * refuses a property wherever this is not set. */
    tg_sgf_property **tail = NULL;
    for (;;) {
        if (!ps->depth) {
            skip_to_game_tree(ps);
        } else {
            skip_space(ps);
        }
        if (ps->p == ps->end)
            return TG_OK;
        tg_status st = TG_OK;
        switch (*ps->p) {
        case '(':
            st = open_game_tree(ps);
            tail = NULL;
            break;
        case ')':
            close_game_tree(ps);
            tail = NULL;
            break;
        case ';':
            st = read_node(ps, true);
            tail = &ps->current->properties;
            break;
        default:
            if (!is_letter(*ps->p))
                return unexpected(ps);
            st = read_property(ps, &tail);
        }
        if (st != TG_OK)
            return st;
    }
}

static tg_status finish(parser *ps, const char *data)
{
    if (ps->depth) {
        /* GNU Go and Sabaki read a file whose last ')' are missing: the
         * open game trees end with the file. */
        const frame *f = &ps->stack[0];
        sgf_note_add(&ps->tree->notes, ps->line, column_at(ps, ps->end),
                     "repaired: no ')' closes the game tree opened at line %d, column %d; "
                     "closed at the end of the file", f->line, f->column);
        ps->depth = 0;
    }
    if (!ps->tree->top.child) {
        sgf_error_set(ps->err, 1, 1, "%s",
                      ps->end == data ? "empty file: no SGF game tree"
                                      : "no SGF game tree: a game starts with '(;'");
        return TG_ERR_PARSE;
    }
    return TG_OK;
}

/* UTF-16 text (after its byte-order mark) as UTF-8, malloc'd; a lone
 * surrogate becomes U+FFFD.  NULL when out of memory. */
static char *utf16_to_utf8(const unsigned char *in, size_t len, bool big_endian, size_t *out_len)
{
    size_t units = len / 2;
    if (units > SIZE_MAX / 3 - 1)
        return NULL;
    char *out = malloc(units * 3 + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < units; i++) {
        unsigned u = big_endian ? (unsigned)in[2 * i] << 8 | in[2 * i + 1] : (unsigned)in[2 * i + 1] << 8 | in[2 * i];
        unsigned long c = u;
        if (u >= 0xD800 && u < 0xDC00 && i + 1 < units) {
            unsigned v = big_endian ? (unsigned)in[2 * i + 2] << 8 | in[2 * i + 3]
                                    : (unsigned)in[2 * i + 3] << 8 | in[2 * i + 2];
            if (v >= 0xDC00 && v < 0xE000) {
                c = 0x10000 + ((unsigned long)(u - 0xD800) << 10) + (v - 0xDC00);
                i++;
            } else {
                c = 0xFFFD;
            }
        } else if (u >= 0xD800 && u < 0xE000) {
            c = 0xFFFD;
        }
        if (c < 0x80) {
            out[n++] = (char)c;
        } else if (c < 0x800) {
            out[n++] = (char)(0xC0 | c >> 6);
            out[n++] = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out[n++] = (char)(0xE0 | c >> 12);
            out[n++] = (char)(0x80 | (c >> 6 & 0x3F));
            out[n++] = (char)(0x80 | (c & 0x3F));
        } else {   /* four bytes where two units gave six: still within units * 3 */
            out[n++] = (char)(0xF0 | c >> 18);
            out[n++] = (char)(0x80 | (c >> 12 & 0x3F));
            out[n++] = (char)(0x80 | (c >> 6 & 0x3F));
            out[n++] = (char)(0x80 | (c & 0x3F));
        }
    }
    out[n] = 0;
    *out_len = n;
    return out;
}

static tg_status parse_text(const char *data, size_t len, const char *encoding_note, tg_sgf_tree **out,
                            tg_sgf_error *err)
{
    parser ps = {.p = data, .end = data + len, .line_start = data, .line = 1, .err = err};
    ps.tree = tg_sgf_tree_new();
    if (!ps.tree)
        return no_memory(&ps);
    if (encoding_note)
        sgf_note_add(&ps.tree->notes, 1, 1, "%s", encoding_note);
    ps.current = &ps.tree->top;
    /* A game record costs about 16 bytes of tree per byte of text (nodes
     * of a few bytes each: ";B[pd]"). */
    sgf_arena_expect(&ps.tree->arena, len < SIZE_MAX / 16 ? len * 16 : SIZE_MAX);
    tg_status st = parse_game_trees(&ps);
    if (st == TG_OK)
        st = finish(&ps, data);
    free(ps.stack);
    if (st != TG_OK) {
        tg_sgf_tree_free(ps.tree);
        return st;
    }
    *out = ps.tree;
    return TG_OK;
}

tg_status tg_sgf_parse(const char *data, size_t len, tg_sgf_tree **out, tg_sgf_error *err)
{
    *out = NULL;
    if (!data) {
        data = "";
        len = 0;
    }
    const unsigned char *bytes = (const unsigned char *)data;
    bool little = len >= 2 && bytes[0] == 0xFF && bytes[1] == 0xFE;
    bool big = len >= 2 && bytes[0] == 0xFE && bytes[1] == 0xFF;
    if (!little && !big)
        return parse_text(data, len, NULL, out, err);
    /* UTF-16 with a byte-order mark (Windows editors write it): read as the
     * same text in UTF-8; lines and columns are those of the UTF-8 text. */
    size_t utf8_len;
    char *utf8 = utf16_to_utf8(bytes + 2, len - 2, big, &utf8_len);
    if (!utf8) {
        sgf_error_set(err, 1, 1, "%s", "out of memory");
        return TG_ERR_NO_MEMORY;
    }
    tg_status st = parse_text(utf8, utf8_len,
                              big ? "repaired: UTF-16 (big-endian) text read as UTF-8"
                                  : "repaired: UTF-16 (little-endian) text read as UTF-8",
                              out, err);
    free(utf8);
    return st;
}
