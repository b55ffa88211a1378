// SPDX-License-Identifier: MIT
// PixelInspector: hovering the preview shows frame coordinates and input → output RGB in the status bar;
// holding Shift (R), Shift+Ctrl (G) or Shift+Alt (B) also draws that channel's K×K input neighbourhood,
// the weights and the weighted sum that produced the output — the convolution made visible.
#pragma once

#include <QObject>
#include <QPoint>
#include <QPointer>
#include <functional>
#include <optional>

#include <memory>
#include <stop_token>
#include <vector>

#include "convolab/filter_chain.hpp"
#include "pixel_probe.hpp"
#include "processing/processed_frame.hpp"

class QPainter;
class QRectF;
class QThread;

namespace convolab::gui {
class PreviewWidget;
}

namespace convolab::lab {

class StepProbe;

class PixelInspector : public QObject {
  Q_OBJECT

 public:
  /// What the preview runs (Pipeline::chain): a one-filter chain is the editor's filter.
  using ChainProvider = std::function<FilterChain()>;
  PixelInspector(gui::PreviewWidget* preview, ChainProvider chain, QObject* parent = nullptr);
  ~PixelInspector() override;

  /// A detail probe of a chain step that costs more multiply-adds than this runs on a thread of its own
  /// (about a millisecond on one core); cheaper ones run at once.
  static constexpr std::uint64_t kGuiThreadWork = 2'000'000;

  /// Probes frame pixel `pos` of the preview's newest frame; channel < 0: no neighbourhood shown. Of a chain
  /// it explains the last switched-on step from its actual input, the output of the steps before it, computed
  /// with the CPU reference at the pixels the step's window depends on only (StepProbe), here and now.
  /// Returns nullopt when there is no frame or `pos` is outside it.
  std::optional<PixelProbe> inspect(const QPoint& pos, int channel);
  /// The one-line summary of the last probe (what the status bar shows).
  QString statusText() const { return m_status; }
  const std::optional<PixelProbe>& lastProbe() const { return m_probe; }
  /// Whether the hovered pixel's detail is being computed on the inspector's thread.
  bool computing() const { return m_computing; }
  /// Sets the GUI thread's budget (kGuiThreadWork; 0: every chain step's detail runs on the thread).
  void setGuiThreadWork(std::uint64_t multiplyAdds) { m_guiThreadWork = multiplyAdds; }

  /// The channel a modifier combination selects: Shift R, Shift+Ctrl G, Shift+Alt B; -1 for none.
  static int channelFor(Qt::KeyboardModifiers modifiers);

 signals:
  /// The status line changed (empty: clear it).
  void status(const QString& text);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void hovered(const QPoint& pos, Qt::KeyboardModifiers modifiers);
  void left();
  void paint(QPainter& painter, const QRectF& imageRect);

  /// What a step's detail is computed for: the same key gives the same probe, on any frame.
  struct ProbeKey {
    QPoint pos;
    int channel = -1;
    std::vector<ChainStep> steps;  ///< the switched-on steps up to the explained one
    bool operator==(const ProbeKey&) const = default;
  };
  /// A step's detail to compute on the thread, from this frame.
  struct Job {
    ProbeKey key;
    std::shared_ptr<const StepProbe> probe;
    gui::ProcessedFramePtr frame;
    int step = 0;  ///< PixelProbe::step
    /// Whether `other` holds the images this job reads (its answer would be this one's).
    bool sameImages(const gui::ProcessedFrame& other) const;
  };

  /// inspect(), where a chain step's detail that costs more than the GUI thread's budget may be handed to the
  /// thread (`mayDefer`, the hover's: it also sets computing()): the probe is then the plain line.
  std::optional<PixelProbe> explain(const QPoint& pos, int channel, bool mayDefer);
  /// The detail of the chain's last switched-on step (the `last`th) at `pos`: now, or from the thread's last
  /// result for the same key (an older frame's) while the newest is computed. nullopt when a step before is
  /// custom OpenCL code (no CPU reference), or with `computing` set while the thread computes it.
  std::optional<PixelProbe> probeStep(const gui::ProcessedFramePtr& frame, const FilterChain& chain, int last,
                                      const QPoint& pos, int channel, bool mayDefer, bool& computing);
  /// Starts `job` on the thread, or, while one runs, keeps it as the next one (stopping the running one when
  /// it is for another pixel, channel or chain).
  void defer(Job job);
  void start(Job job);
  /// The running job's answer (nullopt: it was stopped): kept, shown when the line waits for it; the next job
  /// starts.
  void finished(std::optional<PixelProbe> probe);
  /// The status line and the overlay of m_probe for `channel`.
  void present(int channel);

  QPointer<gui::PreviewWidget> m_preview;
  ChainProvider m_chain;
  std::optional<PixelProbe> m_probe;
  bool m_detail = false;
  bool m_computing = false;
  QPoint m_pos{-1, -1};
  int m_channel = -1;
  QString m_status;
  std::uint64_t m_guiThreadWork = kGuiThreadWork;
  // The thread: at most one job runs (m_running) and one waits (m_next); m_want is the key the line waits
  // for, m_done the last answer (of m_doneBy), shown again while a newer frame's is computed.
  QPointer<QThread> m_thread;
  std::stop_source m_stop;
  std::optional<Job> m_running, m_next, m_doneBy;
  std::optional<ProbeKey> m_want;
  std::optional<PixelProbe> m_done;
};

}  // namespace convolab::lab
