// SPDX-License-Identifier: MIT
// Chains that one built program serves: the custom steps' arguments may differ, nothing else.
#include "processing/custom_arguments.hpp"

namespace convolab::gui {
namespace {

bool sameProgram(const ChainStep& a, const ChainStep& b) {
  if (!a.isCustom() || !b.isCustom()) return a == b;
  if (a.enabled != b.enabled || a.custom->code != b.custom->code ||
      a.custom->params.size() != b.custom->params.size() || a.filter.border() != b.filter.border())
    return false;
  for (std::size_t i = 0; i < a.custom->params.size(); ++i)
    if (a.custom->params[i].name != b.custom->params[i].name) return false;  // names are the function's
  return true;
}

}  // namespace

bool onlyCustomArgumentsDiffer(const FilterChain& from, const FilterChain& to) {
  if (!from.hasCustomStep() || from.size() != to.size()) return false;
  for (int i = 0; i < from.size(); ++i)
    if (!sameProgram(from.steps()[static_cast<std::size_t>(i)], to.steps()[static_cast<std::size_t>(i)]))
      return false;
  return true;
}

}  // namespace convolab::gui
