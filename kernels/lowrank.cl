// SPDX-License-Identifier: MIT
// lowrank.cl — a filter of rank RANK as the sum of RANK separable terms (SVD), in one fused launch
// (`lowrank`, and `separable` with RANK 1): a work-group runs every term's row pass over its tile rows (halo
// included) into local memory, then the column passes of all terms from there, adds the offset and rounds.
// Nothing but the frame goes through global memory: 3 bytes in and 3 out per pixel.
//
// Layout: a work-item owns PX interleaved pixels of a row (NB = 3·PX bytes; byte b is channel b % 3) and BY
// output rows; a work-group of WGX×WGY work-items covers TW×TH outputs. The row pass reads the NIN bytes its
// PX pixels need with 32-bit loads (aligned words, shifted into place), so a warp's loads are coalesced and
// never split into bytes; tiles at the frame's left and right edges read byte by byte through border_index.
// The intermediate, hbuf, holds RANK planes of TROWS rows × TW·3 floats, in the frame's interleaved order:
// the column pass reads each row of its NB floats as NB/4 float4s (no bank conflicts for PX = 4 or 8).
//
// Build options beyond common.cl's: -DRANK=<terms> -DPX=<4|8> -DBY -DWGX -DWGY; -DROW_LOOP=1 on CPUs (the row
// pass as a plain loop); -DROW_WORDS=1 when a row is whole 32-bit words (width·3 a multiple of 4: 1080p, 4K),
// which fixes where each work-item's bytes sit in its words; -DWEIGHTS_BY_VALUE=1 when the factors fit the
// kernel-argument space (a struct argument), else they come in a __constant buffer.
// Factors (divisor folded in): w[0 .. 3·RANK·K) row factors [term][channel R,G,B][K], then
// w[3·RANK·K .. 6·RANK·K) column factors [term][channel][K]; channels of lower rank have zero factors for the
// extra terms. Under BORDER_CONSTANT a row or pixel outside the frame is the border value, and the row pass runs
// over it like any other row (Σ_t col_t[j]·Σ_i row_t[i]·v is the dense row sum times v).

#define CHUNK 4
#define FAST_STORE 0
#include "chunk.cl"

#define TW (WGX * PX)                              // tile width in output pixels
#define TH (WGY * BY)                              // tile height in output rows
#define TROWS (TH + KSIZE - 1)                     // rows of the row pass, halo included
#define NB (3 * PX)                                // bytes (floats) of one work-item's pixels in a row
#define HSTRIDE (3 * TW)                           // floats per hbuf row
#define NIN (NB + 6 * RADIUS)                      // input bytes the row pass of NB outputs reads
#define NU ((NIN + 3) / 4)                         // words holding them once shifted into place
#define ROW_STEPS ((TROWS + WGY - 1) / WGY)        // row-pass rows per work-item
#define PREFETCH (ROW_STEPS <= 3 ? ROW_STEPS : 2)  // steps whose words are in flight at once
#define ROW_SHIFT ((4 - 3 * RADIUS % 4) % 4)     // with ROW_WORDS: offset of pixel x0 − RADIUS in its word
#if WEIGHTS_BY_VALUE
// The factors as a by-value argument: NVIDIA keeps those in a constant bank that FMAs read directly; through
// a __constant pointer every work-item loads all 6·RANK·K of them into registers first.
typedef struct {
  float v[6 * RANK * KSIZE];
} lowrank_factors;
#define FACTORS_PARAM const lowrank_factors w
#define FACTOR(n) w.v[n]
#else
#define FACTORS_PARAM __constant float* w
#define FACTOR(n) w[n]
#endif
#define ROWS_AT(t, c, i) FACTOR(((t)*3 + (c)) * KSIZE + (i))
#define COLS_AT(t, c, j) FACTOR(3 * RANK * KSIZE + ((t)*3 + (c)) * KSIZE + (j))

// Loads the NU + 1 aligned words holding row `by`'s NIN bytes from pixel x0 − RADIUS on, unconditionally (the
// address clamped into the frame: loads issue without waiting for a branch); true when they are all the row's
// (`xin`: the pixels are inside the row).
inline bool load_words(__global const uchar* src, int width, int total, int x0, int by, bool xin, uint* wv) {
  const int a0 = (max(by, 0) * width * 3 + (x0 - RADIUS) * 3) & ~3;
  __global const uint* p = (__global const uint*)src + max(min(a0 / 4, total / 4 - (NU + 1)), 0);
#pragma unroll
  for (int k = 0; k <= NU; ++k) wv[k] = total >= 4 * (NU + 1) ? p[k] : 0u;
  return xin && by >= 0 && a0 + 4 * (NU + 1) <= total;
}

// The NIN bytes of row `by` from pixel x0 − RADIUS on, as floats, from `wv` (load_words): the NU + 1 aligned
// words that hold them, shifted by the first byte's offset in its word.
inline void unpack_words(const uint* wv, int width, int x0, int by, float* in) {
#if ROW_WORDS
  // Rows of whole words and x0 a multiple of 4: the first byte's place in its word is known here.
#pragma unroll
  for (int k = 0; k < NIN; ++k)
    in[k] = BYTE_TO_FLOAT((wv[(ROW_SHIFT + k) / 4] >> (8 * ((ROW_SHIFT + k) % 4))) & 0xFFu);
#else
  const uint s = (uint)(by * width * 3 + (x0 - RADIUS) * 3) % 4u * 8u;
#pragma unroll
  for (int q = 0; q < NU; ++q) {
    const uint u = (uint)(upsample(wv[q + 1], wv[q]) >> s);
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (4 * q + e < NIN) in[4 * q + e] = BYTE_TO_FLOAT((u >> (8 * e)) & 0xFFu);
  }
#endif
}

// The same bytes one by one through border_index, where the words are not all the row's: the tile's left or
// right edge, the frame's last word, a BORDER_CONSTANT row outside the frame (by < 0).
inline void unpack_bytes(__global const uchar* src, int width, int x0, int by, float4 border_value, float* in) {
  const float bv[3] = {border_value.x, border_value.y, border_value.z};
#pragma unroll
  for (int k = 0; k < NIN; ++k) {
    const int bx = border_index(x0 - RADIUS + k / 3, width);
#if BORDER_MODE == BORDER_CONSTANT
    if (by < 0 || bx < 0) {
      in[k] = bv[k % 3];
      continue;
    }
#endif
    in[k] = BYTE_TO_FLOAT((uint)src[by * width * 3 + bx * 3 + k % 3]);
  }
}

// Every term's row pass over `in` into hbuf row `rr`, this work-item's NB floats. (Written out in both branches
// of the unpacking instead, so that they meet after the stores, it measured 3-9% slower on an H200.)
#define ROW_PASS(in, rr)                                                                                    \
  _Pragma("unroll") for (int t = 0; t < RANK; ++t) {                                                       \
    float h[NB];                                                                                           \
    _Pragma("unroll") for (int b = 0; b < NB; ++b) {                                                       \
      float a = 0.0f;                                                                                      \
      _Pragma("unroll") for (int i = 0; i < KSIZE; ++i) a = fma((in)[b + 3 * i], ROWS_AT(t, b % 3, i), a); \
      h[b] = a;                                                                                            \
    }                                                                                                      \
    __local float* hr = hbuf + (t * TROWS + (rr)) * HSTRIDE + lx * NB;                                     \
    _Pragma("unroll") for (int m = 0; m < NB / 4; ++m) vstore4(vload4(m, h), m, hr);                       \
  }

// Rounds NB values into bytes at dst: whole words where the NB bytes are all in the row and start on a word,
// else byte by byte, only the `pixels` that exist.
inline void store_block(__global uchar* d, int pixels, const float* v) {
  if (pixels >= PX && ((size_t)d & 3) == 0) {
#pragma unroll
    for (int q = 0; q < NB / 4; ++q)
      ((__global uint*)d)[q] = round_byte(v[4 * q]) | round_byte(v[4 * q + 1]) << 8 |
                               round_byte(v[4 * q + 2]) << 16 | round_byte(v[4 * q + 3]) << 24;
    return;
  }
#pragma unroll
  for (int b = 0; b < NB; ++b)
    if (b < 3 * pixels) d[b] = (uchar)round_byte(v[b]);
}

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) void lowrank_fused(
    __global const uchar* src, __global uchar* dst, int width, int height, FACTORS_PARAM, float4 offset,
    float4 border_value) {
  __local float hbuf[RANK * TROWS * HSTRIDE] __attribute__((aligned(16)));
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x0 = get_group_id(0) * TW + lx * PX;
  const int gy0 = get_group_id(1) * TH;

  // Row pass: every tile row, halo included, each work-item its NB floats of each term. What load_words cannot
  // serve goes the slow way (unpack_bytes).
  const int total = width * height * 3;
  const bool xin = x0 >= RADIUS && x0 + PX + RADIUS <= width;
#if ROW_LOOP
  // CPUs: one row at a time (a small loop body: PoCL compiles it in a fraction of the unrolled form's time).
  for (int rr = ly; rr < TROWS; rr += WGY) {
    const int by = border_index(gy0 - RADIUS + rr, height);
    uint wv[NU + 1];
    float in[NIN];
    if (load_words(src, width, total, x0, by, xin, wv))
      unpack_words(wv, width, x0, by, in);
    else
      unpack_bytes(src, width, x0, by, border_value, in);
    ROW_PASS(in, rr)
  }
#else
  // GPUs: the words of PREFETCH steps are in flight at once, so a work-item waits for memory about once, not
  // once per step.
  uint wv[PREFETCH][NU + 1];
  int by[ROW_STEPS];
  bool fast[ROW_STEPS];
#pragma unroll
  for (int q = 0; q < ROW_STEPS; ++q) by[q] = border_index(gy0 - RADIUS + min(ly + q * WGY, TROWS - 1), height);
#pragma unroll
  for (int q = 0; q < PREFETCH; ++q) fast[q] = load_words(src, width, total, x0, by[q], xin, wv[q]);
#pragma unroll
  for (int q = 0; q < ROW_STEPS; ++q) {
    const int rr = ly + q * WGY;
    if (rr < TROWS) {
      float in[NIN];
      if (fast[q])
        unpack_words(wv[q % PREFETCH], width, x0, by[q], in);
      else
        unpack_bytes(src, width, x0, by[q], border_value, in);
      ROW_PASS(in, rr)
    }
    if (q + PREFETCH < ROW_STEPS)
      fast[q + PREFETCH] = load_words(src, width, total, x0, by[q + PREFETCH], xin, wv[q % PREFETCH]);
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE);

  const int y0 = gy0 + ly * BY;
  if (x0 >= width || y0 >= height) return;
  const float opat[3] = {offset.x, offset.y, offset.z};
  float acc[BY][NB];
#pragma unroll
  for (int o = 0; o < BY; ++o)
#pragma unroll
    for (int b = 0; b < NB; ++b) acc[o][b] = opat[b % 3];
  // Column pass: hbuf row ly·BY + rr serves output rows o = rr − j of this work-item.
#pragma unroll
  for (int t = 0; t < RANK; ++t)
#pragma unroll
    for (int rr = 0; rr < BY + KSIZE - 1; ++rr) {
      float h[NB];
      const __local float* hr = hbuf + (t * TROWS + ly * BY + rr) * HSTRIDE + lx * NB;
#pragma unroll
      for (int q = 0; q < NB / 4; ++q) vstore4(vload4(q, hr), q, h);
#pragma unroll
      for (int o = 0; o < BY; ++o) {
        const int j = rr - o;
        if (j < 0 || j >= KSIZE) continue;
#pragma unroll
        for (int b = 0; b < NB; ++b) acc[o][b] = fma(h[b], COLS_AT(t, b % 3, j), acc[o][b]);
      }
    }
#pragma unroll
  for (int o = 0; o < BY; ++o)
    if (y0 + o < height) store_block(dst + ((y0 + o) * width + x0) * 3, width - x0, acc[o]);
}
