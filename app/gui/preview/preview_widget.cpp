// SPDX-License-Identifier: MIT
// The preview: shared frames drawn by a back-end canvas (OpenGL or raster), split compare, and the state the
// overlays show. The mouse and zoom are in preview_interaction.cpp, the overlays in preview_marks.cpp.
#include "preview/preview_widget.hpp"

#include <QPainter>
#include <QPushButton>
#include <QTimer>

#include "preview/preview_dialog_placer.hpp"
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

}  // namespace

PreviewWidget::PreviewWidget(QWidget* parent, const QString& rendererSetting) : QWidget(parent) {
  setObjectName(QStringLiteral("preview"));
  setAttribute(Qt::WA_OpaquePaintEvent);
  connect(&m_backEnd, &PreviewBackEnd::changed, this, &PreviewWidget::rendererChanged);
  m_backEnd.choose(rendererPreference(rendererSetting));

  setMouseTracking(true);
  setMinimumSize(320, 240);
  setFocusPolicy(Qt::StrongFocus);

  m_placeholder = new PreviewPlaceholder(this);
  connect(openImageButton(), &QPushButton::clicked, this, &PreviewWidget::openImageRequested);
  connect(openVideoButton(), &QPushButton::clicked, this, &PreviewWidget::openVideoRequested);
  connect(testPatternButton(), &QPushButton::clicked, this, &PreviewWidget::testPatternRequested);
  new PreviewDialogPlacer(this, m_view);  // a child: watches while the preview lives

  connect(&m_interaction, &PreviewInteraction::hovered, this, &PreviewWidget::hovered);
  connect(&m_interaction, &PreviewInteraction::hoverLeft, this, &PreviewWidget::hoverLeft);
  connect(&m_interaction, &PreviewInteraction::fitToWindowChanged, this, &PreviewWidget::fitToWindowChanged);
  connect(&m_interaction, &PreviewInteraction::zoomChanged, this, &PreviewWidget::zoomChanged);
  connect(&m_interaction, &PreviewInteraction::moved, this, &PreviewWidget::refresh);
  connect(&m_interaction, &PreviewInteraction::splitMoved, this, [this] {
    refresh();
    emit splitPositionChanged(m_view.split());
  });
}

PreviewWidget::~PreviewWidget() = default;

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
    m_interaction.viewChanged();
  } else {
    refresh();
    m_interaction.reportHover();  // new pixels under a still pointer
  }
}

void PreviewWidget::refresh() {
  // The canvas draws everything: the frame layer and, through paintOverlays(), the overlays.
  if (QWidget* canvas = m_backEnd.canvas()) canvas->update();
}

void PreviewWidget::changeMessage(QString& field, const QString& message) {
  if (message == field) return;
  field = message;
  refresh();
}

void PreviewWidget::setCurrentRevision(std::uint64_t revision) {
  m_stale.setCurrentRevision(revision);
  updateStale();
}

bool PreviewWidget::isDimmed() const {
  return staleShown() && m_mode != ViewMode::Original && m_messages.disconnected.isEmpty();
}

void PreviewWidget::updateStale() {
  if (!m_stale.update(m_frame ? &m_frame->record : nullptr)) return;
  if (m_stale.stale())
    QTimer::singleShot(PreviewStaleMark::kGrace + std::chrono::milliseconds(10), this, [this] { refresh(); });
  refresh();
}

void PreviewWidget::setViewMode(ViewMode mode) {
  m_mode = mode;
  setCursor(Qt::ArrowCursor);
  refresh();
}

void PreviewWidget::showPlaceholder(const QString& title, const QString& detail) {
  m_placeholder->setText(title, detail);
  m_placeholder->setGeometry(rect());
  m_placeholder->show();
  m_messages.disconnected.clear();
  m_messages.busy.clear();
  refresh();
}

void PreviewWidget::resizeEvent(QResizeEvent*) {
  m_view.setViewportSize(size());
  m_interaction.viewportResized();
  m_backEnd.canvas()->setGeometry(rect());
  m_placeholder->setGeometry(rect());
  // Narrow preview (docks open on a small screen): stack the three buttons instead of clipping them.
  m_placeholder->fitWidth(width());
}

void PreviewWidget::leaveEvent(QEvent* event) {
  m_interaction.leave();
  QWidget::leaveEvent(event);
}

void PreviewWidget::mousePressEvent(QMouseEvent* event) {
  if (!m_interaction.press(event, mouseScene())) QWidget::mousePressEvent(event);
}

void PreviewWidget::wheelEvent(QWheelEvent* event) {
  if (!m_interaction.wheel(event, mouseScene())) QWidget::wheelEvent(event);
}

PreviewInteraction::Scene PreviewWidget::mouseScene() const {
  return {m_mode == ViewMode::Split, !m_filteredImage.isNull(), placeholderVisible()};
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
  layer.target = m_view.imageRect();
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
  const PreviewMarks::Scene scene{m_view,
                                  m_mode,
                                  m_messages,
                                  m_frame ? &m_frame->record : nullptr,
                                  !m_filteredImage.isNull(),
                                  staleShown(),
                                  QRectF(rect()),
                                  font()};
  const QRectF target = m_marks.paint(p, scene);
  if (m_overlay && !m_filteredImage.isNull()) m_overlay(p, target);
}

}  // namespace convolab::gui
