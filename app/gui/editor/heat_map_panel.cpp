// SPDX-License-Identifier: MIT
// The heat-map view of a large kernel: layout, readout, zoom buttons and the cell editor.
#include "editor/heat_map_panel.hpp"

#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "editor/compact_spin_box.hpp"
#include "editor/filter_document.hpp"
#include "editor/kernel_heat_map.hpp"
#include "window/theme.hpp"

namespace convolab::gui {

namespace {

QString signedOffset(int d) {
  return d > 0 ? QStringLiteral("+%1").arg(d) : d < 0 ? QStringLiteral("−%1").arg(-d) : QStringLiteral("0");
}

QString shortNumber(double v) {
  return QLocale::c().toString(v, 'g', 3).replace(QLatin1Char('-'), QStringLiteral("−"));
}

QToolButton* zoomButton(const QString& text, const QString& tip, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setText(text);
  button->setToolTip(tip);
  return button;
}

}  // namespace

HeatMapPanel::HeatMapPanel(int channel, FilterDocument* document, QWidget* parent)
    : QWidget(parent), m_channel(channel), m_document(document) {
  setObjectName(QStringLiteral("heatMapPanel"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);

  auto* tools = new QHBoxLayout;
  tools->setSpacing(4);
  m_fit = zoomButton(tr("Fit"), tr("Show the whole matrix (cells as large as the view allows)"), this);
  m_fit->setCheckable(true);
  m_fit->setChecked(true);
  auto* out = zoomButton(QStringLiteral("−"), tr("Zoom out (or turn the mouse wheel over the map)"), this);
  auto* in = zoomButton(QStringLiteral("+"), tr("Zoom in (or turn the mouse wheel over the map)"), this);
  m_zoomText = new QLabel(this);
  m_zoomText->setObjectName(QStringLiteral("monoDim"));
  m_scale = new QLabel(this);
  m_scale->setObjectName(QStringLiteral("monoDim"));
  m_scale->setToolTip(
      tr("Colour scale: blue is negative, grey zero, amber positive; the ends are the "
         "channel's largest |value|"));
  tools->addWidget(m_fit);
  tools->addWidget(out);
  tools->addWidget(in);
  tools->addWidget(m_zoomText);
  tools->addStretch(1);
  tools->addWidget(m_scale);
  layout->addLayout(tools);

  m_scroll = new QScrollArea(this);
  m_scroll->setObjectName(QStringLiteral("heatMapScroll"));
  m_scroll->setAlignment(Qt::AlignCenter);
  m_scroll->setWidgetResizable(false);
  m_scroll->setFixedSize(kViewSide + 2 * m_scroll->frameWidth() + 2,
                         kViewSide + 2 * m_scroll->frameWidth() + 2);
  m_map = new KernelHeatMap(m_scroll);
  m_map->setAccessibleName(tr("Coefficients as a heat map"));
  m_map->setFitArea({kViewSide, kViewSide});
  m_scroll->setWidget(m_map);
  layout->addWidget(m_scroll, 0, Qt::AlignHCenter);

  m_readout = new QLabel(this);
  m_readout->setObjectName(QStringLiteral("heatMapReadout"));
  m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_readout);

  m_editor = new QLineEdit(m_map);
  m_editor->setObjectName(QStringLiteral("heatMapCellEditor"));
  m_editor->setAlignment(Qt::AlignCenter);
  m_editor->hide();
  m_editor->installEventFilter(this);
  connect(m_editor, &QLineEdit::editingFinished, this, &HeatMapPanel::commitEdit);

  connect(m_fit, &QToolButton::toggled, m_map, &KernelHeatMap::setFitMode);
  // The buttons zoom about the middle of what is in view.
  const auto zoomAboutView = [this](int steps) {
    const QPoint middle = m_map->mapFrom(m_scroll->viewport(), m_scroll->viewport()->rect().center());
    m_map->zoomBy(steps, middle);
  };
  connect(in, &QToolButton::clicked, this, [zoomAboutView] { zoomAboutView(1); });
  connect(out, &QToolButton::clicked, this, [zoomAboutView] { zoomAboutView(-1); });
  connect(m_map, &KernelHeatMap::hovered, this, &HeatMapPanel::showReadout);
  connect(m_map, &KernelHeatMap::cellClicked, this, &HeatMapPanel::editCell);
  connect(m_map, &KernelHeatMap::zoomed, this, &HeatMapPanel::onZoomed);
  showReadout(-1, -1);
}

void HeatMapPanel::refresh(const ChannelFilter& channel) {
  if (channel.size != m_map->channel().size) closeEditor();
  m_map->setChannel(channel);
  updateScale();
  const QPoint hover = m_map->hoveredCell();
  showReadout(hover.y(), hover.x());
  m_zoomText->setText(tr("%1 px").arg(m_map->cellSize()));
}

void HeatMapPanel::updateScale() {
  // −max [blue … grey … amber] +max, drawn from the theme's colour map.
  const double max = m_map->scaleMax();
  QPixmap bar(80, 10);
  {
    QPainter p(&bar);
    for (int x = 0; x < bar.width(); ++x) {
      p.setPen(theme::heatColor(2.0 * x / (bar.width() - 1) - 1.0));
      p.drawLine(x, 0, x, bar.height() - 1);
    }
  }
  // One pixmap: the numbers drawn beside the bar (a label shows text or a pixmap, not both).
  const QString low = max > 0 ? shortNumber(-max) : QStringLiteral("0");
  const QString high = max > 0 ? QStringLiteral("+") + shortNumber(max) : QStringLiteral("0");
  const QFontMetrics metrics(m_scale->font());
  const int lowWidth = metrics.horizontalAdvance(low), highWidth = metrics.horizontalAdvance(high);
  const int height = std::max(bar.height(), metrics.height());
  QPixmap labelled(lowWidth + highWidth + bar.width() + 8, height);
  labelled.fill(Qt::transparent);
  {
    QPainter p(&labelled);
    p.setFont(m_scale->font());
    p.setPen(theme::dimText());
    p.drawText(QRect(0, 0, lowWidth, height), Qt::AlignRight | Qt::AlignVCenter, low);
    p.drawPixmap(lowWidth + 4, (height - bar.height()) / 2, bar);
    p.drawText(QRect(lowWidth + bar.width() + 8, 0, highWidth, height), Qt::AlignLeft | Qt::AlignVCenter,
               high);
  }
  m_scale->setPixmap(labelled);
  m_scale->setAccessibleName(tr("Colour scale from %1 to %2").arg(shortNumber(-max), shortNumber(max)));
}

void HeatMapPanel::showReadout(int row, int col) {
  const ChannelFilter& ch = m_map->channel();
  if (m_map->hasFocus() && row >= 0 && col >= 0)  // moved by the keyboard: keep the cell in view
    m_scroll->ensureVisible(m_map->cellRect(row, col).center().x(), m_map->cellRect(row, col).center().y(),
                            m_map->cellSize(), m_map->cellSize());
  if (row < 0 || col < 0 || row >= ch.size || col >= ch.size) {
    m_readout->setText(tr("%1×%1 · point at a cell to read it, click it to change it").arg(ch.size));
    return;
  }
  const int c = ch.size / 2;
  // Six significant digits fit the line at the narrowest dock; the tooltip and the cell editor have them all.
  const double v = ch.at(row, col);
  m_readout->setText(
      tr("Row %1, column %2 (%3, %4 from the centre): %5")
          .arg(row + 1)
          .arg(col + 1)
          .arg(signedOffset(col - c), signedOffset(row - c), QLocale::c().toString(v, 'g', 6)));
  m_readout->setToolTip(tr("Exactly %1").arg(fullNumberText(v)));
}

void HeatMapPanel::onZoomed(int before, QPoint anchor) {
  m_zoomText->setText(tr("%1 px").arg(m_map->cellSize()));
  {
    const QSignalBlocker block(m_fit);
    m_fit->setChecked(m_map->fitMode());
  }
  if (before <= 0) return;
  // Keep the point under the pointer where it was: scroll by how far the zoom moved it.
  const double ratio = static_cast<double>(m_map->cellSize()) / before;
  QScrollBar* h = m_scroll->horizontalScrollBar();
  QScrollBar* v = m_scroll->verticalScrollBar();
  h->setValue(h->value() + static_cast<int>(std::lround(anchor.x() * (ratio - 1))));
  v->setValue(v->value() + static_cast<int>(std::lround(anchor.y() * (ratio - 1))));
  if (m_editRow >= 0) editCell(m_editRow, m_editCol);  // the editor follows its cell
}

void HeatMapPanel::editCell(int row, int col) {
  const ChannelFilter& ch = m_map->channel();
  if (row < 0 || col < 0 || row >= ch.size || col >= ch.size) return;
  const bool reopened = m_editRow == row && m_editCol == col && m_editor->isVisible();
  m_editRow = row;
  m_editCol = col;
  const QRect cell = m_map->cellRect(row, col);
  const QSize size(std::max(cell.width(), 110), std::max(cell.height(), m_editor->sizeHint().height()));
  QRect r(QPoint(0, 0), size);
  r.moveCenter(cell.center());
  r.moveLeft(std::clamp(r.left(), 0, std::max(0, m_map->width() - r.width())));
  r.moveTop(std::clamp(r.top(), 0, std::max(0, m_map->height() - r.height())));
  m_editor->setGeometry(r);
  if (!reopened) {
    m_editor->setText(fullNumberText(ch.at(row, col)));
    m_editor->selectAll();
  }
  m_editor->setToolTip(tr("Row %1, column %2: Enter applies, Esc cancels").arg(row + 1).arg(col + 1));
  m_editor->show();
  m_editor->raise();
  m_editor->setFocus();
  m_scroll->ensureWidgetVisible(m_editor, 8, 8);
}

void HeatMapPanel::closeEditor() {
  m_editRow = m_editCol = -1;  // first: hiding takes the focus, which finishes the edit
  m_editor->hide();
}

void HeatMapPanel::commitEdit() {
  if (m_editRow < 0) return;
  const int row = m_editRow, col = m_editCol;
  const QString text = m_editor->text();
  const bool keyboard = m_editor->hasFocus();
  closeEditor();
  if (keyboard) m_map->setFocus();  // Enter: the arrows go on from this cell
  const auto value = parseUserNumber(text);
  if (!value) {
    emit edited(false,
                tr("Row %1, column %2: '%3' is not a number (write 0.5, 0,5 or a fraction such as 1/9)")
                    .arg(row + 1)
                    .arg(col + 1)
                    .arg(text));
    return;
  }
  if (*value == m_map->channel().at(row, col)) return;  // unchanged: no undo step
  QString error;
  const bool applied = m_document->setCell(m_channel, row, col, *value, &error);
  emit edited(applied, error);
}

bool HeatMapPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_editor && event->type() == QEvent::KeyPress) {
    const int key = static_cast<QKeyEvent*>(event)->key();
    if (key == Qt::Key_Escape) {
      closeEditor();
      m_map->setFocus();
      return true;
    }
    // Taken here: QLineEdit passes Return on to its parent, the map, where it would open the editor again.
    if (key == Qt::Key_Return || key == Qt::Key_Enter) {
      commitEdit();
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace convolab::gui
