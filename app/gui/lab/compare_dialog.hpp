// SPDX-License-Identifier: MIT
// CompareDialog: Processing ▸ Compare strategies… — runs StrategyComparison (on a chain of several steps:
// compareChainStrategies, fused against step by step) off the GUI thread (a second OpenCL context on the
// live device) and shows a sorted table and a bar chart; exports Markdown, CSV, PNG.
#pragma once

#include <QDialog>
#include <QPointer>
#include <atomic>
#include <memory>

#include "lab_inputs.hpp"
#include "strategy_comparison.hpp"

class QCheckBox;
class QLabel;
class QLayout;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QThread;

namespace convolab {
class Context;
}

namespace convolab::lab {

class ComparisonChart;
class ComparisonTable;

class CompareDialog : public QDialog {
  Q_OBJECT

 public:
  explicit CompareDialog(LabInputsProvider inputs, QWidget* parent = nullptr);
  ~CompareDialog() override;

  /// Starts a comparison on the current inputs (no-op while one runs). False when there is no frame.
  bool start();
  void cancel();
  bool running() const { return m_running; }
  const ComparisonReport& report() const { return m_report; }

  QSpinBox* iterationsBox() const { return m_iterations; }
  QCheckBox* autoBox() const { return m_auto; }
  QTableWidget* table() const;

  /// Shows a report measured elsewhere (a saved run, tests) as if this dialog had measured it.
  void setReport(ComparisonReport report);
  /// The size the dialog opens at on `available` (a screen's available geometry): every row of a typical
  /// comparison and the chart, without the full screen height.
  static QSize defaultSize(const QRect& available);

  bool exportMarkdown(const QString& path) const;
  bool exportCsv(const QString& path) const;
  bool exportChartPng(const QString& path) const;

 signals:
  /// A comparison ended (finished or cancelled); report() holds what was measured.
  void finished();
  /// The user asked to make `strategy` the live one; on a chain's row `chainMode` says how the chain is to
  /// run: "fused" (`strategy` is "fused") or "steps" (step by step with `strategy`); "" for one filter.
  void makeLiveRequested(const QString& strategy, const QString& chainMode);
  void progressed(int done, int total);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  // The constructor's parts: the run controls, the table and chart, the export and close buttons.
  QLayout* createControls();
  QWidget* createResults();
  QLayout* createButtons();
  void showReport();
  /// The summary line above the table: device, frame, filter or chain, runs, peak.
  QString summaryText() const;
  void setRunning(bool running);
  void exportAs(const QString& kind);

  LabInputsProvider m_inputs;
  ComparisonReport m_report;
  std::shared_ptr<Context> m_context;
  QString m_contextSpec;
  std::shared_ptr<std::atomic<bool>> m_cancel;
  QPointer<QThread> m_thread;
  bool m_running = false;

  QSpinBox* m_iterations;
  QCheckBox* m_variants;
  QCheckBox* m_auto;
  QCheckBox* m_logChart;
  QPushButton* m_run;
  QPushButton* m_stop;
  QProgressBar* m_progress;
  QLabel* m_summary;
  QLabel* m_verdict;  // a chain: which is faster, fused or step by step (hidden for one filter)
  QLabel* m_state;
  std::unique_ptr<ComparisonTable> m_table;  // the results table (compare_table.hpp)
  std::unique_ptr<ComparisonChart> m_chart;  // the bar chart (compare_chart.hpp)
  QPushButton* m_exportMd;
  QPushButton* m_exportCsv;
  QPushButton* m_exportPng;
};

}  // namespace convolab::lab
