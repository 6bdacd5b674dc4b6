/*
 * sgf_write.c — an SGF tree back to text.
 *
 * The walk is iterative (parent links lead back up), so the depth of the
 * tree costs nothing.  A node with one child continues its sequence; a node
 * with several opens one "(" per child.  Inside values only "]" and "\"
 * need a backslash (FF[4]); everything else is written as it is, so parsing
 * the output gives back exactly the tree that was written.  Lines are
 * broken between nodes near column 72 and before each variation, to keep
 * files readable without changing any value.
 */
#include <stdlib.h>
#include <string.h>

#include "sgf/sgf_internal.h"

enum { WRAP_COLUMN = 72 };

typedef struct output {
    char *data;
    size_t length, capacity;
    size_t line_start;   /* offset of the first byte of the current line */
    bool failed;         /* out of memory: everything after is dropped */
} output;

static bool reserve(output *o, size_t extra)
{
    if (o->failed)
        return false;
    if (o->capacity - o->length > extra)
        return true;
    size_t capacity = o->capacity ? o->capacity : 1024;
    while (capacity - o->length <= extra) {
        if (capacity > SIZE_MAX / 2) {
            o->failed = true;
            return false;
        }
        capacity *= 2;
    }
    char *data = realloc(o->data, capacity);
    if (!data) {
        o->failed = true;
        return false;
    }
    o->data = data;
    o->capacity = capacity;
    return true;
}

static void put_bytes(output *o, const char *bytes, size_t n)
{
    if (!reserve(o, n))
        return;
    memcpy(o->data + o->length, bytes, n);
    o->length += n;
}

static void put_char(output *o, char c)
{
    if (!reserve(o, 1))
        return;
    o->data[o->length++] = c;
}

static size_t column(const output *o) { return o->length - o->line_start; }

static void new_line(output *o)
{
    put_char(o, '\n');
    o->line_start = o->length;
}

/* "[text]" with "]" and "\" escaped. */
static void put_value(output *o, const tg_sgf_value *value)
{
    /* At worst every byte doubles. */
    if (value->length > (SIZE_MAX - 3) / 2 || !reserve(o, 2 * value->length + 2))
        return;
    char *d = o->data + o->length;
    *d++ = '[';
    for (size_t i = 0; i < value->length; i++) {
        char c = value->text[i];
        if (c == ']' || c == '\\')
            *d++ = '\\';
        else if (c == '\n')
            o->line_start = (size_t)(d - o->data) + 1;
        *d++ = c;
    }
    *d++ = ']';
    o->length = (size_t)(d - o->data);
}

static void put_node(output *o, const tg_sgf_node *node)
{
    put_char(o, ';');
    for (const tg_sgf_property *prop = node->properties; prop; prop = prop->next) {
        put_bytes(o, prop->id, strlen(prop->id));
        for (const tg_sgf_value *value = prop->values; value; value = value->next)
            put_value(o, value);
    }
}

static bool has_variations(const tg_sgf_node *node)
{
    return node->child && node->child->sibling;
}

static void open_variation(output *o)
{
    if (column(o) > 0)
        new_line(o);
    put_char(o, '(');
}

/* After the subtree of `node` is written: close what it closes and return
 * the next node to write, or NULL when the game is done. */
static const tg_sgf_node *next_after_subtree(output *o, const tg_sgf_node *node,
                                             const tg_sgf_node *root)
{
    while (node != root) {
        const tg_sgf_node *parent = node->parent;
        if (has_variations(parent)) {
            put_char(o, ')');
            if (node->sibling) {
                open_variation(o);
                return node->sibling;
            }
        }
        node = parent;
    }
    return NULL;
}

static void put_game(output *o, const tg_sgf_node *root)
{
    put_char(o, '(');
    const tg_sgf_node *node = root;
    while (node) {
        bool after_paren = o->length && o->data[o->length - 1] == '(';
        bool below_root = node->parent == root;
        if (column(o) > 0 && !after_paren && (below_root || column(o) >= WRAP_COLUMN))
            new_line(o);
        put_node(o, node);
        if (node->child) {
            if (has_variations(node))
                open_variation(o);
            node = node->child;
        } else {
            node = next_after_subtree(o, node, root);
        }
    }
    put_char(o, ')');
    new_line(o);
}

char *tg_sgf_write(const tg_sgf_tree *tree, size_t *length)
{
    output o = {0};
    reserve(&o, 1);
    for (const tg_sgf_node *root = tg_sgf_tree_games(tree); root; root = root->sibling)
        put_game(&o, root);
    if (!reserve(&o, 1)) {
        free(o.data);
        return NULL;
    }
    o.data[o.length] = '\0';
    if (length)
        *length = o.length;
    return o.data;
}
