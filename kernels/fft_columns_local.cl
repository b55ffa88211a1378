// SPDX-License-Identifier: MIT
// fft_columns_local.cl — the fft strategy's own column pass on GPUs (its "columns" path there,
// core/src/strategies/fft.cpp): between VkFFT's row transforms (1-D real-to-complex, forward and inverse), each
// column of the rows' half spectra is transformed, multiplied by the kernel's spectrum and transformed back, in
// place. Why: VkFFT's 2-D convolution reads the kernel's spectrum from a copy per tile (its batches cannot share
// one), a third of its column pass's DRAM traffic; here every tile reads the one spectrum, which stays in L2.
//
// Each column of FFT_NY = N1·N2 values is a four-step transform held in registers: work-item n2 (of N2) loads
// x[n1·N2 + n2] for every n1 and takes their N1-point DFT, multiplies by e^(−2πi·n2·k1/FFT_NY) and writes them to
// local memory; work-item k1 (N1 of them) reads its N2 values back and takes their N2-point DFT: the spectrum,
// in the order the work-items hold it. The product with the kernel's spectrum is taken in that order (made by
// the same forward steps, with_kernel = 0, stored in that order), then the steps run backwards: the N2-point
// inverse in the same registers, the conjugate twiddles, local memory, the N1-point inverse, natural order out.
// Two exchanges through local memory a frame, no reordering pass. The small DFTs are fft_columns.cl's mixed
// radix (4, 2, 3) passes, decimation in frequency forward and in time inverse, unrolled by the compiler (sizes
// and radices are -D options), their twiddles uniform reads of `twc`. Not normalised: the result is FFT_NY ×
// the convolution along the columns (the taps carry the scale, fft.cpp).
//
// A work-group: COLS adjacent columns of one plane (COLS × 8 bytes of each row: whole 32-byte sectors), N2
// work-items a column. Planes: [planes][FFT_NY][rs2] complex values (rs2 = FftPlan::rowFloats / 2); the
// kernel's spectrum the same for three planes (R, G, B), shared by every tile: plane p uses p % 3. Options:
// FFT_NY, N1, N2, COLS; the radices and lengths of the N1- and N2-point passes, R1_i and L1_i (i < R1_STAGES),
// R2_i and L2_i (i < R2_STAGES), at most 6 passes each.

inline float2 cmul(float2 a, float2 b) {
  return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// a · conj(b)
inline float2 cmulc(float2 a, float2 b) {
  return (float2)(a.x * b.x + a.y * b.y, a.y * b.x - a.x * b.y);
}

// v · (sign·i)
inline float2 times_i(float2 v, float sign) {
  return (float2)(-v.y * sign, v.x * sign);
}

// The r-point DFT of a[i], a[i + m], ..., y_q = Σ_k a_k·e^(sign·2πi·kq/r), in place.
inline void dft(float2* a, int i, int m, int r, float sign) {
  if (r == 4) {
    const float2 t0 = a[i] + a[i + 2 * m], t1 = a[i] - a[i + 2 * m], t2 = a[i + m] + a[i + 3 * m],
                 t3 = times_i(a[i + m] - a[i + 3 * m], sign);
    a[i] = t0 + t2;
    a[i + m] = t1 + t3;
    a[i + 2 * m] = t0 - t2;
    a[i + 3 * m] = t1 - t3;
  } else if (r == 3) {
    const float2 t = a[i + m] + a[i + 2 * m], d = times_i(a[i + m] - a[i + 2 * m], sign) * 0.86602540378443865f;
    const float2 h = a[i] - 0.5f * t;
    a[i] = a[i] + t;
    a[i + m] = h + d;
    a[i + 2 * m] = h - d;
  } else {
    const float2 t = a[i];
    a[i] = t + a[i + m];
    a[i + m] = t - a[i + m];
  }
}

// One pass of radix R over the sub-transforms of LEN points of a[0 .. NS): forward (decimation in frequency) the
// DFT, then the twiddles e^(−2πi·jq/LEN); inverse (decimation in time) the conjugate twiddles, then the DFT.
// twc[t] = e^(−2πit/FFT_NY), so e^(−2πi·jq/LEN) = twc[jq·FFT_NY/LEN].
#define PASS_FORWARD(a, NS, R, LEN, twc)                                                          \
  _Pragma("unroll") for (int b = 0; b < (NS); b += (LEN))                                         \
  _Pragma("unroll") for (int j = 0; j < (LEN) / (R); ++j) {                                       \
    dft(a, b + j, (LEN) / (R), (R), -1.0f);                                                       \
    _Pragma("unroll") for (int q = 1; q < (R); ++q) a[b + j + q * ((LEN) / (R))] =                \
        cmul(a[b + j + q * ((LEN) / (R))], twc[j * q * (FFT_NY / (LEN))]);                        \
  }
#define PASS_INVERSE(a, NS, R, LEN, twc)                                                          \
  _Pragma("unroll") for (int b = 0; b < (NS); b += (LEN))                                         \
  _Pragma("unroll") for (int j = 0; j < (LEN) / (R); ++j) {                                       \
    _Pragma("unroll") for (int q = 1; q < (R); ++q) a[b + j + q * ((LEN) / (R))] =                \
        cmulc(a[b + j + q * ((LEN) / (R))], twc[j * q * (FFT_NY / (LEN))]);                       \
    dft(a, b + j, (LEN) / (R), (R), 1.0f);                                                        \
  }
// Pass i of the N1-point (X = 1) or N2-point (X = 2) transform.
#define FORWARD(a, X, i, twc) PASS_FORWARD(a, N##X, R##X##_##i, L##X##_##i, twc)
#define INVERSE(a, X, i, twc) PASS_INVERSE(a, N##X, R##X##_##i, L##X##_##i, twc)

// The N1-point transforms: natural order in, digit-reversed out (forward1); digit-reversed in, natural out,
// N1 × the result (inverse1).
inline void forward1(float2* a, __constant float2* twc) {
#if R1_STAGES > 0
  FORWARD(a, 1, 0, twc)
#endif
#if R1_STAGES > 1
  FORWARD(a, 1, 1, twc)
#endif
#if R1_STAGES > 2
  FORWARD(a, 1, 2, twc)
#endif
#if R1_STAGES > 3
  FORWARD(a, 1, 3, twc)
#endif
#if R1_STAGES > 4
  FORWARD(a, 1, 4, twc)
#endif
#if R1_STAGES > 5
  FORWARD(a, 1, 5, twc)
#endif
}

inline void inverse1(float2* a, __constant float2* twc) {
#if R1_STAGES > 5
  INVERSE(a, 1, 5, twc)
#endif
#if R1_STAGES > 4
  INVERSE(a, 1, 4, twc)
#endif
#if R1_STAGES > 3
  INVERSE(a, 1, 3, twc)
#endif
#if R1_STAGES > 2
  INVERSE(a, 1, 2, twc)
#endif
#if R1_STAGES > 1
  INVERSE(a, 1, 1, twc)
#endif
#if R1_STAGES > 0
  INVERSE(a, 1, 0, twc)
#endif
}

// The same for N2.
inline void forward2(float2* a, __constant float2* twc) {
#if R2_STAGES > 0
  FORWARD(a, 2, 0, twc)
#endif
#if R2_STAGES > 1
  FORWARD(a, 2, 1, twc)
#endif
#if R2_STAGES > 2
  FORWARD(a, 2, 2, twc)
#endif
#if R2_STAGES > 3
  FORWARD(a, 2, 3, twc)
#endif
#if R2_STAGES > 4
  FORWARD(a, 2, 4, twc)
#endif
#if R2_STAGES > 5
  FORWARD(a, 2, 5, twc)
#endif
}

inline void inverse2(float2* a, __constant float2* twc) {
#if R2_STAGES > 5
  INVERSE(a, 2, 5, twc)
#endif
#if R2_STAGES > 4
  INVERSE(a, 2, 4, twc)
#endif
#if R2_STAGES > 3
  INVERSE(a, 2, 3, twc)
#endif
#if R2_STAGES > 2
  INVERSE(a, 2, 2, twc)
#endif
#if R2_STAGES > 1
  INVERSE(a, 2, 1, twc)
#endif
#if R2_STAGES > 0
  INVERSE(a, 2, 0, twc)
#endif
}

// The frequency k1 that slot s of forward1's output holds: digit q_i = (s / (L1_i / R1_i)) % R1_i of pass i,
// k1 = q_0 + R1_0·(q_1 + R1_1·(q_2 + ...)).
inline int frequency1(int s) {
  int k = 0, w = 1;
#if R1_STAGES > 0
  k += (s / (L1_0 / R1_0)) % R1_0 * w, w *= R1_0;
#endif
#if R1_STAGES > 1
  k += (s / (L1_1 / R1_1)) % R1_1 * w, w *= R1_1;
#endif
#if R1_STAGES > 2
  k += (s / (L1_2 / R1_2)) % R1_2 * w, w *= R1_2;
#endif
#if R1_STAGES > 3
  k += (s / (L1_3 / R1_3)) % R1_3 * w, w *= R1_3;
#endif
#if R1_STAGES > 4
  k += (s / (L1_4 / R1_4)) % R1_4 * w, w *= R1_4;
#endif
#if R1_STAGES > 5
  k += (s / (L1_5 / R1_5)) % R1_5 * w, w *= R1_5;
#endif
  return k;
}

// Slot s (of N1), value n2 (of N2) of column c in local memory; rows of N2 + 1 keep a warp's reads of one
// slot from landing on the same banks.
#define LM(s, n2) lm[((s) * (N2 + 1) + (n2)) * COLS + c]

// Columns COLS·g .. COLS·g + COLS − 1 (g: group 0) of plane p (group 2); `columns` the half spectrum's nx/2 + 1
// (work-items past it load zeros and store nothing). with_kernel != 0: forward, × the kernel's spectrum (plane
// p % 3), inverse (a frame); 0: forward only, stored in the work-items' order (making that spectrum). twc and
// tw are the same table: twc for the reads every work-item makes alike, tw for the ones that differ.
__kernel __attribute__((reqd_work_group_size(COLS, N2, 1))) void fft_columns_local(
    __global float2* planes, __global const float2* spectrum, __constant float2* twc, __global const float2* tw,
    int rs2, int columns, int with_kernel) {
  __local float2 lm[N1 * (N2 + 1) * COLS];
  const int c = get_local_id(0), t = get_local_id(1), x = get_group_id(0) * COLS + c, p = get_group_id(2);
  const bool active = x < columns;
  __global float2* col = planes + (size_t)p * FFT_NY * rs2 + x;
  float2 a[N2];  // N1 ≤ N2
  // Step 1, work-item t = n2: the N1-point DFT over n1, the twiddles e^(−2πi·n2·k1/FFT_NY).
#pragma unroll
  for (int n1 = 0; n1 < N1; ++n1) a[n1] = active ? col[(size_t)(n1 * N2 + t) * rs2] : (float2)(0.0f);
  forward1(a, twc);
#pragma unroll
  for (int s = 0; s < N1; ++s) LM(s, t) = cmul(a[s], tw[t * frequency1(s)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  // Step 2, work-item t = slot s (N1 of the N2 busy): the N2-point DFT over n2.
  if (t < N1) {
#pragma unroll
    for (int n2 = 0; n2 < N2; ++n2) a[n2] = LM(t, n2);
    forward2(a, twc);
    if (!with_kernel) {
      if (active)
#pragma unroll
        for (int u = 0; u < N2; ++u) col[(size_t)(t * N2 + u) * rs2] = a[u];
    } else {
      __global const float2* k = spectrum + (size_t)(p % 3) * FFT_NY * rs2 + x;
#pragma unroll
      for (int u = 0; u < N2; ++u) a[u] = cmul(a[u], active ? k[(size_t)(t * N2 + u) * rs2] : (float2)(0.0f));
      inverse2(a, twc);
      const int k1 = frequency1(t);
#pragma unroll
      for (int n2 = 0; n2 < N2; ++n2) LM(t, n2) = cmulc(a[n2], tw[n2 * k1]);
    }
  }
  if (!with_kernel) return;  // the same for the whole launch
  barrier(CLK_LOCAL_MEM_FENCE);
  // Step 3, work-item t = n2: the N1-point inverse over the slots, natural order out.
#pragma unroll
  for (int s = 0; s < N1; ++s) a[s] = LM(s, t);
  inverse1(a, twc);
  if (active)
#pragma unroll
    for (int n1 = 0; n1 < N1; ++n1) col[(size_t)(n1 * N2 + t) * rs2] = a[n1];
}
