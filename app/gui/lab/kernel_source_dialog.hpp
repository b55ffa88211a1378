// SPDX-License-Identifier: MIT
// KernelSourceDialog: View ▸ Kernel Source — the exact OpenCL C the live strategy built (codegen's generated
// source with its literal coefficients), its build options, launch sizes, build time and cache use. It opens
// at the strategy's __kernel, with the pasted-in common.cl and fragments listed above as links.
#pragma once

#include <QDialog>
#include <QPointer>
#include <memory>

#include "convolab/filter_chain.hpp"
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
  /// Where the shown source's parts are (common.cl, the included fragments, the kernel).
  const SourceOutline& outline() const { return m_outline; }
  /// The text of the outline line above the source: the fragments with their line ranges, as links.
  QString outlineText() const;
  /// The 1-based line at the top of the source view.
  int firstVisibleLine() const;
  /// Scrolls the source so that 1-based `line` is the first one shown, and puts the cursor there.
  void showLine(int line);

 signals:
  void refreshed();

 private:
  void showInspection(const KernelInspection& inspection);
  /// A custom OpenCL step runs: its wrapped source (no build needed to show it).
  void showCustom(const ChainStep& step, int width, int height);
  void showBuild(int index);
  void save();

  LabInputsProvider m_inputs;
  KernelInspection m_inspection;
  SourceOutline m_outline;
  std::shared_ptr<Context> m_context;
  QString m_contextSpec;
  QPointer<QThread> m_thread;
  bool m_busy = false;

  QLabel* m_title;
  QComboBox* m_builds;
  QLabel* m_details;
  QLabel* m_outlineLabel;
  QPlainTextEdit* m_source;
  QPushButton* m_refresh;
};

}  // namespace convolab::lab
