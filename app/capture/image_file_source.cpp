// Still image source: decoded once, the same pixels shared with every delivered frame.
#include "image_file_source.hpp"

#include "image_codec.hpp"

namespace convolab::capture {

ImageFileSource::ImageFileSource(std::filesystem::path path, std::int64_t maxPixels)
    : m_path(std::move(path)), m_maxPixels(maxPixels) {
  m_label = m_path->filename().string();
}

ImageFileSource::ImageFileSource(Image image, std::string label)
    : m_label(std::move(label)), m_image(std::make_shared<const Image>(std::move(image))) {}

void ImageFileSource::open() {
  if (m_path && !m_image) m_image = std::make_shared<const Image>(loadImage(*m_path, m_maxPixels));
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
  return std::to_string(m_image->width) + "×" + std::to_string(m_image->height) + " still image";
}

}  // namespace convolab::capture
