// SPDX-License-Identifier: MIT
// The process-wide staging storage the image pools allocate from.
#include "image_pool.hpp"

#include <atomic>

namespace convolab::capture {

namespace {
std::atomic<std::shared_ptr<PixelStorage>> g_stagingStorage;
}  // namespace

std::shared_ptr<PixelStorage> stagingStorage() {
  return g_stagingStorage.load();
}

void setStagingStorage(std::shared_ptr<PixelStorage> storage) {
  g_stagingStorage.store(std::move(storage));
}

}  // namespace convolab::capture
