// SPDX-License-Identifier: MIT
// Images in pinned staging memory (PinnedPixelStorage), Engine::prepare, and auto's progress reports.
#include <gtest/gtest.h>

#include <random>

#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/pinned_pixel_storage.hpp"
#include "convolab/progress.hpp"
#include "convolab/reference.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

TEST(PixelStorage, ImagesLiveInPinnedMemoryAndCopiesGoToTheHeap) {
  auto storage = std::make_shared<PinnedPixelStorage>(sharedContext());
  {
    Image pinned(33, 17, 0, storage);
    EXPECT_EQ(pinned.storage(), storage.get());
    EXPECT_EQ(storage->liveBuffers(), 1u);
    pinned.pixels[5] = 42;
    const Image copy = pinned;  // a copy is not a staging buffer
    EXPECT_EQ(copy.storage(), nullptr);
    EXPECT_EQ(copy.pixels[5], 42);
    Image moved = std::move(pinned);
    EXPECT_EQ(moved.storage(), storage.get());
    EXPECT_EQ(storage->liveBuffers(), 1u);
    Image heap(4, 4);
    heap = std::move(moved);  // move assignment takes the storage along
    EXPECT_EQ(heap.storage(), storage.get());
    EXPECT_EQ(heap.pixels[5], 42);
  }
  EXPECT_EQ(storage->liveBuffers(), 0u);
  // Too large for the storage's limit: the heap takes it.
  auto small = std::make_shared<PinnedPixelStorage>(sharedContext(), 100);
  Image big(64, 64, 0, small);
  EXPECT_EQ(big.storage(), small.get());  // the allocator remembers the storage…
  EXPECT_EQ(small->liveBuffers(), 0u);    // …but the pixels are on the heap
}

TEST(PixelStorage, EngineProcessesPinnedFramesCorrectly) {
  auto storage = std::make_shared<PinnedPixelStorage>(sharedContext());
  const FilterSet f = randomFilter(5, BorderMode::Reflect101, 7);
  const Image source = randomImage(41, 29, 3);
  Image in(41, 29, 0, storage), out(41, 29, 0, storage), ref(41, 29);
  std::copy(source.pixels.begin(), source.pixels.end(), in.pixels.begin());
  Engine engine(sharedContext(), "naive");
  engine.setFilter(f);
  engine.prepare(41, 29);
  engine.process(in.view(), out.mutableView());
  referenceConvolve(in.view(), ref.mutableView(), f);
  EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance);
}

TEST(Progress, AutoReportsItsMeasurementsOnThisThread) {
  std::vector<std::pair<int, int>> reports;
  auto previous = setThreadProgressCallback([&](const std::string& what, int done, int total) {
    EXPECT_EQ(what, "measuring strategies");
    reports.emplace_back(done, total);
  });
  const CoreConfig saved = coreConfig();
  CoreConfig now = saved;
  now.autoMeasure = CoreConfig::AutoMeasure::Now;  // measured in prepare(), on this thread
  setCoreConfig(now);
  Engine engine(sharedContext(), "auto");
  engine.setFilter(randomFilter(3, BorderMode::Replicate, 11));
  // A size no run has measured yet (auto's choices are cached on disk per size), so auto measures here.
  std::random_device seed;
  const int width = 24 + static_cast<int>(seed() % 200), height = 16 + static_cast<int>(seed() % 200);
  engine.prepare(width, height);
  setCoreConfig(saved);
  setThreadProgressCallback(std::move(previous));
  if (reports.empty()) GTEST_SKIP() << "auto's choice for this size came from the on-disk cache";
  EXPECT_EQ(reports.back().first, reports.back().second);  // ends at N/N
  for (const auto& [done, total] : reports) EXPECT_LE(done, total);
}

}  // namespace
}  // namespace convolab::test
