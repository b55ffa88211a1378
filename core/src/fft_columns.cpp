// SPDX-License-Identifier: MIT
#include "fft_columns.hpp"

#include <cmath>
#include <cstdint>
#include <numbers>

#include "convolab/error.hpp"
#include "fft_plan.hpp"
#include "strategy_support.hpp"

namespace convolab {
namespace {

/// Whether `cols` columns of n1 · n2 rows fit one of fft_columns_local.cl's work-groups: their rows of
/// n2 + 1 in local memory, cols · n2 work-items.
bool localGroupFits(const DeviceInfo& dev, int n1, int n2, int cols) {
  const std::uint64_t local = dev.localMemBytes ? dev.localMemBytes : 32768;
  const std::size_t group = dev.maxWorkGroupSize ? dev.maxWorkGroupSize : 256;
  return static_cast<std::uint64_t>(n1) * (n2 + 1) * cols * 8 + 1024 <= local &&  // 1 KB for the driver
         static_cast<std::size_t>(cols) * n2 <= group;
}

/// -D options of one of fft_columns_local.cl's small transforms (x: 1 or 2): its passes' radices and
/// lengths.
std::string localPasses(int x, int n) {
  const std::vector<int> radices = fftColumnRadices(n);
  const std::string p = std::to_string(x);
  std::string out =
      " -DN" + p + "=" + std::to_string(n) + " -DR" + p + "_STAGES=" + std::to_string(radices.size());
  int len = n;
  for (std::size_t i = 0; i < radices.size(); ++i) {
    out += " -DR" + p + "_" + std::to_string(i) + "=" + std::to_string(radices[i]) + " -DL" + p + "_" +
           std::to_string(i) + "=" + std::to_string(len);
    len /= radices[i];
  }
  return out;
}

}  // namespace

std::vector<int> fftColumnRadices(int n) {
  std::vector<int> radices;
  while (n % 4 == 0) radices.push_back(4), n /= 4;
  if (n % 2 == 0) radices.push_back(2), n /= 2;
  while (n % 3 == 0) radices.push_back(3), n /= 3;
  if (n != 1) radices.clear();
  return radices;
}

std::pair<int, int> fftLocalSplit(int ny) {
  int n1 = 1;
  for (int d = 1; d * d <= ny; ++d)
    if (ny % d == 0) n1 = d;
  return {n1, ny / n1};
}

int fftLocalColumns(const DeviceInfo& dev, int ny) {
  const auto [n1, n2] = fftLocalSplit(ny);
  if (const long asked = fftTuning("columnsPerGroup", 0);
      asked > 0 && localGroupFits(dev, n1, n2, static_cast<int>(asked)))
    return static_cast<int>(asked);
  for (int cols = 8; cols >= 1; cols /= 2)
    if (localGroupFits(dev, n1, n2, cols)) return cols;
  return 0;
}

bool fftLocalColumnsFit(const DeviceInfo& dev, int ny) {
  return !fftColumnRadices(ny).empty() && fftLocalColumns(dev, ny) > 0 &&
         (!dev.constantBufferBytes || static_cast<std::uint64_t>(ny) * 8 <= dev.constantBufferBytes);
}

int fftFullWidthColumnRows(const DeviceInfo& dev) {
  int best = 0;
  for (int twos = 2; twos <= 8192;
       twos *= 2)  // every even 2^a·3^b up to 8192 (some 60), not every even number
    for (int ny = twos; ny <= 8192; ny *= 3) {
      const auto [n1, n2] = fftLocalSplit(ny);
      if (ny > best && localGroupFits(dev, n1, n2, 8)) best = ny;
    }
  return best;
}

void FftColumns::build(Context& ctx, int nx, int ny, bool local) {
  const std::vector<int> radices = fftColumnRadices(ny);
  if (radices.empty())
    throw Error(ErrorKind::Device, "fft: no column transform for " + std::to_string(ny) + " rows");
  // fft_columns.cl's float16 loads: rows of whole, 64-byte aligned groups of eight complex values
  // (CONVOLAB_FFT_TUNING's align could break that; the default 16 keeps it).
  if (!local && FftPlan::rowFloats(nx) % 16 != 0)
    throw Error(ErrorKind::Device, "fft: the columns path needs rows of whole groups of 8 complex values");
  const DeviceInfo& dev = ctx.device();
  if (local && !fftLocalColumnsFit(dev, ny))
    throw Error(ErrorKind::Device, "fft: columns of " + std::to_string(ny) + " rows do not fit local memory");
  const int cols = local ? fftLocalColumns(dev, ny) : 8;
  std::string options = "-DBORDER_MODE=BORDER_REFLECT101 -DFFT_NY=" + std::to_string(ny);
  if (local) {
    const auto [n1, n2] = fftLocalSplit(ny);
    options += localPasses(1, n1) + localPasses(2, n2) + " -DCOLS=" + std::to_string(cols);
  } else {
    std::string list;
    for (int r : radices) list += (list.empty() ? "" : ",") + std::to_string(r);
    options += " -DFFT_STAGES=" + std::to_string(radices.size()) + " -DFFT_RADICES=" + list;
  }
  if (options == m_options && ctx.context()() == m_context) return;
  const char* source = local ? "fft_columns_local" : "fft_columns";
  const cl::Program program = ctx.buildKernelProgram(source, options);
  m_kernel = cl::Kernel(program, source);
  m_localColumns = local ? cols : 0;
  m_localRows = fftLocalSplit(ny).second;
  std::vector<float> table(static_cast<std::size_t>(2 * ny));  // e^(−2πit/ny), t < ny, as (re, im)
  for (int t = 0; t < ny; ++t) {
    const double angle = -2.0 * std::numbers::pi * t / ny;
    table[2 * t] = static_cast<float>(std::cos(angle));
    table[2 * t + 1] = static_cast<float>(std::sin(angle));
  }
  uploadFloats(ctx, m_twiddles, table);
  m_options = options;
  m_context = ctx.context()();
}

NamedEvent FftColumns::launch(Context& ctx, const cl::Buffer& buffer, const cl::Buffer& spectrum, int nx,
                              int rowFloats, int planes, bool withKernel, const std::string& name) {
  const cl_int columns = nx / 2 + 1, rs = rowFloats;
  const cl_int with = withKernel ? 1 : 0;
  if (const int cols = m_localColumns; cols > 0) {  // fft_columns_local.cl: rows of rs/2 complex
    setArgs(m_kernel, buffer, spectrum, m_twiddles, m_twiddles, rs / 2, columns, with);
    const std::size_t groups = (static_cast<std::size_t>(columns) + cols - 1) / cols;
    const auto threads = static_cast<std::size_t>(m_localRows);  // n2 a column
    return launch2d(ctx, m_kernel, name,
                    cl::NDRange(groups * cols, threads, static_cast<std::size_t>(planes)),
                    cl::NDRange(static_cast<std::size_t>(cols), threads, 1), {});
  }
  setArgs(m_kernel, buffer, spectrum, m_twiddles, rs, columns, with);
  const std::size_t groups = (static_cast<std::size_t>(columns) + 7) / 8;
  // One work-item a group: left to itself PoCL made the whole range one work-group, one core's work.
  return launch2d(ctx, m_kernel, name, cl::NDRange(groups, static_cast<std::size_t>(planes)),
                  cl::NDRange(1, 1), {});
}

}  // namespace convolab
