// Ctrl+S writes exactly what `convolab-cli apply` writes for the same image and filter, byte for byte.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include "app_test_support.hpp"
#include "capture/image_codec.hpp"
#include "convolab/context.hpp"
#include "convolab/engine.hpp"
#include "convolab/filter_io.hpp"
#include "filter_document.hpp"
#include "main_window.hpp"
#include "pipeline.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class SaveFrameTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("save-frame-test")); }

  void ctrlSMatchesCliApplyByteForByte() {
    const QString input = test::dataFile(QStringLiteral("coffee.png"));
    const QString filterPath = QDir(QDir::homePath()).filePath(QStringLiteral("distinct.json"));
    const FilterSet filter = test::distinctChannelsFilter();
    saveFilterFile(filterPath.toStdString(), filter, true);

    LaunchOptions o;
    o.source = input;
    o.filter = filterPath;
    o.strategy = QStringLiteral("naive");
    o.device = QStringLiteral("0:0");
    MainWindow window(o);
    window.show();
    QVERIFY(test::waitForFrame(window, window.pipeline()->filterRevision()));

    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_S, Qt::ControlModifier);
    const QString picturesDir = QDir(QStandardPaths::writableLocation(QStandardPaths::PicturesLocation))
                                    .filePath(QStringLiteral("ConvoLab"));
    const QStringList saved = QDir(picturesDir).entryList({QStringLiteral("convolab-*.png")}, QDir::Files);
    QCOMPARE(saved.size(), 1);
    const QByteArray gui = readAll(QDir(picturesDir).filePath(saved.first()));
    QVERIFY(!gui.isEmpty());

    // The saved frame is the full-resolution filter output.
    const Image decoded =
        capture::decodeImage(std::string_view(gui.constData(), static_cast<size_t>(gui.size())), "saved");
    QCOMPARE(decoded.width, 600);
    QCOMPARE(decoded.height, 400);

    QByteArray expected;
#ifdef CONVOLAB_CLI
    const QString out = QDir(QDir::homePath()).filePath(QStringLiteral("cli.png"));
    QProcess cli;
    cli.start(QStringLiteral(CONVOLAB_CLI),
              {QStringLiteral("apply"), input, QStringLiteral("-o"), out, QStringLiteral("-f"), filterPath,
               QStringLiteral("-s"), QStringLiteral("naive"), QStringLiteral("-d"), QStringLiteral("0:0"),
               QStringLiteral("--force")});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    expected = readAll(out);
#else
    // No CLI in this build: the same engine, strategy and encoder, in the test.
    const Image in = capture::loadImage(input.toStdString());
    Engine engine(std::make_shared<Context>("0:0"), "naive");
    engine.setFilter(filter);
    Image result(in.width, in.height);
    engine.process(in.view(), result.mutableView());
    const std::string bytes = capture::encodeImage(result, capture::ImageFormat::Png);
    expected = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
#endif
    QVERIFY(!expected.isEmpty());
    QCOMPARE(gui.size(), expected.size());
    QVERIFY(gui == expected);
  }
};

QTEST_MAIN(SaveFrameTest)
#include "test_save_frame.moc"
