// SPDX-License-Identifier: MIT
// Shared helpers for core tests: seeded random images and filters, runs of a strategy; the comparisons are
// tests/support/image_difference.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "convolab/context.hpp"
#include "convolab/engine.hpp"
#include "convolab/filter.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/image.hpp"
#include "convolab/strategy.hpp"
#include "convolab/strategy_id.hpp"
#include "image_difference.hpp"  // maxAbsDiff, firstMismatch (tests/support)

namespace convolab::test {

/// Max |ours − reference| allowed per channel value: float vs double accumulation and rounding.
inline constexpr int kTolerance = 1;

/// One context for the whole test process (device from CONVOLAB_DEVICE, PoCL in CI).
std::shared_ptr<Context> sharedContext();

/// Random RGB image, optionally with padded rows (stride = width·3 + padding), fixed seed.
Image randomImage(int width, int height, std::uint32_t seed, std::size_t padding = 0);

/// Random dense per-channel K×K filter (weights in [-1, 1], divisor and offset chosen so outputs
/// spread over the whole 0..255 range without saturating everything), fixed seed.
FilterSet randomFilter(int k, BorderMode border, std::uint32_t seed);

/// K×K filter whose channel c has rank ranks[c] (0: all zeros; random outer products), per-channel offset
/// and a non-zero border value, fixed seed. What separable, lowrank and codegen's fused pass are for.
FilterSet rankFilter(int k, std::array<int, 3> ranks, BorderMode border, std::uint32_t seed);

/// Filter whose every output is exact in float: integer weights in [-2, 2], a power-of-two divisor (≥ Σ|w| /
/// 2, at most 8 when `small`, so a magnitude's a² + b² stays exact too), an integer offset, fixed seed.
FilterSet exactFilter(int k, BorderMode border, std::uint32_t seed, bool small = false);

/// A chain of ks.size() steps of K ks[i], fixed seed: step i reads with border kAllBorderModes[(seed + i) %
/// 5]; every step i % 3 == 1 is a magnitude (its two filters of K ks[i]); step 2 of a chain of 4 or more is
/// switched off. `exact`: exactFilter steps (small ones in magnitudes), else randomFilter ones.
FilterChain randomChain(const std::vector<int>& ks, std::uint32_t seed, bool exact);

/// Runs `strategy` directly (no engine, so no fallback can hide a failure): prepare, enqueue on a packed
/// copy of `in` (no row padding), read back.
Image runDirect(Strategy& strategy, Context& ctx, const FilterSet& filter, const Image& in);

/// The CPU reference for `filter` on `in`.
Image referenceOf(const Image& in, const FilterSet& filter);

/// Makes `chosen` (what auto picked for `filter` at some frame size, Engine::activeStrategyId()) auto's
/// remembered choice at width × height too, as a warm choice cache would after a restart. Tests of auto's
/// output at several sizes then measure once per filter structure instead of once per size (each
/// measurement times every strategy and variant: tens of seconds on PoCL).
void rememberAutoChoice(Context& ctx, const FilterSet& filter, const StrategyId& chosen, int width,
                        int height);

/// Runs one frame through `engine` (its current filter and strategy) into a new packed image.
Image convolve(Engine& engine, const Image& in);

/// How many times `what` occurs in `text` (overlapping occurrences count): e.g. fma( calls in generated
/// source.
int occurrences(const std::string& text, const std::string& what);

}  // namespace convolab::test
