// SPDX-License-Identifier: MIT
// The Chain dock (issue 30's GUI): a chain preset switched on runs in the preview (against referenceChain), a
// step switched off changes it, reorder/remove, files, the 8-step limit, import, the switch against Custom
// OpenCL's, and the chain remembered across a restart.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QListWidget>
#include <QMenu>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>

#include "app_settings.hpp"
#include "app_test_support.hpp"
#include "chain/chain_controller.hpp"
#include "chain/chain_dock.hpp"
#include "chain/chain_panel.hpp"
#include "chain/chain_presets.hpp"
#include "chain/chain_step_text.hpp"
#include "chain/custom_step_vetting.hpp"
#include "chain_test_support.hpp"
#include "convolab/reference.hpp"
#include "custom/custom_examples.hpp"
#include "custom/custom_kernel_controller.hpp"
#include "custom/custom_kernel_dock.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "gui_test_main.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

/// A chain shown in the preview changes the pattern by more than this somewhere (it is not the input).
constexpr int kChanges = 8;

ChainDock* dockOf(MainWindow& window) {
  return window.findChild<ChainDock*>();
}

FilterChain presetNamed(const QString& name) {
  for (const ChainPreset& p : loadChainPresets())
    if (p.name == name) return p.chain;
  qFatal("no chain preset %s", qPrintable(name));
}

QStringList rows(const ChainPanel& panel) {
  QStringList texts;
  for (int i = 0; i < panel.list()->count(); ++i) texts << panel.list()->item(i)->text();
  return texts;
}

}  // namespace

class ChainDockTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("chain-dock-test")); }

  void stepsReadAsKindAndName() {
    const FilterChain sobel = presetNamed(QStringLiteral("Sobel edges (magnitude)"));
    QCOMPARE(describeChainStep(sobel.steps()[0]), QStringLiteral("magnitude (Sobel X, Sobel Y)"));
    QCOMPARE(describeChainStep(test::blur("Gaussian 3x3")), QStringLiteral("filter: Gaussian 3x3"));
    QCOMPARE(loadChainPresets().size(), std::size_t(4));
  }

  // The chain presets and the Custom OpenCL examples read a folder the same way (readChainFolder): files that
  // do not parse are skipped, a file without a name is named after itself, sorted by name whatever the case;
  // the examples keep only the files with a custom step.
  void presetsAndExamplesReadAFolderAlike() {
    QTemporaryDir dir;
    QVERIFY(QFile::copy(test::dataFile(QStringLiteral("custom/invert.json")), dir.filePath("z.json")));
    QFile plain(dir.filePath("k.json")), broken(dir.filePath("c.json"));
    QVERIFY(plain.open(QIODevice::WriteOnly) && broken.open(QIODevice::WriteOnly));
    plain.write(R"({"matrix": [[0, 0, 0], [0, 1, 0], [0, 0, 0]]})");  // no name, no custom step
    broken.write(R"({"matrix": [[1, 2], [3, 4]]})");                  // even K
    plain.close();
    broken.close();
    const std::vector<ChainPreset> presets = loadChainPresets(dir.path());
    QCOMPARE(presets.size(), std::size_t(2));
    QCOMPARE(presets[0].name, QStringLiteral("Invert (test)"));  // before k.json's "k", though z.json is not
    QCOMPARE(presets[1].name, QStringLiteral("k"));
    QCOMPARE(presets[1].chain.name(), std::string("k"));
    const std::vector<CustomExample> examples = loadCustomExamples(dir.path());
    QCOMPARE(examples.size(), std::size_t(1));
    QCOMPARE(examples[0].name, QStringLiteral("Invert (test)"));
    QVERIFY(examples[0].step.isCustom());
  }

  void presetRunsAndAStepSwitchedOffChangesIt() {
    auto window = test::openChainWindow();
    ChainDock* dock = dockOf(*window);
    QVERIFY(dock);
    QAction* preset = nullptr;
    for (QAction* a : dock->panel()->presetsMenu()->actions())
      if (a->text() == QStringLiteral("Blur, then edges")) preset = a;
    QVERIFY(preset);
    preset->trigger();
    const FilterChain chain = *dock->controller()->chain();
    QVERIFY(chain.size() >= 2);
    dock->panel()->onSwitch()->setChecked(true);
    QVERIFY(window->pipeline()->runsChain());
    QVERIFY(test::waitForChain(*window, chain, kChanges));
    // The stage table names each step as the list numbers it, short enough for its column.
    auto* stages = window->findChild<QTableWidget*>(QStringLiteral("statsTable"));
    QVERIFY(stages);
    QTRY_VERIFY_WITH_TIMEOUT(!stages->findItems(QStringLiteral("2: magnitude"), Qt::MatchExactly).isEmpty(),
                             10000);
    dock->panel()->list()->item(0)->setCheckState(Qt::Unchecked);  // the blur off: edges of the raw pattern
    std::vector<ChainStep> steps = chain.steps();
    steps[0].enabled = false;
    QVERIFY(test::waitForChain(*window, FilterChain::make(steps), kChanges));
    dock->panel()->onSwitch()->setChecked(false);  // the editor's filter again
    QVERIFY(!window->pipeline()->runsChain());
    // Remembered across a restart: the list (with its switched-off step) and the switch.
    dock->panel()->onSwitch()->setChecked(true);
    window.reset();
    auto again = test::openChainWindow(false);
    QCOMPARE(dockOf(*again)->controller()->steps(), steps);
    QVERIFY(dockOf(*again)->controller()->isOn());
    QVERIFY(again->pipeline()->runsChain());
  }

  void switchesExcludeEachOther() {
    auto window = test::openChainWindow();
    ChainDock* chain = dockOf(*window);
    CustomKernelController* custom = window->findChild<CustomKernelDock*>()->controller();
    QVERIFY(chain->controller()->append(test::blur("blur")).isEmpty());
    chain->panel()->onSwitch()->setChecked(true);
    custom->setOn(true);  // the last switched on wins
    QVERIFY(!chain->controller()->isOn());
    QVERIFY(!chain->panel()->onSwitch()->isChecked());
    QVERIFY(!window->pipeline()->runsChain());  // no live custom kernel yet: the editor's filter
    chain->panel()->onSwitch()->setChecked(true);
    QVERIFY(!custom->isOn());
    QVERIFY(window->pipeline()->runsChain());
  }

  void customStepsAreTriedBeforeTheyRun() {
    auto window = test::openChainWindow();
    ChainDock* dock = dockOf(*window);
    std::atomic<bool> pass{false};
    std::atomic<int> trials{0};
    dock->vetting()->setTrial([&](const ChainStep&, QSize) {
      ++trials;
      TrialOutcome o;
      o.verdict = pass ? TrialOutcome::Verdict::Passed : TrialOutcome::Verdict::WroteOutside;
      o.message = pass ? "tried" : "wrote outside its output";
      return o;
    });
    auto* customSteps = dock->panel()->presetsMenu()->findChild<QMenu*>(QStringLiteral("chainCustomSteps"));
    QVERIFY(customSteps);
    QAction* invert = nullptr;
    for (QAction* a : customSteps->actions())
      if (a->text() == QStringLiteral("Invert")) invert = a;
    QVERIFY(invert);
    invert->trigger();
    QCOMPARE(describeChainStep(dock->controller()->steps()[0]), QStringLiteral("custom OpenCL: Invert"));
    dock->panel()->onSwitch()->setChecked(true);
    QVERIFY(!window->pipeline()->runsChain());                                 // not before its trial
    QTRY_VERIFY_WITH_TIMEOUT(!dock->controller()->steps()[0].enabled, 10000);  // refused: switched off
    QCOMPARE(trials.load(), 1);
    QVERIFY(!window->pipeline()->chain().hasCustomStep());
    pass = true;
    dock->panel()->list()->item(0)->setCheckState(Qt::Checked);  // tried again, passes, runs
    QVERIFY(test::waitForFrameWhere(
        *window,
        [&](const ProcessedFrame& f) {
          return f.record.filterRevision == window->pipeline()->filterRevision() &&
                 test::maxAbsDiff(*f.filtered, *f.original) > 100;
        },
        60000));
    QVERIFY(window->pipeline()->chain().hasCustomStep());
    QCOMPARE(trials.load(), 2);
  }

  void reorderAndRemoveByKeys() {
    ChainController controller;
    ChainPanel panel(
        &controller, [] { return FilterSet(); }, nullptr);
    for (const char* name : {"a", "b", "c"}) QVERIFY(controller.append(test::blur(name)).isEmpty());
    panel.show();
    QApplication::setActiveWindow(&panel);  // the keys are shortcuts of the panel's window
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    panel.list()->setCurrentRow(0);
    panel.list()->setFocus();
    QTest::keyClick(panel.list(), Qt::Key_Down, Qt::ControlModifier);
    QCOMPARE(rows(panel), QStringList({"1. filter: b", "2. filter: a", "3. filter: c"}));
    QCOMPARE(panel.list()->currentRow(), 1);
    panel.moveSelected(-1);
    QCOMPARE(rows(panel), QStringList({"1. filter: a", "2. filter: b", "3. filter: c"}));
    panel.list()->setCurrentRow(1);
    QTest::keyClick(panel.list(), Qt::Key_Delete);
    QCOMPARE(rows(panel), QStringList({"1. filter: a", "2. filter: c"}));
    QCOMPARE(controller.steps()[1].filter.name(), std::string("c"));
  }

  void eightStepsAtMost() {
    ChainController controller;
    ChainPanel panel(
        &controller, [] { return FilterSet(); }, nullptr);
    for (int i = 0; i < kMaxChainSteps; ++i) panel.addEditorFilter();
    QCOMPARE(controller.size(), kMaxChainSteps);
    QVERIFY(!controller.append(test::blur("ninth")).isEmpty());
    panel.addEditorFilter();
    QCOMPARE(controller.size(), kMaxChainSteps);
    QVERIFY(panel.statusText().contains(QStringLiteral("full")));
  }

  void filesRoundTripRefuseOverwriteAndImportOpensHere() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    ChainController controller;
    QVERIFY(!controller.saveFile(path, false).isEmpty());  // nothing to save
    controller.load(presetNamed(QStringLiteral("Sharpen twice")));
    controller.setEnabled(1, false);
    QVERIFY(controller.saveFile(path, false).isEmpty());
    const QByteArray written = [&] {
      QFile f(path);
      return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }();
    controller.remove(0);
    QVERIFY(!controller.saveFile(path, false).isEmpty());  // never replaced silently
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), written);
    ChainController reopened;
    QVERIFY(reopened.openFile(path).isEmpty());
    std::vector<ChainStep> expected = presetNamed(QStringLiteral("Sharpen twice")).steps();
    expected[1].enabled = false;
    QCOMPARE(reopened.steps(), expected);
    auto window = test::openChainWindow();
    QVERIFY(
        window->editor()->files()->importFile(path));  // File ▸ Import of a chain: the Chain dock opens it
    QCOMPARE(dockOf(*window)->controller()->size(), 2);
    QVERIFY(!dockOf(*window)->controller()->steps()[1].enabled);
    QVERIFY(dockOf(*window)->controller()->isOn());  // imported to run, as an imported filter does
    QVERIFY(window->pipeline()->runsChain());
  }
};

CONVOLAB_GUI_TEST_MAIN(ChainDockTest)
#include "test_chain_dock.moc"
