// SPDX-License-Identifier: MIT
// Shared by the cv bridge tests: a scratch folder, files of given bytes, a PNG that only declares a size.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace convolab::opencv::test {

/// A fresh folder under the temporary directory, removed with the object.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

 private:
  std::filesystem::path m_path;
};

void writeBytes(const std::filesystem::path& path, const std::string& bytes);

/// A PNG signature and IHDR declaring `w`×`h` (8-bit grey), then garbage: decoding it would fail (or cost
/// gigabytes); only a header check refuses it as too large.
std::string hugeHeaderPng(std::uint32_t w, std::uint32_t h);
/// A GIF header ("GIF89a", logical screen `w`×`h`) and nothing else.
std::string gifHeader(std::uint16_t w, std::uint16_t h);

}  // namespace convolab::opencv::test
