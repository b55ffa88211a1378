// SPDX-License-Identifier: MIT
// The preview: shared frames drawn by a back-end canvas (OpenGL or raster), split compare, overlays for every
// source state. The mouse and zoom are in preview_widget_mouse.cpp; the pill, grid and divider drawing in
// preview_overlays.cpp.
#include "preview/preview_widget.hpp"

#include <QApplication>
#include <QBoxLayout>
#include <QCursor>
#include <QFileDialog>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "preview/preview_gl_canvas.hpp"
#include "preview/preview_overlays.hpp"
#include "preview/preview_raster_canvas.hpp"
#include "window/theme.hpp"

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
  if (m_view.imageSize() != before) {
    viewChanged();
  } else {
    refresh();
    reportHover();  // new pixels under a still pointer
  }
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

void PreviewWidget::setSplitPosition(double position) {
  m_view.setSplit(position);
  refresh();
}

void PreviewWidget::setMirrored(bool mirrored) {
  m_view.setMirrored(mirrored);
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

QRectF PreviewWidget::drawPill(QPainter& p, const QPointF& anchor, const QString& text, Qt::Alignment align,
                               const QColor& bg) const {
  // Inside the preview, whatever its width: a long text is elided rather than cut off at the left edge.
  return drawPreviewPill(p, QRectF(rect()).adjusted(4, 4, -4, -4), anchor, text, align, bg);
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
  layer.mirrored = m_view.mirrored();
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

  if (!m_filteredImage.isNull()) drawPixelGrid(p, m_view);
  // The pills sit on the part of the frame in view (a zoomed frame reaches past the preview).
  const QRectF target = m_view.visibleRect().isEmpty() ? imageRect() : m_view.visibleRect();
  if (!m_filteredImage.isNull() && m_mode == ViewMode::Split) {
    drawSplitDivider(p, m_view, target);
    const bool vertical = m_view.splitVertical();
    const QLineF line = m_view.divider();
    QFont f = font();
    f.setPointSizeF(8.5);
    f.setBold(true);
    p.setFont(f);
    // A side out of view has no pill (sides.original: the part left of/above the divider is in view).
    const SplitSides sides = splitSidesInView(m_view, target);
    // Mirrored side by side, the original is right of the divider.
    const bool swapped = m_view.mirrored() && !vertical;
    if (sides.original)
      drawPill(p, target.topLeft() + QPointF(10, 10), swapped ? tr("FILTERED") : tr("ORIGINAL"),
               Qt::AlignLeft, theme::pillColor(theme::Pill::Label));
    if (sides.filtered && vertical)
      drawPill(p, QPointF(target.left() + 10, std::max(line.y1(), target.top()) + 10), tr("FILTERED"),
               Qt::AlignLeft, theme::pillColor(theme::Pill::Label));
    else if (!vertical && sides.filtered)
      drawPill(p, target.topRight() + QPointF(-10, 10), swapped ? tr("ORIGINAL") : tr("FILTERED"),
               Qt::AlignRight, theme::pillColor(theme::Pill::Label));
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
  if (!m_note.isEmpty() && m_mode != ViewMode::Original)
    drawPill(p, QPointF(target.left() + 10, target.bottom() - (m_paused ? 72 : 38)), m_note, Qt::AlignLeft,
             theme::pillColor(theme::Pill::Stale));

  // Processing carries on while the next engine is prepared: say what it waits on, and mark a frame made
  // with an older filter than the editor shows.
  const bool showStale = staleShown();
  m_stalePill = {};
  const QString text = statePillText(showStale);
  if (!text.isEmpty() && m_mode != ViewMode::Original && m_disconnected.isEmpty()) {
    const QRectF area = m_filteredImage.isNull() ? QRectF(rect()) : target;
    m_stalePill = drawPill(
        p, QPointF(area.right() - 10, area.bottom() - 38), QStringLiteral("⟳  ") + text, Qt::AlignRight,
        theme::pillColor(showStale || stallShown() ? theme::Pill::Stale : theme::Pill::Preparing));
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

QString PreviewWidget::statePillText(bool showStale) const {
  QStringList parts;
  if (showStale)
    parts << (m_frame && m_frame->record.unfiltered ? tr("Unfiltered — waiting for the engine")
                                                    : tr("Previous filter — the new one is on its way"));
  // Only over a picture that is there: before the first one, the busy message says what happens.
  if (stallShown()) parts << m_stall;
  if (!m_preparing.isEmpty()) parts << m_preparing;
  return parts.join(QStringLiteral(" · "));
}

void PreviewWidget::setStallMessage(const QString& message) {
  if (message == m_stall) return;
  m_stall = message;
  refresh();
}

void PreviewWidget::setNote(const QString& message) {
  if (message == m_note) return;
  m_note = message;
  refresh();
}

void PreviewWidget::setOverlayPainter(OverlayPainter painter) {
  m_overlay = std::move(painter);
  refresh();
}

QPoint PreviewWidget::framePosition(const QPointF& pos) const {
  return m_view.framePixel(pos);
}

}  // namespace convolab::gui
