// SPDX-License-Identifier: MIT
#include "vcam/pipewire_publisher.hpp"

#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>

#include "output/latest_value.hpp"
#include "pipewire/connection.hpp"
#include "pipewire/format_negotiation.hpp"
#include "pipewire/frame_conversion.hpp"
#include "vcam/link_watcher.hpp"

namespace convolab::vcam {

using SteadyClock = std::chrono::steady_clock;
using pipewire::NegotiatedFormat;

namespace {
// A still image or a paused source sends nothing new: consumers (browsers) still expect frames now and then.
constexpr auto kRepeatAfter = std::chrono::milliseconds(500);
}  // namespace

// Everything but publish() and status() runs on the PipeWire thread (its loop's callbacks), or under its
// lock.
struct PipeWirePublisher::Impl {
  PublisherOptions options;
  output::LatestValue<std::shared_ptr<const Image>> handover;  // publish() → the PipeWire thread
  pipewire::Connection connection{"convolab-vcam"};
  pw_core* core = nullptr;  // connection's, while connected
  spa_hook coreListener{};
  pw_stream* stream = nullptr;
  spa_hook streamListener{};
  spa_source* frameEvent = nullptr;   // publish() signals it: a new frame is waiting
  spa_source* retryTimer = nullptr;   // reconnects after the daemon went away or was missing
  spa_source* repeatTimer = nullptr;  // resends the newest frame while none came for kRepeatAfter
  spa_source* answerTimer =
      nullptr;        // a daemon that accepted the connection must answer within kAnswerTimeout
  int helloSeq = -1;  // the sync sent on connecting
  SteadyClock::time_point lastSend{};
  LinkWatcher links;
  int offeredWidth = 0, offeredHeight = 0;
  std::optional<NegotiatedFormat> chosen;
  std::atomic<bool> streaming{false};
  std::atomic<std::uint64_t> dropped{0};

  mutable std::mutex statusMutex;  // guards the fields below, read by status() on any thread
  PublisherStatus current;
  std::deque<SteadyClock::time_point> sendTimes;  // the last second's, for fps

  void setStatus(PublisherState state, std::string message = {}, std::string cause = {}) {
    std::lock_guard lock(statusMutex);
    current.state = state;
    current.message = std::move(message);
    current.cause = std::move(cause);
    if (state != PublisherState::Streaming && state != PublisherState::Waiting)
      current.nodeId = current.viewers = 0;
  }

  /// The registry lives on this thread: the count is kept in the status for status() to read.
  void countViewers() {
    std::lock_guard lock(statusMutex);
    current.viewers = current.nodeId ? links.linksFrom(current.nodeId) : 0;
  }

  // ------------------------------------------------------------------------------------------- connection
  void connect() {
    std::string why;
    if (!connection.connectCore(&why)) {
      setStatus(PublisherState::NoDaemon, "PipeWire is not running", why);  // no errno text in the line
      armRetry(options.retryInterval);
      return;
    }
    core = connection.core();
    static const pw_core_events coreEvents = [] {
      pw_core_events e{};
      e.version = PW_VERSION_CORE_EVENTS;
      e.error = &Impl::onCoreError;
      e.done = &Impl::onCoreDone;
      return e;
    }();
    pw_core_add_listener(core, &coreListener, &coreEvents, this);
    // A daemon that accepts but never answers (issue 34.9) is told apart from a slow start: a bounded sync.
    helloSeq = pw_core_sync(core, PW_ID_CORE, 0);
    setTimer(answerTimer, pipewire::kAnswerTimeout);
    links.attach(core, [this] { countViewers(); });
    setStatus(PublisherState::Connecting);
    if (auto frame = handover.peek().value_or(nullptr)) createStream(frame->width, frame->height);
  }

  void disconnect() {
    setTimer(answerTimer, std::chrono::milliseconds(-1));
    destroyStream();
    links.detach();
    if (core) {
      spa_hook_remove(&coreListener);
      connection.disconnectCore();
      core = nullptr;
    }
  }

  void armRetry(std::chrono::milliseconds after) { setTimer(retryTimer, after); }

  /// Arms `timer` once, `after` from now; a negative `after` disarms it.
  void setTimer(spa_source* timer, std::chrono::milliseconds after) {
    const auto ms = std::max<std::int64_t>(after.count(), 0);
    timespec when{static_cast<time_t>(ms / 1000), static_cast<long>(ms % 1000) * 1000000L};
    if (after.count() >= 0 && when.tv_sec == 0 && when.tv_nsec == 0)
      when.tv_nsec = 1;  // zero would disarm the timer
    pw_loop_update_timer(connection.loop(), timer, &when, nullptr, false);
  }

  static void onCoreDone(void* data, std::uint32_t id, int seq) {
    auto* self = static_cast<Impl*>(data);
    if (id == PW_ID_CORE && seq == self->helloSeq)
      self->setTimer(self->answerTimer, std::chrono::milliseconds(-1));
  }

  static void onAnswerTimeout(void* data, std::uint64_t) {
    auto* self = static_cast<Impl*>(data);
    self->streaming = false;
    self->setStatus(PublisherState::NoDaemon, pipewire::noAnswerMessage());
    self->armRetry(self->options.retryInterval);
  }

  static void onRetry(void* data, std::uint64_t) {
    auto* self = static_cast<Impl*>(data);
    self->disconnect();
    self->connect();
  }

  static void onCoreError(void* data, std::uint32_t id, int, int res, const char* message) {
    auto* self = static_cast<Impl*>(data);
    if (id != PW_ID_CORE || res != -EPIPE) return;  // only a lost connection ends the node
    // The daemon died: let go of everything from the timer, not from inside the core's own callback.
    self->streaming = false;
    self->setStatus(PublisherState::NoDaemon,
                    std::string("lost PipeWire (") + (message ? message : "") + ")");
    self->armRetry(std::chrono::milliseconds(0));
  }

  // ----------------------------------------------------------------------------------------------- stream
  void createStream(int width, int height) {
    pw_properties* props = pw_properties_new(PW_KEY_MEDIA_CLASS, "Video/Source", PW_KEY_MEDIA_TYPE, "Video",
                                             PW_KEY_MEDIA_CATEGORY, "Capture", PW_KEY_MEDIA_ROLE, "Camera",
                                             PW_KEY_NODE_NAME, options.nodeName.c_str(),
                                             PW_KEY_NODE_DESCRIPTION, options.description.c_str(), nullptr);
    stream = pw_stream_new(core, options.nodeName.c_str(), props);
    static const pw_stream_events streamEvents =
        pipewire::streamEvents(&Impl::onStateChanged, &Impl::onParamChanged, &Impl::onProcess);
    pw_stream_add_listener(stream, &streamListener, &streamEvents, this);
    std::uint8_t buffer[1024];
    spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
    const spa_pod* params[] = {pipewire::buildFormatOffer(&b, width, height)};
    offeredWidth = width;
    offeredHeight = height;
    // Driver: we start each graph cycle when a frame is ready, so frames go out at the source's rate.
    pw_stream_connect(stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
                      static_cast<pw_stream_flags>(PW_STREAM_FLAG_DRIVER | PW_STREAM_FLAG_MAP_BUFFERS),
                      params, 1);
  }

  void destroyStream() {
    if (!stream) return;
    spa_hook_remove(&streamListener);
    pw_stream_destroy(stream);
    stream = nullptr;
    chosen.reset();
    streaming = false;
    std::lock_guard lock(statusMutex);
    current.format.clear();
    current.nodeId = current.viewers = 0;
  }

  /// A frame of another size: offer the new size; the consumers choose again.
  void renegotiate(int width, int height) {
    std::uint8_t buffer[1024];
    spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
    const spa_pod* params[] = {pipewire::buildFormatOffer(&b, width, height)};
    offeredWidth = width;
    offeredHeight = height;
    pw_stream_update_params(stream, params, 1);
  }

  static void onStateChanged(void* data, pw_stream_state, pw_stream_state state, const char* error) {
    auto* self = static_cast<Impl*>(data);
    self->streaming = state == PW_STREAM_STATE_STREAMING;
    if (state == PW_STREAM_STATE_ERROR) {
      self->setStatus(PublisherState::NoDaemon, std::string("stream failed: ") + (error ? error : "?"));
      self->armRetry(self->options.retryInterval);
      return;
    }
    if (state != PW_STREAM_STATE_PAUSED && state != PW_STREAM_STATE_STREAMING) return;
    if (state == PW_STREAM_STATE_STREAMING) self->sendAgain();  // the newcomer sees the picture at once
    self->setStatus(state == PW_STREAM_STATE_STREAMING ? PublisherState::Streaming : PublisherState::Waiting);
    {
      std::lock_guard lock(self->statusMutex);
      self->current.nodeId = pw_stream_get_node_id(self->stream);
    }
    self->countViewers();
  }

  static void onParamChanged(void* data, std::uint32_t id, const spa_pod* param) {
    auto* self = static_cast<Impl*>(data);
    if (id != SPA_PARAM_Format) return;
    self->chosen = pipewire::parseChosenFormat(param);
    {
      std::lock_guard lock(self->statusMutex);
      self->current.format = self->chosen ? pipewire::formatName(self->chosen->format) + " " +
                                                std::to_string(self->chosen->width) + "×" +
                                                std::to_string(self->chosen->height)
                                          : std::string();
    }
    if (!self->chosen) return;
    std::uint8_t buffer[1024];
    spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
    const spa_pod* params[] = {pipewire::buildBufferParams(&b, *self->chosen)};
    pw_stream_update_params(self->stream, params, 1);
  }

  // ------------------------------------------------------------------------------------------------ frames
  static void onFrame(void* data, std::uint64_t) {
    auto* self = static_cast<Impl*>(data);
    const auto frame = self->handover.peek().value_or(nullptr);
    if (!self->core || !frame) return;
    if (!self->stream) {
      self->createStream(frame->width, frame->height);
      return;
    }
    if (frame->width != self->offeredWidth || frame->height != self->offeredHeight)
      self->renegotiate(frame->width, frame->height);
    if (!self->streaming) {
      self->handover.take();  // nobody reads: nothing to send, nothing dropped
      return;
    }
    if (pw_stream_is_driving(self->stream)) pw_stream_trigger_process(self->stream);
  }

  /// Sends the newest frame again (to a consumer that just came, or while no new frame arrives).
  void sendAgain() {
    if (stream && streaming && handover.offerAgain() && pw_stream_is_driving(stream))
      pw_stream_trigger_process(stream);
  }

  static void onRepeat(void* data, std::uint64_t) {
    auto* self = static_cast<Impl*>(data);
    if (SteadyClock::now() - self->lastSend >= kRepeatAfter) self->sendAgain();
  }

  static void onProcess(void* data) {
    auto* self = static_cast<Impl*>(data);
    auto frame = self->handover.take().value_or(nullptr);
    if (!frame) return;  // a cycle another driver started, with no new frame: send nothing
    const auto& fmt = self->chosen;
    if (!fmt || fmt->width != frame->width || fmt->height != frame->height) return;  // renegotiating
    pw_buffer* b = pw_stream_dequeue_buffer(self->stream);
    if (!b) {  // every buffer is still with a consumer that has not read it: this frame is lost for it
      self->dropped.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    spa_data& d = b->buffer->datas[0];
    const pipewire::FrameLayout layout = pipewire::frameLayout(fmt->format, fmt->width, fmt->height);
    if (d.data && d.maxsize >= layout.size) {
      pipewire::convertFrame(frame->view(), fmt->format, static_cast<std::uint8_t*>(d.data));
      d.chunk->offset = 0;
      d.chunk->size = static_cast<std::uint32_t>(layout.size);
      d.chunk->stride = static_cast<std::int32_t>(layout.stride);
    } else {
      d.chunk->size = 0;
    }
    pw_stream_queue_buffer(self->stream, b);
    const auto now = SteadyClock::now();
    self->lastSend = now;
    std::lock_guard lock(self->statusMutex);
    ++self->current.sent;
    self->sendTimes.push_back(now);
    while (!self->sendTimes.empty() && now - self->sendTimes.front() > std::chrono::seconds(1))
      self->sendTimes.pop_front();
  }
};

PipeWirePublisher::PipeWirePublisher(PublisherOptions options) : m(std::make_unique<Impl>()) {
  m->options = std::move(options);
  pw_loop* loop = m->connection.loop();
  m->connection.lock();
  m->frameEvent = pw_loop_add_event(loop, &Impl::onFrame, m.get());
  m->retryTimer = pw_loop_add_timer(loop, &Impl::onRetry, m.get());
  m->repeatTimer = pw_loop_add_timer(loop, &Impl::onRepeat, m.get());
  m->answerTimer = pw_loop_add_timer(loop, &Impl::onAnswerTimeout, m.get());
  timespec period{0, 250'000'000};
  pw_loop_update_timer(loop, m->repeatTimer, &period, &period, false);
  m->connection.start();
  m->connect();
  m->connection.unlock();
}

PipeWirePublisher::~PipeWirePublisher() {
  m->connection.lock();
  m->disconnect();  // destroying the stream removes the node
  pw_loop* loop = m->connection.loop();
  pw_loop_destroy_source(loop, m->frameEvent);
  pw_loop_destroy_source(loop, m->retryTimer);
  pw_loop_destroy_source(loop, m->repeatTimer);
  pw_loop_destroy_source(loop, m->answerTimer);
  m->connection.unlock();
}  // the connection's thread stops with m

void PipeWirePublisher::publish(std::shared_ptr<const Image> frame) {
  if (!frame || frame->width <= 0 || frame->height <= 0) return;
  if (m->handover.put(std::move(frame)).has_value() && m->streaming)
    m->dropped.fetch_add(1, std::memory_order_relaxed);
  pw_loop_signal_event(m->connection.loop(), m->frameEvent);
}

std::vector<output::SinkFigures> PipeWirePublisher::figures() const {
  return {publisherFigures(status())};
}

PublisherStatus PipeWirePublisher::status() const {
  std::unique_lock lock(m->statusMutex);
  PublisherStatus s = m->current;
  const auto now = SteadyClock::now();
  long recent = 0;
  for (const auto& t : m->sendTimes) recent += now - t <= std::chrono::seconds(1);
  lock.unlock();
  s.fps = static_cast<double>(recent);
  s.dropped = m->dropped.load(std::memory_order_relaxed);
  return s;
}

}  // namespace convolab::vcam
