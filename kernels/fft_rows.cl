// SPDX-License-Identifier: MIT
// fft_rows.cl — the fft strategy's own row transforms (its "rows" path, core/src/strategies/fft.cpp): the
// border padding folded into each row's forward real FFT, and the rounding store folded into its inverse, so
// that VkFFT is left only the columns (one launch: transform, × the kernel's spectrum, transform back).
//
// Spectrum layout: [3][M + 1][NY] float2, NY contiguous: for each channel and row frequency k, the column of
// NY values VkFFT's 1-D convolution transforms (fft_plan.hpp, FftPlan::Layout::Columns). A row is nx = 2·M
// real samples (M a power of two, FFT_M, FFT_LOG2M = log2 M): the padded plane's row y, P(u, y) =
// in(u − radius, y − radius) with the border rule for u < width + 2·radius and y < height + 2·radius, else 0.
// The radius and the border mode are arguments (border_any.cl), so one program per row length serves every
// filter: a program costs PoCL seconds to build, and the build options name only FFT_M and FFT_LOG2M.
//
// One work-group: ROWS consecutive rows of one channel (the channel varies fastest over groups, so the three
// groups of the same rows read the same frame bytes, from L2), FFT_M / 4 work-items, each four points of
// every row. A row's real FFT is a complex FFT of M points z[n] = P(2n) + i·P(2n+1) (Stockham, radix 4, and
// one radix-2 pass first when log2 M is odd), then X[k] = Fe[k] + e^(−2πik/2M)·Fo[k] for k = 0..M, with
// Fe, Fo the spectra of the even and odd samples (split from Z[k] and conj Z[M − k]). The inverse undoes each
// step; its result is M × the row (the kernel's taps carry 1/M, fft.cpp). Twiddles come from `tw`, the host's
// double-precision table tw[t] = e^(−2πit/2M), t < 2M.

#include "border_any.cl"  // border_index_any

#define M FFT_M
#define Q (FFT_M / 4)
#define ROWS FFT_ROWS  // 2 or 4: a row frequency's values of the group's rows are one float4 or float8
#if ROWS == 4
#define ROWVEC float8
#define TO_ROWVEC(x) (float8)(x[0], x[1], x[2], x[3])
#else
#define ROWVEC float4
#define TO_ROWVEC(x) (float4)(x[0], x[1])
#endif
// Local rows are padded by one float2 every 16: the Stockham passes' first writes (4j + q) and the span-4
// pass's (16·(j/4) + j%4 + 4q) would otherwise fall 8 to a bank (float2: 16 lanes a phase).
#define PAD(i) ((i) + ((i) >> 4))
#define BUF_LEN (M + M / 16 + 1)

inline float2 cmul(float2 a, float2 b) {
  return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

inline float2 conj2(float2 a) {
  return (float2)(a.x, -a.y);
}

// e^(∓2πi·t/M): the stage twiddles (sign −1 forward, +1 inverse).
inline float2 stage_twiddle(__global const float2* tw, int t, float sign) {
  const float2 w = tw[2 * t];
  return (float2)(w.x, -sign * w.y);
}

// One radix-4 butterfly in place: y_q = Σ_m a_m·(sign·i)^(m·q).
inline void butterfly4(float2* a, float sign) {
  const float2 t0 = a[0] + a[2], t1 = a[0] - a[2], t2 = a[1] + a[3], d = a[1] - a[3];
  const float2 t3 = sign * (float2)(-d.y, d.x);  // sign·i·d
  a[0] = t0 + t2;
  a[1] = t1 + t3;
  a[2] = t0 - t2;
  a[3] = t1 - t3;
}

// The first pass from registers: v[r][m] = z[j + m·Q] of row r, written to buf in Stockham order.
inline void first_pass(__local float2 (*buf)[BUF_LEN], float2 (*v)[4], int j, float sign) {
  for (int r = 0; r < ROWS; ++r) {
#if FFT_LOG2M % 2
    // radix 2, span 1: butterflies b = j (z[j], z[j + M/2]) and b = j + Q (z[j + Q], z[j + 3Q])
    buf[r][PAD(2 * j)] = v[r][0] + v[r][2];
    buf[r][PAD(2 * j + 1)] = v[r][0] - v[r][2];
    buf[r][PAD(2 * (j + Q))] = v[r][1] + v[r][3];
    buf[r][PAD(2 * (j + Q) + 1)] = v[r][1] - v[r][3];
#else
    float2 a[4] = {v[r][0], v[r][1], v[r][2], v[r][3]};
    butterfly4(a, sign);
    for (int q = 0; q < 4; ++q) buf[r][PAD(4 * j + q)] = a[q];
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// The remaining radix-4 passes, in local memory; buf holds the ROWS transforms in natural order afterwards.
inline void radix4_passes(__local float2 (*buf)[BUF_LEN], __global const float2* tw, int j, float sign) {
#if FFT_LOG2M % 2
  int ns = 2;
#else
  int ns = 4;
#endif
  for (; ns < M; ns *= 4) {
    float2 a[ROWS][4];
    for (int r = 0; r < ROWS; ++r)
      for (int m = 0; m < 4; ++m) a[r][m] = buf[r][PAD(j + m * Q)];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int k = j % ns, step = k * (M / (4 * ns));
    const int base = (j / ns) * 4 * ns + k;
    float2 w[4];
    w[0] = (float2)(1.0f, 0.0f);
    for (int m = 1; m < 4; ++m) w[m] = stage_twiddle(tw, m * step, sign);
    for (int r = 0; r < ROWS; ++r) {
      for (int m = 1; m < 4; ++m) a[r][m] = cmul(a[r][m], w[m]);
      butterfly4(a[r], sign);
      for (int q = 0; q < 4; ++q) buf[r][PAD(base + q * ns)] = a[r][q];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// Sample u of the padded row whose frame row is `by` (border_index_any's, −1: a constant-border row), channel
// c: the frame's byte with the border rule, or 0 past the padding.
inline float padded_sample(__global const uchar* src, int u, int by, int c, int width, int radius,
                           int border_mode, float border) {
  if (u >= width + 2 * radius) return 0.0f;
  const int bx = border_index_any(u - radius, width, border_mode);
  if (bx < 0 || by < 0) return border;  // BORDER_CONSTANT outside the frame
  return (float)src[((size_t)by * width + bx) * 3 + c];
}

// The spectrum of rows y0..y0 + 3 of channel c (get_group_id(1) = row group · 3 + c), ny a multiple of 4, so
// that a row frequency's four values are one aligned 32-byte store (rows past the padded frame are zero).
// `from_taps` != 0: the rows come from `taps`, a real plane [3][ny][2M] (the kernel's taps at their wrapped
// positions, fft_taps), not from the frame.
__kernel __attribute__((reqd_work_group_size(Q, 1, 1))) void fft_rows_forward(
    __global const uchar* src, __global const float* taps, int from_taps, __global float2* spectrum,
    __global const float2* tw, int width, int height, int ny, int radius, int border_mode,
    float4 border_value) {
  __local float2 buf[ROWS][BUF_LEN];
  const int j = get_local_id(0);
  const int c = get_group_id(1) % 3, y0 = (get_group_id(1) / 3) * ROWS;
  const float border = c == 0 ? border_value.x : c == 1 ? border_value.y : border_value.z;
  float2 v[ROWS][4];
  for (int r = 0; r < ROWS; ++r) {
    const int y = y0 + r;
    if (from_taps) {
      for (int m = 0; m < 4; ++m)
        v[r][m] = vload2(0, taps + ((size_t)c * ny + y) * (2 * M) + 2 * (j + m * Q));
    } else if (y >= height + 2 * radius) {
      for (int m = 0; m < 4; ++m) v[r][m] = (float2)(0.0f);
    } else {
      const int by = border_index_any(y - radius, height, border_mode);
      for (int m = 0; m < 4; ++m) {
        const int u = 2 * (j + m * Q);
        v[r][m] = (float2)(padded_sample(src, u, by, c, width, radius, border_mode, border),
                           padded_sample(src, u + 1, by, c, width, radius, border_mode, border));
      }
    }
  }
  first_pass(buf, v, j, -1.0f);
  radix4_passes(buf, tw, j, -1.0f);
  // X[k] from Z[k] and conj Z[M − k]; k = j + m·Q, and k = M (work-item 0). The four rows' X[k] are adjacent.
  __global float2* out = spectrum + (size_t)c * (M + 1) * ny + y0;
  for (int m = 0; m < 4; ++m) {
    const int k = j + m * Q;
    const float2 t = tw[k];
    float2 x[ROWS];
    for (int r = 0; r < ROWS; ++r) {
      const float2 zk = buf[r][PAD(k)], zc = conj2(buf[r][PAD((M - k) & (M - 1))]);
      const float2 fe = 0.5f * (zk + zc), d = 0.5f * (zk - zc);
      x[r] = fe + cmul(t, (float2)(d.y, -d.x));  // Fe + e^(−2πik/2M)·(−i·d)
    }
    *(__global ROWVEC*)(out + (size_t)k * ny) = TO_ROWVEC(x);
  }
  if (j == 0) {
    float2 x[ROWS];
    for (int r = 0; r < ROWS; ++r) x[r] = (float2)(buf[r][0].x - buf[r][0].y, 0.0f);
    *(__global ROWVEC*)(out + (size_t)M * ny) = TO_ROWVEC(x);
  }
}

// Output rows y0.. (< height) of channel c: each row's inverse real FFT of its M + 1 frequencies, plus the
// channel's offset, rounded half to even and saturated (as fft.cl's fft_crop), at columns 0..width − 1.
__kernel __attribute__((reqd_work_group_size(Q, 1, 1))) void fft_rows_inverse(__global const float2* spectrum,
                                                                              __global uchar* dst,
                                                                              __global const float2* tw,
                                                                              int width, int height, int ny,
                                                                              float4 offset) {
  __local float2 buf[ROWS][BUF_LEN];
  const int j = get_local_id(0);
  const int c = get_group_id(1) % 3, y0 = (get_group_id(1) / 3) * ROWS;
  const float off = c == 0 ? offset.x : c == 1 ? offset.y : offset.z;
  // Rows past the frame (up to y0 + ROWS − 1 < ny) are read and transformed too, not stored: uniform barriers.
  __global const float2* in = spectrum + (size_t)c * (M + 1) * ny + y0;
  for (int m = 0; m < 4; ++m) {
    const int k = j + m * Q;
    const ROWVEC xs = *(__global const ROWVEC*)(in + (size_t)k * ny);
    for (int r = 0; r < ROWS; ++r) buf[r][PAD(k)] = vload2(r, (const float*)&xs);
  }
  if (j == 0) {
    const ROWVEC xs = *(__global const ROWVEC*)(in + (size_t)M * ny);
    for (int r = 0; r < ROWS; ++r) buf[r][PAD(M)] = vload2(r, (const float*)&xs);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Z[k] = Fe + i·Fo, Fe = (X[k] + conj X[M − k]) / 2, Fo = (X[k] − conj X[M − k]) / 2 · e^(+2πik/2M).
  float2 v[ROWS][4];
  for (int r = 0; r < ROWS; ++r)
    for (int m = 0; m < 4; ++m) {
      const int k = j + m * Q;
      const float2 xk = buf[r][PAD(k)], xc = conj2(buf[r][PAD(M - k)]);
      const float2 fe = 0.5f * (xk + xc), fo = cmul(0.5f * (xk - xc), conj2(tw[k]));
      v[r][m] = (float2)(fe.x - fo.y, fe.y + fo.x);
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  first_pass(buf, v, j, 1.0f);
  radix4_passes(buf, tw, j, 1.0f);
  for (int r = 0; r < ROWS; ++r) {
    const int y = y0 + r;
    if (y >= height) break;
    __global uchar* row = dst + (size_t)y * width * 3 + c;
    for (int x = j; x < width; x += Q) {
      const float2 z = buf[r][PAD(x >> 1)];
      const float value = ((x & 1) ? z.y : z.x) + off;
      // As fft_crop: clamped to 0..255, value + 1.5·2^23 rounds to nearest even; its low byte is the result.
      row[(size_t)x * 3] = (uchar)(as_uint(clamp(value, 0.0f, 255.0f) + 12582912.0f) & 0xFFu);
    }
  }
}
