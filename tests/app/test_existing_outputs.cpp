// SPDX-License-Identifier: MIT
// `convolab --snapshot/--stats/--compare` never replace a file that exists without --force, as convolab-cli
// does: the run is refused at once (exit 3, a message naming the file and --force) and the file is kept;
// with --force the outputs are replaced.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include "app_test_support.hpp"
#include "gui_test_main.hpp"

class ExistingOutputsTest : public QObject {
  Q_OBJECT

  struct Run {
    int exitCode = -1;
    QString err;
  };

  static Run run(const QStringList& args) {
    QProcess app;
    app.start(QStringLiteral(CONVOLAB_APP), args);
    Run r;
    if (!app.waitForStarted() || !app.waitForFinished(120000)) {
      app.kill();
      app.waitForFinished();
      return r;
    }
    r.exitCode = app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -2;
    r.err = QString::fromUtf8(app.readAllStandardError());
    return r;
  }

  static void write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
  }

  static QByteArray read(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
  }

  static QStringList runArgs(const QString& snapshot, const QString& stats) {
    return {QStringLiteral("--source"),   QStringLiteral("pattern:64x48@30"),
            QStringLiteral("--strategy"), QStringLiteral("naive"),
            QStringLiteral("--frames"),   QStringLiteral("2"),
            QStringLiteral("--snapshot"), snapshot,
            QStringLiteral("--stats"),    stats};
  }

 private slots:
  void existingOutputsAreRefusedWithoutForce() {
    QTemporaryDir dir;
    const QString snapshot = dir.filePath(QStringLiteral("shot.png"));
    const QString stats = dir.filePath(QStringLiteral("stats.json"));
    const QByteArray mine = "the user's own file\n";
    for (const QString& existing : {snapshot, stats}) {
      QFile::remove(snapshot);
      QFile::remove(stats);
      write(existing, mine);
      const Run r = run(runArgs(snapshot, stats));
      QVERIFY2(r.exitCode == 3, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
      QVERIFY2(r.err.contains(existing) && r.err.contains(QStringLiteral("already exists")) &&
                   r.err.contains(QStringLiteral("--force")),
               qPrintable(r.err));
      QCOMPARE(read(existing), mine);  // kept as it was
      // Nothing else was written either: the run never started.
      QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }
    const QString compare = dir.filePath(QStringLiteral("compare.json"));
    write(compare, mine);
    const Run c = run({QStringLiteral("--source"), QStringLiteral("pattern:64x48@30"),
                       QStringLiteral("--compare"), compare});
    QCOMPARE(c.exitCode, 3);
    QCOMPARE(read(compare), mine);
  }

  void forceReplacesThem() {
    QTemporaryDir dir;
    const QString snapshot = dir.filePath(QStringLiteral("shot.png"));
    const QString stats = dir.filePath(QStringLiteral("stats.json"));
    const QByteArray mine = "the user's own file\n";
    write(snapshot, mine);
    write(stats, mine);
    const Run r = run(runArgs(snapshot, stats) << QStringLiteral("--force"));
    QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
    QVERIFY(read(snapshot).startsWith("\x89PNG"));
    const auto j = nlohmann::json::parse(read(stats).toStdString());
    QCOMPARE(j["processed_frames"].get<int>(), 2);
    // Written through a temporary and a rename: no temporary is left beside them.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);
  }

  // The output rule (docs/RELIABILITY.md, "Output paths"), even with --force: --compare never replaces a FIFO
  // or writes through a link; no output may be an input (--snapshot over the --source image, --stats over
  // the --filter file). Each is refused before the run, exit 3, and the file is kept.
  void specialOutputsAndInputsAreRefusedEvenWithForce() {
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("compare.fifo"));
    QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
    const QString real = dir.filePath(QStringLiteral("real.json"));
    const QString link = dir.filePath(QStringLiteral("link.json"));
    const QByteArray mine = "the user's own file\n";
    write(real, mine);
    QVERIFY(QFile::link(real, link));
    for (const QString& target : {fifo, link}) {
      const Run c = run({QStringLiteral("--source"), QStringLiteral("pattern:64x48@30"),
                         QStringLiteral("--compare"), target, QStringLiteral("--force")});
      QVERIFY2(c.exitCode == 3 && c.err.contains(target), qPrintable(QString::number(c.exitCode) + c.err));
    }
    struct stat st {};
    QVERIFY(::lstat(fifo.toLocal8Bit().constData(), &st) == 0 && S_ISFIFO(st.st_mode));
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(read(real), mine);

    const QString image = dir.filePath(QStringLiteral("photo.png"));
    QVERIFY(QFile::copy(convolab::test::dataFile(QStringLiteral("coffee.png")), image));
    const QByteArray photo = read(image);
    const QString filter = dir.filePath(QStringLiteral("f.json"));
    QVERIFY(QFile::copy(convolab::test::dataFile(QStringLiteral("../../resources/presets/sharpen.json")),
                        filter));
    const QByteArray filterBytes = read(filter);
    const Run s = run({QStringLiteral("--source"), image, QStringLiteral("--filter"), filter,
                       QStringLiteral("--strategy"), QStringLiteral("naive"), QStringLiteral("--frames"),
                       QStringLiteral("2"), QStringLiteral("--snapshot"),
                       QStringLiteral("%1/./photo.png").arg(dir.path()), QStringLiteral("--force")});
    QVERIFY2(s.exitCode == 3 && s.err.contains(QStringLiteral("is the input")), qPrintable(s.err));
    QCOMPARE(read(image), photo);
    const Run t = run({QStringLiteral("--source"), QStringLiteral("pattern:64x48@30"),
                       QStringLiteral("--filter"), filter, QStringLiteral("--frames"), QStringLiteral("2"),
                       QStringLiteral("--stats"), filter, QStringLiteral("--force")});
    QVERIFY2(t.exitCode == 3 && t.err.contains(QStringLiteral("is the input")), qPrintable(t.err));
    QCOMPARE(read(filter), filterBytes);
  }
};

CONVOLAB_GUI_TEST_GUILESS_MAIN(ExistingOutputsTest)
#include "test_existing_outputs.moc"
