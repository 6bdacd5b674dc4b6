/*
 * value.c — the learned value function: a small residual convolutional
 * network over the board (value.h), evaluated in plain C.
 *
 *     h = relu(conv3x3(planes) + b)
 *     h = relu(h + conv3x3(h) + b)            (blocks times)
 *     o = tanh(w_o . h + b_o)                 a point's owner, +1 the mover
 *     m = (sum(o) + komi for the mover) / points
 *     v = sigmoid(a m points + w2 . relu(W1 [mean(h), m] + b1) + b2)
 *
 * m is the margin the network counts, its expected area count with the
 * komi, for the mover: the value is a sigmoid of it, corrected by what the
 * pooled features add, so that what it learns of who owns each point (81
 * targets a position) tells it who wins.  (The search's own ownership map
 * counted so, sigmoid(0.1 margin), gives its winrate within 0.114.)
 *
 * The convolutions are nn.c's (33 us an evaluation on 9x9 with AVX2 and
 * FMA, where the compiled loop took 55).
 */
#include <math.h>
#include <string.h>

#include "engine/nn.h"
#include "engine/value.h"

#define C VALUE_CHANNELS
#define PAD NN_PAD
_Static_assert(VALUE_CHANNELS == NN_CHANNELS, "the value function is built of nn.c's layers");

void value_liberties(const tg_board *b, uint8_t *libs)
{
    uint8_t known[TG_MAX_POINTS] = {0}; /* by chain head */
    for (int p = 0; p < b->npoints; p++) {
        tg_color c = (tg_color)b->color[p];
        if (c != TG_BLACK && c != TG_WHITE)
            continue;
        int head = b->chain_of[p];
        if (!known[head]) {
            known[head] = 1;
            libs[head] = (uint8_t)tg_chain_liberties_upto(b, head, NULL, 3);
        }
        libs[p] = libs[head];
    }
}

void value_planes(const tg_board *b, tg_color c, uint8_t *planes)
{
    uint8_t libs[TG_MAX_POINTS];
    value_liberties(b, libs);
    int n = b->size;
    memset(planes, 0, (size_t)(n * n * VALUE_PLANES));
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            tg_point p = tg_point_at(b, x, y);
            uint8_t *f = planes + (y * n + x) * VALUE_PLANES;
            tg_color s = (tg_color)b->color[p];
            f[2] = 1;
            f[10] = c == TG_WHITE;
            if (s == c) {
                f[0] = 1;
                f[2 + libs[p]] = 1;
            } else if (s == tg_opponent(c)) {
                f[1] = 1;
                f[5 + libs[p]] = 1;
            } else if (p == b->ko_point && b->ko_color == c) {
                f[9] = 1;
            }
        }
}

static float eval(const value_net *net, const tg_board *b, tg_color c, bool portable)
{
    int n = b->size;
    /* the input and two activations, padded with zeros */
    float in[PAD * PAD * VALUE_PLANES];
    float h[2][PAD * PAD * C];
    memset(in, 0, sizeof(float) * (size_t)((n + 2) * PAD * VALUE_PLANES));
    memset(h[0], 0, sizeof(float) * (size_t)((n + 2) * PAD * C));
    memset(h[1], 0, sizeof(float) * (size_t)((n + 2) * PAD * C));
    uint8_t planes[TG_MAX_SIZE * TG_MAX_SIZE * VALUE_PLANES];
    value_planes(b, c, planes);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            for (int k = 0; k < VALUE_PLANES; k++)
                in[((y + 1) * PAD + x + 1) * VALUE_PLANES + k] = planes[(y * n + x) * VALUE_PLANES + k];
    nn_conv3x3(in, VALUE_PLANES, net->in_w, net->in_b, false, h[0], n, portable);
    int cur = 0;
    for (int k = 0; k < net->blocks; k++) {
        nn_conv3x3(h[cur], C, net->block_w + (size_t)k * 9 * C * C, net->block_b + (size_t)k * C, true, h[1 - cur], n,
             portable);
        cur = 1 - cur;
    }
    float mean[C + 1] = {0};
    for (int y = 1; y <= n; y++)
        for (int x = 1; x <= n; x++) {
            const float *hp = h[cur] + (y * PAD + x) * C;
            float own = net->own_b[0];
            for (int o = 0; o < C; o++) {
                mean[o] += hp[o];
                own += hp[o] * net->own_w[o];
            }
            mean[C] += tanhf(own);
        }
    mean[C] += (c == TG_WHITE ? 0.5f : -0.5f) * (float)net->komi2;
    for (int o = 0; o <= C; o++)
        mean[o] *= 1.0f / (float)(n * n);
    float v = net->v2_b[0] + net->margin_w * mean[C] * (float)(n * n);
    for (int j = 0; j < net->hidden; j++) {
        float a = net->v1_b[j];
        for (int o = 0; o <= C; o++)
            a += mean[o] * net->v1_w[o * net->hidden + j];
        if (a > 0)
            v += a * net->v2_w[j];
    }
    return 1.0f / (1.0f + expf(-v));
}

float value_eval(const value_net *net, const tg_board *b, tg_color c)
{
    return eval(net, b, c, false);
}

float value_eval_portable(const value_net *net, const tg_board *b, tg_color c)
{
    return eval(net, b, c, true);
}
