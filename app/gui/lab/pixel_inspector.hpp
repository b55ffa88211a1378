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
#include <vector>

#include "convolab/filter_chain.hpp"
#include "pixel_probe.hpp"

class QPainter;
class QRectF;

namespace convolab::gui {
class PreviewWidget;
}

namespace convolab::lab {

class PixelInspector : public QObject {
  Q_OBJECT

 public:
  /// What the preview runs (Pipeline::chain): a one-filter chain is the editor's filter.
  using ChainProvider = std::function<FilterChain()>;
  PixelInspector(gui::PreviewWidget* preview, ChainProvider chain, QObject* parent = nullptr);
  ~PixelInspector() override;

  /// Probes frame pixel `pos` of the preview's newest frame; channel < 0: no neighbourhood shown. Of a chain
  /// it explains the last switched-on step from its actual input, the output of the steps before it (computed
  /// with the CPU reference on the square the pixel depends on: probeStep).
  /// Returns nullopt when there is no frame or `pos` is outside it.
  std::optional<PixelProbe> inspect(const QPoint& pos, int channel);
  /// The one-line summary of the last probe (what the status bar shows).
  QString statusText() const { return m_status; }
  const std::optional<PixelProbe>& lastProbe() const { return m_probe; }

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

  /// `step` (the chain's last switched-on one) probed at `pos` from its actual input: the steps `before`
  /// applied to `original`, on the square the pixel depends on (or, under a wrap border, on the whole frame,
  /// kept for the next probe of that frame). nullopt when a step before is custom OpenCL code (no CPU
  /// reference).
  std::optional<PixelProbe> probeStep(const std::shared_ptr<const Image>& original, const Image& output,
                                      const std::vector<ChainStep>& before, const ChainStep& step,
                                      const QPoint& pos, int channel);

  QPointer<gui::PreviewWidget> m_preview;
  ChainProvider m_chain;
  // The last whole-frame input of probeStep (a wrap border): for this original and these steps
  std::shared_ptr<const Image> m_inputOf, m_input;
  std::vector<ChainStep> m_inputSteps;
  std::optional<PixelProbe> m_probe;
  bool m_detail = false;
  QPoint m_pos{-1, -1};
  QString m_status;
};

}  // namespace convolab::lab
