// SPDX-License-Identifier: MIT
// Undo granularity of divisor, offset and border-value edits (issue 34.12): repeated steps of one spin box on
// one channel are one undo step, but each channel's box (and each field) is its own, so undoing G's divisor
// never takes back R's. Checked on the values the filter holds after each undo, not on the step count alone.
#include <QTest>

#include "editor/filter_document.hpp"
#include "gui_test_main.hpp"

using namespace convolab;
using namespace convolab::gui;

class UndoStepsTest : public QObject {
  Q_OBJECT

 private slots:
  void eachChannelsDivisorAndOffsetIsItsOwnStep() {
    FilterDocument doc;
    doc.setLinked(false);
    QVERIFY(doc.setDivisor(0, 2));
    QVERIFY(doc.setDivisor(0, 3));  // the same box again: merged with the step before
    QVERIFY(doc.setDivisor(1, 5));
    QVERIFY(doc.setOffset(2, 10));
    QVERIFY(doc.setOffset(2, 20));
    QVERIFY(doc.setOffset(1, 7));
    QCOMPARE(doc.undoStack()->count(), 4);

    QUndoStack* undo = doc.undoStack();
    undo->undo();  // G's offset
    QCOMPARE(doc.filter().channel(1).offset, 0.0);
    QCOMPARE(doc.filter().channel(2).offset, 20.0);
    undo->undo();  // B's offset, both of its steps
    QCOMPARE(doc.filter().channel(2).offset, 0.0);
    QCOMPARE(doc.filter().channel(1).divisor, 5.0);
    undo->undo();  // G's divisor
    QCOMPARE(doc.filter().channel(1).divisor, 1.0);
    QCOMPARE(doc.filter().channel(0).divisor, 3.0);
    undo->undo();  // R's divisor
    QCOMPARE(doc.filter().channel(0).divisor, 1.0);
    QVERIFY(!undo->canUndo());
    undo->redo();
    undo->redo();
    QCOMPARE(doc.filter().channel(0).divisor, 3.0);
    QCOMPARE(doc.filter().channel(1).divisor, 5.0);
    QCOMPARE(doc.filter().channel(2).offset, 0.0);
  }

  void linkedEditsAreOneStepForAllThreeChannels() {
    FilterDocument doc;
    doc.setLinked(true);
    QVERIFY(doc.setDivisor(0, 4));
    QVERIFY(doc.setDivisor(2, 6));  // linked: the same step, whichever channel's box
    QCOMPARE(doc.undoStack()->count(), 1);
    for (int c = 0; c < kChannels; ++c) QCOMPARE(doc.filter().channel(c).divisor, 6.0);
    doc.setLinked(false);
    QVERIFY(doc.setDivisor(1, 8));
    QCOMPARE(doc.undoStack()->count(), 2);
    doc.undoStack()->undo();
    for (int c = 0; c < kChannels; ++c) QCOMPARE(doc.filter().channel(c).divisor, 6.0);
  }

  void eachChannelsBorderValueIsItsOwnStep() {
    FilterDocument doc;
    doc.setLinked(false);
    QVERIFY(doc.setBorder(BorderMode::Constant));
    QVERIFY(doc.setBorderValue(0, 100));
    QVERIFY(doc.setBorderValue(0, 120));
    QVERIFY(doc.setBorderValue(2, 30));
    QCOMPARE(doc.undoStack()->count(), 3);
    doc.undoStack()->undo();
    QCOMPARE(doc.filter().borderValue()[2], 0.0);
    QCOMPARE(doc.filter().borderValue()[0], 120.0);
    doc.undoStack()->undo();
    QCOMPARE(doc.filter().borderValue()[0], 0.0);
    QCOMPARE(doc.filter().border(), BorderMode::Constant);
  }
};

CONVOLAB_GUI_TEST_MAIN(UndoStepsTest)
#include "test_undo_steps.moc"
