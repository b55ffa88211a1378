// SPDX-License-Identifier: MIT
// Where fft starts to win on this device, from auto's stored choices: see fft_crossover_analysis.hpp.
#include "fft_crossover_analysis.hpp"

#include <QCoreApplication>
#include <QStringList>
#include <map>
#include <regex>

#include "convolab/program_cache.hpp"

namespace convolab::lab {
namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("FilterAnalysisPanel", text);
}

/// size, K and rank class of an autoChoiceKey, or false when the key has another shape.
bool parseKey(const std::string& key, std::string& size, int& k, std::string& rankClass) {
  static const std::regex shape(R"(\|(\d+x\d+)\|k(\d+)\|(dense|rank1)\|)");
  std::smatch m;
  if (!std::regex_search(key, m, shape)) return false;
  size = m[1];
  k = std::stoi(m[2]);
  rankClass = m[3];
  return true;
}

}  // namespace

FftCrossover fftCrossoverOf(const std::vector<std::pair<std::string, AutoChoice>>& choices) {
  // size -> K -> the fastest dense winner stored there
  std::map<std::string, std::map<int, AutoChoice>> bySize;
  for (const auto& [key, choice] : choices) {
    std::string size, rankClass;
    int k = 0;
    if (!parseKey(key, size, k, rankClass) || rankClass != "dense") continue;
    auto& at = bySize[size];
    if (auto it = at.find(k); it == at.end() || choice.ms < it->second.ms) at[k] = choice;
  }
  FftCrossover out;
  const std::map<int, AutoChoice>* best = nullptr;
  for (const auto& [size, ks] : bySize)
    if (!best || ks.size() >= best->size()) best = &ks, out.size = size;
  if (!best) return out;
  for (const auto& [k, choice] : *best) {
    out.winners.emplace_back(k, choice.strategy);
    if (k < kFftSmallestK) continue;
    if (choice.strategy == "fft") {
      if (!out.fftFrom) out.fftFrom = k;
    } else {
      out.otherUpTo = k;
      out.fftFrom.reset();  // lost again at a larger K: the crossover lies above
    }
  }
  return out;
}

FftCrossover storedFftCrossover(const std::string& deviceName) {
  if (deviceName.empty()) return {};
  return fftCrossoverOf(AutoChoiceCache::instance().withPrefix(ProgramCache(), deviceName + "|"));
}

QString fftCrossoverText(const FftCrossover& c, const QString& deviceName, int k) {
  const QString device = deviceName.isEmpty() ? tr("this device") : deviceName;
  if (!c.measured())
    return tr("Not measured on %1 yet. FFT runs from K = %2; run a dense filter of that size or larger under "
              "auto and its measurement shows here.")
        .arg(device)
        .arg(kFftSmallestK);
  QStringList seen;
  for (const auto& [kk, strategy] : c.winners)
    if (kk >= kFftSmallestK) seen << QStringLiteral("K %1 %2").arg(kk).arg(QString::fromStdString(strategy));
  QString text;
  if (c.fftFrom && c.otherUpTo)
    text = tr("FFT wins from K = %1 on %2; below, up to K = %3, a direct or factored strategy is faster.")
               .arg(*c.fftFrom)
               .arg(device)
               .arg(*c.otherUpTo);
  else if (c.fftFrom)
    text = tr("FFT won at every K measured on %1 (from K = %2).").arg(device).arg(*c.fftFrom);
  else
    text = tr("FFT has not won on %1 yet: up to K = %2 another strategy was faster.")
               .arg(device)
               .arg(*c.otherUpTo);
  if (k >= kFftSmallestK && c.fftFrom)
    text += QStringLiteral(" ") + (k >= *c.fftFrom ? tr("This filter (K = %1) is on the FFT side.").arg(k)
                                                   : tr("This filter (K = %1) is below it.").arg(k));
  return text + QStringLiteral(" ") +
         tr("Auto's winners at %1: %2.").arg(QString::fromStdString(c.size), seen.join(QStringLiteral(", ")));
}

}  // namespace convolab::lab
