// SPDX-License-Identifier: MIT
// The strategy lab's comparison: every registry strategy, sane numbers, reasons, cancel, the dialog, the
// exports and `convolab --compare`.
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "app_test_support.hpp"
#include "convolab/context.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/registry.hpp"
#include "lab/compare_command.hpp"
#include "lab/compare_dialog.hpp"
#include "lab/strategy_comparison.hpp"

using namespace convolab;
using namespace convolab::gui;
namespace lab = convolab::lab;

namespace {

std::shared_ptr<const Image> randomFrame(int w, int h) {
  auto img = std::make_shared<Image>(w, h);
  std::mt19937 rng(7);
  for (auto& p : img->pixels) p = static_cast<std::uint8_t>(rng() >> 24);
  return img;
}

lab::ComparisonOptions quick() {
  lab::ComparisonOptions o;
  o.iterations = 2;
  o.warmup = 1;
  return o;
}

/// Dense random 5×5 per channel: full rank, so strategies that need structure (lowrank) decline. Every
/// comparison here uses it, so each strategy's program is built once per run (PoCL builds take seconds).
FilterSet fullRankFilter() {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> d(0.05, 1.0);
  std::array<ChannelFilter, kChannels> channels;
  for (auto& f : channels) {
    f.size = 5;
    f.matrix.resize(25);
    double sum = 0;
    for (double& w : f.matrix) sum += (w = std::round(d(rng) * 100) / 100);
    f.divisor = sum;
  }
  return FilterSet::make(channels, BorderMode::Reflect101, {0, 0, 0}, "random 5x5");
}

QJsonObject readJson(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object();
}

/// A comparison as a 1366×768 user saw it: 8 strategies measured (auto among them), 3 declined with the
/// core's own long reasons.
lab::ComparisonReport elevenRowReport() {
  lab::ComparisonReport r;
  r.device = "pthread-skylake-avx512-AMD EPYC 7B13";
  r.width = 600;
  r.height = 400;
  r.filterSize = 7;
  r.filterName = "Emboss";
  r.iterations = 10;
  r.peakGflops = 333;
  r.peakSource = "estimate";
  const char* ok[][2] = {{"codegen", ""},
                         {"auto", ""},
                         {"tiled", "b16x4-wg8x8-f16-s0-c1"},
                         {"vector", "v16x4-wg8x8-c1"},
                         {"local", "16x8"},
                         {"constant", ""},
                         {"naive", ""},
                         {"image", ""}};
  double ms = 0.4;
  for (const auto& [name, variant] : ok) {
    lab::ComparisonRow row;
    row.strategy = name;
    row.variant = variant;
    row.active = StrategyId::parse(std::string(name) == "auto" ? "auto:codegen/b16x4-wg8x8" : name);
    row.status = "ok";
    row.kernelMedianMs = ms;
    row.kernelP95Ms = ms * 1.3;
    row.uploadMs = row.downloadMs = 0.04;
    row.mpixPerS = 0.24 / ms * 1000;
    row.gflops = 170 * 0.4 / ms;
    row.peakFraction = row.gflops / r.peakGflops;
    row.maxDiff = 0;
    row.fastest = r.rows.empty();
    row.autoChoice = r.rows.empty();
    r.rows.push_back(row);
    ms *= 2.1;
  }
  const char* declined[][2] = {
      {"separable", "filter is not separable (rank 2 in channel R; separable needs rank 1 in every channel)"},
      {"lowrank",
       "rank 2 is not cheap enough for K = 5: 20 separable taps vs 25 dense (lowrank needs 3*rank <= K)"},
      {"sliding", "the work-group of 1024 exceeds the device's limit"}};
  for (const auto& [name, reason] : declined) {
    lab::ComparisonRow row;
    row.strategy = name;
    row.active = StrategyId::parse(name);
    row.status = "declined";
    row.reason = reason;
    r.rows.push_back(row);
  }
  return r;
}

QStringList g_messages;
void collectMessages(QtMsgType, const QMessageLogContext&, const QString& message) {
  g_messages << message;
}
}  // namespace

class LabCompareTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    test::prepareTestEnvironment(QStringLiteral("lab-compare-test"));
    m_context = std::make_shared<Context>();
  }

  void listsEveryStrategyWithSaneResults() {
    const auto frame = randomFrame(40, 30);
    const FilterSet filter = fullRankFilter();
    const lab::ComparisonReport report = lab::compareStrategies(*m_context, filter, frame->view(), quick());
    QVERIFY(!report.cancelled);
    QCOMPARE(report.width, 40);
    QCOMPARE(report.height, 30);
    std::set<std::string> seen;
    int declined = 0, ok = 0, fastest = 0;
    for (const auto& row : report.rows) {
      seen.insert(row.strategy);
      if (row.ok()) {
        ++ok;
        QVERIFY2(row.kernelMedianMs > 0, row.strategy.c_str());
        QVERIFY(row.kernelP95Ms >= row.kernelMedianMs);
        QVERIFY(row.mpixPerS > 0);
        QVERIFY(row.gflops > 0);
        QVERIFY2(row.maxDiff >= 0 && row.maxDiff <= 1, row.strategy.c_str());
        fastest += row.fastest ? 1 : 0;
      } else {
        QVERIFY2(row.status == "declined", (row.strategy + ": " + row.status + " " + row.reason).c_str());
        QVERIFY2(!row.reason.empty(), row.strategy.c_str());
        ++declined;
      }
    }
    for (const std::string& name : strategyNames()) QVERIFY2(seen.count(name), name.c_str());
    QVERIFY(declined >= 1);  // lowrank: rank 5 is not cheap for K = 5
    QVERIFY(ok >= 3);
    QCOMPARE(fastest, 1);
    QVERIFY(report.autoActive.viaAuto);
    QVERIFY(report.autoActive.toString().rfind("auto:", 0) == 0);
    int autoMarked = 0;
    for (const auto& row : report.rows) autoMarked += row.autoChoice ? 1 : 0;
    QCOMPARE(autoMarked, 1);
    // Sorted: ok rows by kernel median first.
    for (size_t i = 1; i < report.rows.size(); ++i)
      if (report.rows[i].ok()) {
        QVERIFY(report.rows[i - 1].ok());
        QVERIFY(report.rows[i - 1].kernelMedianMs <= report.rows[i].kernelMedianMs);
      }
    const std::string md = lab::comparisonToMarkdown(report), csv = lab::comparisonToCsv(report);
    QVERIFY(md.find("| separable") != std::string::npos);
    QVERIFY(csv.rfind("strategy,variant,", 0) == 0);
    QCOMPARE(static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n')), report.rows.size() + 1);
  }

  // Like with like (issue 35): every row runs the filter trimmed to its support, as auto does, and GFLOP/s
  // counts the K that ran. A 5x5 padded to 9x9: no program is built for K = 9.
  void compareRowsUseOneEffectiveFilter() {
    const auto frame = randomFrame(32, 24);
    const FilterSet padded = fullRankFilter().resizedTo(9);
    lab::ComparisonOptions o = quick();
    o.includeAuto = false;
    o.only = {"dynamic", "constant", "naive"};
    Context ctx(m_context->device());  // its own build log
    const lab::ComparisonReport report = lab::compareStrategies(ctx, padded, frame->view(), o);
    QCOMPARE(report.filterSize, 5);
    QCOMPARE(report.declaredFilterSize, 9);
    QVERIFY(lab::comparisonToMarkdown(report).find("trimmed to its support") != std::string::npos);
    for (const auto& build : ctx.buildLog())
      QVERIFY2(build.options.find("-DKSIZE=9") == std::string::npos,
               (build.label + " " + build.options).c_str());
    int ok = 0;
    for (const auto& row : report.rows) {
      if (!row.ok()) continue;
      ++ok;
      const double flops = 32.0 * 24 * 2 * 5 * 5 * 3;
      QVERIFY2(std::abs(row.gflops - flops / (row.kernelMedianMs * 1e6)) < 1e-6 * row.gflops,
               row.strategy.c_str());
    }
    QCOMPARE(ok, 3);
  }

  void cancelStops() {
    const auto frame = randomFrame(24, 16);
    int calls = 0;
    const lab::ComparisonReport report =
        lab::compareStrategies(*m_context, FilterSet(), frame->view(), quick(),
                               [&](int, int, const std::string&) { return ++calls < 4; });
    QVERIFY(report.cancelled);
    QCOMPARE(calls, 4);
    QVERIFY(report.rows.size() < strategyNames().size());
  }

  void everyTuningVariantOnRequest() {
    const auto frame = randomFrame(16, 8);
    lab::ComparisonOptions o = quick();
    o.iterations = 1;
    o.warmup = 0;
    o.includeAuto = false;
    o.allVariants = true;
    o.only = {"naive", "local"};  // local has several launch shapes; builds stay few on a cold cache
    const lab::ComparisonReport report = lab::compareStrategies(*m_context, FilterSet(), frame->view(), o);
    std::map<std::string, std::set<std::string>> variants;
    for (const auto& row : report.rows) {
      QVERIFY(variants[row.strategy].insert(row.variant).second);  // no duplicates
      if (row.ok()) QVERIFY(row.maxDiff <= 1);
    }
    QCOMPARE(variants.size(), size_t(2));
    QCOMPARE(variants["naive"].size(), size_t(1));
    QVERIFY(variants["local"].size() > 1);
  }

  void dialogRunsOffTheGuiThreadAndExports() {
    const auto frame = randomFrame(32, 24);
    lab::CompareDialog dialog([frame] {
      lab::LabInputs in;
      in.frame = frame;
      in.filter = fullRankFilter();  // the first test's filter: its programs are built already
      return in;
    });
    dialog.iterationsBox()->setValue(2);
    dialog.autoBox()->setChecked(false);
    QSignalSpy finished(&dialog, &lab::CompareDialog::finished);
    QSignalSpy progressed(&dialog, &lab::CompareDialog::progressed);
    QVERIFY(dialog.start());
    QVERIFY(dialog.running());
    QVERIFY(finished.wait(120000));
    QVERIFY(!dialog.running());
    QVERIFY(progressed.count() > 0);
    const auto& report = dialog.report();
    QCOMPARE(dialog.table()->rowCount(), static_cast<int>(report.rows.size()));
    QCOMPARE(static_cast<int>(report.rows.size()), static_cast<int>(strategyNames().size()) - 1);  // no auto
    QVERIFY(dialog.table()->item(0, 0)->text().contains(QStringLiteral("★")));
    QVERIFY(dialog.table()->item(0, 0)->toolTip().contains(QStringLiteral("fastest")));
    QSignalSpy live(&dialog, &lab::CompareDialog::makeLiveRequested);
    auto* button = qobject_cast<QPushButton*>(dialog.table()->cellWidget(0, 11));
    QVERIFY(button);
    button->click();
    QCOMPARE(live.count(), 1);
    QCOMPARE(live.first().first().toString(), QString::fromStdString(report.rows.front().strategy));

    const QString dir = QDir::homePath();
    QVERIFY(dialog.exportMarkdown(dir + QStringLiteral("/c.md")));
    QVERIFY(dialog.exportCsv(dir + QStringLiteral("/c.csv")));
    dialog.resize(900, 700);
    dialog.show();
    QVERIFY(dialog.exportChartPng(dir + QStringLiteral("/c.png")));
    QVERIFY(QImage(dir + QStringLiteral("/c.png")).width() > 100);
    QVERIFY(QFile(dir + QStringLiteral("/c.md")).size() > 100);

    // Cancelling a running comparison ends it early.
    dialog.iterationsBox()->setValue(50);
    finished.clear();
    QVERIFY(dialog.start());
    dialog.cancel();
    QVERIFY(finished.wait(120000));
    QVERIFY(dialog.report().cancelled);
  }

  // Issue 24: at 1366×768 the dialog showed 6 of 11 rows, squeezed Status to "at" and printed
  // "Logarithms of zero and negative values are undefined." for every empty stacked bar on the log axis.
  void readableAt1366x768WithoutLogWarnings() {
    g_messages.clear();
    const QtMessageHandler previous = qInstallMessageHandler(collectMessages);
    lab::CompareDialog dialog([] { return lab::LabInputs{}; });
    const QSize size = lab::CompareDialog::defaultSize(QRect(0, 0, 1366, 768));
    QVERIFY(size.width() <= 1366 && size.height() <= 768 - 30);
    dialog.resize(size);
    dialog.show();
    dialog.setReport(elevenRowReport());
    QCoreApplication::processEvents();
    QTest::qWait(50);
    dialog.resize(size);  // as the window manager keeps it: no taller than the screen
    QCoreApplication::processEvents();
    QVERIFY2(dialog.minimumSizeHint().height() <= size.height(),
             qPrintable(QStringLiteral("needs %1 px").arg(dialog.minimumSizeHint().height())));
    QCOMPARE(dialog.height(), size.height());
    QTableWidget* table = dialog.table();
    QCOMPARE(table->rowCount(), 11);
    // Every row on screen, none scrolled away.
    for (int r = 0; r < table->rowCount(); ++r) {
      const QRect cell = table->visualItemRect(table->item(r, 0));
      QVERIFY2(table->viewport()->rect().contains(cell),
               qPrintable(QStringLiteral("row %1 at %2..%3 of a %4 px viewport")
                              .arg(r)
                              .arg(cell.top())
                              .arg(cell.bottom())
                              .arg(table->viewport()->height())));
    }
    // Each status read whole: wide enough for a short reason on one line, long ones wrapped within the row.
    const int statusWidth = table->columnWidth(10);
    const QFontMetrics fm(table->font());
    QVERIFY2(statusWidth >= fm.horizontalAdvance(QStringLiteral("declined: device has no image support")),
             qPrintable(QStringLiteral("Status is %1 px").arg(statusWidth)));
    for (int r = 0; r < table->rowCount(); ++r) {
      const QString text = table->item(r, 10)->text();
      const QRect need = fm.boundingRect(QRect(0, 0, statusWidth - 8, 10000), Qt::TextWordWrap, text);
      QVERIFY2(need.height() <= table->rowHeight(r),
               qPrintable(QStringLiteral("'%1' needs %2 px in a %3 px row")
                              .arg(text)
                              .arg(need.height())
                              .arg(table->rowHeight(r))));
    }
    // Names are capped, and say themselves whole in their tooltips.
    QCOMPARE(table->item(2, 1)->toolTip(), QStringLiteral("b16x4-wg8x8-f16-s0-c1"));
    dialog.grab();  // paint the chart too
    qInstallMessageHandler(previous);
    const auto logs = std::count_if(g_messages.begin(), g_messages.end(), [](const QString& m) {
      return m.contains(QStringLiteral("Logarithms"));
    });
    QVERIFY2(logs == 0, qPrintable(QStringLiteral("%1 x \"Logarithms of zero…\"").arg(logs)));
  }

  // Issue 24: strategies had no descriptions in the lab. Each row's Strategy cell says, in its tooltip, what
  // the strategy does (the registry's one line), besides the whole name and what its marks mean; the rows of
  // the report are in no particular order, auto's and declined rows included.
  void strategyCellsTellWhatEachStrategyDoes() {
    lab::CompareDialog dialog([] { return lab::LabInputs{}; });
    const lab::ComparisonReport report = elevenRowReport();
    dialog.setReport(report);
    QTableWidget* table = dialog.table();
    QCOMPARE(table->rowCount(), static_cast<int>(report.rows.size()));
    std::set<QString> seen;
    for (int r = 0; r < table->rowCount(); ++r) {
      const QTableWidgetItem* cell = table->item(r, 0);
      // The table may be sorted: find the row's strategy by the cell's first word.
      const QString strategy = cell->text().section(QLatin1Char(' '), 0, 0);
      const StrategyEntry* entry = findStrategy(strategy.toStdString());
      QVERIFY2(entry, qPrintable(strategy));
      const QString description =
          QString::fromUtf8(entry->description.data(), static_cast<qsizetype>(entry->description.size()));
      QVERIFY(!description.isEmpty());
      const QString tip = cell->toolTip();
      QVERIFY2(tip.contains(description),
               qPrintable(QStringLiteral("%1: tooltip '%2' lacks '%3'").arg(strategy, tip, description)));
      QVERIFY2(tip.startsWith(cell->text()), qPrintable(tip));  // the capped name whole
      seen.insert(strategy);
    }
    QCOMPARE(seen.size(), report.rows.size());
    // Marks still say what they mean: the first row is the fastest and auto's choice.
    QVERIFY(table->item(0, 0)->toolTip().contains(QStringLiteral("fastest")));
    QVERIFY(table->item(0, 0)->toolTip().contains(QStringLiteral("auto's choice")));
  }

  void compareCommandWritesTheDocumentedJson() {
    const QString filterPath = QDir::homePath() + QStringLiteral("/full-rank.json");
    saveFilterFile(filterPath.toStdString(), fullRankFilter(), true);  // programs built by the first test
    const QString report = QDir::homePath() + QStringLiteral("/report.json");
    const auto parsed = parseCommandLine({QStringLiteral("convolab"), QStringLiteral("--source"),
                                          QStringLiteral("pattern:48x32"), QStringLiteral("--filter"),
                                          filterPath, QStringLiteral("--compare"), report});
    QCOMPARE(parsed.exitCode, -1);
    QCOMPARE(parsed.options.compare, report);
    QCOMPARE(lab::runCompareCommand(parsed.options, 2), 0);
    const QJsonObject doc = readJson(report);
    QVERIFY(!doc.value(QStringLiteral("device")).toString().isEmpty());
    QCOMPARE(doc.value(QStringLiteral("frame")).toArray(), (QJsonArray{48, 32}));
    const QJsonArray rows = doc.value(QStringLiteral("strategies")).toArray();
    QCOMPARE(rows.size(), static_cast<qsizetype>(strategyNames().size()));
    for (const auto& value : rows) {
      const QJsonObject row = value.toObject();
      for (const char* key : {"strategy", "variant", "status", "reason", "kernel_ms_median", "kernel_ms_p95",
                              "max_diff_vs_reference"})
        QVERIFY2(row.contains(QLatin1String(key)), key);
      if (row.value(QStringLiteral("status")).toString() == QLatin1String("ok")) {
        QVERIFY(row.value(QStringLiteral("kernel_ms_median")).toDouble() > 0);
        QVERIFY(row.value(QStringLiteral("max_diff_vs_reference")).toInt() <= 1);
      } else {
        QVERIFY(!row.value(QStringLiteral("reason")).toString().isEmpty());
      }
    }
  }

  void compareCommandExitsThreeOnAnUnwritableReport() {
    LaunchOptions o;
    o.source = QStringLiteral("pattern:16x16");
    o.compare = QStringLiteral("/nonexistent-folder/for/sure/report.json");
    QCOMPARE(lab::runCompareCommand(o, 1), 3);
  }

 private:
  std::shared_ptr<Context> m_context;
};

QTEST_MAIN(LabCompareTest)
#include "test_lab_compare.moc"
