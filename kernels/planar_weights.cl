// SPDX-License-Identifier: MIT
// planar_weights.cl — fragment (#include "planar_weights.cl"): the weights of the per-pixel kernels as the host
// uploads them (packedWeights, core/src/strategy_support.hpp): three K×K planes, R then G then B, each weight
// already divided by its divisor, in a kernel argument named `weights`.

#define KK (KSIZE * KSIZE)

// Tap (j, i)'s R, G and B weights; the indices are compile-time constants after unrolling.
#define W3(j, i) \
  (float3)(weights[(j)*KSIZE + (i)], weights[KK + (j)*KSIZE + (i)], weights[2 * KK + (j)*KSIZE + (i)])
