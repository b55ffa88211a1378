// SPDX-License-Identifier: MIT
// Filter editor tests: cell edits, link channels, normalise/divisor, paste (valid and invalid), presets,
// files, undo.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <atomic>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_test_support.hpp"
#include "convolab/filter_io.hpp"
#include "editor/channel_grid.hpp"
#include "editor/compact_spin_box.hpp"
#include "editor/filter_clipboard.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/filter_files.hpp"
#include "editor/preset_library.hpp"
#include "editor/presets_menu.hpp"
#include "editor_fixture.hpp"
#include "gui_test_main.hpp"

using namespace convolab;
using namespace convolab::gui;

// Runs `body` while a helper thread watches the FIFO at `path`: if anybody opens it for reading (and so
// would wait for a writer for good), the helper writes a valid kernel and closes, which ends the wait.
// Returns whether that happened.
struct FifoWatch {
  template <typename Body>
  static bool readerWaited(const QString& path, Body body) {
    std::atomic<bool> done{false}, waited{false};
    const QByteArray name = QFile::encodeName(path);
    std::thread writer([&] {
      while (!done) {
        const int fd = ::open(name.constData(), O_WRONLY | O_NONBLOCK);  // fails while there is no reader
        if (fd >= 0) {
          waited = true;
          const char kernel[] = "1 1 1\n1 1 1\n1 1 1\n";
          (void)!::write(fd, kernel, sizeof kernel - 1);
          ::close(fd);
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
    body();
    done = true;
    writer.join();
    return waited;
  }
};

class FilterEditorTest : public QObject, protected test::EditorFixture {
  Q_OBJECT

 private:
 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("filter-editor-test")); }

  void init() { openEditor(QStringLiteral("test-presets")); }

  void cleanup() { closeEditor(); }

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
    m_editor->grid(0)->normaliseBox()->setChecked(true);
    QCOMPARE(m_doc->filter().channel(0).divisor, 3.0);
    m_editor->grid(0)->normaliseBox()->setChecked(false);
    m_editor->grid(0)->divisorBox()->setValue(0);
    QCOMPARE(m_doc->filter().channel(0).divisor, 3.0);  // refused
    QVERIFY(m_editor->errorText().contains(QStringLiteral("Divisor cannot be 0")));
    QCOMPARE(m_editor->grid(0)->divisorBox()->value(), 3.0);
  }

  void normaliseStaysOnWhileEditingWithGimpRules() {
    ChannelGrid* g = m_editor->grid(0);
    g->normaliseBox()->setChecked(true);
    QVERIFY(!g->divisorBox()->isEnabled());              // Normalise owns divisor and offset while on
    table(0)->item(0, 0)->setText(QStringLiteral("2"));  // Σ = 3 > 0: divisor Σ, offset 0
    QCOMPARE(m_doc->filter().channel(0).divisor, 3.0);
    QCOMPARE(m_doc->filter().channel(0).offset, 0.0);
    table(0)->item(0, 1)->setText(QStringLiteral("1"));  // still on: Σ = 4
    QVERIFY(g->normaliseBox()->isChecked());
    QCOMPARE(m_doc->filter().channel(0).divisor, 4.0);
    table(0)->item(0, 2)->setText(QStringLiteral("-4"));  // Σ = 0: divisor 1, offset 128 (GIMP)
    QCOMPARE(m_doc->filter().channel(0).divisor, 1.0);
    QCOMPARE(m_doc->filter().channel(0).offset, 128.0);
    table(0)->item(0, 3)->setText(QStringLiteral("-2"));  // Σ = −2: divisor 2 (−Σ), offset 255 (GIMP)
    QCOMPARE(m_doc->filter().channel(0).divisor, 2.0);
    QCOMPARE(m_doc->filter().channel(0).offset, 255.0);
    QCOMPARE(m_doc->filter().channel(1).divisor, 1.0);  // other channels untouched
    QCOMPARE(g->divisorBox()->value(), 2.0);
    // Loading a preset keeps the preset's own divisor: Normalise turns off.
    m_doc->replace(parseFilterText("1 1 1\n1 1 1\n1 1 1\ndivisor: 3\n"), QStringLiteral("load"));
    QVERIFY(!g->normaliseBox()->isChecked());
    QCOMPARE(m_doc->filter().channel(0).divisor, 3.0);
  }

  void decimalCommaAndFractionsInCells() {
    table(0)->item(0, 0)->setText(QStringLiteral("0,5"));
    QCOMPARE(m_doc->filter().channel(0).at(0, 0), 0.5);  // not 5
    table(0)->item(0, 1)->setText(QStringLiteral("1/9"));
    QCOMPARE(m_doc->filter().channel(0).at(0, 1), 1.0 / 9.0);  // not 19
    table(0)->item(0, 2)->setText(QStringLiteral("-2/16"));
    QCOMPARE(m_doc->filter().channel(0).at(0, 2), -0.125);
    table(0)->item(0, 3)->setText(QStringLiteral("1,000.5"));  // ambiguous: refused visibly, not guessed
    QCOMPARE(m_doc->filter().channel(0).at(0, 3), 0.0);
    QVERIFY(m_editor->errorText().contains(QStringLiteral("row 1, column 4")));
    // The message sits under the grid it concerns, not at the bottom of the editor.
    QVERIFY(m_editor->grid(0)->messageLabel()->isVisible());
    QVERIFY(!m_editor->errorLabel()->isVisible());
    // The divisor and offset fields take the same forms.
    m_editor->grid(1)->divisorBox()->findChild<QLineEdit*>()->setText(QStringLiteral("4,5"));
    QTest::keyClick(m_editor->grid(1)->divisorBox(), Qt::Key_Return);
    QCOMPARE(m_doc->filter().channel(1).divisor, 4.5);
    m_editor->grid(1)->offsetBox()->findChild<QLineEdit*>()->setText(QStringLiteral("1/3"));
    QTest::keyClick(m_editor->grid(1)->offsetBox(), Qt::Key_Return);
    QCOMPARE(m_doc->filter().channel(1).offset, 1.0 / 3.0);
  }

  void cellsShowReadableDigitsAndTheFullValueInTheTooltip() {
    std::string text;
    for (int j = 0; j < 15; ++j) {
      for (int i = 0; i < 15; ++i) text += "1/225 ";
      text += "\n";
    }
    QVERIFY(m_editor->clipboard()->pasteText(QString::fromStdString(text)));
    QTableWidget* t = table(0);
    QCOMPARE(t->rowCount(), 15);
    QTableWidgetItem* item = t->item(7, 7);
    const QString shown = item->text();
    const QFontMetrics metrics(item->font());
    QVERIFY2(metrics.horizontalAdvance(shown) <= t->columnWidth(7),
             qPrintable(QStringLiteral("%1: %2 px in %3")
                            .arg(shown)
                            .arg(metrics.horizontalAdvance(shown))
                            .arg(t->columnWidth(7))));
    QVERIFY2(shown.contains(QStringLiteral(".004")), qPrintable(shown));  // digits, not "0.…"
    QVERIFY2(item->toolTip().contains(QStringLiteral("0.0044444444444444")), qPrintable(item->toolTip()));
    QCOMPARE(m_doc->filter().channel(0).at(7, 7), 1.0 / 225.0);  // stored exactly, shown shortened
    // A tiny weight keeps its digits in exponent form rather than turning into "0.…".
    t->item(0, 0)->setText(QStringLiteral("0.00031"));
    const QString tiny = t->item(0, 0)->text();
    QVERIFY2(tiny.startsWith(QLatin1Char('3')) && tiny.contains(QStringLiteral("e-4")), qPrintable(tiny));
    QVERIFY(QFontMetrics(t->item(0, 0)->font()).horizontalAdvance(tiny) <= t->columnWidth(0));
  }

  // A lone number pasted reads as the same text typed into a cell: "0,5" is one half both ways.
  void loneDecimalCommaPastesAsACellReadsIt() {
    QVERIFY2(m_editor->clipboard()->pasteText(QStringLiteral("0,5\n")), qPrintable(m_editor->errorText()));
    const int centre = m_doc->filter().size() / 2;  // a 1×1 paste sits at the centre of the editor's grid
    const double pasted = m_doc->filter().channel(0).at(centre, centre);
    m_doc->resetToIdentity();
    table(0)->item(0, 0)->setText(QStringLiteral("0,5"));
    QCOMPARE(m_doc->filter().channel(0).at(0, 0), pasted);
    QCOMPARE(pasted, 0.5);
  }

  void pasteAcceptsOneLineOfKSquaredNumbers() {
    QString line;
    for (int i = 0; i < 49; ++i) line += QString::number(i == 24 ? 1 : 0) + QLatin1Char(' ');
    QVERIFY(m_editor->clipboard()->pasteText(line));
    QCOMPARE(m_doc->filter().size(), 7);
    QCOMPARE(m_doc->filter().channel(0).at(3, 3), 1.0);
    QVERIFY(!m_editor->clipboard()->pasteText(QStringLiteral("1 2 3 4 5 6 7 8\n")));
    QVERIFY(m_editor->errorText().contains(QStringLiteral("K² numbers")));
  }

  void messagesFadeAfterAFewSeconds() {
    m_editor->setMessageTimeout(200);
    QVERIFY(!m_editor->clipboard()->pasteText(QStringLiteral("x\n")));
    QVERIFY(m_editor->errorLabel()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!m_editor->errorLabel()->isVisible(), 3000);
    table(0)->item(1, 1)->setText(QStringLiteral("abc"));
    QVERIFY(m_editor->grid(0)->messageLabel()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!m_editor->grid(0)->messageLabel()->isVisible(), 3000);
  }

  void editedFilterNameShowsModified() {
    const auto bundled = m_presets->bundled();
    if (bundled.isEmpty()) QSKIP("no presets bundled");
    const PresetEntry preset = bundled.first();
    QVERIFY(m_editor->presetsMenu()->loadPreset(preset));
    QCOMPARE(m_editor->titleLabel()->text(), preset.name);
    table(0)->item(0, 0)->setText(QStringLiteral("42"));
    QCOMPARE(m_editor->titleLabel()->text(), preset.name + QStringLiteral("*"));
    QVERIFY(m_doc->isModified());
    m_doc->undoStack()->undo();  // back to the preset: no longer modified
    QCOMPARE(m_editor->titleLabel()->text(), preset.name);
    // A paste is an edit too; the name stays with a star.
    QVERIFY(m_editor->clipboard()->pasteText(QStringLiteral("0 0 0\n0 2 0\n0 0 0\n")));
    QCOMPARE(m_editor->titleLabel()->text(), preset.name + QStringLiteral("*"));
    // Saving under a new name makes that the unedited name.
    QVERIFY(m_editor->presetsMenu()->savePreset(QStringLiteral("Double"), false));
    QCOMPARE(m_editor->titleLabel()->text(), QStringLiteral("Double"));
  }

  void savingAPresetUnderAnExistingNameAsksFirst() {
    const auto bundled = m_presets->bundled();
    if (bundled.isEmpty()) QSKIP("no presets bundled");
    const QString taken = bundled.first().name;
    table(0)->item(0, 0)->setText(QStringLiteral("3"));
    QVERIFY(!m_editor->presetsMenu()->savePreset(taken.toLower(), false));  // no silent second "Identity"
    QVERIFY2(m_editor->errorText().contains(QStringLiteral("bundled preset called")),
             qPrintable(m_editor->errorText()));
    QVERIFY(m_presets->user().isEmpty());
    QVERIFY(m_editor->presetsMenu()->savePreset(taken, true));  // after a yes
    QCOMPARE(m_presets->user().size(), 1);
  }

  void linkedChannelsShowOneGrid() {
    m_editor->linkBox()->setChecked(true);  // identical channels: one grid, for R, G and B
    QVERIFY(m_editor->grid(0)->isVisible());
    QVERIFY(!m_editor->grid(1)->isVisible());
    QVERIFY(!m_editor->grid(2)->isVisible());
    QVERIFY(m_editor->grid(0)->titleLabel()->text().contains(QStringLiteral("R, G and B")));
    QVERIFY(!m_editor->grid(0)->copyToAllButton()->isVisible());
    table(0)->item(1, 1)->setText(QStringLiteral("2"));
    for (int c = 0; c < 3; ++c) QCOMPARE(m_doc->filter().channel(c).at(1, 1), 2.0);
    QVERIFY(!m_editor->grid(1)->isVisible());
    m_editor->linkBox()->setChecked(false);
    QVERIFY(m_editor->grid(1)->isVisible());
    QVERIFY(m_editor->grid(0)->titleLabel()->text().contains(QStringLiteral("Red")));
    // Channels that differ are never hidden behind one grid: linked, all three stay, with a note.
    table(1)->item(0, 0)->setText(QStringLiteral("5"));
    m_editor->linkBox()->setChecked(true);
    QVERIFY(m_editor->grid(1)->isVisible());
    QCOMPARE(m_doc->filter().channel(1).at(0, 0), 5.0);
    m_editor->grid(1)->copyToAllButton()->click();  // now they are one
    QVERIFY(!m_editor->grid(1)->isVisible());
  }

  void bigKernelKeepsEveryControlReachable() {
    m_editor->resize(440, 700);
    m_doc->setSize(15);
    QTest::qWait(50);
    ChannelGrid* g = m_editor->grid(0);
    // Everything of the grid lies inside the grid card (the scroll area may scroll to it, never cut it).
    for (QWidget* w : {static_cast<QWidget*>(g->copyToAllButton()), static_cast<QWidget*>(g->offsetBox()),
                       static_cast<QWidget*>(g->table())}) {
      const QRect r(w->mapTo(g, QPoint(0, 0)), w->size());
      QVERIFY2(g->rect().contains(r), qPrintable(w->objectName()));
      QVERIFY(w->isVisible());
    }
    QVERIFY(g->width() >= g->minimumSizeHint().width());
  }

  void openCvCodeHasCoefficientsAndBorder() {
    m_doc->replace(parseFilterText("0 -1 0\n-1 5 -1\n0 -1 0\n"), QStringLiteral("sharpen"));
    m_doc->setBorder(BorderMode::Replicate);
    const QString cpp = m_editor->clipboard()->openCvCpp();
    QVERIFY2(cpp.contains(QStringLiteral("cv::filter2D")), qPrintable(cpp));
    QVERIFY(cpp.contains(QStringLiteral("cv::BORDER_REPLICATE")));
    QVERIFY(cpp.contains(QStringLiteral("0, 0, -1, 0, 5, -1, 0, 0")) ||
            cpp.contains(QStringLiteral("-1, 5, -1")));
    const QString py = m_editor->clipboard()->openCvPython();
    QVERIFY(py.contains(QStringLiteral("cv2.filter2D")));
    QVERIFY(py.contains(QStringLiteral("cv2.BORDER_REPLICATE")));
    QVERIFY(py.contains(QStringLiteral("[0, 0, -1, 5, -1, 0, 0]")));
    // Per-channel filters: split, one call per channel (R is OpenCV's channel 2), merge; divisor and offset.
    QVERIFY(
        m_editor->clipboard()->pasteText(QStringLiteral("R:\n1\ndivisor: 2\noffset: 10\nG:\n3\nB:\n1/4\n")));
    m_doc->setBorder(BorderMode::Reflect101);
    const QString split = m_editor->clipboard()->openCvCpp();
    QVERIFY(split.contains(QStringLiteral("cv::split")));
    QVERIFY(split.contains(QStringLiteral("cv::merge")));
    QVERIFY2(split.contains(QStringLiteral("cv::filter2D(in[2], out[2], -1, kR, cv::Point(-1, -1), 10, "
                                           "cv::BORDER_REFLECT_101)")),
             qPrintable(split));
    QVERIFY(split.contains(QStringLiteral(") / 2;")));
    QVERIFY(split.contains(QStringLiteral("0.25")));
    const QString splitPy = m_editor->clipboard()->openCvPython();
    QVERIFY(splitPy.contains(QStringLiteral("cv2.split")));
    QVERIFY(splitPy.contains(QStringLiteral("delta=10")));
    // Wrap has no filter2D mode: the code pads with copyMakeBorder(BORDER_WRAP) and crops.
    m_doc->setBorder(BorderMode::Wrap);
    QVERIFY(m_editor->clipboard()->openCvCpp().contains(
        QStringLiteral("cv::copyMakeBorder(bgr, padded, r, r, r, r, cv::BORDER_WRAP)")));
    QVERIFY(m_editor->clipboard()->openCvPython().contains(QStringLiteral("cv2.BORDER_WRAP")));
  }

  void imageJKernelImportAndExport() {
    const QString path = QDir::temp().filePath(
        QStringLiteral("convolab-imagej-%1.txt").arg(QCoreApplication::applicationPid()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("1\t1\t1\n1\t1\t1\n1\t1\t1\n");
    f.close();
    QVERIFY2(m_editor->files()->importFile(path), qPrintable(m_editor->errorText()));
    QCOMPARE(m_doc->filter().channel(0).at(3, 3), 1.0);
    QCOMPARE(m_doc->filter().channel(0).divisor, 9.0);  // ImageJ normalises by default
    QVERIFY(m_editor->files()->exportFile(path, true));
    QFile back(path);
    QVERIFY(back.open(QIODevice::ReadOnly));
    const QByteArray text = back.readAll();
    QVERIFY2(text.contains("0.1111111111111111"), text.constData());
    QCOMPARE(text.count('\n'), 7);  // 7×7 in the editor
    QFile::remove(path);
  }

  // A FIFO named as a .txt filter must be refused at once, not waited on. Without a guard the import blocks
  // until a writer comes: FifoWatch plays that writer (after a while) so the test ends either way.
  void imageJImportRefusesFifoWithoutBlocking() {
    const QString path =
        QDir::temp().filePath(QStringLiteral("convolab-fifo-%1.txt").arg(QCoreApplication::applicationPid()));
    QFile::remove(path);
    QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
    bool imported = true;
    const bool waited =
        FifoWatch::readerWaited(path, [&] { imported = m_editor->files()->importFile(path); });
    QFile::remove(path);
    QVERIFY2(!waited, "the import opened the FIFO and waited for a writer");
    QVERIFY(!imported);
    QVERIFY2(m_editor->errorText().contains(QStringLiteral("FIFO")), qPrintable(m_editor->errorText()));
  }

  // The user's preset folder may hold a FIFO (or a link to one): listing and loading must not wait on it.
  void presetFolderFifoNeverBlocks() {
    QVERIFY(QDir().mkpath(m_presets->userDir()));
    const QString fifo = QDir(m_presets->userDir()).filePath(QStringLiteral("pipe.json"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    QVERIFY(QFile::link(fifo, QDir(m_presets->userDir()).filePath(QStringLiteral("link.json"))));
    QList<PresetEntry> listed;
    bool waited = FifoWatch::readerWaited(fifo, [&] { listed = m_presets->user(); });
    QVERIFY2(!waited, "listing the presets opened a FIFO and waited for a writer");
    for (const PresetEntry& e : listed) {
      waited = FifoWatch::readerWaited(fifo, [&] { QVERIFY(!m_editor->presetsMenu()->loadPreset(e)); });
      QVERIFY2(!waited, qPrintable(QStringLiteral("loading %1 waited on a FIFO").arg(e.path)));
      QVERIFY2(m_editor->errorText().contains(QStringLiteral("FIFO")), qPrintable(m_editor->errorText()));
    }
  }

  // A file over the limit is refused with the limit named; it is never imported from its first 1 MiB (the
  // divisor line past 1 MiB would be lost, and the import would say nothing).
  void imageJImportRefusesFileOverTheLimit() {
    const QString path =
        QDir::temp().filePath(QStringLiteral("convolab-big-%1.txt").arg(QCoreApplication::applicationPid()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write("1 2 1\n2 4 2\n1 2 1\n");
    f.write(QByteArray(1 << 20, '\n'));
    f.write("divisor: 16\n");
    f.close();
    const FilterSet before = m_doc->filter();
    QVERIFY(!m_editor->files()->importFile(path));
    QFile::remove(path);
    QCOMPARE(m_doc->filter(), before);
    QVERIFY2(m_editor->errorText().contains(QStringLiteral("1 MiB")), qPrintable(m_editor->errorText()));
    QVERIFY2(m_editor->errorText().contains(QStringLiteral("convolab-big-")),
             qPrintable(m_editor->errorText()));
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
    QVERIFY(m_editor->clipboard()->pasteText(
        QStringLiteral("R:\n0 1 0\n1 2 1\n0 1 0\ndivisor: 6\nG:\n1 1 1\n1 1 1\n1 1 1\n"
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
    QCOMPARE(parseFilterText(m_editor->clipboard()->filterText().toStdString()),
             f.withName({}).withBorder(f.border()));
  }

  void pastingInvalidTextShowsTheErrorInline() {
    const FilterSet before = m_doc->filter();
    QVERIFY(!m_editor->clipboard()->pasteText(QStringLiteral("1 2 3\n4 x 6\n7 8 9\n")));
    QCOMPARE(m_doc->filter(), before);  // nothing changed
    QVERIFY(m_editor->errorLabel()->isVisible());
    const QString error = m_editor->errorText();
    QVERIFY2(error.contains(QStringLiteral("Line 2, column 3")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("'x'")), qPrintable(error));
    // A later successful paste clears it.
    QVERIFY(m_editor->clipboard()->pasteText(QStringLiteral("1\n")));
    QVERIFY(m_editor->errorText().isEmpty());
  }

  void largerFiltersKeepTheirSize() {
    std::string text;
    for (int j = 0; j < 9; ++j) {
      for (int i = 0; i < 9; ++i) text += (i == 4 && j == 4) ? "1 " : "0 ";
      text += "\n";
    }
    QVERIFY(m_editor->clipboard()->pasteText(QString::fromStdString(text)));
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
    QVERIFY(m_editor->presetsMenu()->savePreset(QStringLiteral("My Sharp"), false));
    QVERIFY(!m_editor->presetsMenu()->savePreset(QStringLiteral("My Sharp"),
                                                 false));  // asks first: refuses silently replacing
    QVERIFY(m_editor->errorText().contains(QStringLiteral("already exists")));
    const auto user = m_presets->user();
    QCOMPARE(user.size(), 1);
    QCOMPARE(user.first().name, QStringLiteral("My Sharp"));
    QVERIFY(!user.first().bundled);
    QVERIFY(user.first().path.startsWith(m_presets->userDir()));
    m_doc->resetToIdentity();
    QVERIFY(m_editor->presetsMenu()->loadPreset(user.first()));
    QCOMPARE(m_doc->filter().withName({}), saved.withName({}));
    QCOMPARE(QString::fromStdString(m_doc->filter().name()), QStringLiteral("My Sharp"));
  }

  void bundledPresetsAreEmbeddedAndLoad() {
    const auto bundled = m_presets->bundled();
    for (const PresetEntry& e : bundled) {
      QVERIFY(e.bundled);
      QVERIFY(e.path.startsWith(QStringLiteral(":/presets/")));
      QVERIFY2(m_editor->presetsMenu()->loadPreset(e), qPrintable(m_editor->errorText()));
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
    QVERIFY(m_editor->files()->exportFile(path, false));
    QVERIFY(!m_editor->files()->exportFile(path, false));  // exists: not replaced without asking
    m_doc->resetToIdentity();
    QVERIFY(m_editor->files()->importFile(path));
    QCOMPARE(m_doc->filter(), exported);
    QFile::remove(path);
    QVERIFY(!m_editor->files()->importFile(path));
    QVERIFY(m_editor->errorText().contains(QStringLiteral("Cannot import")));
  }
};

CONVOLAB_GUI_TEST_MAIN(FilterEditorTest)
#include "test_filter_editor.moc"
