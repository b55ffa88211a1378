// SPDX-License-Identifier: MIT
// The Custom OpenCL panel (issue 36): a syntax error shows on its line while the last good kernel keeps
// running, an endless loop is refused while the preview keeps its rate, slider moves change the output at
// once (no trial), newest-wins trials, examples, files, settings and Kernel Source.
#include <QAction>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QListWidget>
#include <QMenu>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <atomic>
#include <thread>

#include "app_settings.hpp"
#include "app_test_support.hpp"
#include "custom/custom_code_editor.hpp"
#include "custom/custom_kernel_controller.hpp"
#include "custom/custom_kernel_dock.hpp"
#include "custom/custom_kernel_panel.hpp"
#include "custom/custom_param_dialog.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "gui_test_main.hpp"
#include "lab/kernel_source_dialog.hpp"
#include "lab/lab_controller.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

// A loop no compiler can drop (its result is used; NVIDIA's drops loops it can prove endless) and no frame
// ever finishes: four billion steps a pixel.
const QString kEndless = QStringLiteral(
    "float s = pixel(0, 0).x;\nfor (uint i = 0; i < 4000000000u; ++i) s = sin(s + (float)i);\n"
    "return (float3)(s);\n");

std::unique_ptr<MainWindow> openCustomKernelWindow() {
  QSettings().remove(QStringLiteral("custom"));  // each case starts without the last one's kernel
  auto window = std::make_unique<MainWindow>(test::launchOptions(QStringLiteral("pattern:160x120@30")));
  window->show();
  return window;
}

CustomKernelDock* customKernelDockOf(MainWindow& window) {
  return window.findChild<CustomKernelDock*>();
}

bool isInverted(const ProcessedFrame& f) {
  const ImageView in = f.original->view();
  const ImageView out = f.filtered->view();
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width * 3; ++x)
      if (out.row(y)[x] != 255 - in.row(y)[x]) return false;
  return true;
}

/// Every byte of the frame's output is `value`.
bool allBytes(const ProcessedFrame& f, int value) {
  const ImageView out = f.filtered->view();
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width * 3; ++x)
      if (out.row(y)[x] != value) return false;
  return true;
}

/// The newest frame is current (made with the newest revision) and `predicate` holds on it.
ProcessedFramePtr waitForCurrent(MainWindow& window,
                                 const std::function<bool(const ProcessedFrame&)>& predicate,
                                 int timeoutMs = 60000) {
  return test::waitForFrameWhere(
      window,
      [&](const ProcessedFrame& f) {
        return f.record.hasTimings && !f.record.stale &&
               f.record.filterRevision == window.pipeline()->filterRevision() && predicate(f);
      },
      timeoutMs);
}

/// Turns the dock on with the invert example and waits until the preview shows it.
bool runInvert(MainWindow& window) {
  CustomKernelDock* dock = customKernelDockOf(window);
  if (!dock->panel()->openFile(test::dataFile(QStringLiteral("custom/invert.json"))).isEmpty()) return false;
  dock->panel()->onSwitch()->setChecked(true);
  if (waitForCurrent(window, isInverted)) return true;
  const ProcessedFramePtr f = window.pipeline()->latestFrame();
  qWarning("invert never showed: %s; newest frame revision %llu of %llu, stale %d, error '%s'",
           qPrintable(dock->panel()->statusText()),
           f ? static_cast<unsigned long long>(f->record.filterRevision) : 0ull,
           static_cast<unsigned long long>(window.pipeline()->filterRevision()),
           f ? int(f->record.stale) : -1, f ? qPrintable(f->record.error) : "");
  return false;
}

TrialOutcome passed(const char* message = "tried") {
  TrialOutcome o;
  o.verdict = TrialOutcome::Verdict::Passed;
  o.message = message;
  return o;
}

}  // namespace

class CustomKernelTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("custom-kernel-test")); }

  // Code editors do not wrap: a wrapped "centre," read as a line of its own (custom-opencl-error.png). A long
  // line scrolls sideways, and going to a diagnostic's column brings it into view.
  void theCodeEditorScrollsLongLinesInsteadOfWrapping() {
    CustomCodeEditor editor;
    editor.resize(260, 200);
    editor.show();
    editor.setPlainText(
        QStringLiteral("float3 centre = pixel(0, 0); float3 mean = (pixel(-1, 0) + pixel(1, 0) + "
                       "pixel(0, -1) + pixel(0, 1)) / 4.0f;\nreturn centre;\n"));
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    QCOMPARE(editor.lineWrapMode(), QPlainTextEdit::NoWrap);
    QCOMPARE(editor.document()->findBlockByNumber(0).layout()->lineCount(), 1);
    QVERIFY(editor.horizontalScrollBar()->maximum() > 0);
    QCOMPARE(editor.horizontalScrollBar()->value(), 0);
    editor.goToLine(1, 100);
    QVERIFY(editor.horizontalScrollBar()->value() > 0);
  }

  void badParameterIsRefusedAndTheDialogKeepsWhatWasTyped() {
    CustomKernelController controller;
    controller.setTrial([](const ChainStep&, QSize) { return passed(); });
    QVERIFY(!controller.setParam(-1, {"2bad", 0, 1, 0.5}).isEmpty());
    QVERIFY(!controller.setParam(-1, {"pixel", 0, 1, 0.5}).isEmpty());  // a helper's name
    QVERIFY(!controller.setParam(-1, {"gain", 1, 0, 0.5}).isEmpty());   // min > max
    QVERIFY(controller.params().empty());
    CustomParamDialog dialog({"", 0, 1, 0.5},
                             [&](const CustomParam& p) { return controller.setParam(-1, p); });
    dialog.setParam({"x y", 0, 1, 0.5});
    dialog.accept();
    QVERIFY(!dialog.error().isEmpty());
    QCOMPARE(dialog.result(), int(QDialog::Rejected));  // still open, the typed name kept
    QCOMPARE(dialog.param().name, std::string("x y"));
    dialog.setParam({"gain", 0, 2, 1});
    dialog.accept();
    QVERIFY(dialog.error().isEmpty() || dialog.result() == QDialog::Accepted);
    QCOMPARE(controller.params().size(), std::size_t(1));
  }

  void newestVersionWinsAndTheExamplesLoad() {
    CustomKernelController controller;
    std::atomic<int> trials{0};
    controller.setTrial([&](const ChainStep&, QSize) {
      ++trials;
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      return passed();
    });
    CustomKernelPanel panel(&controller, nullptr, test::dataFile(QStringLiteral("custom")));
    QCOMPARE(panel.examplesMenu()->actions().size(), 2);  // invert and threshold (tests/data/custom)
    controller.setOn(true);
    for (const char* code : {"return pixel(0, 0);", "return pixel(1, 0);", "return pixel(2, 0);"}) {
      panel.editor()->setPlainText(QString::fromUtf8(code));
      controller.tryNow();
    }
    QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), 10000);
    QCOMPARE(trials.load(), 2);  // the first, then the newest; the middle one was dropped
    QCOMPARE(controller.liveStep()->custom->code, std::string("return pixel(2, 0);"));
    QCOMPARE(controller.state(), CustomKernelState::Live);
    // An example replaces the code as one undoable edit.
    panel.examplesMenu()->actions().at(1)->trigger();
    QVERIFY(panel.editor()->toPlainText().contains(QStringLiteral("level")));
    QCOMPARE(controller.params().size(), std::size_t(1));
    QVERIFY(panel.paramSlider(0));
    panel.editor()->undo();
    QCOMPARE(panel.editor()->toPlainText(), QStringLiteral("return pixel(2, 0);"));
  }

  void syntaxErrorShowsOnItsLineAndThePreviousKernelKeepsRunning() {
    auto window = openCustomKernelWindow();
    QVERIFY(runInvert(*window));
    CustomKernelDock* dock = customKernelDockOf(*window);
    const std::uint64_t revision = window->pipeline()->filterRevision();
    dock->panel()->editor()->setPlainText(QStringLiteral("float3 v = pixel(0, 0);\nreturn v +;\n"));
    QTRY_COMPARE_WITH_TIMEOUT(dock->controller()->state(), CustomKernelState::BuildFailed, 60000);
    bool onLine2 = false;
    for (const KernelDiagnostic& d : dock->controller()->diagnostics()) onLine2 |= d.isError && d.line == 2;
    QVERIFY2(onLine2, qPrintable(dock->panel()->statusText()));
    QVERIFY(dock->panel()->editor()->messagesAt(2).startsWith(QStringLiteral("error: ")));
    QVERIFY(dock->panel()->editor()->messagesAt(1).isEmpty());
    QVERIFY(!dock->panel()->editor()->extraSelections().isEmpty());
    QVERIFY(dock->panel()->diagnosticsList()->count() > 0);
    QVERIFY2(dock->panel()->statusText().contains(QStringLiteral("on line 2")),
             qPrintable(dock->panel()->statusText()));
    QVERIFY(dock->panel()->statusText().contains(QStringLiteral("last good kernel keeps running")));
    QVERIFY(window->preview()->note().contains(QStringLiteral("last good kernel")));
    // Nothing new was published: frames keep coming, current and inverted.
    QCOMPARE(window->pipeline()->filterRevision(), revision);
    const auto before = window->stats().processedTotal();
    QTRY_VERIFY_WITH_TIMEOUT(window->stats().processedTotal() > before + 10, 30000);
    QVERIFY(waitForCurrent(*window, isInverted, 5000));
  }

  void endlessLoopIsRefusedWhileThePreviewKeepsItsRate() {
    auto window = openCustomKernelWindow();
    QVERIFY(runInvert(*window));
    CustomKernelDock* dock = customKernelDockOf(*window);
    // The rate before, over 2 s.
    auto rateOver = [&](int ms) {
      const auto start = window->stats().processedTotal();
      QElapsedTimer t;
      t.start();
      while (t.elapsed() < ms) QTest::qWait(50);
      return double(window->stats().processedTotal() - start) * 1000.0 / double(t.elapsed());
    };
    const double before = rateOver(2000);
    dock->panel()->editor()->setPlainText(kEndless);
    QTRY_COMPARE_WITH_TIMEOUT(dock->controller()->state(), CustomKernelState::Trying, 5000);
    const auto start = window->stats().processedTotal();
    QElapsedTimer t;
    t.start();
    QTRY_COMPARE_WITH_TIMEOUT(dock->controller()->state(), CustomKernelState::Refused, 90000);
    const double during = double(window->stats().processedTotal() - start) * 1000.0 / double(t.elapsed());
    qInfo("processed frames a second: %.1f before, %.1f during the endless loop's trial (%lld ms); %s",
          before, during, static_cast<long long>(t.elapsed()), qPrintable(dock->panel()->statusText()));
    QVERIFY2(dock->panel()->statusText().contains(QStringLiteral("did not finish")),
             qPrintable(dock->panel()->statusText()));
    // Frames kept coming while the trial ran (the trial is another process at a lower priority), and the
    // invert kernel still runs.
    QVERIFY2(during >= before * 0.3, qPrintable(QStringLiteral("%1 vs %2").arg(during).arg(before)));
    QVERIFY(dock->controller()->liveStep()->custom->code.find("255.0f - pixel") != std::string::npos);
    QVERIFY(waitForCurrent(*window, isInverted, 10000));
  }

  void sliderMovesChangeTheOutputWithoutATrial() {
    auto window = openCustomKernelWindow();
    CustomKernelDock* dock = customKernelDockOf(*window);
    QVERIFY(dock->panel()->openFile(test::dataFile(QStringLiteral("custom/threshold.json"))).isEmpty());
    dock->panel()->onSwitch()->setChecked(true);
    QVERIFY(waitForCurrent(*window, [](const ProcessedFrame&) { return true; }));
    QTRY_COMPARE_WITH_TIMEOUT(dock->controller()->state(), CustomKernelState::Live, 60000);
    QSlider* slider = dock->panel()->paramSlider(0);
    QVERIFY(slider);
    slider->setValue(slider->minimum());   // level 0: every pixel is white
    QVERIFY(!dock->controller()->busy());  // same code: no trial
    QVERIFY(waitForCurrent(
        *window, [](const ProcessedFrame& f) { return allBytes(f, 255); }, 20000));
    slider->setValue(slider->maximum());  // level 255: (nearly) everything black
    QVERIFY(!dock->controller()->busy());
    QVERIFY(waitForCurrent(
        *window, [](const ProcessedFrame& f) { return !allBytes(f, 255); }, 20000));
    // Remembered: code, parameter value and the switch.
    const QString saved = window->settings().value(AppSettings::kCustomStep).toString();
    QVERIFY(saved.contains(QStringLiteral("level")));
    QVERIFY(saved.contains(QStringLiteral("255")));
    QVERIFY(window->settings().value(AppSettings::kCustomOn).toBool());
  }

  void filesRoundTripAndKernelSourceShowsTheWrappedKernel() {
    auto window = openCustomKernelWindow();
    QVERIFY(runInvert(*window));
    CustomKernelDock* dock = customKernelDockOf(*window);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    QVERIFY(dock->panel()->saveFile(path, false).isEmpty());
    QVERIFY(!dock->panel()->saveFile(path, false).isEmpty());  // never replaced silently
    dock->panel()->editor()->setPlainText(QStringLiteral("return pixel(0, 0);"));
    QVERIFY(window->editor()->files()->importFile(path));  // File ▸ Import: the panel opens it
    QVERIFY(dock->panel()->editor()->toPlainText().contains(QStringLiteral("255.0f - pixel(0, 0)")));
    lab::KernelSourceDialog* source = window->lab()->kernelSourceDialog();
    QVERIFY(source->refresh());
    QTRY_VERIFY_WITH_TIMEOUT(!source->busy(), 30000);
    QVERIFY(source->sourceText().contains(QStringLiteral("#line 1 \"user\"")));
    QVERIFY(source->sourceText().contains(QStringLiteral("255.0f - pixel(0, 0)")));
    QVERIFY(source->sourceText().contains(QStringLiteral("convolve_custom")));
  }
};

CONVOLAB_GUI_TEST_MAIN(CustomKernelTest)
#include "test_custom_kernel.moc"
