// SPDX-License-Identifier: MIT
// VideoJob: decoder thread → device (VideoDeviceStage: FrameStream, pinned buffers, frames in flight) →
// encoder thread. The output is constant-rate at the input's nominal rate and as long as the input: the
// decoder places each frame at its timestamp (FrameTimeline), so a frame that lasts several intervals is
// written several times (filtered once), and of frames that fall in one interval the last is kept.
#include "video_job.hpp"

#include <algorithm>

#include "capture/even_size_video_writer.hpp"
#include "capture/frame_source.hpp"
#include "capture/video_reader.hpp"
#include "convolab/atomic_file.hpp"
#include "convolab/error.hpp"
#include "convolab/printable_path.hpp"
#include "elapsed_ms.hpp"
#include "frame_timeline.hpp"
#include "mat_recycler.hpp"
#include "video_device_stage.hpp"

namespace convolab::jobs {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kQueued = 4;  // decoded / filtered frames waiting between threads

[[noreturn]] void bad(const fs::path& path, const std::string& what) {
  throw Error(ErrorKind::BadInput, "video '" + printablePath(path) + "': " + what);
}

std::string sizeText(cv::Size s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

}  // namespace

std::size_t decodeAheadFrames(cv::Size size) {
  constexpr double kBytes = 192.0 * 1024 * 1024;
  const double frameBytes = std::max(1.0, 3.0 * size.width * size.height);
  return std::clamp<std::size_t>(static_cast<std::size_t>(kBytes / frameBytes), kQueued, 64);
}

VideoJob::VideoJob(VideoJobOptions options)
    : m_options(std::move(options)), m_decoded(kQueued), m_filtered(kQueued) {}

VideoJob::~VideoJob() {
  stopThreads();
}

VideoJobResult VideoJob::run() {
  m_started = Clock::now();
  chooseCodec();
  openInput();
  openOutput();
  m_device = std::make_unique<VideoDeviceStage>(m_options, m_size, m_result.declaredFrames, m_filtered);
  m_decoder = std::thread([this] { decodeLoop(); });
  m_encoder = std::thread([this] { encodeLoop(); });
  try {
    deviceLoop();
  } catch (...) {
    stopThreads();
    throw;
  }
  if (m_options.stopping()) {
    stopThreads();
    return stoppedResult();
  }
  m_filtered.close();
  m_encoder.join();
  m_decoder.join();
  if (m_cutShort) return stoppedResult();  // a stop came while the encoder wrote the last frames
  if (m_decodeError) std::rethrow_exception(m_decodeError);
  if (m_encodeError) std::rethrow_exception(m_encodeError);
  checkAndCommitOutput();
  return finishedResult();
}

void VideoJob::chooseCodec() {
  const std::string codec =
      m_options.codec.empty() ? videoCodecFor(m_options.output).value_or("") : m_options.codec;
  if (codec.size() != 4)
    throw Error(ErrorKind::Usage, "cannot choose a video codec for '" + printablePath(m_options.output) +
                                      "': use .mkv (FFV1), .avi (MJPG) or .mp4 (mp4v), or --codec FOURCC");
  m_result.codec = codec;
}

/// Opens the reader and decodes the first frame: it says the size the whole video must keep.
void VideoJob::openInput() {
  const fs::path& input = m_options.input;
  try {
    m_reader = std::make_unique<capture::VideoReader>(input);
    // The first read may already refuse the file: the reader checks the frame size ahead of the decoder.
    if (!m_reader->read(m_first) || m_first.empty()) bad(input, "no frame could be decoded");
  } catch (const capture::SourceError& e) {
    bad(input, e.what());
  } catch (const cv::Exception& e) {
    bad(input, std::string("cannot open: ") + e.what());
  }
  if (m_first.type() != CV_8UC3)
    bad(input, "decoded to an unexpected pixel type " + cv::typeToString(m_first.type()));
  m_size = m_first.size();
  m_decoded.setCapacity(decodeAheadFrames(m_size));
  m_result.width = m_size.width;
  m_result.height = m_size.height;
  m_result.fps = m_reader->info().nominalFps;
  if (!(m_result.fps > 0 && m_result.fps < 1000)) m_result.fps = 25;
  m_result.declaredFrames = m_reader->info().declaredFrames;
  m_timeline = std::make_unique<FrameTimeline>(m_result.fps, m_result.declaredFrames);
  m_options.tell("'" + printablePath(input) +
                 "': the audio, if any, is not kept (ConvoLab writes the video only)");
}

/// A temporary with the target's extension (the writer picks the container from it), committed at the end.
void VideoJob::openOutput() {
  m_file = std::make_unique<AtomicFile>(m_options.output, m_options.overwrite);
  m_writer = std::make_unique<capture::EvenSizeVideoWriter>();
  const cv::Size written = capture::EvenSizeVideoWriter::evenSize(m_size);
  if (written != m_size)
    m_options.tell("'" + printablePath(m_options.input) + "' is " + sizeText(m_size) + ": written as " +
                   sizeText(written) +
                   " (OpenCV's video writer needs even sizes), the last column or row repeated");
  const std::string cannot = "cannot write video '" + printablePath(m_options.output) + "'";
  bool opened = false;
  try {
    opened = m_writer->open(m_file->temporaryPath(), m_result.codec, m_result.fps, m_size,
                            {cv::CAP_FFMPEG, cv::CAP_ANY});
  } catch (const cv::Exception& e) {
    throw Error(ErrorKind::BadInput, cannot + ": " + e.what());
  }
  if (!opened)
    throw Error(ErrorKind::BadInput,
                cannot + " with codec " + m_result.codec + " (try another --codec or extension)");
}

/// Each frame is held until the next one's time says how long it lasts; frames that last no interval
/// (several within one) are dropped here, before the device.
void VideoJob::decodeLoop() {
  try {
    cv::Mat held = std::move(m_first);
    const double firstMs = m_reader->timestampMs();
    double heldMs = firstMs;
    m_timeline->start(firstMs);
    MatRecycler buffers(decodeAheadFrames(m_size) + 4);  // the queue, the held frame, the device's, this one
    for (;;) {
      const auto t = Clock::now();
      cv::Mat frame = buffers.take(m_size, CV_8UC3);
      const bool more = m_reader->read(frame);
      m_decodeBusyMs += msSince(t);
      if (more && (frame.size() != m_size || frame.type() != CV_8UC3))
        bad(m_options.input, "the frame size changes mid-video");
      const double ms = more ? m_reader->timestampMs() : heldMs;
      const std::int64_t copies = more ? m_timeline->next(ms) : m_timeline->finish();
      if (copies > 0 && !m_decoded.push({std::move(held), copies, (heldMs - firstMs) / 1000})) return;
      if (!more) break;
      held = std::move(frame);
      heldMs = ms;
    }
  } catch (const capture::SourceError& e) {  // e.g. the frame size changed
    m_decodeError = std::make_exception_ptr(
        Error(ErrorKind::BadInput, "video '" + printablePath(m_options.input) + "': " + e.what()));
  } catch (...) {
    m_decodeError = std::current_exception();
  }
  m_decoded.close();
}

void VideoJob::encodeLoop() {
  try {
    while (auto frame = m_filtered.pop()) {
      const cv::Mat image = m_writer->padded(std::move(frame->image));  // once for all its copies
      std::int64_t k = 0;
      for (; k < frame->copies && !m_options.stopping(); ++k) {  // a repeat stops at a signal too
        const auto t = Clock::now();
        m_writer->write(image);
        m_encodeBusyMs += msSince(t);
        const std::int64_t n = ++m_written;
        if (m_options.progress) m_options.progress(n, m_result.declaredFrames);
      }
      if (k < frame->copies) m_cutShort = true;  // frames left unwritten: the file must not be kept
    }
  } catch (...) {
    m_encodeError = std::current_exception();
    m_encodeFailed = true;
    m_filtered.abort();
    m_decoded.abort();
  }
}

void VideoJob::deviceLoop() {
  while (auto frame = m_decoded.pop()) {
    if (m_options.stopping() || m_encodeFailed) break;
    m_device->process(*frame);
  }
  m_device->finish([this] { return !m_options.stopping() && !m_encodeFailed; });
}

void VideoJob::stopThreads() {
  if (m_device) m_device->cancelMeasurement();
  m_decoded.abort();
  m_filtered.abort();
  if (m_decoder.joinable()) m_decoder.join();
  if (m_encoder.joinable()) m_encoder.join();
}

/// A stopped job keeps no file: it lacks frames.
VideoJobResult VideoJob::stoppedResult() {
  m_writer->release();
  m_file->discard();
  m_result.stopped = true;
  m_result.frames = m_written;
  m_result.seconds = msSince(m_started) / 1000;
  return m_result;
}

/// Closes the file, checks that it holds a video, reports the size it holds (read back from it, never the one
/// asked for) and moves it into place.
void VideoJob::checkAndCommitOutput() {
  m_writer->release();
  const std::string cannot = "cannot write video '" + printablePath(m_options.output) + "'";
  std::error_code ec;
  if (fs::file_size(m_file->temporaryPath(), ec) == 0 || ec)
    throw Error(ErrorKind::BadInput, cannot + ": the encoder wrote nothing");
  try {
    capture::VideoReader check(m_file->temporaryPath());
    m_result.width = check.info().width;
    m_result.height = check.info().height;
  } catch (const capture::SourceError& e) {
    throw Error(ErrorKind::BadInput, cannot + ": the encoder's output does not read back (" + e.what() + ")");
  }
  m_file->commit();
}

VideoJobResult VideoJob::finishedResult() {
  VideoJobResult& r = m_result;
  r.frames = m_written;
  r.decodedFrames = m_timeline->decoded();
  r.repeatedFrames = m_timeline->repeated();
  r.droppedFrames = m_timeline->dropped();
  r.cutFrames = m_timeline->cut();
  r.seconds = msSince(m_started) / 1000;
  r.strategy = m_device->strategy();
  if (r.frames > 0) {  // decode and device work once per decoded frame, encode once per written frame
    const double filteredFrames =
        static_cast<double>(std::max<std::int64_t>(1, r.decodedFrames - r.droppedFrames));
    r.decodeMs = m_decodeBusyMs / static_cast<double>(std::max<std::int64_t>(1, r.decodedFrames));
    r.deviceMs = m_device->busyMs() / filteredFrames;
    r.encodeMs = m_encodeBusyMs / static_cast<double>(r.frames);
  }
  return r;
}

VideoJobResult runVideoJob(const VideoJobOptions& options) {
  return VideoJob(options).run();
}

}  // namespace convolab::jobs
