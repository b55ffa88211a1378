// SPDX-License-Identifier: MIT
// StepProbe: the step's window mapped through its border, the input there from SparseReference, then
// probePixel on it.
#include "step_probe.hpp"

#include "convolab/border.hpp"

namespace convolab::lab {
namespace {

// The frame positions a window of radius r around p reads under `mode` (constant's outside reads none).
std::vector<int> window(int p, int r, int len, BorderMode mode) {
  std::vector<int> at;
  for (int d = -r; d <= r; ++d)
    if (const int q = borderInterpolate(p + d, len, mode); q >= 0) at.push_back(q);
  return at;
}

// `steps` as a chain (none: one switched-off step, which copies its input).
FilterChain chainOf(const std::vector<ChainStep>& steps) {
  return FilterChain::make(steps.empty() ? std::vector{ChainStep::single(FilterSet(), false)} : steps);
}

}  // namespace

StepProbe::StepProbe(int width, int height, const std::vector<ChainStep>& before, ChainStep step, int x,
                     int y, int channel)
    : m_step(std::move(step)),
      m_x(x),
      m_y(y),
      m_channel(channel),
      m_window(width, height, chainOf(before), window(x, m_step.radius(), width, m_step.filter.border()),
               window(y, m_step.radius(), height, m_step.filter.border())),
      m_centre(width, height, chainOf(before), {x}, {y}) {}

std::uint64_t StepProbe::multiplyAdds() const {
  return m_window.multiplyAddsPerChannel() + 2 * m_centre.multiplyAddsPerChannel();
}

std::optional<PixelProbe> StepProbe::run(const ImageView& original, const ImageView& output,
                                         std::stop_token stop) const {
  std::array<bool, kChannels> one{}, others{true, true, true};
  one[static_cast<std::size_t>(m_channel)] = true;
  others[static_cast<std::size_t>(m_channel)] = false;
  const auto window = m_window.run(original, one, stop);
  if (!window) return std::nullopt;
  const auto centre = m_centre.run(original, others, stop);
  if (!centre) return std::nullopt;
  const auto input = [&](int x, int y, int c) {
    return static_cast<int>(c == m_channel ? window->at(x, y, c) : centre->at(x, y, c));
  };
  std::array<int, 3> out{};
  for (int c = 0; c < 3; ++c) out[static_cast<std::size_t>(c)] = output.row(m_y)[m_x * kBytesPerPixel + c];
  PixelProbe p = probePixel(input, original.width, original.height, out, m_step.filter, m_x, m_y, m_channel);
  p.evaluated = window->evaluated + centre->evaluated;
  return p;
}

}  // namespace convolab::lab
