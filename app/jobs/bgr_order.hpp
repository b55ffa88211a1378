// SPDX-License-Identifier: MIT
// Filters for OpenCV's BGR frames: the video job keeps frames in BGR order and reverses the filters' channels
// (and border colours) instead of converting colours.
#pragma once

#include <optional>

#include "convolab/filter.hpp"
#include "convolab/filter_chain.hpp"

namespace convolab::jobs {

/// The same filter for BGR frames: channel 0 of the frame is blue, so it gets the filter's channel 2 (and the
/// border colour's).
FilterSet forBgr(const FilterSet& filter);
/// Every filter and magnitude step of `chain` for BGR frames (switched-off steps too, so the chain keeps its
/// shape); nullopt when a switched-on step is custom OpenCL, whose code reads RGB: such a chain needs frames
/// converted to RGB.
std::optional<FilterChain> forBgr(const FilterChain& chain);

}  // namespace convolab::jobs
