// SPDX-License-Identifier: MIT
// common.cl — prepended to every strategy's kernel: border handling and pixel load/store helpers.
//
// Build options every program gets (set by the host, see core/src/strategy_support.cpp):
//   -DBORDER_MODE=<one of the BORDER_* below>   -DKSIZE=<K>  -DRADIUS=<(K-1)/2>
//
// Border modes, as OpenCV's cv::borderInterpolate; `|abcd|` is one image row:
//   BORDER_REPLICATE   aaa|abcd|ddd
//   BORDER_REFLECT     cba|abcd|dcb
//   BORDER_REFLECT101  dcb|abcd|cba
//   BORDER_WRAP        bcd|abcd|abc
//   BORDER_CONSTANT    vvv|abcd|vvv   (v: the per-channel border value)

#define BORDER_REPLICATE 0
#define BORDER_REFLECT 1
#define BORDER_REFLECT101 2
#define BORDER_WRAP 3
#define BORDER_CONSTANT 4

#ifndef BORDER_MODE
#error "BORDER_MODE must be defined"
#endif

// Index in [0, len) that position p reads, or -1 (BORDER_CONSTANT outside the image).
// The loop handles images smaller than the filter radius exactly as OpenCV does.
inline int border_index(int p, int len) {
  if ((uint)p < (uint)len) return p;
#if BORDER_MODE == BORDER_CONSTANT
  return -1;
#elif BORDER_MODE == BORDER_REPLICATE
  return p < 0 ? 0 : len - 1;
#elif BORDER_MODE == BORDER_WRAP
  int m = p % len;
  return m < 0 ? m + len : m;
#else
  if (len == 1) return 0;
#if BORDER_MODE == BORDER_REFLECT101
  const int delta = 1;
#else
  const int delta = 0;
#endif
  do {
    p = p < 0 ? -p - 1 + delta : len - 1 - (p - len) - delta;
  } while ((uint)p >= (uint)len);
  return p;
#endif
}

// Pixel load without border checks, for work-items known to be in the interior.
inline float3 load_rgb_inside(__global const uchar* src, int x, int y, int width) {
  return convert_float3(vload3(y * width + x, src));
}

// Pixel at indices border_index() already resolved (e.g. once per row or column): under BORDER_CONSTANT an
// index of -1 (outside the image) reads `border_value`.
inline float3 load_rgb_resolved(__global const uchar* src, int bx, int by, int width, float3 border_value) {
#if BORDER_MODE == BORDER_CONSTANT
  if (bx < 0 || by < 0) return border_value;
#endif
  return load_rgb_inside(src, bx, by, width);
}

// One RGB pixel as float3 with the border rule applied; `border_value` answers BORDER_CONSTANT.
inline float3 load_rgb(__global const uchar* src, int x, int y, int width, int height, float3 border_value) {
  return load_rgb_resolved(src, border_index(x, width), border_index(y, height), width, border_value);
}

// Rounds to nearest even and saturates to 0..255, as OpenCV's saturate_cast<uchar>(float).
inline void store_rgb(__global uchar* dst, int x, int y, int width, float3 value) {
  vstore3(convert_uchar3_sat_rte(value), y * width + x, dst);
}
