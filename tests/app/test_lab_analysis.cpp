// SPDX-License-Identifier: MIT
// The filter analysis panel: Gaussian rank 1 and separable, random rank > 1, identity flat, Laplacian a
// high-pass, Sobel antisymmetric.
#include <QFile>
#include <QLabel>
#include <QTest>
#include <cmath>
#include <random>

#include "app_test_support.hpp"
#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/program_cache.hpp"
#include "gui_test_main.hpp"
#include "lab/fft_crossover_analysis.hpp"
#include "lab/filter_analysis_panel.hpp"
#include "lab/filter_facts.hpp"
#include "lab/response_view.hpp"

using namespace convolab;
using namespace convolab::gui;
namespace lab = convolab::lab;

namespace {

FilterSet preset(const QString& name) {
  QFile f(QStringLiteral(":/presets/%1.json").arg(name));
  if (!f.open(QIODevice::ReadOnly)) return {};
  const QByteArray text = f.readAll();
  return parseFilterJson(std::string_view(text.constData(), static_cast<size_t>(text.size())),
                         name.toStdString());
}

FilterSet randomFilter() {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> d(-1, 1);
  ChannelFilter f;
  f.size = 5;
  f.matrix.resize(25);
  for (double& v : f.matrix) v = std::round(d(rng) * 100) / 100;
  return FilterSet::uniform(f, BorderMode::Reflect101, "random");
}

}  // namespace

class LabAnalysisTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("lab-analysis-test")); }

  void gaussianIsRankOneAndSeparable() {
    const FilterSet gaussian = preset(QStringLiteral("gaussian"));
    QVERIFY(gaussian.size() > 1);
    lab::FilterAnalysisPanel panel;
    panel.setFilter(gaussian);
    panel.refresh();
    for (int c = 0; c < 3; ++c) {
      const auto& f = panel.facts(c);
      QCOMPARE(f.rank, 1);
      QVERIFY(f.separable);
      QCOMPARE(static_cast<int>(f.row.size()), gaussian.size());
      QCOMPARE(static_cast<int>(f.column.size()), gaussian.size());
      QVERIFY(f.symmetric);
      QVERIFY(std::abs(f.dcGain - 1) < 1e-9);
      // The factors reproduce the weights.
      const ChannelFilter& ch = gaussian.channel(c);
      for (int j = 0; j < ch.size; ++j)
        for (int i = 0; i < ch.size; ++i)
          QVERIFY(std::abs(f.scale * f.column[j] * f.row[i] - ch.weight(j, i)) < 1e-9);
      // Binomial factors come out as integers: 1 6 15 20 15 6 1 (or the preset's own).
      for (double v : f.row) QVERIFY(std::abs(v - std::round(v)) < 1e-6);
    }
    QVERIFY(panel.factsText().contains(QStringLiteral("separable")));
    // A low-pass: DC is the largest gain, Nyquist much smaller.
    const auto& h = panel.response(0);
    const int n = lab::FilterAnalysisPanel::kResponseSize;
    QVERIFY(std::abs(h[static_cast<size_t>(n / 2 * n + n / 2)] - 1) < 1e-9);
    QVERIFY(h[static_cast<size_t>(n / 2 * n)] < 0.2);
  }

  void randomFilterIsNotSeparable() {
    lab::FilterAnalysisPanel panel;
    panel.setFilter(randomFilter());
    panel.refresh();
    QVERIFY(panel.facts(0).rank > 1);
    QVERIFY(!panel.facts(0).separable);
    QVERIFY(panel.facts(0).row.empty());
    QVERIFY(panel.factsText().contains(QStringLiteral("not separable")));
  }

  void identityResponseIsFlat() {
    for (int k : {1, 3, 7}) {
      const FilterSet identity = FilterSet::uniform(ChannelFilter::identity(k), BorderMode::Reflect101);
      lab::FilterAnalysisPanel panel;
      panel.setFilter(identity);
      panel.refresh();
      for (double v : panel.response(1)) QVERIFY(std::abs(v - 1) < 1e-12);
      QCOMPARE(static_cast<int>(panel.response(1).size()),
               lab::FilterAnalysisPanel::kResponseSize * lab::FilterAnalysisPanel::kResponseSize);
    }
  }

  void laplacianIsHighPassAndSobelAntisymmetric() {
    const FilterSet laplacian = preset(QStringLiteral("laplacian"));
    const auto h = lab::frequencyResponse(laplacian.channel(0), 64);
    QVERIFY(h[32 * 64 + 32] < 1e-9);  // DC removed
    QVERIFY(h[32 * 64 + 0] > 1);      // the finest detail amplified
    const FilterSet sobel = preset(QStringLiteral("sobel_x"));
    const auto facts = lab::channelFacts(sobel, 0);
    QVERIFY(facts.antisymmetric);
    QCOMPARE(facts.rank, 1);
    QCOMPARE(facts.row, (std::vector<double>{-1, 0, 1}));
    QCOMPARE(facts.column, (std::vector<double>{1, 2, 1}));
    QVERIFY(std::abs(facts.scale - 1) < 1e-9);
    QVERIFY(std::abs(facts.dcGain) < 1e-12);
    // Directional: responds along u (horizontal frequencies), not along v.
    const auto hs = lab::frequencyResponse(sobel.channel(0), 64);
    QVERIFY(hs[32 * 64 + 16] > 1);     // u = −¼, v = 0
    QVERIFY(hs[16 * 64 + 32] < 1e-9);  // u = 0, v = −¼
  }

  void paddedSobelFactorsAreTrimmedToItsSupport() {
    // Sobel X typed into the middle of the editor's 7×7: the factors are those of the 3×3, not the SVD's
    // zero-padded 7-vectors ([0, 0, 1, 2, 1, 0, 0]).
    const FilterSet sobel = preset(QStringLiteral("sobel_x"));
    ChannelFilter padded = ChannelFilter::identity(7);
    for (int j = 0; j < 7; ++j)
      for (int i = 0; i < 7; ++i) padded.matrix[static_cast<size_t>(j * 7 + i)] = 0;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i)
        padded.matrix[static_cast<size_t>((j + 2) * 7 + i + 2)] = sobel.channel(0).at(j, i);
    const FilterSet seven = FilterSet::uniform(padded, BorderMode::Reflect101);
    const auto facts = lab::channelFacts(seven, 0);
    QCOMPARE(facts.rank, 1);
    QCOMPARE(facts.column, (std::vector<double>{1, 2, 1}));
    QCOMPARE(facts.row, (std::vector<double>{-1, 0, 1}));
    QCOMPARE(facts.columnFirst, 2);
    QCOMPARE(facts.rowFirst, 2);
    for (int j = 0; j < 7; ++j)
      for (int i = 0; i < 7; ++i) {
        const bool inside = j >= 2 && j < 5 && i >= 2 && i < 5;
        const double w = inside ? facts.scale * facts.column[static_cast<size_t>(j - 2)] *
                                      facts.row[static_cast<size_t>(i - 2)]
                                : 0.0;
        QVERIFY(std::abs(w - padded.weight(j, i)) < 1e-9);
      }
    lab::FilterAnalysisPanel panel;
    panel.setFilter(seven);
    panel.refresh();
    QVERIFY2(panel.factsText().contains(QStringLiteral("column [1, 2, 1] · row [-1, 0, 1]")),
             qPrintable(panel.factsText()));
    // Trimming keeps the centre: only as many zeros as both ends have.
    std::vector<double> offCentre{0, 0, 1, 2, 0};
    QCOMPARE(lab::trimZeroPadding(offCentre), 1);
    QCOMPARE(offCentre, (std::vector<double>{0, 1, 2}));
  }

  void panelFollowsEditsAndLogScale() {
    lab::FilterAnalysisPanel panel;
    panel.resize(380, 700);
    panel.show();
    panel.setFilter(preset(QStringLiteral("gaussian")));
    QTRY_COMPARE(panel.facts(0).rank, 1);
    panel.setFilter(randomFilter());
    QTRY_VERIFY(panel.facts(0).rank > 1);
    panel.setLogScale(true);
    panel.setChannel(2);
    QCOMPARE(panel.channel(), 2);
    QVERIFY(!panel.grab().isNull());
    QCOMPARE(lab::ResponseView::colourAt(0), QColor(68, 1, 84));
  }

  // Where FFT starts to win comes from auto's measured winners (issue 31), not a constant: dense structures
  // at one measured size; rank-1 ones (separable wins there) and other sizes do not count.
  void fftCrossoverComesFromMeasuredWinners() {
    const std::string dev = "Test Device|driver 1|";
    const std::vector<std::pair<std::string, AutoChoice>> choices{
        {dev + "1024x576|k7|dense|ranks7,|zeros0,|same1", {"codegen", "", 9}},
        {dev + "1024x576|k17|dense|ranks17,|zeros0,|same1", {"dynamic", "", 61}},
        {dev + "1024x576|k21|dense|ranks21,|zeros0,|same1", {"tiled", "", 80}},
        {dev + "1024x576|k31|dense|ranks31,|zeros0,|same1", {"fft", "", 90}},
        {dev + "1024x576|k63|dense|ranks63,|zeros0,|same1", {"fft", "", 84}},
        {dev + "1024x576|k45|rank1|ranks1,|zeros0,|same1", {"separable", "", 20}},
        {dev + "640x480|k45|dense|ranks45,|zeros0,|same1", {"dynamic", "", 500}}};
    const lab::FftCrossover c = lab::fftCrossoverOf(choices);
    QCOMPARE(QString::fromStdString(c.size), QStringLiteral("1024x576"));
    QVERIFY(c.measured());
    QCOMPARE(c.fftFrom.value_or(0), 31);
    QCOMPARE(c.otherUpTo.value_or(0), 21);
    QCOMPARE(static_cast<int>(c.winners.size()), 5);
    const QString text = lab::fftCrossoverText(c, QStringLiteral("Test Device"), 45);
    QVERIFY2(text.contains(QStringLiteral("from K = 31")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("up to K = 21")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("on the FFT side")), qPrintable(text));
    // fft losing again at a larger K moves the crossover above it
    auto lostAgain = choices;
    lostAgain.push_back({dev + "1024x576|k45|dense|ranks45,|zeros0,|same1", {"dynamic", "", 70}});
    QCOMPARE(lab::fftCrossoverOf(lostAgain).fftFrom.value_or(0), 63);
    // only small K measured: fft never ran, so nothing is known about it
    const lab::FftCrossover small = lab::fftCrossoverOf({choices[0]});
    QVERIFY(!small.measured());
  }

  void panelSaysWhenNothingWasMeasuredAndReadsAutosChoices() {
    const CoreConfig saved = coreConfig();
    CoreConfig config = saved;
    config.noProgramCache = true;  // the stored choices stay in this process's memory
    setCoreConfig(config);
    lab::FilterAnalysisPanel panel;
    panel.setDevice(QStringLiteral("Analysis Test Device"));
    QVERIFY2(panel.crossoverText().contains(QStringLiteral("Not measured")),
             qPrintable(panel.crossoverText()));
    const ProgramCache cache;
    const std::string dev = "Analysis Test Device|0.1|1024x576|";
    AutoChoiceCache::instance().store(cache, dev + "k17|dense|ranks17,|zeros0,|same1", {"dynamic", "", 61});
    AutoChoiceCache::instance().store(cache, dev + "k31|dense|ranks31,|zeros0,|same1", {"fft", "", 90});
    panel.refresh();
    setCoreConfig(saved);
    QVERIFY2(panel.crossoverText().contains(QStringLiteral("FFT wins from K = 31")),
             qPrintable(panel.crossoverText()));
    QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("analysisFftCrossover"))->text(), panel.crossoverText());
  }
};

CONVOLAB_GUI_TEST_MAIN(LabAnalysisTest)
#include "test_lab_analysis.moc"
