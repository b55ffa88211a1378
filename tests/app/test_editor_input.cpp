// SPDX-License-Identifier: MIT
// What a person types into the filter editor: values the float-range rule refuses are refused with a message
// (never an abort out of a Qt slot, issue 34.3), each keystroke that makes a number reaches the filter at
// once with one undo step per cell edit (33.3), and the undo history is bounded (34.11).
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>

#include "app_test_support.hpp"
#include "automation/edit_script.hpp"
#include "convolab/filter_io.hpp"
#include "editor/channel_grid.hpp"
#include "editor/compact_spin_box.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "editor/preset_library.hpp"
#include "editor_fixture.hpp"
#include "gui_test_main.hpp"
#include "processing/pipeline.hpp"
#include "window/elided_label.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

class EditorInputTest : public QObject, protected test::EditorFixture {
  Q_OBJECT

 private:
  /// Opens the cell editor of R (row, col) by typing into the focused table, as a person does; returns it.
  QLineEdit* startTyping(int row, int col, Qt::Key first) {
    QTableWidget* t = table(0);
    m_editor->activateWindow();
    if (!QTest::qWaitForWindowActive(m_editor.get())) return nullptr;
    t->setFocus();
    t->setCurrentCell(row, col);
    QTest::keyClick(t, first);
    return qobject_cast<QLineEdit*>(QApplication::focusWidget());
  }

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("editor-input-test")); }

  void init() { openEditor(QStringLiteral("input-presets")); }

  void cleanup() { closeEditor(); }

  // 34.3: 255 × 100000 is beyond 2^24, where float sums lose whole units; FilterSet::make throws, and the
  // throw used to leave ChannelGrid::onItemChanged (a slot) and abort the app.
  void aCellBeyondTheFloatRangeIsRefusedUnderTheGrid() {
    table(0)->item(1, 2)->setText(QStringLiteral("100000"));
    QCOMPARE(m_doc->filter().channel(0).at(1, 2), 0.0);
    QCOMPARE(table(0)->item(1, 2)->text(), QStringLiteral("0"));
    const QString message = m_editor->grid(0)->messageText();
    QVERIFY2(
        message.contains(QStringLiteral("row 2, column 3")) && message.contains(QStringLiteral("16777216")),
        qPrintable(message));
    QCOMPARE(m_doc->undoStack()->count(), 0);
  }

  void aDivisorBeyondTheFloatRangeIsRefusedUnderTheGrid() {
    for (int j = 2; j <= 4; ++j)
      for (int i = 2; i <= 4; ++i) QVERIFY(m_doc->setCell(0, j, i, 1));  // a 3×3 box: Σ 9
    m_editor->grid(0)->divisorBox()->setValue(0.0001);                   // 255 × 9 / 0.0001 = 2.3e7
    QCOMPARE(m_doc->filter().channel(0).divisor, 1.0);
    QCOMPARE(m_editor->grid(0)->divisorBox()->value(), 1.0);
    QVERIFY2(m_editor->grid(0)->messageText().contains(QStringLiteral("divisor")),
             qPrintable(m_editor->grid(0)->messageText()));
  }

  // Normalise with Σ near 0 but large weights would divide by a tiny Σ: refused, and the box stays off.
  void aNormaliseBeyondTheFloatRangeStaysOff() {
    QVERIFY(m_doc->setCell(0, 3, 3, 1000));
    QVERIFY(m_doc->setCell(0, 3, 4, -999.99));
    m_editor->grid(0)->normaliseBox()->setChecked(true);
    QVERIFY(!m_doc->autoNormalise(0));
    QVERIFY(!m_editor->grid(0)->normaliseBox()->isChecked());
    QCOMPARE(m_doc->filter().channel(0).divisor, 1.0);
    QVERIFY(!m_editor->grid(0)->messageText().isEmpty());
  }

  // A border value only counts as an input in constant mode: switching to it can break the range rule.
  void aBorderThatBreaksTheRangeIsRefusedInline() {
    ChannelFilter f = ChannelFilter::identity(7);
    f.matrix[24] = 2;
    m_doc->replace(FilterSet::make({f, f, f}, BorderMode::Reflect101, {1e7, 0, 0}, "Loaded"),
                   QStringLiteral("x"));
    QComboBox* border = m_editor->borderBox();
    emit border->activated(border->findData(static_cast<int>(BorderMode::Constant)));
    QCOMPARE(m_doc->filter().border(), BorderMode::Reflect101);
    QCOMPARE(border->currentData().toInt(), static_cast<int>(BorderMode::Reflect101));
    QVERIFY2(m_editor->errorText().contains(QStringLiteral("16777216")), qPrintable(m_editor->errorText()));
  }

  // 33.3: each keystroke that makes a number is applied at once; "-" and "1/" are not numbers yet; the whole
  // edit, however many keystrokes, is one undo step.
  void thePreviewFollowsEachKeystrokeWithOneUndoStep() {
    QSignalSpy changed(m_doc.get(), &FilterDocument::filterChanged);
    QLineEdit* edit = startTyping(0, 1, Qt::Key_Minus);
    QVERIFY(edit);
    QCOMPARE(edit->text(), QStringLiteral("-"));
    QCOMPARE(changed.count(), 0);  // "-" is not a value
    QTest::keyClick(edit, Qt::Key_3);
    QCOMPARE(m_doc->filter().channel(0).at(0, 1), -3.0);  // no Enter needed
    QTest::keyClick(edit, Qt::Key_Slash);
    QCOMPARE(m_doc->filter().channel(0).at(0, 1), -3.0);  // "-3/" keeps -3
    QTest::keyClick(edit, Qt::Key_4);
    QCOMPARE(m_doc->filter().channel(0).at(0, 1), -0.75);
    QCOMPARE(edit->text(), QStringLiteral("-3/4"));  // the grid's refresh leaves the typed text alone
    QCOMPARE(changed.count(), 2);
    QTest::keyClick(edit, Qt::Key_Return);
    QTRY_VERIFY(QApplication::focusWidget() == table(0));
    QCOMPARE(m_doc->filter().channel(0).at(0, 1), -0.75);
    QCOMPARE(table(0)->item(0, 1)->text(), QStringLiteral("-0.75"));
    QCOMPARE(m_doc->undoStack()->count(), 1);
    m_doc->undoStack()->undo();
    QCOMPARE(m_doc->filter().channel(0).at(0, 1), 0.0);
    // The next edit of the same cell is a step of its own.
    edit = startTyping(0, 1, Qt::Key_2);
    QVERIFY(edit);
    QTest::keyClick(edit, Qt::Key_Return);
    QTRY_COMPARE(m_doc->undoStack()->count(), 1);  // the undone step was replaced
    QCOMPARE(m_doc->filter().channel(0).at(0, 1), 2.0);
    edit = startTyping(0, 1, Qt::Key_5);
    QVERIFY(edit);
    QTest::keyClick(edit, Qt::Key_Return);
    QTRY_COMPARE(m_doc->undoStack()->count(), 2);
  }

  void escapeTakesBackWhatTheKeystrokesApplied() {
    QLineEdit* edit = startTyping(2, 2, Qt::Key_7);
    QVERIFY(edit);
    QCOMPARE(m_doc->filter().channel(0).at(2, 2), 7.0);
    QTest::keyClick(edit, Qt::Key_Escape);
    QTRY_COMPARE(m_doc->filter().channel(0).at(2, 2), 0.0);
    QCOMPARE(m_doc->undoStack()->count(), 0);
    QCOMPARE(table(0)->item(2, 2)->text(), QStringLiteral("0"));
  }

  // Typing 100000 passes through 10000 (applied); Enter on 100000 refuses the whole edit.
  void aRefusedCommitTakesBackTheWholeEdit() {
    QLineEdit* edit = startTyping(3, 3, Qt::Key_1);
    QVERIFY(edit);
    QTest::keyClicks(edit, QStringLiteral("0000"));
    QCOMPARE(m_doc->filter().channel(0).at(3, 3), 10000.0);
    QTest::keyClick(edit, Qt::Key_0);
    QCOMPARE(m_doc->filter().channel(0).at(3, 3), 10000.0);  // 100000 is not applied …
    QVERIFY(m_editor->grid(0)->messageText().contains(QStringLiteral("16777216")));  // … and says why at once
    QTest::keyClick(edit, Qt::Key_Return);
    QTRY_COMPARE(m_doc->filter().channel(0).at(3, 3), 1.0);  // the cell's value before the edit
    QCOMPARE(m_doc->undoStack()->count(), 0);
    QCOMPARE(table(0)->item(3, 3)->text(), QStringLiteral("1"));
    QVERIFY(m_editor->grid(0)->messageText().contains(QStringLiteral("row 4, column 4")));
  }

  // 34.11: the history keeps kUndoLimit steps, the newest ones.
  void theUndoHistoryIsBounded() {
    const int edits = FilterDocument::kUndoLimit + 50;
    for (int n = 1; n <= edits; ++n) QVERIFY(m_doc->setCell(n % 3, 0, 0, n));
    QCOMPARE(m_doc->undoStack()->count(), FilterDocument::kUndoLimit);
    while (m_doc->undoStack()->canUndo()) m_doc->undoStack()->undo();
    // The oldest kept step set edit 51's value: undone, the filter holds what the first 50 edits left.
    QCOMPARE(m_doc->filter().channel(0).at(0, 0), 48.0);
    QCOMPARE(m_doc->filter().channel(2).at(0, 0), 50.0);
  }

  // 33.5: a long name (Gaussian blur at 1366, any long name at 1600) pushed the dock into a sideways scroll
  // that cut Reset, the size box and Offset. The name is elided; the editor's width follows its layout.
  void aLongNameNeverWidensTheEditorOrScrollsItSideways() {
    QTRY_VERIFY(m_editor->minimumWidth() > 0);
    QApplication::processEvents();
    const int width = m_editor->minimumWidth();
    auto* scroll = m_editor->findChild<QScrollArea*>();
    QToolButton* reset = nullptr;
    for (auto* b : m_editor->findChildren<QToolButton*>())
      if (b->text() == QStringLiteral("Reset")) reset = b;
    QVERIFY(scroll && reset);
    for (const QString& name : {QStringLiteral("Gaussian blur"), QString(200, QLatin1Char('W'))}) {
      ChannelFilter f = ChannelFilter::identity(7);
      f.matrix.assign(49, 400);  // wide numbers and Σ 19600 too
      f.divisor = 19600;
      m_doc->replace(FilterSet::uniform(f, BorderMode::Reflect101, name.toStdString()), QStringLiteral("t"));
      m_editor->resize(m_editor->minimumWidth(), 700);
      for (int i = 0; i < 3; ++i) QApplication::processEvents();
      QCOMPARE(m_editor->minimumWidth(), width);
      QVERIFY2(!scroll->horizontalScrollBar()->isVisible(), qPrintable(name.left(20)));
      const QRect inViewport(reset->mapTo(scroll->viewport(), QPoint(0, 0)), reset->size());
      QVERIFY(scroll->viewport()->rect().contains(inViewport));
      QCOMPARE(m_editor->titleLabel()->text(), name);  // the whole name stays the label's text (and tooltip)
    }
  }

  // 33.10: a bad JSON file is described by its position and what was found, not the parser's own text.
  void aBadJsonFileIsDescribedWithoutParserText() {
    const QString path = QDir::temp().filePath(
        QStringLiteral("convolab-input-bad-%1.json").arg(QCoreApplication::applicationPid()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(R"({"name": "x", "matrix": [[1, 2], })");
    file.close();
    QVERIFY(!m_editor->files()->importFile(path));
    const QString message = m_editor->errorText();
    QVERIFY2(message.contains(QStringLiteral("not valid JSON: at line 1, column ")), qPrintable(message));
    for (const char* jargon : {"json.exception", "parse_error", "syntax error while parsing", "expected '['"})
      QVERIFY2(!message.contains(QLatin1String(jargon)), qPrintable(message));
    QFile::remove(path);
  }

  // 33.10: Export Filter writes a matrix row per line, as the bundled presets are written.
  void exportWritesARowPerLine() {
    ChannelFilter f = ChannelFilter::identity(7);
    for (int i = 0; i < 7; ++i) f.matrix[static_cast<size_t>(i)] = i + 1;
    f.matrix[8] = 0.125;
    m_doc->replace(FilterSet::uniform(f, BorderMode::Reflect101, "Rows"), QStringLiteral("t"));
    const QString path = QDir::temp().filePath(
        QStringLiteral("convolab-input-rows-%1.json").arg(QCoreApplication::applicationPid()));
    QVERIFY(m_editor->files()->exportFile(path, true));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains(QStringLiteral("[1, 2, 3, 4, 5, 6, 7]")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("[0, 0.125, 0, 0, 0, 0, 0]")), qPrintable(text));
    QVERIFY(text.count(QLatin1Char('\n')) < 20);  // 7 rows and a few fields, not 49 numbers a line each
    QCOMPARE(loadFilterFile(path.toStdString()), m_doc->filter());  // reads back exactly
    QFile::remove(path);
  }

  // 34.3 through --script: a cell edit beyond the range is reported and skipped; the run goes on.
  void aScriptCellBeyondTheRangeIsReportedNotFatal() {
    const QString path = QDir::temp().filePath(
        QStringLiteral("convolab-input-script-%1.json").arg(QCoreApplication::applicationPid()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(R"({"actions": [
        {"at_ms": 0, "cell": {"channel": "r", "row": 0, "col": 0, "value": 100000}},
        {"at_ms": 50, "cell": {"channel": "g", "row": 0, "col": 0, "value": 2}}]})");
    file.close();
    LaunchOptions o;
    o.source = QStringLiteral("pattern:160x120@30");
    o.strategy = QStringLiteral("naive");
    o.frames = 100000;
    o.script = path;
    o.editScript = std::make_shared<const EditScript>(parseEditScript(path.toStdString()));
    MainWindow window(o);
    window.show();
    QVERIFY(test::waitForFrame(window, window.pipeline()->filterRevision()));
    QTRY_COMPARE_WITH_TIMEOUT(window.document()->filter().channel(1).at(0, 0), 2.0, 10000);
    QCOMPARE(window.document()->filter().channel(0).at(0, 0), 0.0);
    QFile::remove(path);
  }
};

CONVOLAB_GUI_TEST_MAIN(EditorInputTest)
#include "test_editor_input.moc"
