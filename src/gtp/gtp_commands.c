/*
 * gtp_commands.c — the table of every command tengen answers, the
 * protocol commands that only talk about the engine (protocol_version,
 * name, version, known_command, list_commands, quit), the lookup of the
 * commands the front end adds, and the parsing of the argument types GTP
 * defines (colour, vertex, integer).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gtp/gtp_internal.h"

#define TENGEN_GTP_NAME "tengen"
#define TENGEN_GTP_VERSION "0.1.0"
#define MANY GTP_MAX_ARGS

static int cmd_protocol_version(tg_gtp *e, int argc, char **argv);
static int cmd_name(tg_gtp *e, int argc, char **argv);
static int cmd_version(tg_gtp *e, int argc, char **argv);
static int cmd_known_command(tg_gtp *e, int argc, char **argv);
static int cmd_list_commands(tg_gtp *e, int argc, char **argv);
static int cmd_quit(tg_gtp *e, int argc, char **argv);

/* In the order list_commands gives them: the specification's, then the
 * extensions.  min/max count the arguments after the name. */
static const gtp_command commands[] = {
    {"protocol_version", cmd_protocol_version, 0, 0},
    {"name", cmd_name, 0, 0},
    {"version", cmd_version, 0, 0},
    {"known_command", cmd_known_command, 1, 1},
    {"list_commands", cmd_list_commands, 0, 0},
    {"quit", cmd_quit, 0, 0},
    {"boardsize", gtp_cmd_boardsize, 1, 2},
    {"clear_board", gtp_cmd_clear_board, 0, 0},
    {"komi", gtp_cmd_komi, 1, 1},
    {"fixed_handicap", gtp_cmd_fixed_handicap, 1, 1},
    {"place_free_handicap", gtp_cmd_place_free_handicap, 1, 1},
    {"set_free_handicap", gtp_cmd_set_free_handicap, 1, MANY},
    {"play", gtp_cmd_play, 2, 2},
    {"genmove", gtp_cmd_genmove, 1, 1},
    {"undo", gtp_cmd_undo, 0, 0},
    {"time_settings", gtp_cmd_time_settings, 3, 3},
    {"time_left", gtp_cmd_time_left, 3, 3},
    {"final_score", gtp_cmd_final_score, 0, 0},
    {"final_status_list", gtp_cmd_final_status_list, 1, 1},
    {"loadsgf", gtp_cmd_loadsgf, 1, 2},
    {"reg_genmove", gtp_cmd_reg_genmove, 1, 1},
    {"showboard", gtp_cmd_showboard, 0, 0},
    {"kgs-rules", gtp_cmd_kgs_rules, 1, 1},
    {"kgs-time_settings", gtp_cmd_kgs_time_settings, 1, 4},
    {"kgs-genmove_cleanup", gtp_cmd_genmove_cleanup, 1, 1},
    {"printsgf", gtp_cmd_printsgf, 0, 1},
    {"is_legal", gtp_cmd_is_legal, 2, 2},
    {"list_stones", gtp_cmd_list_stones, 1, 1},
    {"captures", gtp_cmd_captures, 1, 1},
    {"tengen-rules", gtp_cmd_tengen_rules, 0, MANY},
    {"tengen-predictions", gtp_cmd_tengen_predictions, 2, 2},
    {"tengen-capture_own", gtp_cmd_tengen_capture_own, 2, 2},
    {"tengen-genmove_choice", gtp_cmd_tengen_genmove_choice, 1, 1},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

const gtp_command *gtp_find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

const tg_gtp_extension *gtp_find_extension(const tg_gtp *e, const char *name)
{
    for (int i = 0; i < e->extension_count; i++)
        if (!strcmp(e->extensions[i].name, name))
            return &e->extensions[i];
    return NULL;
}

/* ---- Protocol commands -------------------------------------------------- */

static int cmd_protocol_version(tg_gtp *e, int argc, char **argv)
{
    (void)argc, (void)argv;
    gtp_text_puts(&e->body, "2");
    return 0;
}

static int cmd_name(tg_gtp *e, int argc, char **argv)
{
    (void)argc, (void)argv;
    gtp_text_puts(&e->body, TENGEN_GTP_NAME);
    return 0;
}

static int cmd_version(tg_gtp *e, int argc, char **argv)
{
    (void)argc, (void)argv;
    gtp_text_puts(&e->body, TENGEN_GTP_VERSION);
    return 0;
}

static int cmd_known_command(tg_gtp *e, int argc, char **argv)
{
    (void)argc;
    bool known = gtp_find_command(argv[0]) || gtp_find_extension(e, argv[0]);
    gtp_text_puts(&e->body, known ? "true" : "false");
    return 0;
}

static int cmd_list_commands(tg_gtp *e, int argc, char **argv)
{
    (void)argc, (void)argv;
    for (size_t i = 0; i < NCOMMANDS; i++)
        gtp_text_printf(&e->body, "%s%s", i ? "\n" : "", commands[i].name);
    for (int i = 0; i < e->extension_count; i++)
        if (!gtp_find_command(e->extensions[i].name))
            gtp_text_printf(&e->body, "\n%s", e->extensions[i].name);
    return 0;
}

static int cmd_quit(tg_gtp *e, int argc, char **argv)
{
    (void)argc, (void)argv;
    e->quit = true;
    return 0;
}

/* ---- Argument types ----------------------------------------------------- */

bool gtp_same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

bool gtp_parse_color(const char *s, tg_color *out)
{
    if (gtp_same_word(s, "b") || gtp_same_word(s, "black"))
        *out = TG_BLACK;
    else if (gtp_same_word(s, "w") || gtp_same_word(s, "white"))
        *out = TG_WHITE;
    else
        return false;
    return true;
}

bool gtp_parse_int(const char *s, long min, long max, long *out)
{
    if (!*s || isspace((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno == ERANGE || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool gtp_parse_seconds(const char *s, double *out)
{
    if (!*s || isspace((unsigned char)*s))
        return false;
    char *end;
    double v = strtod(s, &end);
    if (*end || !isfinite(v) || v < 0 || v > 1e9)
        return false;
    *out = v;
    return true;
}

int64_t gtp_milliseconds(double seconds) { return llround(seconds * 1000); }

int gtp_arg_color(tg_gtp *e, const char *s, tg_color *out)
{
    return gtp_parse_color(s, out) ? 0 : gtp_fail(e, "invalid color");
}

int gtp_arg_vertex(tg_gtp *e, const char *s, tg_point *out)
{
    if (tg_vertex_parse(tg_game_board(e->game), s, out) != TG_OK)
        return gtp_fail(e, "invalid coordinate");
    return 0;
}

void gtp_put_vertex(tg_gtp *e, tg_point p)
{
    char vertex[8];
    tg_point_to_vertex(tg_game_board(e->game), p, vertex);
    gtp_text_puts(&e->body, vertex);
}
