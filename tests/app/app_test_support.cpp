// SPDX-License-Identifier: MIT
// Helpers shared by the GUI tests.
#include "app_test_support.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "capture/test_pattern_source.hpp"
#include "capture/video_recorder.hpp"
#include "convolab/reference.hpp"
#include "processing/pipeline.hpp"
#include "resources.hpp"
#include "window/main_window.hpp"

namespace convolab::test {

namespace {
QtMessageHandler g_previousHandler = nullptr;
void quietHandler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (message.contains(QLatin1String("propagateSizeHints"))) return;  // offscreen plugin noise
  g_previousHandler(type, context, message);
}
}  // namespace

void prepareTestEnvironment(const QString& applicationName) {
  const QString home = qEnvironmentVariable("HOME");
  // ctest points HOME at build/tests/app/convolab-test-home/<test>; never wipe a real home.
  if (home.contains(QStringLiteral("convolab-test-home"))) {
    QDir(home).removeRecursively();
    QDir().mkpath(home);
    // XDG_RUNTIME_DIR lies inside the home just wiped: Qt wants it back, private (QStandardPaths warns).
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (runtime.startsWith(home) && QDir().mkpath(runtime))
      QFile::setPermissions(runtime, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  } else {
    qWarning("HOME is not a test home (%s): settings of this run are not isolated", qPrintable(home));
  }
  if (!g_previousHandler) g_previousHandler = qInstallMessageHandler(quietHandler);
  QCoreApplication::setOrganizationName(QStringLiteral("ConvoLabTest"));
  QCoreApplication::setApplicationName(applicationName);
  gui::initResources();
}

QString dataFile(const QString& name) {
  return QStringLiteral(CONVOLAB_TEST_DATA "/") + name;
}

gui::LaunchOptions launchOptions(const QString& source, const QString& strategy) {
  gui::LaunchOptions o;
  o.source = source;
  o.strategy = strategy;
  return o;
}

gui::ProcessedFramePtr waitForFrameWhere(gui::MainWindow& window,
                                         const std::function<bool(const gui::ProcessedFrame&)>& predicate,
                                         int timeoutMs) {
  gui::ProcessedFramePtr found;
  (void)QTest::qWaitFor(
      [&] {
        auto f = window.pipeline()->latestFrame();
        if (f && predicate(*f)) found = f;
        return found != nullptr;
      },
      timeoutMs);
  // latestFrame() is read from the worker directly: let the GUI thread catch up with it (its stats, panel
  // and idle state), so that what a test reads next is consistent with the frame found.
  if (found)
    (void)QTest::qWaitFor([&] { return window.pipeline()->deliveredSequence() >= found->record.sequence; },
                          timeoutMs);
  return found;
}

gui::ProcessedFramePtr waitForFrame(gui::MainWindow& window, std::uint64_t revision, int timeoutMs) {
  return waitForFrameWhere(
      window,
      [&](const gui::ProcessedFrame& f) {
        return f.record.filterRevision >= revision && f.record.error.isEmpty();
      },
      timeoutMs);
}

QString writePatternClip(const QString& path, int frames) {
  capture::TestPatternOptions opt;
  opt.width = 160;
  opt.height = 120;
  capture::TestPatternSource pattern(opt);
  pattern.open();
  capture::VideoRecorder recorder(path.toStdString(), 160, 120, 30);
  for (int i = 0; i < frames; ++i) {
    capture::Frame f;
    if (!pattern.read(f)) return {};
    recorder.push(f.image);
    while (recorder.written() + recorder.dropped() < static_cast<std::uint64_t>(i + 1)) QTest::qWait(2);
  }
  return path;
}

Image referenceResult(const Image& input, const FilterSet& filter) {
  Image out(input.width, input.height);
  referenceConvolve(input.view(), out.mutableView(), filter);
  return out;
}

FilterSet distinctChannelsFilter() {
  std::array<ChannelFilter, kChannels> channels;
  for (int c = 0; c < kChannels; ++c) {
    auto& ch = channels[static_cast<size_t>(c)];
    ch.size = 7;
    ch.matrix.assign(49, 0.0);
    double sum = 0;
    for (int j = 0; j < 7; ++j)
      for (int i = 0; i < 7; ++i) {
        const double v = ((i * 3 + j * 5 + c * 7) % 5) - 1.0;  // -1..3: mixed signs, different per channel
        ch.matrix[static_cast<size_t>(j * 7 + i)] = v;
        sum += v;
      }
    ch.divisor = sum != 0 ? sum : 1;
    ch.offset = 10.0 * c;
  }
  return FilterSet::make(channels, BorderMode::Reflect101, {0, 0, 0}, "distinct");
}

double contrastRatio(const QColor& a, const QColor& b) {
  const auto luminance = [](const QColor& c) {
    const auto channel = [](double v) {
      return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
  };
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace convolab::test
