// SPDX-License-Identifier: MIT
// The strategy lab's comparison: every registry strategy, sane numbers, reasons, cancel, the dialog, the
// exports and `convolab --compare`; on a chain, fused against step by step, the ★ rule and "Make live".
#include <fcntl.h>
#include <unistd.h>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <set>

#include "app_test_support.hpp"
#include "chain/chain_controller.hpp"
#include "chain/chain_dock.hpp"
#include "convolab/context.hpp"
#include "convolab/filter_chain_io.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "gui_test_main.hpp"
#include "lab/compare_chain.hpp"
#include "lab/compare_command.hpp"
#include "lab/compare_dialog.hpp"
#include "lab/lab_controller.hpp"
#include "lab/strategy_comparison.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"

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

/// Three steps of fullRankFilter (so every strategy's program is the first test's), the second padded to 7x7
/// with a zero ring (Compare trims it back to 5x5, as auto runs it).
FilterChain threeSteps() {
  const FilterSet f = fullRankFilter();
  return FilterChain::make({ChainStep::single(f), ChainStep::single(f.resizedTo(7)), ChainStep::single(f)},
                           "three 5x5");
}

/// A chain's report as compareChainStrategies makes one: fused, tiled and naive step by step, lowrank
/// declined; `fusedMs` and `tiledMs` the two fast rows.
lab::ComparisonReport chainReport(double fusedMs, double tiledMs) {
  lab::ComparisonReport r;
  r.device = "pthread";
  r.width = 1280;
  r.height = 720;
  r.filterSize = r.declaredFilterSize = 5;
  r.iterations = 10;
  r.chainSteps = {"1 a 5x5", "2 b 5x5", "3 c 5x5"};
  const auto row = [](const char* name, const char* mode, double ms) {
    lab::ComparisonRow row;
    row.strategy = name;
    row.active = StrategyId{name};
    row.chainMode = mode;
    row.status = "ok";
    row.kernelMedianMs = row.kernelP95Ms = ms;
    row.maxDiff = 0;
    if (std::string(mode) == "steps")
      row.stepMedianMs = {ms / 4, ms / 4, ms / 2}, row.stepActive = {name, name, name};
    else
      row.stepActive = {"fused"};
    return row;
  };
  r.rows = {row("fused", "fused", fusedMs), row("tiled", "steps", tiledMs), row("naive", "steps", 9.0)};
  lab::ComparisonRow declined = row("lowrank", "steps", 0);
  declined.status = "declined";
  declined.reason = "step 1: rank 5 is not cheap enough";
  r.rows.push_back(declined);
  lab::rankRows(r, 3 * 150.0);
  r.verdict = lab::chainVerdict(r);
  return r;
}

const lab::ComparisonRow* starOf(const lab::ComparisonReport& r) {
  const lab::ComparisonRow* star = nullptr;
  for (const auto& row : r.rows)
    if (row.fastest) {
      if (star) return nullptr;  // two stars
      star = &row;
    }
  return star;
}

const lab::ComparisonRow* nowOf(const lab::ComparisonReport& r) {
  for (const auto& row : r.rows)
    if (row.runsNow) return &row;
  return nullptr;
}

bool hasStage(const ProcessedFrame& f, const std::string& prefix) {
  for (const auto& stage : f.record.timings.stages)
    if (stage.name.rfind(prefix, 0) == 0) return true;
  return false;
}

/// Sends this process's stdout to `path` while it lives (what `convolab --compare` prints).
class StdoutToFile {
 public:
  explicit StdoutToFile(const QString& path) {
    std::fflush(stdout);
    m_saved = ::dup(STDOUT_FILENO);
    const int fd = ::open(path.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
  }
  ~StdoutToFile() {
    std::fflush(stdout);
    ::dup2(m_saved, STDOUT_FILENO);
    ::close(m_saved);
  }
  StdoutToFile(const StdoutToFile&) = delete;
  StdoutToFile& operator=(const StdoutToFile&) = delete;

 private:
  int m_saved = -1;
};

QString printed(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
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

  // Issue 30: on a chain Compare times every strategy step by step (each step its own launch, the steps'
  // times summed, each step's figure kept) and the whole chain fused in one launch, all on one frame: every
  // row's output is the one referenceChain of that frame.
  void chainComparesFusedAgainstStepByStepOnOneFrame() {
    const auto frame = randomFrame(40, 30);
    lab::ComparisonOptions o = quick();
    o.includeAuto = false;
    o.only = {"fused", "dynamic", "constant", "naive"};
    QVERIFY(lab::comparesAsChain(threeSteps()));
    QVERIFY(!lab::comparesAsChain(FilterChain(fullRankFilter())));
    const lab::ComparisonReport report =
        lab::compareChainStrategies(*m_context, threeSteps(), frame->view(), o);
    QCOMPARE(report.chainSteps.size(), size_t(3));
    QCOMPARE(report.chainSteps[1], std::string("2 random 5x5 5x5 (declared 7x7)"));
    QCOMPARE(report.rows.size(), size_t(4));
    int fused = 0, steps = 0;
    for (const auto& row : report.rows) {
      QVERIFY2(row.ok(), (row.strategy + ": " + row.status + " " + row.reason).c_str());
      QVERIFY2(row.maxDiff >= 0 && row.maxDiff <= 1, row.strategy.c_str());
      QVERIFY(row.kernelMedianMs > 0);
      if (row.chainMode == "fused") {
        ++fused;
        QCOMPARE(row.strategy, std::string(lab::kFusedRow));
        QCOMPARE(row.stepActive, std::vector<std::string>{"fused"});
        QVERIFY(row.stepMedianMs.empty());
        continue;
      }
      ++steps;
      QCOMPARE(row.chainMode, std::string("steps"));
      QCOMPARE(row.stepActive.size(), size_t(3));
      QCOMPARE(row.stepMedianMs.size(), size_t(3));
      double sum = 0;
      for (size_t i = 0; i < 3; ++i) {
        QVERIFY2(row.stepActive[i].rfind(row.strategy, 0) == 0, row.stepActive[i].c_str());
        QVERIFY(row.stepMedianMs[i] > 0);
        sum += row.stepMedianMs[i];
      }
      QVERIFY2(std::abs(sum - row.kernelMedianMs) <= 0.5 * row.kernelMedianMs, row.strategy.c_str());
    }
    QCOMPARE(fused, 1);
    QCOMPARE(steps, 3);
    QVERIFY(starOf(report));
    QVERIFY2(report.verdict.find("faster") != std::string::npos, report.verdict.c_str());
    const std::string md = lab::comparisonToMarkdown(report);
    QVERIFY(md.find("a chain of 3 steps") != std::string::npos);
    QVERIFY(md.find("fused (one launch)") != std::string::npos);
    QVERIFY(md.find("naive (step by step)") != std::string::npos);
    const QJsonObject doc =
        QJsonDocument::fromJson(QByteArray::fromStdString(lab::comparisonToJson(report))).object();
    QCOMPARE(doc.value("chain").toObject().value("steps").toArray().size(), 3);
    QCOMPARE(doc.value("strategies").toArray().size(), 4);
  }

  // Issue 35's rule on a chain: ★ never makes the preview slower than what runs now. What runs now keeps ★
  // unless a row beats it by more than kStarMargin; otherwise ★ is the fastest row, and the verdict says by
  // how much it beats what runs now.
  void chainStarNeverMakesThePreviewSlower() {
    const auto check = [](lab::ComparisonReport r, const lab::LiveChainRun& now, const char* starred) {
      lab::markWhatRunsNow(r, now);
      const lab::ComparisonRow* star = starOf(r);
      const lab::ComparisonRow* live = nowOf(r);
      if (!star || star->strategy != starred) {
        qWarning("★ on %s, expected %s", star ? star->strategy.c_str() : "no single row", starred);
        return false;
      }
      if (!live || !live->ok()) return true;                          // nothing to be slower than
      if (star->kernelMedianMs > live->kernelMedianMs) return false;  // ★ would slow the preview
      return r.verdict.find(live == star ? "now" : "faster than what the preview runs now") !=
             std::string::npos;
    };
    // Fused runs now; step by step with tiled is within the margin: ★ stays on fused.
    QVERIFY(check(chainReport(2.0, 1.98), {"auto", true}, "fused"));
    // Tiled beats fused by 25 %: ★ tiled, and the verdict says what switching gains.
    QVERIFY(check(chainReport(2.0, 1.5), {"auto", true}, "tiled"));
    // Naive step by step runs now: ★ on the fastest, fused.
    QVERIFY(check(chainReport(2.0, 3.0), {"naive", false}, "fused"));
    // What runs now was declined here (lowrank): ★ on the fastest.
    QVERIFY(check(chainReport(2.0, 1.9), {"lowrank", false}, "tiled"));
    QVERIFY(nowOf([] {
              lab::ComparisonReport r = chainReport(2.0, 1.0);
              lab::markWhatRunsNow(r, {"naive", false});
              return r;
            }())
                ->strategy == "naive");
    // Which is faster, in words.
    QVERIFY(chainReport(2.0, 3.0).verdict.find("Fused (the whole chain in one launch) is 1.50× faster") == 0);
    QVERIFY(chainReport(3.0, 2.0).verdict.find("Step by step is 1.50× faster than fused") == 0);
  }

  // The dialog on a chain: fused and step-by-step rows, each step's figure in the tooltip, the verdict, the
  // row of what runs now, and "Make live" asking for the chain's mode.
  void dialogOnAChainShowsFusedAndStepByStep() {
    const auto frame = randomFrame(40, 30);
    lab::CompareDialog dialog([frame] {
      lab::LabInputs in;
      in.frame = frame;
      in.filter = fullRankFilter();
      in.chain = threeSteps();
      in.liveStrategy = StrategyId{"naive"};
      return in;
    });
    dialog.iterationsBox()->setValue(2);
    dialog.autoBox()->setChecked(false);
    QSignalSpy finished(&dialog, &lab::CompareDialog::finished);
    QVERIFY(dialog.start());
    QVERIFY(finished.wait(150000));
    const auto& report = dialog.report();
    QCOMPARE(report.chainSteps.size(), size_t(3));
    QTableWidget* table = dialog.table();
    QCOMPARE(table->rowCount(), static_cast<int>(report.rows.size()));
    int fusedRow = -1, naiveRow = -1;
    for (int r = 0; r < table->rowCount(); ++r) {
      const QString name = table->item(r, 0)->text();
      if (name.startsWith(QStringLiteral("fused"))) fusedRow = r;
      if (name.startsWith(QStringLiteral("naive"))) naiveRow = r;
    }
    QVERIFY(fusedRow >= 0 && naiveRow >= 0);
    QCOMPARE(table->item(fusedRow, 1)->text(), QStringLiteral("one launch"));
    QVERIFY(table->item(naiveRow, 0)->text().contains(QStringLiteral("●")));  // what runs now
    QVERIFY2(table->item(naiveRow, 2)->toolTip().contains(QStringLiteral("step 2 random 5x5")),
             qPrintable(table->item(naiveRow, 2)->toolTip()));
    QCOMPARE(table->item(naiveRow, 1)->text().count(QStringLiteral(" + ")), 2);
    auto* verdict = dialog.findChild<QLabel*>(QStringLiteral("compareVerdict"));
    QVERIFY(verdict && !verdict->isHidden());
    QVERIFY(verdict->text().contains(QStringLiteral("faster")));
    QSignalSpy live(&dialog, &lab::CompareDialog::makeLiveRequested);
    auto* fusedLive = dialog.findChild<QPushButton*>(QStringLiteral("makeLive_fused"));
    QVERIFY(fusedLive);
    fusedLive->click();
    QCOMPARE(live.count(), 1);
    QCOMPARE(live.first().at(0).toString(), QStringLiteral("fused"));
    QCOMPARE(live.first().at(1).toString(), QStringLiteral("fused"));
  }

  // "Make live" on the fused row runs the live chain fused (one launch, convolve_fused); on a step-by-step
  // row it runs it step by step with that strategy, as what runs now was before.
  void makeLiveSwitchesTheLiveChainBetweenFusedAndStepByStep() {
    QSettings().remove(QStringLiteral("chain"));
    QSettings().remove(QStringLiteral("custom"));
    LaunchOptions o;
    o.source = QStringLiteral("pattern:96x64@30");
    o.strategy = QStringLiteral("naive");
    MainWindow window(o);
    window.show();
    ChainDock* dock = window.findChild<ChainDock*>();
    QVERIFY(dock);
    const FilterChain chain = threeSteps();
    dock->controller()->load(chain);
    dock->controller()->setOn(true);
    QVERIFY(window.pipeline()->runsChain());
    const auto waitFor = [&](const char* stage, bool fusedNow) {
      return test::waitForFrameWhere(
                 window,
                 [&](const ProcessedFrame& f) {
                   if (!f.record.hasTimings || f.record.stale || !hasStage(f, stage)) return false;
                   Image expected(f.original->width, f.original->height);
                   referenceChain(f.original->view(), expected.mutableView(), chain);
                   return test::maxAbsDiff(*f.filtered, expected) <= 1 &&
                          window.lab()->inputs().liveChainFused == fusedNow;
                 },
                 90000) != nullptr;
    };
    QVERIFY(waitFor("step 3: ", false));  // naive, step by step: a strategy chosen by hand never fuses
    lab::CompareDialog* dialog = window.lab()->compareDialog();
    dialog->setReport(chainReport(2.0, 3.0));
    auto* fused = dialog->findChild<QPushButton*>(QStringLiteral("makeLive_fused"));
    QVERIFY(fused);
    fused->click();
    QCOMPARE(window.pipeline()->chainFusion(), ChainFusion::Fused);
    QVERIFY2(waitFor("convolve_fused", true), "the live chain did not run fused");
    QCOMPARE(window.requestedStrategy(), QStringLiteral("naive"));  // the strategy stays
    auto* naive = dialog->findChild<QPushButton*>(QStringLiteral("makeLive_naive"));
    QVERIFY(naive);
    naive->click();
    QCOMPARE(window.pipeline()->chainFusion(), ChainFusion::StepByStep);
    QVERIFY2(waitFor("step 3: ", false), "the live chain did not go back to step by step");
    QCOMPARE(window.requestedStrategy(), QStringLiteral("naive"));
  }

  // `convolab --compare` on a chain file prints and writes the same rows as the dialog: fused and step by
  // step, each step's median, and the verdict.
  void compareCommandOnAChainWritesFusedAndStepByStepRows() {
    const QString chainPath = QDir::homePath() + QStringLiteral("/three-steps.json");
    saveFilterChainFile(chainPath.toStdString(), threeSteps(), true);
    const QString report = QDir::homePath() + QStringLiteral("/chain-report.json");
    const auto parsed =
        parseCommandLine({QStringLiteral("convolab"), QStringLiteral("--source"),
                          QStringLiteral("pattern:48x32"), QStringLiteral("--filter"), chainPath,
                          QStringLiteral("--compare"), report, QStringLiteral("--force")});
    QCOMPARE(parsed.exitCode, -1);
    const QString printedPath = QDir::homePath() + QStringLiteral("/chain-report.md");
    {
      const StdoutToFile capture(printedPath);
      QCOMPARE(lab::runCompareCommand(parsed.options, 1), 0);
    }
    const QJsonObject doc = readJson(report);
    const QJsonObject chain = doc.value(QStringLiteral("chain")).toObject();
    QCOMPARE(chain.value(QStringLiteral("steps")).toArray().size(), 3);
    QVERIFY(chain.value(QStringLiteral("verdict")).toString().contains(QStringLiteral("faster")));
    const QJsonArray rows = doc.value(QStringLiteral("strategies")).toArray();
    QCOMPARE(rows.size(), static_cast<qsizetype>(strategyNames().size()) + 1);  // every strategy, and fused
    int fused = 0, steps = 0;
    for (const auto& value : rows) {
      const QJsonObject row = value.toObject();
      const QString mode = row.value(QStringLiteral("mode")).toString();
      if (mode == QLatin1String("fused")) ++fused;
      if (mode == QLatin1String("steps") &&
          row.value(QStringLiteral("status")).toString() == QLatin1String("ok")) {
        ++steps;
        QCOMPARE(row.value(QStringLiteral("step_ms_median")).toArray().size(), 3);
      }
      if (row.value(QStringLiteral("status")).toString() == QLatin1String("ok"))
        QVERIFY(row.value(QStringLiteral("max_diff_vs_reference")).toInt() <= 1);
    }
    QCOMPARE(fused, 1);
    QVERIFY(steps >= 3);
    // What it prints (stdout, taken into a file here): the same rows as Markdown.
    const QString out = printed(printedPath);
    QVERIFY2(out.contains(QStringLiteral("a chain of 3 steps")) &&
                 out.contains(QStringLiteral("fused (one launch)")) &&
                 out.contains(QStringLiteral("(step by step)")) && out.contains(QStringLiteral("faster")),
             qPrintable(out));
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

CONVOLAB_GUI_TEST_MAIN(LabCompareTest)
#include "test_lab_compare.moc"
