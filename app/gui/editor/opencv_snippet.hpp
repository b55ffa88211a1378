// SPDX-License-Identifier: MIT
// OpenCV code for a filter: what "Copy as OpenCV C++ / Python" puts on the clipboard.
#pragma once

#include <QString>

#include "convolab/filter.hpp"

namespace convolab::gui {

/// The OpenCV border constant (without namespace) that reads like `mode`: "BORDER_REFLECT_101", …
/// filter2D refuses BORDER_WRAP, so the snippets pad with copyMakeBorder for wrap (and for a non-zero
/// constant border value, which filter2D cannot take) and filter the padded image.
QString openCvBorderName(BorderMode mode);
/// A C++ function `cv::Mat applyConvoLabFilter(const cv::Mat& bgr)`: cv::filter2D with kernel M / divisor
/// and delta = offset, one call when the channels are identical, else split / one call per channel / merge.
QString openCvCppSnippet(const FilterSet& filter);
/// The same as a Python function `apply_convolab_filter(bgr)` using cv2 and numpy.
QString openCvPythonSnippet(const FilterSet& filter);

}  // namespace convolab::gui
