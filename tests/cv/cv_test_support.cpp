// SPDX-License-Identifier: MIT
// Shared by the cv bridge tests: a scratch folder, files of given bytes, header-only images.
#include "cv_test_support.hpp"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace convolab::opencv::test {

ScratchDir::ScratchDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "convolab-cv-test-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  m_path = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(m_path, ec);
}

void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string hugeHeaderPng(std::uint32_t w, std::uint32_t h) {
  std::string bytes("\x89PNG\r\n\x1a\n", 8);
  bytes += std::string("\x00\x00\x00\x0dIHDR", 8);
  for (std::uint32_t v : {w, h}) bytes += {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
  bytes += std::string("\x08\x00\x00\x00\x00", 5);  // 8-bit grey
  bytes += std::string(4, '\0');                    // CRC (wrong, never checked by the header reader)
  bytes += std::string(900, 'x');
  return bytes;
}

std::string gifHeader(std::uint16_t w, std::uint16_t h) {
  return std::string("GIF89a") + char(w & 0xff) + char(w >> 8) + char(h & 0xff) + char(h >> 8);
}

}  // namespace convolab::opencv::test
