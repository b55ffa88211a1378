// SPDX-License-Identifier: MIT
// Names of the source kinds.
#include "frame_source.hpp"

namespace convolab::capture {

const char* sourceKindName(SourceKind kind) {
  switch (kind) {
    case SourceKind::Camera:
      return "Camera";
    case SourceKind::VideoFile:
      return "Video";
    case SourceKind::ImageFile:
      return "Image";
    case SourceKind::TestPattern:
      return "Test pattern";
  }
  return "Source";
}

}  // namespace convolab::capture
