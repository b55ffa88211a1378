// SPDX-License-Identifier: MIT
// kernelFromImage: "Kernel from image" of the generators panel — a grayscale PNG read as a point spread
// function (its grey values, normalised to sum to 1).
#pragma once

#include <QString>
#include <optional>

#include "convolab/filter.hpp"

namespace convolab::gui {

/// The largest file "Kernel from image" opens (a 63×63 PNG is a few KiB; anything this big is not a kernel).
inline constexpr qint64 kMaxKernelImageBytes = 4 << 20;

/// Reads an image (PNG; any format Qt reads; colour counts as its luminance, 16-bit grey keeps its precision)
/// as a K×K kernel: the grey values scaled to sum to 1 (divisor 1, offset 0), padded with zeros to an odd
/// square, the image in its centre (a 20×31 picture → 31×31). Refused, with `error` saying why and what to
/// do: a file that cannot be read or is no image, larger than kMaxFilterSize (63) pixels a side (checked
/// before decoding), or all black.
std::optional<ChannelFilter> kernelFromImage(const QString& path, QString* error);

}  // namespace convolab::gui
