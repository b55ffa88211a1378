// SPDX-License-Identifier: MIT
// runInBackground: one piece of work on a thread of its own, its result delivered on the GUI thread.
#pragma once

#include <QCoreApplication>
#include <QPointer>
#include <QThread>
#include <functional>
#include <memory>

namespace convolab::lab {

/// Runs `work` on a new QThread; then, on the GUI thread, `done(result)` unless `receiver` was deleted.
/// The thread deletes itself when finished; the returned pointer is for waiting on it (QPointer it).
template <typename Result>
QThread* runInBackground(QObject* receiver, std::function<Result()> work, std::function<void(Result)> done) {
  QPointer<QObject> guard(receiver);
  QThread* thread = QThread::create([guard, work = std::move(work), done = std::move(done)]() mutable {
    auto result = std::make_shared<Result>(work());
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [guard, done, result] {
          if (guard) done(std::move(*result));
        },
        Qt::QueuedConnection);
  });
  QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
  thread->start();
  return thread;
}

}  // namespace convolab::lab
