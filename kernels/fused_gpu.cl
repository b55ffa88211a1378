// SPDX-License-Identifier: MIT
// fused_gpu.cl — the fixed part of the GPU-style fused chain (FusedGpu, core/src/fused_gpu.cpp, generates
// convolve_fused after it, with every step's weights as literals; docs/ARCHITECTURE.md, Chains).
//
// A work-group computes ONE channel (get_group_id(2)) of a TW × TH output tile, so its regions are one float
// plane of PW × PH in local memory (a third of what three channels need: taller and wider tiles fit, and the
// recomputed halo is a smaller share). Each step reads the plane, keeps its results in registers (a work-item:
// 4 adjacent columns × R rows, every 4-float row of the plane loaded once as a float4 and used for every
// output row it reaches), and after a barrier writes them back over the plane, rounded as a single filter's
// store rounds; the last step stores its bytes to the image.
//
// Build options: -DWX -DWY (work-group), -DPW -DPH (the plane), -DLX (plane column of the tile's column 0, a
// multiple of 4), -DHY (plane row of the tile's row 0), and the common BORDER_MODE (unused here).
#include "border_any.cl"  // border_index_any

// Rounding to nearest even and saturating to 0..255 (as fused_literal.cl): the value as a float, or as the
// low byte of the bits.
#define FUSED_ROUNDED_BITS(x) (clamp((x), 0.0f, 255.0f) + 12582912.0f)
#define FUSED_ROUND(x) (FUSED_ROUNDED_BITS(x) - 12582912.0f)
#define FUSED_ROW(p, at) (*(__local const float4*)((p) + (at)))

inline float fused_gpu_channel(float4 v, int ch) {
  return ch == 0 ? v.x : ch == 1 ? v.y : v.z;
}

// Byte n (0..11) of three little-endian words.
inline uint fused_gpu_byte(uint w0, uint w1, uint w2, int n) {
  const uint w = n < 4 ? w0 : n < 8 ? w1 : w2;
  return (w >> (8 * (n & 3))) & 0xFFu;
}

#define FUSED_FILL_CHUNKS (PW / 4 * PH)
#define FUSED_FILL_ITEMS ((FUSED_FILL_CHUNKS + WX * WY - 1) / (WX * WY))

// The input plane of a work-group whose plane lies in an image of whole words a row (width % 4 == 0; x0 is a
// multiple of 4): 4 pixels at a time as three aligned words (12 bytes: R G B × 4), every load of the work-item
// issued before the first is used (one after another, each waited for, they were most of the kernel's time).
inline void fused_gpu_fill_words(__local float* p, __global const uchar* src, int width, int x0, int y0,
                                 int ch) {
  const int lid = get_local_id(1) * WX + get_local_id(0), rowWords = 3 * (width / 4);
  __global const uint* s = (__global const uint*)(src + 3 * (y0 * width + x0));
  uint w0[FUSED_FILL_ITEMS], w1[FUSED_FILL_ITEMS], w2[FUSED_FILL_ITEMS];
#pragma unroll
  for (int k = 0; k < FUSED_FILL_ITEMS; ++k) {
    const int i = min(lid + k * WX * WY, FUSED_FILL_CHUNKS - 1), y = i / (PW / 4);
    __global const uint* q = s + y * rowWords + 3 * (i - y * (PW / 4));
    w0[k] = q[0];
    w1[k] = q[1];
    w2[k] = q[2];
  }
#pragma unroll
  for (int k = 0; k < FUSED_FILL_ITEMS; ++k) {
    const int i = lid + k * WX * WY;
    if (i < FUSED_FILL_CHUNKS)
      *(__local float4*)(p + 4 * i) = convert_float4(
          (uint4)(fused_gpu_byte(w0[k], w1[k], w2[k], ch), fused_gpu_byte(w0[k], w1[k], w2[k], 3 + ch),
                  fused_gpu_byte(w0[k], w1[k], w2[k], 6 + ch), fused_gpu_byte(w0[k], w1[k], w2[k], 9 + ch)));
  }
}

// The input plane: plane (x, y) is image (x0 + x, y0 + y) of channel ch, read with the first step's border
// (`inside`: the whole plane lies in the image, so no rule is needed).
inline void fused_gpu_fill_input(__local float* p, __global const uchar* src, int width, int height, int x0,
                                 int y0, int ch, int mode, float bv, bool inside) {
  const int lid = get_local_id(1) * WX + get_local_id(0);
  if (inside && (width & 3) == 0) {
    fused_gpu_fill_words(p, src, width, x0, y0, ch);
    return;
  }
  if (inside) {
    __global const uchar* s = src + 3 * (y0 * width + x0) + ch;
    for (int i = lid; i < PW * PH; i += WX * WY) {
      const int y = i / PW, x = i - y * PW;
      p[i] = (float)s[3 * (y * width + x)];
    }
    return;
  }
  for (int i = lid; i < PW * PH; i += WX * WY) {
    const int y = i / PW, x = i - y * PW;
    const int bx = border_index_any(x0 + x, width, mode), by = border_index_any(y0 + y, height, mode);
    p[i] = (bx < 0 || by < 0) ? bv : (float)src[3 * (by * width + bx) + ch];
  }
}

// After a step: the out-of-image positions of its region (tile-relative [−ho, TW + ho) × [−ho, TH + ho), ho
// the later steps' radii) within ho of the image, filled by the next step's border rule from in-image
// positions of the same region (fused.cl says why they lie inside it), or with its constant.
inline void fused_gpu_fill_border(__local float* p, int width, int height, int x0, int y0, int ho, int tw,
                                  int th, int mode, float bv) {
  const int side = tw + 2 * ho, rows = th + 2 * ho;
  for (int i = get_local_id(1) * WX + get_local_id(0); i < side * rows; i += WX * WY) {
    const int ry = i / side, x = LX - ho + (i - ry * side), y = HY - ho + ry;
    const int gx = x0 + x, gy = y0 + y;
    if ((uint)gx < (uint)width && (uint)gy < (uint)height) continue;
    if (gx < -ho || gx >= width + ho || gy < -ho || gy >= height + ho) continue;
    const int bx = border_index_any(gx, width, mode), by = border_index_any(gy, height, mode);
    p[y * PW + x] = (bx < 0 || by < 0) ? bv : p[(by - y0) * PW + (bx - x0)];
  }
}
