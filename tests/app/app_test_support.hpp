// SPDX-License-Identifier: MIT
// Shared helpers of the GUI tests: a clean per-test home, launch options, waiting for frames; images are
// compared with tests/support/image_difference.hpp (maxAbsDiff, meanAbsDiff), included here.
#pragma once

#include <QColor>
#include <QString>
#include <functional>

#include "command_line.hpp"
#include "convolab/filter.hpp"
#include "convolab/image.hpp"
#include "image_difference.hpp"
#include "processing/processed_frame.hpp"

namespace convolab::gui {
class MainWindow;
}

namespace convolab::test {

/// Call first in initTestCase(): wipes the per-test HOME that ctest set (only if it looks like one),
/// names the application so QSettings/QStandardPaths land there, and registers resources.
void prepareTestEnvironment(const QString& applicationName);

/// Path of a file in tests/data.
QString dataFile(const QString& name);

/// What most window tests launch: `source` (a spec such as "pattern:96x64@30", or a file: dataFile(…)) under
/// `strategy`; naive by default, whose output the pixel checks compare with the CPU reference.
gui::LaunchOptions launchOptions(const QString& source, const QString& strategy = QStringLiteral("naive"));

/// Waits (processing events) until the window's newest frame was made with filter revision ≥ `revision`
/// and without error; null on timeout.
gui::ProcessedFramePtr waitForFrame(gui::MainWindow& window, std::uint64_t revision, int timeoutMs = 60000);
/// Waits until `predicate` holds on the newest frame; null on timeout.
gui::ProcessedFramePtr waitForFrameWhere(gui::MainWindow& window,
                                         const std::function<bool(const gui::ProcessedFrame&)>& predicate,
                                         int timeoutMs = 60000);

/// Writes a `frames`-frame 160×120 test-pattern clip to `path` with the app's own recorder (each frame
/// waited for, so none is dropped); returns `path`, or "" when the pattern gave no frame.
QString writePatternClip(const QString& path, int frames);

/// The CPU reference result of `filter` on `input`.
Image referenceResult(const Image& input, const FilterSet& filter);
/// A 7×7 per-channel filter with distinct, non-trivial weights in each channel.
FilterSet distinctChannelsFilter();

/// WCAG 2 contrast ratio of two colours (1 to 21; text needs 4.5).
double contrastRatio(const QColor& a, const QColor& b);

}  // namespace convolab::test
