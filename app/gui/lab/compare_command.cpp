// SPDX-License-Identifier: MIT
// runCompareCommand: source → first frame, filter or chain file, device → StrategyComparison (a chain:
// compareChainStrategies) → JSON file.
#include "compare_command.hpp"

#include <cstdio>
#include <thread>

#include "capture/frame_source.hpp"
#include "compare_chain.hpp"
#include "convolab/atomic_file.hpp"
#include "convolab/error.hpp"
#include "convolab/filter_chain_io.hpp"
#include "sources/source_factory.hpp"
#include "strategy_comparison.hpp"

namespace convolab::lab {

using gui::kAutoSpec;
using gui::kSampleSpec;
using gui::makeSource;
using gui::resolveAutoSpec;
namespace {
void complain(const QString& message) {
  std::fprintf(stderr, "convolab: %s\n", qPrintable(message));
}
}  // namespace

int runCompareCommand(const gui::LaunchOptions& options, int iterations) {
  FilterChain chain;  // a filter file is a chain of one step
  if (!options.filter.isEmpty()) {
    try {
      chain = loadFilterChainFile(options.filter.toStdString());
    } catch (const std::exception& e) {
      complain(QString::fromStdString(e.what()));
      return 3;
    }
    if (!comparesAsChain(chain) && !chain.singleFilter()) {
      complain(
          QStringLiteral("--compare: %1 holds no filter to compare: one switched-on step that is not a "
                         "filter (a magnitude or custom OpenCL step; a chain of two or more steps compares "
                         "fused against step by step)")
              .arg(options.filter));
      return 3;
    }
  }
  capture::Frame frame;
  try {
    const QString spec = options.source.isEmpty() ? kSampleSpec : options.source;
    auto source = makeSource(spec == kAutoSpec ? resolveAutoSpec() : spec);
    source->open();
    bool got = false;
    for (int attempt = 0; attempt < 100 && !got; ++attempt) {
      got = source->read(frame) && frame.image && frame.image->width > 0;
      if (!got) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    source->close();
    if (!got) {
      complain(QStringLiteral("--compare: the source '%1' delivered no frame").arg(spec));
      return 3;
    }
  } catch (const std::exception& e) {
    complain(QString::fromStdString(e.what()));
    return 3;
  }
  ComparisonReport report;
  try {
    Context context(options.device.toStdString());
    ComparisonOptions o;
    o.iterations = iterations;
    std::fprintf(stderr, "convolab: comparing strategies on %s, %dx%d…\n", context.device().name.c_str(),
                 frame.image->width, frame.image->height);
    report = comparesAsChain(chain)
                 ? compareChainStrategies(context, chain, frame.image->view(), o)
                 : compareStrategies(context, *chain.singleFilter(), frame.image->view(), o);
  } catch (const Error& e) {
    complain(QString::fromStdString(e.what()));
    return e.kind() == ErrorKind::Device ? 4 : 3;
  } catch (const std::exception& e) {
    complain(QString::fromStdString(e.what()));
    return 4;
  }
  const std::string json = convolab::lab::comparisonToJson(report);
  try {  // the output rule, checked before measuring too (parseCommandLine)
    writeFileAtomically(options.compare.toStdString(), json, options.force);
  } catch (const std::exception& e) {
    complain(QStringLiteral("--compare: %1").arg(QString::fromUtf8(e.what())));
    return 3;
  }
  std::fputs(convolab::lab::comparisonToMarkdown(report).c_str(), stdout);
  return 0;
}

}  // namespace convolab::lab
