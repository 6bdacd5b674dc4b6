/*
 * xml.h — a small XML reader for OpenGotha files: elements, attributes,
 * the five named entities and numeric character references; comments,
 * the prolog, DOCTYPE and processing instructions are skipped, text
 * between elements is ignored (OpenGotha keeps its data in attributes).
 * A tree of at most XML_MAX_DEPTH levels; malformed input is refused
 * with the line of the fault.
 */
#ifndef TENGEN_TOURNAMENT_XML_H
#define TENGEN_TOURNAMENT_XML_H

#include <stddef.h>

#include "tengen/common.h"

#define XML_MAX_DEPTH 32

typedef struct xml_attribute {
    char *name, *value;
} xml_attribute;

typedef struct xml_element {
    char *name;
    xml_attribute *attributes;
    int attribute_count;
    struct xml_element *children;
    int child_count, child_capacity;
} xml_element;

/* *root: the document element (free with xml_free). */
tg_status xml_parse(const char *text, size_t length, xml_element **root, char *err, size_t errlen);
void xml_free(xml_element *root);
/* The attribute's value or NULL. */
const char *xml_get(const xml_element *e, const char *name);
/* The first child named name, or NULL. */
const xml_element *xml_child(const xml_element *e, const char *name);

#endif
