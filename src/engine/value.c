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
 * Activations are kept point-major with a border of zeros one point wide,
 * so that a 3x3 convolution reads its neighbours without a test and its
 * innermost loop runs over the output channels, contiguous, which the
 * compiler vectorizes.  Where the processor has AVX2 and FMA a version
 * written with their intrinsics is chosen at run time: three points of a
 * row at a time, so that nine independent sums hide the latency of a fused
 * multiply-add (33 us an evaluation on 9x9 where the compiled loop took 55).
 */
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "engine/value.h"

#define C VALUE_CHANNELS
#define PAD (TG_MAX_SIZE + 2)

/* Exact liberties of every chain (capped at 3), by point: the board's own
 * count, once a chain. */
static void liberties(const tg_board *b, uint8_t *libs)
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
    liberties(b, libs);
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

/* One 3x3 convolution of `in` (ic channels a point) into `out` (C), over
 * the n x n points of padded buffers; out = conv + bias (+ in, residual). */
static void conv_default(const float *in, int ic, const float *w, const float *bias, bool residual, float *out,
                         int n)
{
    for (int y = 1; y <= n; y++)
        for (int x = 1; x <= n; x++) {
            float acc[C];
            for (int o = 0; o < C; o++)
                acc[o] = bias[o] + (residual ? in[(y * PAD + x) * C + o] : 0.0f);
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    const float *src = in + ((y + dy) * PAD + x + dx) * ic;
                    const float *wk = w + ((dy + 1) * 3 + dx + 1) * ic * C;
                    for (int i = 0; i < ic; i++) {
                        float s = src[i];
                        if (s == 0.0f)
                            continue;
                        const float *wr = wk + i * C;
                        for (int o = 0; o < C; o++)
                            acc[o] += s * wr[o];
                    }
                }
            float *dst = out + (y * PAD + x) * C;
            for (int o = 0; o < C; o++)
                dst[o] = acc[o] > 0 ? acc[o] : 0;
        }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && VALUE_CHANNELS % 8 == 0 && VALUE_CHANNELS <= 32
#define HAVE_AVX2_PATH 1
#include <immintrin.h>
/* The same convolution with the output channels in registers, eight a
 * vector, for NP neighbouring points of a row at once: an input broadcast
 * against a row of weights, which each point's accumulators share, and
 * enough independent sums to hide the latency of a fused multiply-add. */
#define AVX2_POINTS(NP)                                                                               \
    do {                                                                                              \
        __m256 acc[NP][V];                                                                            \
        for (int p = 0; p < NP; p++)                                                                  \
            for (int o = 0; o < V; o++) {                                                             \
                acc[p][o] = _mm256_loadu_ps(bias + 8 * o);                                            \
                if (residual)                                                                         \
                    acc[p][o] = _mm256_add_ps(acc[p][o], _mm256_loadu_ps(in + (y * PAD + x + p) * C + 8 * o)); \
            }                                                                                         \
        for (int dy = -1; dy <= 1; dy++)                                                              \
            for (int dx = -1; dx <= 1; dx++) {                                                        \
                const float *src = in + ((y + dy) * PAD + x + dx) * ic;                               \
                const float *wk = w + ((dy + 1) * 3 + dx + 1) * ic * C;                               \
                for (int i = 0; i < ic; i++) {                                                        \
                    __m256 wr[V];                                                                     \
                    for (int o = 0; o < V; o++)                                                       \
                        wr[o] = _mm256_loadu_ps(wk + i * C + 8 * o);                                  \
                    for (int p = 0; p < NP; p++) {                                                    \
                        __m256 s = _mm256_broadcast_ss(src + p * ic + i);                             \
                        for (int o = 0; o < V; o++)                                                   \
                            acc[p][o] = _mm256_fmadd_ps(s, wr[o], acc[p][o]);                         \
                    }                                                                                 \
                }                                                                                     \
            }                                                                                         \
        for (int p = 0; p < NP; p++)                                                                  \
            for (int o = 0; o < V; o++)                                                               \
                _mm256_storeu_ps(out + (y * PAD + x + p) * C + 8 * o,                                 \
                                 _mm256_max_ps(acc[p][o], _mm256_setzero_ps()));                      \
    } while (0)

__attribute__((target("avx2,fma"))) static void conv_avx2(const float *in, int ic, const float *w,
                                                          const float *bias, bool residual, float *out, int n)
{
    enum { V = C / 8, NP = C <= 24 ? 3 : 2 };
    for (int y = 1; y <= n; y++) {
        int x = 1;
        for (; x + NP - 1 <= n; x += NP)
            AVX2_POINTS(NP);
        for (; x <= n; x++)
            AVX2_POINTS(1);
    }
}
#endif

static void conv(const float *in, int ic, const float *w, const float *bias, bool residual, float *out, int n,
                 bool portable)
{
#ifdef HAVE_AVX2_PATH
    /* asked once; threads that race here store the same answer */
    static _Atomic int avx2 = -1;
    int have = atomic_load_explicit(&avx2, memory_order_relaxed);
    if (have < 0) {
        have = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        atomic_store_explicit(&avx2, have, memory_order_relaxed);
    }
    if (have && !portable) {
        conv_avx2(in, ic, w, bias, residual, out, n);
        return;
    }
#else
    (void)portable;
#endif
    conv_default(in, ic, w, bias, residual, out, n);
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
    conv(in, VALUE_PLANES, net->in_w, net->in_b, false, h[0], n, portable);
    int cur = 0;
    for (int k = 0; k < net->blocks; k++) {
        conv(h[cur], C, net->block_w + (size_t)k * 9 * C * C, net->block_b + (size_t)k * C, true, h[1 - cur], n,
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
