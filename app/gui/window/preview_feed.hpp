// SPDX-License-Identifier: MIT
// PreviewFeed: the pipeline's results onto the main window's preview — each processed frame (not while a new
// source loads), its error banner and the status bar's frame label; the filter revision and "preparing" state
// — and the preview's paints, renderer and OpenGL frame swaps back to the statistics and the pipeline.
#pragma once

#include <QObject>

#include "processing/processed_frame.hpp"

class QLabel;

namespace convolab::gui {

class Pipeline;
class PreviewWidget;
class SourceController;
class StatsCollector;
class StatsPanel;

class PreviewFeed : public QObject {
  Q_OBJECT

 public:
  struct Parts {
    Pipeline* pipeline;
    PreviewWidget* preview;
    StatsCollector* stats;
    StatsPanel* statsPanel;
    SourceController* sources;
  };

  /// `parent` (the window) also holds the frame label until the status bar takes it.
  PreviewFeed(const Parts& parts, QWidget* parent);

  /// "640×480  00:01.200" (a video's time) or "640×480  #42" (a live source's sequence number).
  QLabel* frameLabel() const { return m_frameLabel; }

 signals:
  /// A processed frame was handed to the preview (after the statistics counted it).
  void frameShown(const convolab::gui::FrameRecord& record);

 private:
  void connectPreview();
  void onFrameProcessed(const FrameRecord& record);

  Parts m_parts;
  QLabel* m_frameLabel;
};

}  // namespace convolab::gui
