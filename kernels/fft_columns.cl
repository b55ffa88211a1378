// SPDX-License-Identifier: MIT
// fft_columns.cl — the fft strategy's own column pass on CPUs (its "columns" path, core/src/strategies/fft.cpp):
// between VkFFT's row transforms (1-D real-to-complex, forward and inverse), each column of the rows' half
// spectra is transformed, multiplied by the kernel's spectrum and transformed back, in place. Written for a
// CPU: a work-item takes eight adjacent columns as one float16 of interleaved (re, im) pairs (one AVX-512
// register), so every step is a vector operation without relying on PoCL vectorising across work-items, and its eight columns (FFT_NY × 64 bytes, 37 KB at 576 rows) stay in the core's caches
// through all the passes. VkFFT's column pass, GPU-shaped kernels, took half of PoCL's frame (docs/BENCHMARKS.md).
//
// Planes: [planes][FFT_NY][rs] floats, rows of rs/2 complex values (a multiple of 8, FftPlan::rowFloats); the
// kernel's spectrum the same for three planes (R, G, B), shared by every tile: plane p uses p % 3.
//
// The transform: in-place mixed radix (FFT_RADICES, 2, 3 or 4, their product FFT_NY), decimation in frequency
// forward (natural order in, digit-reversed out), the product taken in that order (the kernel's spectrum was
// made by the same forward passes), and decimation in time inverse (the forward's passes mirrored, digit-reversed
// in, natural out): no reordering pass at all. The inverse is not normalised: the result is FFT_NY × the
// convolution along the columns (the taps carry the scale, fft.cpp). Twiddles come from `tw`, the host's
// double-precision table tw[t] = e^(−2πit/FFT_NY).

__constant int kRadices[FFT_STAGES] = {FFT_RADICES};

// (re, im) pairs swapped: v·i and the twiddle products are a swap and a multiply.
inline float16 cswap(float16 v) {
  return v.s1032547698badcfe;
}

#define SIGN_NP ((float16)(-1.0f, 1.0f, -1.0f, 1.0f, -1.0f, 1.0f, -1.0f, 1.0f, -1.0f, 1.0f, -1.0f, 1.0f, -1.0f, 1.0f, -1.0f, 1.0f))

// v · (sign·i)
inline float16 times_i(float16 v, float sign) {
  return cswap(v) * (SIGN_NP * sign);
}

// v · w, w one complex number for all eight columns
inline float16 twiddle(float16 v, float2 w) {
  return v * w.x + cswap(v) * (SIGN_NP * w.y);
}

// The r-point DFTs, y_q = Σ_m a_m·e^(sign·2πi·mq/r), in place.
inline void dft2(float16* a) {
  const float16 t = a[0];
  a[0] = t + a[1];
  a[1] = t - a[1];
}

inline void dft3(float16* a, float sign) {
  const float16 t = a[1] + a[2], d = times_i(a[1] - a[2], sign) * 0.86602540378443865f;
  const float16 m = a[0] - 0.5f * t;
  a[0] = a[0] + t;
  a[1] = m + d;
  a[2] = m - d;
}

inline void dft4(float16* a, float sign) {
  const float16 t0 = a[0] + a[2], t1 = a[0] - a[2], t2 = a[1] + a[3], t3 = times_i(a[1] - a[3], sign);
  a[0] = t0 + t2;
  a[1] = t1 + t3;
  a[2] = t0 - t2;
  a[3] = t1 - t3;
}

// Row y of the eight columns.
#define AT(col, y) (*(__global float16*)((col) + (size_t)(y) * rs))

// One pass of radix R over sub-transforms of `len` points (m = len / R of them interleaved), written once per
// radix so that the butterflies and their arrays are fixed-size code. Forward (decimation in frequency): the
// DFT, then the twiddles e^(−2πi·jq/len); inverse (decimation in time): the conjugate twiddles, then the DFT.
#define DEFINE_PASSES(R, DFT)                                                                    \
  inline void forward##R(__global float* col, int rs, __global const float2* tw, int len) {      \
    const int m = len / R, step = FFT_NY / len;                                                  \
    for (int b = 0; b < FFT_NY; b += len)                                                        \
      for (int j = 0; j < m; ++j) {                                                              \
        float16 a[R];                                                                            \
        for (int k = 0; k < R; ++k) a[k] = AT(col, b + j + k * m);                               \
        DFT(a, -1.0f);                                                                           \
        AT(col, b + j) = a[0];                                                                   \
        for (int q = 1; q < R; ++q) AT(col, b + j + q * m) = twiddle(a[q], tw[j * q * step]);   \
      }                                                                                          \
  }                                                                                              \
  inline void inverse##R(__global float* col, int rs, __global const float2* tw, int len) {      \
    const int m = len / R, step = FFT_NY / len;                                                  \
    for (int b = 0; b < FFT_NY; b += len)                                                        \
      for (int j = 0; j < m; ++j) {                                                              \
        float16 a[R];                                                                            \
        a[0] = AT(col, b + j);                                                                   \
        for (int q = 1; q < R; ++q) {                                                            \
          const float2 w = tw[j * q * step];                                                     \
          a[q] = twiddle(AT(col, b + j + q * m), (float2)(w.x, -w.y));                           \
        }                                                                                        \
        DFT(a, 1.0f);                                                                            \
        for (int k = 0; k < R; ++k) AT(col, b + j + k * m) = a[k];                               \
      }                                                                                          \
  }

#define DFT2(a, sign) dft2(a)
DEFINE_PASSES(2, DFT2)
DEFINE_PASSES(3, dft3)
DEFINE_PASSES(4, dft4)

// Decimation in frequency, in place: natural order in, digit-reversed out.
inline void forward(__global float* col, int rs, __global const float2* tw) {
  int len = FFT_NY;
  for (int s = 0; s < FFT_STAGES; ++s) {
    const int r = kRadices[s];
    if (r == 4)
      forward4(col, rs, tw, len);
    else if (r == 3)
      forward3(col, rs, tw, len);
    else
      forward2(col, rs, tw, len);
    len /= r;
  }
}

// The forward's passes mirrored (decimation in time): digit-reversed in, natural order out, FFT_NY × the result.
inline void inverse(__global float* col, int rs, __global const float2* tw) {
  int len = 1;
  for (int s = FFT_STAGES - 1; s >= 0; --s) {
    const int r = kRadices[s];
    len *= r;
    if (r == 4)
      inverse4(col, rs, tw, len);
    else if (r == 3)
      inverse3(col, rs, tw, len);
    else
      inverse2(col, rs, tw, len);
  }
}

// Columns 8·x .. 8·x + 7 of plane p (dimension 1); `columns` the half spectrum's nx/2 + 1. with_kernel != 0:
// forward, × the kernel's spectrum (plane p % 3), inverse (a frame); 0: forward only (making that spectrum).
__kernel void fft_columns(__global float* planes, __global const float* spectrum, __global const float2* tw,
                          int rs, int columns, int with_kernel) {
  const int x = get_global_id(0) * 8, p = get_global_id(1);
  if (x >= columns) return;
  __global float* col = planes + (size_t)p * FFT_NY * rs + 2 * x;
  forward(col, rs, tw);
  if (!with_kernel) return;
  __global const float* k = spectrum + (size_t)(p % 3) * FFT_NY * rs + 2 * x;
  for (int y = 0; y < FFT_NY; ++y) {
    const float16 v = AT(col, y), g = *(__global const float16*)(k + (size_t)y * rs);
    // (a + ib)(c + id) = (ac − bd) + i(ad + bc)
    AT(col, y) = v * g.s0022446688aaccee + cswap(v) * (SIGN_NP * g.s1133557799bbddff);
  }
  inverse(col, rs, tw);
}
