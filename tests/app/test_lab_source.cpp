// SPDX-License-Identifier: MIT
// The kernel source view: codegen's source carries the filter's literal coefficients; options, launch
// sizes and build facts are recorded; the highlighter colours OpenCL C.
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>

#include "app_test_support.hpp"
#include "convolab/context.hpp"
#include "gui_test_main.hpp"
#include "lab/kernel_inspection.hpp"
#include "lab/kernel_source_dialog.hpp"
#include "lab/opencl_highlighter.hpp"

using namespace convolab;
using namespace convolab::gui;
namespace lab = convolab::lab;

namespace {

/// Full rank 3×3 with coefficients whose float literals are exact.
FilterSet literalFilter() {
  ChannelFilter f;
  f.size = 3;
  f.matrix = {0.3125, -1.75, 0, 2.5, 1, 0.0625, 0, 0.5, -0.375};
  f.divisor = 1;
  return FilterSet::uniform(f, BorderMode::Reflect101, "literals");
}

}  // namespace

class LabSourceTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("lab-source-test")); }

  void codegenSourceHasTheLiteralCoefficients() {
    Context ctx;
    const lab::KernelInspection k = lab::inspectKernels(ctx, StrategyId{"codegen"}, literalFilter(), 40, 24);
    QVERIFY2(k.error.empty(), k.error.c_str());
    QCOMPARE(k.builds.size(), size_t(1));
    const BuildInfo& b = k.builds.front();
    QCOMPARE(b.label, std::string("codegen"));
    for (const char* literal : {"0.3125", "-1.75", "2.5", "0.0625", "0.5", "-0.375"})
      QVERIFY2(b.source.find(literal) != std::string::npos, literal);
    QVERIFY(b.options.find("-cl-mad-enable") != std::string::npos);
    QVERIFY(b.buildMs > 0);
    QVERIFY(!k.launches.empty());
    QCOMPARE(k.launches.front().global.size(), size_t(2));
    QVERIFY(k.launches.front().global[0] > 0);
    // Built again: now the binary comes from the program cache (the context's log says so).
    const lab::KernelInspection again =
        lab::inspectKernels(ctx, StrategyId{"codegen"}, literalFilter(), 40, 24);
    QVERIFY(!again.builds.empty());
    QCOMPARE(again.builds.front().fromCache, ctx.programCache().enabled());
  }

  // Kernel Source shows the program that produced the frame (issue 35: "convolve_dynamic under the header
  // auto:sliding"): the generic kernel where the strategy's note says it stands in, auto's choice on the
  // filter trimmed to its support.
  void showsTheKernelThatRan() {
    Context ctx;
    StrategyId sliding{"sliding"};
    sliding.note = "generic kernel until edits pause";
    const lab::KernelInspection generic = lab::inspectKernels(ctx, sliding, literalFilter(), 40, 24);
    QVERIFY2(generic.error.empty(), generic.error.c_str());
    QCOMPARE(generic.strategy, std::string("dynamic"));
    QCOMPARE(generic.builds.front().label, std::string("dynamic"));
    const lab::KernelInspection trimmed =
        lab::inspectKernels(ctx, StrategyId::parse("auto:constant"), literalFilter().resizedTo(7), 40, 24);
    QVERIFY2(trimmed.error.empty(), trimmed.error.c_str());
    QVERIFY2(trimmed.builds.front().options.find("-DKSIZE=3") != std::string::npos,
             trimmed.builds.front().options.c_str());
  }

  void kernelFileStrategiesShowDefines() {
    Context ctx;
    const lab::KernelInspection k =
        lab::inspectKernels(ctx, StrategyId::parse("auto:naive"), literalFilter(), 20, 10);
    QVERIFY2(k.error.empty(), k.error.c_str());
    QCOMPARE(k.strategy, std::string("naive"));
    QVERIFY(!k.builds.empty());
    QVERIFY(k.builds.front().options.find("-D") != std::string::npos);
    QVERIFY(k.builds.front().source.find("__kernel") != std::string::npos);
  }

  void dialogShowsTheLiveStrategy() {
    auto frame = std::make_shared<Image>(40, 24);
    lab::KernelSourceDialog dialog([frame] {
      lab::LabInputs in;
      in.frame = frame;
      in.filter = literalFilter();
      in.liveStrategy = StrategyId{"codegen"};
      return in;
    });
    QSignalSpy refreshed(&dialog, &lab::KernelSourceDialog::refreshed);
    QVERIFY(dialog.refresh());
    QVERIFY(refreshed.wait(120000));
    QVERIFY(dialog.sourceText().contains(QStringLiteral("0.3125")));
    QVERIFY(dialog.sourceText().contains(QStringLiteral("-1.75")));
    QVERIFY(dialog.detailsText().contains(QStringLiteral("Build options:")));
    QVERIFY(dialog.detailsText().contains(QStringLiteral("work-group")));
    auto* view = dialog.findChild<QPlainTextEdit*>(QStringLiteral("kernelSource"));
    QVERIFY(view && view->isReadOnly());
  }

  void outlineFindsCommonFragmentsAndTheKernel() {
    Context ctx;
    const lab::KernelInspection k = lab::inspectKernels(ctx, StrategyId{"tiled"}, literalFilter(), 40, 24);
    QVERIFY2(k.error.empty(), k.error.c_str());
    std::vector<std::string> launched;
    for (const auto& l : k.launches) launched.push_back(l.kernel);
    const lab::SourceOutline o = lab::outlineKernelSource(k.builds.front().source, launched);
    QVERIFY(o.sections.size() >= 3);
    QCOMPARE(o.sections[0].name, std::string("common.cl"));
    QCOMPARE(o.sections[0].firstLine, 1);
    QCOMPARE(o.sections[1].name, std::string("chunk.cl"));
    QCOMPARE(o.sections[1].includedBy, std::string("tiled.cl"));
    QVERIFY(o.sections[1].firstLine > o.sections[0].lastLine);
    QCOMPARE(o.kernelName, std::string("convolve_tiled"));
    for (const auto& s : o.sections) QVERIFY(s.lastLine < o.kernelLine);
    // image runs pack_rgba first: the view opens at convolve_image, the convolution.
    const std::string image = "__kernel void pack_rgba(int a) {}\n__kernel void convolve_image(int b) {}\n";
    QCOMPARE(lab::outlineKernelSource(image, {"pack_rgba", "convolve_image"}).kernelLine, 2);
    QCOMPARE(lab::outlineKernelSource(image).kernelLine, 1);
  }

  void dialogOpensAtTheKernel() {
    // Kernel Source opened at line 1 of common.cl, ~300 lines above tiled's kernel: now the first line in
    // view is the strategy's __kernel, and the outline lists common.cl and the fragments above it.
    auto frame = std::make_shared<Image>(40, 24);
    lab::KernelSourceDialog dialog([frame] {
      lab::LabInputs in;
      in.frame = frame;
      in.filter = literalFilter();
      in.liveStrategy = StrategyId{"tiled"};
      return in;
    });
    dialog.resize(900, 600);
    dialog.show();
    QSignalSpy refreshed(&dialog, &lab::KernelSourceDialog::refreshed);
    QVERIFY(dialog.refresh());
    QVERIFY(refreshed.wait(120000));
    QVERIFY(dialog.outline().kernelLine > 100);
    QTRY_COMPARE(dialog.firstVisibleLine(), dialog.outline().kernelLine);
    auto* view = dialog.findChild<QPlainTextEdit*>(QStringLiteral("kernelSource"));
    QVERIFY(view->cursorForPosition(QPoint(0, 0))
                .block()
                .text()
                .trimmed()
                .startsWith(QStringLiteral("__kernel")));
    const QString outline = dialog.outlineText();
    for (const char* part : {"common.cl (lines 1–", "chunk.cl", "tile.cl", "__kernel convolve_tiled"})
      QVERIFY2(outline.contains(QString::fromUtf8(part)), part);
    // A link goes to its part.
    dialog.showLine(1);
    QTRY_COMPARE(dialog.firstVisibleLine(), 1);
  }

  void highlighterColoursKeywords() {
    QTextDocument doc(QStringLiteral("__kernel void f(__global float* x) { x[0] = 1.5f; } // done"));
    lab::OpenClHighlighter h(&doc);
    h.rehighlight();
    const auto formats = doc.firstBlock().layout()->formats();
    QVERIFY(formats.size() >= 4);
  }
};

CONVOLAB_GUI_TEST_MAIN(LabSourceTest)
#include "test_lab_source.moc"
