// SPDX-License-Identifier: MIT
// Settings are validated on load: a FIFO or a folder as the settings file, huge or out-of-range values and
// broken filters fall back to defaults with a note, and what is shown (the window title) is elided.
#include <sys/stat.h>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>

#include "app_settings.hpp"
#include "app_test_support.hpp"
#include "convolab/filter_io.hpp"
#include "editor/filter_document.hpp"
#include "gui_test_main.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

QString settingsPath() {
  return QStringLiteral("%1/%2/%3.conf")
      .arg(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation),
           QCoreApplication::organizationName(), QCoreApplication::applicationName());
}

void wipeValidationSettings() {
  const QString path = settingsPath();
  QDir(path).removeRecursively();
  QFile::remove(path);
  QDir().mkpath(QFileInfo(path).absolutePath());
}

}  // namespace

class SettingsValidationTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("settings-validation-test")); }
  void init() { wipeValidationSettings(); }

  // 13.8: a FIFO as the settings file used to block start-up for good (QSettings opened it).
  void aFifoAsTheSettingsFileDoesNotHang() {
    QVERIFY(::mkfifo(QFile::encodeName(settingsPath()).constData(), 0600) == 0);
    AppSettings settings;  // before the fix: blocks here until ctest's timeout
    QCOMPARE(settings.notes().size(), 1);
    QVERIFY(settings.notes().first().contains(QStringLiteral("FIFO")));
    settings.set(AppSettings::kStrategy, QStringLiteral("naive"));  // works for this session
    QCOMPARE(settings.value(AppSettings::kStrategy).toString(), QStringLiteral("naive"));
    struct stat st {};
    QVERIFY(::stat(QFile::encodeName(settingsPath()).constData(), &st) == 0 &&
            S_ISFIFO(st.st_mode));  // untouched
    QFile::remove(settingsPath());
  }

  void aFolderAsTheSettingsFile() {
    QVERIFY(QDir().mkpath(settingsPath()));
    AppSettings settings;
    QCOMPARE(settings.notes().size(), 1);
    QVERIFY(settings.notes().first().contains(QStringLiteral("folder")));
    QVERIFY(!settings.value(AppSettings::kSource).isValid());
    QDir(settingsPath()).removeRecursively();
  }

  // 13.3: every value is checked; a bad one falls back to the default and says why.
  void badValuesFallBackToDefaults() {
    FilterSet good = parseFilterJson(R"({"name":"Keep","matrix":[[0,0,0],[0,2,0],[0,0,0]]})");
    {
      QSettings disk;
      disk.setValue(AppSettings::kStrategy, QStringLiteral("bogus"));
      disk.setValue(AppSettings::kSplit, 7.5);
      disk.setValue(AppSettings::kViewMode, 9);
      disk.setValue(AppSettings::kJpegQuality, 1000);
      disk.setValue(AppSettings::kGeometry, QByteArray(200 * 1024, 'g'));
      disk.setValue(AppSettings::kSource, QString(100000, QLatin1Char('s')));
      disk.setValue(AppSettings::kMaxPixels, QStringLiteral("lots"));
      disk.setValue(AppSettings::kDevice, QStringLiteral("cpu"));                       // valid: kept
      disk.setValue(AppSettings::kFilter, QString::fromStdString(toFilterJson(good)));  // valid: kept
    }
    AppSettings settings;
    const QSet<QString> expected{AppSettings::kStrategy,    AppSettings::kSplit,    AppSettings::kViewMode,
                                 AppSettings::kJpegQuality, AppSettings::kGeometry, AppSettings::kSource,
                                 AppSettings::kMaxPixels};
    QCOMPARE(settings.rejectedKeys(), expected);
    QCOMPARE(settings.notes().size(), expected.size());
    QCOMPARE(settings.value(AppSettings::kStrategy, QStringLiteral("auto")).toString(),
             QStringLiteral("auto"));
    QCOMPARE(settings.value(AppSettings::kDevice).toString(), QStringLiteral("cpu"));
    QCOMPARE(settings.maxPixels(), std::int64_t{100'000'000});
    QCOMPARE(parseFilterJson(settings.value(AppSettings::kFilter).toString().toStdString()), good);
  }

  void aBrokenFilterIsRejectedByTheFileParser() {
    QSettings().setValue(AppSettings::kFilter, QStringLiteral(R"({"matrix":[[1,2],[3,4]]})"));  // even K
    AppSettings settings;
    QVERIFY(settings.rejectedKeys().contains(AppSettings::kFilter));
    QVERIFY(settings.notes().first().contains(QStringLiteral("not a valid filter")));
  }

  // The custom step's and the chain's JSON go through the chain parser, with the filter's limits and
  // messages.
  void aBrokenChainOrCustomStepIsRejectedByTheFileParser() {
    const QString plain = QString::fromStdString(toFilterJson(FilterSet()));  // a filter: no custom step
    const std::pair<QVariant, QString> customCases[] = {
        {plain, QStringLiteral("holds no custom OpenCL step")},
        {QStringLiteral(R"({"steps": 3})"), QStringLiteral("is not a valid custom step: ")},
        {QString(AppSettings::kMaxFilterJson + 1, QLatin1Char(' ')), QStringLiteral("characters long")},
        {QVariant(42), QStringLiteral("is not text")}};
    for (const auto& [value, why] : customCases) {
      wipeValidationSettings();
      QSettings().setValue(AppSettings::kCustomStep, value);
      QSettings().setValue(AppSettings::kChainSteps, plain);  // a one-step chain: kept
      AppSettings settings;
      QCOMPARE(settings.rejectedKeys(), QSet<QString>{AppSettings::kCustomStep});
      QVERIFY2(settings.notes().first().contains(why), qPrintable(settings.notes().first()));
    }
    wipeValidationSettings();
    QSettings().setValue(AppSettings::kChainSteps, QStringLiteral(R"({"steps": []})"));
    AppSettings settings;
    QCOMPARE(settings.rejectedKeys(), QSet<QString>{AppSettings::kChainSteps});
    QVERIFY2(settings.notes().first().contains(QStringLiteral("is not a valid chain: ")),
             qPrintable(settings.notes().first()));
  }

  // 13.3: a multi-megabyte filter name used to go into the window title and break the X11 connection.
  void aHugeFilterNameNeverReachesTheTitle() {
    const std::string hugeName(3'000'000, 'N');
    const FilterSet huge = FilterSet().withName(hugeName);
    QSettings().setValue(AppSettings::kFilter, QString::fromStdString(toFilterJson(huge)));
    const LaunchOptions o = test::launchOptions(QStringLiteral("pattern:32x32@30"));
    MainWindow window(o);
    window.show();
    QVERIFY(window.windowTitle().size() < 400);
    QVERIFY(window.document()->filter().name() != hugeName);  // the default filter instead
    QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QStringLiteral("filter/json")),
                             5000);
    // A long name that is valid (from a filter file) is shown elided.
    const QString file = QDir(QDir::homePath()).filePath(QStringLiteral("long-name.json"));
    {
      QFile f(file);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(toFilterJson(FilterSet().withName(std::string(5000, 'L'))).c_str());
    }
    LaunchOptions withFile = o;
    withFile.filter = file;
    MainWindow second(withFile);
    second.show();
    QCOMPARE(second.document()->filter().name().size(), std::size_t{5000});
    QVERIFY(second.windowTitle().size() < 400);
  }
};

CONVOLAB_GUI_TEST_MAIN(SettingsValidationTest)
#include "test_settings_validation.moc"
