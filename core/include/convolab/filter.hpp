// SPDX-License-Identifier: MIT
// FilterSet: the three per-channel K×K filters plus border handling; an immutable value type.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "convolab/border.hpp"
#include "convolab/generator_params.hpp"

namespace convolab {

/// The largest K (odd) a filter may have in every layer (docs/FILTER_FORMAT.md: large kernels).
inline constexpr int kMaxFilterSize = 63;
inline constexpr int kChannels = 3;  // R, G, B in that order
/// Largest magnitude a channel's sum may reach: max input (255, or a larger constant border value) ×
/// Σ|matrix| / |divisor| + |offset|. 2^24: up to there float, which every strategy accumulates in,
/// holds whole numbers exactly; FilterSet::make rejects filters that could go beyond (FILTER_FORMAT.md).
inline constexpr double kMaxFilterMagnitude = 16777216.0;

/// One channel's filter: out = offset + (1/divisor) · Σ M[j][i] · in(x+i−r, y+j−r).
struct ChannelFilter {
  int size = 1;                     ///< K, odd, 1..kMaxFilterSize (63)
  std::vector<double> matrix{1.0};  ///< K×K, row-major; matrix[j*K+i] weighs in(x+i−r, y+j−r)
  double divisor = 1.0;
  double offset = 0.0;

  double at(int row, int col) const { return matrix[static_cast<size_t>(row * size + col)]; }
  /// The weight the kernels apply: matrix/divisor.
  double weight(int row, int col) const { return at(row, col) / divisor; }
  int radius() const { return (size - 1) / 2; }
  bool operator==(const ChannelFilter&) const = default;

  static ChannelFilter identity(int size = 1);
};

/// The whole filter of a frame: one ChannelFilter per colour channel (same K), a border mode and a
/// per-channel border value for BorderMode::Constant. Construct through make() (it validates).
class FilterSet {
 public:
  FilterSet();  ///< identity, K = 1, reflect101

  /// Validates (odd K in 1..kMaxFilterSize, same K for all channels, finite numbers, divisor ≠ 0, sums within
  /// ±kMaxFilterMagnitude) and builds.
  /// Throws Error(BadInput) naming what was wrong.
  static FilterSet make(std::array<ChannelFilter, kChannels> channels,
                        BorderMode border = BorderMode::Reflect101,
                        std::array<double, kChannels> borderValue = {0, 0, 0}, std::string name = {});
  /// Same matrix, divisor and offset for all three channels.
  static FilterSet uniform(ChannelFilter filter, BorderMode border = BorderMode::Reflect101,
                           std::string name = {});

  const ChannelFilter& channel(int c) const { return m_channels[static_cast<size_t>(c)]; }
  const std::array<ChannelFilter, kChannels>& channels() const { return m_channels; }
  int size() const { return m_channels[0].size; }
  int radius() const { return m_channels[0].radius(); }
  BorderMode border() const { return m_border; }
  const std::array<double, kChannels>& borderValue() const { return m_borderValue; }
  const std::string& name() const { return m_name; }
  bool channelsIdentical() const;

  /// The generator that made the matrix (issue 31), when one did: saved in the file so it can be made again.
  /// Edits keep it (the kernel stays editable); a resize drops it.
  const std::optional<GeneratorParams>& generator() const { return m_generator; }
  FilterSet withGenerator(std::optional<GeneratorParams> generator) const;

  FilterSet withBorder(BorderMode border) const;
  FilterSet withName(std::string name) const;
  /// The same filter cut to its effective support: the smallest centred K' × K' window outside which every
  /// channel's weights are 0 (a 15×15 holding a 7×7 in its centre → the 7×7). It computes the same output
  /// exactly (a zero tap adds nothing, whatever the border reads there), so `auto` runs and keys it instead.
  FilterSet trimmedToSupport() const;
  /// The filter resized to k×k about its centre (k odd, 1..kMaxFilterSize): growing pads with zero rings (the
  /// same output: the inverse of trimmedToSupport), shrinking keeps the centre. The editor's size control and
  /// the padding edits of the bench and tests use it.
  FilterSet resizedTo(int k) const;
  bool operator==(const FilterSet&) const = default;

 private:
  std::array<ChannelFilter, kChannels> m_channels;
  BorderMode m_border = BorderMode::Reflect101;
  std::array<double, kChannels> m_borderValue{0, 0, 0};
  std::string m_name;
  std::optional<GeneratorParams> m_generator;
};

}  // namespace convolab
