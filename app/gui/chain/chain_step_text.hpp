// SPDX-License-Identifier: MIT
// How the Chain dock names a step for a person: its kind and its name.
#pragma once

#include <QString>

#include "convolab/filter_chain.hpp"

namespace convolab::gui {

/// "filter: Gaussian 5x5", "magnitude (Sobel X, Sobel Y)", "custom OpenCL: Invert"; a filter without a name
/// is named by its size ("filter 5×5").
QString describeChainStep(const ChainStep& step);

}  // namespace convolab::gui
