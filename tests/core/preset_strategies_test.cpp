// SPDX-License-Identifier: MIT
// Every bundled preset (resources/presets/*.json and the chains in resources/presets/chains) through every
// strategy against the CPU reference, within kTolerance: what a person picks from the Presets menu runs right
// whichever strategy is chosen (issue 34). auto is left out: it runs the others (and measures, slowly on
// PoCL). The custom OpenCL examples have no CPU reference; custom_examples_opencv_test.cpp checks them.
#include <gtest/gtest.h>

#include <filesystem>

#include "convolab/engine.hpp"
#include "convolab/filter_chain_io.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

std::vector<std::filesystem::path> presetFiles() {
  std::vector<std::filesystem::path> files;
  const std::filesystem::path root = std::filesystem::path(CONVOLAB_SOURCE_DIR) / "resources/presets";
  for (const auto& folder : {root, root / "chains"})
    for (const auto& e : std::filesystem::directory_iterator(folder))
      if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> strategiesButAuto() {
  std::vector<std::string> names;
  for (const std::string& n : strategyNames())
    if (n != kAutoStrategy) names.push_back(n);
  return names;
}

class PresetStrategies : public ::testing::TestWithParam<std::string> {};

TEST_P(PresetStrategies, EveryPresetMatchesTheReference) {
  const Image in = randomImage(41, 29, 77);
  int ran = 0;
  const auto files = presetFiles();
  ASSERT_GE(files.size(), 18u);  // 14 filters and 4 chains today: a lost folder must not pass quietly
  for (const auto& file : files) {
    const FilterChain chain = loadFilterChainFile(file);
    if (auto one = chain.singleFilter();
        one && createStrategy(GetParam())->unsupportedReason(*sharedContext(), *one))
      continue;  // e.g. separable on a dense preset: the engine would fall back, which the sweep covers
    Engine engine(sharedContext(), GetParam());
    engine.setChain(chain);
    Image ref(in.width, in.height);
    referenceChain(in.view(), ref.mutableView(), chain);
    const Image out = convolve(engine, in);
    EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
        << file.filename() << ": " << firstMismatch(out.view(), ref.view(), kTolerance);
    ++ran;
  }
  EXPECT_GT(ran, 0);
}

INSTANTIATE_TEST_SUITE_P(Registry, PresetStrategies, ::testing::ValuesIn(strategiesButAuto()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace convolab::test
