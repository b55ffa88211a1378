// SPDX-License-Identifier: MIT
// FftColumns: the fft strategy's own column transforms on the columns path (VkFFT transforms the rows):
// forward, the product with the kernel's spectrum, inverse, in one launch. fft_columns_local.cl on GPUs (a
// work-group's columns in local memory, the four-step split ny = n1 · n2), fft_columns.cl on CPUs (eight
// columns a work-item). Here too the rules for which column heights a device takes.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <utility>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/strategy.hpp"

namespace convolab {

/// The column kernels' radices for n rows: fours first, then a two, then threes; empty if `n` has another
/// prime factor.
std::vector<int> fftColumnRadices(int n);

/// fft_columns_local.cl's four steps: ny = n1 · n2, n1 ≤ n2, n1 the largest such divisor (1080p K = 31's
/// 576 rows 24 × 24, K = 63's 1152 32 × 36).
std::pair<int, int> fftLocalSplit(int ny);

/// fft_columns_local.cl's columns a work-group for columns of ny rows: CONVOLAB_FFT_TUNING's
/// "columnsPerGroup" if it fits, else the most of 8, 4, 2, 1 whose rows fit in local memory (n1 · (n2 + 1)
/// complex values a column, 1 KB left to the driver) and whose work-items (n2 a column) in a work-group (8:
/// 64 bytes of a row, two 32-byte sectors; 1080p K = 31's 576 rows take 38 KB); 0 if none does.
int fftLocalColumns(const DeviceInfo& dev, int ny);

/// Whether fft_columns_local.cl takes columns of ny rows on this device at all (radices 2, 3, 4; a
/// work-group; the twiddles in constant memory).
bool fftLocalColumnsFit(const DeviceInfo& dev, int ny);

/// The tallest columns (2^a·3^b rows, up to 8192) fft_columns_local.cl takes eight at a time on this device:
/// the default grid's limit on a GPU (48 KB of local memory: 648 rows; four columns a work-group cost the
/// H100 9 % at 1080p K = 31, 108.3 µs against 99.6: docs/BENCHMARKS.md, 2026-12-06). 0 if none.
int fftFullWidthColumnRows(const DeviceInfo& dev);

class FftColumns {
 public:
  /// Builds the kernel and its twiddle table (double precision, rounded once) for columns of ny rows in
  /// rows of nx real samples; `local`: fft_columns_local.cl. Throws Error (the engine falls back, saying so)
  /// where the device or the rows cannot take it. Nothing is rebuilt for the same options and context.
  void build(Context& ctx, int nx, int ny, bool local);
  /// One launch over `planes` planes of `buffer` (rows of rowFloats floats, the half spectrum's nx/2 + 1
  /// columns): forward, × `spectrum` if withKernel, inverse; else only the forward (the kernel's own
  /// spectrum).
  NamedEvent launch(Context& ctx, const cl::Buffer& buffer, const cl::Buffer& spectrum, int nx, int rowFloats,
                    int planes, bool withKernel, const std::string& name);

 private:
  std::string m_options;
  cl_context m_context = nullptr;  // what m_kernel and m_twiddles were made for
  cl::Kernel m_kernel;
  cl::Buffer m_twiddles;   // e^(−2πit/ny), t < ny
  int m_localColumns = 0;  // fft_columns_local.cl's columns a work-group; 0: fft_columns.cl
  int m_localRows = 0;     // its n2: the work-items a column
};

}  // namespace convolab
