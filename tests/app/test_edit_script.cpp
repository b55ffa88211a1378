// SPDX-License-Identifier: MIT
// `convolab --script`: bad scripts exit 2 with a message naming the file, the action and the field (the real
// binary, before any window); a good one parses and --frames still ends its run; a script run keeps the live
// path; end to end, its --stats has edit_to_display and one entry per action.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QTest>
#include <nlohmann/json.hpp>

#include "app_test_support.hpp"
#include "automation/edit_script.hpp"
#include "chain/chain_controller.hpp"
#include "chain/chain_dock.hpp"
#include "convolab/filter_chain_io.hpp"
#include "convolab/filter_io.hpp"
#include "gui_test_main.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

QString scriptDir() {
  const QString dir = QDir(QDir::homePath()).filePath(QStringLiteral("scripts"));
  QDir().mkpath(dir + QStringLiteral("/presets"));
  return dir;
}

QString writeFile(const QString& name, const QByteArray& content) {
  const QString path = QDir(scriptDir()).filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot write %s", qPrintable(path));
  f.write(content);
  return path;
}

/// A 3×3 sharpen filter at scripts/presets/sharpen3.json (the script names it relative to its folder).
void writePreset() {
  ChannelFilter sharpen;
  sharpen.size = 3;
  sharpen.matrix = {0, -1, 0, -1, 5, -1, 0, -1, 0};
  writeFile(
      QStringLiteral("presets/sharpen3.json"),
      QByteArray::fromStdString(toFilterJson(FilterSet::uniform(sharpen, BorderMode::Reflect101, "S3"))));
}

/// A two-step chain (blur, then sharpen, both 3×3) at scripts/presets/two.json.
void writeTwoStepChain() {
  const ChannelFilter blur{3, {1, 2, 1, 2, 4, 2, 1, 2, 1}, 16, 0};
  const ChannelFilter sharpen{3, {0, -1, 0, -1, 5, -1, 0, -1, 0}, 1, 0};
  const FilterChain chain = FilterChain::make(
      {ChainStep::single(FilterSet::uniform(blur)), ChainStep::single(FilterSet::uniform(sharpen))});
  writeFile(QStringLiteral("presets/two.json"), QByteArray::fromStdString(toFilterChainJson(chain)));
}

struct Run {
  int exitCode = -1;
  QString err;
  qint64 ms = 0;
};

Run runScriptedApp(const QStringList& args, int timeoutMs) {
  QProcess app;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  env.insert(QStringLiteral("CONVOLAB_DEVICE"), QStringLiteral("cpu"));
  app.setProcessEnvironment(env);
  QElapsedTimer timer;
  timer.start();
  app.start(QStringLiteral(CONVOLAB_APP), args);
  Run run;
  if (!app.waitForStarted()) return run;
  if (!app.waitForFinished(timeoutMs)) {
    app.kill();
    app.waitForFinished();
    run.err = QStringLiteral("did not exit within %1 ms").arg(timeoutMs);
    return run;
  }
  run.exitCode = app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -2;
  run.err = QString::fromUtf8(app.readAllStandardError());
  run.ms = timer.elapsed();
  return run;
}

}  // namespace

class EditScriptTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    test::prepareTestEnvironment(QStringLiteral("edit-script-test"));
    writePreset();
  }

  void badScriptsExit2NamingTheActionAndTheField_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("expected");  // in the message, beside the file's name
    auto row = [](const char* name, const char* content, QStringList expected) {
      QTest::newRow(name) << QByteArray(content) << expected;
    };
    row("not JSON", "{\"actions\": [", {"not valid JSON"});
    row("no actions", "{\"steps\": []}", {"\"actions\""});
    row("empty", "{\"actions\": []}", {"empty"});
    row("unknown kind", R"({"actions": [{"at_ms": 10, "blur": 3}]})",
        {"actions[0]", "unknown action kind", "blur"});
    row("missing at_ms", R"({"actions": [{"border": "wrap"}]})", {"actions[0]", "\"at_ms\"", "missing"});
    row("at_ms not a number", R"({"actions": [{"at_ms": "1s", "border": "wrap"}]})",
        {"actions[0]", "\"at_ms\""});
    row("negative at_ms", R"({"actions": [{"at_ms": -5, "border": "wrap"}]})",
        {"actions[0]", "\"at_ms\"", "negative"});
    row("at_ms not increasing",
        R"({"actions": [{"at_ms": 500, "border": "wrap"}, {"at_ms": 500, "ksize": 9}]})",
        {"actions[1]", "\"at_ms\"", "previous"});
    row("two kinds", R"({"actions": [{"at_ms": 1, "border": "wrap", "ksize": 9}]})",
        {"actions[0]", "one action"});
    row("bad channel",
        R"({"actions": [{"at_ms": 1, "cell": {"channel": "x", "row": 0, "col": 0, "value": 1}}]})",
        {"actions[0]", "\"cell.channel\""});
    row("row outside 7x7",
        R"({"actions": [{"at_ms": 1, "cell": {"channel": "r", "row": 7, "col": 0, "value": 1}}]})",
        {"actions[0]", "\"cell.row\"", "0 to 6"});
    row("negative col",
        R"({"actions": [{"at_ms": 1, "cell": {"channel": "g", "row": 0, "col": -1, "value": 1}}]})",
        {"actions[0]", "\"cell.col\""});
    row("row after a crop",
        R"({"actions": [{"at_ms": 1, "ksize": 9}, {"at_ms": 2, "ksize": 7},
                        {"at_ms": 3, "cell": {"channel": "b", "row": 8, "col": 0, "value": 1}}]})",
        {"actions[2]", "\"cell.row\""});
    row("value missing", R"({"actions": [{"at_ms": 1, "cell": {"channel": "r", "row": 0, "col": 0}}]})",
        {"actions[0]", "\"cell.value\"", "missing"});
    row("unknown border", R"({"actions": [{"at_ms": 1, "border": "mirror"}]})",
        {"actions[0]", "\"border\"", "mirror"});
    row("even ksize", R"({"actions": [{"at_ms": 1, "ksize": 8}]})", {"actions[0]", "\"ksize\"", "odd"});
    row("ksize too large", R"({"actions": [{"at_ms": 1, "ksize": 65}]})",
        {"actions[0]", "\"ksize\"", "7 to 63"});
    row("ksize too small", R"({"actions": [{"at_ms": 1, "ksize": 5}]})", {"actions[0]", "\"ksize\""});
    row("unknown strategy", R"({"actions": [{"at_ms": 1, "strategy": "fastest"}]})",
        {"actions[0]", "\"strategy\"", "fastest"});
    row("at_ms past a day", R"({"actions": [{"at_ms": 3e9, "ksize": 9}]})",
        {"actions[0]", "\"at_ms\"", "at most 86400000"});
    row("at_ms 1e17", R"({"actions": [{"at_ms": 1e17, "ksize": 9}]})", {"actions[0]", "at most 86400000"});
    row("missing filter file", R"({"actions": [{"at_ms": 1, "filter": "presets/nothere.json"}]})",
        {"actions[0]", "\"filter\"", "nothere.json"});
  }

  void badScriptsExit2NamingTheActionAndTheField() {
    QFETCH(QByteArray, content);
    QFETCH(QStringList, expected);
    const QString script = writeFile(QStringLiteral("bad.json"), content);
    const QString stats = QDir(scriptDir()).filePath(QStringLiteral("never-stats.json"));
    QFile::remove(stats);
    const Run run = runScriptedApp(
        {QStringLiteral("--source"), QStringLiteral("pattern:32x32@30"), QStringLiteral("--strategy"),
         QStringLiteral("naive"), QStringLiteral("--stats"), stats, QStringLiteral("--script"), script},
        60000);
    QVERIFY2(run.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(run.exitCode).arg(run.err)));
    // One line "convolab: FILE: actions[i]: "field" …" (Qt may print notes of its own around it).
    const QStringList lines = run.err.split(QLatin1Char('\n'));
    const auto line = std::find_if(lines.begin(), lines.end(), [&](const QString& l) {
      return l.startsWith(QStringLiteral("convolab: ") + script + QStringLiteral(": "));
    });
    QVERIFY2(line != lines.end(), qPrintable(run.err));
    for (const QString& part : expected) QVERIFY2(line->contains(part), qPrintable(part + " in: " + *line));
    QVERIFY2(!QFile::exists(stats), "no window was opened, no run started");
  }

  void aMissingScriptExits2() {
    const QString missing = QDir(scriptDir()).filePath(QStringLiteral("nothere.json"));
    const Run run = runScriptedApp({QStringLiteral("--script"), missing}, 60000);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(missing) && run.err.contains(QStringLiteral("no such file")),
             qPrintable(run.err));
  }

  // A value nested 100,000 deep once crashed the app through a recursive dump() in the message; a wide
  // script (1,100,000 values) is refused before nlohmann builds it.
  void deepAndWideScriptsAreRefused() {
    const std::string deep = R"({"actions": [{"at_ms": 1, "cell": )" + std::string(100'000, '[') +
                             std::string(100'000, ']') + "}]}";
    std::string wide = R"({"actions": [{"at_ms": 1, "ksize": 7}], "pad": [)";
    for (int i = 0; i < 1'100'000; ++i) wide += "0,";
    wide += "0]}";
    for (const std::string& text : {deep, wide}) {
      QElapsedTimer timer;
      timer.start();
      try {
        parseEditScriptText(text, "hostile.json");
        QFAIL("accepted");
      } catch (const EditScriptError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.startsWith(QStringLiteral("hostile.json: refused: ")), qPrintable(what));
        QVERIFY2(what.contains(QStringLiteral("nested deeper than 64")) ||
                     what.contains(QStringLiteral("more than 1000000 values")),
                 qPrintable(what));
      }
      QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
    }
  }

  void aGoodScriptParses() {
    const QString path = writeFile(QStringLiteral("good.json"), R"({"actions": [
        {"at_ms": 3000, "filter": "presets/sharpen3.json"},
        {"at_ms": 5000, "cell": {"channel": "G", "row": 3, "col": 4, "value": 0.5}},
        {"at_ms": 6000, "border": "wrap"},
        {"at_ms": 7000, "ksize": 31},
        {"at_ms": 8000.5, "cell": {"channel": "b", "row": 30, "col": 0, "value": -2}},
        {"at_ms": 9000, "strategy": "codegen"}]})");
    const EditScript script = parseEditScript(path.toStdString());
    QCOMPARE(script.actions.size(), std::size_t{6});
    using Kind = ScriptAction::Kind;
    const auto& a = script.actions;
    QCOMPARE(a[0].kind, Kind::Filter);
    QCOMPARE(QString::fromStdString(a[0].filterPath.lexically_normal().string()),
             QDir(scriptDir()).filePath(QStringLiteral("presets/sharpen3.json")));
    QCOMPARE(a[1].kind, Kind::Cell);
    QCOMPARE(a[1].channel, 1);
    QCOMPARE(a[1].row, 3);
    QCOMPARE(a[1].col, 4);
    QCOMPARE(a[1].value, 0.5);
    QCOMPARE(a[2].border, BorderMode::Wrap);
    QCOMPARE(a[3].ksize, 31);  // past the grid's 15: the heat map's sizes, as the size box
    QCOMPARE(a[4].row, 30);    // inside the 31×31 the ksize action made
    QCOMPARE(a[4].atMs, 8000.5);
    QCOMPARE(a[5].strategy, std::string("codegen"));
    QCOMPARE(std::string(actionKindName(a[5].kind)), std::string("strategy"));

    // The binary takes it; --frames ends the run before the first action's time.
    const Run run =
        runScriptedApp({QStringLiteral("--source"), QStringLiteral("pattern:32x32@30"),
                        QStringLiteral("--strategy"), QStringLiteral("naive"), QStringLiteral("--frames"),
                        QStringLiteral("3"), QStringLiteral("--script"), path},
                       60000);
    QVERIFY2(run.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(run.exitCode).arg(run.err)));
    QVERIFY2(run.ms < 3000 + 20000, qPrintable(QString::number(run.ms)));
  }

  // A script measures the live path: even with --frames, processing is not the synchronous automated mode,
  // so an unchanged still image goes idle (an automated --frames run processes it on every delivery).
  void aScriptRunKeepsTheLivePath() {
    LaunchOptions o;
    o.source = QStringLiteral("sample");
    o.strategy = QStringLiteral("naive");
    o.frames = 100000;
    o.script =
        writeFile(QStringLiteral("late.json"), R"({"actions": [{"at_ms": 600000, "border": "wrap"}]})");
    o.editScript = std::make_shared<const EditScript>(parseEditScript(o.script.toStdString()));
    MainWindow window(o);
    window.show();
    QVERIFY(test::waitForFrame(window, window.pipeline()->filterRevision()));
    QTRY_VERIFY_WITH_TIMEOUT(window.pipeline()->stillIdle(), 20000);
    QVERIFY(window.settings().isReadOnly());  // a script run leaves the remembered settings alone
  }

  // Issue 34.11: a filter import that fails mid-run (its file went away after the script was checked) is
  // reported as failed in --stats, never as reaching the screen, and the run still ends.
  void aFailedImportIsNotReportedAsShown() {
    writePreset();
    const QString gone = QDir(scriptDir()).filePath(QStringLiteral("presets/gone.json"));
    QFile::remove(gone);
    QVERIFY(QFile::copy(QDir(scriptDir()).filePath(QStringLiteral("presets/sharpen3.json")), gone));
    LaunchOptions o;
    o.source = QStringLiteral("pattern:64x48@30");
    o.strategy = QStringLiteral("naive");
    o.script = writeFile(QStringLiteral("gone.json"), R"({"actions": [
        {"at_ms": 200, "filter": "presets/gone.json"}, {"at_ms": 400, "border": "wrap"}]})");
    o.editScript = std::make_shared<const EditScript>(parseEditScript(o.script.toStdString()));
    o.stats = QDir(scriptDir()).filePath(QStringLiteral("gone-stats.json"));
    o.force = true;
    QVERIFY(QFile::remove(gone));  // checked, then gone before its time
    MainWindow window(o);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.runFinished(), 60000);
    QFile file(o.stats);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto j = nlohmann::json::parse(file.readAll().toStdString());
    const auto& actions = j.at("actions");
    QCOMPARE(actions.size(), std::size_t{2});
    QVERIFY2(actions[0].at("edit_to_display_ms").is_null(), j.dump(2).c_str());
    QVERIFY2(actions[0].at("error").get<std::string>().find("gone.json") != std::string::npos,
             j.dump(2).c_str());
    QVERIFY2(actions[1].at("edit_to_display_ms").is_number(), j.dump(2).c_str());
  }

  void chainActionsParseAndBadOnesNameTheField() {
    writeTwoStepChain();
    const EditScript good = parseEditScriptText(R"({"actions": [
        {"at_ms": 1, "add_step": "presets/two.json"},
        {"at_ms": 2, "cell": {"channel": "r", "row": 12, "col": 3, "value": 2, "step": 2}},
        {"at_ms": 3, "toggle_step": 1}, {"at_ms": 4, "remove_step": 8}, {"at_ms": 5, "run_chain": true}]})",
                                                (scriptDir() + QStringLiteral("/s.json")).toStdString());
    using Kind = ScriptAction::Kind;
    const auto& a = good.actions;
    QCOMPARE(a[0].kind, Kind::AddStep);
    QCOMPARE(a[1].step, 2);
    QCOMPARE(a[1].row, 12);  // a step's size is known when it runs: up to 63×63
    QCOMPARE(a[2].kind, Kind::ToggleStep);
    QCOMPARE(a[3].step, 8);
    QVERIFY(a[4].on);
    QCOMPARE(std::string(actionKindName(a[4].kind)), std::string("run_chain"));
    const std::pair<const char*, QStringList> bad[] = {
        {R"({"actions": [{"at_ms": 1, "cell": {"channel": "r", "row": 0, "col": 0, "value": 1, "step": 0}}]})",
         {"actions[0]", "\"cell.step\"", "1 to 8"}},
        {R"({"actions": [{"at_ms": 1, "remove_step": 9}]})", {"actions[0]", "\"remove_step\"", "1 to 8"}},
        {R"({"actions": [{"at_ms": 1, "toggle_step": "1"}]})", {"\"toggle_step\""}},
        {R"({"actions": [{"at_ms": 1, "run_chain": 1}]})", {"\"run_chain\"", "true or false"}},
        {R"({"actions": [{"at_ms": 1, "add_step": "presets/nothere.json"}]})", {"\"add_step\"", "nothere"}},
    };
    for (const auto& [text, expected] : bad) {
      try {
        parseEditScriptText(text, (scriptDir() + QStringLiteral("/b.json")).toStdString());
        QFAIL(text);
      } catch (const EditScriptError& e) {
        for (const QString& part : expected) QVERIFY2(QString::fromUtf8(e.what()).contains(part), e.what());
      }
    }
  }

  // Steps added, switched on, a step's cell edited, a step toggled, as the Chain dock does; each reaches the
  // screen, and a step that is not there fails with a reason.
  void aChainScriptEditsStepsAsTheDockWould() {
    writeTwoStepChain();
    QSettings().remove(QStringLiteral("chain"));
    LaunchOptions o;
    o.source = QStringLiteral("pattern:64x48@30");
    o.strategy = QStringLiteral("naive");
    o.script = writeFile(QStringLiteral("chain.json"), R"({"actions": [
        {"at_ms": 100, "add_step": "presets/two.json"}, {"at_ms": 300, "run_chain": true},
        {"at_ms": 500, "cell": {"channel": "r", "row": 3, "col": 3, "value": 2, "step": 2}},
        {"at_ms": 700, "toggle_step": 1}, {"at_ms": 900, "remove_step": 3}]})");
    o.editScript = std::make_shared<const EditScript>(parseEditScript(o.script.toStdString()));
    o.stats = QDir(scriptDir()).filePath(QStringLiteral("chain-stats.json"));
    o.force = true;
    MainWindow window(o);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.runFinished(), 60000);
    ChainController* chain = window.findChild<ChainDock*>()->controller();
    QCOMPARE(chain->size(), 2);
    QVERIFY(!chain->steps()[0].enabled);
    QCOMPARE(chain->steps()[1].filter.channel(0).matrix[4], 2.0);  // the 3×3 step's centre
    QCOMPARE(window.pipeline()->chain(), *chain->chain());
    QFile file(o.stats);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto j = nlohmann::json::parse(file.readAll().toStdString());
    const auto& actions = j.at("actions");
    QCOMPARE(actions.size(), std::size_t{5});
    for (int i = 0; i < 4; ++i) QVERIFY2(actions[i].at("edit_to_display_ms").is_number(), j.dump(2).c_str());
    QCOMPARE(actions[2].at("kind").get<std::string>(), std::string("cell"));
    QVERIFY2(actions[4].at("edit_to_display_ms").is_null(), j.dump(2).c_str());
    QVERIFY2(actions[4].at("error").get<std::string>().find("no step 3") != std::string::npos,
             j.dump(2).c_str());
  }

  void endToEndStatsHaveEditToDisplay() {
    const QString script = writeFile(QStringLiteral("e2e.json"), R"({"actions": [
        {"at_ms": 300, "cell": {"channel": "r", "row": 3, "col": 3, "value": 0.5}},
        {"at_ms": 900, "strategy": "constant"}]})");
    const QString stats = QDir(scriptDir()).filePath(QStringLiteral("e2e-stats.json"));
    QFile::remove(stats);
    const Run run = runScriptedApp(
        {QStringLiteral("--source"), QStringLiteral("pattern:160x120@30"), QStringLiteral("--strategy"),
         QStringLiteral("naive"), QStringLiteral("--script"), script, QStringLiteral("--stats"), stats},
        120000);
    QVERIFY2(run.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(run.exitCode).arg(run.err)));
    QFile file(stats);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto j = nlohmann::json::parse(file.readAll().toStdString());
    const auto& edits = j.at("edit_to_display");
    QVERIFY2(edits.at("samples").get<int>() >= 1, j.dump(2).c_str());
    QVERIFY(edits.at("mean_ms").is_number() && edits.at("max_ms").is_number());
    QVERIFY(edits.at("max_ms").get<double>() >= edits.at("mean_ms").get<double>());
    const auto& actions = j.at("actions");
    QCOMPARE(actions.size(), std::size_t{2});
    QCOMPARE(actions[0].at("index").get<int>(), 0);
    QCOMPARE(actions[0].at("kind").get<std::string>(), std::string("cell"));
    QCOMPARE(actions[1].at("index").get<int>(), 1);
    QCOMPARE(actions[1].at("kind").get<std::string>(), std::string("strategy"));
    for (const auto& action : actions)
      QVERIFY2(
          action.at("edit_to_display_ms").is_number() && action.at("edit_to_display_ms").get<double>() >= 0,
          j.dump(2).c_str());
    QCOMPARE(j.at("active_strategy").get<std::string>(), std::string("constant"));
  }
};

CONVOLAB_GUI_TEST_MAIN(EditScriptTest)
#include "test_edit_script.moc"
