// SPDX-License-Identifier: MIT
// Shared helpers for core tests.
#include "test_support.hpp"

#include <algorithm>
#include <cstdlib>

#include <gtest/gtest.h>

#include "convolab/auto_choices.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"

namespace convolab::test {

namespace {
/// auto's background work stops before the test program returns from main (stopAutoMeasurements).
class StopAutoMeasurements : public ::testing::Environment {
 public:
  void TearDown() override { stopAutoMeasurements(); }
};
[[maybe_unused]] ::testing::Environment* const g_stopAutoMeasurements =
    ::testing::AddGlobalTestEnvironment(new StopAutoMeasurements);
}  // namespace

namespace {
// Tests check what auto runs, not how precisely it ranks: two timed runs per finalist keep the auto
// sweep quick (an explicit CONVOLAB_AUTO_RUNS still wins).
const bool kQuickAuto = [] { return ::setenv("CONVOLAB_AUTO_RUNS", "2", 0) == 0; }();
}  // namespace

std::shared_ptr<Context> sharedContext() {
  static std::shared_ptr<Context> ctx = std::make_shared<Context>("");
  return ctx;
}

Image randomImage(int width, int height, std::uint32_t seed, std::size_t padding) {
  Image img(width, height, static_cast<std::size_t>(width) * 3 + padding);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(0, 255);
  for (auto& p : img.pixels) p = static_cast<std::uint8_t>(d(rng));
  return img;
}

FilterSet randomFilter(int k, BorderMode border, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> w(-1.0, 1.0), off(-40.0, 40.0), bv(0.0, 255.0);
  std::array<ChannelFilter, 3> ch;
  for (auto& f : ch) {
    f.size = k;
    f.matrix.resize(static_cast<size_t>(k * k));
    double sum = 0;
    for (auto& v : f.matrix) v = w(rng), sum += v;
    // Keep the response in range: scale so Σ|w|/divisor ≈ 1.5, centre with an offset.
    double abs = 0;
    for (double v : f.matrix) abs += std::abs(v);
    f.divisor = abs / 1.5;
    f.offset = 128.0 - 127.5 * sum / f.divisor + off(rng);
  }
  return FilterSet::make(ch, border, {bv(rng), bv(rng), bv(rng)}, "random");
}

FilterSet exactFilter(int k, BorderMode border, std::uint32_t seed, bool small) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> w(-2, 2), off(0, 128);
  std::array<ChannelFilter, 3> ch;
  for (auto& f : ch) {
    f.size = k;
    f.matrix.resize(static_cast<size_t>(k * k));
    double abs = 0;
    for (auto& v : f.matrix) v = w(rng), abs += std::abs(v);
    f.divisor = 1;
    while (f.divisor * 2 < abs && f.divisor < (small ? 8 : 512)) f.divisor *= 2;
    f.offset = small ? 0 : off(rng);
  }
  return FilterSet::make(ch, border, {static_cast<double>(off(rng)), 7, 255}, "exact");
}

FilterChain randomChain(const std::vector<int>& ks, std::uint32_t seed, bool exact) {
  std::vector<ChainStep> steps;
  for (size_t i = 0; i < ks.size(); ++i) {
    const BorderMode b = kAllBorderModes[(seed + i) % std::size(kAllBorderModes)];
    const std::uint32_t s = seed * 131 + static_cast<std::uint32_t>(i) * 7;
    const bool magnitude = i % 3 == 1;
    auto make = [&](std::uint32_t fs) {
      return exact ? exactFilter(ks[i], b, fs, magnitude) : randomFilter(ks[i], b, fs);
    };
    if (magnitude) {
      const FilterSet a = make(s), other = make(s + 1);
      steps.push_back(ChainStep::magnitude(a, FilterSet::make(other.channels(), b, a.borderValue())));
    } else {
      steps.push_back(ChainStep::single(make(s)));
    }
    if (i == 2 && ks.size() >= 4) steps.back().enabled = false;
  }
  return FilterChain::make(std::move(steps), "random chain");
}

FilterSet rankFilter(int k, std::array<int, 3> ranks, BorderMode border, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::array<ChannelFilter, 3> ch;
  for (int c = 0; c < 3; ++c) {
    ChannelFilter& f = ch[static_cast<size_t>(c)];
    f.size = k;
    f.matrix.assign(static_cast<size_t>(k * k), 0.0);
    for (int t = 0; t < ranks[static_cast<size_t>(c)]; ++t) {
      std::vector<double> col(static_cast<size_t>(k)), row(static_cast<size_t>(k));
      for (auto& v : col) v = d(rng);
      for (auto& v : row) v = d(rng);
      for (int j = 0; j < k; ++j)
        for (int i = 0; i < k; ++i)
          f.matrix[static_cast<size_t>(j * k + i)] +=
              col[static_cast<size_t>(j)] * row[static_cast<size_t>(i)];
    }
    double abs = 0;
    for (double v : f.matrix) abs += std::abs(v);
    f.divisor = abs > 0 ? abs / 1.5 : 1.0;
    f.offset = 60.0 + 20.0 * c;
  }
  return FilterSet::make(ch, border, {37.25, 200.5, 3.0}, "ranked");
}

Image runDirect(Strategy& strategy, Context& ctx, const FilterSet& filter, const Image& in) {
  const size_t bytes = static_cast<size_t>(in.width) * static_cast<size_t>(in.height) * 3;
  Image packed(in.width, in.height);
  for (int y = 0; y < in.height; ++y)
    std::copy_n(in.view().row(y), static_cast<size_t>(in.width) * 3, packed.pixels.data() + y * in.width * 3);
  FrameBuffers frame{cl::Buffer(ctx.context(), CL_MEM_READ_ONLY, bytes),
                     cl::Buffer(ctx.context(), CL_MEM_WRITE_ONLY, bytes), in.width, in.height};
  ctx.queue().enqueueWriteBuffer(frame.input, CL_TRUE, 0, bytes, packed.pixels.data());
  strategy.prepare(ctx, filter, in.width, in.height);
  auto events = strategy.enqueue(ctx, frame, {});
  Image out(in.width, in.height);
  const std::vector<cl::Event> last{events.back().event};
  ctx.queue().enqueueReadBuffer(frame.output, CL_TRUE, 0, bytes, out.pixels.data(), &last);
  return out;
}

Image referenceOf(const Image& in, const FilterSet& filter) {
  Image ref(in.width, in.height);
  referenceConvolve(in.view(), ref.mutableView(), filter);
  return ref;
}

void rememberAutoChoice(Context& ctx, const FilterSet& filter, const StrategyId& chosen, int width,
                        int height) {
  ASSERT_TRUE(chosen.viaAuto) << chosen.toString() << " was not chosen by auto";
  AutoChoiceCache::instance().store(ctx.programCache(), autoChoiceKey(ctx, filter, width, height),
                                    AutoChoice{chosen.name, chosen.variant, 0});
}

Image convolve(Engine& engine, const Image& in) {
  Image out(in.width, in.height);
  engine.process(in.view(), out.mutableView());
  return out;
}

int occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

}  // namespace convolab::test
