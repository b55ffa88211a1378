// SPDX-License-Identifier: MIT
// CustomKernelPanel: the Custom OpenCL dock's widgets — the on/off switch, border, examples and help, the
// code editor with its diagnostics, the state line, the parameters' sliders, Open and Save. The logic is the
// controller's (custom_kernel_controller.hpp).
#pragma once

#include <QString>
#include <QWidget>
#include <vector>

#include "custom_examples.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QMenu;
class QPushButton;
class QSlider;
class QToolButton;
class QVBoxLayout;

namespace convolab::gui {

class CustomCodeEditor;
class CustomKernelController;

class CustomKernelPanel : public QWidget {
  Q_OBJECT

 public:
  /// `examplesFolder`: where the Examples menu reads its files (custom_examples.hpp).
  explicit CustomKernelPanel(CustomKernelController* controller, QWidget* parent = nullptr,
                             const QString& examplesFolder = kCustomExamplesFolder);

  CustomKernelController* controller() const { return m_controller; }
  CustomCodeEditor* editor() const { return m_editor; }
  QCheckBox* onSwitch() const { return m_on; }
  QMenu* examplesMenu() const { return m_examplesMenu; }
  QListWidget* diagnosticsList() const { return m_diagnostics; }
  QString statusText() const;
  /// The slider of parameter `index` (null when there is none).
  QSlider* paramSlider(int index) const;

  /// Loads the first custom step of a filter file into the panel. Returns why not (empty: loaded).
  QString openFile(const QString& path);
  /// Saves the draft as a filter file (atomic; refuses to replace an existing file unless `overwrite`).
  /// Returns why not (empty: saved).
  QString saveFile(const QString& path, bool overwrite);
  /// The name the draft is saved under (an example's or a file's, else "Custom OpenCL").
  QString draftName() const { return m_name; }
  void setDraftName(const QString& name) { m_name = name; }

 signals:
  /// For the status bar ("Saved …").
  void message(const QString& text);

 private:
  QWidget* buildTopRow();
  QWidget* buildButtonRow();
  void fillExamples(const QString& folder);
  void showState();
  void rebuildParams();
  QWidget* paramRow(int index);
  void editParam(int index);
  void openWithDialog();
  void saveWithDialog();
  void showHelp();

  CustomKernelController* m_controller;
  QString m_name;
  QString m_lastDir;
  bool m_replacing = false;  // the editor's text is being replaced from the controller
  QCheckBox* m_on = nullptr;
  QComboBox* m_border = nullptr;
  QToolButton* m_examples = nullptr;
  QMenu* m_examplesMenu = nullptr;
  CustomCodeEditor* m_editor = nullptr;
  QLabel* m_status = nullptr;
  QListWidget* m_diagnostics = nullptr;
  QVBoxLayout* m_paramsLayout = nullptr;
  std::vector<QSlider*> m_sliders;
};

}  // namespace convolab::gui
