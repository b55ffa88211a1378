// SPDX-License-Identifier: MIT
// EngineSelector: Processing ▸ Strategy / Device, the toolbar's strategy and device boxes and the engine
// label of the status bar, kept in step with the engine the pipeline reports; choices are remembered.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include "convolab/strategy_id.hpp"

class QActionGroup;
class QComboBox;
class QLabel;
class QMenu;
class QToolBar;
class QWidget;

namespace convolab::gui {

class AppSettings;
class Pipeline;
class StatsPanel;

class EngineSelector : public QObject {
  Q_OBJECT

 public:
  EngineSelector(QWidget* window, Pipeline* pipeline, AppSettings* settings, StatsPanel* statsPanel);

  /// Adds Processing ▸ Strategy and ▸ Device to `menu`.
  void addMenus(QMenu* menu);
  /// Adds the right-aligned "Strategy [box] Device [box]" to the toolbar.
  void addBoxes(QToolBar* bar);
  /// "device · strategy" in the status bar.
  QLabel* statusLabel() const { return m_label; }

  /// Starts the engine with `deviceSpec` / `strategy`, or the remembered ones where empty (call once the
  /// menus and boxes exist).
  void start(const QString& deviceSpec, const QString& strategy);
  void setStrategy(const QString& name);
  void setDevice(const QString& spec);

  /// The strategy asked for (the live one once the engine reports), as its text for people and settings,
  /// and the device in use.
  QString strategy() const { return QString::fromStdString(m_strategy.toString()); }
  QString deviceSpec() const { return m_deviceSpec; }
  QString deviceLabel() const { return m_deviceLabel; }

 signals:
  void message(const QString& text, int ms);

 private:
  void onEngineReady(const QString& deviceLabel, const QString& deviceSpec, const StrategyId& strategy);
  void onDevicesListed(const QStringList& labels, const QStringList& specs);
  void showStrategy(const StrategyId& strategy);

  QWidget* m_window;
  Pipeline* m_pipeline;
  AppSettings* m_settings;
  StatsPanel* m_statsPanel;
  QLabel* m_label;
  QMenu* m_strategyMenu = nullptr;
  QMenu* m_deviceMenu = nullptr;
  QActionGroup* m_strategyGroup;
  QActionGroup* m_deviceGroup;
  QComboBox* m_strategyBox = nullptr;
  QComboBox* m_deviceBox = nullptr;
  StrategyId m_strategy{std::string(kAutoStrategy)};
  QString m_deviceSpec;
  QString m_deviceLabel;
};

}  // namespace convolab::gui
