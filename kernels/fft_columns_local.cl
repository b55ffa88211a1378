// SPDX-License-Identifier: MIT
// fft_columns_local.cl — the fft strategy's own column pass on GPUs (its "columns" path there,
// core/src/strategies/fft.cpp): between VkFFT's row transforms (1-D real-to-complex, forward and inverse), each
// column of the rows' half spectra is transformed, multiplied by the kernel's spectrum and transformed back, in
// place: fft_columns.cl's arithmetic (the same passes, the same digit-reversed order between them), shaped for a
// GPU. Why: VkFFT's 2-D convolution reads the kernel's spectrum from a copy per tile (its batches cannot share
// one), a third of its column pass's DRAM traffic; here every tile reads the one spectrum, which stays in L2.
//
// A work-group takes COLS adjacent columns of one plane (COLS × 8 bytes of each row: whole 32-byte sectors) into
// local memory, TPC work-items a column; the passes run there, a barrier between passes. Planes:
// [planes][FFT_NY][rs2] complex values (rs2 = FftPlan::rowFloats / 2); the kernel's spectrum the same for three
// planes (R, G, B), shared by every tile: plane p uses p % 3.
//
// The transform: in-place mixed radix (FFT_RADICES, 2, 3 or 4, their product FFT_NY), decimation in frequency
// forward (natural order in, digit-reversed out), the product in that order, decimation in time inverse
// (digit-reversed in, natural out), not normalised (FFT_NY × the convolution along the columns; the taps carry
// the scale, fft.cpp). Twiddles from `tw`, the host's double-precision table tw[t] = e^(−2πit/FFT_NY).

__constant int kRadices[FFT_STAGES] = {FFT_RADICES};

inline float2 cmul(float2 a, float2 b) {
  return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// v · (sign·i)
inline float2 times_i(float2 v, float sign) {
  return (float2)(-v.y * sign, v.x * sign);
}

// The r-point DFTs, y_q = Σ_m a_m·e^(sign·2πi·mq/r), in place (fft_columns.cl's, one column).
inline void dft2(float2* a) {
  const float2 t = a[0];
  a[0] = t + a[1];
  a[1] = t - a[1];
}

inline void dft3(float2* a, float sign) {
  const float2 t = a[1] + a[2], d = times_i(a[1] - a[2], sign) * 0.86602540378443865f;
  const float2 m = a[0] - 0.5f * t;
  a[0] = a[0] + t;
  a[1] = m + d;
  a[2] = m - d;
}

inline void dft4(float2* a, float sign) {
  const float2 t0 = a[0] + a[2], t1 = a[0] - a[2], t2 = a[1] + a[3], t3 = times_i(a[1] - a[3], sign);
  a[0] = t0 + t2;
  a[1] = t1 + t3;
  a[2] = t0 - t2;
  a[3] = t1 - t3;
}

// Row y of this work-item's column in local memory.
#define AT(y) lm[(y) * COLS + c]

// One pass of radix R over sub-transforms of `len` points: the column's FFT_NY / R butterflies shared by its TPC
// work-items. Forward (decimation in frequency): the DFT, then the twiddles e^(−2πi·jq/len); inverse
// (decimation in time): the conjugate twiddles, then the DFT.
#define DEFINE_PASSES(R, DFT)                                                                            \
  inline void forward##R(__local float2* lm, int c, int t, __global const float2* tw, int len) {         \
    const int m = len / R, step = FFT_NY / len;                                                          \
    for (int bf = t; bf < FFT_NY / R; bf += TPC) {                                                       \
      const int j = bf % m, base = (bf / m) * len + j;                                                   \
      float2 a[R];                                                                                       \
      for (int k = 0; k < R; ++k) a[k] = AT(base + k * m);                                               \
      DFT(a, -1.0f);                                                                                     \
      AT(base) = a[0];                                                                                   \
      for (int q = 1; q < R; ++q) AT(base + q * m) = cmul(a[q], tw[j * q * step]);                       \
    }                                                                                                    \
  }                                                                                                      \
  inline void inverse##R(__local float2* lm, int c, int t, __global const float2* tw, int len) {         \
    const int m = len / R, step = FFT_NY / len;                                                          \
    for (int bf = t; bf < FFT_NY / R; bf += TPC) {                                                       \
      const int j = bf % m, base = (bf / m) * len + j;                                                   \
      float2 a[R];                                                                                       \
      a[0] = AT(base);                                                                                   \
      for (int q = 1; q < R; ++q) {                                                                      \
        const float2 w = tw[j * q * step];                                                               \
        a[q] = cmul(AT(base + q * m), (float2)(w.x, -w.y));                                              \
      }                                                                                                  \
      DFT(a, 1.0f);                                                                                      \
      for (int k = 0; k < R; ++k) AT(base + k * m) = a[k];                                               \
    }                                                                                                    \
  }

#define DFT2(a, sign) dft2(a)
DEFINE_PASSES(2, DFT2)
DEFINE_PASSES(3, dft3)
DEFINE_PASSES(4, dft4)

// Columns COLS·g .. COLS·g + COLS − 1 (g: group 0) of plane p (dimension 2); `columns` the half spectrum's
// nx/2 + 1 (work-items past it load zeros and store nothing). with_kernel != 0: forward, × the kernel's spectrum
// (plane p % 3), inverse (a frame); 0: forward only (making that spectrum).
__kernel __attribute__((reqd_work_group_size(COLS, TPC, 1))) void fft_columns_local(
    __global float2* planes, __global const float2* spectrum, __global const float2* tw, int rs2, int columns,
    int with_kernel) {
  __local float2 lm[FFT_NY * COLS];
  const int c = get_local_id(0), t = get_local_id(1), x = get_group_id(0) * COLS + c, p = get_group_id(2);
  const bool active = x < columns;
  __global float2* col = planes + (size_t)p * FFT_NY * rs2 + x;
  for (int y = t; y < FFT_NY; y += TPC) AT(y) = active ? col[(size_t)y * rs2] : (float2)(0.0f);
  barrier(CLK_LOCAL_MEM_FENCE);
  int len = FFT_NY;
#pragma unroll
  for (int s = 0; s < FFT_STAGES; ++s) {
    const int r = kRadices[s];
    if (r == 4)
      forward4(lm, c, t, tw, len);
    else if (r == 3)
      forward3(lm, c, t, tw, len);
    else
      forward2(lm, c, t, tw, len);
    len /= r;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (with_kernel) {
    __global const float2* k = spectrum + (size_t)(p % 3) * FFT_NY * rs2 + x;
    for (int y = t; y < FFT_NY; y += TPC) AT(y) = cmul(AT(y), active ? k[(size_t)y * rs2] : (float2)(0.0f));
    barrier(CLK_LOCAL_MEM_FENCE);
    len = 1;
#pragma unroll
    for (int s = FFT_STAGES - 1; s >= 0; --s) {
      const int r = kRadices[s];
      len *= r;
      if (r == 4)
        inverse4(lm, c, t, tw, len);
      else if (r == 3)
        inverse3(lm, c, t, tw, len);
      else
        inverse2(lm, c, t, tw, len);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  if (active)
    for (int y = t; y < FFT_NY; y += TPC) col[(size_t)y * rs2] = AT(y);
}
