// SPDX-License-Identifier: MIT
// SIGINT/SIGTERM during a save: the app ends with 130 and leaves no temporary. One
// signal lets the save finish (the window closes as the user would close it); a second quits at once,
// removing the temporary. Runs the convolab binary with CONVOLAB_INJECT_FAULT=commit:slow, so each save holds
// its temporary for 3 s.
#include <signal.h>

#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "gui_test_main.hpp"

namespace {

QStringList temporaries(const QString& dir) {
  return QDir(dir).entryList({QStringLiteral("*convolab-tmp*")}, QDir::Files | QDir::Hidden);
}

/// Starts an automated run whose --snapshot save is slow, and waits until its temporary exists.
bool startSlowSave(QProcess& app, const QString& dir, const QString& out) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("CONVOLAB_INJECT_FAULT"), QStringLiteral("commit:slow"));
  app.setProcessEnvironment(env);
  app.start(QStringLiteral(CONVOLAB_APP),
            {QStringLiteral("--source"), QStringLiteral("pattern:64x48@30"), QStringLiteral("--strategy"),
             QStringLiteral("naive"), QStringLiteral("--frames"), QStringLiteral("3"),
             QStringLiteral("--snapshot"), out});
  if (!app.waitForStarted()) return false;
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < 90000 && app.state() == QProcess::Running) {
    if (!temporaries(dir).isEmpty()) return true;
    QTest::qWait(10);
  }
  return false;
}

/// Signals the app while it runs (never pid 0: that would signal this whole process group).
void signalApp(QProcess& app, int sig) {
  const qint64 pid = app.processId();
  QVERIFY(pid > 0 && app.state() == QProcess::Running);
  ::kill(static_cast<pid_t>(pid), sig);
}

}  // namespace

class TestSignals : public QObject {
  Q_OBJECT

 private slots:
  void oneSignalLetsTheSaveFinishAndExits130() {
    for (int sig : {SIGTERM, SIGINT}) {
      QTemporaryDir dir;
      const QString out = dir.filePath(QStringLiteral("snap.png"));
      QProcess app;
      QVERIFY2(startSlowSave(app, dir.path(), out), "the save's temporary never appeared");
      signalApp(app, sig);
      QVERIFY(app.waitForFinished(60000));
      QCOMPARE(app.exitStatus(), QProcess::NormalExit);  // before: killed by the signal
      QCOMPARE(app.exitCode(), 130);
      QVERIFY2(temporaries(dir.path()).isEmpty(), qPrintable(temporaries(dir.path()).join(' ')));
      QVERIFY2(!QImage(out).isNull(), "the save in progress completed");
    }
  }

  void aSecondSignalQuitsAtOnceAndRemovesTheTemporary() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("snap.png"));
    QProcess app;
    QVERIFY2(startSlowSave(app, dir.path(), out), "the save's temporary never appeared");
    signalApp(app, SIGTERM);
    QTest::qWait(100);
    signalApp(app, SIGINT);
    QVERIFY(app.waitForFinished(60000));
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QCOMPARE(app.exitCode(), 130);
    QVERIFY2(temporaries(dir.path()).isEmpty(), qPrintable(temporaries(dir.path()).join(' ')));
    QVERIFY2(!QFile::exists(out), "quit before the save committed: nothing written");
  }
};

CONVOLAB_GUI_TEST_MAIN(TestSignals)
#include "test_signals.moc"
