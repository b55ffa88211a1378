// SPDX-License-Identifier: MIT
// VideoJob: decoder thread → device (FrameStream, pinned buffers, 3 frames in flight) → encoder thread.
// Frames stay in OpenCV's BGR order; the filter's channels are reversed instead of converting colours.
// The output is constant-rate at the input's nominal rate and as long as the input: the decoder places each
// frame at its timestamp (FrameTimeline), so a frame that lasts several intervals is written several times
// (filtered once), and of frames that fall in one interval the last is kept.
#include "video_job.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <exception>
#include <future>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <sstream>
#include <thread>

#include "bounded_queue.hpp"
#include "capture/frame_source.hpp"
#include "capture/video_reader.hpp"
#include "convolab/atomic_file.hpp"
#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/frame_stream.hpp"
#include "convolab/printable_path.hpp"
#include "convolab/progress.hpp"
#include "convolab/registry.hpp"
#include "cv/mat_adapter.hpp"
#include "frame_timeline.hpp"

namespace convolab::jobs {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kInFlight = 3;        // frames on the device at once
constexpr std::size_t kQueued = 4;  // decoded / filtered frames waiting between threads

/// Whether measuring auto's candidates repays itself within this job. A measured winner saves about 40% of
/// the provisional strategy's kernel time (PoCL, 1080p dense 7×7: dynamic 15 ms, codegen 9 ms); a measurement
/// costs up to its budget on a CPU device (compiles; 30 s) and about 3 s on a GPU. So a 120-frame 1080p video
/// (0.7 s to gain on PoCL) runs on the provisional strategy, and a two-hour one measures.
bool measuringRepays(const DeviceInfo& device, std::int64_t frames, double kernelMs) {
  const double costMs = device.isGpu ? 3000.0 : coreConfig().autoBudgetMs;
  return frames > 0 && 0.4 * static_cast<double>(frames) * kernelMs > costMs;
}

[[noreturn]] void bad(const fs::path& path, const std::string& what) {
  throw Error(ErrorKind::BadInput, "video '" + printablePath(path) + "': " + what);
}

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// The same filter for BGR frames: channel 0 of the frame is blue, so it gets the filter's channel 2.
FilterSet forBgr(const FilterSet& f) {
  const auto& c = f.channels();
  const auto& v = f.borderValue();
  return FilterSet::make({c[2], c[1], c[0]}, f.border(), {v[2], v[1], v[0]}, f.name());
}

/// Copies a decoded frame (the same size: checked by the decoder) into a device staging view.
void copyRows(const cv::Mat& src, const MutableImageView& dst) {
  cv::Mat view = opencv::asMat(dst);
  src.copyTo(view);
}

/// A Mat of its own for the encoder thread.
cv::Mat matCopy(const ImageView& v) {
  return opencv::asMat(v).clone();
}

/// A frame on its way through the job and how many times the encoder writes it.
struct TimedFrame {
  cv::Mat image;
  std::int64_t copies = 1;
};

bool stopping(const VideoJobOptions& o) {
  return o.stop && o.stop->load(std::memory_order_relaxed);
}

}  // namespace

std::string VideoJobResult::slowestStage() const {
  if (decodeMs >= deviceMs && decodeMs >= encodeMs) return "decode";
  return encodeMs >= deviceMs ? "encode" : "device";
}

std::string VideoJobResult::timingNote() const {
  const bool allDecoded = declaredFrames <= 0 || decodedFrames == declaredFrames;
  if (allDecoded && repeatedFrames == 0 && droppedFrames == 0) return {};
  std::ostringstream s;
  s << "decoded " << decodedFrames;
  if (declaredFrames > 0) s << " of " << declaredFrames << " declared";
  s << " frames";
  if (repeatedFrames > 0)
    s << "; " << repeatedFrames << " written again where the input's timestamps say a frame lasts longer";
  if (droppedFrames > 0)
    s << "; " << droppedFrames << " dropped (more than one frame within a frame interval)";
  if (cutFrames > 0)
    s << "; " << cutFrames << " frame intervals left out (the timestamps or the declared length say a frame "
      << "lasts over " << kMaxHoldSeconds << " s: the output is bounded by what was decoded)";
  return s.str();
}

std::optional<std::string> videoCodecFor(const fs::path& output) {
  std::string ext = output.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".mkv") return "FFV1";
  if (ext == ".avi") return "MJPG";
  if (ext == ".mp4" || ext == ".m4v" || ext == ".mov") return "mp4v";
  return std::nullopt;
}

VideoJobResult runVideoJob(const VideoJobOptions& o) {
  const auto t0 = Clock::now();
  VideoJobResult result;
  std::string codec = o.codec.empty() ? videoCodecFor(o.output).value_or("") : o.codec;
  if (codec.size() != 4)
    throw Error(ErrorKind::Usage, "cannot choose a video codec for '" + printablePath(o.output) +
                                      "': use .mkv (FFV1), .avi (MJPG) or .mp4 (mp4v), or --codec FOURCC");
  result.codec = codec;

  std::error_code ec;
  std::optional<capture::VideoReader> reader;
  try {
    reader.emplace(o.input);
  } catch (const capture::SourceError& e) {
    bad(o.input, e.what());
  } catch (const cv::Exception& e) {
    bad(o.input, std::string("cannot open: ") + e.what());
  }
  cv::Mat first;
  if (!reader->read(first) || first.empty()) bad(o.input, "no frame could be decoded");
  if (first.type() != CV_8UC3)
    bad(o.input, "decoded to an unexpected pixel type " + cv::typeToString(first.type()));
  result.width = first.cols;
  result.height = first.rows;
  result.fps = reader->info().nominalFps;
  if (!(result.fps > 0 && result.fps < 1000)) result.fps = 25;
  result.declaredFrames = reader->info().declaredFrames;
  FrameTimeline timeline(result.fps, result.declaredFrames);
  const std::int64_t total = result.declaredFrames;
  if (o.note)
    o.note("'" + printablePath(o.input) +
           "': the audio, if any, is not kept (ConvoLab writes the video only)");

  // The output: a temporary with the target's extension (the writer picks the container from it).
  AtomicFile file(o.output, o.overwrite);
  cv::VideoWriter writer;
  const int fourcc = cv::VideoWriter::fourcc(codec[0], codec[1], codec[2], codec[3]);
  const cv::Size size(result.width, result.height);
  // OpenCV's FFmpeg writer cuts odd sizes to even ones (every codec it offers, FFV1 included): an odd-sized
  // video is padded by one column / row repeating its neighbour instead, so no pixel is lost, and said.
  const cv::Size outSize((size.width + 1) & ~1, (size.height + 1) & ~1);
  if (outSize != size && o.note)
    o.note("'" + printablePath(o.input) + "' is " + std::to_string(size.width) + "x" +
           std::to_string(size.height) + ": written as " + std::to_string(outSize.width) + "x" +
           std::to_string(outSize.height) +
           " (OpenCV's video writer needs even sizes), the last column or row repeated");
  try {
    if (!writer.open(file.temporaryPath().string(), cv::CAP_FFMPEG, fourcc, result.fps, outSize, true))
      writer.open(file.temporaryPath().string(), cv::CAP_ANY, fourcc, result.fps, outSize, true);
  } catch (const cv::Exception& e) {
    throw Error(ErrorKind::BadInput, "cannot write video '" + printablePath(o.output) + "': " + e.what());
  }
  if (!writer.isOpened())
    throw Error(ErrorKind::BadInput, "cannot write video '" + printablePath(o.output) + "' with codec " +
                                         codec + " (try another --codec or extension)");

  // The device: the engine runs the first frame (it resolves `auto` and falls back when a strategy cannot
  // run), then a FrameStream of the strategy that ran pipelines the rest.
  const FilterSet filter = forBgr(o.filter);
  Engine engine(o.context, o.strategy);
  engine.setFilter(filter);
  std::unique_ptr<FrameStream> stream;
  // auto's measurement for a job long enough to repay it, on its own thread and queue; the stream switches
  // to the winner between frames. Declared before the future: it outlives it (the future's end waits).
  std::atomic<bool> measurementCancelled{false};
  std::future<AutoChoice> measurement;

  BoundedQueue<TimedFrame> decoded(kQueued), filtered(kQueued);
  std::exception_ptr decodeError, encodeError;
  double decodeBusy = 0, encodeBusy = 0, deviceBusy = 0;
  std::atomic<std::int64_t> written{0};
  std::atomic<bool> encodeFailed{false};
  std::atomic<bool> cutShort{false};  // the encoder stopped inside a frame's repeats at a signal

  // Each frame is held until the next one's time says how long it lasts; frames that last no interval
  // (several within one) are dropped here, before the device.
  std::thread decoder([&] {
    try {
      cv::Mat held = std::move(first);
      timeline.start(reader->timestampMs());
      for (;;) {
        const auto t = Clock::now();
        cv::Mat frame;
        const bool more = reader->read(frame);
        decodeBusy += msSince(t);
        if (more && (frame.size() != size || frame.type() != CV_8UC3))
          bad(o.input, "the frame size changes mid-video");
        const std::int64_t copies = more ? timeline.next(reader->timestampMs()) : timeline.finish();
        if (copies > 0 && !decoded.push({std::move(held), copies})) return;
        if (!more) break;
        held = std::move(frame);
      }
    } catch (const capture::SourceError& e) {  // e.g. the frame size changed
      decodeError = std::make_exception_ptr(
          Error(ErrorKind::BadInput, "video '" + printablePath(o.input) + "': " + e.what()));
    } catch (...) {
      decodeError = std::current_exception();
    }
    decoded.close();
  });
  std::thread encoder([&] {
    try {
      while (auto frame = filtered.pop()) {
        if (outSize != size)
          cv::copyMakeBorder(frame->image, frame->image, 0, outSize.height - size.height, 0,
                             outSize.width - size.width, cv::BORDER_REPLICATE);
        std::int64_t k = 0;
        for (; k < frame->copies && !stopping(o); ++k) {  // a repeat stops at a signal too
          const auto t = Clock::now();
          writer.write(frame->image);
          encodeBusy += msSince(t);
          const std::int64_t n = ++written;
          if (o.progress) o.progress(n, total);
        }
        if (k < frame->copies) cutShort = true;  // frames left unwritten: the file must not be kept
      }
    } catch (...) {
      encodeError = std::current_exception();
      encodeFailed = true;
      filtered.abort();
      decoded.abort();
    }
  });

  auto stopThreads = [&] {
    measurementCancelled = true;
    decoded.abort();
    filtered.abort();
    if (decoder.joinable()) decoder.join();
    if (encoder.joinable()) encoder.join();
  };
  try {
    std::deque<std::pair<int, std::int64_t>> inFlight;  // stream slot, copies
    auto drainOne = [&] {
      const auto t = Clock::now();
      cv::Mat out = matCopy(stream->wait(inFlight.front().first));
      deviceBusy += msSince(t);
      filtered.push({std::move(out), inFlight.front().second});
      inFlight.pop_front();
    };
    bool firstFrame = true;
    while (auto frame = decoded.pop()) {
      if (stopping(o) || encodeFailed) break;
      const auto t = Clock::now();
      if (firstFrame || !stream) {
        const MutableImageView in = engine.stagingInput(size.width, size.height);
        const MutableImageView out = engine.stagingOutput(size.width, size.height);
        copyRows(frame->image, in);
        const FrameTimings firstTimings = engine.process(in, out);
        for (const auto& n : engine.takeNotices())
          if (o.note) o.note(n);
        cv::Mat done = matCopy(out);
        deviceBusy += msSince(t);
        filtered.push({std::move(done), frame->copies});
        if (firstFrame) {
          firstFrame = false;
          const StrategyId active = engine.activeStrategyId();
          result.strategy = active.toString();
          try {
            stream =
                std::make_unique<FrameStream>(o.context, active, filter, size.width, size.height, kInFlight);
          } catch (const std::exception& e) {
            if (o.note) o.note(std::string("frames go one at a time (no pipelining): ") + e.what());
          }
          const bool stored =
              AutoChoiceCache::instance()
                  .find(o.context->programCache(), autoChoiceKey(*o.context, filter, size.width, size.height))
                  .has_value();
          if (stream && o.strategy == kAutoStrategy && !stored &&
              measuringRepays(o.context->device(), total, firstTimings.kernelMs)) {
            if (o.note) o.note("auto: measuring the strategies while the video runs on " + result.strategy);
            measurement = std::async(
                std::launch::async, [ctx = o.context->sibling(), filter, size, &measurementCancelled] {
                  setThreadCancelCheck([&measurementCancelled] { return measurementCancelled.load(); });
                  return measureAutoChoice(*ctx, filter, size.width, size.height, strategyCandidates());
                });
          }
        }
        continue;
      }
      if (measurement.valid() && measurement.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        // Between frames: the frames in flight finish on the old stream, the rest run on the winner.
        const AutoChoice winner = measurement.get();
        const StrategyId next(winner.strategy, winner.variant, true);
        if (next.toString() != result.strategy) {
          while (!inFlight.empty()) drainOne();
          stream->finish();
          stream = std::make_unique<FrameStream>(o.context, next, filter, size.width, size.height, kInFlight);
          result.strategy += " -> " + next.toString();
          if (o.note) o.note("auto: switched to " + next.toString() + " between frames");
        }
      }
      copyRows(frame->image, stream->nextInput());
      inFlight.emplace_back(stream->submit(), frame->copies);
      deviceBusy += msSince(t);
      if (static_cast<int>(inFlight.size()) == kInFlight) drainOne();
    }
    while (!inFlight.empty() && !stopping(o) && !encodeFailed) drainOne();
    if (stream) stream->finish();
    measurementCancelled = true;  // the video is done: a measurement still running has nothing to repay
  } catch (...) {
    stopThreads();
    throw;
  }
  // A stopped job keeps no file: it lacks frames.
  auto stoppedResult = [&] {
    writer.release();
    file.discard();
    result.stopped = true;
    result.frames = written;
    result.seconds = msSince(t0) / 1000;
    return result;
  };
  if (stopping(o)) {
    stopThreads();
    return stoppedResult();
  }
  filtered.close();
  encoder.join();
  decoder.join();
  if (cutShort) return stoppedResult();  // a stop came while the encoder wrote the last frames
  if (decodeError) std::rethrow_exception(decodeError);
  if (encodeError) std::rethrow_exception(encodeError);
  writer.release();
  if (fs::file_size(file.temporaryPath(), ec) == 0 || ec)
    throw Error(ErrorKind::BadInput,
                "cannot write video '" + printablePath(o.output) + "': the encoder wrote nothing");
  // Report the size the file holds, read back from it, never the one asked for.
  try {
    capture::VideoReader check(file.temporaryPath());
    result.width = check.info().width;
    result.height = check.info().height;
  } catch (const capture::SourceError& e) {
    throw Error(ErrorKind::BadInput, "cannot write video '" + printablePath(o.output) +
                                         "': the encoder's output does not read back (" + e.what() + ")");
  }
  file.commit();

  result.frames = written;
  result.decodedFrames = timeline.decoded();
  result.repeatedFrames = timeline.repeated();
  result.droppedFrames = timeline.dropped();
  result.cutFrames = timeline.cut();
  result.seconds = msSince(t0) / 1000;
  if (result.strategy.empty()) result.strategy = engine.activeStrategy();
  if (result.frames > 0) {  // decode and device work once per decoded frame, encode once per written frame
    const double filteredFrames =
        static_cast<double>(std::max<std::int64_t>(1, result.decodedFrames - result.droppedFrames));
    result.decodeMs = decodeBusy / static_cast<double>(std::max<std::int64_t>(1, result.decodedFrames));
    result.deviceMs = deviceBusy / filteredFrames;
    result.encodeMs = encodeBusy / static_cast<double>(result.frames);
  }
  return result;
}

}  // namespace convolab::jobs
