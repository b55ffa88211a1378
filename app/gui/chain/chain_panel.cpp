// SPDX-License-Identifier: MIT
// The Chain dock's widgets: they show the controller's list and forward edits to it.
#include "chain_panel.hpp"

#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include "chain_controller.hpp"
#include "chain_presets.hpp"
#include "chain_step_text.hpp"
#include "custom/custom_examples.hpp"

namespace convolab::gui {

ChainPanel::ChainPanel(ChainController* controller, std::function<FilterSet()> editorFilter, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_editorFilter(std::move(editorFilter)) {
  setObjectName(QStringLiteral("chainPanel"));
  m_on = new QCheckBox(tr("Run the chain"), this);
  m_on->setObjectName(QStringLiteral("chainOn"));
  m_on->setToolTip(
      tr("While on, the preview runs every switched-on step below, in order, instead of the "
         "editor's filter. Switching on the Custom OpenCL dock's switch turns this one off, and "
         "the other way round."));
  m_list = new QListWidget(this);
  m_list->setObjectName(QStringLiteral("chainSteps"));
  m_list->setToolTip(
      tr("The steps, first to last: each reads the one above. The check box switches a step "
         "on or off; Ctrl+Up/Ctrl+Down move it, Delete removes it."));
  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("chainStatus"));
  m_status->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(m_on);
  layout->addWidget(m_list, 1);
  layout->addWidget(m_status);
  layout->addWidget(buildButtons());

  auto shortcut = [this](const QKeySequence& keys, auto slot) {
    auto* s = new QShortcut(keys, m_list, slot);
    s->setContext(Qt::WidgetWithChildrenShortcut);
  };
  shortcut(QKeySequence(Qt::CTRL | Qt::Key_Up), [this] { moveSelected(-1); });
  shortcut(QKeySequence(Qt::CTRL | Qt::Key_Down), [this] { moveSelected(1); });
  shortcut(QKeySequence(QKeySequence::Delete), [this] { removeSelected(); });
  connect(m_on, &QCheckBox::toggled, m_controller, &ChainController::setOn);
  connect(m_controller, &ChainController::onChanged, this, [this](bool on) {
    const QSignalBlocker block(m_on);
    m_on->setChecked(on);
  });
  connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
    if (!m_rebuilding) m_controller->setEnabled(m_list->row(item), item->checkState() == Qt::Checked);
  });
  connect(m_controller, &ChainController::stepsChanged, this, &ChainPanel::rebuildList);
  m_on->setChecked(m_controller->isOn());
  rebuildList();
}

QWidget* ChainPanel::buildButtons() {
  auto* box = new QWidget(this);
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(4);
  auto button = [box](const QString& text, const QString& name, const QString& tip) {
    auto* b = new QPushButton(text, box);
    b->setObjectName(name);
    b->setToolTip(tip);
    return b;
  };
  m_add = button(tr("Add the editor's filter"), QStringLiteral("chainAdd"),
                 tr("Appends the matrix filter being edited as the last step"));
  auto* presets = new QToolButton(box);
  presets->setObjectName(QStringLiteral("chainPresets"));
  presets->setText(tr("Chain presets"));
  presets->setPopupMode(QToolButton::InstantPopup);
  presets->setToolButtonStyle(Qt::ToolButtonTextOnly);
  m_presets = new QMenu(presets);
  presets->setMenu(m_presets);
  fillPresets();
  auto* up = button(tr("Up"), QStringLiteral("chainUp"), tr("Moves the selected step up (Ctrl+Up)"));
  auto* down =
      button(tr("Down"), QStringLiteral("chainDown"), tr("Moves the selected step down (Ctrl+Down)"));
  auto* remove =
      button(tr("Remove"), QStringLiteral("chainRemove"), tr("Removes the selected step (Delete)"));
  auto* open = button(tr("Open…"), QStringLiteral("chainOpen"), tr("Opens a chain or filter file (.json)"));
  auto* save = button(tr("Save…"), QStringLiteral("chainSave"), tr("Saves the chain as a .json file"));
  grid->addWidget(m_add, 0, 0, 1, 2);
  grid->addWidget(presets, 0, 2);
  grid->addWidget(up, 1, 0);
  grid->addWidget(down, 1, 1);
  grid->addWidget(remove, 1, 2);
  grid->addWidget(open, 2, 0);
  grid->addWidget(save, 2, 1);
  connect(m_add, &QPushButton::clicked, this, &ChainPanel::addEditorFilter);
  connect(up, &QPushButton::clicked, this, [this] { moveSelected(-1); });
  connect(down, &QPushButton::clicked, this, [this] { moveSelected(1); });
  connect(remove, &QPushButton::clicked, this, &ChainPanel::removeSelected);
  connect(open, &QPushButton::clicked, this, &ChainPanel::openWithDialog);
  connect(save, &QPushButton::clicked, this, &ChainPanel::saveWithDialog);
  return box;
}

void ChainPanel::fillPresets() {
  for (const ChainPreset& preset : loadChainPresets()) {
    QAction* a = m_presets->addAction(preset.name);
    a->setToolTip(tr("Replaces the list with this chain"));
    connect(a, &QAction::triggered, this, [this, chain = preset.chain, name = preset.name] {
      m_controller->load(chain);
      emit message(tr("Chain preset %1 loaded").arg(name));
    });
  }
  QMenu* custom = m_presets->addMenu(tr("Add a custom OpenCL step"));
  custom->setObjectName(QStringLiteral("chainCustomSteps"));
  for (const CustomExample& example : loadCustomExamples()) {
    ChainStep step = example.step;
    step.filter = step.filter.withName(example.name.toStdString());
    connect(custom->addAction(example.name), &QAction::triggered, this,
            [this, step] { report(m_controller->append(step)); });
  }
}

void ChainPanel::addEditorFilter() {
  report(m_controller->append(ChainStep::single(m_editorFilter())));
  m_list->setCurrentRow(m_controller->size() - 1);
}

void ChainPanel::moveSelected(int delta) {
  const int row = m_list->currentRow();
  if (row < 0) return;
  m_list->setCurrentRow(m_controller->move(row, delta));
}

void ChainPanel::removeSelected() {
  const int row = m_list->currentRow();
  if (row < 0) return;
  m_controller->remove(row);
  m_list->setCurrentRow(std::min(row, m_controller->size() - 1));
}

void ChainPanel::rebuildList() {
  m_rebuilding = true;
  const int row = m_list->currentRow();
  m_list->clear();
  int number = 0;
  for (const ChainStep& step : m_controller->steps()) {
    auto* item = new QListWidgetItem(tr("%1. %2").arg(++number).arg(describeChainStep(step)), m_list);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(step.enabled ? Qt::Checked : Qt::Unchecked);
  }
  m_list->setCurrentRow(std::min(row, m_controller->size() - 1));
  m_rebuilding = false;
  showCount();
}

void ChainPanel::showCount() {
  m_add->setEnabled(!m_controller->isFull());
  if (m_controller->size() == 0)
    m_status->setText(tr("No steps: add the editor's filter or pick a chain preset."));
  else if (m_controller->isFull())
    m_status->setText(tr("The chain is full: %1 steps at most.").arg(kMaxChainSteps));
  else
    m_status->setText(
        (m_controller->name().isEmpty() ? QString() : m_controller->name() + QStringLiteral(" — ")) +
        tr("%1 of %2 steps.").arg(m_controller->size()).arg(kMaxChainSteps));
}

QString ChainPanel::statusText() const {
  return m_status->text();
}

void ChainPanel::report(const QString& why) {
  if (why.isEmpty()) return;
  m_status->setText(why);
  emit message(why);
}

void ChainPanel::openWithDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open chain"), m_lastDir,
                                                    tr("Filter and chain files (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  m_lastDir = QFileInfo(path).absolutePath();
  if (const QString why = m_controller->openFile(path); !why.isEmpty())
    QMessageBox::warning(this, tr("Cannot open"), tr("Cannot open %1 — %2").arg(path, why));
  else
    emit message(tr("Opened %1 into the chain").arg(QDir::toNativeSeparators(path)));
}

void ChainPanel::saveWithDialog() {
  const QString dir =
      m_lastDir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) : m_lastDir;
  const QString name = m_controller->name().isEmpty() ? tr("chain") : m_controller->name();
  // The dialog asks before replacing the file it returns; a name we complete with .json is asked here.
  QString path = QFileDialog::getSaveFileName(this, tr("Save chain"), QDir(dir).filePath(name + ".json"),
                                              tr("Chain files (*.json)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) {
    path += QStringLiteral(".json");
    if (QFileInfo::exists(path) &&
        QMessageBox::question(this, tr("Replace file?"), tr("%1 already exists. Replace it?").arg(path)) !=
            QMessageBox::Yes)
      return;
  }
  m_lastDir = QFileInfo(path).absolutePath();
  if (const QString why = m_controller->saveFile(path, true); !why.isEmpty())
    QMessageBox::warning(this, tr("Cannot save"), tr("Cannot save %1 — %2").arg(path, why));
  else
    emit message(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

}  // namespace convolab::gui
