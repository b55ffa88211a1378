// SPDX-License-Identifier: MIT
// The Save As dialogs' shared part (the Chain dock's and the Custom OpenCL panel's Save As): the .json ending
// is added when the name lacks it, and a file of that completed name is replaced only when the user says so
// (the file dialog asked about the name it returned, not about this one).
#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "app_test_support.hpp"
#include "gui_test_main.hpp"
#include "window/save_path_dialog.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

// Answers the next "Replace file?" question with `button` and keeps its text; `asked` says whether one came.
struct Answer {
  bool asked = false;
  QString text;
};

// Looks for the question every 10 ms for a second (none by then: none was asked).
void answerNextQuestion(Answer& answer, QMessageBox::StandardButton button, int triesLeft = 100) {
  QTimer::singleShot(10, qApp, [&answer, button, triesLeft] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box) {
      if (triesLeft > 0) answerNextQuestion(answer, button, triesLeft - 1);
      return;
    }
    answer.asked = true;
    answer.text = box->text();
    box->button(button)->click();
  });
}

}  // namespace

class SavePathDialogTest : public QObject {
  Q_OBJECT

  QTemporaryDir m_dir;

 private slots:
  void initTestCase() {
    test::prepareTestEnvironment(QStringLiteral("save-path-dialog-test"));
    QFile f(m_dir.filePath(QStringLiteral("taken.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
  }

  void aNameWithTheEndingIsKeptWithoutAQuestion() {
    Answer answer;
    answerNextQuestion(answer, QMessageBox::No);
    const QString taken = m_dir.filePath(QStringLiteral("taken.json"));
    QCOMPARE(completeSavePath(nullptr, taken, QStringLiteral(".json")), taken);  // the dialog asked
    const QString upper = m_dir.filePath(QStringLiteral("Other.JSON"));
    QCOMPARE(completeSavePath(nullptr, upper, QStringLiteral(".json")), upper);
    QTest::qWait(1200);  // the answer gave up: no question came
    QVERIFY(!answer.asked);
  }

  void theEndingIsAddedToANewName() {
    Answer answer;
    answerNextQuestion(answer, QMessageBox::No);
    QCOMPARE(completeSavePath(nullptr, m_dir.filePath(QStringLiteral("fresh")), QStringLiteral(".json")),
             m_dir.filePath(QStringLiteral("fresh.json")));
    QTest::qWait(1200);  // the answer gave up: no question came
    QVERIFY(!answer.asked);
  }

  void aCompletedNameThatExistsIsReplacedOnlyWhenTheUserSaysSo() {
    const QString typed = m_dir.filePath(QStringLiteral("taken"));
    Answer no;
    answerNextQuestion(no, QMessageBox::No);
    QCOMPARE(completeSavePath(nullptr, typed, QStringLiteral(".json")), QString());
    QVERIFY(no.asked);
    QVERIFY2(no.text.contains(QStringLiteral("taken.json already exists")), qPrintable(no.text));
    Answer yes;
    answerNextQuestion(yes, QMessageBox::Yes);
    QCOMPARE(completeSavePath(nullptr, typed, QStringLiteral(".json")), typed + QStringLiteral(".json"));
    QVERIFY(yes.asked);
  }
};

CONVOLAB_GUI_TEST_MAIN(SavePathDialogTest)
#include "test_save_path_dialog.moc"
