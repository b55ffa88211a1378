// SPDX-License-Identifier: MIT
// The editor's heat map for large kernels (issue 31.4): shown for K > 15 (the grid for K ≤ 15), the value
// under the pointer, click-to-edit as one undo step, wheel zoom and fit, a diverging colour map.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

#include "app_test_support.hpp"
#include "editor/channel_grid.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/heat_map_panel.hpp"
#include "editor/kernel_heat_map.hpp"
#include "editor_fixture.hpp"
#include "gui_test_main.hpp"
#include "window/theme.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

/// A K×K filter with distinct values: cell (j, i) = (j − i) / 8 in every channel, and 0.25 at (4, 7).
FilterSet rampFilter(int k) {
  ChannelFilter ch;
  ch.size = k;
  ch.matrix.resize(static_cast<size_t>(k * k));
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) ch.matrix[static_cast<size_t>(j * k + i)] = (j - i) / 8.0;
  ch.matrix[static_cast<size_t>(4 * k + 7)] = 0.25;
  return FilterSet::uniform(ch, BorderMode::Reflect101, "Ramp");
}

void moveMouse(QWidget* w, QPoint at) {
  QMouseEvent move(QEvent::MouseMove, QPointF(at), w->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::NoButton,
                   Qt::NoModifier);
  QCoreApplication::sendEvent(w, &move);
}

void wheel(QWidget* w, QPoint at, int notches) {
  QWheelEvent event(QPointF(at), w->mapToGlobal(QPointF(at)), QPoint(), QPoint(0, 120 * notches),
                    Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(w, &event);
}

}  // namespace

class HeatMapEditorTest : public QObject, protected test::EditorFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("heat-map-editor-test")); }
  void init() {
    openEditor(QStringLiteral("heat-map-presets"));
    m_editor->resize(480, 900);
  }
  void cleanup() { closeEditor(); }

  void largeKernelsShowAHeatMapSmallOnesTheGrid() {
    // The size control reaches 63; 17 and up are heat maps, 15 and below the grid of numbers.
    QCOMPARE(m_editor->sizeBox()->itemData(m_editor->sizeBox()->count() - 1).toInt(), kMaxFilterSize);
    QVERIFY(m_doc->setSize(17));
    QTest::qWait(20);
    for (int c = 0; c < 3; ++c) {
      QVERIFY(m_editor->grid(c)->heatMap()->isVisible());
      QVERIFY(!table(c)->isVisible());
      QCOMPARE(m_editor->grid(c)->heatMap()->map()->channel().size, 17);
    }
    QVERIFY(m_doc->setSize(15));
    QTest::qWait(20);
    for (int c = 0; c < 3; ++c) {
      QVERIFY(!m_editor->grid(c)->heatMap()->isVisible());
      QVERIFY(table(c)->isVisible());
      QCOMPARE(table(c)->rowCount(), 15);
    }
    // A loaded 63×63 shows whole (fit: 6 px a cell in the 384 px view), per channel, or one map when linked.
    m_doc->replace(rampFilter(63), QStringLiteral("ramp"));
    KernelHeatMap* map = m_editor->grid(0)->heatMap()->map();
    QVERIFY(map->fitMode());
    QCOMPARE(map->cellSize(), HeatMapPanel::kViewSide / 63);
    QVERIFY(m_editor->grid(0)->heatMap()->scrollArea()->viewport()->rect().contains(map->geometry()));
    m_editor->linkBox()->setChecked(true);
    QVERIFY(m_editor->grid(0)->heatMap()->isVisible());
    QVERIFY(!m_editor->grid(1)->isVisible());
  }

  void theValueUnderThePointerIsShown() {
    m_doc->replace(rampFilter(31), QStringLiteral("ramp"));
    HeatMapPanel* panel = m_editor->grid(1)->heatMap();
    KernelHeatMap* map = panel->map();
    moveMouse(map, map->cellRect(4, 7).center());
    QCOMPARE(map->hoveredCell(), QPoint(7, 4));
    const QString text = panel->readout()->text();
    QVERIFY2(text.contains(QStringLiteral("Row 5, column 8")) && text.contains(QStringLiteral("0.25")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("−8, −11 from the centre")), qPrintable(text));
    moveMouse(map, map->cellRect(30, 0).center());  // (30 − 0) / 8
    QVERIFY2(panel->readout()->text().contains(QStringLiteral(": 3.75")),
             qPrintable(panel->readout()->text()));
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(map, &leave);
    QVERIFY(panel->readout()->text().contains(QStringLiteral("point at a cell")));
  }

  void clickingACellEditsItAsOneUndoStep() {
    m_doc->replace(rampFilter(31), QStringLiteral("ramp"));
    HeatMapPanel* panel = m_editor->grid(2)->heatMap();
    KernelHeatMap* map = panel->map();
    const int steps = m_doc->undoStack()->count();
    QTest::mouseClick(map, Qt::LeftButton, {}, map->cellRect(10, 20).center());
    QLineEdit* editor = panel->cellEditor();
    QVERIFY(editor->isVisible());
    QCOMPARE(editor->text(), QStringLiteral("-1.25"));  // (10 − 20) / 8, selected for typing over
    QTest::keyClicks(editor, QStringLiteral("1/4"));
    QTest::keyClick(editor, Qt::Key_Return);
    QVERIFY(!editor->isVisible());
    QCOMPARE(m_doc->filter().channel(2).at(10, 20), 0.25);
    QCOMPARE(m_doc->filter().channel(0).at(10, 20), -1.25);  // unlinked: only blue
    QCOMPARE(m_doc->undoStack()->count(), steps + 1);
    // A second click-and-edit is a step of its own (not merged into the first).
    QTest::mouseClick(map, Qt::LeftButton, {}, map->cellRect(11, 20).center());
    QTest::keyClicks(editor, QStringLiteral("2"));
    QTest::keyClick(editor, Qt::Key_Return);
    QCOMPARE(m_doc->filter().channel(2).at(11, 20), 2.0);
    QCOMPARE(m_doc->undoStack()->count(), steps + 2);
    m_doc->undoStack()->undo();
    QCOMPARE(m_doc->filter().channel(2).at(11, 20), -1.125);
    QCOMPARE(m_doc->filter().channel(2).at(10, 20), 0.25);
    m_doc->undoStack()->undo();
    QCOMPARE(m_doc->filter().channel(2).at(10, 20), -1.25);
    // Esc cancels: nothing changes, no step; a word is refused with a message and changes nothing.
    panel->editCell(3, 3);
    QTest::keyClicks(editor, QStringLiteral("9"));
    QTest::keyClick(editor, Qt::Key_Escape);
    QVERIFY(!editor->isVisible());
    QCOMPARE(m_doc->filter().channel(2).at(3, 3), 0.0);
    panel->editCell(3, 3);
    QTest::keyClicks(editor, QStringLiteral("abc"));
    QTest::keyClick(editor, Qt::Key_Return);
    QCOMPARE(m_doc->filter().channel(2).at(3, 3), 0.0);
    QVERIFY2(m_editor->errorText().contains(QStringLiteral("not a number")),
             qPrintable(m_editor->errorText()));
    QCOMPARE(m_doc->undoStack()->index(), steps);
  }

  void theKeyboardMovesReadsAndEdits() {
    m_doc->replace(rampFilter(31), QStringLiteral("ramp"));
    HeatMapPanel* panel = m_editor->grid(0)->heatMap();
    KernelHeatMap* map = panel->map();
    m_editor->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_editor.get()));
    map->setFocus();
    QTest::keyClick(map, Qt::Key_Right);  // from the centre (15, 15)
    QTest::keyClick(map, Qt::Key_Down);
    QTest::keyClick(map, Qt::Key_Down);
    QCOMPARE(map->hoveredCell(), QPoint(16, 17));
    QVERIFY2(panel->readout()->text().contains(QStringLiteral("Row 18, column 17")),
             qPrintable(panel->readout()->text()));
    QTest::keyClick(map, Qt::Key_Return);
    QVERIFY(panel->cellEditor()->isVisible());
    QTest::keyClicks(panel->cellEditor(), QStringLiteral("0.75"));
    QTest::keyClick(panel->cellEditor(), Qt::Key_Return);
    QCOMPARE(m_doc->filter().channel(0).at(17, 16), 0.75);
    QVERIFY(map->hasFocus());  // the arrows go on from there
    QTest::keyClick(map, Qt::Key_Left);
    QCOMPARE(map->hoveredCell(), QPoint(15, 17));
  }

  void theWheelZoomsAndFitShowsTheWhole() {
    m_doc->replace(rampFilter(45), QStringLiteral("ramp"));
    HeatMapPanel* panel = m_editor->grid(0)->heatMap();
    KernelHeatMap* map = panel->map();
    const int fit = map->cellSize();
    QCOMPARE(fit, HeatMapPanel::kViewSide / 45);
    wheel(map, map->cellRect(22, 22).center(), 3);
    QVERIFY(map->cellSize() > fit);
    QVERIFY(!map->fitMode());
    QVERIFY(!panel->fitButton()->isChecked());
    QVERIFY(map->width() > panel->scrollArea()->viewport()->width());  // larger than the view: it scrolls
    wheel(map, map->cellRect(22, 22).center(), -30);
    QCOMPARE(map->cellSize(), KernelHeatMap::kMinCell);
    panel->fitButton()->click();
    QVERIFY(map->fitMode());
    QCOMPARE(map->cellSize(), fit);
  }

  void negativeZeroAndPositiveCellsDiffer() {
    // The colour map: blue for negative, a neutral grey for zero, amber for positive; painted so.
    const QColor neg = theme::heatColor(-1), zero = theme::heatColor(0), pos = theme::heatColor(1);
    QVERIFY(neg.blue() > neg.red() + 60);
    QVERIFY(pos.red() > pos.blue() + 60);
    QVERIFY(std::abs(zero.red() - zero.blue()) < 16 && std::abs(zero.red() - zero.green()) < 16);
    m_doc->replace(rampFilter(31), QStringLiteral("ramp"));
    KernelHeatMap* map = m_editor->grid(0)->heatMap()->map();
    const QImage shot = map->grab().toImage();
    const auto at = [&](int row, int col) { return shot.pixelColor(map->cellRect(row, col).center()); };
    QVERIFY(at(0, 30).blue() > at(0, 30).red());  // (0 − 30) / 8 < 0
    QVERIFY(at(30, 0).red() > at(30, 0).blue());  // > 0
    QCOMPARE(at(5, 5), zero);                     // 0
  }
};

CONVOLAB_GUI_TEST_MAIN(HeatMapEditorTest)
#include "test_heat_map_editor.moc"
