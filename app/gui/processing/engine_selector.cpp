// SPDX-License-Identifier: MIT
// Strategy and device choice: menus, toolbar boxes and status label, in step with the pipeline's engine.
#include "processing/engine_selector.hpp"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QToolBar>

#include "app_settings.hpp"
#include "convolab/registry.hpp"
#include "convolab/strategy_id.hpp"
#include "processing/pipeline.hpp"
#include "stats/stats_panel.hpp"

namespace convolab::gui {

namespace {

QString qstring(std::string_view text) {
  return QString::fromLatin1(text.data(), static_cast<int>(text.size()));
}

}  // namespace

EngineSelector::EngineSelector(QWidget* window, Pipeline* pipeline, AppSettings* settings,
                               StatsPanel* statsPanel)
    : QObject(window),
      m_window(window),
      m_pipeline(pipeline),
      m_settings(settings),
      m_statsPanel(statsPanel),
      m_label(new QLabel(window)),
      m_strategyGroup(new QActionGroup(this)),
      m_deviceGroup(new QActionGroup(this)) {
  connect(m_pipeline, &Pipeline::engineReady, this, &EngineSelector::onEngineReady);
  connect(m_pipeline, &Pipeline::devicesListed, this, &EngineSelector::onDevicesListed);
}

void EngineSelector::addMenus(QMenu* menu) {
  m_strategyMenu = menu->addMenu(tr("&Strategy"));
  for (const auto& entry : strategyRegistry()) {
    const QString name = qstring(entry.name);
    QAction* a = m_strategyMenu->addAction(name);
    a->setCheckable(true);
    a->setData(name);
    a->setToolTip(qstring(entry.description));
    a->setActionGroup(m_strategyGroup);
    connect(a, &QAction::triggered, this, [this, name] { setStrategy(name); });
  }
  m_strategyMenu->setToolTipsVisible(true);
  m_deviceMenu = menu->addMenu(tr("&Device"));
  m_deviceMenu->addAction(tr("(listing devices…)"))->setEnabled(false);
}

void EngineSelector::addBoxes(QToolBar* bar) {
  auto* spacer = new QWidget(bar);
  spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  bar->addWidget(spacer);
  bar->addWidget(new QLabel(tr("Strategy"), bar));
  m_strategyBox = new QComboBox(bar);
  m_strategyBox->setObjectName(QStringLiteral("strategyBox"));
  for (const auto& entry : strategyRegistry()) {
    const QString name = qstring(entry.name);
    m_strategyBox->addItem(name, name);
    m_strategyBox->setItemData(m_strategyBox->count() - 1, qstring(entry.description), Qt::ToolTipRole);
  }
  m_strategyBox->setToolTip(
      tr("How the convolution runs on the device; auto measures and picks the fastest"));
  connect(m_strategyBox, &QComboBox::activated, this,
          [this](int i) { setStrategy(m_strategyBox->itemData(i).toString()); });
  bar->addWidget(m_strategyBox);
  bar->addWidget(new QLabel(tr("Device"), bar));
  m_deviceBox = new QComboBox(bar);
  m_deviceBox->setObjectName(QStringLiteral("deviceBox"));
  m_deviceBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_deviceBox->setMaximumWidth(260);
  m_deviceBox->setToolTip(tr("The OpenCL device that runs the filter"));
  connect(m_deviceBox, &QComboBox::activated, this,
          [this](int i) { setDevice(m_deviceBox->itemData(i).toString()); });
  bar->addWidget(m_deviceBox);
}

void EngineSelector::start(const QString& deviceSpec, const QString& strategy) {
  m_strategy = StrategyId::parse(
      (!strategy.isEmpty()
           ? strategy
           : m_settings->value(AppSettings::kStrategy, QString::fromLatin1(kAutoStrategy)).toString())
          .toStdString());
  m_deviceSpec = !deviceSpec.isEmpty() ? deviceSpec : m_settings->value(AppSettings::kDevice).toString();
  showStrategy(m_strategy);
  m_statsPanel->setEngine(tr("starting…"), m_strategy);
  m_label->setText(tr("OpenCL: starting…"));
  m_pipeline->startEngine(m_deviceSpec, m_strategy);
}

void EngineSelector::showStrategy(const StrategyId& strategy) {
  const QString name = QString::fromStdString(strategy.toString());
  for (QAction* a : m_strategyGroup->actions()) a->setChecked(a->data().toString() == name);
  if (m_strategyBox) m_strategyBox->setCurrentIndex(m_strategyBox->findData(name));
}

void EngineSelector::setStrategy(const QString& name) {
  m_strategy = StrategyId::parse(name.toStdString());
  m_pipeline->setStrategy(m_strategy);
  m_settings->set(AppSettings::kStrategy, name);
  showStrategy(m_strategy);
  m_statsPanel->setEngine(m_deviceLabel, m_strategy);
  emit message(tr("Strategy: %1").arg(name), 3000);
}

void EngineSelector::setDevice(const QString& spec) {
  m_pipeline->setDevice(spec);
  m_settings->set(AppSettings::kDevice, spec);
  emit message(tr("Switching OpenCL device…"), 3000);
}

void EngineSelector::onEngineReady(const QString& deviceLabel, const QString& deviceSpec,
                                   const StrategyId& strategy) {
  m_deviceLabel = deviceLabel;
  m_deviceSpec = deviceSpec;
  m_strategy = strategy;
  m_label->setText(QStringLiteral("%1 · %2").arg(deviceLabel, QString::fromStdString(strategy.toString())));
  m_statsPanel->setEngine(deviceLabel, strategy);
  for (QAction* a : m_deviceGroup->actions()) a->setChecked(a->data().toString() == deviceSpec);
  if (m_deviceBox) m_deviceBox->setCurrentIndex(m_deviceBox->findData(deviceSpec));
  showStrategy(strategy);
}

void EngineSelector::onDevicesListed(const QStringList& labels, const QStringList& specs) {
  if (!m_deviceMenu || !m_deviceBox) return;
  m_deviceMenu->clear();
  m_deviceBox->clear();
  for (QAction* a : m_deviceGroup->actions()) m_deviceGroup->removeAction(a);
  if (specs.isEmpty()) m_deviceMenu->addAction(tr("(no OpenCL device)"))->setEnabled(false);
  for (int i = 0; i < specs.size(); ++i) {
    const QString spec = specs[i];
    QAction* a = m_deviceMenu->addAction(QStringLiteral("%1   [%2]").arg(labels[i], spec));
    a->setCheckable(true);
    a->setData(spec);
    a->setActionGroup(m_deviceGroup);
    a->setChecked(spec == m_deviceSpec);
    connect(a, &QAction::triggered, this, [this, spec] { setDevice(spec); });
    m_deviceBox->addItem(labels[i].section(QStringLiteral(" — "), 0, 0), spec);
    m_deviceBox->setItemData(i, labels[i], Qt::ToolTipRole);
  }
  m_deviceBox->setCurrentIndex(m_deviceBox->findData(m_deviceSpec));
}

}  // namespace convolab::gui
