// SPDX-License-Identifier: MIT
// The kernel source view: codegen's source carries the filter's literal coefficients; options, launch
// sizes and build facts are recorded; the highlighter colours OpenCL C.
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextDocument>

#include "app_test_support.hpp"
#include "convolab/context.hpp"
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

  void highlighterColoursKeywords() {
    QTextDocument doc(QStringLiteral("__kernel void f(__global float* x) { x[0] = 1.5f; } // done"));
    lab::OpenClHighlighter h(&doc);
    h.rehighlight();
    const auto formats = doc.firstBlock().layout()->formats();
    QVERIFY(formats.size() >= 4);
  }
};

QTEST_MAIN(LabSourceTest)
#include "test_lab_source.moc"
