// SPDX-License-Identifier: MIT
#include "vcam/loopback_feeder.hpp"

namespace convolab::vcam {

LoopbackFeeder::LoopbackFeeder(std::unique_ptr<V4l2LoopbackWriter> writer, std::string path)
    : m_writer(std::move(writer)), m_path(std::move(path)), m_thread([this] { run(); }) {}

LoopbackFeeder::~LoopbackFeeder() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_one();
  m_thread.join();
}

void LoopbackFeeder::publish(std::shared_ptr<const Image> frame) {
  if (!frame) return;
  m_handover.put(std::move(frame));
  m_wake.notify_one();
}

std::string LoopbackFeeder::error() const {
  std::lock_guard lock(m_mutex);
  return m_error;
}

std::vector<output::SinkFigures> LoopbackFeeder::figures() const {
  return {figuresOf(m_path, written(), dropped(), error())};
}

output::SinkFigures LoopbackFeeder::figuresOf(const std::string& path, std::uint64_t written,
                                              std::uint64_t dropped, const std::string& error) {
  output::SinkFigures f;
  f.key = "loopback";
  f.within = "virtual_camera";
  f.values = {{"device", path}, {"written", written}, {"dropped", dropped}, {"error", error}};
  f.line =
      "loopback   " + path + ": " +
      (error.empty() ? std::to_string(written) + " written, " + std::to_string(dropped) + " dropped" : error);
  return f;
}

void LoopbackFeeder::run() {
  std::unique_lock lock(m_mutex);
  while (true) {
    std::shared_ptr<const Image> frame;
    m_wake.wait(lock, [&] { return m_stop || (frame = m_handover.take().value_or(nullptr)) != nullptr; });
    if (m_stop) return;
    if (!m_error.empty()) continue;  // the device refused: keep taking frames, write none
    lock.unlock();
    std::string error;
    try {
      m_writer->write(frame->view());
      ++m_written;
    } catch (const std::exception& e) {
      error = e.what();
    }
    lock.lock();
    if (!error.empty()) m_error = error;
  }
}

}  // namespace convolab::vcam
