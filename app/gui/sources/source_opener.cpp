// SPDX-License-Identifier: MIT
// Opening sources on short-lived worker threads; results come back through the GUI thread's event loop.
#include "sources/source_opener.hpp"

#include <mutex>
#include <thread>

namespace convolab::gui {

/// Lives as long as the longest worker: the workers post to `owner` only while it exists.
struct SourceOpener::Shared {
  std::mutex mutex;
  SourceOpener* owner = nullptr;
};

SourceOpener::SourceOpener(QObject* parent) : QObject(parent), m_shared(std::make_shared<Shared>()) {
  m_shared->owner = this;
}

SourceOpener::~SourceOpener() {
  std::lock_guard lock(m_shared->mutex);
  m_shared->owner = nullptr;  // ~QObject then discards results already posted
}

void SourceOpener::open(std::unique_ptr<capture::FrameSource> source, Done done) {
  const quint64 ticket = ++m_ticket;
  m_pendingTicket = ticket;
  ++m_running;
  auto holder = std::make_shared<std::unique_ptr<capture::FrameSource>>(std::move(source));
  std::thread([shared = m_shared, holder, ticket, done = std::move(done)] {
    QString error;
    try {
      (*holder)->open();
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    } catch (...) {
      error = QStringLiteral("the source could not be opened");
    }
    std::lock_guard lock(shared->mutex);
    SourceOpener* owner = shared->owner;
    if (!owner) return;
    QMetaObject::invokeMethod(
        owner,
        [owner, holder, ticket, error, done] {
          --owner->m_running;
          if (ticket != owner->m_ticket) return;  // a newer request won
          owner->m_pendingTicket = 0;
          std::unique_ptr<capture::FrameSource> source;
          if (error.isEmpty()) source = std::move(*holder);
          done(std::move(source), error);
        },
        Qt::QueuedConnection);
  }).detach();
}

}  // namespace convolab::gui
