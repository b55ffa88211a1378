// Filter editor tests: cell edits, link channels, normalise/divisor, paste (valid and invalid), presets,
// files, undo.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>

#include "app_test_support.hpp"
#include "channel_grid.hpp"
#include "compact_spin_box.hpp"
#include "convolab/filter_io.hpp"
#include "filter_document.hpp"
#include "filter_editor.hpp"
#include "preset_library.hpp"

using namespace convolab;
using namespace convolab::gui;

class FilterEditorTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<FilterDocument> m_doc;
  std::unique_ptr<PresetLibrary> m_presets;
  std::unique_ptr<FilterEditor> m_editor;

  QTableWidget* table(int c) const { return m_editor->grid(c)->table(); }

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("filter-editor-test")); }

  void init() {
    m_doc = std::make_unique<FilterDocument>();
    m_presets = std::make_unique<PresetLibrary>(QDir::temp().filePath(
        QStringLiteral("convolab-test-presets-%1").arg(QCoreApplication::applicationPid())));
    m_editor = std::make_unique<FilterEditor>(m_doc.get(), m_presets.get());
    m_editor->show();
  }

  void cleanup() {
    QDir(m_presets->userDir()).removeRecursively();
    m_editor.reset();
    m_presets.reset();
    m_doc.reset();
  }

  void startsAsSevenBySevenIdentity() {
    QCOMPARE(m_doc->filter().size(), 7);
    QCOMPARE(table(0)->rowCount(), 7);
    QCOMPARE(table(0)->item(3, 3)->text(), QStringLiteral("1"));
    QCOMPARE(table(2)->item(0, 0)->text(), QStringLiteral("0"));
  }

  void editingACellChangesOnlyThatChannel() {
    QSignalSpy changed(m_doc.get(), &FilterDocument::filterChanged);
    table(1)->item(2, 4)->setText(QStringLiteral("-0.5"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(m_doc->filter().channel(1).at(2, 4), -0.5);
    QCOMPARE(m_doc->filter().channel(0).at(2, 4), 0.0);
    QCOMPARE(m_doc->filter().channel(2).at(2, 4), 0.0);
  }

  void keyboardEditingWorks() {
    QTableWidget* t = table(0);
    m_editor->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_editor.get()));
    t->setFocus();
    t->setCurrentCell(0, 0);
    QTest::keyClick(t, Qt::Key_Right);
    QCOMPARE(t->currentColumn(), 1);
    QTest::keyClick(t, Qt::Key_2);  // typing starts editing the current cell
    QWidget* cellEditor = QApplication::focusWidget();
    QVERIFY(cellEditor && cellEditor != t);
    QTest::keyClicks(cellEditor, QStringLiteral(".5"));
    QCOMPARE(cellEditor->property("text").toString(), QStringLiteral("2.5"));
    QTest::keyClick(cellEditor, Qt::Key_Return);  // the delegate commits on the next event loop turn
    QTRY_COMPARE(m_doc->filter().channel(0).at(0, 1), 2.5);
  }

  void invalidCellTextIsRejectedInline() {
    table(0)->item(1, 1)->setText(QStringLiteral("abc"));
    QVERIFY(m_editor->errorText().contains(QStringLiteral("row 2, column 2")));
    QCOMPARE(m_doc->filter().channel(0).at(1, 1), 0.0);
    QCOMPARE(table(0)->item(1, 1)->text(), QStringLiteral("0"));
  }

  void linkedChannelsFollowEachOther() {
    m_editor->linkBox()->setChecked(true);
    QVERIFY(m_doc->linked());
    table(2)->item(0, 6)->setText(QStringLiteral("4"));
    for (int c = 0; c < 3; ++c) QCOMPARE(m_doc->filter().channel(c).at(0, 6), 4.0);
    for (int c = 0; c < 3; ++c) QCOMPARE(table(c)->item(0, 6)->text(), QStringLiteral("4"));
    m_editor->grid(0)->divisorBox()->setValue(3);
    for (int c = 0; c < 3; ++c) QCOMPARE(m_doc->filter().channel(c).divisor, 3.0);
    // Unlinked again: edits stay in their channel.
    m_editor->linkBox()->setChecked(false);
    table(0)->item(0, 6)->setText(QStringLiteral("7"));
    QCOMPARE(m_doc->filter().channel(0).at(0, 6), 7.0);
    QCOMPARE(m_doc->filter().channel(1).at(0, 6), 4.0);
  }

  void copyToAllCopiesOneChannel() {
    table(1)->item(3, 2)->setText(QStringLiteral("9"));
    m_editor->grid(1)->offsetBox()->setValue(12);
    m_editor->grid(1)->copyToAllButton()->click();
    for (int c = 0; c < 3; ++c) {
      QCOMPARE(m_doc->filter().channel(c).at(3, 2), 9.0);
      QCOMPARE(m_doc->filter().channel(c).offset, 12.0);
    }
    QVERIFY(m_doc->filter().channelsIdentical());
  }

  void normaliseSetsDivisorToSumAndZeroIsRefused() {
    table(0)->item(3, 2)->setText(QStringLiteral("2"));  // sum = 3
    m_editor->grid(0)->normaliseButton()->click();
    QCOMPARE(m_doc->filter().channel(0).divisor, 3.0);
    m_editor->grid(0)->divisorBox()->setValue(0);
    QCOMPARE(m_doc->filter().channel(0).divisor, 3.0);  // refused
    QVERIFY(m_editor->errorText().contains(QStringLiteral("Divisor cannot be 0")));
    QCOMPARE(m_editor->grid(0)->divisorBox()->value(), 3.0);
    // A zero-sum (edge) filter cannot be normalised; the editor says why, inline.
    m_doc->replace(parseFilterText("-1 -1 -1\n-1 8 -1\n-1 -1 -1\n"), QStringLiteral("edge"));
    QVERIFY(!m_editor->grid(0)->normaliseButton()->isEnabled());
  }

  void borderModeSelector() {
    QComboBox* box = m_editor->borderBox();
    const int i = box->findData(static_cast<int>(BorderMode::Wrap));
    QVERIFY(i >= 0);
    box->setCurrentIndex(i);
    emit box->activated(i);
    QCOMPARE(m_doc->filter().border(), BorderMode::Wrap);
  }

  void pastingValidTextLoadsItCentred() {
    QVERIFY(
        m_editor->pasteText(QStringLiteral("R:\n0 1 0\n1 2 1\n0 1 0\ndivisor: 6\nG:\n1 1 1\n1 1 1\n1 1 1\n"
                                           "divisor: 9\nB:\n0 0 0\n0 1 0\n0 0 0\n")));
    QVERIFY(m_editor->errorText().isEmpty());
    const FilterSet& f = m_doc->filter();
    QCOMPARE(f.size(), 7);  // 3×3 centred in 7×7
    QCOMPARE(f.channel(0).at(3, 3), 2.0);
    QCOMPARE(f.channel(0).at(2, 3), 1.0);
    QCOMPARE(f.channel(0).at(0, 0), 0.0);
    QCOMPARE(f.channel(0).divisor, 6.0);
    QCOMPARE(f.channel(1).at(2, 2), 1.0);
    QCOMPARE(f.channel(1).divisor, 9.0);
    QCOMPARE(f.channel(2).at(3, 3), 1.0);
    QCOMPARE(table(0)->item(3, 3)->text(), QStringLiteral("2"));
    // The editor's text round-trips.
    QCOMPARE(parseFilterText(m_editor->filterText().toStdString()), f.withName({}).withBorder(f.border()));
  }

  void pastingInvalidTextShowsTheErrorInline() {
    const FilterSet before = m_doc->filter();
    QVERIFY(!m_editor->pasteText(QStringLiteral("1 2 3\n4 x 6\n7 8 9\n")));
    QCOMPARE(m_doc->filter(), before);  // nothing changed
    QVERIFY(m_editor->errorLabel()->isVisible());
    const QString error = m_editor->errorText();
    QVERIFY2(error.contains(QStringLiteral("Line 2, column 3")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("'x'")), qPrintable(error));
    // A later successful paste clears it.
    QVERIFY(m_editor->pasteText(QStringLiteral("1\n")));
    QVERIFY(m_editor->errorText().isEmpty());
  }

  void largerFiltersKeepTheirSize() {
    std::string text;
    for (int j = 0; j < 9; ++j) {
      for (int i = 0; i < 9; ++i) text += (i == 4 && j == 4) ? "1 " : "0 ";
      text += "\n";
    }
    QVERIFY(m_editor->pasteText(QString::fromStdString(text)));
    QCOMPARE(m_doc->filter().size(), 9);
    QCOMPARE(table(0)->rowCount(), 9);
  }

  void undoAndRedo() {
    QUndoStack* undo = m_doc->undoStack();
    table(0)->item(0, 0)->setText(QStringLiteral("5"));
    table(0)->item(0, 1)->setText(QStringLiteral("6"));
    QCOMPARE(undo->count(), 2);
    undo->undo();
    QCOMPARE(m_doc->filter().channel(0).at(0, 1), 0.0);
    QCOMPARE(table(0)->item(0, 1)->text(), QStringLiteral("0"));
    QCOMPARE(m_doc->filter().channel(0).at(0, 0), 5.0);
    undo->redo();
    QCOMPARE(m_doc->filter().channel(0).at(0, 1), 6.0);
    m_doc->resetToIdentity();
    QCOMPARE(m_doc->filter().channel(0).at(0, 0), 0.0);
    undo->undo();
    QCOMPARE(m_doc->filter().channel(0).at(0, 0), 5.0);
  }

  void presetSaveAndLoadRoundTrip() {
    m_doc->replace(test::distinctChannelsFilter(), QStringLiteral("distinct"));
    const FilterSet saved = m_doc->filter();
    QVERIFY(m_editor->savePreset(QStringLiteral("My Sharp"), false));
    QVERIFY(
        !m_editor->savePreset(QStringLiteral("My Sharp"), false));  // asks first: refuses silently replacing
    QVERIFY(m_editor->errorText().contains(QStringLiteral("already exists")));
    const auto user = m_presets->user();
    QCOMPARE(user.size(), 1);
    QCOMPARE(user.first().name, QStringLiteral("My Sharp"));
    QVERIFY(!user.first().bundled);
    QVERIFY(user.first().path.startsWith(m_presets->userDir()));
    m_doc->resetToIdentity();
    QVERIFY(m_editor->loadPreset(user.first()));
    QCOMPARE(m_doc->filter().withName({}), saved.withName({}));
    QCOMPARE(QString::fromStdString(m_doc->filter().name()), QStringLiteral("My Sharp"));
  }

  void bundledPresetsAreEmbeddedAndLoad() {
    const auto bundled = m_presets->bundled();
    for (const PresetEntry& e : bundled) {
      QVERIFY(e.bundled);
      QVERIFY(e.path.startsWith(QStringLiteral(":/presets/")));
      QVERIFY2(m_editor->loadPreset(e), qPrintable(m_editor->errorText()));
      QVERIFY(m_doc->filter().size() >= 7);
    }
    if (bundled.isEmpty()) QSKIP("no presets in resources/presets yet");
  }

  void exportAndImportRoundTrip() {
    const QString path = QDir::temp().filePath(
        QStringLiteral("convolab-export-%1.json").arg(QCoreApplication::applicationPid()));
    QFile::remove(path);
    m_doc->replace(test::distinctChannelsFilter(), QStringLiteral("distinct"));
    m_doc->setBorder(BorderMode::Constant);
    m_doc->setBorderValue(1, 77);
    const FilterSet exported = m_doc->filter();
    QVERIFY(m_editor->exportFile(path, false));
    QVERIFY(!m_editor->exportFile(path, false));  // exists: not replaced without asking
    m_doc->resetToIdentity();
    QVERIFY(m_editor->importFile(path));
    QCOMPARE(m_doc->filter(), exported);
    QFile::remove(path);
    QVERIFY(!m_editor->importFile(path));
    QVERIFY(m_editor->errorText().contains(QStringLiteral("Cannot import")));
  }
};

QTEST_MAIN(FilterEditorTest)
#include "test_filter_editor.moc"
