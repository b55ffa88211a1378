// SPDX-License-Identifier: MIT
// StepProbe: one chain step explained at one pixel from its actual input — the switched-on steps before it
// applied to the original frame, computed with the CPU reference at the pixels the step's K×K window reads
// only (SparseReference), whatever the borders (wrap reads the far side). Qt-free.
#pragma once

#include <cstdint>
#include <optional>
#include <stop_token>
#include <vector>

#include "convolab/sparse_reference.hpp"
#include "pixel_probe.hpp"

namespace convolab::lab {

class StepProbe {
 public:
  /// Plans the probe of `step` (a filter step) at (x, y) of a width × height frame for `channel`: `before`
  /// are the switched-on steps before it, none of them custom OpenCL code (Error(Usage) otherwise).
  StepProbe(int width, int height, const std::vector<ChainStep>& before, ChainStep step, int x, int y,
            int channel);

  /// Multiply-adds the probe costs: `channel` at the step's window, the other two channels at (x, y). What
  /// decides whether it may run on the GUI thread.
  std::uint64_t multiplyAdds() const;

  /// The probe: the step's input computed from `original`, the output read from `output` (both the planned
  /// size); PixelProbe::evaluated says how many pixel values that took. nullopt when `stop` was requested.
  std::optional<PixelProbe> run(const ImageView& original, const ImageView& output,
                                std::stop_token stop = {}) const;

 private:
  ChainStep m_step;
  int m_x, m_y, m_channel;
  SparseReference m_window;  // `channel` of the step's input at its K×K window (border rules applied)
  SparseReference m_centre;  // the other channels at (x, y): the input RGB of the line
};

}  // namespace convolab::lab
