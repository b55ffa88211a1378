// SPDX-License-Identifier: MIT
// FilterChain construction and validation.
#include "convolab/filter_chain.hpp"

#include <algorithm>

#include "convolab/error.hpp"

namespace convolab {

ChainStep ChainStep::single(FilterSet filter, bool enabled) {
  return ChainStep{std::move(filter), std::nullopt, enabled, std::nullopt};
}

ChainStep ChainStep::magnitude(FilterSet a, FilterSet b, bool enabled) {
  return ChainStep{std::move(a), std::move(b), enabled, std::nullopt};
}

ChainStep ChainStep::customCode(CustomKernel kernel, BorderMode border,
                                std::array<double, kChannels> borderValue, bool enabled) {
  const ChannelFilter one = ChannelFilter::identity();
  FilterSet carrier = FilterSet::make({one, one, one}, border, borderValue);
  return ChainStep{std::move(carrier), std::nullopt, enabled, std::move(kernel)};
}

int ChainStep::radius() const {
  return other ? std::max(filter.radius(), other->radius()) : filter.radius();
}

FilterChain::FilterChain() : m_steps{ChainStep{}} {}

FilterChain::FilterChain(FilterSet filter) : m_name(filter.name()) {
  m_steps.push_back(ChainStep::single(std::move(filter)));
}

FilterChain FilterChain::make(std::vector<ChainStep> steps, std::string name) {
  if (steps.empty()) throw Error(ErrorKind::BadInput, "a chain needs at least one step; it has none");
  if (static_cast<int>(steps.size()) > kMaxChainSteps)
    throw Error(ErrorKind::BadInput, "a chain has at most " + std::to_string(kMaxChainSteps) +
                                         " steps; this one has " + std::to_string(steps.size()));
  for (size_t i = 0; i < steps.size(); ++i) {
    const ChainStep& s = steps[i];
    // Both filters of a magnitude read one input image: one border rule for it.
    if (s.custom && s.other)
      throw Error(ErrorKind::BadInput,
                  "step " + std::to_string(i + 1) + ": a custom step holds no second filter");
    if (s.other &&
        (s.other->border() != s.filter.border() || s.other->borderValue() != s.filter.borderValue()))
      throw Error(ErrorKind::BadInput, "step " + std::to_string(i + 1) +
                                           ": the magnitude's two filters must have the same border and "
                                           "border_value");
  }
  FilterChain chain;
  chain.m_steps = std::move(steps);
  chain.m_name = std::move(name);
  return chain;
}

std::vector<ChainStep> FilterChain::enabledSteps() const {
  std::vector<ChainStep> on;
  for (const ChainStep& s : m_steps)
    if (s.enabled) on.push_back(s);
  return on;
}

std::optional<FilterSet> FilterChain::singleFilter() const {
  const ChainStep* only = nullptr;
  for (const ChainStep& s : m_steps) {
    if (!s.enabled) continue;
    if (only) return std::nullopt;
    only = &s;
  }
  if (!only || only->isMagnitude() || only->isCustom()) return std::nullopt;
  return only->filter;
}

FilterChain FilterChain::withBorder(BorderMode border) const {
  FilterChain chain = *this;
  for (ChainStep& s : chain.m_steps) {
    s.filter = s.filter.withBorder(border);
    if (s.other) s.other = s.other->withBorder(border);
  }
  return chain;
}

bool FilterChain::hasCustomStep() const {
  return std::any_of(m_steps.begin(), m_steps.end(),
                     [](const ChainStep& s) { return s.enabled && s.isCustom(); });
}

int FilterChain::totalRadius() const {
  int r = 0;
  for (const ChainStep& s : m_steps)
    if (s.enabled) r += s.radius();
  return r;
}

}  // namespace convolab
