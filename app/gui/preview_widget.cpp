// SPDX-License-Identifier: MIT
// The preview: shared frames drawn by a back-end canvas (OpenGL or raster), split compare, overlays for every
// source state.
#include "preview_widget.hpp"

#include <QApplication>
#include <QBoxLayout>
#include <QCursor>
#include <QFileDialog>
#include <QGuiApplication>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "preview_gl_canvas.hpp"
#include "preview_raster_canvas.hpp"
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

}  // namespace

PreviewWidget::PreviewWidget(QWidget* parent, const QString& rendererSetting) : QWidget(parent) {
  setObjectName(QStringLiteral("preview"));
  setAttribute(Qt::WA_OpaquePaintEvent);
  const RendererChoice choice = chooseRenderer(rendererPreference(rendererSetting));
  useRenderer(choice.renderer, choice.why);

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
  qApp->installEventFilter(this);
}

bool PreviewWidget::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Show && watched->isWidgetType()) {
    auto* dialog = qobject_cast<QFileDialog*>(watched);
    if (dialog && dialog->isWindow() && dialog->parentWidget() &&
        dialog->parentWidget()->window() == window() && isVisible())
      keepPictureInView(dialog);
  }
  return QWidget::eventFilter(watched, event);
}

void PreviewWidget::keepPictureInView(QWidget* dialog) const {
  // Runs before QDialog::showEvent, which would centre the dialog over the window; an explicit move() makes
  // it leave the position alone.
  const QRectF shown = m_view.visibleRect().isEmpty() ? QRectF(rect()) : m_view.visibleRect();
  const QRect picture(mapToGlobal(shown.topLeft().toPoint()), shown.size().toSize());
  const QRect area = window()->frameGeometry();
  const QSize size = dialog->frameGeometry().size();
  const int top = std::max(area.top(), area.center().y() - size.height() / 2);
  const auto hidden = [&](int left) {
    const QRect both = QRect(QPoint(left, top), size).intersected(picture);
    return both.isEmpty() ? 0 : both.width() * both.height();
  };
  int best = area.center().x() - size.width() / 2;
  for (const int left : {area.left(), area.right() + 1 - size.width()})
    if (hidden(left) < hidden(best)) best = left;
  dialog->move(best, top);
}

PreviewWidget::~PreviewWidget() = default;

void PreviewWidget::setRendererPreference(RendererPreference preference) {
  const RendererChoice choice = chooseRenderer(preference);
  useRenderer(choice.renderer, choice.why);
}

void PreviewWidget::useRenderer(PreviewRenderer renderer, const QString& why) {
  m_rendererWhy = why;
  if (m_canvas && renderer == m_renderer) return;
  if (m_canvas) {
    m_canvas->hide();
    // A GL canvas may be inside its own initialisation or paint right now.
    m_canvas->deleteLater();
  }
  m_renderer = renderer;
  if (renderer == PreviewRenderer::OpenGL) {
    auto* gl = new PreviewGlCanvas(this, this);
    // The description (version, renderer) is known once the canvas has its context.
    connect(gl, &PreviewGlCanvas::initialised, this, &PreviewWidget::rendererChanged);
    m_canvas = gl;
  } else
    m_canvas = new PreviewRasterCanvas(this, this);
  m_canvas->setGeometry(rect());
  m_canvas->lower();
  m_canvas->show();
  emit rendererChanged();
}

QString PreviewWidget::rendererDescription() const {
  if (m_renderer == PreviewRenderer::OpenGL) {
    const QString gl = static_cast<PreviewGlCanvas*>(m_canvas)->description();
    return gl.isEmpty() ? rendererName(m_renderer) : gl;
  }
  return m_rendererWhy.isEmpty() ? tr("Raster (QPainter)") : tr("Raster — %1").arg(m_rendererWhy);
}

void PreviewWidget::canvasFailed(const QString& why) {
  // Not from inside the canvas's own call: replace it once that returns.
  QMetaObject::invokeMethod(
      this, [this, why] { useRenderer(PreviewRenderer::Raster, why); }, Qt::QueuedConnection);
}

void PreviewWidget::setFrame(ProcessedFramePtr frame) {
  m_frame = std::move(frame);
  m_filteredImage = m_frame ? wrap(m_frame->filtered) : QImage();
  // One wrapper when both are the same pixels (bypassed, unfiltered): the GL path then uploads them once.
  m_originalImage = !m_frame                                 ? QImage()
                    : m_frame->original == m_frame->filtered ? m_filteredImage
                                                             : wrap(m_frame->original);
  const QSize before = m_view.imageSize();
  m_view.setImageSize(m_filteredImage.size());
  updateStale();
  if (m_view.imageSize() != before)
    viewChanged();
  else
    refresh();
}

void PreviewWidget::update() {
  refresh();
}

void PreviewWidget::refresh() {
  // The canvas draws everything: the frame layer and, through paintOverlays(), the overlays.
  if (m_canvas) m_canvas->update();
}

void PreviewWidget::setPreparing(const QString& message) {
  if (message == m_preparing) return;
  m_preparing = message;
  refresh();
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
    QTimer::singleShot(kStaleGrace + std::chrono::milliseconds(10), this, [this] { refresh(); });
  }
  refresh();
}

void PreviewWidget::setViewMode(ViewMode mode) {
  m_mode = mode;
  setCursor(Qt::ArrowCursor);
  refresh();
}

void PreviewWidget::setFitToWindow(bool fit) {
  if (fit == m_view.fit() && (fit || m_view.zoom() == 1.0)) return;
  m_view.setFit(fit);
  viewChanged();
}

void PreviewWidget::setZoom(double zoom) {
  m_view.zoomAt(zoom, QRectF(rect()).center());
  viewChanged();
}

void PreviewWidget::zoomIn() {
  m_view.zoomIn(QRectF(rect()).center());
  viewChanged();
}

void PreviewWidget::zoomOut() {
  m_view.zoomOut(QRectF(rect()).center());
  viewChanged();
}

void PreviewWidget::viewChanged() {
  if (m_view.fit() != m_wasFit) {
    m_wasFit = m_view.fit();
    emit fitToWindowChanged(m_wasFit);
  }
  if (m_view.scale() != m_lastScale) {
    m_lastScale = m_view.scale();
    emit zoomChanged();
  }
  refresh();
  // The frame moved under a still cursor: the inspector reads the pixel now under it.
  if (underMouse() && m_drag == Drag::None) {
    const QPoint framePos = framePosition(mapFromGlobal(QCursor::pos()));
    if (framePos.x() >= 0)
      emit hovered(framePos, QGuiApplication::queryKeyboardModifiers());
    else
      emit hoverLeft();
  }
}

void PreviewWidget::setSplitPosition(double position) {
  m_view.setSplit(position);
  refresh();
}

void PreviewWidget::setSplitVertical(bool vertical) {
  m_view.setSplitVertical(vertical);
  refresh();
}

void PreviewWidget::setPaused(bool paused) {
  m_paused = paused;
  refresh();
}

void PreviewWidget::showPlaceholder(const QString& title, const QString& detail) {
  m_placeholderTitle->setText(title);
  m_placeholderDetail->setText(detail);
  m_placeholderDetail->setVisible(!detail.isEmpty());
  m_placeholder->setGeometry(rect());
  m_placeholder->show();
  m_disconnected.clear();
  m_busy.clear();
  refresh();
}

void PreviewWidget::hidePlaceholder() {
  m_placeholder->hide();
  refresh();
}

bool PreviewWidget::placeholderVisible() const {
  return !m_placeholder->isHidden();
}
QString PreviewWidget::placeholderTitle() const {
  return m_placeholderTitle->text();
}

void PreviewWidget::setDisconnected(const QString& message) {
  m_disconnected = message;
  refresh();
}

void PreviewWidget::setBusyMessage(const QString& message) {
  m_busy = message;
  refresh();
}

void PreviewWidget::setBanner(const QString& message) {
  m_banner = message;
  refresh();
}

void PreviewWidget::resizeEvent(QResizeEvent*) {
  m_view.setViewportSize(size());
  if (m_view.scale() != m_lastScale) {
    m_lastScale = m_view.scale();
    emit zoomChanged();
  }
  m_canvas->setGeometry(rect());
  m_placeholder->setGeometry(rect());
  // Narrow preview (docks open on a small screen): stack the three buttons instead of clipping them.
  m_placeholderButtons->setDirection(width() < 560 ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
}

bool PreviewWidget::nearDivider(const QPointF& pos) const {
  if (m_mode != ViewMode::Split || m_filteredImage.isNull()) return false;
  return m_view.nearDivider(pos, kDividerGrab);
}

QRectF PreviewWidget::drawPill(QPainter& p, const QPointF& anchor, const QString& text, Qt::Alignment align,
                               const QColor& bg) const {
  // Inside the preview, whatever its width: a long text is elided rather than cut off at the left edge.
  const QRectF bounds = QRectF(rect()).adjusted(4, 4, -4, -4);
  const QFontMetricsF fm(p.font());
  const QString shown = fm.elidedText(text, Qt::ElideRight, std::max(0.0, bounds.width() - 20));
  const QSizeF size(std::min(fm.horizontalAdvance(shown) + 20, bounds.width()), fm.height() + 10);
  const QRectF box = placePill(size, anchor, align, bounds);
  p.setPen(Qt::NoPen);
  p.setBrush(bg);
  p.drawRoundedRect(box, size.height() / 2, size.height() / 2);
  p.setPen(theme::brightText());
  p.drawText(box, Qt::AlignCenter, shown);
  return box;
}

void PreviewWidget::drawPixelGrid(QPainter& p) const {
  if (!m_view.gridVisible() || m_filteredImage.isNull()) return;
  const QRectF shown = m_view.visibleRect();
  if (shown.isEmpty()) return;
  // One widget pixel wide, on the first widget column (row) of each frame pixel: whole-pixel rectangles,
  // the same on every paint engine.
  const QPoint first = m_view.framePixel(shown.topLeft());
  const QPoint last = m_view.framePixel(shown.bottomRight() - QPointF(0.5, 0.5));
  const int top = static_cast<int>(std::floor(shown.top())),
            bottom = static_cast<int>(std::ceil(shown.bottom()));
  const int left = static_cast<int>(std::floor(shown.left())),
            right = static_cast<int>(std::ceil(shown.right()));
  p.save();
  p.setRenderHint(QPainter::Antialiasing, false);
  const QColor colour = theme::pixelGrid();
  for (int x = first.x() + 1; x <= last.x(); ++x)
    p.fillRect(QRect(static_cast<int>(std::round(m_view.toWidget(QPointF(x, 0)).x())), top, 1, bottom - top),
               colour);
  for (int y = first.y() + 1; y <= last.y(); ++y)
    p.fillRect(QRect(left, static_cast<int>(std::round(m_view.toWidget(QPointF(0, y)).y())), right - left, 1),
               colour);
  p.restore();
}

PreviewLayer PreviewWidget::previewLayer() const {
  PreviewLayer layer;
  layer.background = theme::canvas();
  if (placeholderVisible() || m_filteredImage.isNull()) return layer;
  layer.filtered = m_filteredImage;
  layer.original = m_originalImage;
  layer.showOriginal = m_mode == ViewMode::Original;
  layer.split = m_mode == ViewMode::Split ? m_view.split() : -1;
  layer.splitVertical = m_view.splitVertical();
  layer.target = imageRect();
  layer.smooth = m_view.smoothSampling();
  // A frame made with an older filter than the editor's is dimmed, so it is not taken for the new result.
  if (isDimmed()) layer.shade = theme::staleShade();
  return layer;
}

void PreviewWidget::canvasPainted(const PaintTiming& timing) {
  if (placeholderVisible() || m_filteredImage.isNull() || !m_frame) return;
  if (m_frame->record.sequence == m_paintedSequence) return;
  m_paintedSequence = m_frame->record.sequence;
  m_lastPaintTiming = timing;
  emit framePainted(std::chrono::steady_clock::now(), m_frame->record);
  emit displayTimed(timing.cpuMs, timing.gpuMs);
}

void PreviewWidget::paintOverlays(QPainter& p) {
  if (placeholderVisible()) return;
  p.setRenderHint(QPainter::SmoothPixmapTransform);
  p.setRenderHint(QPainter::Antialiasing);

  drawPixelGrid(p);
  // The pills sit on the part of the frame in view (a zoomed frame reaches past the preview).
  const QRectF target = m_view.visibleRect().isEmpty() ? imageRect() : m_view.visibleRect();
  if (!m_filteredImage.isNull() && m_mode == ViewMode::Split) {
    const bool vertical = m_view.splitVertical();
    const QLineF line = m_view.divider();
    p.setPen(QPen(theme::splitLine(), 2));
    p.drawLine(line);
    // The knob in the middle of the divider's part in view.
    const QPointF handle =
        vertical ? QPointF(target.center().x(), line.y1()) : QPointF(line.x1(), target.center().y());
    p.setBrush(theme::splitKnob());
    p.setPen(Qt::NoPen);
    p.drawEllipse(handle, 13, 13);
    p.setPen(QPen(theme::window(), 2));
    // Two arrowheads pointing along the axis the divider moves on.
    const auto arrow = [&](double along, double across) {
      return vertical ? QPointF(across, along) : QPointF(along, across);
    };
    p.drawLine(handle + arrow(-6, 0), handle + arrow(-2, -4));
    p.drawLine(handle + arrow(-6, 0), handle + arrow(-2, 4));
    p.drawLine(handle + arrow(6, 0), handle + arrow(2, -4));
    p.drawLine(handle + arrow(6, 0), handle + arrow(2, 4));
    QFont f = font();
    f.setPointSizeF(8.5);
    f.setBold(true);
    p.setFont(f);
    drawPill(p, target.topLeft() + QPointF(10, 10), tr("ORIGINAL"), Qt::AlignLeft,
             theme::pillColor(theme::Pill::Label));
    if (vertical)
      drawPill(p, QPointF(target.left() + 10, std::max(line.y1(), target.top()) + 10), tr("FILTERED"),
               Qt::AlignLeft, theme::pillColor(theme::Pill::Label));
    else
      drawPill(p, target.topRight() + QPointF(-10, 10), tr("FILTERED"), Qt::AlignRight,
               theme::pillColor(theme::Pill::Label));
  }

  QFont f = font();
  f.setPointSizeF(9);
  p.setFont(f);
  if (m_mode == ViewMode::Original && !m_filteredImage.isNull())
    drawPill(p, target.topLeft() + QPointF(10, 10), tr("ORIGINAL"), Qt::AlignLeft,
             theme::pillColor(theme::Pill::Label));
  // The zoom, where the toolbar's Fit and 100 % (checked) do not say it already.
  if (!m_filteredImage.isNull() && !m_view.fit() && m_view.zoom() != 1.0)
    drawPill(p, QPointF(target.center().x(), target.top() + (m_banner.isEmpty() ? 10 : 40)),
             m_view.zoomText(), Qt::AlignHCenter, theme::pillColor(theme::Pill::Label));
  if (m_frame && m_frame->record.bypassed && m_mode != ViewMode::Original)
    drawPill(p, target.topRight() + QPointF(-10, m_mode == ViewMode::Split ? 44 : 10), tr("BYPASS"),
             Qt::AlignRight, theme::pillColor(theme::Pill::Bypass));
  if (m_paused && m_disconnected.isEmpty())
    drawPill(p, QPointF(target.left() + 10, target.bottom() - 38), tr("❚❚  Paused"), Qt::AlignLeft,
             theme::pillColor(theme::Pill::Paused));

  // Processing carries on while the next engine is prepared: say what it waits on, and mark a frame made
  // with an older filter than the editor shows.
  const bool showStale = staleShown();
  m_stalePill = {};
  if ((showStale || !m_preparing.isEmpty()) && m_mode != ViewMode::Original && m_disconnected.isEmpty()) {
    QString text;
    if (showStale)
      text = m_frame && m_frame->record.unfiltered ? tr("Unfiltered — waiting for the engine")
                                                   : tr("Previous filter — the new one is on its way");
    if (!m_preparing.isEmpty()) text += (text.isEmpty() ? QString() : QStringLiteral(" · ")) + m_preparing;
    const QRectF area = m_filteredImage.isNull() ? QRectF(rect()) : target;
    m_stalePill =
        drawPill(p, QPointF(area.right() - 10, area.bottom() - 38), QStringLiteral("⟳  ") + text,
                 Qt::AlignRight, theme::pillColor(showStale ? theme::Pill::Stale : theme::Pill::Preparing));
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
  const bool middle = event->button() == Qt::MiddleButton;
  if (event->button() != Qt::LeftButton && !middle) return QWidget::mousePressEvent(event);
  if (!middle && nearDivider(event->position())) {
    m_drag = Drag::Divider;
  } else if (!middle && m_mode == ViewMode::Split && m_view.fit() &&
             imageRect().contains(event->position())) {
    // Fitted, a click anywhere in split view moves the divider there (zoomed, a drag pans).
    m_drag = Drag::Divider;
    mouseMoveEvent(event);
  } else if (!m_view.fit()) {
    m_drag = Drag::Pan;
    m_dragStart = event->position();
    m_panStart = m_view.pan();
    setCursor(Qt::ClosedHandCursor);
  }
}

void PreviewWidget::mouseMoveEvent(QMouseEvent* event) {
  if (m_drag == Drag::Divider) {
    if (imageRect().width() > 0) {
      setSplitPosition(m_view.splitAt(event->position()));
      emit splitPositionChanged(m_view.split());
    }
  } else if (m_drag == Drag::Pan) {
    m_view.setPan(m_panStart + (event->position() - m_dragStart));
    refresh();
  } else {
    setCursor(nearDivider(event->position()) ? (m_view.splitVertical() ? Qt::SplitVCursor : Qt::SplitHCursor)
                                             : (!m_view.fit() ? Qt::OpenHandCursor : Qt::ArrowCursor));
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
  refresh();
}

QPoint PreviewWidget::framePosition(const QPointF& pos) const {
  return m_view.framePixel(pos);
}

void PreviewWidget::mouseReleaseEvent(QMouseEvent*) {
  m_drag = Drag::None;
  setCursor(Qt::ArrowCursor);
}

void PreviewWidget::mouseDoubleClickEvent(QMouseEvent* event) {
  // Fitted: 100 % around the pixel clicked; zoomed: fit.
  if (m_view.fit())
    m_view.zoomAt(1.0, event->position());
  else
    m_view.setFit(true);
  viewChanged();
}

void PreviewWidget::wheelEvent(QWheelEvent* event) {
  if (m_filteredImage.isNull() || placeholderVisible()) return QWidget::wheelEvent(event);
  // One zoom step per notch (120), around the cursor: the frame point under it stays under it.
  m_wheel += event->angleDelta().y();
  const QPointF at = event->position();
  bool changed = false;
  for (; m_wheel >= 120; m_wheel -= 120) m_view.zoomIn(at), changed = true;
  for (; m_wheel <= -120; m_wheel += 120) m_view.zoomOut(at), changed = true;
  if (changed) viewChanged();
  event->accept();
}

}  // namespace convolab::gui
