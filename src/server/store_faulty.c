/*
 * store_faulty.c — a store that fails on purpose: every write call and
 * commit is counted, and the one chosen fails with "injected fault"
 * (the commit's failure rolls the inner transaction back, as a full disk
 * or a lost lock would).  The fault-injection tests run the server on it
 * and fail each write in turn.
 */
#include "store.h"

#include <stdatomic.h>
#include <stdlib.h>

typedef struct faulty {
    store base;
    store *inner;
    atomic_long writes, fail_at;
    bool failed;
} faulty;

static faulty *F(store *s) { return (faulty *)s; }
#define IN(s) (F(s)->inner)

/* Whether this write is the one to fail. */
static bool fault(store *s)
{
    faulty *f = F(s);
    long n = ++f->writes;
    f->failed = f->fail_at > 0 && n == f->fail_at;
    return f->failed;
}

static void fy_close(store *s)
{
    store_close(IN(s));
    free(s);
}

static const char *fy_error(store *s) { return F(s)->failed ? "injected fault" : IN(s)->ops->error(IN(s)); }
static int fy_begin(store *s) { return fault(s) ? -1 : IN(s)->ops->begin(IN(s)); }
static int fy_commit(store *s)
{
    if (fault(s)) {
        IN(s)->ops->rollback(IN(s));
        return -1;
    }
    return IN(s)->ops->commit(IN(s));
}
static int fy_rollback(store *s) { return IN(s)->ops->rollback(IN(s)); }
static int fy_user_add(store *s, const store_user *u, int64_t *id)
{
    return fault(s) ? -1 : IN(s)->ops->user_add(IN(s), u, id);
}
static int fy_user_by_name(store *s, const char *n, store_user *o) { return IN(s)->ops->user_by_name(IN(s), n, o); }
static int fy_user_by_id(store *s, int64_t id, store_user *o) { return IN(s)->ops->user_by_id(IN(s), id, o); }
static int fy_token_add(store *s, const uint8_t h[32], int64_t u)
{
    return fault(s) ? -1 : IN(s)->ops->token_add(IN(s), h, u);
}
static int fy_token_user(store *s, const uint8_t h[32], int64_t *u) { return IN(s)->ops->token_user(IN(s), h, u); }
static int fy_tokens_revoke(store *s, int64_t u) { return fault(s) ? -1 : IN(s)->ops->tokens_revoke(IN(s), u); }
static int fy_game_add(store *s, const store_game *g) { return fault(s) ? -1 : IN(s)->ops->game_add(IN(s), g); }
static int fy_event_add(store *s, int64_t g, const store_event *e)
{
    return fault(s) ? -1 : IN(s)->ops->event_add(IN(s), g, e);
}
static int fy_game_finish(store *s, int64_t g, const char *r, int m, const char *sgf, const char *st)
{
    return fault(s) ? -1 : IN(s)->ops->game_finish(IN(s), g, r, m, sgf, st);
}
static int fy_game_swap(store *s, int64_t g) { return fault(s) ? -1 : IN(s)->ops->game_swap_colors(IN(s), g); }
static int fy_games_list(store *s, bool f, int64_t u, int l, store_game **o, int *c)
{
    return IN(s)->ops->games_list(IN(s), f, u, l, o, c);
}
static int fy_game_get(store *s, int64_t id, store_game *o) { return IN(s)->ops->game_get(IN(s), id, o); }
static int fy_events(store *s, int64_t g, store_event **o, int *c) { return IN(s)->ops->events(IN(s), g, o, c); }
static int fy_game_sgf(store *s, int64_t g, char **o) { return IN(s)->ops->game_sgf(IN(s), g, o); }
static int fy_game_state(store *s, int64_t g, char **o) { return IN(s)->ops->game_state(IN(s), g, o); }
static int fy_max_ids(store *s, int64_t *g, int64_t *c) { return IN(s)->ops->max_ids(IN(s), g, c); }
static int fy_challenge_add(store *s, const store_challenge *c)
{
    return fault(s) ? -1 : IN(s)->ops->challenge_add(IN(s), c);
}
static int fy_challenge_remove(store *s, int64_t id)
{
    return fault(s) ? -1 : IN(s)->ops->challenge_remove(IN(s), id);
}
static int fy_challenges(store *s, store_challenge **o, int *c) { return IN(s)->ops->challenges_list(IN(s), o, c); }
static int fy_ids_take(store *s, const char *k, int n, int64_t *first)
{
    return fault(s) ? -1 : IN(s)->ops->ids_take(IN(s), k, n, first);
}
static int fy_notify(store *s, const char *payload) { return IN(s)->ops->notify(IN(s), payload); }
static int fy_rating_lock(store *s, int64_t u, store_rating *o)
{
    return fault(s) ? -1 : IN(s)->ops->rating_lock(IN(s), u, o);
}
static int fy_rating_put(store *s, int64_t u, int64_t g, int64_t at, const store_rating *r)
{
    return fault(s) ? -1 : IN(s)->ops->rating_put(IN(s), u, g, at, r);
}
static int fy_rating_get(store *s, int64_t u, store_rating *o) { return IN(s)->ops->rating_get(IN(s), u, o); }
static int fy_rating_history(store *s, int64_t u, int l, store_rating_point **o, int *c)
{
    return IN(s)->ops->rating_history(IN(s), u, l, o, c);
}
static void fy_idle(store *s) { IN(s)->ops->idle(IN(s)); }

static int fy_doc_new_id(store *s, const char *k, int64_t *id)
{
    return fault(s) ? -1 : IN(s)->ops->doc_new_id(IN(s), k, id);
}
static int fy_doc_put(store *s, const char *k, int64_t id, const char *sum, const char *b, int64_t at)
{
    return fault(s) ? -1 : IN(s)->ops->doc_put(IN(s), k, id, sum, b, at);
}
static int fy_doc_get(store *s, const char *k, int64_t id, bool lock, char **b, int64_t *at)
{
    return IN(s)->ops->doc_get(IN(s), k, id, lock, b, at);
}
static int fy_doc_list(store *s, const char *k, int l, store_doc **o, int *c)
{
    return IN(s)->ops->doc_list(IN(s), k, l, o, c);
}

static const store_ops faulty_ops = {
    fy_close, fy_error, fy_begin, fy_commit, fy_rollback, fy_user_add, fy_user_by_name,
    fy_user_by_id, fy_token_add, fy_token_user, fy_tokens_revoke, fy_game_add, fy_event_add,
    fy_game_finish, fy_game_swap, fy_games_list, fy_game_get, fy_events, fy_game_sgf,
    fy_game_state, fy_max_ids, fy_challenge_add, fy_challenge_remove, fy_challenges,
    fy_ids_take, fy_notify, fy_rating_lock, fy_rating_put, fy_rating_get, fy_rating_history,
    fy_doc_new_id, fy_doc_put, fy_doc_get, fy_doc_list, fy_idle,
};

store *store_faulty_wrap(store *inner)
{
    faulty *f = calloc(1, sizeof *f);
    if (!f) {
        store_close(inner);
        return NULL;
    }
    f->base.ops = &faulty_ops;
    f->inner = inner;
    f->base.shared = inner->shared;
    return &f->base;
}

void store_faulty_arm(store *s, long nth_write)
{
    F(s)->writes = 0;
    F(s)->fail_at = nth_write;
}

long store_faulty_writes(store *s) { return F(s)->writes; }
