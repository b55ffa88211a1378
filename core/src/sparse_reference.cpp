// SPDX-License-Identifier: MIT
// SparseReference: plan the pixels each step needs (backwards), then evaluate them (forwards) with
// referenceChain's arithmetic, on packed double planes that hold the border value in one extra column and
// row.
#include "convolab/sparse_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>

#include "convolab/border.hpp"
#include "convolab/error.hpp"
#include "convolab/saturate_round.hpp"

namespace convolab {
namespace {

// A step costs this many multiply-adds before its rows are split over threads (a few ms on one core).
constexpr std::uint64_t kParallelWork = std::uint64_t{4} << 20;

std::vector<int> distinctSorted(std::vector<int> v, int len, const char* what) {
  for (const int p : v)
    if (p < 0 || p >= len)
      throw Error(ErrorKind::BadInput, std::string("SparseReference: ") + what + " " + std::to_string(p) +
                                           " is outside the frame (0 to " + std::to_string(len - 1) + ")");
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// The positions in [0, len) that windows of radius r around `needed` read under `mode`, ascending.
std::vector<int> windowsOf(const std::vector<int>& needed, int len, int r, BorderMode mode) {
  std::vector<char> hit(static_cast<std::size_t>(len), 0);
  for (const int p : needed)
    for (int d = -r; d <= r; ++d)
      if (const int q = borderInterpolate(p + d, len, mode); q >= 0) hit[static_cast<std::size_t>(q)] = 1;
  std::vector<int> out;
  for (int q = 0; q < len; ++q)
    if (hit[static_cast<std::size_t>(q)]) out.push_back(q);
  return out;
}

std::vector<int> indexOf(const std::vector<int>& positions, int len) {
  std::vector<int> index(static_cast<std::size_t>(len), -1);
  for (std::size_t i = 0; i < positions.size(); ++i) index[static_cast<std::size_t>(positions[i])] = int(i);
  return index;
}

// One channel of a step's input at its needed columns × rows, and one more column and row that hold the
// border value: a tap that reads outside under `constant` points there, so the sum needs no branch.
struct Plane {
  int cols = 0, rows = 0;               // without the border column and row
  std::vector<double> value;            // (rows + 1) × (cols + 1), row-major
  std::vector<int> colIndex, rowIndex;  // frame x (y) → column (row) of the plane

  Plane(const std::vector<int>& columns, const std::vector<int>& rowsAt, int width, int height, double border)
      : cols(static_cast<int>(columns.size())),
        rows(static_cast<int>(rowsAt.size())),
        value(static_cast<std::size_t>(rows + 1) * static_cast<std::size_t>(cols + 1), border),
        colIndex(indexOf(columns, width)),
        rowIndex(indexOf(rowsAt, height)) {}
  double* row(int y) {
    return value.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(cols + 1);
  }
};

// Where each tap of one filter reads in the plane: per output column its K plane columns, per output row its
// K row offsets (the border column / row where the border gives -1).
struct Taps {
  int k = 1;
  std::vector<int> col, rowOffset;

  Taps(const ChannelFilter& f, const FilterSet& filter, const std::vector<int>& columns,
       const std::vector<int>& rowsAt, const Plane& in, int width, int height)
      : k(f.size) {
    const int r = f.radius();
    for (const int x : columns)
      for (int i = 0; i < k; ++i) {
        const int q = borderInterpolate(x + i - r, width, filter.border());
        col.push_back(q < 0 ? in.cols : in.colIndex[static_cast<std::size_t>(q)]);
      }
    for (const int y : rowsAt)
      for (int j = 0; j < k; ++j) {
        const int q = borderInterpolate(y + j - r, height, filter.border());
        rowOffset.push_back((q < 0 ? in.rows : in.rowIndex[static_cast<std::size_t>(q)]) * (in.cols + 1));
      }
  }
};

// offset + Σ M·in / divisor of output pixels xi .. xi + n − 1 (n ≤ 4) of output row yi, each summed exactly
// as reference.cpp sums it (rows j, then columns i, one accumulator a pixel, no fused multiply-add); four
// pixels at once only to hide the adds' latency. Where the four read four neighbouring plane columns at every
// tap (inside the frame, away from a fold), two vector lanes carry two pixels each: the same operations.
void sums(const Plane& in, const Taps& t, const ChannelFilter& f, int xi, int yi, int n, double* out) {
  const int k = t.k;
  const int* c[4];
  for (int p = 0; p < 4; ++p) c[p] = &t.col[static_cast<std::size_t>((xi + std::min(p, n - 1)) * k)];
  const int* rowOffset = &t.rowOffset[static_cast<std::size_t>(yi * k)];
  bool neighbours = n == 4;
  for (int i = 0; i < k && neighbours; ++i)
    neighbours = c[1][i] == c[0][i] + 1 && c[2][i] == c[0][i] + 2 && c[3][i] == c[0][i] + 3;
  double s[4] = {0, 0, 0, 0};
  if (neighbours) {
    using Pair = double __attribute__((vector_size(16)));
    Pair lo = {0, 0}, hi = {0, 0};
    for (int j = 0; j < k; ++j) {
      const double* row = in.value.data() + rowOffset[j];
      const double* w = &f.matrix[static_cast<std::size_t>(j * k)];
      for (int i = 0; i < k; ++i) {
        const double* v = row + c[0][i];
        Pair a, b;
        std::memcpy(&a, v, sizeof a);
        std::memcpy(&b, v + 2, sizeof b);
        const Pair wi = {w[i], w[i]};
        lo += wi * a;
        hi += wi * b;
      }
    }
    s[0] = lo[0], s[1] = lo[1], s[2] = hi[0], s[3] = hi[1];
  } else {
    for (int j = 0; j < k; ++j) {
      const double* row = in.value.data() + rowOffset[j];
      const double* w = &f.matrix[static_cast<std::size_t>(j * k)];
      for (int i = 0; i < k; ++i) {
        const double wi = w[i];
        s[0] += wi * row[c[0][i]];
        s[1] += wi * row[c[1][i]];
        s[2] += wi * row[c[2][i]];
        s[3] += wi * row[c[3][i]];
      }
    }
  }
  for (int p = 0; p < n; ++p) out[p] = f.offset + s[p] / f.divisor;
}

// Runs rows(begin, end) over [0, count), on several threads when `work` multiply-adds make it worth it.
template <typename Rows>
void splitRows(int count, std::uint64_t work, Rows&& rows) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const int threads = work < kParallelWork ? 1 : static_cast<int>(std::min<unsigned>(cores, 16));
  if (threads <= 1 || count < 2) {
    rows(0, count);
    return;
  }
  std::vector<std::jthread> pool;
  const int chunk = (count + threads - 1) / threads;
  for (int begin = 0; begin < count; begin += chunk)
    pool.emplace_back([&rows, begin, end = std::min(count, begin + chunk)] { rows(begin, end); });
}

}  // namespace

std::uint8_t SparseReference::Result::at(int x, int y, int c) const {
  const int i = columnIndex[static_cast<std::size_t>(x)], j = rowIndex[static_cast<std::size_t>(y)];
  if (i < 0 || j < 0) throw Error(ErrorKind::Usage, "SparseReference::Result::at: a pixel not asked for");
  return values.view().row(j)[i * kBytesPerPixel + c];
}

SparseReference::SparseReference(int width, int height, const FilterChain& chain, std::vector<int> columns,
                                 std::vector<int> rows)
    : m_width(width), m_height(height), m_steps(chain.enabledSteps()) {
  if (width < 1 || height < 1) throw Error(ErrorKind::Usage, "SparseReference: an empty frame");
  if (chain.hasCustomStep())
    throw Error(ErrorKind::Usage, "a chain with a custom OpenCL step has no CPU reference");
  const std::size_t n = m_steps.size();
  m_columns.resize(n + 1);
  m_rows.resize(n + 1);
  m_columns[n] = distinctSorted(std::move(columns), width, "column");
  m_rows[n] = distinctSorted(std::move(rows), height, "row");
  for (std::size_t s = n; s-- > 0;) {   // backwards: step s reads its window around what step s + 1 needs
    const int r = m_steps[s].radius();  // a magnitude's larger window holds the smaller (one border)
    const BorderMode border = m_steps[s].filter.border();
    m_columns[s] = windowsOf(m_columns[s + 1], width, r, border);
    m_rows[s] = windowsOf(m_rows[s + 1], height, r, border);
  }
}

std::uint64_t SparseReference::pixelsPerChannel() const {
  std::uint64_t pixels = 0;
  for (std::size_t s = 1; s <= m_steps.size(); ++s)
    pixels += std::uint64_t{m_columns[s].size()} * m_rows[s].size();
  return pixels;
}

std::uint64_t SparseReference::multiplyAddsPerChannel() const {
  std::uint64_t work = 0;
  for (std::size_t s = 0; s < m_steps.size(); ++s) {
    const ChainStep& step = m_steps[s];
    std::uint64_t taps = std::uint64_t(step.filter.size()) * std::uint64_t(step.filter.size());
    if (step.other) taps += std::uint64_t(step.other->size()) * std::uint64_t(step.other->size());
    work += taps * m_columns[s + 1].size() * m_rows[s + 1].size();
  }
  return work;
}

std::optional<SparseReference::Result> SparseReference::run(const ImageView& in,
                                                            std::array<bool, kChannels> channels,
                                                            std::stop_token stop) const {
  if (in.width != m_width || in.height != m_height)
    throw Error(ErrorKind::Usage, "SparseReference::run: the frame is not the planned size");
  const std::size_t n = m_steps.size();
  Result result;
  result.columns = m_columns[n];
  result.rows = m_rows[n];
  result.columnIndex = indexOf(result.columns, m_width);
  result.rowIndex = indexOf(result.rows, m_height);
  result.values = Image(static_cast<int>(result.columns.size()), static_cast<int>(result.rows.size()));
  std::fill(result.values.pixels.begin(), result.values.pixels.end(), std::uint8_t{0});
  for (int c = 0; c < kChannels; ++c) {
    if (!channels[static_cast<std::size_t>(c)]) continue;
    // The input where step 1 reads it (with step 1's border value in the border column and row).
    const auto borderOf = [&](std::size_t s) {
      return s < n ? m_steps[s].filter.borderValue()[static_cast<std::size_t>(c)] : 0.0;
    };
    Plane plane(m_columns[0], m_rows[0], m_width, m_height, borderOf(0));
    for (int j = 0; j < plane.rows; ++j)
      for (int i = 0; i < plane.cols; ++i)
        plane.row(j)[i] = in.row(m_rows[0][static_cast<std::size_t>(
            j)])[m_columns[0][static_cast<std::size_t>(i)] * kBytesPerPixel + c];
    for (std::size_t s = 0; s < n; ++s) {
      const ChainStep& step = m_steps[s];
      const std::vector<int>& cols = m_columns[s + 1];
      const std::vector<int>& rowsAt = m_rows[s + 1];
      Plane next(cols, rowsAt, m_width, m_height, borderOf(s + 1));
      const ChannelFilter& fa = step.filter.channel(c);
      const Taps ta(fa, step.filter, cols, rowsAt, plane, m_width, m_height);
      std::optional<Taps> tb;
      if (step.other) tb.emplace(step.other->channel(c), *step.other, cols, rowsAt, plane, m_width, m_height);
      std::uint64_t taps = std::uint64_t(fa.size) * std::uint64_t(fa.size);
      if (tb) taps += std::uint64_t(tb->k) * std::uint64_t(tb->k);
      splitRows(next.rows, taps * cols.size() * rowsAt.size(), [&](int begin, int end) {
        for (int yi = begin; yi < end && !stop.stop_requested(); ++yi)
          for (int xi = 0; xi < next.cols; xi += 4) {
            const int count = std::min(4, next.cols - xi);
            double a[4], b[4];
            sums(plane, ta, fa, xi, yi, count, a);
            if (tb) {
              // sqrt(a² + b²) as referenceMagnitude takes it (not std::hypot: see reference.cpp)
              sums(plane, *tb, step.other->channel(c), xi, yi, count, b);
              for (int p = 0; p < count; ++p) a[p] = std::sqrt(a[p] * a[p] + b[p] * b[p]);
            }
            for (int p = 0; p < count; ++p) next.row(yi)[xi + p] = saturateRound(a[p]);
          }
      });
      if (stop.stop_requested()) return std::nullopt;
      result.evaluated += std::uint64_t{cols.size()} * rowsAt.size();
      plane = std::move(next);
    }
    for (int j = 0; j < plane.rows; ++j)
      for (int i = 0; i < plane.cols; ++i)
        result.values.mutableView().row(j)[i * kBytesPerPixel + c] =
            static_cast<std::uint8_t>(plane.row(j)[i]);
  }
  return result;
}

}  // namespace convolab
