/*
 * conv_gemm.c — the choice of the policy network's inference kernel
 * (issue 53), measured: one 3x3 convolution of 32 channels into 32 over a
 * 19x19 board, as tengen's own kernel does it (engine/nn.c, AVX2 and FMA
 * where the processor has them, and its plain C loop) beside the way a
 * BLAS-based inference does it, im2col and one cblas_sgemm, with Debian's
 * OpenBLAS (or whichever CBLAS pkg-config names openblas).  The network's
 * seven convolutions make an evaluation, so each line also gives the
 * evaluations a second that convolutions at that speed would allow (the
 * heads and the input's planes left out).  Run with OPENBLAS_NUM_THREADS=1
 * to compare one thread with one thread.  Built only where OpenBLAS is
 * installed (libopenblas-dev): it is no dependency of tengen's.  A
 * benchmark: it prints figures, one a line, and asserts nothing.
 *
 * usage: bench_conv_gemm [seconds per figure, default 3]
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/nn.h"

#define N 19
#define C NN_CHANNELS
#define PAD NN_PAD
#define CONVS 7 /* the policy network's: the input's and six blocks' */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static float weights[9 * C * C], bias[C];
static float padded_in[PAD * PAD * C], padded_out[PAD * PAD * C]; /* nn.c's layout: point-major, padded */
static float plane_in[C * N * N], col[C * 9 * N * N], plane_w[C * C * 9], plane_out[C * N * N]; /* BLAS's */

static float unit(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (float)((*seed >> 8) & 0xffff) / 65536.0f - 0.5f;
}

/* im2col: each of the 9 shifts of each input channel a row of N*N; then
 * out[C][N*N] = w[C][C*9] x col[C*9][N*N] */
static void conv_blas(void)
{
    for (int c = 0; c < C; c++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                float *r = col + (c * 9 + (dy + 1) * 3 + dx + 1) * N * N;
                for (int y = 0; y < N; y++)
                    for (int x = 0; x < N; x++) {
                        int yy = y + dy, xx = x + dx;
                        r[y * N + x] = yy < 0 || yy >= N || xx < 0 || xx >= N ? 0 : plane_in[(c * N + yy) * N + xx];
                    }
            }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, C, N * N, C * 9, 1.0f, plane_w, C * 9, col, N * N, 0.0f,
                plane_out, N * N);
    for (int o = 0; o < C; o++) /* the bias and the ReLU, as nn.c */
        for (int i = 0; i < N * N; i++) {
            float v = plane_out[o * N * N + i] + bias[o];
            plane_out[o * N * N + i] = v > 0 ? v : 0;
        }
}

/* seconds per convolution: kind 0 nn.c's vector path, 1 its plain loop,
 * 2 im2col + sgemm */
static double time_conv(int kind, double seconds)
{
    long k = 0;
    double start = now(), t;
    do {
        for (int i = 0; i < 16; i++, k++) {
            if (kind == 2)
                conv_blas();
            else
                nn_conv3x3(padded_in, C, weights, bias, false, padded_out, N, kind == 1);
        }
        t = now() - start;
    } while (t < seconds);
    return t / (double)k;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 3;
    unsigned seed = 7;
    for (int i = 0; i < 9 * C * C; i++)
        weights[i] = unit(&seed) * 0.2f;
    for (int i = 0; i < C; i++)
        bias[i] = unit(&seed) * 0.1f;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++)
            for (int c = 0; c < C; c++)
                plane_in[(c * N + y) * N + x] = padded_in[((y + 1) * PAD + x + 1) * C + c] = unit(&seed);
    /* the same weights for both: nn.c's [ky][kx][in][out], BLAS's [out][in*9 + ky*3 + kx] */
    for (int k = 0; k < 9; k++)
        for (int i = 0; i < C; i++)
            for (int o = 0; o < C; o++)
                plane_w[o * C * 9 + i * 9 + k] = weights[(k * C + i) * C + o];
    /* the two must agree before their times mean anything */
    nn_conv3x3(padded_in, C, weights, bias, false, padded_out, N, false);
    conv_blas();
    double worst = 0;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++)
            for (int o = 0; o < C; o++) {
                double d = padded_out[((y + 1) * PAD + x + 1) * C + o] - plane_out[(o * N + y) * N + x];
                worst = d > worst ? d : -d > worst ? -d : worst;
            }
    printf("conv_agree %.2g largest difference (nn.c against sgemm, the same convolution)\n", worst);
    if (worst > 1e-3) {
        fprintf(stderr, "bench_conv_gemm: the two convolutions disagree\n");
        return 1;
    }
    static const char *const names[] = {"nn_avx2", "nn_portable", "im2col_sgemm"};
    double t[3];
    for (int kind = 0; kind < 3; kind++) {
        t[kind] = time_conv(kind, seconds);
        printf("conv_%s %.1f us a convolution (%.0f evaluations/s at most; %.1f GFLOP/s)\n", names[kind],
               t[kind] * 1e6, 1 / (CONVS * t[kind]), 2.0 * C * C * 9 * N * N / t[kind] / 1e9);
    }
    printf("conv_ratio %.2fx (im2col_sgemm's time over nn_avx2's; above 1: nn.c is faster)\n", t[2] / t[0]);
    return 0;
}
