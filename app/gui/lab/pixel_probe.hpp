// SPDX-License-Identifier: MIT
// PixelProbe: one output pixel explained — input and output RGB, and for one channel the K×K input
// neighbourhood (border rules applied), the weights and the weighted sum. Qt-free.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "convolab/filter.hpp"
#include "convolab/image.hpp"

namespace convolab::lab {

struct PixelProbe {
  int x = 0, y = 0;
  std::array<int, 3> input{};
  std::array<int, 3> output{};
  int channel = 0;
  int size = 1;  ///< K
  std::vector<double>
      neighbours;  ///< K×K input values of `channel` (border value where Constant reads outside)
  std::vector<double> weights;  ///< K×K matrix as typed
  double divisor = 1, offset = 0;
  double sum = 0;    ///< offset + Σ weight·neighbour / divisor, before rounding
  int expected = 0;  ///< saturate(round(sum)), half to even as the reference rounds: what the formula gives
  /// The chain step explained, from 1 as the Chain dock numbers them (0: the one filter that runs); `input`
  /// and `neighbours` are then that step's actual input, the output of the steps before it.
  int step = 0;
  /// Set when the step cannot be explained (a magnitude or custom OpenCL step, or custom code before it):
  /// why; neighbours and weights are then empty.
  std::string unexplained;
  /// Pixel values computed to get the step's input (the steps before it, at the pixels its window depends
  /// on: StepProbe); 0 when the input is the frame itself. What the probe cost.
  std::uint64_t evaluated = 0;
};

/// Probes (x, y) of `input`/`output` (same size) for `channel` of `filter`.
PixelProbe probePixel(const ImageView& input, const ImageView& output, const FilterSet& filter, int x, int y,
                      int channel);

/// The same with the input of a width × height frame read through `input(x, y, c)` (called for (x, y) in
/// every channel and for the window's in-frame pixels in `channel`) and the output pixel given.
PixelProbe probePixel(const std::function<int(int x, int y, int c)>& input, int width, int height,
                      const std::array<int, 3>& output, const FilterSet& filter, int x, int y, int channel);

}  // namespace convolab::lab
