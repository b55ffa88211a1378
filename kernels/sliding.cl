// SPDX-License-Identifier: MIT
// sliding.cl — the fixed parts of the register sliding-window kernel that core/src/strategies/sliding.cpp
// generates for one filter: row loads into registers, border rows/columns, packed rounding stores. The
// generated kernel follows this file and holds the arithmetic (literal coefficients, zero taps left out).
//
// Each work-item owns a strip BX pixels wide (three BX-wide vectors, "chunks", in the frame's interleaved
// R G B order: lane e of chunk v is channel (BX·v + e) % 3) and SH output rows tall. It walks down the strip
// once: every input row is loaded once into registers and pushed into the K open output rows ("push" form),
// so no local memory, no barrier, and no input row is read twice by one work-item.
//
// The generator defines, before this file: BX, SH, WGX, WGY, CPU_STYLE (1: vector byte loads and packed
// vector stores for PoCL; 0: aligned 32-bit word loads and stores for GPUs). BORDER_MODE, KSIZE and RADIUS
// come as -D options. The chunk macros, offset chunks and rounding stores come from chunk.cl.

#define CHUNK BX
#define FAST_STORE CPU_STYLE
#include "chunk.cl"

#define NB (3 * (BX + KSIZE - 1))  // input bytes one strip reads per row
#define NW ((NB + 3) / 4 + 1)      // 32-bit words that cover NB bytes at any byte alignment
#define NBP (NW * 4)               // the private row array, padded to whole words

// border_index without a loop for the reflecting rules (the same indices for every p: OpenCV's rule is
// periodic), so that loops over a strip's bytes unroll fully and the row array stays in registers. The other
// rules have no loop in border_index.
inline int strip_border_index(int p, int len) {
#if BORDER_MODE == BORDER_REFLECT || BORDER_MODE == BORDER_REFLECT101
  if ((uint)p < (uint)len) return p;
  if (len == 1) return 0;
#if BORDER_MODE == BORDER_REFLECT101
  const int period = 2 * len - 2;  // dcb|abcd|cba
  int m = p % period;
  m = m < 0 ? m + period : m;
  return m < len ? m : period - m;
#else
  const int period = 2 * len;  // cba|abcd|dcb
  int m = p % period;
  m = m < 0 ? m + period : m;
  return m < len ? m : period - 1 - m;
#endif
#else
  return border_index(p, len);
#endif
}

#if !CPU_STYLE
// The whole aligned words that hold NB bytes from byte offset `base` (whole-word loads, no byte loads).
inline void fetch_words(__global const uchar* src, int base, uint* w) {
  __global const uint* s = (__global const uint*)src + (base >> 2);
#pragma unroll
  for (int q = 0; q < NW; ++q) w[q] = s[q];
}

// Realigns the words of fetch_words(base) in registers (a funnel shift when the strip does not start on a
// word boundary: rows of 3·width bytes are word-aligned only when width % 4 == 0) and unpacks the bytes.
inline void unpack_words(const uint* w, int base, float* in) {
  const uint sh = (uint)(base & 3) * 8u;
  uint a[NW - 1];
  if (sh == 0) {
#pragma unroll
    for (int q = 0; q < NW - 1; ++q) a[q] = w[q];
  } else {
#pragma unroll
    for (int q = 0; q < NW - 1; ++q) a[q] = (w[q] >> sh) | (w[q + 1] << (32u - sh));
  }
#pragma unroll
  for (int e = 0; e < NB; ++e) in[e] = BYTE_TO_FLOAT((a[e / 4] >> (8 * (e % 4))) & 0xFFu);
}
#endif

// Interior row: NB bytes from byte offset `base` (the strip's leftmost needed byte) into in[0..NB).
inline void load_row_inside(__global const uchar* src, int base, float* in) {
#if CPU_STYLE
  __global const uchar* p = src + base;
  int q = 0;
#pragma unroll
  for (; q + 16 <= NB; q += 16) vstore16(convert_float16(vload16(0, p + q)), 0, in + q);
#pragma unroll
  for (; q + 4 <= NB; q += 4) vstore4(convert_float4(vload4(0, p + q)), 0, in + q);
#pragma unroll
  for (; q < NB; ++q) in[q] = convert_float(p[q]);
#else
  uint w[NW];
  fetch_words(src, base, w);
  unpack_words(w, base, in);
#endif
}

// The strip's input columns through the border rule (-1: BORDER_CONSTANT outside the frame), resolved once
// per work-item: they are the same for every row.
#define NCOLS (BX + KSIZE - 1)
inline void strip_columns(int x0, int width, int* col) {
#pragma unroll
  for (int p = 0; p < NCOLS; ++p) col[p] = strip_border_index(x0 - RADIUS + p, width);
}

// A row at a border or a strip that reaches past the frame: every byte through the resolved columns. `by` is
// the input row (already resolved), or -1 for a BORDER_CONSTANT row outside the frame. All NB loads are
// unconditional, from addresses inside the frame, and issued before any is used: a guarded load per byte
// would wait for memory once per byte (the edge strips set the kernel's critical path).
inline void load_row_edge(__global const uchar* src, int rowb, int by, const int* col, float4 border_value,
                          float* in) {
  __global const uchar* r = src + max(by, 0) * rowb;
  uint b[NB];
#pragma unroll
  for (int e = 0; e < NB; ++e) b[e] = r[max(col[e / 3], 0) * 3 + e % 3];
#pragma unroll
  for (int e = 0; e < NB; ++e) in[e] = BYTE_TO_FLOAT(b[e]);
#if BORDER_MODE == BORDER_CONSTANT
  const float bv[3] = {border_value.x, border_value.y, border_value.z};
#pragma unroll
  for (int e = 0; e < NB; ++e)
    if (by < 0 || col[e / 3] < 0) in[e] = bv[e % 3];
#endif
}

// Rounds and stores one output row of the strip (three chunks); at the frame's right edge only the pixels
// that exist. CPUs: chunk.cl's packed vector stores. GPUs: byte by byte through round_byte, or whole packed
// words where the row is word-aligned. Kept inline here: the same stores through chunk.cl's helpers made
// sliding 8-23% slower on an H100 (K = 11, 1080p and 1366×768; NVIDIA's OpenCL compiler).
inline void store_row(__global uchar* dst, int rowb, int width, int x0, int y, VEC c0, VEC c1, VEC c2) {
  __global uchar* d = dst + y * rowb + x0 * 3;
#if CPU_STYLE
  store_chunks(d, width - x0, c0, c1, c2);
#else
  if (x0 + BX <= width) {
    float v[3 * BX];
    VSTORE(c0, 0, v);
    VSTORE(c1, 0, v + BX);
    VSTORE(c2, 0, v + 2 * BX);
#if BX % 4 == 0
    if ((rowb & 3) == 0) {  // x0·3 is a multiple of 12: whole packed words
      __global uint* d32 = (__global uint*)d;
#pragma unroll
      for (int q = 0; q < 3 * BX / 4; ++q)
        d32[q] = round_byte(v[4 * q]) | (round_byte(v[4 * q + 1]) << 8) | (round_byte(v[4 * q + 2]) << 16) |
                 (round_byte(v[4 * q + 3]) << 24);
      return;
    }
#endif
#pragma unroll
    for (int e = 0; e < 3 * BX; ++e) d[e] = (uchar)round_byte(v[e]);
    return;
  }
  float t[3 * BX];
  VSTORE(c0, 0, t);
  VSTORE(c1, 0, t + BX);
  VSTORE(c2, 0, t + 2 * BX);
  const int n = (width - x0) * 3;
  for (int e = 0; e < n; ++e) d[e] = (uchar)round_byte(t[e]);
#endif
}
