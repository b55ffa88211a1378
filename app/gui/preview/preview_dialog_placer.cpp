// SPDX-License-Identifier: MIT
// File dialogs of the preview's window open beside the picture, not over it.
#include "preview/preview_dialog_placer.hpp"

#include <QApplication>
#include <QEvent>
#include <QFileDialog>
#include <algorithm>

#include "preview/preview_view.hpp"

namespace convolab::gui {

PreviewDialogPlacer::PreviewDialogPlacer(QWidget* preview, const PreviewView& view)
    : QObject(preview), m_preview(preview), m_view(view) {
  qApp->installEventFilter(this);
}

bool PreviewDialogPlacer::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Show && watched->isWidgetType()) {
    auto* dialog = qobject_cast<QFileDialog*>(watched);
    if (dialog && dialog->isWindow() && dialog->parentWidget() &&
        dialog->parentWidget()->window() == m_preview->window() && m_preview->isVisible())
      place(dialog);
  }
  return QObject::eventFilter(watched, event);
}

void PreviewDialogPlacer::place(QWidget* dialog) const {
  // Runs before QDialog::showEvent, which would centre the dialog over the window; an explicit move() makes
  // it leave the position alone.
  const QRectF shown = m_view.visibleRect().isEmpty() ? QRectF(m_preview->rect()) : m_view.visibleRect();
  const QRect picture(m_preview->mapToGlobal(shown.topLeft().toPoint()), shown.size().toSize());
  const QRect area = m_preview->window()->frameGeometry();
  const QSize size = dialog->frameGeometry().size();
  const int top = std::max(area.top(), area.center().y() - size.height() / 2);
  const auto hidden = [&](int left) {
    const QRect both = QRect(QPoint(left, top), size).intersected(picture);
    return both.isEmpty() ? 0 : both.width() * both.height();
  };
  int best = area.center().x() - size.width() / 2;
  for (const int left : {area.left(), area.right() + 1 - size.width()})
    if (hidden(left) < hidden(best)) best = left;
  dialog->move(best, top);
}

}  // namespace convolab::gui
