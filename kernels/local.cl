// SPDX-License-Identifier: MIT
// local.cl — each work-group stages its output tile plus a RADIUS halo in __local memory (border rule
// applied while loading), then every work-item convolves its pixel from there.
//
// Build options beyond common.cl's: -DGROUP_W, -DGROUP_H (work-group shape = output tile) and
// -DTILE_PITCH (row pitch of the staged tile in pixels, ≥ GROUP_W + 2·RADIUS, chosen by the host so
// the rows one warp touches fall in different local-memory banks).
//
//   halo  ┌───────────────┐  TILE_H = GROUP_H + 2·RADIUS rows
//         │  ┌─────────┐  │
//         │  │ output  │  │  pixels are stored as uchar4 (4th byte unused): one aligned 32-bit local
//         │  │  tile   │  │  load per tap, a quarter of what float staging would cost
//         │  └─────────┘  │
//         └───────────────┘  TILE_W = GROUP_W + 2·RADIUS columns

#define TILE_W (GROUP_W + 2 * RADIUS)
#define TILE_H (GROUP_H + 2 * RADIUS)
#include "taps.cl"  // ACCUMULATE_TAPS; W3(j, i)

// A pixel of the work-item's window, from the staged tile.
#define TILE_PIXEL(i, j) convert_float3(tile[(ly + j) * TILE_PITCH + lx + i].xyz)

__kernel __attribute__((reqd_work_group_size(GROUP_W, GROUP_H, 1))) void convolve_local(
    __global const uchar* src, __global uchar* dst, int width, int height,
    __constant float* weights,  // [3][K][K]: R, G, B matrices / divisor
    float4 offset, float4 border_value) {
  __local uchar4 tile[TILE_H * TILE_PITCH];
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int x0 = (int)get_group_id(0) * GROUP_W - RADIUS;  // image position of tile[0][0]
  const int y0 = (int)get_group_id(1) * GROUP_H - RADIUS;

  // Cooperative load, row by row so neighbouring work-items read neighbouring pixels. Items past the
  // image edge still load (and reach the barrier); only their store is skipped.
  for (int ty = ly; ty < TILE_H; ty += GROUP_H) {
    const int sy = border_index(y0 + ty, height);
    for (int tx = lx; tx < TILE_W; tx += GROUP_W) {
      const int sx = border_index(x0 + tx, width);
      uchar4 p = (uchar4)(0);
#if BORDER_MODE == BORDER_CONSTANT
      if (sx >= 0 && sy >= 0)  // outside: replaced by border_value below (it need not fit a uchar)
#endif
        p = (uchar4)(vload3(sy * width + sx, src), 0);
      tile[ty * TILE_PITCH + tx] = p;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  const int x = x0 + RADIUS + lx;
  const int y = y0 + RADIUS + ly;
  if (x >= width || y >= height) return;
  float3 acc = offset.xyz;
#if BORDER_MODE == BORDER_CONSTANT
  if (x < RADIUS || y < RADIUS || x + RADIUS >= width || y + RADIUS >= height) {
#pragma unroll
    for (int j = 0; j < KSIZE; ++j) {
      const bool row_in = (uint)(y + j - RADIUS) < (uint)height;
#pragma unroll
      for (int i = 0; i < KSIZE; ++i) {
        const bool in = row_in && (uint)(x + i - RADIUS) < (uint)width;
        const float3 p = in ? TILE_PIXEL(i, j) : border_value.xyz;
        acc += p * W3(j, i);
      }
    }
    store_rgb(dst, x, y, width, acc);
    return;
  }
#endif
  ACCUMULATE_TAPS(acc, TILE_PIXEL)
  store_rgb(dst, x, y, width, acc);
}
