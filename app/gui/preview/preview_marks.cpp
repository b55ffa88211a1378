// SPDX-License-Identifier: MIT
// The preview's marks over the frame: which pills, labels and messages are drawn, where, and with what text.
#include "preview/preview_marks.hpp"

#include <QPainter>
#include <QStringList>
#include <algorithm>

#include "preview/preview_overlays.hpp"
#include "preview/preview_view.hpp"
#include "window/theme.hpp"

namespace convolab::gui {

QRectF PreviewMarks::pill(QPainter& p, const Scene& scene, const QPointF& anchor, const QString& text,
                          Qt::Alignment align, const QColor& bg) {
  // Inside the preview, whatever its width: a long text is elided rather than cut off at the left edge.
  return drawPreviewPill(p, scene.bounds.adjusted(4, 4, -4, -4), anchor, text, align, bg);
}

QRectF PreviewMarks::paint(QPainter& p, const Scene& scene) {
  p.setRenderHint(QPainter::SmoothPixmapTransform);
  p.setRenderHint(QPainter::Antialiasing);
  const PreviewView& view = scene.view;
  if (scene.picture) drawPixelGrid(p, view);
  // The pills sit on the part of the frame in view (a zoomed frame reaches past the preview).
  const QRectF target = view.visibleRect().isEmpty() ? view.imageRect() : view.visibleRect();
  if (scene.picture && scene.mode == ViewMode::Split) paintSplit(p, scene, target);
  paintLabels(p, scene, target);
  paintStatePill(p, scene, target);
  paintMessages(p, scene, target);
  return target;
}

void PreviewMarks::paintSplit(QPainter& p, const Scene& scene, const QRectF& target) const {
  const PreviewView& view = scene.view;
  drawSplitDivider(p, view, target);
  const bool vertical = view.splitVertical();
  const QLineF line = view.divider();
  QFont f = scene.font;
  f.setPointSizeF(8.5);
  f.setBold(true);
  p.setFont(f);
  // A side out of view has no pill (sides.original: the part left of/above the divider is in view).
  const SplitSides sides = splitSidesInView(view, target);
  // Mirrored side by side, the original is right of the divider.
  const bool swapped = view.mirrored() && !vertical;
  const QColor label = theme::pillColor(theme::Pill::Label);
  if (sides.original)
    pill(p, scene, target.topLeft() + QPointF(10, 10), swapped ? tr("FILTERED") : tr("ORIGINAL"),
         Qt::AlignLeft, label);
  if (sides.filtered && vertical)
    pill(p, scene, QPointF(target.left() + 10, std::max(line.y1(), target.top()) + 10), tr("FILTERED"),
         Qt::AlignLeft, label);
  else if (!vertical && sides.filtered)
    pill(p, scene, target.topRight() + QPointF(-10, 10), swapped ? tr("ORIGINAL") : tr("FILTERED"),
         Qt::AlignRight, label);
}

void PreviewMarks::paintLabels(QPainter& p, const Scene& scene, const QRectF& target) const {
  const PreviewView& view = scene.view;
  const PreviewMessages& m = scene.messages;
  QFont f = scene.font;
  f.setPointSizeF(9);
  p.setFont(f);
  if (scene.mode == ViewMode::Original && scene.picture)
    pill(p, scene, target.topLeft() + QPointF(10, 10), tr("ORIGINAL"), Qt::AlignLeft,
         theme::pillColor(theme::Pill::Label));
  // The zoom, where the toolbar's Fit and 100 % (checked) do not say it already.
  if (scene.picture && !view.fit() && view.zoom() != 1.0)
    pill(p, scene, QPointF(target.center().x(), target.top() + (m.banner.isEmpty() ? 10 : 40)),
         view.zoomText(), Qt::AlignHCenter, theme::pillColor(theme::Pill::Label));
  if (scene.record && scene.record->bypassed && scene.mode != ViewMode::Original)
    pill(p, scene, target.topRight() + QPointF(-10, scene.mode == ViewMode::Split ? 44 : 10), tr("BYPASS"),
         Qt::AlignRight, theme::pillColor(theme::Pill::Bypass));
  if (m.paused && m.disconnected.isEmpty())
    pill(p, scene, QPointF(target.left() + 10, target.bottom() - 38), tr("❚❚  Paused"), Qt::AlignLeft,
         theme::pillColor(theme::Pill::Paused));
  if (!m.note.isEmpty() && scene.mode != ViewMode::Original)
    pill(p, scene, QPointF(target.left() + 10, target.bottom() - (m.paused ? 72 : 38)), m.note, Qt::AlignLeft,
         theme::pillColor(theme::Pill::Stale));
}

bool PreviewMarks::stallShown(const Scene& scene) {
  return !scene.messages.stall.isEmpty() && scene.picture && scene.messages.busy.isEmpty();
}

QString PreviewMarks::statePillText(const Scene& scene) {
  QStringList parts;
  if (scene.staleShown)
    parts << (scene.record && scene.record->unfiltered ? tr("Unfiltered — waiting for the engine")
                                                       : tr("Previous filter — the new one is on its way"));
  if (stallShown(scene)) parts << scene.messages.stall;
  if (!scene.messages.preparing.isEmpty()) parts << scene.messages.preparing;
  return parts.join(QStringLiteral(" · "));
}

void PreviewMarks::paintStatePill(QPainter& p, const Scene& scene, const QRectF& target) {
  m_statePill = {};
  const QString text = statePillText(scene);
  if (text.isEmpty() || scene.mode == ViewMode::Original || !scene.messages.disconnected.isEmpty()) return;
  const QRectF area = scene.picture ? target : scene.bounds;
  m_statePill = pill(
      p, scene, QPointF(area.right() - 10, area.bottom() - 38), QStringLiteral("⟳  ") + text, Qt::AlignRight,
      theme::pillColor(scene.staleShown || stallShown(scene) ? theme::Pill::Stale : theme::Pill::Preparing));
}

void PreviewMarks::paintMessages(QPainter& p, const Scene& scene, const QRectF& target) const {
  const PreviewMessages& m = scene.messages;
  if (!m.disconnected.isEmpty()) {
    p.fillRect(scene.picture ? target : scene.bounds, theme::disconnectedShade());
    QFont big = scene.font;
    big.setPointSizeF(13);
    big.setBold(true);
    p.setFont(big);
    pill(p, scene, scene.bounds.center(), m.disconnected, Qt::AlignHCenter | Qt::AlignVCenter,
         theme::pillColor(theme::Pill::Disconnected));
  } else if (!m.busy.isEmpty()) {
    QFont big = scene.font;
    big.setPointSizeF(12);
    p.setFont(big);
    pill(p, scene, scene.bounds.center(), m.busy, Qt::AlignHCenter | Qt::AlignVCenter,
         theme::pillColor(theme::Pill::Busy));
  }
  if (m.banner.isEmpty()) return;
  const QRectF strip(0, 0, scene.bounds.width(), 30);
  p.fillRect(strip, theme::bannerBackground());
  p.setPen(theme::bannerText());
  p.setFont(scene.font);
  const int width = static_cast<int>(scene.bounds.width());
  p.drawText(strip.adjusted(12, 0, -12, 0), Qt::AlignVCenter | Qt::AlignLeft,
             p.fontMetrics().elidedText(m.banner, Qt::ElideRight, width - 24));
}

}  // namespace convolab::gui
