// SPDX-License-Identifier: MIT
// The Chain dock's widgets: they show the controller's list and forward edits to it.
#include "chain_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QStandardPaths>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <utility>

#include "chain_controller.hpp"
#include "chain_presets.hpp"
#include "chain_step_text.hpp"
#include "custom/custom_examples.hpp"
#include "window/save_path_dialog.hpp"

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
      tr("The steps, first to last: each reads the one above. Select a step to edit it in the Filter "
         "editor (double-click brings the Filter tab to the front; Esc or a click below the steps gives the "
         "editor its own filter back). The check box switches a step on or off; drag a step, or "
         "Ctrl+Up/Ctrl+Down, to move it; Delete removes it."));
  m_list->setDragDropMode(QAbstractItemView::InternalMove);
  m_list->setDefaultDropAction(Qt::MoveAction);
  m_list->setIconSize(kThumbnailSize);
  m_list->viewport()->installEventFilter(this);
  m_list->installEventFilter(this);
  m_part = new QComboBox(this);
  m_part->setObjectName(QStringLiteral("chainPart"));
  m_part->setToolTip(tr("A magnitude step has two filters: which one the Filter editor edits"));
  m_part->hide();
  m_edited = new QLabel(this);
  m_edited->setObjectName(QStringLiteral("chainEdited"));
  m_edited->setWordWrap(true);
  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("chainStatus"));
  m_status->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(m_on);
  layout->addWidget(m_list, 1);
  layout->addWidget(m_part);
  layout->addWidget(m_edited);
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
  connect(m_controller, &ChainController::shownUpToChanged, this, &ChainPanel::rebuildList);
  connect(m_list, &QListWidget::currentRowChanged, this, [this] {
    if (!m_rebuilding) selectionMoved();
  });
  connect(m_list, &QListWidget::itemDoubleClicked, this,
          [this](QListWidgetItem* item) { emit editRequested(m_list->row(item)); });
  connect(m_part, &QComboBox::activated, this, [this](int part) {
    m_selectedPart = part;
    emit stepSelected(selectedRow(), part);
  });
  // A drag: the view moved its row; the controller moves the step once the drop has ended
  connect(m_list->model(), &QAbstractItemModel::rowsMoved, this,
          [this](const QModelIndex&, int start, int, const QModelIndex&, int row) {
            if (m_rebuilding) return;
            const int to = row > start ? row - 1 : row;
            QTimer::singleShot(0, this, [this, start, to] { dropped(start, to); });
          });
  m_on->setChecked(m_controller->isOn());
  rebuildList();
}

int ChainPanel::selectedRow() const {
  return m_controller->indexOf(m_selectedId);
}

void ChainPanel::selectStep(int row, int part) {
  if (row != m_list->currentRow()) {
    m_nextPart = part;
    return m_list->setCurrentRow(row);  // selectionMoved
  }
  if (row >= 0 && part != m_selectedPart &&
      m_controller->steps()[static_cast<std::size_t>(row)].isMagnitude()) {
    m_selectedPart = part;
    m_part->setCurrentIndex(part);
    emit stepSelected(row, part);
  }
}

void ChainPanel::selectionMoved() {
  const int row = m_list->currentRow();
  const int id = m_controller->idAt(row);
  const bool magnitude = row >= 0 && m_controller->steps()[static_cast<std::size_t>(row)].isMagnitude();
  const int part = std::exchange(m_nextPart, 0);
  const bool changed = id != m_selectedId;
  if (changed) {
    m_selectedId = id;
    m_selectedPart = magnitude ? part : 0;
  }
  m_part->setVisible(magnitude);
  if (magnitude) {
    const ChainStep& step = m_controller->steps()[static_cast<std::size_t>(row)];
    const QSignalBlocker block(m_part);
    m_part->clear();
    m_part->addItem(tr("Edit its first filter: %1").arg(QString::fromStdString(step.filter.name())));
    m_part->addItem(tr("Edit its second filter: %1").arg(QString::fromStdString(step.other->name())));
    m_part->setCurrentIndex(m_selectedPart);
  }
  refreshUpTo();
  if (changed) emit stepSelected(row, m_selectedPart);
}

void ChainPanel::showEdited(int row, int part) {
  if (row < 0) return m_edited->setText(tr("Select a step to edit it in the Filter editor."));
  const ChainStep& step = m_controller->steps()[static_cast<std::size_t>(row)];
  const FilterSet& filter = part == 1 ? *step.other : step.filter;
  m_edited->setText(
      tr("The Filter editor edits step %1 (%2). Esc: its own filter again.")
          .arg(row + 1)
          .arg(filter.name().empty() ? describeChainStep(step) : QString::fromStdString(filter.name())));
}

void ChainPanel::dropped(int from, int to) {
  m_list->setCurrentRow(m_controller->move(from, to - from));
  rebuildList();  // the view's own order, even if the controller refused
}

void ChainPanel::refreshUpTo() {
  const int row = m_list->currentRow();
  const QSignalBlocker block(m_upTo);
  m_upTo->setEnabled(row >= 0);
  m_upTo->setChecked(row >= 0 && row == m_controller->shownUpTo());
}

bool ChainPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_list->viewport() && event->type() == QEvent::MouseButtonPress) {
    const auto* press = static_cast<QMouseEvent*>(event);
    if (!m_list->itemAt(press->position().toPoint())) m_list->setCurrentRow(-1);  // below the steps: none
  } else if (watched == m_list && event->type() == QEvent::KeyPress &&
             static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape && m_list->currentRow() >= 0) {
    m_list->setCurrentRow(-1);
    return true;
  }
  return QWidget::eventFilter(watched, event);
}

void ChainPanel::setThumbnail(int row, const QImage& image) {
  QListWidgetItem* item = m_list->item(row);
  if (!item) return;
  if (!image.isNull()) return item->setIcon(QIcon(QPixmap::fromImage(image)));
  QPixmap blank(kThumbnailSize);  // the rows' text stays aligned
  blank.fill(Qt::transparent);
  item->setIcon(QIcon(blank));
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
  m_upTo = button(tr("Show up to here"), QStringLiteral("chainUpTo"),
                  tr("The preview shows the chain's output after the selected step, as if the steps below "
                     "it were not there: what each step does, one at a time"));
  m_upTo->setCheckable(true);
  auto* open = button(tr("Open…"), QStringLiteral("chainOpen"), tr("Opens a chain or filter file (.json)"));
  auto* save = button(tr("Save…"), QStringLiteral("chainSave"), tr("Saves the chain as a .json file"));
  grid->addWidget(m_add, 0, 0, 1, 2);
  grid->addWidget(presets, 0, 2);
  grid->addWidget(up, 1, 0);
  grid->addWidget(down, 1, 1);
  grid->addWidget(remove, 1, 2);
  grid->addWidget(open, 2, 0);
  grid->addWidget(save, 2, 1);
  grid->addWidget(m_upTo, 2, 2);
  connect(m_add, &QPushButton::clicked, this, &ChainPanel::addEditorFilter);
  connect(m_upTo, &QPushButton::toggled, this,
          [this](bool on) { m_controller->setShownUpTo(on ? m_list->currentRow() : -1); });
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
  const int wanted = m_controller->indexOf(m_selectedId);
  const int row = wanted >= 0 ? wanted : std::min(m_list->currentRow(), m_controller->size() - 1);
  std::vector<QIcon> icons;
  for (int i = 0; i < m_list->count(); ++i) icons.push_back(m_list->item(i)->icon());
  m_list->clear();
  const int upTo = m_controller->shownUpTo();
  int number = 0;
  for (const ChainStep& step : m_controller->steps()) {
    QString text = tr("%1. %2").arg(++number).arg(describeChainStep(step));
    if (number - 1 == upTo) text += tr("  ◀ the preview ends here");
    auto* item = new QListWidgetItem(text, m_list);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled);
    item->setCheckState(step.enabled ? Qt::Checked : Qt::Unchecked);
    if (static_cast<std::size_t>(number - 1) < icons.size())
      item->setIcon(icons[number - 1]);  // until the new one
  }
  m_list->setCurrentRow(row);
  m_rebuilding = false;
  selectionMoved();
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
  const QString path = askSavePath(this, tr("Save chain"), QDir(dir).filePath(name + ".json"),
                                   tr("Chain files (*.json)"), QStringLiteral(".json"));
  if (path.isEmpty()) return;
  m_lastDir = QFileInfo(path).absolutePath();
  if (const QString why = m_controller->saveFile(path, true); !why.isEmpty())
    QMessageBox::warning(this, tr("Cannot save"), tr("Cannot save %1 — %2").arg(path, why));
  else
    emit message(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

}  // namespace convolab::gui
