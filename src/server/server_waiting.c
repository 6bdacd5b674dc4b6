/*
 * server_waiting.c — requests that wait (several nodes): the requests
 * whose answers wait for a write that another node may beat (asks), and
 * the clients whose requests wait for a read (parked).  A game's room and
 * a tournament each hold one list; when another node's write came first,
 * the lost answers are dropped and the requests go back first in their
 * clients' inboxes, to be judged again on what the store holds.
 */
#include "server_internal.h"

#include <stdlib.h>

bool waiting_ask(waiting_list *w, const client *c, const proto_request *rq, uint64_t epoch)
{
    char *text = rq->root ? json_dumps(rq->root, JSON_COMPACT) : NULL;
    if (!text || !grow_array((void **)&w->asks, &w->asks_cap, w->nasks, sizeof *w->asks)) {
        free(text);
        return false;
    }
    w->asks[w->nasks++] = (ask){c->id, epoch, text};
    return true;
}

void waiting_asks_clear(waiting_list *w, uint64_t through)
{
    int kept = 0;
    for (int i = 0; i < w->nasks; i++) {
        if (w->asks[i].epoch > through)
            w->asks[kept++] = w->asks[i];
        else
            free(w->asks[i].text);
    }
    w->nasks = kept;
}

void waiting_park_lost(server *s, waiting_list *w, uint64_t epoch)
{
    /* from the last, each put first: they end in their order */
    for (int i = w->nasks - 1; i >= 0; i--) {
        ask *a = &w->asks[i];
        client *c = a->epoch >= epoch ? client_by_id(s, a->client) : NULL;
        if (!c || c->closed)
            continue;
        bool session = c->waiting; /* resumed by what it waits for already */
        if ((session || grow_array((void **)&w->parked, &w->parked_cap, w->nparked, sizeof *w->parked)) &&
            client_park_text(c, a->text)) {
            a->text = NULL;
            if (!session)
                w->parked[w->nparked++] = c->id;
        }
    }
    waiting_asks_clear(w, UINT64_MAX);
}

bool waiting_park(waiting_list *w, client *c, const proto_request *rq)
{
    if (c->waiting || !grow_array((void **)&w->parked, &w->parked_cap, w->nparked, sizeof *w->parked) ||
        !client_park(c, rq))
        return false;
    w->parked[w->nparked++] = c->id;
    return true;
}

void waiting_resume(server *s, waiting_list *w)
{
    int n = w->nparked;
    int64_t *ids = w->parked;
    w->parked = NULL;
    w->nparked = w->parked_cap = 0;
    for (int i = 0; i < n; i++) {
        client *c = client_by_id(s, ids[i]);
        if (c && !c->closed) {
            c->waiting = false;
            client_resume(s, c);
        }
    }
    free(ids);
}

void waiting_free(server *s, waiting_list *w)
{
    waiting_asks_clear(w, UINT64_MAX);
    free(w->asks);
    for (int i = 0; i < w->nparked; i++) { /* stopping: nothing more is judged */
        client *c = client_by_id(s, w->parked[i]);
        if (c)
            c->waiting = false;
    }
    free(w->parked);
    *w = (waiting_list){0};
}
