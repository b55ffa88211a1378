// SPDX-License-Identifier: MIT
// What the Chain dock's tests share (test_chain_dock.cpp, test_chain_editing.cpp): 3×3 steps, a window on a
// small pattern, and waiting until the preview shows a chain.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "convolab/filter_chain.hpp"
#include "window/main_window.hpp"

namespace convolab::test {

/// A 3×3 step of `m` / `divisor` (offset 0) under reflect101, named `name`.
ChainStep step3x3(const std::string& name, std::vector<double> m, double divisor = 1);
/// The 3×3 binomial blur (1 2 1 / 2 4 2 / 1 2 1, divisor 16).
ChainStep blur(const std::string& name = "blur");
/// The 3×3 sharpen (centre 5, its four neighbours −1).
ChainStep sharpen(const std::string& name = "sharpen");

/// A shown window on pattern:96x64@30 under naive; `forget`: without the last case's chain and custom step
/// (their settings removed first).
std::unique_ptr<gui::MainWindow> openChainWindow(bool forget = true);

/// Waits (60 s at most) for a frame of the window's current filter revision, with timings and not stale,
/// whose output is referenceChain(chain) of its input within ±1 (a rounding tie between steps) and differs
/// from its input by more than `change` (-1: any output).
bool waitForChain(gui::MainWindow& window, const FilterChain& chain, int change = -1);

}  // namespace convolab::test
