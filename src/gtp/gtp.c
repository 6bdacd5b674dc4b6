/*
 * gtp.c — the GTP engine object: turning input bytes into preprocessed
 * command lines, finding the handler of each command, and composing the
 * answer ("=id result" or "?id message", closed by an empty line).
 *
 * Preprocessing happens byte by byte as input arrives, so a line of any
 * length costs at most TG_GTP_MAX_LINE bytes of memory and is answered once:
 * whitespace runs are stored as one space, comments are dropped as they
 * come, and what does not fit only marks the line as too long.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtp/gtp_internal.h"

/* ---- Text buffer ------------------------------------------------------ */

static bool text_reserve(gtp_text *t, size_t extra)
{
    if (t->failed)
        return false;
    if (t->len + extra + 1 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + extra + 1)
        cap *= 2;
    char *data = realloc(t->data, cap);
    if (!data) {
        t->failed = true;
        return false;
    }
    t->data = data;
    t->cap = cap;
    return true;
}

void gtp_text_append(gtp_text *t, const char *s, size_t n)
{
    if (!text_reserve(t, n))
        return;
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

void gtp_text_puts(gtp_text *t, const char *s) { gtp_text_append(t, s, strlen(s)); }

void gtp_text_vprintf(gtp_text *t, const char *fmt, va_list ap)
{
    char small[256];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= 0 && (size_t)n < sizeof small) {
        gtp_text_append(t, small, (size_t)n);
    } else if (n >= 0 && text_reserve(t, (size_t)n)) {
        vsnprintf(t->data + t->len, (size_t)n + 1, fmt, again);
        t->len += (size_t)n;
    }
    va_end(again);
}

void gtp_text_printf(gtp_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gtp_text_vprintf(t, fmt, ap);
    va_end(ap);
}

void gtp_text_clear(gtp_text *t)
{
    t->len = 0;
    t->failed = false;
    if (t->data)
        t->data[0] = '\0';
}

void gtp_text_free(gtp_text *t)
{
    free(t->data);
    *t = (gtp_text){0};
}

/* ---- Engine object ------------------------------------------------------ */

void tg_gtp_options_default(tg_gtp_options *opt)
{
    *opt = (tg_gtp_options){.size = 19};
    tg_rules_default(&opt->rules);
}

tg_gtp *tg_gtp_new(const tg_gtp_options *opt)
{
    if (opt->size < TG_MIN_SIZE || opt->size > TG_MAX_SIZE || opt->extension_count < 0)
        return NULL;
    tg_gtp *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->game = tg_game_new(opt->size, &opt->rules);
    if (!e->game) {
        free(e);
        return NULL;
    }
    e->read_file = opt->read_file;
    e->write_file = opt->write_file;
    e->file_ctx = opt->file_ctx;
    e->player = opt->player;
    e->extensions = opt->extensions;
    e->extension_count = opt->extensions ? opt->extension_count : 0;
    e->extension_ctx = opt->extension_ctx;
    e->warn = opt->warn;
    e->warn_ctx = opt->warn_ctx;
    gtp_set_time_control(e, &(tg_time_control){.system = TG_CLOCK_NONE});
    return e;
}

void tg_gtp_free(tg_gtp *e)
{
    if (!e)
        return;
    tg_game_free(e->game);
    gtp_text_free(&e->body);
    gtp_text_free(&e->answer);
    free(e);
}

const tg_game *tg_gtp_game(const tg_gtp *e) { return e->game; }
const tg_time_state *tg_gtp_time_of(const tg_gtp *e, tg_color color)
{
    return &e->time[color == TG_WHITE ? TG_WHITE : TG_BLACK];
}

void gtp_set_game(tg_gtp *e, tg_game *g)
{
    if (g == e->game)
        return;
    tg_game_free(e->game);
    e->game = g;
}

tg_game *gtp_game_in_play(tg_gtp *e, tg_color color)
{
    if (!tg_game_over(e->game))
        return e->game;
    tg_game *copy = tg_game_clone(e->game);
    if (copy && tg_game_play_on(copy) != TG_OK && tg_game_resume(copy, color) != TG_OK) {
        tg_game_free(copy);
        copy = NULL;
    }
    return copy;
}

void gtp_commit_game(tg_gtp *e, tg_game *g) { gtp_set_game(e, g); }

void gtp_drop_game(tg_gtp *e, tg_game *g)
{
    if (g != e->game)
        tg_game_free(g);
}

int gtp_fail(tg_gtp *e, const char *message)
{
    gtp_text_clear(&e->body);
    gtp_text_puts(&e->body, message);
    return -1;
}

/* ---- Answers ------------------------------------------------------------ */

/* Text made safe to send: no control characters but single LFs, and no
 * empty line (it would end the answer early).  *after_newline says whether
 * the text already sent ends a line (a streamed answer is sent in parts),
 * and is updated. */
static void append_clean(gtp_text *out, const char *s, size_t n, bool *after_newline)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\n') {
            if (*after_newline)
                continue;
            *after_newline = true;
        } else {
            *after_newline = false;
            if ((unsigned char)c < 0x20 || c == 0x7f)
                c = ' ';
        }
        gtp_text_append(out, &c, 1);
    }
}

/* Length of s without its trailing spaces and LFs. */
static size_t trimmed_length(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
        n--;
    return n;
}

/* The body of a one-part answer: clean, with no trailing LF. */
static void append_body(gtp_text *out, const char *s, size_t n)
{
    bool after_newline = false;
    append_clean(out, s, trimmed_length(s, n), &after_newline);
}

static void compose_answer(tg_gtp *e, const char *id, size_t id_len, bool error,
                           tg_gtp_answer *out)
{
    gtp_text *a = &e->answer;
    bool out_of_memory = e->body.failed;
    gtp_text_clear(a);
    gtp_text_append(a, error || out_of_memory ? "?" : "=", 1);
    gtp_text_append(a, id, id_len);
    if (out_of_memory)
        gtp_text_puts(a, " out of memory");
    else if (e->body.len > 0) {
        gtp_text_append(a, " ", 1);
        append_body(a, e->body.data, e->body.len);
    }
    gtp_text_append(a, "\n\n", 2);
    if (a->failed) {
        static const char fallback[] = "? out of memory\n\n";
        *out = (tg_gtp_answer){.text = fallback, .len = sizeof fallback - 1, .error = true};
        return;
    }
    *out = (tg_gtp_answer){.text = a->data, .len = a->len, .error = error || out_of_memory};
}

/* ---- Answers of front-end commands ------------------------------------ */

void tg_gtp_reply_printf(tg_gtp_reply *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gtp_text_vprintf(&r->engine->body, fmt, ap);
    va_end(ap);
}

bool tg_gtp_reply_fail(tg_gtp_reply *r, const char *message)
{
    gtp_fail(r->engine, message);
    return false;
}

void tg_gtp_reply_flush(tg_gtp_reply *r)
{
    tg_gtp *e = r->engine;
    gtp_text *a = &e->answer;
    if (!r->streaming) {
        gtp_text_clear(a);
        gtp_text_append(a, "=", 1);
        gtp_text_append(a, r->id, r->id_len);
        gtp_text_append(a, "\n", 1);
        r->streaming = r->after_newline = true;
    }
    append_clean(a, e->body.data, e->body.len, &r->after_newline);
    gtp_text_clear(&e->body);
    if (r->emit) {
        if (!a->failed) /* a part lost to a failed allocation is skipped */
            r->emit(r->emit_ctx, a->data, a->len);
        gtp_text_clear(a);
    }
}

/* The end of a streamed answer: the text not yet sent (or the message of
 * a failure) and the empty line.  Under tg_gtp_execute the parts sent
 * before are still in e->answer, so the answer is whole. */
static void close_stream(tg_gtp *e, bool failed, tg_gtp_answer *out)
{
    tg_gtp_reply *r = &e->reply;
    gtp_text *a = &e->answer;
    if (failed && !r->after_newline) /* the message gets a line of its own */
        append_clean(a, "\n", 1, &r->after_newline);
    append_clean(a, e->body.data, trimmed_length(e->body.data, e->body.len), &r->after_newline);
    gtp_text_puts(a, r->after_newline ? "\n" : "\n\n");
    if (a->failed && r->emit) {
        /* what was sent stays in step: end its line, then the answer */
        static const char tail[] = "\n\n";
        size_t skip = r->after_newline ? 1 : 0;
        *out = (tg_gtp_answer){.text = tail + skip, .len = sizeof tail - 1 - skip};
        return;
    }
    if (a->failed) {
        static const char fallback[] = "? out of memory\n\n";
        *out = (tg_gtp_answer){.text = fallback, .len = sizeof fallback - 1, .error = true};
        return;
    }
    *out = (tg_gtp_answer){.text = a->data, .len = a->len};
}

/* Length of the command id at the start of a line: digits followed by a
 * space or the end of the line; 0 when there is none. */
static size_t id_length(const char *s, size_t len)
{
    size_t n = 0;
    while (n < len && s[n] >= '0' && s[n] <= '9')
        n++;
    return (n < len && s[n] != ' ') ? 0 : n;
}

static void line_reset(gtp_line *line)
{
    line->len = 0;
    line->overlong = line->has_nul = line->in_comment = line->pending_space = false;
}

/* ---- Dispatch ----------------------------------------------------------- */

static int split_arguments(tg_gtp *e, char *s)
{
    int argc = 0;
    while (*s) {
        if (argc == GTP_MAX_ARGS)
            return -1;
        e->argv[argc++] = s;
        char *space = strchr(s, ' ');
        if (!space)
            break;
        *space = '\0';
        s = space + 1;
    }
    return argc;
}

static int run_command(tg_gtp *e, char *text)
{
    int argc = split_arguments(e, text);
    if (argc < 0)
        return gtp_fail(e, "syntax error");
    if (argc == 0)
        return gtp_fail(e, "unknown command");
    const gtp_command *cmd = gtp_find_command(e->argv[0]);
    const tg_gtp_extension *ext = cmd ? NULL : gtp_find_extension(e, e->argv[0]);
    if (!cmd && !ext)
        return gtp_fail(e, "unknown command");
    int nargs = argc - 1;
    int min_args = cmd ? cmd->min_args : ext->min_args, max_args = cmd ? cmd->max_args : ext->max_args;
    if (nargs < min_args || nargs > max_args)
        return gtp_fail(e, "syntax error");
    if (cmd)
        return cmd->run(e, nargs, e->argv + 1);
    return ext->run(e->extension_ctx, e, nargs, e->argv + 1, &e->reply) ? 0 : -1;
}

/* Answer the assembled line (or nothing for an empty one) and reset it. */
static bool finish_line(tg_gtp *e, tg_gtp_answer *out)
{
    gtp_line *line = &e->line;
    size_t id_len = id_length(line->text, line->len);
    line->text[line->len] = '\0';
    gtp_text_clear(&e->body);
    *out = (tg_gtp_answer){0};
    e->reply = (tg_gtp_reply){.engine = e, .id = line->text, .id_len = id_len, .emit = e->emit,
                              .emit_ctx = e->emit_ctx};
    bool answered = line->len > 0 || line->has_nul || line->overlong;
    int status = 0;
    if (line->has_nul)
        status = gtp_fail(e, "syntax error: NUL byte in the line");
    else if (line->overlong)
        status = gtp_fail(e, "syntax error: line too long");
    else if (answered)
        status = run_command(e, line->text + id_len + (line->text[id_len] == ' '));
    /* the id is still intact: arguments are split after it */
    if (answered && e->reply.streaming)
        close_stream(e, status != 0, out);
    else if (answered)
        compose_answer(e, line->text, id_len, status != 0, out);
    line_reset(line);
    return e->quit;
}

/* Preprocess one byte of a line (not its LF). */
static void push_byte(gtp_line *line, unsigned char c)
{
    if (c == 0) {
        line->has_nul = true;
        return;
    }
    if (line->in_comment)
        return;
    if (c == '#') {
        line->in_comment = true;
        return;
    }
    if (c == ' ' || c == '\t' || c == '\n') {
        line->pending_space = line->len > 0;
        return;
    }
    if (c < 0x20 || c == 0x7f)
        return;
    size_t need = line->pending_space ? 2 : 1;
    if (line->len + need > TG_GTP_MAX_LINE) {
        line->overlong = true;
        return;
    }
    if (line->pending_space)
        line->text[line->len++] = ' ';
    line->pending_space = false;
    line->text[line->len++] = (char)c;
}

bool tg_gtp_execute(tg_gtp *e, const char *text, size_t len, tg_gtp_answer *answer)
{
    e->quit = false;
    line_reset(&e->line);
    e->emit = NULL;
    for (size_t i = 0; i < len; i++)
        push_byte(&e->line, (unsigned char)text[i]);
    return finish_line(e, answer);
}

/* Finish the line in the input and pass its answer, if any, to emit. */
static void answer_line(tg_gtp *e, tg_gtp_answer_fn emit, void *ctx)
{
    tg_gtp_answer answer;
    e->emit = emit; /* for the flushes of a streaming command */
    e->emit_ctx = ctx;
    finish_line(e, &answer);
    e->emit = NULL;
    if (answer.text)
        emit(ctx, answer.text, answer.len);
}

bool tg_gtp_feed(tg_gtp *e, const char *data, size_t len, tg_gtp_answer_fn emit, void *ctx)
{
    for (size_t i = 0; i < len && !e->quit; i++) {
        if (data[i] == '\n')
            answer_line(e, emit, ctx);
        else
            push_byte(&e->line, (unsigned char)data[i]);
    }
    return e->quit;
}

bool tg_gtp_finish(tg_gtp *e, tg_gtp_answer_fn emit, void *ctx)
{
    if (e->quit)
        line_reset(&e->line);
    else
        answer_line(e, emit, ctx);
    return e->quit;
}
