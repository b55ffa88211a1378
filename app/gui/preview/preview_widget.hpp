// SPDX-License-Identifier: MIT
// PreviewWidget: the filtered / original / split view with a draggable divider, plus state overlays. The
// frame layer is drawn by a back-end canvas (OpenGL, or the raster fallback) laid over this widget; the
// overlays are painted on top of it with a QPainter, the same code for both.
#pragma once

#include <QImage>
#include <QWidget>
#include <chrono>
#include <functional>
#include <optional>

#include "preview/preview_canvas.hpp"
#include "preview/preview_renderer.hpp"
#include "preview/preview_view.hpp"
#include "processing/processed_frame.hpp"

class QBoxLayout;
class QLabel;
class QPushButton;

namespace convolab::gui {

enum class ViewMode { Filtered, Original, Split };

class PreviewWidget : public QWidget, private PreviewCanvasHost {
  Q_OBJECT

 public:
  /// `rendererSetting`: the setting view/renderer ("auto", "opengl", "raster"; CONVOLAB_PREVIEW overrides).
  explicit PreviewWidget(QWidget* parent = nullptr, const QString& rendererSetting = {});
  ~PreviewWidget() override;

  /// Picks the back-end again (OpenGL when usable unless `preference` says raster).
  void setRendererPreference(RendererPreference preference);
  /// The back-end painting now. OpenGL may still turn out unusable when its canvas first initialises; the
  /// preview then falls back to raster and emits rendererChanged().
  PreviewRenderer renderer() const { return m_renderer; }
  /// For people: "OpenGL 4.5 · llvmpipe (…)" or "Raster — no OpenGL context on this display".
  QString rendererDescription() const;
  /// How long the paint that showed the newest frame took (set before framePainted is emitted).
  PaintTiming lastPaintTiming() const { return m_lastPaintTiming; }
  /// The canvas drawing the frame layer (the OpenGL or raster widget laid over this one).
  QWidget* canvas() const { return m_canvas; }
  /// Where the frame lies and how widget and frame pixels map.
  const PreviewView& view() const { return m_view; }
  /// Repaints the preview (the inspector calls this when its overlay changes). QWidget::update() alone would
  /// not: the opaque canvas laid over this widget covers it, and only the canvas paints.
  using QWidget::update;
  void update();

  /// Shows `frame` on the next paint (the images are wrapped, not copied).
  void setFrame(ProcessedFramePtr frame);
  ProcessedFramePtr frame() const { return m_frame; }

  void setViewMode(ViewMode mode);
  ViewMode viewMode() const { return m_mode; }
  /// Fit, or (false) 100 % centred.
  void setFitToWindow(bool fit);
  bool fitToWindow() const { return m_view.fit(); }
  /// Zooms to `zoom` (widget pixels per frame pixel) around the preview's centre: the frame point there
  /// stays there.
  void setZoom(double zoom);
  /// One step up or down (PreviewView's steps), around the centre.
  void zoomIn();
  void zoomOut();
  /// Split top (original) / bottom (filtered) instead of left / right.
  void setSplitVertical(bool vertical);
  /// View ▸ Mirror Preview: flips what is shown only (saves, recordings and the virtual camera never see it).
  void setMirrored(bool mirrored);
  bool mirrored() const { return m_view.mirrored(); }
  bool splitVertical() const { return m_view.splitVertical(); }
  /// Where the stale / stall / preparing pill was last painted (empty: not shown); kept inside the preview.
  QRectF stalePillRect() const { return m_stalePill; }
  /// Divider position in split view, 0..1 of the image width.
  void setSplitPosition(double position);
  double splitPosition() const { return m_view.split(); }
  void setPaused(bool paused);

  /// "No source" state: the frame is hidden and a panel offers Open image / Open video / Test pattern.
  void showPlaceholder(const QString& title, const QString& detail);
  void hidePlaceholder();
  bool placeholderVisible() const;
  /// The last frame stays, dimmed, under `message` (a disconnected camera); empty clears it.
  void setDisconnected(const QString& message);
  QString disconnectedMessage() const { return m_disconnected; }
  /// A transient state line in the middle ("Opening camera…"); empty clears it.
  void setBusyMessage(const QString& message);
  /// A warning strip along the top (processing failed, showing the original); empty clears it.
  void setBanner(const QString& message);
  /// What the next engine waits on ("measuring strategies 3/10…", "building kernel…"): shown in a corner
  /// while processing carries on; empty clears it.
  void setPreparing(const QString& message);
  QString preparingMessage() const { return m_preparing; }
  /// A standing note in the bottom-left corner (the Custom OpenCL panel: "the last good kernel runs");
  /// empty clears it.
  void setNote(const QString& message);
  QString note() const { return m_note; }
  /// Why the picture is older than it should be ("Waiting for the processing thread — 1.8 s":
  /// PreviewStallWatch), marked with the stale / preparing pill; empty clears it.
  void setStallMessage(const QString& message);
  QString stallMessage() const { return m_stall; }
  /// The newest filter revision the editor published: a shown frame made with an older one is stale.
  void setCurrentRevision(std::uint64_t revision);
  /// The shown frame was made with an older filter than the editor's (or passed through unfiltered while the
  /// engine is prepared). Marked on screen once it lasts longer than a frame or two.
  bool isStale() const;
  /// The stale frame is shown dimmed under the "Previous filter" pill (after the same grace as the pill), so
  /// it is not mistaken for the new filter's result; a current frame is shown at full brightness at once.
  bool isDimmed() const;

  QPushButton* openImageButton() const { return m_openImage; }
  QPushButton* openVideoButton() const { return m_openVideo; }
  QPushButton* testPatternButton() const { return m_testPattern; }
  QString placeholderTitle() const;

  /// Paints over the frame after everything else (the pixel inspector); `imageRect` is where the frame
  /// is drawn. An empty function removes it.
  using OverlayPainter = std::function<void(QPainter& painter, const QRectF& imageRect)>;
  void setOverlayPainter(OverlayPainter painter);
  /// Frame pixel under widget position `pos`; (-1, -1) when outside the frame.
  QPoint framePosition(const QPointF& pos) const;

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
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  /// Moves a file dialog of this window off the picture as it opens (see keepPictureInView).
  bool eventFilter(QObject* watched, QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  // PreviewCanvasHost: what the canvas draws, and what it reports.
  PreviewLayer previewLayer() const override;
  void paintOverlays(QPainter& p) override;
  void canvasPainted(const PaintTiming& timing) override;
  void canvasFailed(const QString& why) override;
  void useRenderer(PreviewRenderer renderer, const QString& why);
  /// Repaints the canvas (frame layer and overlays).
  void refresh();

  QRectF imageRect() const { return m_view.imageRect(); }
  bool nearDivider(const QPointF& pos) const;
  /// Draws a pill at `anchor`, kept (and its text elided) inside the preview; returns where it went.
  QRectF drawPill(QPainter& p, const QPointF& anchor, const QString& text, Qt::Alignment align,
                  const QColor& bg) const;
  /// After a zoom or fit change: signals, repaint, and the hover (the pixel under the cursor moved).
  void viewChanged();
  /// Emits hovered (or hoverLeft) for the frame pixel now under the last hover position: a new frame or a
  /// zoom under a still pointer refreshes the inspector's line (issue 33.4). Nothing while not hovered.
  void reportHover();
  /// A file dialog opened over this window: centred, it covered the whole picture at 1366×768 (and, dark
  /// and frameless without a window manager, read as a blank preview). It goes to the window's left or
  /// right edge, whichever hides less of the picture.
  void keepPictureInView(QWidget* dialog) const;
  void updateStale();
  /// The stale mark is due: stale for longer than the grace.
  bool staleShown() const;
  bool stallShown() const { return !m_stall.isEmpty() && !m_filteredImage.isNull() && m_busy.isEmpty(); }
  /// The corner pill's text: a stale frame, a stalled picture and what the next engine waits on; empty: none.
  QString statePillText(bool showStale) const;

  ProcessedFramePtr m_frame;
  QImage m_filteredImage;
  QImage m_originalImage;
  std::uint64_t m_paintedSequence = 0;
  ViewMode m_mode = ViewMode::Filtered;
  PreviewView m_view;
  bool m_paused = false;
  QString m_disconnected;
  QString m_busy;
  QString m_banner;
  QString m_preparing;
  QString m_note;
  QString m_stall;
  std::uint64_t m_currentRevision = 0;
  std::chrono::steady_clock::time_point m_staleSince{};
  bool m_stale = false;
  enum class Drag { None, Divider, Pan } m_drag = Drag::None;
  QPointF m_dragStart;
  QPointF m_panStart;
  int m_wheel = 0;  // wheel angle not yet turned into a zoom step (touchpads send small deltas)
  bool m_wasFit = true;
  double m_lastScale = 0;
  std::optional<QPointF> m_hoverPos;  ///< where the pointer last moved over the preview; none once it left
  QRectF m_stalePill;

  QWidget* m_placeholder;
  QLabel* m_placeholderTitle;
  QLabel* m_placeholderDetail;
  QPushButton* m_openImage;
  QPushButton* m_openVideo;
  QPushButton* m_testPattern;
  QBoxLayout* m_placeholderButtons;
  OverlayPainter m_overlay;

  QWidget* m_canvas = nullptr;
  PreviewRenderer m_renderer = PreviewRenderer::Raster;
  QString m_rendererWhy;  // why raster, when OpenGL was wanted
  PaintTiming m_lastPaintTiming;
};

}  // namespace convolab::gui
