// SPDX-License-Identifier: MIT
// SparseReference: the CPU reference of a chain (referenceChain) at a few output pixels, computed from what
// they depend on only — each step evaluates just the pixels that the next step's K×K windows read.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <vector>

#include "convolab/filter_chain.hpp"
#include "convolab/image.hpp"

namespace convolab {

/// What a chain's output at `columns × rows` of a width × height frame depends on, step by step, and its
/// evaluation there. Walking the chain backwards, step s needs its input at the columns (rows) that its
/// window reads from the columns (rows) step s + 1 needs, through step s's border mode: `wrap`, `reflect`,
/// `reflect101` and `replicate` map them into the frame, `constant` reads the border value and needs nothing.
/// A border maps columns and rows independently, so every step's set is a product of a column set and a row
/// set. The values are exactly referenceChain's: the same sums, in the same order (switched-off steps are
/// skipped, a magnitude step reads both filters' windows).
class SparseReference {
 public:
  /// The output of run(): the chain's output at the asked columns × rows.
  struct Result {
    std::vector<int> columns, rows;  ///< frame coordinates, ascending, distinct
    Image values;                    ///< columns.size() × rows.size(); channels not asked for hold 0
    /// Pixel values computed over all steps (one channel of one pixel counts 1; the input is read, not
    /// computed): what a probe costs.
    std::uint64_t evaluated = 0;
    /// The value at frame pixel (x, y), channel c; (x, y) must be one of columns × rows.
    std::uint8_t at(int x, int y, int c) const;

    std::vector<int> columnIndex, rowIndex;  ///< frame x (y) → index into columns (rows); -1: not there
  };

  /// Plans the switched-on steps of `chain` for the output pixels `columns × rows` (each inside the frame;
  /// repeats are fine). Throws Error(Usage) for a chain with a custom step (no CPU reference) or an empty
  /// frame, Error(BadInput) for a coordinate outside the frame.
  SparseReference(int width, int height, const FilterChain& chain, std::vector<int> columns,
                  std::vector<int> rows);

  /// Number of switched-on steps.
  int steps() const { return static_cast<int>(m_steps.size()); }
  /// The frame columns (rows) where the input of switched-on step s is needed (s = steps(): the chain's
  /// output, the pixels asked for).
  const std::vector<int>& columns(int s) const { return m_columns[static_cast<std::size_t>(s)]; }
  const std::vector<int>& rows(int s) const { return m_rows[static_cast<std::size_t>(s)]; }
  /// Pixel values one channel costs over all steps: Σ over the steps of |columns(s + 1)| · |rows(s + 1)|.
  std::uint64_t pixelsPerChannel() const;
  /// Multiply-adds one channel costs (each computed pixel times its step's taps): to decide where to run it.
  std::uint64_t multiplyAddsPerChannel() const;

  /// Evaluates on `in` (the planned size) the channels whose flag is set; nullopt when `stop` is requested
  /// before the end (checked every row). Larger steps are split over the machine's cores.
  std::optional<Result> run(const ImageView& in, std::array<bool, kChannels> channels,
                            std::stop_token stop = {}) const;

 private:
  int m_width, m_height;
  std::vector<ChainStep> m_steps;                   // the switched-on steps
  std::vector<std::vector<int>> m_columns, m_rows;  // [s]: where step s's input is needed; [n]: the output
};

}  // namespace convolab
