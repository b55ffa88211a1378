// SPDX-License-Identifier: MIT
// FilterEditor: the dock's contents — three channel grids (one while linked; heat maps for K > 15), the
// kernel generators, link/copy/normalise, border, presets, paste, code export, messages that fade.
// Implemented by concern: filter_editor.cpp (the widget), filter_editor_clipboard.cpp,
// filter_editor_files.cpp, filter_editor_presets.cpp.
#pragma once

#include <QWidget>
#include <array>

#include "convolab/filter.hpp"
#include "editor/preset_library.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QScrollArea;
class QTimer;
class QToolButton;

namespace convolab::gui {

class ChannelGrid;
class GeneratorPanel;
class PresetThumbnails;
class CompactSpinBox;
class FilterDocument;

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
  QWidget* hint() const { return m_hint; }
  QLabel* hintLabel() const { return m_hintText; }
  /// Shows `text` in the hint pill above the grids, with a × that dismisses it.
  void showHint(const QString& text);
  /// Where Export Filter (and Export ImageJ Kernel) open: the folder last exported to, else Documents.
  QString exportDir() const;
  void setExportDir(const QString& dir) { m_exportDir = dir; }
  QLabel* errorLabel() const { return m_error; }
  /// The Presets menu (also placed in the main window's menu bar); rebuilt each time it opens.
  QMenu* presetsMenu() const { return m_presetsMenu; }
  /// The Presets menu's thumbnails (created on first use; give it a frame provider to see them).
  PresetThumbnails* presetThumbnails();

  /// The filter's name, elided to the room the row leaves it (its tooltip has it whole).
  QLabel* titleLabel() const { return m_title; }
  /// The Copy button's menu: text, OpenCV C++ / Python, ImageJ kernel import and export.
  QMenu* copyMenu() const { return m_copyMenu; }

  /// Inline message under the editor (red); empty hides it. It hides itself after `ms` milliseconds
  /// (-1: the editor's message timeout, 0: stays until replaced).
  void showError(const QString& message, int ms = -1);
  /// The visible message under the editor or under a channel grid (the latter for cell and divisor edits).
  QString errorText() const;
  /// How long messages stay (default 8 s; tests shorten it).
  void setMessageTimeout(int ms) { m_messageMs = ms; }

  // Operations without dialogs (menus call these after asking; tests call them directly).
  /// Parses the plain-text form; errors go to the inline label with their line and column.
  bool pasteText(const QString& text);
  QString filterText() const;
  /// A filter file; one whose step is custom OpenCL goes to the Custom OpenCL panel (customStepImported), a
  /// chain of several steps or a magnitude to the Chain dock (chainImported).
  bool importFile(const QString& path);
  /// Saves JSON atomically; refuses an existing file unless `overwrite`.
  bool exportFile(const QString& path, bool overwrite);
  bool loadPreset(const PresetEntry& entry);
  /// Refuses a name that a bundled or user preset already has (case-insensitive) unless `overwrite`.
  bool savePreset(const QString& name, bool overwrite);
  /// ImageJ kernel text (.txt): rows of weights. Import normalises as ImageJ's default does (divisor = Σ
  /// when Σ ≠ 0 and the file gives no divisor); export writes channel R's matrix / divisor.
  bool importImageJKernel(const QString& path);
  bool exportImageJKernel(const QString& path);
  QString openCvCpp() const;
  QString openCvPython() const;

 public slots:
  void copyToClipboard();
  void pasteFromClipboard();
  void importWithDialog();
  void exportWithDialog();
  void savePresetWithDialog();
  void importImageJWithDialog();
  void exportImageJWithDialog();
  void copyOpenCvCpp();
  void copyOpenCvPython();

 signals:
  /// Something worth a status-bar line ("Saved preset 'Soft'").
  void status(const QString& message);
  /// A filter or kernel was exported into `dir` (the main window remembers it).
  void exportDirChosen(const QString& dir);
  /// importFile() read a filter file with a custom OpenCL step (`path`): the Custom OpenCL panel opens it.
  void customStepImported(const QString& path);
  /// importFile() read a chain file the editor cannot hold (several steps, a magnitude): the Chain dock opens
  /// it.
  void chainImported(const QString& path);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QString chooseExportPath(const QString& title, const QString& fallbackName, const QString& ext,
                           const QString& filterText);
  void refresh(const FilterSet& filter);
  /// An edit of the editor's own controls was refused: the message, and the controls back to the filter.
  void refuse(const QString& message);
  void rebuildPresetsMenu();
  void updatePresetIcons();
  void showLinked(bool linked);
  void fitWidthToContent();

  FilterDocument* m_document;
  PresetLibrary* m_presets;
  std::array<ChannelGrid*, 3> m_grids{};
  GeneratorPanel* m_generators;
  QScrollArea* m_scroll;
  QWidget* m_body;
  QLabel* m_title;  ///< an ElidedLabel
  QCheckBox* m_link;
  QComboBox* m_size;
  QComboBox* m_border;
  QWidget* m_borderValueRow;
  std::array<CompactSpinBox*, 3> m_borderValues{};
  QLabel* m_error;
  QLabel* m_linkNote;
  QTimer* m_errorTimer;
  int m_messageMs = 8000;
  QMenu* m_presetsMenu;
  PresetThumbnails* m_thumbnails = nullptr;
  QMenu* m_copyMenu;
  QString m_lastDir;    // import
  QString m_exportDir;  // export; empty: Documents
  QWidget* m_hint = nullptr;
  QLabel* m_hintText = nullptr;
};

}  // namespace convolab::gui
