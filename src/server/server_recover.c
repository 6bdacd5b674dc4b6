/*
 * server_recover.c — a game read again from the store: after a failed
 * write (its room may hold what was never stored), after a race another
 * node won (server_nodes.c), or when another node wrote while this one
 * could not apply it.  The room is replaced whole by the one replayed
 * from the store; what the watchers saw is corrected by a game.state; the
 * requests that waited for it (parked) are then judged on it, in order.
 */
#include "server_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct recover_job {
    store_job job;
    int64_t game;
    room *r;
    engine_spec engines[3];
    int found;
} recover_job;

static int run_recover(store *db, store_job *job)
{
    recover_job *j = (recover_job *)job;
    store_game g;
    j->found = db->ops->game_get(db, j->game, &g);
    if (j->found != 0)
        return j->found < 0 ? -1 : 0;
    j->r = game_replay(db, &g, j->engines);
    store_game_clear(&g);
    return j->r ? 0 : -1;
}


static void recovered(void *ctx, store_job *job)
{
    server *s = ctx;
    recover_job *j = (recover_job *)job;
    live *lv = live_get(s, j->game);
    if (!lv) {
        room_free(j->r);
        free(j);
        return;
    }
    if (job->rc != 0) { /* the store cannot be read either: try again in a moment */
        room_free(j->r);
        j->r = NULL;
        job->rc = 0;
        lv->recover_retry = job;
        net_timer_set(lv->timer, 500);
        return;
    }
    lv->recovering = false;
    lv->dep = 0;
    lv->stall_from = 0;
    lv->behind = false;
    if (lv->conflicted || s->listen) { /* the writer takes its writes again */
        lv->conflicted = false;
        nodes_unskip(s, j->game);
    }
    if (lv->refresh) { /* another node wrote while it was read: once more */
        lv->refresh = false;
        room_free(j->r);
        free(j);
        game_recover(s, lv);
        return;
    }
    if (j->found == 1) { /* the game itself was never stored: it never was */
        json_t *msg = json_pack("{s:s, s:s, s:s, s:I}", "type", "error", "code", "internal",
                                "message", "the server could not store this game: it does not exist",
                                "game", (json_int_t)j->game);
        game_broadcast(lv, msg, false);
        while (lv->watcher_count > 0) {
            client *c = lv->watchers[--lv->watcher_count];
            for (int k = 0; k < c->watch_count; k++)
                if (c->watching[k] == j->game)
                    c->watching[k] = c->watching[--c->watch_count];
        }
        tg_game_no_result(lv->r->game);
        lv->r->phase = ROOM_OVER;
        snprintf(lv->r->reason, sizeof lv->r->reason, "internal");
        net_timer_cancel(lv->timer);
        game_release_if_idle(s, lv);
        free(j);
        return;
    }
    room_free(lv->r);
    lv->r = j->r;
    memcpy(lv->engine, j->engines, sizeof lv->engine);
    if (room_seats_swapped(lv->r))
        swap_engines(lv);
    lv->estimating = false;
    lv->awaiting_proposal_ms = 0;
    lv->epoch++;
    free(j);
    broadcast_state(lv); /* what the players saw of the lost writes is corrected */
    schedule(s, lv);
    game_propose_if_missing(s, lv);
    ask_engine(s, lv);
    waiting_resume(s, &lv->wait); /* the requests that waited for the room, in order */
}

void game_recover(server *s, live *lv)
{
    if (lv->recovering)
        return;
    recover_job *j = calloc(1, sizeof *j);
    if (!j)
        return; /* nothing to rebuild with: the room keeps what it judged */
    lv->recovering = true;
    net_timer_cancel(lv->timer);
    j->game = lv->r->id;
    j->job.run = run_recover;
    j->job.done = recovered;
    store_async_submit(s->db, STORE_READ, &j->job);
}

