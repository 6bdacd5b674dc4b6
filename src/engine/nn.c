/*
 * nn.c — the 3x3 convolution of tengen's networks (nn.h).
 *
 * Activations are point-major with a border of zeros one point wide, so a
 * convolution reads its neighbours without a test and its innermost loop
 * runs over the output channels, contiguous, which the compiler
 * vectorizes.  Where the processor has AVX2 and FMA a version written with
 * their intrinsics is chosen at run time: several points of a row at a
 * time, so that independent sums hide the latency of a fused multiply-add.
 */
#include <stdatomic.h>

#include "engine/nn.h"

#define C NN_CHANNELS
#define PAD NN_PAD

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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && NN_CHANNELS % 8 == 0 && NN_CHANNELS <= 32
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

void nn_conv3x3(const float *in, int ic, const float *w, const float *bias, bool residual, float *out, int n,
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

