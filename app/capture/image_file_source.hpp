// SPDX-License-Identifier: MIT
// ImageFileSource: a still image, re-delivered at a steady rate so edits and statistics stay live.
#pragma once

#include <filesystem>
#include <optional>

#include "cv/image_codec.hpp"
#include "frame_source.hpp"

namespace convolab::capture {

class ImageFileSource : public FrameSource {
 public:
  static constexpr double kRepeatFps = 30.0;

  /// Reads `path` on open(), refusing images with more than `maxPixels` pixels (from the header).
  explicit ImageFileSource(std::filesystem::path path, std::int64_t maxPixels = opencv::kDefaultMaxPixels);
  /// An already-decoded image (e.g. the bundled sample from Qt resources); `label` names it.
  ImageFileSource(Image image, std::string label);

  SourceTraits traits() const override { return {.kindName = "Image", .isFile = m_path.has_value()}; }
  std::string description() const override { return m_label; }
  /// The size from the file's header, before the pixels are decoded (which takes seconds for a big one).
  std::string loadingDetail() const override;
  void open() override;
  void close() override {}
  bool read(Frame& out) override;
  double nominalFps() const override { return kRepeatFps; }
  /// "W×H still image", followed by what decoding lost ("image is damaged: N of M rows decoded").
  std::string deliveredMode() const override;
  bool canStep() const override { return true; }
  bool deliversStill() const override { return true; }

 private:
  std::optional<std::filesystem::path> m_path;
  std::int64_t m_maxPixels = opencv::kDefaultMaxPixels;
  std::string m_label;
  std::shared_ptr<const Image> m_image;
  opencv::DecodeReport
      m_report;  ///< what the decoder lost (a damaged JPEG, an alpha channel), said with the mode
  std::int64_t m_index = 0;
};

}  // namespace convolab::capture
