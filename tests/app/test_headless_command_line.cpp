// SPDX-License-Identifier: MIT
// `convolab --help`, `--version` and usage errors print and exit anywhere, as command-line tools do: also
// without a display and without QT_QPA_PLATFORM (a QApplication aborted there in the xcb plugin).
#include <QProcess>
#include <QTest>

#include "gui_test_main.hpp"

class HeadlessCommandLineTest : public QObject {
  Q_OBJECT

  struct Run {
    int exitCode = -1;
    QString out, err;
  };

  static Run run(const QStringList& args) {
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));  // the ctest entry sets offscreen: not here
    app.setProcessEnvironment(env);
    app.start(QStringLiteral(CONVOLAB_APP), args);
    Run r;
    if (!app.waitForStarted() || !app.waitForFinished(20000)) {
      app.kill();
      app.waitForFinished();
      return r;
    }
    r.exitCode = app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -2;  // -2: a crash (SIGABRT)
    r.out = QString::fromUtf8(app.readAllStandardOutput());
    r.err = QString::fromUtf8(app.readAllStandardError());
    return r;
  }

 private slots:
  void helpPrintsUsageAndExitsZero() {
    const Run r = run({QStringLiteral("--help")});
    QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
    QVERIFY2(r.out.contains(QStringLiteral("Usage:")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("--script")));
  }

  void versionPrintsAndExitsZero() {
    const Run r = run({QStringLiteral("--version")});
    QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
    QVERIFY2(r.out.startsWith(QStringLiteral("convolab ")), qPrintable(r.out));
  }

  void unknownOptionIsAUsageErrorNotACrash() {
    const Run r = run({QStringLiteral("--no-such-option")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("no-such-option")), qPrintable(r.err));
  }
};

CONVOLAB_GUI_TEST_GUILESS_MAIN(HeadlessCommandLineTest)
#include "test_headless_command_line.moc"
