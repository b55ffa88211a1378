// SPDX-License-Identifier: MIT
// ComparisonChart: the Compare dialog's bar chart of kernel medians — one horizontal bar per measured
// strategy (the fastest in its own colour), the names as text beside the bars, a log or linear time axis,
// and the PNG export. Kept apart from the dialog so the dialog file holds its controls, run and exports.
#pragma once

#include <QCoreApplication>
#include <QMetaObject>
#include <QStringList>
#include <vector>

#include "strategy_comparison.hpp"

class QChartView;
class QFont;
class QGraphicsSimpleTextItem;
class QString;
class QWidget;

namespace convolab::lab {

class ComparisonChart {
  // The dialog's strings keep the dialog's translation context.
  Q_DECLARE_TR_FUNCTIONS(convolab::lab::CompareDialog)

 public:
  /// Creates the (empty) chart view as a child of `parent`.
  explicit ComparisonChart(QWidget* parent);
  ~ComparisonChart();
  ComparisonChart(const ComparisonChart&) = delete;
  ComparisonChart& operator=(const ComparisonChart&) = delete;

  QChartView* view() const { return m_view; }
  /// One bar per row that measured ok, fastest on top; `font` is the dialog's (axes and names in 8.5 pt).
  void fill(const ComparisonReport& report, bool logAxis, const QFont& font);
  /// Saves the chart as PNG with `title` (in 8.5 pt of `font`) above it; the view shows no title after.
  bool savePng(const QString& path, const QString& title, const QFont& font) const;

 private:
  /// The bars' names (bottom first) as text items beside the plot, and the margin they need.
  void setBarLabels(const QStringList& names, const QFont& font);
  /// Puts the bars' names beside their bars (after every change of the plot area).
  void placeBarLabels();

  QChartView* m_view;
  std::vector<QGraphicsSimpleTextItem*> m_barLabels;  // owned by the chart
  QMetaObject::Connection m_plotAreaChanged;
};

}  // namespace convolab::lab
