// SPDX-License-Identifier: MIT
// PixelInspector: probes on hover, a status line, and the neighbourhood panel painted over the preview.
#include "pixel_inspector.hpp"

#include <QApplication>
#include <QKeyEvent>
#include <QPainter>

#include "chain/chain_step_text.hpp"
#include "convolab/reference.hpp"
#include "preview/preview_widget.hpp"
#include "window/theme.hpp"

namespace convolab::lab {

using gui::PreviewWidget;
using gui::ProcessedFramePtr;
namespace {
const char* kChannel[] = {"R", "G", "B"};

QString compact(double v) {
  return QString::number(v, 'g', 4);
}
}  // namespace

PixelInspector::PixelInspector(PreviewWidget* preview, ChainProvider chain, QObject* parent)
    : QObject(parent), m_preview(preview), m_chain(std::move(chain)) {
  connect(preview, &PreviewWidget::hovered, this, &PixelInspector::hovered);
  connect(preview, &PreviewWidget::hoverLeft, this, &PixelInspector::left);
  preview->setOverlayPainter([this](QPainter& p, const QRectF& r) { paint(p, r); });
  qApp->installEventFilter(this);
}

PixelInspector::~PixelInspector() {
  if (qApp) qApp->removeEventFilter(this);
  if (m_preview) m_preview->setOverlayPainter({});
}

int PixelInspector::channelFor(Qt::KeyboardModifiers m) {
  if (!(m & Qt::ShiftModifier)) return -1;
  if (m & Qt::ControlModifier) return 1;
  if (m & Qt::AltModifier) return 2;
  return 0;
}

std::optional<PixelProbe> PixelInspector::inspect(const QPoint& pos, int channel) {
  const ProcessedFramePtr frame = m_preview->frame();
  if (!frame || !frame->original || !frame->filtered) return std::nullopt;
  const Image& in = *frame->original;
  const Image& out = *frame->filtered;
  if (pos.x() < 0 || pos.y() < 0 || pos.x() >= in.width || pos.y() >= in.height || out.width != in.width ||
      out.height != in.height)
    return std::nullopt;
  const FilterChain chain = m_chain();
  int last = -1;  // the last switched-on step: what made the output
  for (int i = 0; i < chain.size(); ++i)
    if (chain.steps()[static_cast<std::size_t>(i)].enabled) last = i;
  if (const std::optional<FilterSet> single = chain.singleFilter(); single || last < 0)
    return probePixel(in.view(), out.view(), single.value_or(FilterSet()), pos.x(), pos.y(),
                      std::max(channel, 0));
  const ChainStep& step = chain.steps()[static_cast<std::size_t>(last)];
  std::vector<ChainStep> before;
  for (int i = 0; i < last; ++i)
    if (chain.steps()[static_cast<std::size_t>(i)].enabled)
      before.push_back(chain.steps()[static_cast<std::size_t>(i)]);
  // The plain line needs no neighbourhood: the step's input is computed only for the detail (Shift)
  std::optional<PixelProbe> probe;
  if (channel >= 0 && !step.isCustom() && !step.isMagnitude())
    probe = probeStep(frame->original, out, before, step, pos, channel);
  if (!probe) {
    probe = probePixel(in.view(), out.view(), FilterSet(), pos.x(), pos.y(), std::max(channel, 0));
    probe->neighbours.clear();
    probe->weights.clear();
    if (channel >= 0)
      probe->unexplained =
          step.isCustom() || step.isMagnitude()
              ? tr("a %1 step is not explained").arg(gui::describeChainStep(step)).toStdString()
              : tr("its input comes from custom OpenCL code, which has no CPU reference").toStdString();
  }
  probe->step = last + 1;
  return probe;
}

std::optional<PixelProbe> PixelInspector::probeStep(const std::shared_ptr<const Image>& original,
                                                    const Image& output, const std::vector<ChainStep>& before,
                                                    const ChainStep& step, const QPoint& pos, int channel) {
  bool wrap = step.filter.border() == BorderMode::Wrap;  // a magnitude's two filters share theirs
  int reach = step.radius();
  for (const ChainStep& s : before) {
    if (s.isCustom()) return std::nullopt;
    wrap = wrap || s.filter.border() == BorderMode::Wrap;
    reach += s.radius();
  }
  if (wrap) {  // wrap reads the far side of the frame: the steps before run on all of it, once per frame
    if (original != m_inputOf || before != m_inputSteps) {
      auto image = std::make_shared<Image>(original->width, original->height);
      referenceChain(original->view(), image->mutableView(), FilterChain::make(before));
      m_inputOf = original;
      m_inputSteps = before;
      m_input = std::move(image);
    }
    return probePixel(m_input->view(), output.view(), step.filter, pos.x(), pos.y(), channel);
  }
  // Else the pixel depends on the frame within `reach` of it only, and every other border reads inside that
  // square (clipped to the frame, whose edges stay edges): the steps before run on it alone, exactly.
  const QRect region = QRect(pos - QPoint(reach, reach), QSize(2 * reach + 1, 2 * reach + 1))
                           .intersected(QRect(0, 0, output.width, output.height));
  const auto crop = [&region](const Image& image) {
    return ImageView{image.pixels.data() + static_cast<std::size_t>(region.y()) * image.stride +
                         static_cast<std::size_t>(region.x()) * kBytesPerPixel,
                     region.width(), region.height(), image.stride};
  };
  Image input;  // none: the first step reads the original itself
  if (!before.empty()) {
    input = Image(region.width(), region.height());
    referenceChain(crop(*original), input.mutableView(), FilterChain::make(before));
  }
  PixelProbe p = probePixel(before.empty() ? crop(*original) : input.view(), crop(output), step.filter,
                            pos.x() - region.x(), pos.y() - region.y(), channel);
  p.x = pos.x();
  p.y = pos.y();
  return p;
}

void PixelInspector::hovered(const QPoint& pos, Qt::KeyboardModifiers modifiers) {
  m_pos = pos;
  const int channel = channelFor(modifiers);
  m_probe = inspect(pos, channel);
  const bool detail = m_probe && channel >= 0 && m_probe->unexplained.empty();
  if (!m_probe) {
    left();
    return;
  }
  const auto& p = *m_probe;
  const QString in = p.step == 0 || !detail ? tr("in") : tr("step %1's input").arg(p.step);
  m_status = tr("x %1, y %2   %9 RGB (%3, %4, %5) → out RGB (%6, %7, %8)")
                 .arg(p.x)
                 .arg(p.y)
                 .arg(p.input[0])
                 .arg(p.input[1])
                 .arg(p.input[2])
                 .arg(p.output[0])
                 .arg(p.output[1])
                 .arg(p.output[2])
                 .arg(in);
  if (!p.unexplained.empty())
    m_status += tr("   step %1: %2").arg(p.step).arg(QString::fromStdString(p.unexplained));
  else if (detail && p.step > 0)
    m_status += tr("   step %1, from its input").arg(p.step);
  if (detail)
    m_status +=
        tr("   %1: offset %2 + Σ/%3 = %4 → %5")
            .arg(QLatin1String(kChannel[channel]), compact(p.offset), compact(p.divisor), compact(p.sum))
            .arg(p.expected);
  else if (p.unexplained.empty())
    m_status += p.step > 0
                    ? tr("   (hold Shift to explain step %1's R from its input, +Ctrl G, +Alt B)").arg(p.step)
                    : tr("   (hold Shift for the R neighbourhood, +Ctrl G, +Alt B)");
  emit status(m_status);
  if (detail || m_detail) m_preview->update();
  m_detail = detail;
}

void PixelInspector::left() {
  m_pos = {-1, -1};
  if (m_detail) m_preview->update();
  m_detail = false;
  if (!m_status.isEmpty()) {
    m_status.clear();
    emit status(QString());
  }
}

bool PixelInspector::eventFilter(QObject* watched, QEvent* event) {
  if ((event->type() == QEvent::KeyPress || event->type() == QEvent::KeyRelease) && m_pos.x() >= 0) {
    const int key = static_cast<QKeyEvent*>(event)->key();
    if (key == Qt::Key_Shift || key == Qt::Key_Control || key == Qt::Key_Alt)
      hovered(m_pos, QGuiApplication::queryKeyboardModifiers());
  }
  return QObject::eventFilter(watched, event);
}

void PixelInspector::paint(QPainter& p, const QRectF&) {
  if (!m_detail || !m_probe) return;
  const auto& probe = *m_probe;
  const ProcessedFramePtr frame = m_preview->frame();
  if (!frame || !frame->original) return;
  const int k = probe.size, r = (k - 1) / 2;
  const QColor accent = gui::theme::channelColor(probe.channel);
  p.save();
  // The neighbourhood on the image, through the preview's own transform (any zoom, any pan).
  const gui::PreviewView& view = m_preview->view();
  const QRectF hood(view.toWidget(QPointF(probe.x - r, probe.y - r)),
                    view.toWidget(QPointF(probe.x - r + k, probe.y - r + k)));
  const QRectF pixel = view.pixelRect(QPoint(probe.x, probe.y));
  p.setPen(QPen(accent, 1.5));
  p.setBrush(Qt::NoBrush);
  p.drawRect(hood);
  p.drawRect(pixel);

  // The panel: K×K inputs with their weights, then the sum.
  QFont f = m_preview->font();
  f.setPointSizeF(k > 9 ? 7 : 8);
  p.setFont(f);
  const QFontMetrics fm(f);
  const double cellW =
      std::max(fm.horizontalAdvance(QStringLiteral("255")), fm.horizontalAdvance(QStringLiteral("-0.125"))) +
      8;
  const double cellH = fm.height() * 2 + 4;
  const QString title = tr("%1 at (%2, %3)%5: %4×%4 inputs (top) and weights (bottom)")
                            .arg(QLatin1String(kChannel[probe.channel]))
                            .arg(probe.x)
                            .arg(probe.y)
                            .arg(k)
                            .arg(probe.step == 0 ? QString() : tr(", step %1").arg(probe.step));
  const QString sum =
      tr("out = %1 + Σ(in·w) / %2 = %3 → %4   (frame: %5)")
          .arg(compact(probe.offset), compact(probe.divisor), QString::number(probe.sum, 'f', 3))
          .arg(probe.expected)
          .arg(probe.output[probe.channel]);
  const double gridW = cellW * k;
  const double w = std::max({gridW, static_cast<double>(fm.horizontalAdvance(sum)),
                             static_cast<double>(fm.horizontalAdvance(title))}) +
                   20;
  const double h = cellH * k + fm.height() * 2 + 28;
  const QRectF area = QRectF(m_preview->rect()).adjusted(12, 12, -12, -12);
  const bool onLeft = pixel.center().x() > area.center().x();
  QRectF panel(onLeft ? area.left() : area.right() - w, area.top(), w, h);
  p.setPen(Qt::NoPen);
  QColor shade = gui::theme::base();
  shade.setAlpha(235);
  p.setBrush(shade);
  p.drawRoundedRect(panel, 6, 6);
  p.setPen(accent);
  p.drawText(QRectF(panel.left() + 10, panel.top() + 6, w - 20, fm.height()), Qt::AlignLeft, title);
  const double gx = panel.left() + (w - gridW) / 2, gy = panel.top() + fm.height() + 12;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      const size_t idx = static_cast<size_t>(j * k + i);
      const QRectF cell(gx + i * cellW, gy + j * cellH, cellW - 2, cellH - 2);
      const QRectF top(cell.left(), cell.top(), cell.width(), cell.height() / 2);
      const QRectF bottom(cell.left(), top.bottom(), cell.width(), cell.height() / 2);
      const double v = probe.neighbours[idx];
      // Top half: the input value on its own grey; bottom half: the weight on the panel colour.
      p.setPen(Qt::NoPen);
      p.setBrush(QColor(static_cast<int>(v), static_cast<int>(v), static_cast<int>(v)));
      p.drawRect(top);
      p.setBrush(gui::theme::panel());
      p.drawRect(bottom);
      p.setPen(v > 140 ? gui::theme::textOnLight() : gui::theme::text());
      p.drawText(top, Qt::AlignCenter, QString::number(v, 'f', 0));
      const double wgt = probe.weights[idx];
      p.setPen(wgt == 0 ? gui::theme::zeroWeight() : accent.lighter(125));
      p.drawText(bottom, Qt::AlignCenter, QString::number(wgt, 'g', 3));
      if (i == r && j == r) {
        p.setPen(QPen(accent, 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cell);
      }
    }
  p.setPen(gui::theme::text());
  p.drawText(QRectF(panel.left() + 10, gy + cellH * k + 4, w - 20, fm.height()), Qt::AlignLeft, sum);
  p.restore();
}

}  // namespace convolab::lab
