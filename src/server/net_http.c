/*
 * net_http.c — HTTP in the network layer: a request's answer (at once, or
 * deferred while the server reads its store: net_http_defer), written head
 * then body as the socket takes it; and what is refused at a request's or a
 * WebSocket handshake's head, with its status (see net.c's header).
 */
#include "net_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- refusals --------------------------------------------------------------- */

struct refusal {
    unsigned status;
    const char *phrase;      /* the status line's reason phrase */
    const char *error;       /* the JSON body's code */
    const char *message;
};

/* Writes the refusal as the whole response; the caller then returns -1 so
 * that lws closes the connection (nothing after it is read). */
int net_refuse(struct lws *wsi, const refusal *r)
{
    char line[80], body[256], length[16];
    unsigned char buf[LWS_PRE + 1024];
    unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
    int line_len = snprintf(line, sizeof line, "HTTP/1.1 %u %s", r->status, r->phrase);
    int body_len = snprintf(body, sizeof body, "{\"error\":\"%s\",\"message\":\"%s\"}", r->error,
                            r->message);
    int length_len = snprintf(length, sizeof length, "%d", body_len);
    if (lws_add_http_header_by_name(wsi, NULL, (unsigned char *)line, line_len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"content-type:",
                                    (const unsigned char *)"application/json", 16, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"content-length:",
                                    (unsigned char *)length, length_len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"connection:",
                                    (const unsigned char *)"close", 5, &p, end) ||
        (r->status == 426 &&
         lws_add_http_header_by_name(wsi, (const unsigned char *)"sec-websocket-version:",
                                     (const unsigned char *)"13", 2, &p, end)) ||
        lws_finalize_http_header(wsi, &p, end) || end - p < body_len)
        return -1;
    memcpy(p, body, (size_t)body_len);
    p += body_len;
    (void)lws_write(wsi, start, (size_t)(p - start), LWS_WRITE_HTTP);
    return -1;
}

/* RFC 7230 §3.3.3: a request whose length is not one number (two
 * different Content-Length values, a Transfer-Encoding lws does not
 * decode) cannot be read safely.  Nothing here takes a body: one is
 * refused rather than read (lws 4.1 spins on a pipelined one). */
const refusal *body_refusal(struct lws *wsi)
{
    static const refusal bad_length = {400, "Bad Request", "bad_request",
                                       "a request with a Transfer-Encoding or conflicting lengths"};
    static const refusal has_body = {413, "Content Too Large", "bad_request",
                                     "requests carry no body here"};
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0)
        return &bad_length;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0)
        return NULL;
    char first[24] = "", value[24];
    for (int i = 0;; i++) {
        int len = lws_hdr_copy_fragment(wsi, value, sizeof value, WSI_TOKEN_HTTP_CONTENT_LENGTH, i);
        if (len < 0 && lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, i) > 0)
            return &bad_length; /* too long to be a length */
        if (len < 0)
            break;
        const char *digits = value + strspn(value, " \t"); /* lws starts a repeated header with a space */
        size_t n = strspn(digits, "0123456789");
        if (n == 0 || digits[n] != '\0' || (i > 0 && strcmp(digits, first) != 0))
            return &bad_length;
        if (i == 0)
            snprintf(first, sizeof first, "%s", digits);
    }
    return strspn(first, "0") == strlen(first) ? NULL : &has_body;
}

/* One Sec-WebSocket-Key, well formed. */
static bool websocket_key_valid(struct lws *wsi)
{
    char key[32];
    return lws_hdr_fragment_length(wsi, WSI_TOKEN_KEY, 1) == 0 &&
           lws_hdr_copy(wsi, key, sizeof key, WSI_TOKEN_KEY) > 0 && wire_websocket_key_valid(key);
}

/* The Origin, when a browser sends one, must be this server as the client
 * reached it. */
static bool origin_allowed(struct lws *wsi)
{
    char origin[256], host[256];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
        return true;
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0 ||
        lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) < 0)
        return false;
    const char *rest = strncmp(origin, "http://", 7) == 0    ? origin + 7
                       : strncmp(origin, "https://", 8) == 0 ? origin + 8
                                                              : NULL;
    return rest && strcmp(rest, host) == 0;
}

/* What is wrong with a WebSocket handshake (upgrade names the protocol
 * asked for), or NULL. */
const refusal *handshake_refusal(net *n, struct lws *wsi, const char *upgrade)
{
    static const refusal not_here = {404, "Not Found", "not_found", "WebSockets are served on /ws"};
    static const refusal bad_origin = {403, "Forbidden", "forbidden", "this Origin may not connect"};
    static const refusal bad_version = {426, "Upgrade Required", "bad_request",
                                        "Sec-WebSocket-Version must be 13"};
    static const refusal bad_key = {400, "Bad Request", "bad_request", "a malformed Sec-WebSocket-Key"};
    static const refusal bad_upgrade = {400, "Bad Request", "bad_request", "only WebSocket upgrades are served"};
    static const refusal crowded = {429, "Too Many Requests", "too_many_connections",
                                    "too many connections from your address"};
    char uri[8], version[8];
    const wire_state *w = wire_guard_state(lws_get_socket_fd(wsi));
    if (!upgrade || strcasecmp(upgrade, "websocket") != 0 || (w && !wire_reads_frames(w)))
        return &bad_upgrade; /* lws 4.1 also takes h2c; the wire must agree it is a WebSocket */
    if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) < 0 || strcmp(uri, "/ws") != 0)
        return &not_here;
    if (!origin_allowed(wsi))
        return &bad_origin;
    const refusal *body = body_refusal(wsi);
    if (body)
        return body;
    if (lws_hdr_fragment_length(wsi, WSI_TOKEN_VERSION, 1) > 0 ||
        lws_hdr_copy(wsi, version, sizeof version, WSI_TOKEN_VERSION) < 0 || strcmp(version, "13") != 0)
        return &bad_version;
    if (!websocket_key_valid(wsi))
        return &bad_key;
    peer_addr client = client_of(n, wsi);
    if (peer_counts_get(n->per_address, &client) >= n->max_per_address)
        return &crowded;
    return NULL;
}

/* ---- HTTP ------------------------------------------------------------------ */

net_http_pending *net_http_defer(net_http_response *out)
{
    net_conn *c = out->conn;
    if (!c || c->pending)
        return NULL;
    net_http_pending *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->c = c;
    c->pending = p;
    out->deferred = true;
    return p;
}

/* The response's head, then its body as the socket takes it. */
int http_head(net_conn *c, struct lws *wsi)
{
    unsigned char headers[LWS_PRE + 1024];
    unsigned char *start = headers + LWS_PRE, *p = start, *end = headers + sizeof headers - 1;
    c->head_due = false;
    if (lws_add_http_common_headers(wsi, (unsigned)c->status, c->content_type, c->body_len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"x-content-type-options:",
                                    (const unsigned char *)"nosniff", 7, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)(c->cache ? "max-age=60" : "no-store"),
                                    c->cache ? 10 : 8, &p, end) ||
        (c->disposition[0] &&
         lws_add_http_header_by_name(wsi, (const unsigned char *)"content-disposition:",
                                     (const unsigned char *)c->disposition,
                                     (int)strlen(c->disposition), &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end)) {
        free(c->body);
        c->body = NULL;
        return -1;
    }
    c->body_sent = 0;
    lws_callback_on_writable(wsi);
    return 0;
}

/* Keep a response on its connection (a 404 where the server gave none). */
static int http_take(net_conn *c, net_http_response *r)
{
    if (r->status == 0) {
        free(r->body);
        static const char nf[] = "{\"error\":\"not_found\",\"message\":\"no such page\"}";
        r->status = 404;
        r->content_type = "application/json";
        r->body = malloc(sizeof nf);
        if (!r->body)
            return -1;
        memcpy(r->body, nf, sizeof nf);
        r->length = sizeof nf - 1;
    }
    free(c->body);
    c->body = r->body;
    c->body_len = r->length;
    c->status = r->status;
    c->content_type = r->content_type;
    c->cache = r->cache;
    snprintf(c->disposition, sizeof c->disposition, "%s", r->disposition ? r->disposition : "");
    return 0;
}

void net_http_finish(net_http_pending *p, net_http_response *r)
{
    if (!p)
        return;
    if (p->closed) {
        free(r->body);
        free(p);
        return;
    }
    net_conn *c = p->c;
    c->pending = NULL;
    free(p);
    if (http_take(c, r) != 0) {
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        return;
    }
    c->head_due = true;
    lws_callback_on_writable(c->wsi);
}

int http_request(net *n, net_conn *c, struct lws *wsi, const char *path)
{
    char query[256] = "";
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS) > 0)
        lws_hdr_copy(wsi, query, sizeof query, WSI_TOKEN_HTTP_URI_ARGS);
    char client[NET_ADDRESS_MAX];
    peer_format(&c->client, client, sizeof client);
    net_http_response r = {0, NULL, NULL, 0, NULL, false, client, c, false};
    if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0)
        n->cb.http(n->cb.ctx, path, query, &r);
    if (r.deferred)
        return 0; /* net_http_finish comes later */
    if (http_take(c, &r) != 0)
        return -1;
    return http_head(c, wsi);
}

int http_writeable(net_conn *c, struct lws *wsi)
{
    enum { CHUNK = 16384 };
    unsigned char buf[LWS_PRE + CHUNK];
    size_t left = c->body_len - c->body_sent;
    size_t n = left < CHUNK ? left : CHUNK;
    if (n)
        memcpy(buf + LWS_PRE, c->body + c->body_sent, n);
    bool final = n == left;
    if (lws_write(wsi, buf + LWS_PRE, n, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < (int)n)
        return -1;
    c->body_sent += n;
    if (!final) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    free(c->body);
    c->body = NULL;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

