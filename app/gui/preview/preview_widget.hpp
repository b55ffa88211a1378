// SPDX-License-Identifier: MIT
// PreviewWidget: the filtered / original / split view with a draggable divider, plus state overlays. The
// frame layer is drawn by a back-end canvas (OpenGL, or the raster fallback) laid over this widget; the
// overlays (PreviewMarks) are painted on top of it with a QPainter, the same code for both. The mouse and
// zoom are PreviewInteraction's, the "no source" panel PreviewPlaceholder's.
#pragma once

#include <QImage>
#include <QWidget>
#include <chrono>
#include <functional>

#include "preview/preview_back_end.hpp"
#include "preview/preview_canvas.hpp"
#include "preview/preview_interaction.hpp"
#include "preview/preview_marks.hpp"
#include "preview/preview_placeholder.hpp"
#include "preview/preview_renderer.hpp"
#include "preview/preview_stale_mark.hpp"
#include "preview/preview_state.hpp"
#include "preview/preview_view.hpp"
#include "processing/processed_frame.hpp"

class QPushButton;

namespace convolab::gui {

class PreviewWidget : public QWidget, private PreviewCanvasHost {
  Q_OBJECT

 public:
  /// `rendererSetting`: the setting view/renderer ("auto", "opengl", "raster"; CONVOLAB_PREVIEW overrides).
  explicit PreviewWidget(QWidget* parent = nullptr, const QString& rendererSetting = {});
  ~PreviewWidget() override;

  /// Picks the back-end again (OpenGL when usable unless `preference` says raster).
  void setRendererPreference(RendererPreference preference) { m_backEnd.choose(preference); }
  /// The back-end painting now. OpenGL may still turn out unusable when its canvas first initialises; the
  /// preview then falls back to raster and emits rendererChanged().
  PreviewRenderer renderer() const { return m_backEnd.renderer(); }
  /// For people: "OpenGL 4.5 · llvmpipe (…)" or "Raster — no OpenGL context on this display".
  QString rendererDescription() const { return m_backEnd.description(); }
  /// How long the paint that showed the newest frame took (set before framePainted is emitted).
  PaintTiming lastPaintTiming() const { return m_lastPaintTiming; }
  /// The canvas drawing the frame layer (the OpenGL or raster widget laid over this one).
  QWidget* canvas() const { return m_backEnd.canvas(); }
  /// Where the frame lies and how widget and frame pixels map.
  const PreviewView& view() const { return m_view; }
  /// Repaints the preview (the inspector calls this when its overlay changes). QWidget::update() alone would
  /// not: the opaque canvas laid over this widget covers it, and only the canvas paints.
  using QWidget::update;
  void update() { refresh(); }

  /// Shows `frame` on the next paint (the images are wrapped, not copied).
  void setFrame(ProcessedFramePtr frame);
  ProcessedFramePtr frame() const { return m_frame; }

  void setViewMode(ViewMode mode);
  ViewMode viewMode() const { return m_mode; }
  /// Fit, or (false) 100 % centred.
  void setFitToWindow(bool fit) { m_interaction.setFit(fit); }
  bool fitToWindow() const { return m_view.fit(); }
  /// Zooms to `zoom` (widget pixels per frame pixel) around the preview's centre: the frame point there
  /// stays there.
  void setZoom(double zoom) { m_interaction.setZoom(zoom); }
  /// One step up or down (PreviewView's steps), around the centre.
  void zoomIn() { m_interaction.zoomIn(); }
  void zoomOut() { m_interaction.zoomOut(); }
  /// Split top (original) / bottom (filtered) instead of left / right.
  void setSplitVertical(bool vertical) {
    m_view.setSplitVertical(vertical);
    refresh();
  }
  /// View ▸ Mirror Preview: flips what is shown only (saves, recordings and the virtual camera never see it).
  void setMirrored(bool mirrored) {
    m_view.setMirrored(mirrored);
    refresh();
  }
  bool mirrored() const { return m_view.mirrored(); }
  bool splitVertical() const { return m_view.splitVertical(); }
  /// Where the stale / stall / preparing pill was last painted (empty: not shown); kept inside the preview.
  QRectF stalePillRect() const { return m_marks.statePill(); }
  /// Divider position in split view, 0..1 of the image width.
  void setSplitPosition(double position) {
    m_view.setSplit(position);
    refresh();
  }
  double splitPosition() const { return m_view.split(); }
  void setPaused(bool paused) {
    m_messages.paused = paused;
    refresh();
  }

  /// "No source" state: the frame is hidden and a panel offers Open image / Open video / Test pattern.
  void showPlaceholder(const QString& title, const QString& detail);
  void hidePlaceholder() {
    m_placeholder->hide();
    refresh();
  }
  bool placeholderVisible() const { return !m_placeholder->isHidden(); }
  /// The last frame stays, dimmed, under `message` (a disconnected camera); empty clears it.
  void setDisconnected(const QString& message) {
    m_messages.disconnected = message;
    refresh();
  }
  QString disconnectedMessage() const { return m_messages.disconnected; }
  /// A transient state line in the middle ("Opening camera…"); empty clears it.
  void setBusyMessage(const QString& message) {
    m_messages.busy = message;
    refresh();
  }
  /// A warning strip along the top (processing failed, showing the original); empty clears it.
  void setBanner(const QString& message) {
    m_messages.banner = message;
    refresh();
  }
  /// What the next engine waits on ("measuring strategies 3/10…", "building kernel…"): shown in a corner
  /// while processing carries on; empty clears it.
  void setPreparing(const QString& message) { changeMessage(m_messages.preparing, message); }
  QString preparingMessage() const { return m_messages.preparing; }
  /// A standing note in the bottom-left corner (the Custom OpenCL panel: "the last good kernel runs");
  /// empty clears it.
  void setNote(const QString& message) { changeMessage(m_messages.note, message); }
  QString note() const { return m_messages.note; }
  /// Why the picture is older than it should be ("Waiting for the processing thread — 1.8 s":
  /// PreviewStallWatch), marked with the stale / preparing pill; empty clears it.
  void setStallMessage(const QString& message) { changeMessage(m_messages.stall, message); }
  QString stallMessage() const { return m_messages.stall; }
  /// The newest filter revision the editor published: a shown frame made with an older one is stale.
  void setCurrentRevision(std::uint64_t revision);
  /// The shown frame was made with an older filter than the editor's (or passed through unfiltered while the
  /// engine is prepared). Marked on screen once it lasts longer than a frame or two.
  bool isStale() const { return m_stale.stale(); }
  /// The stale frame is shown dimmed under the "Previous filter" pill (after the same grace as the pill), so
  /// it is not mistaken for the new filter's result; a current frame is shown at full brightness at once.
  bool isDimmed() const;

  QPushButton* openImageButton() const { return m_placeholder->openImageButton(); }
  QPushButton* openVideoButton() const { return m_placeholder->openVideoButton(); }
  QPushButton* testPatternButton() const { return m_placeholder->testPatternButton(); }
  QString placeholderTitle() const { return m_placeholder->title(); }

  /// Paints over the frame after everything else (the pixel inspector); `imageRect` is where the frame
  /// is drawn. An empty function removes it.
  using OverlayPainter = std::function<void(QPainter& painter, const QRectF& imageRect)>;
  void setOverlayPainter(OverlayPainter painter) {
    m_overlay = std::move(painter);
    refresh();
  }
  /// Frame pixel under widget position `pos`; (-1, -1) when outside the frame.
  QPoint framePosition(const QPointF& pos) const { return m_view.framePixel(pos); }

 signals:
  /// A new frame reached the screen at `when` (for the displayed-FPS counter, the capture-to-display latency
  /// from record.captured, and edit → screen from its revision, flags and strategy).
  void framePainted(std::chrono::steady_clock::time_point when, const convolab::gui::FrameRecord& record);
  /// The paint that showed a new frame took `cpuMs` on the GUI thread (upload and drawing); `gpuMs`: the GPU
  /// time of a recent paint where the back-end measures it (OpenGL timer queries), else < 0.
  void displayTimed(double cpuMs, double gpuMs);
  /// The back-end changed (OpenGL fell back to raster, or the preference changed).
  void rendererChanged();
  void splitPositionChanged(double position);
  void fitToWindowChanged(bool fit);
  /// The scale changed (fit, zoom, or the fitted scale with the size); view() has the new one.
  void zoomChanged();
  void openImageRequested();
  void openVideoRequested();
  void testPatternRequested();
  /// The mouse is over frame pixel `framePos` (after every move); hoverLeft when it leaves the frame.
  void hovered(const QPoint& framePos, Qt::KeyboardModifiers modifiers);
  void hoverLeft();

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override { m_interaction.move(event, mouseScene()); }
  void mouseReleaseEvent(QMouseEvent*) override { m_interaction.release(); }
  void mouseDoubleClickEvent(QMouseEvent* event) override { m_interaction.doubleClick(event); }
  void wheelEvent(QWheelEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  // PreviewCanvasHost: what the canvas draws, and what it reports.
  PreviewLayer previewLayer() const override;
  void paintOverlays(QPainter& p) override;
  void canvasPainted(const PaintTiming& timing) override;
  void canvasFailed(const QString& why) override { m_backEnd.fallBack(why); }
  /// Repaints the canvas (frame layer and overlays).
  void refresh();
  /// Sets `field` to `message` and repaints, when it changed.
  void changeMessage(QString& field, const QString& message);
  PreviewInteraction::Scene mouseScene() const;
  /// After a new frame or revision: the stale mark, and a repaint once its grace has passed.
  void updateStale();
  /// The stale mark is due: stale for longer than the grace, over a picture.
  bool staleShown() const { return m_stale.due() && !m_filteredImage.isNull(); }

  ProcessedFramePtr m_frame;
  QImage m_filteredImage;
  QImage m_originalImage;
  std::uint64_t m_paintedSequence = 0;
  ViewMode m_mode = ViewMode::Filtered;
  PreviewView m_view;
  PreviewInteraction m_interaction{this, m_view};
  PreviewMessages m_messages;
  PreviewStaleMark m_stale;
  PreviewMarks m_marks;
  PreviewPlaceholder* m_placeholder = nullptr;
  OverlayPainter m_overlay;
  PreviewBackEnd m_backEnd{this, this};
  PaintTiming m_lastPaintTiming;
};

}  // namespace convolab::gui
