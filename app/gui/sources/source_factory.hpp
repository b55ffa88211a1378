// SPDX-License-Identifier: MIT
// Source specs the GUI adds on top of the capture library's: "sample" (the bundled image) and "auto".
#pragma once

#include <QString>
#include <memory>

#include "capture/camera_list.hpp"
#include "capture/frame_source.hpp"
#include "cv/image_codec.hpp"

namespace convolab::gui {

inline const QString kSampleSpec = QStringLiteral("sample");
inline const QString kAutoSpec = QStringLiteral("auto");

/// "auto": the first device's spec (a webcam's stable id) when one is present, else "sample" (what `make
/// run` does).
QString resolveAutoSpec();

/// Builds the source for `spec` ("sample", or anything capture::createSource accepts); `mode` applies to
/// cameras; images, videos and patterns above `maxPixels` are refused. Not opened yet. Throws
/// capture::SourceError with a message for people.
std::unique_ptr<capture::FrameSource> makeSource(const QString& spec, const capture::CameraMode& mode = {},
                                                 std::int64_t maxPixels = opencv::kDefaultMaxPixels);

}  // namespace convolab::gui
