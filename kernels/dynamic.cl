// SPDX-License-Identifier: MIT
// dynamic.cl — K, the border mode and the weights are run-time arguments: ONE program per device serves every
// filter, so a new filter runs on the next frame without a compile. `auto` runs it while it measures.
//
// Each work-item computes VX consecutive pixels of one row: 3·VX interleaved bytes = three VX-wide chunks
// (chunk.cl), lane e of chunk v being channel (VX·v + e) % 3. The weights come in that pattern from the host
// (`wpat`, [K·K taps][3 chunks][VX], tile_shape's chunkPatternWeights), so one fma per chunk and tap does all
// three channels. The tap loops are run-time loops, not unrolled: a CPU compiler (PoCL) builds this in a
// fraction of a second, where the unrolled kernels of the other strategies take one to three seconds per K.
//
// Build options: -DVX=4|8|16 (pixels per work-item) -DFAST_STORE=0|1 (chunk.cl). BORDER_MODE is given only
// because common.cl requires it; this kernel resolves borders with border_index_any() (border_any.cl).

#define CHUNK VX
#include "chunk.cl"       // VEC, VLOAD, TO_FLOAT, STORE_CHUNK, LOAD_CHUNK, offset_chunk
#include "border_any.cl"  // border_index_any

// The weight of channel c at tap t in the chunk pattern: byte 3·p + c of the work-item's row of pixels.
inline float pattern_weight(__global const float* wpat, int t, int p, int c) {
  const int b = 3 * p + c;
  return wpat[(t * 3 + b / VX) * VX + b % VX];
}

__kernel void convolve_dynamic(__global const uchar* src, __global uchar* dst, int width, int height,
                               __global const float* wpat, int ksize, int border_mode, float4 offset,
                               float4 border_value) {
  const int x0 = get_global_id(0) * VX, y = get_global_id(1);
  if (x0 >= width || y >= height) return;
  const int r = ksize / 2, rowb = width * 3;

  if (x0 >= r && y >= r && x0 + VX + r <= width && y + r < height) {
    // Interior: every tap is a plain load of three chunks.
    VEC acc0 = (VEC)(0.0f), acc1 = (VEC)(0.0f), acc2 = (VEC)(0.0f);
    __global const uchar* s = src + (y - r) * rowb + (x0 - r) * 3;
    __global const float* w = wpat;
    for (int j = 0; j < ksize; ++j, s += rowb) {
      for (int i = 0; i < ksize; ++i, w += 3 * VX) {
        __global const uchar* p = s + 3 * i;
        acc0 = fma(TO_FLOAT(LOAD_CHUNK(p)), VLOAD(0, w), acc0);
        acc1 = fma(TO_FLOAT(LOAD_CHUNK(p + VX)), VLOAD(0, w + VX), acc1);
        acc2 = fma(TO_FLOAT(LOAD_CHUNK(p + 2 * VX)), VLOAD(0, w + 2 * VX), acc2);
      }
    }
    __global uchar* d = dst + y * rowb + x0 * 3;
    STORE_CHUNK(acc0 + offset_chunk(offset, 0), d);
    STORE_CHUNK(acc1 + offset_chunk(offset, 1), d + VX);
    STORE_CHUNK(acc2 + offset_chunk(offset, 2), d + 2 * VX);
    return;
  }

  // Near an edge: pixel by pixel with the border rule (a few work-items per row and column).
  for (int p = 0; p < VX && x0 + p < width; ++p) {
    const int x = x0 + p;
    float3 acc = offset.xyz;
    for (int j = 0; j < ksize; ++j) {
      const int by = border_index_any(y + j - r, height, border_mode);
      for (int i = 0; i < ksize; ++i) {
        const int bx = border_index_any(x + i - r, width, border_mode);
        const float3 v = bx < 0 || by < 0 ? border_value.xyz : load_rgb_inside(src, bx, by, width);
        const int t = j * ksize + i;
        acc += v * (float3)(pattern_weight(wpat, t, p, 0), pattern_weight(wpat, t, p, 1),
                            pattern_weight(wpat, t, p, 2));
      }
    }
    store_rgb(dst, x, y, width, acc);
  }
}
