// SPDX-License-Identifier: MIT
// SourceOpener: opens a frame source off the GUI thread (decoding a big image or a video's first packets
// takes seconds), then hands it back on the GUI thread.
#pragma once

#include <QObject>
#include <functional>
#include <memory>

#include "capture/frame_source.hpp"

namespace convolab::gui {

class SourceOpener : public QObject {
  Q_OBJECT

 public:
  /// Called on the GUI thread: the opened source, or null with the reason it failed.
  using Done = std::function<void(std::unique_ptr<capture::FrameSource> source, const QString& error)>;

  explicit SourceOpener(QObject* parent = nullptr);
  /// Results still on their way are dropped; a decode in progress finishes on its own thread, unseen.
  ~SourceOpener() override;

  /// Calls `source->open()` on a worker thread, then `done` here. A newer open() (or cancel()) makes the
  /// older request stale: its result is dropped and its source freed, `done` is not called.
  void open(std::unique_ptr<capture::FrameSource> source, Done done);
  void cancel() { ++m_ticket; }
  /// Some open() is still running (its result may be stale).
  bool busy() const { return m_running > 0; }
  /// The newest request has not answered yet.
  bool pending() const { return m_pendingTicket == m_ticket && m_pendingTicket != 0; }

 private:
  struct Shared;
  std::shared_ptr<Shared> m_shared;
  quint64 m_ticket = 0;
  quint64 m_pendingTicket = 0;
  int m_running = 0;
};

}  // namespace convolab::gui
