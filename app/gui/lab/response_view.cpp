// SPDX-License-Identifier: MIT
// ResponseView: the heat map, a colour bar with its scale, and the frequency axes (cycles per pixel).
#include "response_view.hpp"
#include "window/theme.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace convolab::lab {

ResponseView::ResponseView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(240, 200);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

QColor ResponseView::colourAt(double t) {
  return gui::theme::responseColor(t);
}

void ResponseView::setResponse(const std::vector<double>& magnitude, int n, bool logScale) {
  m_log = logScale;
  std::vector<double> v(magnitude.size());
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = logScale ? 20.0 * std::log10(std::max(magnitude[i], 1e-3)) : magnitude[i];
  m_max = v.empty() ? 1 : *std::max_element(v.begin(), v.end());
  m_min = logScale ? std::max(m_max - 60.0, v.empty() ? 0 : *std::min_element(v.begin(), v.end())) : 0.0;
  if (m_max - m_min < 1e-9) m_min = logScale ? m_max - 1 : std::min(0.0, m_max - 1);
  m_image = QImage(n, n, QImage::Format_RGB32);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      m_image.setPixelColor(x, y, colourAt((v[static_cast<size_t>(y) * n + x] - m_min) / (m_max - m_min)));
  update();
}

void ResponseView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  if (m_image.isNull()) return;
  QFont small = font();
  small.setPointSizeF(8);
  p.setFont(small);
  const QFontMetrics fm(small);
  const int bar = 14, barLabels = fm.horizontalAdvance(QStringLiteral("-60.0 dB")) + 6;
  const int side = std::max(40, std::min(height() - fm.height() * 2 - 8, width() - bar - barLabels - 48));
  const QRect img(28, 4, side, side);
  p.drawImage(img, m_image);
  p.setPen(gui::theme::axisLine());
  p.drawRect(img.adjusted(0, 0, -1, -1));
  // Axes: u to the right, v downwards, both from −½ to +½ cycle per pixel; DC in the middle.
  p.setPen(gui::theme::dimText());
  p.drawText(QRect(img.left() - 4, img.bottom() + 2, 40, fm.height()), Qt::AlignLeft, QStringLiteral("−½"));
  p.drawText(QRect(img.center().x() - 20, img.bottom() + 2, 40, fm.height()), Qt::AlignHCenter,
             QStringLiteral("0"));
  p.drawText(QRect(img.right() - 36, img.bottom() + 2, 40, fm.height()), Qt::AlignRight,
             QStringLiteral("+½  u"));
  p.drawText(QRect(0, img.top(), 24, fm.height()), Qt::AlignRight, QStringLiteral("−½"));
  p.drawText(QRect(0, img.center().y() - fm.height() / 2, 24, fm.height()), Qt::AlignRight,
             QStringLiteral("0"));
  p.drawText(QRect(0, img.bottom() - fm.height(), 24, fm.height()), Qt::AlignRight, QStringLiteral("v"));
  p.setPen(gui::theme::responseCrosshair());
  p.drawLine(img.center().x(), img.top(), img.center().x(), img.bottom());
  p.drawLine(img.left(), img.center().y(), img.right(), img.center().y());
  // Colour bar.
  const QRect barRect(img.right() + 24, img.top(), bar, side);
  for (int y = 0; y < side; ++y) {
    p.setPen(colourAt(1.0 - static_cast<double>(y) / std::max(1, side - 1)));
    p.drawLine(barRect.left(), barRect.top() + y, barRect.right(), barRect.top() + y);
  }
  p.setPen(gui::theme::axisLine());
  p.drawRect(barRect.adjusted(0, 0, -1, -1));
  p.setPen(gui::theme::softText());
  const QString unit = m_log ? QStringLiteral(" dB") : QString();
  for (int i = 0; i <= 4; ++i) {
    const double value = m_max - (m_max - m_min) * i / 4.0;
    const int y = barRect.top() + (side - 1) * i / 4;
    p.drawText(QRect(barRect.right() + 4, y - fm.height() / 2, barLabels, fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               QString::number(value, 'f', m_log ? 1 : (std::abs(m_max) < 10 ? 2 : 1)) + unit);
  }
  p.setPen(gui::theme::dimText());
  p.drawText(QRect(barRect.left() - 2, img.bottom() + 2, barLabels + 20, fm.height()), Qt::AlignLeft,
             m_log ? QStringLiteral("|H| dB") : QStringLiteral("|H|"));
}

}  // namespace convolab::lab
