// SPDX-License-Identifier: MIT
// convolab_soak_gui: the GUI under a long run — random strategy switches and filter edits on a live source,
// RSS every 10 s, and every gap of more than 1 s without a processed frame. Not a ctest by default (too
// long); scripts/soak_gui.sh runs it, and a 20-second version is the ctest `app.soak_gui_short` (label soak).
#include <malloc.h>
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "convolab/registry.hpp"
#include "editor/filter_document.hpp"
#include "literal_baker.hpp"
#include "processing/pipeline.hpp"
#include "resources.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;
using Clock = std::chrono::steady_clock;

namespace {

/// Where the process's memory is, so growth can be told apart: live heap blocks (our objects, or a backlog),
/// free heap the allocator keeps (fragmentation), large blocks it mmapped, and driver mappings.
struct MemorySample {
  double atS = 0;
  double rssMiB = 0;
  double heapInUseMiB = 0;  ///< malloc'd and not freed (all arenas)
  double heapFreeMiB = 0;   ///< freed but kept by the allocator (arenas' free lists)
  double mmappedMiB = 0;    ///< blocks above the mmap threshold
  int kernelLibraries = 0;  ///< PoCL kernel libraries (.so) mapped
  int literalPrograms = 0;  ///< codegen/sliding literal programs built (bounded by CONVOLAB_LITERAL_PROGRAMS)
  int threads = 0;
};

MemorySample sampleMemory(double atS) {
  MemorySample m;
  m.atS = atS;
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) m.rssMiB = std::stod(line.substr(6)) / 1024.0;
    if (line.rfind("Threads:", 0) == 0) m.threads = std::stoi(line.substr(8));
  }
  m.literalPrograms = literalProgramsBuilt();
  const struct mallinfo2 heap = mallinfo2();
  m.heapInUseMiB = static_cast<double>(heap.uordblks) / (1 << 20);
  m.heapFreeMiB = static_cast<double>(heap.fordblks) / (1 << 20);
  m.mmappedMiB = static_cast<double>(heap.hblkhd) / (1 << 20);
  std::ifstream maps("/proc/self/maps");
  std::string previous;
  while (std::getline(maps, line)) {
    // A PoCL kernel library lives in its cache as .../<hash>/<kernel>/.../parallel.so; count each file once.
    const auto path = line.find('/');
    if (path == std::string::npos || line.find("/pocl/", path) == std::string::npos ||
        line.compare(line.size() - 3, 3, ".so") != 0)
      continue;
    if (line.substr(path) != previous) ++m.kernelLibraries;
    previous = line.substr(path);
  }
  return m;
}

FilterSet randomFilter(std::mt19937& rng) {
  const int sizes[] = {3, 5, 7, 9};
  const int k = sizes[rng() % 4];
  std::uniform_int_distribution<int> weight(-3, 6);
  ChannelFilter ch;
  ch.size = k;
  ch.matrix.assign(static_cast<size_t>(k * k), 0.0);
  double sum = 0;
  for (auto& v : ch.matrix) sum += (v = weight(rng));
  ch.divisor = sum > 0 ? sum : 1;
  return FilterSet::uniform(ch);
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("convolab-soak"));
  initResources();
  QCommandLineParser parser;
  parser.addHelpOption();
  QCommandLineOption seconds("seconds", "Run time", "S", "600");
  QCommandLineOption source("source", "Source spec", "SPEC", "pattern:1920x1080@30");
  QCommandLineOption device("device", "OpenCL device", "SPEC", "");
  QCommandLineOption strategies("strategies", "Comma-separated strategies to switch between (default: all)",
                                "LIST");
  QCommandLineOption switchMs("switch-ms", "Mean time between strategy switches", "MS", "6000");
  QCommandLineOption editMs("edit-ms", "Mean time between filter edits", "MS", "1500");
  QCommandLineOption sampleMs("sample-ms", "RSS sampling interval", "MS", "10000");
  QCommandLineOption maxGapMs("max-gap-ms", "Exit 1 if frames stop for longer (0: never)", "MS", "0");
  QCommandLineOption maxGrowth("max-growth-mib", "Exit 1 if RSS grows more after the first sample (0: never)",
                               "MIB", "0");
  QCommandLineOption json("json", "Write the result as JSON", "FILE");
  parser.addOptions(
      {seconds, source, device, strategies, switchMs, editMs, sampleMs, maxGapMs, maxGrowth, json});
  parser.process(app);

  QStringList names = parser.value(strategies).split(',', Qt::SkipEmptyParts);
  if (names.isEmpty())
    for (const auto& e : strategyRegistry())
      names << QString::fromUtf8(e.name.data(), static_cast<int>(e.name.size()));

  LaunchOptions options;
  options.source = parser.value(source);
  options.strategy = names.front();
  options.device = parser.value(device);
  MainWindow window(options);
  window.resize(1280, 800);
  window.show();

  std::mt19937 rng(20261123);
  const auto start = Clock::now();
  const double runSeconds = parser.value(seconds).toDouble();
  Clock::time_point lastFrame{};
  double longestGap = 0;
  std::vector<std::pair<double, double>> gaps;  // (at s, length s)
  std::vector<MemorySample> memory;
  std::uint64_t frames = 0, switches = 0, edits = 0;
  QString asked = names.front(), lastRan;  // the strategy picked last, and the one that ran the last frame
  auto since = [&](Clock::time_point t) { return std::chrono::duration<double>(t - start).count(); };

  QObject::connect(window.pipeline(), &Pipeline::frameProcessed, [&](const FrameRecord& r) {
    if (!r.hasTimings) return;  // passed through unfiltered: not processed
    const auto now = Clock::now();
    if (lastFrame != Clock::time_point{}) {
      const double gap = std::chrono::duration<double>(now - lastFrame).count();
      longestGap = std::max(longestGap, gap);
      if (gap > 1.0) {
        gaps.emplace_back(since(now), gap);
        std::fprintf(stderr, "soak: %.1f s without a processed frame, at %.0f s\n", gap, since(now));
      }
    }
    lastFrame = now;
    ++frames;
    lastRan = QString::fromStdString(r.timings.strategy.toString());
  });

  auto sampleRss = [&] {
    memory.push_back(sampleMemory(since(Clock::now())));
    const auto& m = memory.back();
    std::fprintf(
        stderr,
        "soak: %6.0f s  RSS %7.1f MiB (heap %6.1f used %6.1f free, %6.1f mmapped, %d kernel libs, %d literal "
        "programs, %d threads)  frames %llu  switches %llu  edits %llu  %s -> %s\n",
        m.atS, m.rssMiB, m.heapInUseMiB, m.heapFreeMiB, m.mmappedMiB, m.kernelLibraries, m.literalPrograms,
        m.threads, static_cast<unsigned long long>(frames), static_cast<unsigned long long>(switches),
        static_cast<unsigned long long>(edits), qPrintable(asked), qPrintable(lastRan));
  };
  QTimer rssTimer;
  QObject::connect(&rssTimer, &QTimer::timeout, sampleRss);
  rssTimer.start(parser.value(sampleMs).toInt());
  QTimer::singleShot(0, sampleRss);

  std::exponential_distribution<double> switchGap(1.0 / parser.value(switchMs).toDouble());
  std::exponential_distribution<double> editGap(1.0 / parser.value(editMs).toDouble());
  QTimer switcher, editor;
  switcher.setSingleShot(true);
  editor.setSingleShot(true);
  QObject::connect(&switcher, &QTimer::timeout, [&] {
    asked = names[static_cast<int>(rng() % static_cast<unsigned>(names.size()))];
    window.setStrategy(asked);
    ++switches;
    switcher.start(static_cast<int>(switchGap(rng)) + 200);
  });
  QObject::connect(&editor, &QTimer::timeout, [&] {
    window.document()->replace(randomFilter(rng), QStringLiteral("soak"));
    ++edits;
    editor.start(static_cast<int>(editGap(rng)) + 100);
  });
  switcher.start(static_cast<int>(switchGap(rng)) + 200);
  editor.start(static_cast<int>(editGap(rng)) + 100);

  QTimer::singleShot(static_cast<int>(runSeconds * 1000), &app, [&] {
    // A gap still open at the end counts too.
    if (lastFrame != Clock::time_point{}) {
      const double open = std::chrono::duration<double>(Clock::now() - lastFrame).count();
      longestGap = std::max(longestGap, open);
      if (open > 1.0) gaps.emplace_back(since(Clock::now()), open);
    }
    sampleRss();
    app.quit();
  });
  app.exec();

  // Growth after start-up: from the second sample (the first is taken before the window has a frame).
  const double first = memory.size() > 1 ? memory[1].rssMiB : memory.front().rssMiB;
  const double growth = memory.back().rssMiB - first;
  nlohmann::json out = {{"seconds", runSeconds},
                        {"source", options.source.toStdString()},
                        {"device", window.deviceLabel().toStdString()},
                        {"frames", frames},
                        {"switches", switches},
                        {"edits", edits},
                        {"longest_gap_s", longestGap},
                        {"gaps_over_1s", nlohmann::json::array()},
                        {"memory", nlohmann::json::array()},
                        {"rss_growth_after_first_sample_mib", growth}};
  for (const auto& [at, length] : gaps) out["gaps_over_1s"].push_back({{"at_s", at}, {"length_s", length}});
  for (const auto& m : memory)
    out["memory"].push_back({{"at_s", m.atS},
                             {"rss_mib", m.rssMiB},
                             {"heap_in_use_mib", m.heapInUseMiB},
                             {"heap_free_mib", m.heapFreeMiB},
                             {"mmapped_mib", m.mmappedMiB},
                             {"kernel_libraries", m.kernelLibraries},
                             {"literal_programs", m.literalPrograms},
                             {"threads", m.threads}});
  const std::string text = out.dump(2) + "\n";
  std::fputs(text.c_str(), stdout);
  if (parser.isSet(json)) std::ofstream(parser.value(json).toStdString()) << text;

  int rc = 0;
  const double gapLimit = parser.value(maxGapMs).toDouble() / 1000.0;
  if (frames == 0 || (gapLimit > 0 && longestGap > gapLimit)) {
    std::fprintf(stderr, "soak: FAILED: longest gap %.2f s (limit %.2f s), %llu frames\n", longestGap,
                 gapLimit, static_cast<unsigned long long>(frames));
    rc = 1;
  }
  const double growthLimit = parser.value(maxGrowth).toDouble();
  if (growthLimit > 0 && growth > growthLimit) {
    std::fprintf(stderr, "soak: FAILED: RSS grew %.1f MiB (limit %.1f MiB)\n", growth, growthLimit);
    rc = 1;
  }
  return rc;
}
