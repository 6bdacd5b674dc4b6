/*
 * server_turn.c — the commit-and-release turn.  The game events a turn of
 * the loop judged are one batch: at the turn's end (turn_end) the batch
 * goes to the store's writer thread as one transaction (one fsync for all
 * of them), and the messages telling of them wait (net.h epochs) until it
 * is durable.  When it fails, every answer that waited is replaced by the
 * error that says so, the batches queued behind it are discarded, the
 * games they touched are rebuilt from the store, the challenges they
 * removed come back, and clients and the log are told that the store
 * refuses writes until one succeeds again.
 *
 * The end of the turn is also where memory is given back: clients that
 * closed during it, and finished games nobody watches once their writes
 * are durable.
 */
#include "server_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void batch_free(batch *b)
{
    for (int i = 0; i < b->nops; i++) {
        write_op *op = &b->ops[i];
        free(op->event.data_json);
        free(op->g.settings_json);
        free(op->sgf);
        free(op->state);
        free(op->doc_summary);
        free(op->doc_body);
    }
    free(b->ops);
    free(b->games);
    for (int i = 0; i < b->nremoved; i++)
        free(b->removed[i]);
    free(b->removed);
    free(b);
}

static struct batch_game *batch_game_of(batch *b, int64_t game)
{
    for (int i = 0; i < b->ngames; i++)
        if (b->games[i].id == game)
            return &b->games[i];
    return NULL;
}

static bool conflicted(batch *b, int64_t game)
{
    struct batch_game *g = batch_game_of(b, game);
    return g && g->lost;
}

/* Another node wrote this game first: nothing more of it in this batch,
 * nor in the ones after it, until its rebuilt room is in place. */
static void conflict(batch *b, int64_t game)
{
    struct batch_game *g = batch_game_of(b, game);
    if (g)
        g->lost = true;
    nodes_skip(b->srv, game);
}

/* Documents first: a tournament another node wrote since our version is
 * not written, nor the games its change made (their ids stay unused).  A
 * document written twice in one batch is checked once, at its first. */
static int check_docs(store *db, batch *b)
{
    for (int i = 0; i < b->nops; i++) {
        const write_op *op = &b->ops[i];
        if (op->kind != W_DOC || conflicted(b, op->game) || nodes_skipping(b->srv, op->game))
            continue;
        bool seen = false;
        for (int k = 0; k < i && !seen; k++)
            seen = b->ops[k].kind == W_DOC && b->ops[k].game == op->game;
        bool lost = false;
        if (!seen && tournament_doc_check(db, op, &lost) != 0)
            return -1;
        if (lost)
            conflict(b, op->game);
    }
    for (int i = 0; i < b->nops; i++) {
        const write_op *op = &b->ops[i];
        if (op->kind == W_GAME_ADD && op->needs_doc && conflicted(b, -op->needs_doc))
            conflict(b, op->game);
    }
    return 0;
}

static int batch_run(store *db, store_job *job)
{
    batch *b = (batch *)job;
    if (check_docs(db, b) != 0) {
        snprintf(job->error, sizeof job->error, "%s", db->ops->error(db));
        return -1;
    }
    for (int i = 0; i < b->nops; i++) {
        const write_op *op = &b->ops[i];
        int rc = 0;
        if (op->game && op->kind != W_CHALLENGE_REMOVE &&
            (conflicted(b, op->game) || nodes_skipping(b->srv, op->game))) {
            conflict(b, op->game);
            continue;
        }
        switch (op->kind) {
        case W_EVENT:
            rc = db->ops->event_add(db, op->game, &op->event);
            if (rc == 1) { /* that seq is taken: another node's move came first */
                conflict(b, op->game);
                rc = 0;
            }
            break;
        case W_GAME_ADD: rc = db->ops->game_add(db, &op->g); break;
        case W_FINISH:
            rc = db->ops->game_finish(db, op->game, op->result, op->moves, op->sgf ? op->sgf : "",
                                      op->state);
            break;
        case W_SWAP: rc = db->ops->game_swap_colors(db, op->game); break;
        case W_RATE: rc = ratings_apply(db, (write_op *)op); break;
        case W_DOC:
            rc = db->ops->doc_put(db, op->doc_kind, op->doc_id, op->doc_summary, op->doc_body,
                                  op->at_unix_ms);
            break;
        case W_CHALLENGE_REMOVE:
            rc = db->ops->challenge_remove(db, op->game);
            if (rc == 1 && op->for_game) /* accepted or withdrawn elsewhere meanwhile */
                conflict(b, op->for_game);
            rc = rc < 0 ? -1 : 0;
            break;
        }
        if (rc != 0) {
            snprintf(job->error, sizeof job->error, "%s", db->ops->error(db));
            return -1;
        }
    }
    if (db->shared && nodes_notify_batch(db, b) != 0) {
        snprintf(job->error, sizeof job->error, "%s", db->ops->error(db));
        return -1;
    }
    return 0;
}

static void batch_done(void *ctx, store_job *job);

batch *turn_batch(server *s)
{
    if (!s->open) {
        batch *b = calloc(1, sizeof *b);
        if (!b)
            return NULL;
        b->srv = s;
        b->epoch = ++s->last_epoch;
        b->job.run = batch_run;
        b->job.done = batch_done;
        b->job.transaction = true;
        b->job.chained = true;
        s->open = b;
    }
    return s->open;
}

/* What is not one game's waits for the whole batch it came with: the open
 * one's first epoch, else the newest pending one's (released together). */
uint64_t turn_epoch_now(server *s)
{
    if (s->open)
        return s->open->epoch;
    return s->pending_tail ? s->pending_tail->epoch : 0;
}

/* An op of the thing id (a game, or a tournament's document as -id), whose
 * messages wait for its own epoch *dep in this batch. */
static write_op *add_op_of(server *s, int64_t id, uint64_t *dep, int64_t *stall_from, write_kind kind)
{
    batch *b = turn_batch(s);
    if (!b || !grow_array((void **)&b->ops, &b->ops_cap, b->nops, sizeof *b->ops))
        return NULL;
    if (dep) {
        bool listed = *dep >= b->epoch; /* an epoch of this batch's */
        if (!listed) {
            if (!grow_array((void **)&b->games, &b->games_cap, b->ngames, sizeof *b->games))
                return NULL;
            if (stall_from && *dep <= s->committed && !*stall_from)
                *stall_from = server_now_ms();
            *dep = ++s->last_epoch;
            b->games[b->ngames++] = (struct batch_game){id, *dep, false};
        }
    }
    write_op *op = &b->ops[b->nops++];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->game = dep ? id : 0;
    return op;
}

static write_op *add_op(server *s, live *lv, write_kind kind)
{
    return lv ? add_op_of(s, lv->r->id, &lv->dep, &lv->stall_from, kind) : add_op_of(s, 0, NULL, NULL, kind);
}

bool batch_doc(server *s, const char *kind, int64_t id, int64_t version, uint64_t *dep, char *summary,
               char *body)
{
    write_op *op = add_op_of(s, -id, dep, NULL, W_DOC);
    if (!op) {
        free(summary);
        free(body);
        return false;
    }
    snprintf(op->doc_kind, sizeof op->doc_kind, "%s", kind);
    op->doc_id = id;
    op->doc_version = version;
    op->doc_summary = summary;
    op->doc_body = body;
    op->at_unix_ms = server_unix_ms();
    return true;
}

void batch_game_needs_doc(server *s, int64_t game, int64_t tour)
{
    batch *b = s->open;
    for (int i = b ? b->nops - 1 : -1; i >= 0; i--)
        if (b->ops[i].kind == W_GAME_ADD && b->ops[i].game == game) {
            b->ops[i].needs_doc = tour;
            return;
        }
}

bool batch_event(server *s, live *lv, const store_event *e)
{
    char *data = strdup(e->data_json);
    write_op *op = data ? add_op(s, lv, W_EVENT) : NULL;
    if (!op) {
        free(data);
        return false;
    }
    op->event = *e;
    op->event.data_json = data;
    return true;
}

bool batch_game_add(server *s, live *lv, const store_game *g)
{
    char *settings = strdup(g->settings_json);
    write_op *op = settings ? add_op(s, lv, W_GAME_ADD) : NULL;
    if (!op) {
        free(settings);
        return false;
    }
    op->g = *g;
    op->g.settings_json = settings;
    return true;
}

bool batch_finish(server *s, live *lv, const char *result, int moves, char *sgf, char *state)
{
    write_op *op = add_op(s, lv, W_FINISH);
    if (!op) {
        free(sgf);
        free(state);
        return false;
    }
    snprintf(op->result, sizeof op->result, "%s", result);
    op->moves = moves;
    op->sgf = sgf;
    op->state = state;
    return true;
}

bool batch_swap(server *s, live *lv) { return add_op(s, lv, W_SWAP) != NULL; }

void batch_challenge_makes(server *s, int64_t game)
{
    batch *b = s->open;
    for (int i = b ? b->nops - 1 : -1; i >= 0; i--)
        if (b->ops[i].kind == W_CHALLENGE_REMOVE) {
            b->ops[i].for_game = game;
            return;
        }
}

bool batch_rate(server *s, live *lv, double black_score)
{
    write_op *op = add_op(s, lv, W_RATE);
    if (!op)
        return false;
    op->players[0] = lv->r->user[TG_BLACK];
    op->players[1] = lv->r->user[TG_WHITE];
    op->score = black_score;
    op->at_unix_ms = server_unix_ms();
    return true;
}

bool batch_challenge_remove(server *s, challenge *ch)
{
    batch *b = turn_batch(s);
    if (!b || !grow_array((void **)&b->removed, &b->removed_cap, b->nremoved, sizeof *b->removed))
        return false;
    write_op *op = add_op(s, NULL, W_CHALLENGE_REMOVE);
    if (!op)
        return false;
    op->game = ch->id;
    b->removed[b->nremoved++] = ch; /* the batch owns it until it is durable */
    return true;
}

/* ---- the end of a turn ---------------------------------------------------------- */

static void free_client(client *c)
{
    for (int i = 0; i < c->inbox_count; i++)
        free(c->inbox[i]);
    free(c->inbox);
    free(c->watching);
    free(c);
}

void turn_end(server *s)
{
    batch *b = s->open;
    if (b) {
        s->open = NULL;
        if (b->nops == 0) /* opened, nothing written: its epoch is released in order */
            b->job.transaction = b->job.chained = false;
        b->last = s->last_epoch;
        b->next = NULL;
        if (s->pending_tail)
            s->pending_tail->next = b;
        else
            s->pending = b;
        s->pending_tail = b;
        store_async_submit(s->db, STORE_WRITE, &b->job);
    }
    for (int i = 0; i < s->closing.count; i++)
        free_client(s->closing.items[i]);
    s->closing.count = 0;
    games_release_durable(s);
}

static void store_status(server *s, bool failing, const char *why);

void turn_store_done(server *s, store_job *job)
{
    /* any write tells whether the store takes writes now (a batch's own
     * outcome is dealt with by batch_done) */
    if (job->lane == STORE_WRITE && !job->reset && !job->chained && job->transaction &&
        job->rc != STORE_DISCARDED) {
        if (job->rc != 0) {
            s->commit_failures++;
            fprintf(stderr, "tengen serve: cannot store: %s\n", job->error[0] ? job->error : "the store failed");
        } else {
            s->commits++;
        }
        store_status(s, job->rc != 0, job->error[0] ? job->error : "the store failed");
    }
    if (job->done)
        job->done(s, job);
    else
        free(job);
}

static void unlink_pending(server *s, batch *b)
{
    batch **link = &s->pending;
    s->pending_tail = NULL;
    while (*link) {
        if (*link == b)
            *link = b->next;
        else {
            s->pending_tail = *link;
            link = &(*link)->next;
        }
    }
}

static void store_status(server *s, bool failing, const char *why)
{
    if (s->store_failing == failing)
        return;
    s->store_failing = failing;
    if (failing) {
        s->failing_since_ms = server_now_ms();
        snprintf(s->store_error, sizeof s->store_error, "%s", why);
        fprintf(stderr, "tengen serve: cannot store: %s: writes are refused until the store works again\n", why);
    } else {
        fprintf(stderr, "tengen serve: the store works again (after %lld ms)\n",
                (long long)(server_now_ms() - s->failing_since_ms));
        s->store_error[0] = '\0';
    }
    json_t *msg = failing ? json_pack("{s:s, s:s, s:s}", "type", "server", "store", "failing",
                                      "message", "the server cannot store anything now: games wait")
                          : json_pack("{s:s, s:s}", "type", "server", "store", "ok");
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    net_msg *m = text ? net_msg_new(text, strlen(text)) : NULL;
    free(text);
    if (!m)
        return;
    int64_t id;
    void *v;
    for (size_t i = 0; imap_next(&s->clients, &i, &id, &v);)
        if (!((client *)v)->closed)
            net_send(((client *)v)->conn, m);
    net_msg_unref(m);
}

static void recover_from(server *s, batch *failed)
{
    /* every answer that waited for this batch or a later one is replaced by
     * the error that tells the truth */
    net_drop_from(s->net, failed->epoch);
    http_fail_from(s, failed->epoch);
    /* the batches after it are discarded by the writer; this turn's own
     * writes (if any) go with them */
    batch *open = s->open;
    s->open = NULL;
    int64_t ids[512];
    int nids = 0;
    for (batch *b = failed; b; b = b->next ? b->next : b != open ? open : NULL) {
        b->abandoned = true;
        for (int i = 0; i < b->ngames && nids < 512; i++) {
            bool seen = false;
            for (int k = 0; k < nids; k++)
                seen |= ids[k] == b->games[i].id;
            if (!seen)
                ids[nids++] = b->games[i].id;
        }
        for (int i = 0; i < b->nremoved; i++)
            lobby_challenge_back(s, b->removed[i]);
        b->nremoved = 0;
    }
    if (open)
        batch_free(open);
    for (int k = 0; k < nids; k++) {
        live *lv = ids[k] > 0 ? live_get(s, ids[k]) : NULL;
        if (lv)
            game_recover(s, lv);
        else if (ids[k] < 0) /* a tournament: as the store has it */
            tournament_failed(s, -ids[k]);
    }
    store_job *reset = calloc(1, sizeof *reset);
    if (reset)
        store_async_reset(s->db, reset);
}

static void lost_race(server *s, int64_t game, uint64_t epoch)
{
    s->races_lost++;
    net_drop_epoch(s->net, epoch);
    if (game < 0) { /* a tournament another node changed first */
        tournament_lost(s, -game, epoch);
        return;
    }
    live *lv = live_get(s, game);
    if (!lv)
        return;
    /* the requests whose answers were dropped are judged again, in their
     * order, once the room is read again (first in their clients' inboxes) */
    waiting_park_lost(s, &lv->wait, epoch);
    lv->conflicted = true;
    game_recover(s, lv);
}

static void batch_done(void *ctx, store_job *job)
{
    server *s = ctx;
    batch *b = (batch *)job;
    unlink_pending(s, b);
    if (b->abandoned) { /* discarded after a failure already dealt with */
        batch_free(b);
        return;
    }
    if (job->rc != 0) {
        s->commit_failures++;
        fprintf(stderr, "tengen serve: cannot store a turn of %d writes: %s\n", b->nops,
                job->error[0] ? job->error : "the store failed");
        store_status(s, true, job->error[0] ? job->error : "the store failed");
        recover_from(s, b);
        batch_free(b);
        return;
    }
    if (b->nops > 0) {
        s->commits++;
        histogram_add(&s->commit_ms, (double)(job->finished_ms - job->queued_ms));
        store_status(s, false, NULL);
    }
    /* a game another node wrote first: what told of our writes is not
     * sent, the requests hear why, and the room is read again */
    for (int i = 0; i < b->ngames; i++)
        if (b->games[i].lost)
            lost_race(s, b->games[i].id, b->games[i].epoch);
    for (int i = 0; i < b->nops; i++)
        if (b->ops[i].kind == W_RATE) /* (a lost game's was skipped: rated_done false) */
            ratings_committed(s, &b->ops[i]);
    if (b->last > s->committed)
        s->committed = b->last;
    net_release_through(s->net, s->committed);
    http_release(s);
    for (int i = 0; i < b->ngames; i++) {
        live *lv = b->games[i].lost ? NULL : live_get(s, b->games[i].id);
        if (lv)
            waiting_asks_clear(&lv->wait, b->games[i].epoch);
        if (b->games[i].id < 0 && !b->games[i].lost)
            tournament_durable(s, -b->games[i].id, b->games[i].epoch);
        if (lv && lv->dep <= s->committed) {
            game_durable(s, lv);
            nodes_after_write(s, lv);
        }
    }
    for (int i = 0; i < b->nremoved; i++)
        free(b->removed[i]);
    b->nremoved = 0;
    batch_free(b);
    games_release_durable(s);
}
