// SPDX-License-Identifier: MIT
// PreviewDialogPlacer: moves a file dialog of the preview's window off the picture as it opens. Centred, it
// covered the whole picture at 1366×768 (and, dark and frameless without a window manager, read as a blank
// preview); it goes to the window's left or right edge, whichever hides less of the picture.
#pragma once

#include <QObject>

class QWidget;

namespace convolab::gui {

class PreviewView;

/// Watches the application's Show events (an event filter on qApp) while it lives.
class PreviewDialogPlacer : public QObject {
  Q_OBJECT

 public:
  /// `preview`: the widget showing the picture (and this object's parent); `view`: where the frame lies
  /// in it (outlives this).
  PreviewDialogPlacer(QWidget* preview, const PreviewView& view);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void place(QWidget* dialog) const;

  QWidget* m_preview;
  const PreviewView& m_view;
};

}  // namespace convolab::gui
