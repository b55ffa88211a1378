// SPDX-License-Identifier: MIT
// Command-line parsing with QCommandLineParser.
#include "command_line.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <optional>

#include "capture/source_spec.hpp"
#include "convolab/output_path.hpp"
#include "output/letterbox.hpp"

namespace convolab::gui {

namespace {

// The options, in the order --help lists them (docs_drift_test.cpp reads each QCommandLineOption(...)).
struct Options {
  QCommandLineOption help = QCommandLineOption(QStringList{"h", "help"}, QStringLiteral("Show this help."));
  QCommandLineOption version =
      QCommandLineOption(QStringList{"v", "version"}, QStringLiteral("Show the version."));
  QCommandLineOption source = QCommandLineOption(
      "source",
      QStringLiteral("Input: %1, 'sample' (bundled image) or 'auto' (camera if present, else the sample). "
                     "Default: the last one used.")
          .arg(QString::fromStdString(capture::sourceSpecSummary())),
      QStringLiteral("SPEC"));
  QCommandLineOption filter = QCommandLineOption(
      "filter", QStringLiteral("Start with this JSON filter file."), QStringLiteral("FILE"));
  QCommandLineOption strategy = QCommandLineOption(
      "strategy", QStringLiteral("Convolution strategy (see convolab-cli strategies); default auto."),
      QStringLiteral("NAME"));
  QCommandLineOption device = QCommandLineOption(
      "device", QStringLiteral("OpenCL device: gpu, cpu, P:D or part of its name."), QStringLiteral("SPEC"));
  QCommandLineOption frames =
      QCommandLineOption("frames", QStringLiteral("Quit after N processed frames."), QStringLiteral("N"));
  QCommandLineOption snapshot = QCommandLineOption(
      "snapshot", QStringLiteral("On exit, save the last filtered frame (PNG)."), QStringLiteral("OUT.png"));
  QCommandLineOption stats = QCommandLineOption("stats", QStringLiteral("On exit, write statistics as JSON."),
                                                QStringLiteral("OUT.json"));
  QCommandLineOption compare = QCommandLineOption(
      "compare",
      QStringLiteral("Headless: run every strategy on the first frame, write the comparison as JSON, exit "
                     "(3: the report cannot be written)."),
      QStringLiteral("REPORT.json"));
  QCommandLineOption script = QCommandLineOption(
      "script",
      QStringLiteral(
          "Apply the timed edits of this JSON file as a user would (filter, cell, border, ksize, strategy; "
          "at_ms counts from the first frame shown) and measure edit -> screen. The run ends once the last "
          "edit is on screen (or 10 s after its time), writing --stats / --snapshot. Processing stays live, "
          "also with --frames. A bad script: exit 2."),
      QStringLiteral("FILE"));
  QCommandLineOption virtualCamera = QCommandLineOption(
      "virtual-camera",
      QStringLiteral("Publish the filtered picture as the PipeWire camera \"ConvoLab (filtered)\" (node "
                     "convolab), as Processing > Virtual Camera does."));
  QCommandLineOption virtualCameraSize = QCommandLineOption(
      "virtual-camera-size",
      QStringLiteral("The virtual camera's size, e.g. 1280x720 (even sides): the picture is scaled to fit, "
                     "aspect kept, on black bars; \"source\": the source's size (the default). Remembered."),
      QStringLiteral("WxH"));
  QCommandLineOption fpsLimit = QCommandLineOption(
      "fps-limit",
      QStringLiteral(
          "Process at most N frames a second, as Processing > Limit Frame Rate does (0: no limit)."),
      QStringLiteral("N"));
  QCommandLineOption flipOutput = QCommandLineOption(
      "flip-output",
      QStringLiteral("Flip what leaves the app left to right (--snapshot, saves, recordings, the virtual "
                     "camera), as View > Flip Output does, for this run; the preview is not flipped."));
  QCommandLineOption force = QCommandLineOption(
      "force",
      QStringLiteral("Let --snapshot, --stats and --compare replace files that exist (as convolab-cli "
                     "apply --force); without it an existing output ends the run at once, exit 3."));
};

void declare(QCommandLineParser& parser, const Options& o) {
  parser.setApplicationDescription(QStringLiteral(
      "ConvoLab: edit per-channel convolution filters and see them live, computed with OpenCL."));
  parser.addOptions({o.help, o.version, o.source, o.filter, o.strategy, o.device, o.frames, o.snapshot,
                     o.stats, o.compare, o.script, o.virtualCamera, o.virtualCameraSize, o.fpsLimit,
                     o.flipOutput});
  parser.addOption(o.force);
  parser.addPositionalArgument(QStringLiteral("source"), QStringLiteral("Same as --source."),
                               QStringLiteral("[SPEC]"));
}

ParsedCommandLine answer(int exitCode, QString message) {
  ParsedCommandLine result;
  result.exitCode = exitCode;
  result.message = std::move(message);
  return result;
}

// A line that does not parse, --help and --version: answered without a run.
std::optional<ParsedCommandLine> answerWithoutRun(QCommandLineParser& parser, const Options& o,
                                                  const QStringList& arguments) {
  if (!parser.parse(arguments))
    return answer(2, parser.errorText() + QStringLiteral("\n\n") + parser.helpText());
  if (parser.isSet(o.help)) return answer(0, parser.helpText());
  if (parser.isSet(o.version))
    return answer(0,
                  QStringLiteral("convolab ") + QCoreApplication::applicationVersion() + QLatin1Char('\n'));
  return std::nullopt;
}

// Each step reads some options into the LaunchOptions and checks them; an answer (an exit code and a
// message) ends the parse.
using Step = std::optional<ParsedCommandLine> (*)(const QCommandLineParser&, const Options&, LaunchOptions&);

std::optional<ParsedCommandLine> readValues(const QCommandLineParser& parser, const Options& opt,
                                            LaunchOptions& o) {
  o.source = parser.value(opt.source);
  if (o.source.isEmpty() && !parser.positionalArguments().isEmpty())
    o.source = parser.positionalArguments().first();
  if (parser.positionalArguments().size() > 1)
    return answer(2, QStringLiteral("Too many arguments: give one source.\n\n") + parser.helpText());
  o.filter = parser.value(opt.filter);
  o.strategy = parser.value(opt.strategy);
  o.device = parser.value(opt.device);
  o.snapshot = parser.value(opt.snapshot);
  o.stats = parser.value(opt.stats);
  o.compare = parser.value(opt.compare);
  o.script = parser.value(opt.script);
  o.virtualCamera = parser.isSet(opt.virtualCamera);
  o.virtualCameraSize = parser.value(opt.virtualCameraSize);
  o.flipOutput = parser.isSet(opt.flipOutput);
  return std::nullopt;
}

std::optional<ParsedCommandLine> checkVirtualCameraSize(const QCommandLineParser&, const Options&,
                                                        LaunchOptions& o) {
  if (int w = 0, h = 0; output::parseOutputSize(o.virtualCameraSize.toStdString(), w, h)) return std::nullopt;
  return answer(2, QStringLiteral("--virtual-camera-size: '%1' is not WxH with even sides (e.g. 1280x720) "
                                  "or 'source'\n")
                       .arg(o.virtualCameraSize));
}

std::optional<ParsedCommandLine> readFpsLimit(const QCommandLineParser& parser, const Options& opt,
                                              LaunchOptions& o) {
  if (!parser.isSet(opt.fpsLimit)) return std::nullopt;
  bool ok = false;
  o.fpsLimit = parser.value(opt.fpsLimit).toInt(&ok);
  if (ok && o.fpsLimit >= 0 && o.fpsLimit <= 1000) return std::nullopt;
  return answer(2, QStringLiteral("--fps-limit expects a whole number from 0 to 1000, got '%1'\n")
                       .arg(parser.value(opt.fpsLimit)));
}

std::optional<ParsedCommandLine> readScript(const QCommandLineParser&, const Options&, LaunchOptions& o) {
  if (o.script.isEmpty()) return std::nullopt;
  if (!o.compare.isEmpty())
    return answer(2,
                  QStringLiteral("--script and --compare do not go together: --compare opens no window\n"));
  try {
    o.editScript = std::make_shared<const EditScript>(parseEditScript(o.script.toStdString()));
  } catch (const std::exception& e) {
    return answer(2, QStringLiteral("convolab: %1\n").arg(QString::fromUtf8(e.what())));
  }
  return std::nullopt;
}

// The output rule (convolab/output_path.hpp): never a link, device, FIFO or folder, never an input. An
// existing file is never replaced silently (as the CLI): without --force it is refused before the run, not
// after it.
std::optional<ParsedCommandLine> checkOutputs(const QCommandLineParser& parser, const Options& opt,
                                              LaunchOptions& o) {
  o.force = parser.isSet(opt.force);
  const std::vector<std::filesystem::path> inputs{o.source.toStdString(), o.filter.toStdString(),
                                                  o.script.toStdString()};
  for (const QString* out : {&o.snapshot, &o.stats, &o.compare}) {
    try {
      if (!out->isEmpty()) checkOutputPath(out->toStdString(), /*overwrite=*/true, inputs);
    } catch (const std::exception& e) {
      return answer(3, QStringLiteral("convolab: %1\n").arg(QString::fromUtf8(e.what())));
    }
    const QFileInfo info(*out);
    if (o.force || out->isEmpty() || !(info.exists() || info.isSymLink())) continue;
    return answer(3, QStringLiteral("convolab: '%1' already exists; use --force to replace it\n").arg(*out));
  }
  return std::nullopt;
}

std::optional<ParsedCommandLine> readFrames(const QCommandLineParser& parser, const Options& opt,
                                            LaunchOptions& o) {
  if (!parser.isSet(opt.frames)) return std::nullopt;
  bool ok = false;
  o.frames = parser.value(opt.frames).toInt(&ok);
  if (ok && o.frames >= 1) return std::nullopt;
  return answer(
      2,
      QStringLiteral("--frames expects a positive whole number, got '%1'\n").arg(parser.value(opt.frames)));
}

}  // namespace

ParsedCommandLine parseCommandLine(const QStringList& arguments) {
  QCommandLineParser parser;
  const Options options;
  declare(parser, options);
  if (std::optional<ParsedCommandLine> early = answerWithoutRun(parser, options, arguments)) return *early;
  ParsedCommandLine result;
  for (const Step step :
       {readValues, checkVirtualCameraSize, readFpsLimit, readScript, checkOutputs, readFrames})
    if (std::optional<ParsedCommandLine> end = step(parser, options, result.options)) {
      end->options = std::move(result.options);  // what was read before the answer, as before
      return *end;
    }
  return result;
}

}  // namespace convolab::gui
