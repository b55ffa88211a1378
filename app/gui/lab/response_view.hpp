// SPDX-License-Identifier: MIT
// ResponseView: paints a centred n×n magnitude |H(u,v)| as a colour image with a colour bar and axes.
#pragma once

#include <QImage>
#include <QWidget>
#include <vector>

namespace convolab::lab {

class ResponseView : public QWidget {
  Q_OBJECT

 public:
  explicit ResponseView(QWidget* parent = nullptr);

  /// `magnitude`: n×n, row-major, DC at (n/2, n/2). `logScale`: colours by dB (20·log10), floor −60 dB.
  void setResponse(const std::vector<double>& magnitude, int n, bool logScale);
  QSize sizeHint() const override { return {300, 240}; }

  /// The viridis-like colour of t in [0, 1].
  static QColor colourAt(double t);

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QImage m_image;
  double m_min = 0, m_max = 1;
  bool m_log = false;
};

}  // namespace convolab::lab
