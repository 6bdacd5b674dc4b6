/*
 * prediction.h — the engine's sealed prediction for the free-opening
 * ruleset (002 §5.3), read off a finished search: `tengen play` seals it,
 * GTP's tengen-predict answers it.
 */
#ifndef TENGEN_ENGINE_GTP_PREDICTION_H
#define TENGEN_ENGINE_GTP_PREDICTION_H

#include "tengen/search.h"

/* The count difference the last search of b expects by its ownership map
 * (each point +1 Black's, -1 White's), in half stones for White. */
int predicted_white_margin2(const tg_search *search, const tg_board *b);

#endif
