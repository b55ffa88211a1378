// SPDX-License-Identifier: MIT
// ImageBatch: a shared index of files, one Engine and thread per device context.
#include "image_batch.hpp"

#include <CL/opencl.hpp>
#include <filesystem>
#include <mutex>
#include <new>
#include <opencv2/core.hpp>
#include <sstream>
#include <thread>

#include "convolab/atomic_file.hpp"
#include "convolab/border.hpp"
#include "convolab/engine.hpp"
#include "convolab/printable_path.hpp"
#include "cv/image_codec.hpp"

namespace convolab::cli {
namespace {

/// The input image, refused over --max-pixels in the CLI's words (the limit named by its option), and when
/// damaged unless `acceptDamaged` (a damaged file is a bad input: its missing rows would be filtered as
/// grey).
Image readInput(const std::filesystem::path& path, std::int64_t maxPixels, bool acceptDamaged,
                opencv::DecodeReport& report) {
  const std::string label = "image '" + printablePath(path) + "'";
  try {
    Image image = opencv::loadImage(path, maxPixels, label, &report);
    if (report.damaged && !acceptDamaged)
      throw Error(ErrorKind::BadInput, label + ": " + report.damageMessage() +
                                           "; nothing written (--accept-damaged filters what was decoded)");
    return image;
  } catch (const opencv::ImageTooLarge& e) {
    throw Error(ErrorKind::BadInput,
                label + ": " + std::to_string(e.width()) + "x" + std::to_string(e.height()) +
                    (e.fromHeader() ? " (from its header)" : "") + " is larger than the limit of " +
                    std::to_string(e.maxPixels()) + " pixels (see --max-pixels)");
  }
}

/// `result` in the format of `output`'s extension; a failure names the file.
std::string encodeFor(const Image& result, const std::filesystem::path& output) {
  try {
    return opencv::encodeImage(result, output.extension().string());
  } catch (const Error& e) {
    throw Error(ErrorKind::BadInput, "'" + printablePath(output) + "': " + e.what());
  }
}

bool stopping(const ImageBatchOptions& o) {
  return o.stop && o.stop->load(std::memory_order_relaxed);
}

ItemOutcome runOne(const BatchItem& item, const ImageBatchOptions& o, Engine& engine,
                   std::atomic<bool>& alphaNoted) {
  ItemOutcome r;
  std::error_code ec;
  if (std::filesystem::exists(item.output, ec) || std::filesystem::is_symlink(item.output, ec)) {
    if (o.skipExisting) {
      r.status = ItemOutcome::Status::Skipped;
      r.message = "skipped " + printablePath(item.output) + " (exists)";
      return r;
    }
    if (!o.overwrite)
      throw Error(ErrorKind::BadInput,
                  "'" + printablePath(item.output) +
                      "' already exists; use --force to replace it or --skip-existing to skip it");
  }
  if (!opencv::canWriteImageFormat(item.output))
    throw Error(ErrorKind::Usage, "cannot write '" + printablePath(item.output) +
                                      "': unsupported output format '" +
                                      printablePath(item.output.extension()) + "'");
  opencv::DecodeReport decoded;
  const Image input = readInput(item.input, o.maxPixels, o.acceptDamaged, decoded);
  Image result(input.width, input.height);
  const FrameTimings t = engine.process(input.view(), result.mutableView());
  const std::string bytes = encodeFor(result, item.output);
  AtomicFile file(item.output, o.overwrite);
  file.write(bytes);
  if (stopping(o)) return r;  // NotRun; the temporary goes with `file`
  file.commit();
  std::ostringstream line;
  line << "wrote " << printablePath(item.output) << " (" << input.width << "x" << input.height;
  if (o.chain) {  // the strategy's note names what each step ran
    const std::size_t steps = o.chain->enabledSteps().size();
    line << ", chain '" << (o.chain->name().empty() ? std::string("custom") : o.chain->name()) << "' of "
         << steps << (steps == 1 ? " step" : " steps") << ", strategy " << t.strategy.describe();
  } else {
    line << ", filter '" << (o.filter.name().empty() ? std::string("custom") : o.filter.name())
         << "', border " << borderName(o.filter.border()) << ", strategy " << t.strategy.toString();
  }
  line << " on " << engine.context().device().name << ", kernel " << t.kernelMs << " ms)";
  if (decoded.damaged) line << "\n  note: " << decoded.damageMessage() << "; filtered as decoded";
  // Once a run: a folder of RGBA images would otherwise repeat it for every file.
  if (decoded.alphaDropped && !alphaNoted.exchange(true))
    line << "\n  note: " << printablePath(item.input) << ": " << decoded.alphaMessage()
         << " (said once; other files may have one too)";
  r.status = ItemOutcome::Status::Written;
  r.message = line.str();
  return r;
}

}  // namespace

std::vector<ItemOutcome> runImageBatch(const std::vector<BatchItem>& items, const ImageBatchOptions& o,
                                       const std::function<void(std::size_t, const ItemOutcome&)>& done) {
  std::vector<ItemOutcome> outcomes(items.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> alphaNoted{false};
  std::mutex doneMutex;
  auto worker = [&](const std::shared_ptr<Context>& context) {
    std::unique_ptr<Engine> engine;
    for (std::size_t i = next++; i < items.size(); i = next++) {
      if (stopping(o)) return;
      ItemOutcome r;
      try {
        if (!engine) {
          engine = std::make_unique<Engine>(context, o.strategy);
          engine->setFrameTime(0.0);  // a custom step's `time` on a still: the same output every run
          if (o.chain)
            engine->setChain(*o.chain);
          else
            engine->setFilter(o.filter);
        }
        r = runOne(items[i], o, *engine, alphaNoted);
        for (const auto& n : engine->takeNotices()) r.message += "\n  note: " + n;
      } catch (const Error& e) {
        r = {ItemOutcome::Status::Failed, e.what(), e.kind()};
      } catch (const cl::Error& e) {
        r = {ItemOutcome::Status::Failed, ClError(e.what(), e.err()).what(), ErrorKind::Device};
      } catch (const cv::Exception& e) {
        r = {ItemOutcome::Status::Failed, "'" + printablePath(items[i].input) + "': OpenCV: " + e.what(),
             ErrorKind::BadInput};
      } catch (const std::bad_alloc&) {
        r = {ItemOutcome::Status::Failed, "'" + printablePath(items[i].input) + "': out of memory",
             ErrorKind::BadInput};
      }
      if (r.status == ItemOutcome::Status::NotRun) return;  // stopped
      std::lock_guard lock(doneMutex);
      outcomes[i] = r;
      if (done) done(i, r);
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t d = 1; d < o.contexts.size(); ++d) threads.emplace_back(worker, o.contexts[d]);
  worker(o.contexts.front());
  for (auto& t : threads) t.join();
  return outcomes;
}

}  // namespace convolab::cli
