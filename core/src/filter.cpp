// SPDX-License-Identifier: MIT
// FilterSet construction and validation.
#include "convolab/filter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "convolab/error.hpp"

namespace convolab {

ChannelFilter ChannelFilter::identity(int size) {
  ChannelFilter f;
  f.size = size;
  f.matrix.assign(static_cast<size_t>(size * size), 0.0);
  f.matrix[static_cast<size_t>((size / 2) * size + size / 2)] = 1.0;
  return f;
}

FilterSet::FilterSet() : m_channels{ChannelFilter{}, ChannelFilter{}, ChannelFilter{}} {}

namespace {
const char* const kChannelNames[] = {"r", "g", "b"};

void validate(const ChannelFilter& f, int c) {
  const std::string where = std::string("channel ") + kChannelNames[c] + ": ";
  if (f.size < 1 || f.size > kMaxFilterSize || f.size % 2 == 0)
    throw Error(ErrorKind::BadInput, where + "matrix size " + std::to_string(f.size) +
                                         " is not allowed; expected an odd size from 1 to " +
                                         std::to_string(kMaxFilterSize));
  if (f.matrix.size() != static_cast<size_t>(f.size * f.size))
    throw Error(ErrorKind::BadInput, where + "matrix has " + std::to_string(f.matrix.size()) +
                                         " numbers; expected " + std::to_string(f.size * f.size));
  for (double v : f.matrix)
    if (!std::isfinite(v)) throw Error(ErrorKind::BadInput, where + "matrix holds a non-finite number");
  if (!std::isfinite(f.divisor) || f.divisor == 0.0)
    throw Error(ErrorKind::BadInput, where + "divisor must be a finite number other than 0");
  if (!std::isfinite(f.offset)) throw Error(ErrorKind::BadInput, where + "offset must be a finite number");
}

std::string shortNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

/// The float-range rule (docs/FILTER_FORMAT.md): every strategy accumulates in 32-bit float, so the
/// largest magnitude a sum can reach must stay where float still holds whole numbers exactly.
void validateRange(const ChannelFilter& f, int c, double maxInput) {
  const std::string where = std::string("channel ") + kChannelNames[c] + ": ";
  const double limit = kMaxFilterMagnitude;
  if (std::abs(f.offset) > limit)
    throw Error(ErrorKind::BadInput, where + "offset " + shortNumber(f.offset) + " is beyond ±" +
                                         shortNumber(limit) +
                                         ", where 32-bit float arithmetic loses whole units");
  double absWeights = 0;
  for (double v : f.matrix) absWeights += std::abs(v);
  absWeights /= std::abs(f.divisor);  // may be inf (1e30 / 1e-30 overflows even double's headroom)
  const double reach = maxInput * absWeights + std::abs(f.offset);
  if (!(reach <= limit))
    throw Error(
        ErrorKind::BadInput,
        where + "matrix / divisor can make the sum reach " + shortNumber(reach) + " (" +
            shortNumber(maxInput) + " × Σ|matrix| / |divisor| + |offset|), beyond ±" + shortNumber(limit) +
            ", where 32-bit float arithmetic loses whole units; scale the matrix down, the divisor up, "
            "or the offset down");
}

}  // namespace

FilterSet FilterSet::make(std::array<ChannelFilter, kChannels> channels, BorderMode border,
                          std::array<double, kChannels> borderValue, std::string name) {
  for (int c = 0; c < kChannels; ++c) validate(channels[static_cast<size_t>(c)], c);
  if (channels[1].size != channels[0].size || channels[2].size != channels[0].size)
    throw Error(ErrorKind::BadInput,
                "all three channels must have the same matrix size (got " + std::to_string(channels[0].size) +
                    ", " + std::to_string(channels[1].size) + ", " + std::to_string(channels[2].size) + ")");
  for (double v : borderValue)
    if (!std::isfinite(v)) throw Error(ErrorKind::BadInput, "border_value must hold finite numbers");
  for (int c = 0; c < kChannels; ++c) {
    // In constant mode the border value is an input too.
    const double bv = border == BorderMode::Constant ? std::abs(borderValue[static_cast<size_t>(c)]) : 0.0;
    validateRange(channels[static_cast<size_t>(c)], c, std::max(255.0, bv));
  }
  FilterSet f;
  f.m_channels = std::move(channels);
  f.m_border = border;
  f.m_borderValue = borderValue;
  f.m_name = std::move(name);
  return f;
}

FilterSet FilterSet::uniform(ChannelFilter filter, BorderMode border, std::string name) {
  return make({filter, filter, filter}, border, {0, 0, 0}, std::move(name));
}

bool FilterSet::channelsIdentical() const {
  return m_channels[0] == m_channels[1] && m_channels[1] == m_channels[2];
}

FilterSet FilterSet::withBorder(BorderMode border) const {
  // a constant border value joins the range rule
  return make(m_channels, border, m_borderValue, m_name).withGenerator(m_generator);
}

FilterSet FilterSet::withGenerator(std::optional<GeneratorParams> generator) const {
  FilterSet f = *this;
  f.m_generator = std::move(generator);
  return f;
}

FilterSet FilterSet::trimmedToSupport() const {
  const int k = size(), r = radius();
  int support = 0;  // the largest ring (distance from the centre) holding a non-zero weight
  for (const auto& c : m_channels)
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i)
        if (c.at(j, i) != 0.0) support = std::max({support, std::abs(j - r), std::abs(i - r)});
  return resizedTo(2 * support + 1);  // only zeros are cut off
}

FilterSet FilterSet::resizedTo(int k) const {
  if (k == size()) return *this;
  std::array<ChannelFilter, kChannels> channels = m_channels;
  const int from = size(), shift = (k - from) / 2;  // > 0 grows, < 0 shrinks
  for (auto& c : channels) {
    std::vector<double> m(static_cast<size_t>(k * k), 0.0);
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i) {
        const int sj = j - shift, si = i - shift;
        if (sj >= 0 && sj < from && si >= 0 && si < from) m[static_cast<size_t>(j * k + i)] = c.at(sj, si);
      }
    c.matrix = std::move(m);
    c.size = k;
  }
  return make(channels, m_border, m_borderValue, m_name);  // validates k
}

FilterSet FilterSet::withName(std::string name) const {
  FilterSet f = *this;
  f.m_name = std::move(name);
  return f;
}

}  // namespace convolab
