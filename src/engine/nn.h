/*
 * nn.h — the arithmetic of tengen's convolutional networks (nn.c): a 3x3
 * convolution into NN_CHANNELS channels with a bias, an optional residual
 * input and a ReLU, over the points of a board held point-major with a
 * border of zeros one point wide (NN_PAD points a row), so that a
 * convolution reads its neighbours without a test.  The value function
 * (value.c) and the policy network (policy_net.c) are built of it.
 */
#ifndef TENGEN_ENGINE_NN_H
#define TENGEN_ENGINE_NN_H

#include <stdbool.h>

#include "tengen/board.h"

/* The width of every layer, fixed so that the loops over the channels are
 * compiled for it; weights files of another width are refused. */
#define NN_CHANNELS 32
#define NN_PAD (TG_MAX_SIZE + 2)

/* out = relu(conv3x3(in; w) + bias (+ in when residual)) over the n x n
 * points, in with ic channels a point, out with NN_CHANNELS; w is
 * [3][3][ic][NN_CHANNELS].  portable: the plain C loop even where the
 * processor has AVX2 and FMA (for the tests, which compare the two). */
void nn_conv3x3(const float *in, int ic, const float *w, const float *bias, bool residual, float *out, int n,
                bool portable);

#endif
