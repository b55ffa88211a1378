// SPDX-License-Identifier: MIT
// PixelInspector: probes on hover, a status line, and the neighbourhood panel painted over the preview.
#include "pixel_inspector.hpp"

#include <QApplication>
#include <QKeyEvent>
#include <QPainter>

#include <QThread>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "background_task.hpp"
#include "chain/chain_step_text.hpp"
#include "preview/preview_widget.hpp"
#include "step_probe.hpp"
#include "window/theme.hpp"

namespace convolab::lab {

using gui::PreviewWidget;
using gui::ProcessedFramePtr;
namespace {
const char* kChannel[] = {"R", "G", "B"};

QString compact(double v) {
  return QString::number(v, 'g', 4);
}

// The thread's detail work comes after the live frames (DESIGN §8): the calling thread, and the threads it
// starts (SparseReference splits large steps), run at nice 10.
void lowerThreadPriority() {
#if defined(__linux__)
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
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
  m_stop.request_stop();
  if (m_thread) m_thread->wait();
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
  return explain(pos, channel, false);
}

std::optional<PixelProbe> PixelInspector::explain(const QPoint& pos, int channel, bool mayDefer) {
  bool computing = false;
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
  // The plain line needs no neighbourhood: the step's input is computed only for the detail (Shift)
  std::optional<PixelProbe> probe;
  if (channel >= 0 && !step.isCustom() && !step.isMagnitude())
    probe = probeStep(frame, chain, last, pos, channel, mayDefer, computing);
  if (!probe) {
    std::optional<PixelProbe> plain =
        probePixel(in.view(), out.view(), FilterSet(), pos.x(), pos.y(), std::max(channel, 0));
    plain->neighbours.clear();
    plain->weights.clear();
    if (channel >= 0 && !computing)
      plain->unexplained =
          step.isCustom() || step.isMagnitude()
              ? tr("a %1 step is not explained").arg(gui::describeChainStep(step)).toStdString()
              : tr("its input comes from custom OpenCL code, which has no CPU reference").toStdString();
    probe = std::move(plain);
  }
  probe->step = last + 1;
  if (mayDefer) m_computing = computing;
  return probe;
}

std::optional<PixelProbe> PixelInspector::probeStep(const ProcessedFramePtr& frame, const FilterChain& chain,
                                                    int last, const QPoint& pos, int channel, bool mayDefer,
                                                    bool& computing) {
  std::vector<ChainStep> before;
  for (int i = 0; i < last; ++i)
    if (const ChainStep& s = chain.steps()[static_cast<std::size_t>(i)]; s.enabled) {
      if (s.isCustom()) return std::nullopt;
      before.push_back(s);
    }
  const ChainStep& step = chain.steps()[static_cast<std::size_t>(last)];
  const Image& in = *frame->original;
  auto probe =
      std::make_shared<const StepProbe>(in.width, in.height, before, step, pos.x(), pos.y(), channel);
  if (!mayDefer || probe->multiplyAdds() <= m_guiThreadWork)
    return probe->run(in.view(), frame->filtered->view());
  // Too costly for the GUI thread: computed on the inspector's, one job at a time. The last result for the
  // same pixel, channel and steps (an older frame's) stays up while the newest frame's is computed; the same
  // images (a still source) are not computed again.
  before.push_back(step);
  Job job{ProbeKey{pos, channel, std::move(before)}, std::move(probe), frame, last + 1};
  m_want = job.key;
  const bool done = m_done && m_doneBy->key == job.key;
  if (done && m_doneBy->sameImages(*frame)) return m_done;
  if (!m_running || !(m_running->key == job.key && m_running->sameImages(*frame))) defer(std::move(job));
  if (done) return m_done;
  computing = true;
  return std::nullopt;
}

bool PixelInspector::Job::sameImages(const gui::ProcessedFrame& other) const {
  return frame->original == other.original && frame->filtered == other.filtered;
}

void PixelInspector::defer(Job job) {
  if (m_running) {
    if (m_running->key != job.key) m_stop.request_stop();  // its answer is of no use any more
    m_next = std::move(job);
    return;
  }
  start(std::move(job));
}

void PixelInspector::start(Job job) {
  m_stop = std::stop_source();
  m_running = job;
  m_thread = runInBackground<std::optional<PixelProbe>>(
      this,
      [job, stop = m_stop.get_token()] {
        lowerThreadPriority();
        std::optional<PixelProbe> probe =
            job.probe->run(job.frame->original->view(), job.frame->filtered->view(), stop);
        if (probe) probe->step = job.step;
        return probe;
      },
      [this](std::optional<PixelProbe> probe) { finished(std::move(probe)); });
}

void PixelInspector::finished(std::optional<PixelProbe> probe) {
  const Job job = std::move(*m_running);
  m_running.reset();
  if (probe) {
    m_done = probe;
    m_doneBy = job;
  }
  if (m_next) {
    Job next = std::move(*m_next);
    m_next.reset();
    start(std::move(next));
  }
  if (probe && m_want == job.key && m_pos == job.key.pos) {  // what the line waits for
    m_probe = std::move(probe);
    m_computing = false;
    present(job.key.channel);
  }
}

void PixelInspector::hovered(const QPoint& pos, Qt::KeyboardModifiers modifiers) {
  m_pos = pos;
  m_channel = channelFor(modifiers);
  m_want.reset();  // a thread's result for an earlier request is not shown over this one (explain sets it)
  m_probe = explain(pos, m_channel, true);
  if (!m_probe) {
    left();
    return;
  }
  present(m_channel);
}

void PixelInspector::present(int channel) {
  const bool detail =
      m_probe && channel >= 0 && m_probe->unexplained.empty() && !m_computing && !m_probe->neighbours.empty();
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
  else if (m_computing)
    m_status += tr("   step %1: computing its input…").arg(p.step);
  else if (detail && p.step > 0)
    m_status += tr("   step %1, from its input").arg(p.step);
  if (detail)
    m_status +=
        tr("   %1: offset %2 + Σ/%3 = %4 → %5")
            .arg(QLatin1String(kChannel[channel]), compact(p.offset), compact(p.divisor), compact(p.sum))
            .arg(p.expected);
  else if (p.unexplained.empty() && !m_computing)
    m_status += p.step > 0
                    ? tr("   (hold Shift to explain step %1's R from its input, +Ctrl G, +Alt B)").arg(p.step)
                    : tr("   (hold Shift for the R neighbourhood, +Ctrl G, +Alt B)");
  emit status(m_status);
  if (detail || m_detail) m_preview->update();
  m_detail = detail;
}

void PixelInspector::left() {
  m_pos = {-1, -1};
  m_want.reset();
  m_computing = false;
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
