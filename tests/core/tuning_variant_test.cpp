// SPDX-License-Identifier: MIT
// Every registered strategy × its tuning variants (plus odd shapes) against the reference, run directly so no
// fallback can hide a failure. Iterates the registry: a new strategy with tunable shapes is covered without
// edits here. (Borders × K × sizes of the default shapes: strategy_sweep_test.cpp.)
#include <gtest/gtest.h>

#include <map>

#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

/// Shapes the device's own list may lack: the other device type's style (GPU-style code must also be right
/// on a CPU device, and the reverse) and odd shapes whose tiles are not multiples of anything. Optional: a
/// strategy missing here is still tested with every variant it advertises.
const std::map<std::string, std::vector<std::string>>& extraVariants() {
  static const std::map<std::string, std::vector<std::string>> table{
      {"local", {"7x3", "1x1", "128x2"}},
      {"vector",
       {"b4x8-wg32x4-f1-s1-c0", "b8x3-wg5x3-f1-s1-c0", "b16x4-wg8x8-f1-s1-c1", "b4x1-wg7x2-f1-s1-c1"}},
      {"tiled",
       {"b4x8-wg16x4-f1-s1-c0", "b16x3-wg3x5-f4-s0-c0", "b16x4-wg8x8-f16-s0-c1", "b8x3-wg5x3-f8-s1-c1"}},
      {"codegen",
       {"b4x8-wg16x4-f1-s1-c0", "b8x3-wg5x3-f4-s0-c1", "b16x4-wg8x8-f16-s0-c1", "b4x2-wg7x3-f8-s1-c0"}},
  };
  return table;
}

/// The filters the variants rotate through: every border, K from 1 to 15, dense and rank 1 (codegen's fused
/// pass). Each variant runs the next one it accepts, so each filter meets several shapes (a variant × filter
/// is a program of its own, compiled cold in a fresh clone: one filter a variant, not two, docs/TESTING.md).
/// (Dense K ≥ 11: the sweep.)
std::vector<FilterSet> rotation() {
  return {randomFilter(3, BorderMode::Constant, 41),          randomFilter(7, BorderMode::Reflect101, 42),
          rankFilter(7, {1, 1, 1}, BorderMode::Constant, 43), randomFilter(5, BorderMode::Wrap, 44),
          randomFilter(1, BorderMode::Reflect101, 45),        randomFilter(3, BorderMode::Replicate, 46),
          rankFilter(15, {1, 1, 1}, BorderMode::Wrap, 47),    randomFilter(9, BorderMode::Reflect, 48)};
}

class TuningVariants : public ::testing::TestWithParam<std::string> {};

TEST_P(TuningVariants, EveryVariantMatchesReference) {
  const std::string& name = GetParam();
  auto ctx = sharedContext();
  const std::vector<FilterSet> filters = rotation();
  std::vector<std::string> variants = createStrategy(name)->tuningVariants(*ctx, filters[1]);
  if (auto it = extraVariants().find(name); it != extraVariants().end())
    for (const auto& v : it->second)
      if (std::find(variants.begin(), variants.end(), v) == variants.end()) variants.push_back(v);
  if (variants.size() < 2) GTEST_SKIP() << name << " has no tuning variants (the sweep covers its one shape)";
  size_t next = 0;
  for (const auto& variant : variants) {
    // The next filter of the rotation the variant accepts (a decline is a value, not a failure: e.g. a shape
    // whose tile does not fit for a large K).
    int ran = 0;
    std::string declines;
    for (size_t tried = 0; tried < filters.size() && ran < 1; ++tried) {
      const FilterSet& f = filters[next++ % filters.size()];
      auto s = createStrategy(name);
      s->setTuningVariant(variant);
      if (auto reason = s->unsupportedReason(*ctx, f)) {
        declines += " K=" + std::to_string(f.size()) + ": " + *reason + ";";
        continue;
      }
      ++ran;
      for (auto [w, h] : {std::pair{1, 1}, {2, 3}, {37, 29}, {130, 67}}) {
        SCOPED_TRACE(name + "/" + (variant.empty() ? "default" : variant) + " k" + std::to_string(f.size()) +
                     " " + std::string(borderName(f.border())) + " " + std::to_string(w) + "x" +
                     std::to_string(h));
        const Image in = randomImage(w, h, static_cast<std::uint32_t>(w * 7 + h));
        const Image out = runDirect(*s, *ctx, f, in), ref = referenceOf(in, f);
        EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
            << firstMismatch(out.view(), ref.view(), kTolerance);
      }
    }
    EXPECT_GT(ran, 0) << name << "/" << variant << " declined every filter:" << declines;
  }
}

TEST_P(TuningVariants, UnknownVariantKeepsTheDefault) {
  const std::string& name = GetParam();
  auto ctx = sharedContext();
  const FilterSet f = randomFilter(3, BorderMode::Reflect, 9);
  auto s = createStrategy(name);
  if (s->unsupportedReason(*ctx, f)) GTEST_SKIP() << name << " does not run this filter";
  s->setTuningVariant("nonsense");
  const Image in = randomImage(20, 10, 3);
  EXPECT_LE(maxAbsDiff(runDirect(*s, *ctx, f, in).view(), referenceOf(in, f).view()), kTolerance);
}

std::vector<std::string> namesWithoutAuto() {
  std::vector<std::string> names;
  for (const auto& n : strategyNames())
    if (n != "auto") names.push_back(n);  // auto's variants are the others' (it delegates)
  return names;
}

INSTANTIATE_TEST_SUITE_P(Registry, TuningVariants, ::testing::ValuesIn(namesWithoutAuto()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace convolab::test
