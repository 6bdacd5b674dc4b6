/*
 * fuzz_tournament.c — libFuzzer target for the tournament layer's readers:
 * the tournament file (JSON), OpenGotha XML, a result, a rank and a list
 * of tie-breaks.
 *
 * The first byte picks the reader, the rest is its text.  A tournament
 * that is read is written back and read again to the same file; its
 * standings, crosstable and every export are made, and a small one is
 * paired one more round.  Any crash, sanitizer report or broken invariant
 * (abort) is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengen/tournament.h"

static void require(bool condition)
{
    if (!condition)
        abort();
}

static void exercise(tg_tournament *t)
{
    char *json = tg_tour_to_json(t), err[512];
    require(json != NULL);
    tg_tournament *again = NULL;
    require(tg_tour_from_json(json, strlen(json), &again, err, sizeof err) == TG_OK);
    char *json_again = tg_tour_to_json(again);
    require(json_again && !strcmp(json, json_again));
    free(json);
    free(json_again);
    tg_tour_free(again);
    tg_standing *st;
    if (tg_tour_standings(t, 0, &st) == TG_OK)
        free(st);
    char *texts[] = {tg_tour_crosstable_text(t, 0), tg_tour_standings_html(t, 0),
                     tg_tour_to_egf(t), tg_tour_to_aga(t), tg_tour_to_opengotha(t),
                     tg_tour_pairing_text(t, t->round_count)};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        free(texts[i]);
    if (t->player_count <= 40) {
        tg_pair_options by_lot = {.by_lot = true};
        tg_tour_pair(t, t->round_count + 1, &by_lot, err, sizeof err);
        if (t->round_count > 0)
            tg_tour_update_ratings(t, t->round_count);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 200000)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    char err[512];
    tg_tournament *t = NULL;
    switch (data[0] % 5) {
    case 0:
        if (tg_tour_from_json(text, size - 1, &t, err, sizeof err) == TG_OK)
            exercise(t);
        break;
    case 1:
        if (tg_tour_from_opengotha(text, size - 1, &t, err, sizeof err) == TG_OK)
            exercise(t);
        break;
    case 2: {
        tg_tour_result r, again;
        char buf[32];
        if (tg_tour_result_parse(text, &r) == TG_OK) {
            require(tg_tour_result_parse(tg_tour_result_text(&r, buf, sizeof buf), &again) == TG_OK);
            require(again.outcome == r.outcome && again.margin2 == r.margin2);
        }
        break;
    }
    case 3: {
        int rank, again;
        char buf[8];
        if (tg_rank_parse(text, &rank) == TG_OK) {
            require(rank >= TG_RANK_MIN && rank <= TG_RANK_MAX);
            require(tg_rank_parse(tg_rank_text(rank, buf, sizeof buf), &again) == TG_OK && again == rank);
        }
        break;
    }
    default: {
        tg_tiebreak list[TG_TB_COUNT];
        int count;
        if (tg_tiebreaks_parse(text, list, &count, err, sizeof err) == TG_OK)
            require(count >= 1 && count <= TG_TB_COUNT);
        break;
    }
    }
    tg_tour_free(t);
    free(text);
    return 0;
}
