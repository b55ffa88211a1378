// SPDX-License-Identifier: MIT
// PreviewPlaceholder: the "no source" panel laid over the preview: the app's icon, a title, a detail line and
// the Open image / Open video / Test pattern buttons (stacked when the preview is narrow).
#pragma once

#include <QWidget>

class QBoxLayout;
class QLabel;
class QPushButton;

namespace convolab::gui {

class PreviewPlaceholder : public QWidget {
  Q_OBJECT

 public:
  /// Hidden until shown; `parent`: the preview.
  explicit PreviewPlaceholder(QWidget* parent);

  /// Sets the title and the detail line (hidden when empty).
  void setText(const QString& title, const QString& detail);
  QString title() const;
  QPushButton* openImageButton() const { return m_openImage; }
  QPushButton* openVideoButton() const { return m_openVideo; }
  QPushButton* testPatternButton() const { return m_testPattern; }
  /// Lays the buttons out for a preview `width` pixels wide: side by side, or stacked instead of clipped.
  void fitWidth(int width);

 private:
  QLabel* m_title;
  QLabel* m_detail;
  QPushButton* m_openImage;
  QPushButton* m_openVideo;
  QPushButton* m_testPattern;
  QBoxLayout* m_buttons;
};

}  // namespace convolab::gui
