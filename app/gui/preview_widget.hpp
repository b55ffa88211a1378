// SPDX-License-Identifier: MIT
// PreviewWidget: paints the filtered / original / split view with a draggable divider, plus state overlays.
#pragma once

#include <QImage>
#include <QWidget>
#include <chrono>
#include <functional>

#include "processed_frame.hpp"

class QBoxLayout;
class QLabel;
class QPushButton;

namespace convolab::gui {

enum class ViewMode { Filtered, Original, Split };

class PreviewWidget : public QWidget {
  Q_OBJECT

 public:
  explicit PreviewWidget(QWidget* parent = nullptr);

  /// Shows `frame` on the next paint (the images are wrapped, not copied).
  void setFrame(ProcessedFramePtr frame);
  ProcessedFramePtr frame() const { return m_frame; }

  void setViewMode(ViewMode mode);
  ViewMode viewMode() const { return m_mode; }
  void setFitToWindow(bool fit);
  bool fitToWindow() const { return m_fit; }
  /// Divider position in split view, 0..1 of the image width.
  void setSplitPosition(double position);
  double splitPosition() const { return m_split; }
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
  void splitPositionChanged(double position);
  void fitToWindowChanged(bool fit);
  void openImageRequested();
  void openVideoRequested();
  void testPatternRequested();
  /// The mouse is over frame pixel `framePos` (after every move); hoverLeft when it leaves the frame.
  void hovered(const QPoint& framePos, Qt::KeyboardModifiers modifiers);
  void hoverLeft();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  QRectF imageRect() const;
  bool nearDivider(const QPointF& pos) const;
  void drawPill(QPainter& p, const QPointF& anchor, const QString& text, Qt::Alignment align,
                const QColor& bg) const;
  void updateStale();
  /// The stale mark is due: stale for longer than the grace.
  bool staleShown() const;

  ProcessedFramePtr m_frame;
  QImage m_filteredImage;
  QImage m_originalImage;
  std::uint64_t m_paintedSequence = 0;
  ViewMode m_mode = ViewMode::Filtered;
  bool m_fit = true;
  double m_split = 0.5;
  bool m_paused = false;
  QString m_disconnected;
  QString m_busy;
  QString m_banner;
  QString m_preparing;
  std::uint64_t m_currentRevision = 0;
  std::chrono::steady_clock::time_point m_staleSince{};
  bool m_stale = false;
  QPointF m_pan;  // offset at 100 % when the image is larger than the view
  enum class Drag { None, Divider, Pan } m_drag = Drag::None;
  QPointF m_dragStart;
  QPointF m_panStart;

  QWidget* m_placeholder;
  QLabel* m_placeholderTitle;
  QLabel* m_placeholderDetail;
  QPushButton* m_openImage;
  QPushButton* m_openVideo;
  QPushButton* m_testPattern;
  QBoxLayout* m_placeholderButtons;
  OverlayPainter m_overlay;
};

}  // namespace convolab::gui
