// SPDX-License-Identifier: MIT
// Border modes with OpenCV's exact cv::borderInterpolate semantics.
#pragma once

#include <optional>
#include <string_view>

namespace convolab {

/// How reads outside the image are answered (pictures: `|abcd|` is the image row).
enum class BorderMode {
  Replicate,   ///< aaa|abcd|ddd
  Reflect,     ///< cba|abcd|dcb
  Reflect101,  ///< dcb|abcd|cba (default, as in OpenCV)
  Wrap,        ///< bcd|abcd|abc
  Constant,    ///< 000|abcd|000 (border value per channel)
};

inline constexpr BorderMode kAllBorderModes[] = {BorderMode::Replicate, BorderMode::Reflect,
                                                 BorderMode::Reflect101, BorderMode::Wrap,
                                                 BorderMode::Constant};

/// Lower-case name used in files and on the command line ("reflect101").
std::string_view borderName(BorderMode mode);
/// Parses a name as written by borderName(); nullopt when unknown.
std::optional<BorderMode> parseBorder(std::string_view name);

/// Index inside [0, len) that position p reads under `mode`, or -1 for Constant outside the image.
/// Works for any p and any len >= 1, including images smaller than the filter (as OpenCV does).
int borderInterpolate(int p, int len, BorderMode mode);

}  // namespace convolab
