/*
 * xml.c — the small XML reader of xml.h: a recursive descent over the
 * bytes with an explicit end and a depth limit, so that any input is
 * either a tree or an error.
 */
#include "tournament/xml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tournament/internal.h"

typedef struct xml_reader {
    const char *p, *end, *start;
    char *err;
    size_t errlen;
    bool failed;
} xml_reader;

static int line_of(const xml_reader *r)
{
    int line = 1;
    for (const char *q = r->start; q < r->p; q++)
        line += *q == '\n';
    return line;
}

static bool fault(xml_reader *r, const char *what)
{
    if (!r->failed)
        tour_error(r->err, r->errlen, "XML line %d: %s", line_of(r), what);
    r->failed = true;
    return false;
}

static bool starts(const xml_reader *r, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(r->end - r->p) >= n && !memcmp(r->p, s, n);
}

static bool skip_past(xml_reader *r, const char *s)
{
    size_t n = strlen(s);
    for (; r->end - r->p >= (ptrdiff_t)n; r->p++)
        if (!memcmp(r->p, s, n)) {
            r->p += n;
            return true;
        }
    return fault(r, "unterminated markup");
}

static void skip_space(xml_reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

/* Comments, processing instructions, DOCTYPE and text before a tag. */
static bool skip_misc(xml_reader *r)
{
    for (;;) {
        while (r->p < r->end && *r->p != '<')
            r->p++;
        if (starts(r, "<!--")) {
            if (!skip_past(r, "-->"))
                return false;
        } else if (starts(r, "<?")) {
            if (!skip_past(r, "?>"))
                return false;
        } else if (starts(r, "<![CDATA[")) {
            if (!skip_past(r, "]]>"))
                return false;
        } else if (starts(r, "<!")) {
            if (!skip_past(r, ">"))
                return false;
        } else {
            return true;
        }
    }
}

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.' || c == ':' || (unsigned char)c >= 0x80;
}

static char *read_name(xml_reader *r)
{
    const char *from = r->p;
    while (r->p < r->end && name_char(*r->p))
        r->p++;
    if (r->p == from) {
        fault(r, "a name expected");
        return NULL;
    }
    char *name = malloc((size_t)(r->p - from) + 1);
    if (!name) {
        fault(r, "out of memory");
        return NULL;
    }
    memcpy(name, from, (size_t)(r->p - from));
    name[r->p - from] = 0;
    return name;
}

/* Appends the UTF-8 of code point c. */
static size_t put_utf8(char *out, unsigned long c)
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* A quoted attribute value with its references decoded. */
static char *read_value(xml_reader *r)
{
    if (r->p >= r->end || (*r->p != '"' && *r->p != '\'')) {
        fault(r, "a quoted value expected");
        return NULL;
    }
    char quote = *r->p++;
    const char *from = r->p;
    while (r->p < r->end && *r->p != quote)
        if (*r->p++ == '<') {
            fault(r, "'<' in a value");
            return NULL;
        }
    if (r->p >= r->end) {
        fault(r, "unterminated value");
        return NULL;
    }
    size_t length = (size_t)(r->p - from);
    r->p++;
    char *value = malloc(length + 1), *out = value;
    if (!value) {
        fault(r, "out of memory");
        return NULL;
    }
    static const struct {
        const char *name;
        char c;
    } entities[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}};
    for (const char *q = from; q < from + length;) {
        if (*q != '&') {
            *out++ = *q++;
            continue;
        }
        q++;
        size_t rest = (size_t)(from + length - q);
        bool done = false;
        for (size_t i = 0; i < sizeof entities / sizeof entities[0] && !done; i++) {
            size_t n = strlen(entities[i].name);
            if (rest >= n && !memcmp(q, entities[i].name, n)) {
                *out++ = entities[i].c;
                q += n;
                done = true;
            }
        }
        if (!done && rest > 1 && *q == '#') {
            bool hex = q[1] == 'x';
            const char *d = q + 1 + hex;
            unsigned long c = 0;
            int digits = 0;
            while (d < from + length && digits < 7 &&
                   ((*d >= '0' && *d <= '9') || (hex && ((*d | 32) >= 'a' && (*d | 32) <= 'f')))) {
                c = c * (hex ? 16 : 10) + (unsigned long)(*d <= '9' ? *d - '0' : (*d | 32) - 'a' + 10);
                d++;
                digits++;
            }
            /* a reference is never longer than its UTF-8 (&#1; is 4 bytes, 1 out) */
            if (digits > 0 && d < from + length && *d == ';' && c > 0 && c <= 0x10FFFF &&
                (size_t)(d + 1 - (q - 1)) >= 4) {
                out += put_utf8(out, c);
                q = d + 1;
                done = true;
            }
        }
        if (!done) {
            free(value);
            fault(r, "an unknown entity");
            return NULL;
        }
    }
    *out = 0;
    return value;
}

static void element_free(xml_element *e)
{
    free(e->name);
    for (int i = 0; i < e->attribute_count; i++) {
        free(e->attributes[i].name);
        free(e->attributes[i].value);
    }
    free(e->attributes);
    for (int i = 0; i < e->child_count; i++)
        element_free(&e->children[i]);
    free(e->children);
}

static bool read_attributes(xml_reader *r, xml_element *e)
{
    for (;;) {
        skip_space(r);
        if (r->p >= r->end)
            return fault(r, "unterminated tag");
        if (*r->p == '>' || *r->p == '/')
            return true;
        char *name = read_name(r);
        if (!name)
            return false;
        skip_space(r);
        if (r->p >= r->end || *r->p != '=') {
            free(name);
            return fault(r, "'=' expected after an attribute name");
        }
        r->p++;
        skip_space(r);
        char *value = read_value(r);
        xml_attribute *grown = value ? realloc(e->attributes, (size_t)(e->attribute_count + 1) *
                                                                  sizeof *grown)
                                     : NULL;
        if (!grown) {
            free(name);
            free(value);
            return fault(r, "out of memory");
        }
        e->attributes = grown;
        grown[e->attribute_count++] = (xml_attribute){name, value};
    }
}

static bool read_element(xml_reader *r, xml_element *e, int depth)
{
    if (depth > XML_MAX_DEPTH)
        return fault(r, "elements nested too deep");
    if (!starts(r, "<"))
        return fault(r, "'<' expected");
    r->p++;
    if (!(e->name = read_name(r)) || !read_attributes(r, e))
        return false;
    if (*r->p == '/') {
        r->p++;
        if (r->p >= r->end || *r->p != '>')
            return fault(r, "'>' expected");
        r->p++;
        return true;
    }
    r->p++; /* '>' */
    for (;;) {
        if (!skip_misc(r))
            return false;
        if (r->p >= r->end)
            return fault(r, "an element is not closed");
        if (starts(r, "</")) {
            r->p += 2;
            size_t n = strlen(e->name);
            if ((size_t)(r->end - r->p) < n || memcmp(r->p, e->name, n) || (r->p += n, 0))
                return fault(r, "a closing tag does not match");
            skip_space(r);
            if (r->p >= r->end || *r->p != '>')
                return fault(r, "'>' expected");
            r->p++;
            return true;
        }
        if (e->child_count == e->child_capacity) {
            int capacity = e->child_capacity ? 2 * e->child_capacity : 4;
            xml_element *grown = realloc(e->children, (size_t)capacity * sizeof *grown);
            if (!grown)
                return fault(r, "out of memory");
            e->children = grown;
            e->child_capacity = capacity;
        }
        xml_element *child = &e->children[e->child_count++];
        *child = (xml_element){0};
        if (!read_element(r, child, depth + 1))
            return false;
    }
}

tg_status xml_parse(const char *text, size_t length, xml_element **root, char *err, size_t errlen)
{
    xml_reader r = {text, text + length, text, err, errlen, false};
    *root = calloc(1, sizeof **root);
    if (!*root)
        return TG_ERR_NO_MEMORY;
    if (skip_misc(&r) && r.p < r.end && read_element(&r, *root, 0) && skip_misc(&r) && r.p == r.end)
        return TG_OK;
    if (!r.failed)
        fault(&r, r.p < r.end ? "content after the document element" : "no document element");
    xml_free(*root);
    *root = NULL;
    return TG_ERR_PARSE;
}

void xml_free(xml_element *root)
{
    if (!root)
        return;
    element_free(root);
    free(root);
}

const char *xml_get(const xml_element *e, const char *name)
{
    for (int i = 0; i < e->attribute_count; i++)
        if (!strcmp(e->attributes[i].name, name))
            return e->attributes[i].value;
    return NULL;
}

const xml_element *xml_child(const xml_element *e, const char *name)
{
    for (int i = 0; i < e->child_count; i++)
        if (!strcmp(e->children[i].name, name))
            return &e->children[i];
    return NULL;
}
