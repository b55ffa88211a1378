// SPDX-License-Identifier: MIT
// FilterAnalysisPanel: the "Analysis" dock — per channel DC gain, rank and separable factors, symmetry,
// zero taps, where FFT starts to win on this device, the frequency response |H(u,v)| as an image with a
// colour bar, and a 1-D cut along u.
#pragma once

#include <QTimer>
#include <QWidget>
#include <array>

#include "convolab/filter.hpp"
#include "fft_crossover_analysis.hpp"
#include "filter_facts.hpp"

class QCheckBox;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace convolab::lab {

class ResponseView;

class FilterAnalysisPanel : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kResponseSize = 64;  ///< the K×K matrix is zero-padded to this for the DFT

  explicit FilterAnalysisPanel(QWidget* parent = nullptr);

  /// Shows `filter` (coalesces rapid edits: the work happens on the next event-loop turn).
  void setFilter(const FilterSet& filter);
  /// Recomputes now (tests; also what the timer calls).
  void refresh();

  /// The device whose measurements say where FFT starts to win (its name; empty: none yet).
  void setDevice(const QString& deviceName);
  /// Where FFT starts to win on the device, as shown (from auto's measured choices; re-read on refresh).
  QString crossoverText() const;
  const FftCrossover& crossover() const { return m_crossover; }

  void setChannel(int channel);
  int channel() const { return m_channel; }
  void setLogScale(bool on);

  const ChannelFacts& facts(int channel) const { return m_facts[static_cast<size_t>(channel)]; }
  /// |H(u,v)| of `channel`, kResponseSize², DC at the centre.
  const std::vector<double>& response(int channel) const { return m_response[static_cast<size_t>(channel)]; }
  QString factsText() const;

 private:
  void display();

  FilterSet m_filter;
  QString m_device;
  FftCrossover m_crossover;
  int m_channel = 0;
  bool m_log = false;
  std::array<ChannelFacts, 3> m_facts;
  std::array<std::vector<double>, 3> m_response;
  QTimer m_timer;

  QComboBox* m_channelBox;
  QCheckBox* m_logBox;
  QLabel* m_identical;
  QLabel* m_factsLabel;
  QLabel* m_crossoverLabel;
  ResponseView* m_view;
  QChartView* m_cutView;
  QLineSeries* m_cut;
  QValueAxis* m_cutX;
  QValueAxis* m_cutY;
};

}  // namespace convolab::lab
