// `apply`: convolve one image file with a filter file through the Engine and write the result atomically.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "convolab/border.hpp"
#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/registry.hpp"
#include "image_io.hpp"

namespace convolab::cli {
namespace {

namespace fs = std::filesystem;

struct ApplyOptions {
  std::string filter;
  std::string border;
  std::string strategy = "auto";
  std::string device;
  std::string input;
  std::string output;
  bool force = false;
  bool quiet = false;
  std::int64_t maxPixels = kDefaultMaxPixels;
};

std::vector<std::string> borderNames() {
  std::vector<std::string> names;
  for (BorderMode m : kAllBorderModes) names.emplace_back(borderName(m));
  return names;
}

int runApply(const ApplyOptions& o) {
  const fs::path output(o.output);
  // Everything that can be checked without work is checked first, so a bad command costs nothing.
  if (!canWriteImageFormat(output))
    throw Error(ErrorKind::Usage, "cannot write '" + o.output + "': unsupported output format '" +
                                      output.extension().string() +
                                      "' (use .png, .jpg, .bmp, .tif, .ppm, ...)");
  std::error_code ec;
  const fs::path folder = output.has_parent_path() ? output.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec))
    throw Error(ErrorKind::BadInput,
                "cannot write '" + o.output + "': folder '" + folder.string() + "' does not exist");
  if (!o.force && fs::exists(output, ec))
    throw Error(ErrorKind::BadInput, "'" + o.output + "' already exists; use --force to replace it");

  FilterSet filter = loadFilterFile(o.filter);
  if (!o.border.empty()) filter = filter.withBorder(*parseBorder(o.border));
  const Image input = readImageFile(o.input, o.maxPixels);

  auto context = std::make_shared<Context>(o.device);
  Engine engine(context, o.strategy);
  engine.setFilter(filter);
  Image result(input.width, input.height);
  const FrameTimings t = engine.process(input.view(), result.mutableView());
  for (const auto& n : engine.takeNotices()) printNote(n);

  writeFileAtomically(output, encodeImage(result, output), o.force);
  if (!o.quiet)
    std::cout << "wrote " << o.output << " (" << input.width << "x" << input.height << ", filter '"
              << (filter.name().empty() ? o.filter : filter.name()) << "', border "
              << borderName(filter.border()) << ", strategy " << t.strategy << " on "
              << context->device().name << ", kernel " << t.kernelMs << " ms)\n";
  return kExitOk;
}

}  // namespace

void addApplyCommand(CLI::App& app, Action& action) {
  auto o = std::make_shared<ApplyOptions>();
  CLI::App* cmd =
      app.add_subcommand("apply", "Convolve an image file with a filter file and write the result.");
  cmd->add_option("INPUT", o->input, "Image to read (any format OpenCV reads)")->required();
  cmd->add_option("-o,--output", o->output, "Image to write; the extension picks the format")->required();
  cmd->add_option("-f,--filter", o->filter, "Filter file (.json, see docs/FILTER_FORMAT.md)")->required();
  cmd->add_option("-b,--border", o->border, "Override the filter's border mode")
      ->check(CLI::IsMember(borderNames()));
  cmd->add_option("-s,--strategy", o->strategy, "Convolution strategy (see `strategies`)")
      ->capture_default_str()
      ->check(CLI::IsMember(strategyNames()));
  cmd->add_option("-d,--device", o->device,
                  "OpenCL device: gpu, cpu, P:D or a name substring (see `devices`)");
  cmd->add_flag("--force", o->force, "Replace OUTPUT if it exists");
  cmd->add_option("--max-pixels", o->maxPixels, "Refuse larger images")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_flag("-q,--quiet", o->quiet, "Print nothing on success");
  cmd->callback([o, &action] { action = [o] { return runApply(*o); }; });
}

}  // namespace convolab::cli
