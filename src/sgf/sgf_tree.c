/*
 * sgf_tree.c — the SGF tree in memory: the arena its objects live in, the
 * creation of nodes, properties and values, lookups, and error filling.
 *
 * Everything a tree holds comes from its arena, so freeing a tree of any
 * depth is a walk over a short list of blocks, never over the nodes.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE   /* madvise, MADV_HUGEPAGE, posix_memalign */
#endif
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "sgf/sgf_internal.h"

enum {
    ARENA_FIRST_BLOCK = 4096,
    ARENA_MAX_BLOCK = 32 << 20,
    HUGE_PAGE = 2 << 20,
    MAX_ID_LENGTH = 31
};

/* Large blocks are asked for in huge pages where Linux offers them: a big
 * tree touches much fresh memory, and faulting it in 4 KiB at a time costs
 * more than the parse itself. */
static void *block_alloc(size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE) {
        void *p = NULL;
        if (posix_memalign(&p, HUGE_PAGE, bytes))
            return NULL;
        madvise(p, bytes, MADV_HUGEPAGE);
        return p;
    }
#endif
    return malloc(bytes);
}

/* A new block for at least `size` bytes.  Blocks double from 4 KiB to
 * 32 MiB (header included, so big blocks fill whole huge pages); an object
 * larger than that gets a block of its own. */
static sgf_block *arena_grow(sgf_arena *arena, size_t size)
{
    size_t bytes = arena->next_capacity ? arena->next_capacity : ARENA_FIRST_BLOCK;
    if (size > SIZE_MAX - sizeof(sgf_block))
        return NULL;
    if (bytes < sizeof(sgf_block) + size)
        bytes = sizeof(sgf_block) + size;
    sgf_block *block = block_alloc(bytes);
    if (!block)
        return NULL;
    block->next = arena->blocks;
    block->used = 0;
    block->capacity = bytes - sizeof(sgf_block);
    arena->blocks = block;
    if (!arena->next_capacity)
        arena->next_capacity = ARENA_FIRST_BLOCK;
    if (arena->next_capacity < ARENA_MAX_BLOCK)
        arena->next_capacity *= 2;
    return block;
}

void sgf_arena_expect(sgf_arena *arena, size_t bytes)
{
    size_t capacity = ARENA_FIRST_BLOCK;
    while (capacity < bytes && capacity < ARENA_MAX_BLOCK)
        capacity *= 2;
    if (capacity > arena->next_capacity)
        arena->next_capacity = capacity;
}

void *sgf_arena_alloc_block(sgf_arena *arena, size_t size)
{
    sgf_block *block = arena_grow(arena, size);
    if (!block)
        return NULL;
    block->used = size;
    return block->data;
}

void sgf_arena_free(sgf_arena *arena)
{
    sgf_block *block = arena->blocks;
    while (block) {
        sgf_block *next = block->next;
        free(block);
        block = next;
    }
    arena->blocks = NULL;
    arena->next_capacity = 0;
}

tg_sgf_tree *tg_sgf_tree_new(void)
{
    return calloc(1, sizeof(tg_sgf_tree));
}

void tg_sgf_tree_free(tg_sgf_tree *tree)
{
    if (!tree)
        return;
    sgf_arena_free(&tree->arena);
    free(tree);
}

tg_sgf_node *tg_sgf_tree_games(const tg_sgf_tree *tree)
{
    return tree ? tree->top.child : NULL;
}

size_t tg_sgf_tree_node_count(const tg_sgf_tree *tree)
{
    return tree ? tree->node_count : 0;
}

tg_sgf_node *tg_sgf_node_add(tg_sgf_tree *tree, tg_sgf_node *parent)
{
    tg_sgf_node *node = sgf_node_new(tree);
    if (!node)
        return NULL;
    if (!parent) {
        if (tree->last_game)
            tree->last_game->sibling = node;
        else
            tree->top.child = node;
        tree->last_game = node;
        return node;
    }
    node->parent = parent;
    tg_sgf_node **link = &parent->child;
    while (*link)
        link = &(*link)->sibling;
    *link = node;
    return node;
}

static bool is_property_id(const char *id)
{
    size_t n = 0;
    for (; id[n]; n++)
        if (id[n] < 'A' || id[n] > 'Z')
            return false;
    return n >= 1 && n <= MAX_ID_LENGTH;
}

tg_status tg_sgf_property_add(tg_sgf_tree *tree, tg_sgf_node *node, const char *id,
                              const char *text, size_t length)
{
    if (!is_property_id(id) || (!text && length))
        return TG_ERR_INVALID;
    tg_sgf_property **link = &node->properties;
    while (*link && strcmp((*link)->id, id))
        link = &(*link)->next;
    if (!*link) {
        size_t id_length = strlen(id);
        tg_sgf_property *prop = sgf_property_new(tree, id_length);
        if (!prop)
            return TG_ERR_NO_MEMORY;
        memcpy(prop->id, id, id_length);
        *link = prop;
    }
    tg_sgf_value *value = sgf_value_new(tree, length);
    if (!value)
        return TG_ERR_NO_MEMORY;
    if (length)
        memcpy(value->text, text, length);
    tg_sgf_value **tail = &(*link)->values;
    while (*tail)
        tail = &(*tail)->next;
    *tail = value;
    return TG_OK;
}

const tg_sgf_property *tg_sgf_property_find(const tg_sgf_node *node, const char *id)
{
    for (const tg_sgf_property *prop = node->properties; prop; prop = prop->next)
        if (!strcmp(prop->id, id))
            return prop;
    return NULL;
}

const char *tg_sgf_property_text(const tg_sgf_node *node, const char *id)
{
    const tg_sgf_property *prop = tg_sgf_property_find(node, id);
    return prop ? prop->values->text : NULL;
}

static void error_vset(tg_sgf_error *err, int line, int column, const char *format, va_list ap)
{
    if (!err)
        return;
    err->line = line;
    err->column = column;
    vsnprintf(err->message, sizeof err->message, format, ap);
}

void sgf_error_set(tg_sgf_error *err, int line, int column, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    error_vset(err, line, column, format, ap);
    va_end(ap);
}

void sgf_error_at_property(tg_sgf_error *err, const tg_sgf_property *prop, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    error_vset(err, prop ? prop->line : 0, prop ? prop->column : 0, format, ap);
    va_end(ap);
}

void sgf_note_add(tg_sgf_notes *notes, int line, int column, const char *format, ...)
{
    if (notes->count < TG_SGF_MAX_NOTES) {
        va_list ap;
        va_start(ap, format);
        error_vset(&notes->note[notes->count], line, column, format, ap);
        va_end(ap);
    }
    notes->count += notes->count < INT_MAX;
}

const tg_sgf_notes *tg_sgf_tree_notes(const tg_sgf_tree *tree)
{
    return &tree->notes;
}
