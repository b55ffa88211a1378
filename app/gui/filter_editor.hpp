// FilterEditor: the dock's contents — three channel grids, link/copy/normalise, border, presets, paste,
// errors.
#pragma once

#include <QWidget>
#include <array>

#include "convolab/filter.hpp"
#include "preset_library.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QToolButton;

namespace convolab::gui {

class ChannelGrid;
class CompactSpinBox;
class FilterDocument;

class FilterEditor : public QWidget {
  Q_OBJECT

 public:
  FilterEditor(FilterDocument* document, PresetLibrary* presets, QWidget* parent = nullptr);

  ChannelGrid* grid(int channel) const { return m_grids[static_cast<size_t>(channel)]; }
  QCheckBox* linkBox() const { return m_link; }
  QComboBox* borderBox() const { return m_border; }
  QLabel* errorLabel() const { return m_error; }
  /// The Presets menu (also placed in the main window's menu bar); rebuilt each time it opens.
  QMenu* presetsMenu() const { return m_presetsMenu; }

  /// Inline message under the editor (red); empty hides it.
  void showError(const QString& message);
  QString errorText() const;

  // Operations without dialogs (menus call these after asking; tests call them directly).
  /// Parses the plain-text form; errors go to the inline label with their line and column.
  bool pasteText(const QString& text);
  QString filterText() const;
  bool importFile(const QString& path);
  /// Saves JSON atomically; refuses an existing file unless `overwrite`.
  bool exportFile(const QString& path, bool overwrite);
  bool loadPreset(const PresetEntry& entry);
  bool savePreset(const QString& name, bool overwrite);

 public slots:
  void copyToClipboard();
  void pasteFromClipboard();
  void importWithDialog();
  void exportWithDialog();
  void savePresetWithDialog();

 signals:
  /// Something worth a status-bar line ("Saved preset 'Soft'").
  void status(const QString& message);

 private:
  void refresh(const FilterSet& filter);
  void rebuildPresetsMenu();

  FilterDocument* m_document;
  PresetLibrary* m_presets;
  std::array<ChannelGrid*, 3> m_grids{};
  QLabel* m_title;
  QCheckBox* m_link;
  QComboBox* m_size;
  QComboBox* m_border;
  QWidget* m_borderValueRow;
  std::array<CompactSpinBox*, 3> m_borderValues{};
  QLabel* m_error;
  QMenu* m_presetsMenu;
  QString m_lastDir;
};

}  // namespace convolab::gui
