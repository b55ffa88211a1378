// SPDX-License-Identifier: MIT
#include "pipewire_camera_source.hpp"

#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

#include "image_pool.hpp"
#include "pipewire/connection.hpp"
#include "pipewire/format_negotiation.hpp"
#include "pipewire/frame_conversion.hpp"
#include "pipewire/idle_node.hpp"

namespace convolab::capture {

using pipewire::NegotiatedFormat;
using pipewire::VideoFormat;

namespace {

constexpr auto kFrameTimeout = std::chrono::seconds(2);
// How often the reader starts a graph cycle when it drives a program's camera (issue 34.2): above the rate of
// any camera it reads, so a 60 fps producer waits at most one period (8 ms) for its cycle.
constexpr auto kDrivePeriod = std::chrono::microseconds(8333);

}  // namespace

std::string pipewireNodeName(const std::string& spec) {
  const std::string prefix = "pipewire:";
  return spec.rfind(prefix, 0) == 0 ? spec.substr(prefix.size()) : std::string();
}

// One connection to the node; everything in the callbacks runs on its PipeWire thread.
struct PipeWireCameraSource::Stream {
  pipewire::Connection connection{"convolab-pw-camera"};
  pw_stream* stream = nullptr;
  spa_hook streamListener{};
  ImagePool pool;    // the PipeWire thread's: frames are decoded straight into the pipeline's staging
  std::mutex mutex;  // guards the fields below, shared with read()
  std::optional<NegotiatedFormat>
      format;  // written on the PipeWire thread, read there and by deliveredMode()
  std::condition_variable arrived;
  std::shared_ptr<Image> newest;
  bool gone = false;  // the node went away (unlinked, error)
  bool streamed = false;
  spa_source* driveTimer = nullptr;  // when this reader drives the graph (a program's camera)

  explicit Stream(StorageProvider storage) : pool(std::move(storage)) {}

  // A program's camera such as GStreamer's pipewiresink mode=provide drives its own graph cycles and starts
  // one only after it has sent a frame; its wait for a free buffer misses a wake-up now and then, and it then
  // never sends again (issue 34.2). Driven by the reader, it is called every cycle and recovers.
  void startDriving() {
    driveTimer = pw_loop_add_timer(connection.loop(), &Stream::onDriveTick, this);
    timespec period{0, std::chrono::nanoseconds(kDrivePeriod).count()};
    pw_loop_update_timer(connection.loop(), driveTimer, &period, &period, false);
  }
  static void onDriveTick(void* data, std::uint64_t) {
    auto* self = static_cast<Stream*>(data);
    if (self->stream && pw_stream_is_driving(self->stream)) pw_stream_trigger_process(self->stream);
  }

  static void onParamChanged(void* data, std::uint32_t id, const spa_pod* param) {
    if (id != SPA_PARAM_Format) return;
    auto* self = static_cast<Stream*>(data);
    const auto chosen = pipewire::parseChosenFormat(param);
    if (chosen && chosen->format == VideoFormat::MJPG) {
      std::uint8_t buffer[512];
      spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
      const spa_pod* params[] = {pipewire::buildMjpgBufferRequest(&b, chosen->width, chosen->height)};
      pw_stream_update_params(self->stream, params, 1);
    }
    std::lock_guard lock(self->mutex);
    self->format = chosen;
  }
  static void onStateChanged(void* data, pw_stream_state, pw_stream_state state, const char*) {
    auto* self = static_cast<Stream*>(data);
    std::lock_guard lock(self->mutex);
    if (state == PW_STREAM_STATE_STREAMING) self->streamed = true;
    if (state == PW_STREAM_STATE_ERROR || state == PW_STREAM_STATE_UNCONNECTED ||
        (self->streamed && state == PW_STREAM_STATE_PAUSED))
      self->gone = true;
    self->arrived.notify_all();
  }
  static void onProcess(void* data) {
    auto* self = static_cast<Stream*>(data);
    pw_buffer* b = pw_stream_dequeue_buffer(self->stream);
    if (!b) return;
    const spa_data& d = b->buffer->datas[0];
    if (self->format && d.data && d.chunk->size > 0) {
      const auto& f = *self->format;
      auto image = self->pool.acquire(f.width, f.height);
      const std::size_t stride = d.chunk->stride > 0
                                     ? static_cast<std::size_t>(d.chunk->stride)
                                     : pipewire::frameLayout(f.format, f.width, f.height).stride;
      const auto* bytes = static_cast<const std::uint8_t*>(d.data) + d.chunk->offset;
      const std::size_t size = std::min<std::size_t>(d.chunk->size, d.maxsize - d.chunk->offset);
      // A buffer of the old size while renegotiating, or a damaged JPEG, is skipped.
      if (pipewire::convertToRgb(bytes, size, stride, f.format, *image)) {
        std::lock_guard lock(self->mutex);
        self->newest = std::move(image);
        self->arrived.notify_all();
      }
    }
    pw_stream_queue_buffer(self->stream, b);
  }

  ~Stream() {
    connection.lock();
    if (driveTimer) pw_loop_destroy_source(connection.loop(), driveTimer);
    if (stream) pw_stream_destroy(stream);
    connection.unlock();
  }
};

PipeWireCameraSource::PipeWireCameraSource(std::string nodeName) : m_nodeName(std::move(nodeName)) {}

PipeWireCameraSource::~PipeWireCameraSource() = default;

SourceTraits PipeWireCameraSource::traits() const {
  return {.kindName = "Camera", .waitsForDevice = true, .rememberedSpec = "pipewire:" + m_nodeName};
}

void PipeWireCameraSource::open() {
  if (m_stream) return;
  auto s = std::make_unique<Stream>(stagingProvider());
  s->connection.lock();
  if (!s->connection.connectCore()) {
    s->connection.unlock();
    throw SourceAbsent("PipeWire is not running (no camera " + m_nodeName + ")");
  }
  s->connection.start();
  // Bounded round trips first: a daemon that accepts the connection but never answers would leave read()
  // timing out and the capture thread reopening for ever (issue 34.9). A camera another program read and
  // left may send nothing until it is suspended (issue 34.2, docs/RELIABILITY.md). An absent node is linked
  // to anyway: read() waits for it as before.
  const pipewire::NodeFound node = pipewire::suspendIfIdle(s->connection, m_nodeName);
  if (node.lookup == pipewire::NodeLookup::NoAnswer) {
    s->connection.unlock();
    throw SourceError(pipewire::noAnswerMessage() + " (camera " + m_nodeName + ")");
  }
  // A device's camera keeps its own clock; a program's camera is driven by this reader
  // (Stream::startDriving).
  const bool drive = node.lookup == pipewire::NodeLookup::Found && !node.fromDevice;
  static const pw_stream_events events =
      pipewire::streamEvents(&Stream::onStateChanged, &Stream::onParamChanged, &Stream::onProcess);
  // dont-reconnect: when the camera goes, the stream is not moved to another camera (our own output, say).
  s->stream =
      pw_stream_new(s->connection.core(), "convolab-camera",
                    pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
                                      PW_KEY_MEDIA_ROLE, "Camera", PW_KEY_NODE_NAME, "convolab-camera-in",
                                      PW_KEY_TARGET_OBJECT, m_nodeName.c_str(), PW_KEY_NODE_DONT_RECONNECT,
                                      "true", PW_KEY_PRIORITY_DRIVER, drive ? "100000" : "0", nullptr));
  pw_stream_add_listener(s->stream, &s->streamListener, &events, s.get());
  // Raw formats first (no decoding); MJPG where the camera has nothing raw at its size.
  std::uint8_t buffer[2048];
  spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
  const spa_pod* params[] = {
      pipewire::buildCaptureRequest(
          &b, {VideoFormat::RGB, VideoFormat::BGRx, VideoFormat::RGBx, VideoFormat::YUY2, VideoFormat::I420},
          1280, 720),
      pipewire::buildMjpgCaptureRequest(&b, 1280, 720)};
  const int flags =
      PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS | (drive ? PW_STREAM_FLAG_DRIVER : 0);
  pw_stream_connect(s->stream, PW_DIRECTION_INPUT, PW_ID_ANY, static_cast<pw_stream_flags>(flags), params, 2);
  if (drive) s->startDriving();
  s->connection.unlock();
  m_stream = std::move(s);
}

void PipeWireCameraSource::close() {
  m_stream.reset();
}

bool PipeWireCameraSource::read(Frame& out) {
  if (!m_stream) return false;
  std::unique_lock lock(m_stream->mutex);
  const bool got =
      m_stream->arrived.wait_for(lock, kFrameTimeout, [&] { return m_stream->newest || m_stream->gone; });
  if (!got || !m_stream->newest) throw SourceAbsent("PipeWire camera " + m_nodeName + " is not there");
  out.image = std::move(m_stream->newest);
  out.index = m_index++;
  out.captured = Clock::now();
  return true;
}

double PipeWireCameraSource::nominalFps() const {
  return 30;
}

std::string PipeWireCameraSource::deliveredMode() const {
  if (!m_stream) return {};
  std::lock_guard lock(m_stream->mutex);
  if (!m_stream->format) return {};
  const auto& f = *m_stream->format;
  return std::to_string(f.width) + "×" + std::to_string(f.height) + " " + pipewire::formatName(f.format);
}

bool PipeWireCameraSource::drivesTheCamera() const {
  if (!m_stream) return false;
  m_stream->connection.lock();
  const bool driving = m_stream->stream && pw_stream_is_driving(m_stream->stream);
  m_stream->connection.unlock();
  return driving;
}

}  // namespace convolab::capture
