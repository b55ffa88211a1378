// SPDX-License-Identifier: MIT
// Still image source: decoded once, the same pixels shared with every delivered frame.
#include "image_file_source.hpp"

#include "cv/image_codec.hpp"
#include "cv/image_header.hpp"

namespace convolab::capture {

ImageFileSource::ImageFileSource(std::filesystem::path path, std::int64_t maxPixels)
    : m_path(std::move(path)), m_maxPixels(maxPixels) {
  m_label = m_path->filename().string();
}

ImageFileSource::ImageFileSource(Image image, std::string label)
    : m_label(std::move(label)), m_image(std::make_shared<const Image>(std::move(image))) {}

void ImageFileSource::open() {
  if (!m_path || m_image) return;
  try {
    m_image = std::make_shared<const Image>(opencv::loadImage(*m_path, m_maxPixels, {}, &m_report));
  } catch (const Error& e) {
    throw SourceError(e.what());  // a file that cannot be opened as a source, like any other source's
  }
}

std::string ImageFileSource::loadingDetail() const {
  if (!m_path || m_image) return {};
  const auto header = opencv::readImageHeader(*m_path);
  return header ? opencv::describeImageSize(header->width, header->height) : std::string();
}

bool ImageFileSource::read(Frame& out) {
  if (!m_image) return false;
  out.image = m_image;  // shared: the processing thread never writes its input
  out.index = m_index++;
  out.captured = Clock::now();
  return true;
}

std::string ImageFileSource::deliveredMode() const {
  if (!m_image) return {};
  std::string mode = std::to_string(m_image->width) + "×" + std::to_string(m_image->height) + " still image";
  // The app shows what was decoded; the status bar says what was not.
  for (const auto& lost : {m_report.damageMessage(), m_report.alphaMessage()})
    if (!lost.empty()) mode += " · " + lost;
  return mode;
}

}  // namespace convolab::capture
