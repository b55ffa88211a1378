// SPDX-License-Identifier: MIT
// FilterEditor: the dock's contents — three channel grids (one while linked; heat maps for K > 15), the
// kernel generators, link/copy/normalise, border, the Presets and Copy menus, messages that fade. Its import
// and export (FilterFiles), clipboard (FilterClipboard) and Presets menu (PresetsMenu) are classes of their
// own.
#pragma once

#include <QWidget>
#include <array>

#include "convolab/filter.hpp"

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QLayout;
class QMenu;
class QScrollArea;
class QTimer;
class QToolButton;

namespace convolab::gui {

class ChannelGrid;
class CompactSpinBox;
class FilterClipboard;
class FilterDocument;
class FilterFiles;
class GeneratorPanel;
class HintPill;
class PresetLibrary;
class PresetsMenu;

class FilterEditor : public QWidget {
  Q_OBJECT

 public:
  FilterEditor(FilterDocument* document, PresetLibrary* presets, QWidget* parent = nullptr);

  ChannelGrid* grid(int channel) const { return m_grids[static_cast<size_t>(channel)]; }
  /// The kernel generators (Gaussian, disk, motion, LoG, Gabor, Kernel from Image) above the grids.
  GeneratorPanel* generators() const { return m_generators; }
  QCheckBox* linkBox() const { return m_link; }
  QComboBox* borderBox() const { return m_border; }
  QComboBox* sizeBox() const { return m_size; }
  /// The one-line hint above the grids (first start); hidden until showHint, gone once dismissed.
  QWidget* hint() const;
  QLabel* hintLabel() const;
  /// Shows `text` in the hint pill above the grids, with a × that dismisses it.
  void showHint(const QString& text);
  QLabel* errorLabel() const { return m_error; }
  /// The filter's name, elided to the room the row leaves it (its tooltip has it whole).
  QLabel* titleLabel() const { return m_title; }

  /// Import and export of filter files and ImageJ kernels (File ▸ Import Filter…, the Copy button's menu).
  FilterFiles* files() const { return m_files; }
  /// The filter as text and as OpenCV code on the clipboard (Edit ▸ Copy Filter, the Copy and Paste buttons).
  FilterClipboard* clipboard() const { return m_clipboard; }
  /// The Presets menu (also placed in the main window's menu bar); rebuilt each time it opens.
  PresetsMenu* presetsMenu() const { return m_presetsMenu; }
  /// The Copy button's menu: text, OpenCV C++ / Python, ImageJ kernel import and export.
  QMenu* copyMenu() const { return m_copyMenu; }

  /// Inline message under the editor (red); empty hides it. It hides itself after `ms` milliseconds
  /// (-1: the editor's message timeout, 0: stays until replaced). Files, clipboard and presets report here.
  void showError(const QString& message, int ms = -1);
  /// The visible message under the editor or under a channel grid (the latter for cell and divisor edits).
  QString errorText() const;
  /// How long messages stay (default 8 s; tests shorten it).
  void setMessageTimeout(int ms) { m_messageMs = ms; }

 signals:
  /// Something worth a status-bar line ("Saved preset 'Soft'"), from the editor or its files, clipboard and
  /// presets.
  void status(const QString& message);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QLayout* buildTitleRow();
  QLayout* buildOptionsRow();
  void buildBorderRows(QBoxLayout* layout);
  void buildGrids(QBoxLayout* layout);
  void buildMessageLine(QBoxLayout* outer);
  void refresh(const FilterSet& filter);
  /// An edit of the editor's own controls was refused: the message, and the controls back to the filter.
  void refuse(const QString& message);
  void showLinked(bool linked);
  void fitWidthToContent();

  FilterDocument* m_document;
  FilterFiles* m_files;
  FilterClipboard* m_clipboard;
  PresetsMenu* m_presetsMenu;
  std::array<ChannelGrid*, 3> m_grids{};
  GeneratorPanel* m_generators = nullptr;
  QScrollArea* m_scroll;
  QWidget* m_body;
  QLabel* m_title = nullptr;  ///< an ElidedLabel
  QCheckBox* m_link = nullptr;
  QComboBox* m_size = nullptr;
  QComboBox* m_border = nullptr;
  QWidget* m_borderValueRow = nullptr;
  std::array<CompactSpinBox*, 3> m_borderValues{};
  QLabel* m_error = nullptr;
  QLabel* m_linkNote = nullptr;
  QTimer* m_errorTimer = nullptr;
  int m_messageMs = 8000;
  QMenu* m_copyMenu = nullptr;
  HintPill* m_hint = nullptr;
};

}  // namespace convolab::gui
