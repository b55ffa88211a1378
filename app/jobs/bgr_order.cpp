// SPDX-License-Identifier: MIT
// Reversing channels for BGR frames: a filter's three channels and its border colour; a chain's every step.
#include "bgr_order.hpp"

#include <utility>
#include <vector>

namespace convolab::jobs {

FilterSet forBgr(const FilterSet& f) {
  const auto& c = f.channels();
  const auto& v = f.borderValue();
  return FilterSet::make({c[2], c[1], c[0]}, f.border(), {v[2], v[1], v[0]}, f.name());
}

std::optional<FilterChain> forBgr(const FilterChain& chain) {
  std::vector<ChainStep> steps;
  for (const ChainStep& s : chain.steps()) {
    if (s.isCustom()) {
      if (s.enabled) return std::nullopt;
      steps.push_back(s);  // switched off: never runs
    } else if (s.isMagnitude()) {
      steps.push_back(ChainStep::magnitude(forBgr(s.filter), forBgr(*s.other), s.enabled));
    } else {
      steps.push_back(ChainStep::single(forBgr(s.filter), s.enabled));
    }
  }
  return FilterChain::make(std::move(steps), chain.name());
}

}  // namespace convolab::jobs
