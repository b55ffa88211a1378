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

#include "convolab/filter.hpp"
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
  using FilterProvider = std::function<FilterSet()>;
  PixelInspector(gui::PreviewWidget* preview, FilterProvider filter, QObject* parent = nullptr);
  ~PixelInspector() override;

  /// Probes frame pixel `pos` of the preview's newest frame; channel < 0: no neighbourhood shown.
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

  QPointer<gui::PreviewWidget> m_preview;
  FilterProvider m_filter;
  std::optional<PixelProbe> m_probe;
  bool m_detail = false;
  QPoint m_pos{-1, -1};
  QString m_status;
};

}  // namespace convolab::lab
