// SPDX-License-Identifier: MIT
// Where fft starts to win on this device, for the Analysis dock: read from auto's measured choices
// (auto-choices.json, auto_choices.hpp), never a constant. No measurement at K ≥ 17 yet: it says so.
#pragma once

#include <QString>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "convolab/auto_choices.hpp"

namespace convolab::lab {

/// The smallest K fft runs (it declines smaller ones).
inline constexpr int kFftSmallestK = 17;

/// What auto's measured winners on one device say about fft (dense filters only: a rank-1 one runs
/// separable).
struct FftCrossover {
  std::string size;  ///< the measured frame size they come from ("1024x576")
  std::vector<std::pair<int, std::string>>
      winners;                   ///< K -> the fastest stored winner at that K, K ascending
  std::optional<int> fftFrom;    ///< the smallest K from which fft won at every larger measured K
  std::optional<int> otherUpTo;  ///< the largest K ≥ kFftSmallestK where another strategy won
  /// True when a dense filter of K ≥ kFftSmallestK was measured (fft took part).
  bool measured() const { return fftFrom || otherUpTo; }
};

/// The crossover from stored choices (autoChoiceKey keys: "device|driver|WxH|kK|dense|…"); the measured size
/// with the most K wins when there are several.
FftCrossover fftCrossoverOf(const std::vector<std::pair<std::string, AutoChoice>>& choices);

/// The crossover of the device called `deviceName` (any driver), from the process's AutoChoiceCache.
FftCrossover storedFftCrossover(const std::string& deviceName);

/// One sentence for people; `k` is the filter shown (0: none).
QString fftCrossoverText(const FftCrossover& crossover, const QString& deviceName, int k);

}  // namespace convolab::lab
