/*
 * web_assets.h — the page's files (web/), embedded in the binary at build
 * time by cmake/embed_web.cmake, so that `tengen serve` needs no files
 * beside it.
 */
#ifndef TENGEN_SERVER_WEB_ASSETS_H
#define TENGEN_SERVER_WEB_ASSETS_H

#include <stddef.h>

typedef struct web_asset {
    const char *path;            /* "/index.html" */
    const unsigned char *data;
    size_t length;
} web_asset;

/* The file at path, or NULL. */
const web_asset *web_asset_find(const char *path);

#endif
