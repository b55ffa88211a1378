// SPDX-License-Identifier: MIT
#include "test_consumer.hpp"

#include <spa/param/video/format-utils.h>

#include <thread>

#include "pipewire/format_negotiation.hpp"
#include "pipewire/frame_conversion.hpp"

namespace convolab::vcam::test {

TestConsumer::TestConsumer(const std::string& target, VideoFormat format, bool stalled)
    : m_format(format), m_stalled(stalled) {
  pw_init(nullptr, nullptr);
  m_loop = pw_thread_loop_new("test-consumer", nullptr);
  pw_thread_loop_lock(m_loop);
  pw_thread_loop_start(m_loop);
  static const pw_stream_events events = [] {
    pw_stream_events e{};
    e.version = PW_VERSION_STREAM_EVENTS;
    e.process = &TestConsumer::onProcess;
    e.param_changed = &TestConsumer::onParamChanged;
    return e;
  }();
  m_stream = pw_stream_new_simple(
      pw_thread_loop_get_loop(m_loop), "convolab-test-consumer",
      pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture", PW_KEY_MEDIA_ROLE,
                        "Camera", PW_KEY_TARGET_OBJECT, target.c_str(), nullptr),
      &events, this);
  std::uint8_t buffer[1024];
  spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
  const spa_pod* params[] = {buildCaptureRequest(&b, {format}, 640, 480)};
  pw_stream_connect(m_stream, PW_DIRECTION_INPUT, PW_ID_ANY,
                    static_cast<pw_stream_flags>(PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS),
                    params, 1);
  pw_thread_loop_unlock(m_loop);
}

TestConsumer::~TestConsumer() {
  pw_thread_loop_lock(m_loop);
  pw_stream_destroy(m_stream);
  pw_thread_loop_unlock(m_loop);
  pw_thread_loop_stop(m_loop);
  pw_thread_loop_destroy(m_loop);
}

void TestConsumer::onParamChanged(void* data, std::uint32_t id, const spa_pod* param) {
  auto* self = static_cast<TestConsumer*>(data);
  if (id != SPA_PARAM_Format) return;
  if (auto chosen = parseChosenFormat(param)) {
    self->m_width = chosen->width;
    self->m_height = chosen->height;
  }
}

void TestConsumer::onProcess(void* data) {
  auto* self = static_cast<TestConsumer*>(data);
  if (self->m_stalled && self->frameCount() > 0) return;  // never dequeues again: its buffers stay full
  pw_buffer* b = pw_stream_dequeue_buffer(self->m_stream);
  if (!b) return;
  const spa_data& d = b->buffer->datas[0];
  if (d.data && d.chunk->size > 0 && self->m_width > 0) {
    const auto* bytes = static_cast<const std::uint8_t*>(d.data) + d.chunk->offset;
    const std::size_t stride = d.chunk->stride > 0
                                   ? static_cast<std::size_t>(d.chunk->stride)
                                   : frameLayout(self->m_format, self->m_width, self->m_height).stride;
    // A buffer sent for another size (the producer is renegotiating) is skipped.
    Image frame(self->m_width, self->m_height);
    if (!convertToRgb(bytes, d.chunk->size, stride, self->m_format, frame)) {
      pw_stream_queue_buffer(self->m_stream, b);
      return;
    }
    std::lock_guard lock(self->m_mutex);
    if (self->m_keepAll) self->m_all.push_back(frame);
    self->m_last = std::move(frame);
    ++self->m_count;
  }
  if (self->m_stalled) return;  // keeps the buffer: the producer runs out of buffers
  pw_stream_queue_buffer(self->m_stream, b);
}

bool TestConsumer::waitForFrames(std::size_t count, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (frameCount() < count) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

std::size_t TestConsumer::frameCount() const {
  std::lock_guard lock(m_mutex);
  return m_count;
}

void TestConsumer::keepEveryFrame() {
  std::lock_guard lock(m_mutex);
  m_keepAll = true;
}

std::vector<Image> TestConsumer::frames() const {
  std::lock_guard lock(m_mutex);
  return m_all;
}

Image TestConsumer::lastFrame() const {
  std::lock_guard lock(m_mutex);
  return m_last;
}

bool nodeExists(const std::string& name) {
  const std::string command = "pw-cli ls Node 2>/dev/null | grep -q 'node.name = \"" + name + "\"'";
  return std::system(command.c_str()) == 0;
}

}  // namespace convolab::vcam::test
