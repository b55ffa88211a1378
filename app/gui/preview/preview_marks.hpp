// SPDX-License-Identifier: MIT
// PreviewMarks: what the preview paints over the frame layer, after the canvas (OpenGL or raster) drew the
// frame: the pixel grid, the split divider and its side labels, ORIGINAL, the zoom, BYPASS, Paused, the
// note, the stale / stall / preparing pill, a disconnected or busy message and the banner. It decides which
// to draw and with what text; preview_overlays.hpp has the drawing primitives.
#pragma once

#include <QCoreApplication>
#include <QFont>
#include <QRectF>

#include "preview/preview_state.hpp"
#include "processing/processed_frame.hpp"

class QPainter;

namespace convolab::gui {

class PreviewView;

class PreviewMarks {
  Q_DECLARE_TR_FUNCTIONS(PreviewMarks)

 public:
  /// What one paint shows, as the preview knows it.
  struct Scene {
    const PreviewView& view;
    ViewMode mode;
    const PreviewMessages& messages;
    const FrameRecord* record;  ///< the shown frame's; null before the first
    bool picture;               ///< a frame is shown (else only the messages are)
    bool staleShown;            ///< the stale mark is due (PreviewStaleMark::due)
    QRectF bounds;              ///< the preview's rectangle
    QFont font;                 ///< the preview's font
  };

  /// Paints `scene` over the frame layer; returns the part of the frame in view (where the pills sit, and
  /// the inspector's overlay goes).
  QRectF paint(QPainter& p, const Scene& scene);
  /// Where the stale / stall / preparing pill was last painted (empty: not shown).
  QRectF statePill() const { return m_statePill; }
  /// A stall message is shown: only over a picture that is there (before the first one, the busy message
  /// says what happens).
  static bool stallShown(const Scene& scene);

 private:
  /// The divider and the ORIGINAL / FILTERED labels of the sides in view.
  void paintSplit(QPainter& p, const Scene& scene, const QRectF& target) const;
  /// ORIGINAL, the zoom, BYPASS, Paused and the note.
  void paintLabels(QPainter& p, const Scene& scene, const QRectF& target) const;
  /// Processing carries on while the next engine is prepared: what it waits on, a stall, and a frame made
  /// with an older filter than the editor shows.
  void paintStatePill(QPainter& p, const Scene& scene, const QRectF& target);
  /// The disconnected or busy message in the middle, and the banner along the top.
  void paintMessages(QPainter& p, const Scene& scene, const QRectF& target) const;
  /// The state pill's text; empty: none.
  static QString statePillText(const Scene& scene);
  /// Draws a pill at `anchor`, kept (and its text elided) inside the preview; returns where it went.
  static QRectF pill(QPainter& p, const Scene& scene, const QPointF& anchor, const QString& text,
                     Qt::Alignment align, const QColor& bg);

  QRectF m_statePill;
};

}  // namespace convolab::gui
