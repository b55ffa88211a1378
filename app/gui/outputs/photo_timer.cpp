// SPDX-License-Identifier: MIT
// The photo timer: a countdown measured on a monotonic clock (not counted in ticks), an overlay that says the
// seconds left, an application-wide Esc while it runs, and numbered files that never overwrite.
#include "outputs/photo_timer.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>

#include "outputs/frame_saver.hpp"

namespace convolab::gui {

PhotoTimer::PhotoTimer(QWidget* preview, FrameProvider latestFrame, QObject* parent)
    : QObject(parent), m_latestFrame(std::move(latestFrame)) {
  m_overlay = new QLabel(preview);
  m_overlay->setObjectName(QStringLiteral("countdownOverlay"));
  m_overlay->setAlignment(Qt::AlignCenter);
  m_overlay->setAttribute(Qt::WA_TransparentForMouseEvents);
  m_overlay->setStyleSheet(
      QStringLiteral("QLabel { color: white; background: rgba(0, 0, 0, 110); border-radius: 24px; "
                     "font-size: 120px; font-weight: bold; }"));
  m_overlay->hide();
  m_timer.setTimerType(Qt::PreciseTimer);
  m_timer.setInterval(20);
  connect(&m_timer, &QTimer::timeout, this, &PhotoTimer::tick);
}

PhotoTimer::~PhotoTimer() {
  qApp->removeEventFilter(this);
}

void PhotoTimer::start(int seconds, int count, int intervalMs) {
  cancel();
  m_seconds = std::max(0, seconds);
  m_count = std::max(1, count);
  m_intervalMs = std::max(0, intervalMs);
  m_paths.clear();
  m_number = 0;
  m_lastSaved.reset();
  m_stem =
      QStringLiteral("convolab-") + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
  m_phase = Phase::Counting;
  m_clock.start();
  qApp->installEventFilter(this);
  m_timer.start();
  tick();
}

void PhotoTimer::cancel() {
  if (m_phase == Phase::Idle) return;
  m_phase = Phase::Idle;
  m_timer.stop();
  m_overlay->hide();
  qApp->removeEventFilter(this);
  emit message(tr("Photo timer cancelled"), 3000);
  emit cancelled();
}

void PhotoTimer::tick() {
  const qint64 elapsed = m_clock.elapsed();
  if (m_phase == Phase::Counting) {
    const qint64 leftMs = qint64(m_seconds) * 1000 - elapsed;
    if (leftMs > 0) {
      QWidget* preview = m_overlay->parentWidget();
      const int side = std::min(240, std::min(preview->width(), preview->height()) * 2 / 3);
      m_overlay->setGeometry((preview->width() - side) / 2, (preview->height() - side) / 2, side, side);
      m_overlay->setText(QString::number((leftMs + 999) / 1000));
      m_overlay->show();
      m_overlay->raise();
      return;
    }
    m_overlay->hide();
    m_phase = Phase::Burst;
    m_nextSaveMs = elapsed;
  }
  if (m_phase == Phase::Burst && elapsed >= m_nextSaveMs) saveNext();
}

void PhotoTimer::saveNext() {
  const ProcessedFramePtr frame = m_latestFrame ? m_latestFrame() : nullptr;
  if (!frame || !frame->filtered || frame == m_lastSaved) return;  // wait for a frame not saved yet
  const QString path = nextPath();
  try {
    saveFrame(path, *frame->filtered, false);
    m_paths << path;
    m_lastSaved = frame;
    emit saved(path);
  } catch (const std::exception& e) {
    emit message(tr("Could not save the frame: %1").arg(QString::fromUtf8(e.what())), 10000);
    finish();
    return;
  }
  if (m_paths.size() >= m_count) {
    finish();
    return;
  }
  m_nextSaveMs = m_clock.elapsed() + m_intervalMs;
}

void PhotoTimer::finish() {
  m_phase = Phase::Idle;
  m_timer.stop();
  m_overlay->hide();
  qApp->removeEventFilter(this);
  if (!m_paths.isEmpty())
    emit message(
        m_paths.size() == 1
            ? tr("Saved %1").arg(QDir::toNativeSeparators(m_paths.first()))
            : tr("Saved %1 frames to %2").arg(m_paths.size()).arg(QFileInfo(m_paths.first()).absolutePath()),
        8000);
  emit finished(m_paths);
}

QString PhotoTimer::nextPath() {
  const QDir dir(m_dir.isEmpty() ? defaultPicturesDir() : m_dir);
  QString path;
  do path = dir.filePath(QStringLiteral("%1-%2.png").arg(m_stem).arg(++m_number));
  while (QFileInfo::exists(path));  // an earlier shot in the same second: the next free number
  return path;
}

bool PhotoTimer::eventFilter(QObject* watched, QEvent* event) {
  if (m_phase != Phase::Idle && event->type() == QEvent::KeyPress &&
      static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
    cancel();
    return true;
  }
  return QObject::eventFilter(watched, event);
}

void PhotoTimer::fillMenu(QMenu* menu) {
  auto* delays = new QActionGroup(menu);
  for (int s : {3, 5, 10}) {
    QAction* a = menu->addAction(tr("Countdown %1 s").arg(s));
    a->setCheckable(true);
    a->setChecked(s == m_delay);
    a->setActionGroup(delays);
    connect(a, &QAction::triggered, this, [this, s] { m_delay = s; });
  }
  menu->addSeparator();
  auto* bursts = new QActionGroup(menu);
  for (int n : {1, 3, 5, 10}) {
    QAction* a = menu->addAction(
        n == 1 ? tr("One Frame") : tr("Burst of %1 (%2 s apart)").arg(n).arg(kBurstIntervalMs / 1000.0));
    a->setCheckable(true);
    a->setChecked(n == m_burst);
    a->setActionGroup(bursts);
    connect(a, &QAction::triggered, this, [this, n] { m_burst = n; });
  }
}

}  // namespace convolab::gui
