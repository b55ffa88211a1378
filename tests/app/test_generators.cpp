// SPDX-License-Identifier: MIT
// The editor's kernel generators (issue 31.4): each parameter reaches the document as core's generator makes
// it, one undo step per parameter dragged, an edited kernel keeps its parameters (saved in the file) and says
// so, Kernel from Image (and a corrupt or huge image refused, nothing lost), the script's generator action.
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <nlohmann/json.hpp>
#include "app_test_support.hpp"
#include "automation/edit_script.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/generators.hpp"
#include "cv/image_codec.hpp"
#include "editor/channel_grid.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "editor/generator_panel.hpp"
#include "editor/heat_map_panel.hpp"
#include "editor/kernel_heat_map.hpp"
#include "editor_fixture.hpp"
#include "gui_test_main.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

QString tempPath(const QString& name) {
  return QDir::temp().filePath(
      QStringLiteral("convolab-gen-%1-%2").arg(QCoreApplication::applicationPid()).arg(name));
}

}  // namespace

class GeneratorsTest : public QObject, protected test::EditorFixture {
  Q_OBJECT

  GeneratorPanel* panel() const { return m_editor->generators(); }
  void choose(const QString& kind) {
    const int i = panel()->kindBox()->findData(kind);
    QVERIFY(i >= 0);
    panel()->kindBox()->setCurrentIndex(i);
    emit panel()->kindBox()->activated(i);  // as a user's choice
  }
  /// The document's filter is what core's generator makes of `params`, in every channel, parameters attached.
  void verifyMatchesCore(const GeneratorParams& params) {
    const ChannelFilter made = generateKernel(params);
    const FilterSet& f = m_doc->filter();
    QVERIFY(f.generator().has_value());
    QCOMPARE(*f.generator(), params);
    for (int c = 0; c < 3; ++c) {
      QCOMPARE(f.channel(c).size, params.size);
      QVERIFY(f.channel(c).matrix == made.matrix);
      QCOMPARE(f.channel(c).divisor, made.divisor);
    }
  }

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("generators-test")); }
  void init() {
    openEditor(QStringLiteral("generator-presets"));
    m_editor->resize(480, 900);
  }
  void cleanup() { closeEditor(); }

  void startsWithNoGenerator() {
    // None chosen at the start: the identity has no generator, and no parameter row shows.
    QCOMPARE(panel()->kindBox()->currentData().toString(), QString());
    QVERIFY(!panel()->paramBox(GeneratorPanel::Sigma)->isVisible());
    QCOMPARE(panel()->kindBox()->count(), 1 + static_cast<int>(generatorKinds().size()));
  }

  void everyParameterReachesTheDocument_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("param");
    QTest::addColumn<double>("value");
    QTest::newRow("gaussian sigma") << "gaussian" << int(GeneratorPanel::Sigma) << 4.5;
    QTest::newRow("disk radius") << "disk" << int(GeneratorPanel::Radius) << 9.0;
    QTest::newRow("motion length") << "motion" << int(GeneratorPanel::Length) << 21.0;
    QTest::newRow("motion angle") << "motion" << int(GeneratorPanel::Angle) << 35.0;
    QTest::newRow("log sigma") << "log" << int(GeneratorPanel::Sigma) << 3.2;
    QTest::newRow("gabor sigma") << "gabor" << int(GeneratorPanel::Sigma) << 5.5;
    QTest::newRow("gabor theta") << "gabor" << int(GeneratorPanel::Angle) << -60.0;
    QTest::newRow("gabor lambda") << "gabor" << int(GeneratorPanel::Lambda) << 7.5;
  }
  void everyParameterReachesTheDocument() {
    QFETCH(QString, kind);
    QFETCH(int, param);
    QFETCH(double, value);
    choose(kind);  // starts at the editor's size, 7
    verifyMatchesCore(GeneratorPanel::defaults(kind.toStdString(), 7));
    QTest::qWait(10);
    panel()->sizeBox()->setValue(31);
    GeneratorParams expected = GeneratorPanel::defaults(kind.toStdString(), 7);
    expected.size = 31;
    verifyMatchesCore(expected);
    QVERIFY(m_editor->grid(0)->heatMap()->isVisible());  // 31 > 15: shown as a heat map
    const auto p = static_cast<GeneratorPanel::Param>(param);
    QVERIFY(panel()->paramBox(p)->isVisible());
    panel()->paramBox(p)->setValue(value);
    expected = panel()->params();
    QCOMPARE(expected.size, 31);
    verifyMatchesCore(expected);
    // The slider moves the same parameter (and its box follows).
    QSlider* slider = panel()->paramSlider(p);
    slider->setValue(slider->value() + 10);
    QCOMPARE(panel()->paramBox(p)->value(), value + 1);
    verifyMatchesCore(panel()->params());
    QCOMPARE(m_doc->filter().channel(0).matrix, m_editor->grid(0)->heatMap()->map()->channel().matrix);
  }

  void draggingOneParameterIsOneUndoStep() {
    choose(QStringLiteral("gaussian"));
    const int steps = m_doc->undoStack()->count();
    for (double sigma : {1.5, 2.0, 2.5, 3.0}) panel()->paramBox(GeneratorPanel::Sigma)->setValue(sigma);
    QCOMPARE(m_doc->undoStack()->count(), steps + 1);
    QCOMPARE(m_doc->filter().generator()->sigma, 3.0);
    m_doc->undoStack()->undo();
    QVERIFY(m_doc->filter().generator()->sigma != 3.0);
    QCOMPARE(panel()->paramBox(GeneratorPanel::Sigma)->value(), m_doc->filter().generator()->sigma);
  }

  void anOutOfRangeParameterIsRefusedWithAMessage() {
    QString error;
    GeneratorParams bad = GeneratorPanel::defaults("disk", 9);
    bad.radius = -1;
    const FilterSet before = m_doc->filter();
    QVERIFY(!panel()->generate(bad, &error));
    QVERIFY2(error.contains(QStringLiteral("radius")), qPrintable(error));
    QCOMPARE(m_doc->filter(), before);
  }

  void anEditKeepsTheCellsAndSaysSo() {
    GeneratorParams disk = GeneratorPanel::defaults("disk", 31);
    QVERIFY(panel()->generate(disk));
    QVERIFY(!panel()->regenerateButton()->isVisible());
    QVERIFY(panel()->statusLabel()->text().contains(QStringLiteral("Generated")));
    QVERIFY(m_doc->setCell(0, 15, 15, 0.5));
    QCOMPARE(m_doc->filter().channel(0).at(15, 15), 0.5);  // the edit stands …
    QVERIFY(m_doc->filter().generator().has_value());
    QCOMPARE(*m_doc->filter().generator(), disk);  // … the parameters stay …
    QVERIFY2(panel()->statusLabel()->text().contains(QStringLiteral("Edited")),  // … and it says so
             qPrintable(panel()->statusLabel()->text()));
    QVERIFY(panel()->regenerateButton()->isVisible());
    panel()->regenerateButton()->click();
    verifyMatchesCore(disk);
    QVERIFY(!panel()->regenerateButton()->isVisible());
  }

  void theParametersAreSavedInTheFile() {
    GeneratorParams gabor = GeneratorPanel::defaults("gabor", 45);
    QVERIFY(panel()->generate(gabor));
    const QString path = tempPath(QStringLiteral("gabor.json"));
    QFile::remove(path);
    QVERIFY(m_editor->files()->exportFile(path, false));
    QCOMPARE(*loadFilterFile(path.toStdString()).generator(), gabor);
    m_doc->resetToIdentity();
    QVERIFY(!m_doc->filter().generator());
    QCOMPARE(panel()->kindBox()->currentData().toString(), QString());
    QVERIFY(m_editor->files()->importFile(path));
    QCOMPARE(panel()->kindBox()->currentData().toString(), QStringLiteral("gabor"));
    QCOMPARE(panel()->paramBox(GeneratorPanel::Lambda)->value(), gabor.lambda);
    QCOMPARE(panel()->sizeBox()->value(), 45);
    verifyMatchesCore(gabor);
    QFile::remove(path);
  }

  void aKernelFromAnImage() {
    // 21 wide, 17 high: padded to 21×21 with the picture in the middle, normalised to Σ = 1.
    QImage psf(21, 17, QImage::Format_Grayscale8);
    psf.fill(0);
    psf.scanLine(8)[10] = 200;  // (setPixel takes an RGB value: 200 would be blue, grey 31)
    psf.scanLine(2)[3] = 50;
    const QString path = tempPath(QStringLiteral("psf.png"));
    QVERIFY(psf.save(path, "PNG"));
    QString error;
    QVERIFY2(panel()->loadImage(path, &error), qPrintable(error));
    const FilterSet& f = m_doc->filter();
    QCOMPARE(f.size(), 21);
    QCOMPARE(f.channel(1).at(10, 10), 0.8);  // row 8 + 2 rows of padding
    QCOMPARE(f.channel(1).at(4, 3), 0.2);
    double sum = 0;
    for (double v : f.channel(2).matrix) sum += v;
    QCOMPARE(sum, 1.0);
    QVERIFY(m_editor->grid(0)->heatMap()->isVisible());
    QFile::remove(path);
  }

  void aCorruptOrHugeImageIsRefusedAndLosesNothing() {
    QVERIFY(panel()->generate(GeneratorPanel::defaults("disk", 31)));
    const FilterSet before = m_doc->filter();
    const int steps = m_doc->undoStack()->count();
    const QString corrupt = tempPath(QStringLiteral("corrupt.png"));
    QFile file(corrupt);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("\x89PNG\r\n\x1a\n this is no image at all");
    file.close();
    QString error;
    QVERIFY(!panel()->loadImage(corrupt, &error));
    QVERIFY2(error.contains(QStringLiteral("not an image")), qPrintable(error));
    const QString huge = tempPath(QStringLiteral("huge.png"));
    QImage big(200, 120, QImage::Format_Grayscale8);
    big.fill(128);
    QVERIFY(big.save(huge, "PNG"));
    QVERIFY(!panel()->loadImage(huge, &error));
    QVERIFY2(error.contains(QStringLiteral("200×120")) && error.contains(QStringLiteral("63×63")),
             qPrintable(error));
    const QString black = tempPath(QStringLiteral("black.png"));
    QImage dark(9, 9, QImage::Format_Grayscale8);
    dark.fill(0);
    QVERIFY(dark.save(black, "PNG"));
    QVERIFY(!panel()->loadImage(black, &error));
    QVERIFY2(error.contains(QStringLiteral("black")), qPrintable(error));
    QCOMPARE(m_doc->filter(), before);
    QCOMPARE(m_doc->undoStack()->count(), steps);
    for (const QString& p : {corrupt, huge, black}) QFile::remove(p);
  }

  void aScriptDrivesTheGenerator() {
    const auto script = parseEditScriptText(
        R"({"actions": [{"at_ms": 100, "generator": {"kind": "disk", "size": 31, "radius": 9}},
                        {"at_ms": 200, "cell": {"channel": "r", "row": 30, "col": 30, "value": 1}}]})",
        "script.json");
    QCOMPARE(script.actions[0].kind, ScriptAction::Kind::Generator);
    QCOMPARE(script.actions[0].generator.radius, 9.0);
    QCOMPARE(actionKindName(script.actions[0].kind), std::string_view("generator"));
    for (const char* bad :
         {R"({"actions": [{"at_ms": 1, "generator": {"kind": "disk", "size": 31}}]})",
          R"({"actions": [{"at_ms": 1, "generator": {"kind": "disk", "size": 65, "radius": 3}}]})",
          R"({"actions": [{"at_ms": 1, "generator": {"kind": "disk", "size": 31, "blur": 3}}]})"}) {
      bool refused = false;
      try {
        parseEditScriptText(bad, "bad.json");
      } catch (const EditScriptError& e) {
        refused = std::string(e.what()).find("generator") != std::string::npos;
      }
      QVERIFY2(refused, bad);
    }
  }

  void aScriptedGeneratorReachesTheScreen() {
    // The app itself: a generator action on a still image, its edit → display time in --stats, and the last
    // frame is that disk blur (the CPU reference, ±1), not the identity it started with.
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("s.json"));
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"actions": [{"at_ms": 300, "generator": {"kind": "disk", "size": 17, "radius": 6}}]})");
    file.close();
    const QString stats = dir.filePath(QStringLiteral("stats.json")),
                  snap = dir.filePath(QStringLiteral("s.png"));
    const QString source = test::dataFile(QStringLiteral("chelsea.png"));
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("CONVOLAB_DEVICE"), QStringLiteral("cpu"));
    app.setProcessEnvironment(env);
    app.start(QStringLiteral(CONVOLAB_APP),
              {QStringLiteral("--source"), source, QStringLiteral("--strategy"), QStringLiteral("naive"),
               QStringLiteral("--script"), script, QStringLiteral("--stats"), stats,
               QStringLiteral("--snapshot"), snap});
    QVERIFY(app.waitForStarted());
    if (!app.waitForFinished(120000)) {
      app.kill();
      app.waitForFinished();
      QFAIL("convolab --script did not exit");
    }
    QVERIFY2(app.exitCode() == 0, app.readAllStandardError().constData());
    QFile statsFile(stats);
    QVERIFY(statsFile.open(QIODevice::ReadOnly));
    const auto j = nlohmann::json::parse(statsFile.readAll().toStdString());
    QCOMPARE(j.at("actions").at(0).at("kind").get<std::string>(), std::string("generator"));
    QVERIFY2(j.at("actions").at(0).at("edit_to_display_ms").is_number(), j.dump(2).c_str());
    GeneratorParams disk = GeneratorPanel::defaults("disk", 17);
    disk.radius = 6;
    const Image input = opencv::loadImage(source.toStdString());
    const Image expected = test::referenceResult(input, FilterSet::uniform(generateKernel(disk)));
    const int diff = test::maxAbsDiff(opencv::loadImage(snap.toStdString()), expected);
    QVERIFY2(diff >= 0 && diff <= 1, qPrintable(QStringLiteral("the last frame differs by %1").arg(diff)));
  }
};

CONVOLAB_GUI_TEST_MAIN(GeneratorsTest)
#include "test_generators.moc"
