// SPDX-License-Identifier: MIT
// The preview: scaled QPainter drawing of shared frames, split compare, overlays for every source state.
#include "preview_widget.hpp"

#include <QBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "theme.hpp"

namespace convolab::gui {

namespace {

// Wraps a shared Image in a QImage without copying; the QImage keeps the pixels alive.
QImage wrap(const std::shared_ptr<const Image>& image) {
  if (!image) return {};
  auto* keep = new std::shared_ptr<const Image>(image);
  return QImage(
      image->pixels.data(), image->width, image->height, static_cast<qsizetype>(image->stride),
      QImage::Format_RGB888, [](void* p) { delete static_cast<std::shared_ptr<const Image>*>(p); }, keep);
}

constexpr double kDividerGrab = 10.0;
// A stale frame is marked once it has been stale this long: a frame or two in flight after each keystroke
// is normal and would only flicker.
constexpr auto kStaleGrace = std::chrono::milliseconds(150);
// Laid over a stale frame's filtered image: it reads as "not the result yet" and keeps its shapes visible.

}  // namespace

PreviewWidget::PreviewWidget(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("preview"));
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMouseTracking(true);
  setMinimumSize(320, 240);
  setFocusPolicy(Qt::StrongFocus);

  m_placeholder = new QWidget(this);
  m_placeholder->setObjectName(QStringLiteral("placeholder"));
  m_placeholder->setAttribute(Qt::WA_TranslucentBackground);
  auto* layout = new QVBoxLayout(m_placeholder);
  layout->setSpacing(10);
  layout->addStretch(1);
  auto* icon = new QLabel(m_placeholder);
  icon->setPixmap(QIcon(QStringLiteral(":/icons/convolab.svg")).pixmap(72, 72));
  icon->setAlignment(Qt::AlignCenter);
  layout->addWidget(icon);
  m_placeholderTitle = new QLabel(m_placeholder);
  m_placeholderTitle->setAlignment(Qt::AlignCenter);
  m_placeholderTitle->setStyleSheet(QStringLiteral("font-size: 15pt; font-weight: 600;"));
  layout->addWidget(m_placeholderTitle);
  m_placeholderDetail = new QLabel(m_placeholder);
  m_placeholderDetail->setAlignment(Qt::AlignCenter);
  m_placeholderDetail->setWordWrap(true);
  m_placeholderDetail->setStyleSheet(theme::textStyle(theme::dimText()));
  layout->addWidget(m_placeholderDetail);
  auto* buttons = new QBoxLayout(QBoxLayout::LeftToRight);
  m_placeholderButtons = buttons;
  buttons->setSpacing(10);
  buttons->addStretch(1);
  m_openImage = new QPushButton(tr("Open image…"), m_placeholder);
  m_openVideo = new QPushButton(tr("Open video…"), m_placeholder);
  m_testPattern = new QPushButton(tr("Use test pattern"), m_placeholder);
  m_testPattern->setObjectName(QStringLiteral("primary"));
  for (auto* b : {m_openImage, m_openVideo, m_testPattern}) {
    b->setCursor(Qt::PointingHandCursor);
    buttons->addWidget(b, 0, Qt::AlignCenter);
  }
  buttons->addStretch(1);
  layout->addLayout(buttons);
  auto* hint = new QLabel(tr("or drop an image or video file here"), m_placeholder);
  hint->setAlignment(Qt::AlignCenter);
  hint->setStyleSheet(theme::textStyle(theme::faintText()));
  layout->addWidget(hint);
  layout->addStretch(1);
  m_placeholder->hide();
  connect(m_openImage, &QPushButton::clicked, this, &PreviewWidget::openImageRequested);
  connect(m_openVideo, &QPushButton::clicked, this, &PreviewWidget::openVideoRequested);
  connect(m_testPattern, &QPushButton::clicked, this, &PreviewWidget::testPatternRequested);
}

void PreviewWidget::setFrame(ProcessedFramePtr frame) {
  m_frame = std::move(frame);
  m_filteredImage = m_frame ? wrap(m_frame->filtered) : QImage();
  m_originalImage = m_frame ? wrap(m_frame->original) : QImage();
  updateStale();
  update();
}

void PreviewWidget::setPreparing(const QString& message) {
  if (message == m_preparing) return;
  m_preparing = message;
  update();
}

void PreviewWidget::setCurrentRevision(std::uint64_t revision) {
  m_currentRevision = std::max(m_currentRevision, revision);
  updateStale();
}

bool PreviewWidget::isStale() const {
  return m_stale;
}

bool PreviewWidget::staleShown() const {
  return m_stale && !m_filteredImage.isNull() &&
         std::chrono::steady_clock::now() - m_staleSince >= kStaleGrace;
}

bool PreviewWidget::isDimmed() const {
  return staleShown() && m_mode != ViewMode::Original && m_disconnected.isEmpty();
}

void PreviewWidget::updateStale() {
  const bool stale = m_frame && !m_frame->record.bypassed &&
                     (m_frame->record.unfiltered || m_frame->record.filterRevision < m_currentRevision);
  if (stale == m_stale) return;
  m_stale = stale;
  if (stale) {
    m_staleSince = std::chrono::steady_clock::now();
    QTimer::singleShot(kStaleGrace + std::chrono::milliseconds(10), this, [this] { update(); });
  }
  update();
}

void PreviewWidget::setViewMode(ViewMode mode) {
  m_mode = mode;
  setCursor(Qt::ArrowCursor);
  update();
}

void PreviewWidget::setFitToWindow(bool fit) {
  if (fit == m_fit) return;
  m_fit = fit;
  m_pan = {};
  emit fitToWindowChanged(fit);
  update();
}

void PreviewWidget::setSplitPosition(double position) {
  m_split = std::clamp(position, 0.0, 1.0);
  update();
}

void PreviewWidget::setPaused(bool paused) {
  m_paused = paused;
  update();
}

void PreviewWidget::showPlaceholder(const QString& title, const QString& detail) {
  m_placeholderTitle->setText(title);
  m_placeholderDetail->setText(detail);
  m_placeholderDetail->setVisible(!detail.isEmpty());
  m_placeholder->setGeometry(rect());
  m_placeholder->show();
  m_disconnected.clear();
  m_busy.clear();
  update();
}

void PreviewWidget::hidePlaceholder() {
  m_placeholder->hide();
  update();
}

bool PreviewWidget::placeholderVisible() const {
  return !m_placeholder->isHidden();
}
QString PreviewWidget::placeholderTitle() const {
  return m_placeholderTitle->text();
}

void PreviewWidget::setDisconnected(const QString& message) {
  m_disconnected = message;
  update();
}

void PreviewWidget::setBusyMessage(const QString& message) {
  m_busy = message;
  update();
}

void PreviewWidget::setBanner(const QString& message) {
  m_banner = message;
  update();
}

void PreviewWidget::resizeEvent(QResizeEvent*) {
  m_placeholder->setGeometry(rect());
  // Narrow preview (docks open on a small screen): stack the three buttons instead of clipping them.
  m_placeholderButtons->setDirection(width() < 560 ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
}

QRectF PreviewWidget::imageRect() const {
  if (m_filteredImage.isNull()) return {};
  const QSizeF img = m_filteredImage.size();
  const QRectF area = QRectF(rect()).adjusted(8, 8, -8, -8);
  if (m_fit) {
    const double scale = std::min(area.width() / img.width(), area.height() / img.height());
    const QSizeF size = img * scale;
    return QRectF(area.center() - QPointF(size.width() / 2, size.height() / 2), size);
  }
  QRectF r(QPointF(0, 0), img);
  r.moveCenter(QRectF(rect()).center() + m_pan);
  return r;
}

bool PreviewWidget::nearDivider(const QPointF& pos) const {
  if (m_mode != ViewMode::Split || m_filteredImage.isNull()) return false;
  const QRectF r = imageRect();
  const double x = r.left() + m_split * r.width();
  return std::abs(pos.x() - x) <= kDividerGrab && pos.y() >= r.top() && pos.y() <= r.bottom();
}

void PreviewWidget::drawPill(QPainter& p, const QPointF& anchor, const QString& text, Qt::Alignment align,
                             const QColor& bg) const {
  const QFontMetricsF fm(p.font());
  const QSizeF size(fm.horizontalAdvance(text) + 20, fm.height() + 10);
  QPointF topLeft = anchor;
  if (align & Qt::AlignRight) topLeft.rx() -= size.width();
  if (align & Qt::AlignHCenter) topLeft.rx() -= size.width() / 2;
  if (align & Qt::AlignVCenter) topLeft.ry() -= size.height() / 2;
  const QRectF box(topLeft, size);
  p.setPen(Qt::NoPen);
  p.setBrush(bg);
  p.drawRoundedRect(box, size.height() / 2, size.height() / 2);
  p.setPen(theme::brightText());
  p.drawText(box, Qt::AlignCenter, text);
}

void PreviewWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), theme::canvas());
  if (placeholderVisible()) return;
  p.setRenderHint(QPainter::SmoothPixmapTransform);
  p.setRenderHint(QPainter::Antialiasing);

  const QRectF target = imageRect();
  // A frame made with an older filter than the editor's is dimmed, so it is not taken for the new result.
  const bool dim = isDimmed();
  if (!m_filteredImage.isNull()) {
    switch (m_mode) {
      case ViewMode::Filtered:
        p.drawImage(target, m_filteredImage);
        if (dim) p.fillRect(target, theme::staleShade());
        break;
      case ViewMode::Original:
        p.drawImage(target, m_originalImage);
        break;
      case ViewMode::Split: {
        const double x = target.left() + m_split * target.width();
        const double srcX = m_split * m_filteredImage.width();
        // Draw each half from its own image; the source rectangles meet at the same pixel column.
        p.drawImage(QRectF(target.left(), target.top(), x - target.left(), target.height()), m_originalImage,
                    QRectF(0, 0, srcX, m_originalImage.height()));
        p.drawImage(QRectF(x, target.top(), target.right() - x, target.height()), m_filteredImage,
                    QRectF(srcX, 0, m_filteredImage.width() - srcX, m_filteredImage.height()));
        if (dim)
          p.fillRect(QRectF(x, target.top(), target.right() - x, target.height()), theme::staleShade());
        p.setPen(QPen(theme::splitLine(), 2));
        p.drawLine(QPointF(x, target.top()), QPointF(x, target.bottom()));
        const QPointF handle(x, target.center().y());
        p.setBrush(theme::splitKnob());
        p.setPen(Qt::NoPen);
        p.drawEllipse(handle, 13, 13);
        p.setPen(QPen(theme::window(), 2));
        p.drawLine(handle + QPointF(-6, 0), handle + QPointF(-2, -4));
        p.drawLine(handle + QPointF(-6, 0), handle + QPointF(-2, 4));
        p.drawLine(handle + QPointF(6, 0), handle + QPointF(2, -4));
        p.drawLine(handle + QPointF(6, 0), handle + QPointF(2, 4));
        QFont f = font();
        f.setPointSizeF(8.5);
        f.setBold(true);
        p.setFont(f);
        drawPill(p, target.topLeft() + QPointF(10, 10), tr("ORIGINAL"), Qt::AlignLeft,
                 theme::pillColor(theme::Pill::Label));
        drawPill(p, target.topRight() + QPointF(-10, 10), tr("FILTERED"), Qt::AlignRight,
                 theme::pillColor(theme::Pill::Label));
        break;
      }
    }
    if (m_frame && m_frame->record.sequence != m_paintedSequence) {
      m_paintedSequence = m_frame->record.sequence;
      emit framePainted(std::chrono::steady_clock::now(), m_frame->record);
    }
  }

  QFont f = font();
  f.setPointSizeF(9);
  p.setFont(f);
  if (m_mode == ViewMode::Original && !m_filteredImage.isNull())
    drawPill(p, target.topLeft() + QPointF(10, 10), tr("ORIGINAL"), Qt::AlignLeft,
             theme::pillColor(theme::Pill::Label));
  if (m_frame && m_frame->record.bypassed && m_mode != ViewMode::Original)
    drawPill(p, target.topRight() + QPointF(-10, m_mode == ViewMode::Split ? 44 : 10), tr("BYPASS"),
             Qt::AlignRight, theme::pillColor(theme::Pill::Bypass));
  if (m_paused && m_disconnected.isEmpty())
    drawPill(p, QPointF(target.left() + 10, target.bottom() - 38), tr("❚❚  Paused"), Qt::AlignLeft,
             theme::pillColor(theme::Pill::Paused));

  // Processing carries on while the next engine is prepared: say what it waits on, and mark a frame made
  // with an older filter than the editor shows.
  const bool showStale = staleShown();
  if ((showStale || !m_preparing.isEmpty()) && m_mode != ViewMode::Original && m_disconnected.isEmpty()) {
    QString text;
    if (showStale)
      text = m_frame && m_frame->record.unfiltered ? tr("Unfiltered — waiting for the engine")
                                                   : tr("Previous filter — the new one is on its way");
    if (!m_preparing.isEmpty()) text += (text.isEmpty() ? QString() : QStringLiteral(" · ")) + m_preparing;
    const QRectF area = m_filteredImage.isNull() ? QRectF(rect()) : target;
    drawPill(p, QPointF(area.right() - 10, area.bottom() - 38), QStringLiteral("⟳  ") + text, Qt::AlignRight,
             theme::pillColor(showStale ? theme::Pill::Stale : theme::Pill::Preparing));
  }

  if (!m_disconnected.isEmpty()) {
    p.fillRect(m_filteredImage.isNull() ? QRectF(rect()) : target, theme::disconnectedShade());
    QFont big = font();
    big.setPointSizeF(13);
    big.setBold(true);
    p.setFont(big);
    drawPill(p, QRectF(rect()).center(), m_disconnected, Qt::AlignHCenter | Qt::AlignVCenter,
             theme::pillColor(theme::Pill::Disconnected));
  } else if (!m_busy.isEmpty()) {
    QFont big = font();
    big.setPointSizeF(12);
    p.setFont(big);
    drawPill(p, QRectF(rect()).center(), m_busy, Qt::AlignHCenter | Qt::AlignVCenter,
             theme::pillColor(theme::Pill::Busy));
  }
  if (!m_banner.isEmpty()) {
    const QRectF strip(0, 0, width(), 30);
    p.fillRect(strip, theme::bannerBackground());
    p.setPen(theme::bannerText());
    p.setFont(font());
    p.drawText(strip.adjusted(12, 0, -12, 0), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(m_banner, Qt::ElideRight, width() - 24));
  }
  if (m_overlay && !m_filteredImage.isNull()) m_overlay(p, target);
}

void PreviewWidget::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  if (nearDivider(event->position())) {
    m_drag = Drag::Divider;
  } else if (m_mode == ViewMode::Split && imageRect().contains(event->position())) {
    // A click anywhere in split view moves the divider there.
    m_drag = Drag::Divider;
    mouseMoveEvent(event);
  } else if (!m_fit) {
    m_drag = Drag::Pan;
    m_dragStart = event->position();
    m_panStart = m_pan;
    setCursor(Qt::ClosedHandCursor);
  }
}

void PreviewWidget::mouseMoveEvent(QMouseEvent* event) {
  if (m_drag == Drag::Divider) {
    const QRectF r = imageRect();
    if (r.width() > 0) {
      setSplitPosition((event->position().x() - r.left()) / r.width());
      emit splitPositionChanged(m_split);
    }
  } else if (m_drag == Drag::Pan) {
    m_pan = m_panStart + (event->position() - m_dragStart);
    update();
  } else {
    setCursor(nearDivider(event->position()) ? Qt::SplitHCursor
                                             : (!m_fit ? Qt::OpenHandCursor : Qt::ArrowCursor));
  }
  const QPoint framePos = framePosition(event->position());
  if (framePos.x() >= 0)
    emit hovered(framePos, event->modifiers());
  else
    emit hoverLeft();
}

void PreviewWidget::leaveEvent(QEvent* event) {
  emit hoverLeft();
  QWidget::leaveEvent(event);
}

void PreviewWidget::setOverlayPainter(OverlayPainter painter) {
  m_overlay = std::move(painter);
  update();
}

QPoint PreviewWidget::framePosition(const QPointF& pos) const {
  const QRectF r = imageRect();
  if (r.isEmpty() || !r.contains(pos)) return {-1, -1};
  const int x = static_cast<int>((pos.x() - r.left()) / r.width() * m_filteredImage.width());
  const int y = static_cast<int>((pos.y() - r.top()) / r.height() * m_filteredImage.height());
  return {std::clamp(x, 0, m_filteredImage.width() - 1), std::clamp(y, 0, m_filteredImage.height() - 1)};
}

void PreviewWidget::mouseReleaseEvent(QMouseEvent*) {
  m_drag = Drag::None;
  setCursor(Qt::ArrowCursor);
}

void PreviewWidget::mouseDoubleClickEvent(QMouseEvent*) {
  setFitToWindow(!m_fit);
}

}  // namespace convolab::gui
