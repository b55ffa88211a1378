// SPDX-License-Identifier: MIT
// Command-line parsing with QCommandLineParser.
#include "command_line.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

#include "capture/source_spec.hpp"
#include "convolab/output_path.hpp"
#include "output/letterbox.hpp"

namespace convolab::gui {

ParsedCommandLine parseCommandLine(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral(
      "ConvoLab: edit per-channel convolution filters and see them live, computed with OpenCL."));
  const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
  const QCommandLineOption version(QStringList{"v", "version"}, QStringLiteral("Show the version."));
  const QCommandLineOption source(
      "source",
      QStringLiteral("Input: %1, 'sample' (bundled image) or 'auto' (camera if present, else the sample). "
                     "Default: the last one used.")
          .arg(QString::fromStdString(capture::sourceSpecSummary())),
      QStringLiteral("SPEC"));
  const QCommandLineOption filter("filter", QStringLiteral("Start with this JSON filter file."),
                                  QStringLiteral("FILE"));
  const QCommandLineOption strategy(
      "strategy", QStringLiteral("Convolution strategy (see convolab-cli strategies); default auto."),
      QStringLiteral("NAME"));
  const QCommandLineOption device(
      "device", QStringLiteral("OpenCL device: gpu, cpu, P:D or part of its name."), QStringLiteral("SPEC"));
  const QCommandLineOption frames("frames", QStringLiteral("Quit after N processed frames."),
                                  QStringLiteral("N"));
  const QCommandLineOption snapshot(
      "snapshot", QStringLiteral("On exit, save the last filtered frame (PNG)."), QStringLiteral("OUT.png"));
  const QCommandLineOption stats("stats", QStringLiteral("On exit, write statistics as JSON."),
                                 QStringLiteral("OUT.json"));
  const QCommandLineOption compare(
      "compare",
      QStringLiteral("Headless: run every strategy on the first frame, write the comparison as JSON, exit "
                     "(3: the report cannot be written)."),
      QStringLiteral("REPORT.json"));
  const QCommandLineOption script(
      "script",
      QStringLiteral(
          "Apply the timed edits of this JSON file as a user would (filter, cell, border, ksize, strategy; "
          "at_ms counts from the first frame shown) and measure edit -> screen. The run ends once the last "
          "edit is on screen (or 10 s after its time), writing --stats / --snapshot. Processing stays live, "
          "also with --frames. A bad script: exit 2."),
      QStringLiteral("FILE"));
  const QCommandLineOption virtualCamera(
      "virtual-camera",
      QStringLiteral("Publish the filtered picture as the PipeWire camera \"ConvoLab (filtered)\" (node "
                     "convolab), as Processing > Virtual Camera does."));
  const QCommandLineOption virtualCameraSize(
      "virtual-camera-size",
      QStringLiteral("The virtual camera's size, e.g. 1280x720 (even sides): the picture is scaled to fit, "
                     "aspect kept, on black bars; \"source\": the source's size (the default). Remembered."),
      QStringLiteral("WxH"));
  const QCommandLineOption fpsLimit(
      "fps-limit",
      QStringLiteral(
          "Process at most N frames a second, as Processing > Limit Frame Rate does (0: no limit)."),
      QStringLiteral("N"));
  const QCommandLineOption flipOutput(
      "flip-output",
      QStringLiteral("Flip what leaves the app left to right (--snapshot, saves, recordings, the virtual "
                     "camera), as View > Flip Output does, for this run; the preview is not flipped."));
  parser.addOptions({help, version, source, filter, strategy, device, frames, snapshot, stats, compare,
                     script, virtualCamera, virtualCameraSize, fpsLimit, flipOutput});
  const QCommandLineOption force(
      "force",
      QStringLiteral("Let --snapshot, --stats and --compare replace files that exist (as convolab-cli "
                     "apply --force); without it an existing output ends the run at once, exit 3."));
  parser.addOption(force);
  parser.addPositionalArgument(QStringLiteral("source"), QStringLiteral("Same as --source."),
                               QStringLiteral("[SPEC]"));

  ParsedCommandLine result;
  if (!parser.parse(arguments)) {
    result.exitCode = 2;
    result.message = parser.errorText() + QStringLiteral("\n\n") + parser.helpText();
    return result;
  }
  if (parser.isSet(help)) {
    result.exitCode = 0;
    result.message = parser.helpText();
    return result;
  }
  if (parser.isSet(version)) {
    result.exitCode = 0;
    result.message = QStringLiteral("convolab ") + QCoreApplication::applicationVersion() + QLatin1Char('\n');
    return result;
  }
  LaunchOptions& o = result.options;
  o.source = parser.value(source);
  if (o.source.isEmpty() && !parser.positionalArguments().isEmpty())
    o.source = parser.positionalArguments().first();
  if (parser.positionalArguments().size() > 1) {
    result.exitCode = 2;
    result.message = QStringLiteral("Too many arguments: give one source.\n\n") + parser.helpText();
    return result;
  }
  o.filter = parser.value(filter);
  o.strategy = parser.value(strategy);
  o.device = parser.value(device);
  o.snapshot = parser.value(snapshot);
  o.stats = parser.value(stats);
  o.compare = parser.value(compare);
  o.script = parser.value(script);
  o.virtualCamera = parser.isSet(virtualCamera);
  o.virtualCameraSize = parser.value(virtualCameraSize);
  o.flipOutput = parser.isSet(flipOutput);
  if (int w = 0, h = 0; !output::parseOutputSize(o.virtualCameraSize.toStdString(), w, h)) {
    result.exitCode = 2;
    result.message = QStringLiteral(
                         "--virtual-camera-size: '%1' is not WxH with even sides (e.g. 1280x720) "
                         "or 'source'\n")
                         .arg(o.virtualCameraSize);
    return result;
  }
  if (parser.isSet(fpsLimit)) {
    bool ok = false;
    o.fpsLimit = parser.value(fpsLimit).toInt(&ok);
    if (!ok || o.fpsLimit < 0 || o.fpsLimit > 1000) {
      result.exitCode = 2;
      result.message = QStringLiteral("--fps-limit expects a whole number from 0 to 1000, got '%1'\n")
                           .arg(parser.value(fpsLimit));
      return result;
    }
  }
  if (!o.script.isEmpty()) {
    if (!o.compare.isEmpty()) {
      result.exitCode = 2;
      result.message =
          QStringLiteral("--script and --compare do not go together: --compare opens no window\n");
      return result;
    }
    try {
      o.editScript = std::make_shared<const EditScript>(parseEditScript(o.script.toStdString()));
    } catch (const std::exception& e) {
      result.exitCode = 2;
      result.message = QStringLiteral("convolab: %1\n").arg(QString::fromUtf8(e.what()));
      return result;
    }
  }
  // An existing file is never replaced silently (as the CLI): refused before the run, not after it.
  o.force = parser.isSet(force);
  // The output rule (convolab/output_path.hpp): never a link, device, FIFO or folder, never an input.
  const std::vector<std::filesystem::path> inputs{o.source.toStdString(), o.filter.toStdString(),
                                                  o.script.toStdString()};
  for (const QString* out : {&o.snapshot, &o.stats, &o.compare}) {
    try {
      if (!out->isEmpty()) checkOutputPath(out->toStdString(), /*overwrite=*/true, inputs);
    } catch (const std::exception& e) {
      result.exitCode = 3;
      result.message = QStringLiteral("convolab: %1\n").arg(QString::fromUtf8(e.what()));
      return result;
    }
    const QFileInfo info(*out);
    if (o.force || out->isEmpty() || !(info.exists() || info.isSymLink())) continue;
    result.exitCode = 3;
    result.message = QStringLiteral("convolab: '%1' already exists; use --force to replace it\n").arg(*out);
    return result;
  }
  if (parser.isSet(frames)) {
    bool ok = false;
    o.frames = parser.value(frames).toInt(&ok);
    if (!ok || o.frames < 1) {
      result.exitCode = 2;
      result.message =
          QStringLiteral("--frames expects a positive whole number, got '%1'\n").arg(parser.value(frames));
      return result;
    }
  }
  return result;
}

}  // namespace convolab::gui
