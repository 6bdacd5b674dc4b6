/*
 * sgf_internal.h — what the files of the SGF layer share and nobody else
 * needs: the arena the tree lives in, the tree's own struct, and the
 * helpers that fill a tg_sgf_error.
 *
 * sgf_tree.c owns the arena and the tree; sgf_parse.c builds trees from
 * text, sgf_write.c turns them back into text, sgf_value.c decodes property
 * values, sgf_load.c replays a tree into a tg_game and sgf_save.c does the
 * reverse.
 */
#ifndef TENGEN_SGF_INTERNAL_H
#define TENGEN_SGF_INTERNAL_H

#include <stdarg.h>

#include "tengen/sgf.h"

/* A bump allocator: objects are never freed one by one, only the whole
 * arena at once, so a tree of a million nodes costs a few mallocs. */
typedef struct sgf_block {
    struct sgf_block *next;
    size_t used, capacity;
    _Alignas(8) unsigned char data[];
} sgf_block;

typedef struct sgf_arena {
    sgf_block *blocks;      /* the newest first */
    size_t next_capacity;   /* size of the next block, doubling up to a cap */
} sgf_arena;

/* Room for `size` bytes from a new block (the slow path of the below). */
void *sgf_arena_alloc_block(sgf_arena *arena, size_t size);

/* `size` bytes aligned to 8, valid until the arena is freed; NULL when out
 * of memory.  Inline: the parser allocates three objects per node. */
static inline void *sgf_arena_alloc(sgf_arena *arena, size_t size)
{
    if (size > SIZE_MAX - 8)
        return NULL;
    size = (size + 7) & ~(size_t)7;
    sgf_block *block = arena->blocks;
    if (!block || block->capacity - block->used < size)
        return sgf_arena_alloc_block(arena, size);
    void *p = block->data + block->used;
    block->used += size;
    return p;
}
/* Size the next block for about `bytes` of objects (capped at the largest
 * block size): one block, in huge pages, instead of a dozen small ones. */
void sgf_arena_expect(sgf_arena *arena, size_t bytes);
void sgf_arena_free(sgf_arena *arena);

struct tg_sgf_tree {
    tg_sgf_node top;        /* sentinel: its children are the roots of the games */
    tg_sgf_notes notes;     /* the parser's repairs */
    tg_sgf_node *last_game; /* tail of top's children, for O(1) appends */
    size_t node_count;
    sgf_arena arena;
};

/* Allocation of the tree's objects; all NULL when out of memory.  A new
 * node or property is zeroed, a value has its length set and its text
 * NUL-terminated; none is linked anywhere. */
static inline tg_sgf_node *sgf_node_new(tg_sgf_tree *tree)
{
    tg_sgf_node *node = sgf_arena_alloc(&tree->arena, sizeof *node);
    if (node) {
        *node = (tg_sgf_node){0};
        tree->node_count++;
    }
    return node;
}

static inline tg_sgf_property *sgf_property_new(tg_sgf_tree *tree, size_t id_length)
{
    if (id_length > SIZE_MAX / 2)
        return NULL;
    tg_sgf_property *prop = sgf_arena_alloc(&tree->arena, sizeof *prop + id_length + 1);
    if (prop) {
        *prop = (tg_sgf_property){0};
        prop->id[id_length] = '\0';
    }
    return prop;
}

static inline tg_sgf_value *sgf_value_new(tg_sgf_tree *tree, size_t length)
{
    if (length > SIZE_MAX / 2)
        return NULL;
    tg_sgf_value *value = sgf_arena_alloc(&tree->arena, sizeof *value + length + 1);
    if (value) {
        value->next = NULL;
        value->length = length;
        value->text[length] = '\0';
    }
    return value;
}

/* A SimpleText value into dst (capacity bytes, NUL-terminated): line
 * breaks and tabs become spaces, and the text is cut, if it must be, at a
 * UTF-8 character boundary. */
void sgf_copy_simple_text(char *dst, size_t capacity, const tg_sgf_value *value);

/* Fill err (which may be NULL) with a position and a formatted message. */
void sgf_error_set(tg_sgf_error *err, int line, int column, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
/* Add a note (kept when there is room, counted always). */
void sgf_note_add(tg_sgf_notes *notes, int line, int column, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
/* The same, at the position of a property (0:0 when built in memory). */
void sgf_error_at_property(tg_sgf_error *err, const tg_sgf_property *prop, const char *format,
                           ...) __attribute__((format(printf, 3, 4)));

#endif
