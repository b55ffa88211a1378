// SPDX-License-Identifier: MIT
// StagingStorage: where one pipeline's frames are allocated (pinned memory of the processing device, or the
// heap), handed by value to the worker that sets it and to the sources and pools that read it.
#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include "convolab/image.hpp"

namespace convolab::capture {

/// A cell holding the storage frames are allocated from: pinned host memory of the processing thread's OpenCL
/// context once it has opened a device (sources then decode straight into memory the device uploads from by
/// DMA), null (the heap) before that. Written by the processing thread, read by the capture thread.
class StagingStorage {
 public:
  std::shared_ptr<PixelStorage> get() const { return m_storage.load(); }
  void set(std::shared_ptr<PixelStorage> storage) { m_storage.store(std::move(storage)); }

 private:
  std::atomic<std::shared_ptr<PixelStorage>> m_storage;
};

/// What an ImagePool asks for the storage of each new buffer; an empty function means the heap.
using StorageProvider = std::function<std::shared_ptr<PixelStorage>()>;

/// A provider reading `cell` (null: the heap).
inline StorageProvider providerOf(std::shared_ptr<const StagingStorage> cell) {
  if (!cell) return {};
  return [cell = std::move(cell)] { return cell->get(); };
}

/// A provider that always answers `storage` (null: the heap).
inline StorageProvider fixedStorage(std::shared_ptr<PixelStorage> storage) {
  return [storage = std::move(storage)] { return storage; };
}

}  // namespace convolab::capture
