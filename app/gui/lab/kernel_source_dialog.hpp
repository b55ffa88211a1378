// SPDX-License-Identifier: MIT
// KernelSourceDialog: View ▸ Kernel Source — the exact OpenCL C the live strategy built (codegen's generated
// source with its literal coefficients), its build options, launch sizes, build time and cache use.
#pragma once

#include <QDialog>
#include <QPointer>
#include <memory>

#include "kernel_inspection.hpp"
#include "lab_inputs.hpp"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QThread;

namespace convolab {
class Context;
}

namespace convolab::lab {

class KernelSourceDialog : public QDialog {
  Q_OBJECT

 public:
  explicit KernelSourceDialog(LabInputsProvider inputs, QWidget* parent = nullptr);
  ~KernelSourceDialog() override;

  /// Builds the live strategy again in the lab's own context and shows what it built. False: no input.
  bool refresh();
  bool busy() const { return m_busy; }
  /// The source shown now (the selected build).
  QString sourceText() const;
  QString detailsText() const;

 signals:
  void refreshed();

 private:
  void showInspection(const KernelInspection& inspection);
  void showBuild(int index);
  void save();

  LabInputsProvider m_inputs;
  KernelInspection m_inspection;
  std::shared_ptr<Context> m_context;
  QString m_contextSpec;
  QPointer<QThread> m_thread;
  bool m_busy = false;

  QLabel* m_title;
  QComboBox* m_builds;
  QLabel* m_details;
  QPlainTextEdit* m_source;
  QPushButton* m_refresh;
};

}  // namespace convolab::lab
