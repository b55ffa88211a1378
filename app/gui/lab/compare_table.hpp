// SPDX-License-Identifier: MIT
// ComparisonTable: the Compare dialog's results table — its columns, one row per measured strategy (marks,
// tooltips, a "Make live" button), and the sizing that shows every row and a decline reason whole. Kept
// apart from the dialog so the dialog file holds its controls, run and exports.
#pragma once

#include <QColor>
#include <QCoreApplication>
#include <QMetaObject>
#include <functional>
#include <string>

#include "convolab/strategy_id.hpp"
#include "strategy_comparison.hpp"

class QString;
class QTableWidget;
class QWidget;

namespace convolab::lab {

/// What auto chose without the "auto:" prefix: "tiled/16x8" (the table's and the chart's name for it).
inline std::string chosenByAuto(StrategyId id) {
  id.viaAuto = false;
  return id.toString();
}

/// The fastest row's colour: its name in the table, its bar in the chart.
inline const QColor kCompareFastest(0x4c, 0xc3, 0x6a);

class ComparisonTable {
  // The dialog's strings keep the dialog's translation context.
  Q_DECLARE_TR_FUNCTIONS(convolab::lab::CompareDialog)

 public:
  enum Column {
    Strategy,
    Variant,
    Median,
    P95,
    Upload,
    Download,
    Mpix,
    Gflops,
    Peak,
    MaxDiff,
    Status,
    Live,
    Count
  };

  /// Creates the (empty) table as a child of `owner`, whose font sizes its rows and columns.
  explicit ComparisonTable(QWidget* owner);
  ~ComparisonTable();
  ComparisonTable(const ComparisonTable&) = delete;
  ComparisonTable& operator=(const ComparisonTable&) = delete;

  QTableWidget* widget() const { return m_table; }
  /// One row per report row; a row that measured ok gets a "Make live" button calling `makeLive` with its
  /// strategy and chain mode (ComparisonRow::chainMode). A chain's step-by-step row tells each step's median
  /// in the tooltips of its Variant and Median cells.
  void fill(const ComparisonReport& report,
            const std::function<void(const QString& strategy, const QString& chainMode)>& makeLive);
  /// Column widths (names capped and elided with tooltips, Status the rest, wrapping) and a table tall
  /// enough for every row.
  void fit();

 private:
  /// Row heights (one line, or a wrapped status's lines) and the table's height for all of them.
  void fitRows();

  QWidget* m_owner;
  QTableWidget* m_table;
  QMetaObject::Connection m_statusResized;
};

}  // namespace convolab::lab
