/*
 * room_fixture.h — the server room tests' one game: settings read as a
 * client sends them (NULL: all defaults), ana (account 11) in the Black
 * seat and bo (22) in the White seat.  Header-only, for the test_server_*
 * programs, which link the server's code (tests/CMakeLists.txt); include it
 * after cmocka.h.
 */
#ifndef TENGEN_TEST_ROOM_FIXTURE_H
#define TENGEN_TEST_ROOM_FIXTURE_H

#include <stdio.h>

#include "server/room.h"

static inline room *room_fixture(int64_t id, const char *settings_json)
{
    json_error_t e;
    json_t *j = settings_json ? json_loads(settings_json, 0, &e) : NULL;
    assert_true(!settings_json || j);
    room_settings st;
    char err[200];
    assert_true(room_settings_from_json(j, &st, err, sizeof err));
    json_decref(j);
    room *r = room_new(id, &st);
    assert_non_null(r);
    r->user[TG_BLACK] = 11;
    r->user[TG_WHITE] = 22;
    snprintf(r->name[TG_BLACK], ROOM_NAME_MAX, "ana");
    snprintf(r->name[TG_WHITE], ROOM_NAME_MAX, "bo");
    return r;
}

#endif
