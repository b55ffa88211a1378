// SPDX-License-Identifier: MIT
// Damage in a JPEG file that OpenCV's decoder hides: libjpeg warns ("Corrupt JPEG data", "Premature end of
// JPEG file") and fills what is missing with grey, and cv::imdecode returns the image as if it were whole.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace convolab::opencv {

/// Where a JPEG's data stopped being real.
struct JpegDamage {
  std::int64_t rows = 0;         ///< the height the header declares
  std::int64_t rowsDecoded = 0;  ///< rows decoded before the first damage (to the 8-row block); -1: not known
                                 ///< (the damage showed only after the last row: data left over)
  std::string warning;           ///< libjpeg's first warning, e.g. "Premature end of JPEG file"
};

/// Runs libjpeg's entropy decoder over `bytes` (at 1/8 scale: the Huffman data is all read, the pixels are
/// not computed) to the end marker and returns its first warning, or nullopt when there was none or the bytes
/// are not a JPEG libjpeg can start. Every warning is damage: one after the last row (data left over before
/// the end marker) is how a JPEG corrupted in the middle shows, its rows garbage from an unknown point on.
std::optional<JpegDamage> findJpegDamage(std::string_view bytes);

}  // namespace convolab::opencv
