// SPDX-License-Identifier: MIT
// The strategy registry: the one table that names every strategy. Adding a strategy = one row here.
#include "convolab/registry.hpp"

#include "convolab/error.hpp"

namespace convolab {

std::unique_ptr<Strategy> makeNaiveStrategy();
std::unique_ptr<Strategy> makeConstantStrategy();
std::unique_ptr<Strategy> makeVectorStrategy();
std::unique_ptr<Strategy> makeLocalStrategy();
std::unique_ptr<Strategy> makeImageStrategy();
std::unique_ptr<Strategy> makeSeparableStrategy();
std::unique_ptr<Strategy> makeTiledStrategy();
std::unique_ptr<Strategy> makeCodegenStrategy();
std::unique_ptr<Strategy> makeLowrankStrategy();
std::unique_ptr<Strategy> makeSlidingStrategy();
std::unique_ptr<Strategy> makeDynamicStrategy();
std::unique_ptr<Strategy> makeFftStrategy();

namespace {
/// The registry's auto: measures every other row.
std::unique_ptr<Strategy> makeRegistryAutoStrategy() {
  return makeAutoStrategy(strategyCandidates());
}
}  // namespace

const std::vector<StrategyEntry>& strategyRegistry() {
  static const std::vector<StrategyEntry> table{
      {"naive", "one work-item per pixel, weights and pixels read from global memory", &makeNaiveStrategy},
      {"constant", "weights in __constant memory, radius as a build option, loops unrolled",
       &makeConstantStrategy},
      {"vector", "several pixels per work-item with vector loads/stores (vload/vstore), float math",
       &makeVectorStrategy},
      {"local", "work-group tile plus halo staged in local memory, then convolved from there",
       &makeLocalStrategy},
      {"image", "frame in an image2d_t read through a sampler (texture cache)", &makeImageStrategy},
      {"separable", "two 1-D passes (rows, then columns) for rank-1 filters; declines others",
       &makeSeparableStrategy},
      {"tiled", "register tiling: each work-item computes a block of outputs from a local-memory tile",
       &makeTiledStrategy},
      {"codegen", "kernel generated for this filter: coefficients as literals, zero taps skipped",
       &makeCodegenStrategy},
      {"lowrank", "sum of r separable passes from the SVD, when cheaper than dense (r <= 2 for K = 7)",
       &makeLowrankStrategy},
      {"sliding", "generated register sliding window: each work-item walks down a strip, rows loaded once",
       &makeSlidingStrategy},
      {"dynamic",
       "K, border and weights as run-time arguments: one program for every filter, no build per edit",
       &makeDynamicStrategy},
      {"fft",
       "pad with the border, FFT (VkFFT), multiply by the kernel's spectrum, inverse FFT: cost flat in K",
       &makeFftStrategy},
      {kAutoStrategy, "measures the strategies that accept this device and filter, then uses the fastest",
       &makeRegistryAutoStrategy},
  };
  return table;
}

const StrategyEntry* findStrategy(std::string_view name) {
  for (const auto& e : strategyRegistry())
    if (e.name == name) return &e;
  return nullptr;
}

void requireStrategyName(std::string_view name) {
  if (findStrategy(name)) return;
  std::string names;
  for (const auto& e : strategyRegistry()) names += (names.empty() ? "" : ", ") + std::string(e.name);
  throw Error(ErrorKind::Usage, "unknown strategy '" + std::string(name) + "'; expected one of: " + names);
}

std::unique_ptr<Strategy> createStrategy(std::string_view name) {
  requireStrategyName(name);
  return findStrategy(name)->create();
}

std::vector<StrategyEntry> strategyCandidates() {
  std::vector<StrategyEntry> rows;
  for (const auto& e : strategyRegistry())
    if (e.name != kAutoStrategy) rows.push_back(e);
  return rows;
}

std::vector<std::string> strategyNames() {
  std::vector<std::string> names;
  for (const auto& e : strategyRegistry()) names.emplace_back(e.name);
  return names;
}

}  // namespace convolab
