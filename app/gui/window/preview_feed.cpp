// SPDX-License-Identifier: MIT
// The pipeline → preview wiring of the main window, and the preview → statistics way back.
#include "window/preview_feed.hpp"

#include <QLabel>

#include "preview/preview_gl_canvas.hpp"
#include "preview/preview_widget.hpp"
#include "preview/seek_bar.hpp"
#include "processing/pipeline.hpp"
#include "sources/source_controller.hpp"
#include "stats/stats_collector.hpp"
#include "stats/stats_panel.hpp"

namespace convolab::gui {

PreviewFeed::PreviewFeed(const Parts& parts, QWidget* parent)
    : QObject(parent), m_parts(parts), m_frameLabel(new QLabel(parent)) {
  m_frameLabel->setObjectName(QStringLiteral("frameLabel"));
  m_frameLabel->setFont(QFont(QStringLiteral("DejaVu Sans Mono"), 9));
  connect(parts.pipeline, &Pipeline::frameProcessed, this, &PreviewFeed::onFrameProcessed);
  connectPreview();
}

void PreviewFeed::connectPreview() {
  PreviewWidget* preview = m_parts.preview;
  Pipeline* pipeline = m_parts.pipeline;
  StatsPanel* panel = m_parts.statsPanel;
  connect(preview, &PreviewWidget::framePainted, this, [this](auto when, const FrameRecord& record) {
    m_parts.stats->addDisplayed(when, record.captured, m_parts.preview->lastPaintTiming().cpuMs);
  });
  const auto showRenderer = [this] {
    m_parts.stats->setDisplayPath(m_parts.preview->rendererDescription().toStdString());
  };
  showRenderer();
  connect(preview, &PreviewWidget::rendererChanged, this, showRenderer);
  // While OpenGL paints the preview, each frame it presented asks the processing thread for a compute kick
  // (the GL -> CL switch off the next frame's path; nothing on the raster path, nothing on a CPU device).
  const auto kickAfterGlFrames = [preview, pipeline] {
    if (auto* gl = qobject_cast<PreviewGlCanvas*>(preview->canvas()))
      connect(gl, &QOpenGLWidget::frameSwapped, pipeline, &Pipeline::requestComputeKick,
              Qt::UniqueConnection);
  };
  kickAfterGlFrames();
  connect(preview, &PreviewWidget::rendererChanged, this, kickAfterGlFrames);
  connect(pipeline, &Pipeline::filterPublished, preview, &PreviewWidget::setCurrentRevision);
  connect(pipeline, &Pipeline::processingStateChanged, preview, &PreviewWidget::setPreparing);
  connect(pipeline, &Pipeline::processingStateChanged, panel, &StatsPanel::setProcessingState);
  // A still (an image, a one-frame clip) has no source rate, drops or budget, also while a change is
  // processed.
  const auto showStillSource = [this] {
    m_parts.statsPanel->setStillSource(m_parts.sources->status().still);
  };
  showStillSource();
  connect(m_parts.sources, &SourceController::sourceChanged, panel, showStillSource);
}

void PreviewFeed::onFrameProcessed(const FrameRecord& record) {
  PreviewWidget* preview = m_parts.preview;
  m_parts.stats->addProcessed(record);
  // While a new source loads, the old one's frames are not shown (the preview says "Loading …").
  if (auto frame = m_parts.pipeline->latestFrame();
      frame && frame != preview->frame() && !m_parts.sources->loading()) {
    if (!preview->frame()) preview->setBusyMessage({});
    preview->setFrame(frame);
  }
  preview->setBanner(record.error.isEmpty()
                         ? QString()
                         : tr("OpenCL processing failed — showing the original. %1").arg(record.error));
  // A video's frame by its time, as the seek bar says it; a live source's by its sequence number.
  m_frameLabel->setText(QStringLiteral("%1×%2  %3")
                            .arg(record.width)
                            .arg(record.height)
                            .arg(record.sourceTimeMs >= 0 ? playbackTimeText(record.sourceTimeMs)
                                                          : QStringLiteral("#%1").arg(record.sourceIndex)));
  emit frameShown(record);
}

}  // namespace convolab::gui
