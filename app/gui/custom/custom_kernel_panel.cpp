// SPDX-License-Identifier: MIT
// The Custom OpenCL panel's widgets; every decision is the controller's, the panel shows and forwards.
#include "custom_kernel_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include "convolab/filter_chain_io.hpp"
#include "custom_code_editor.hpp"
#include "custom_kernel_controller.hpp"
#include "custom_kernel_help.hpp"
#include "custom_param_dialog.hpp"
#include "window/save_path_dialog.hpp"
#include "window/theme.hpp"

namespace convolab::gui {
namespace {

constexpr int kSliderSteps = 1000;
const QString kDefaultName = QStringLiteral("Custom OpenCL");

int sliderPosition(const CustomParam& p) {
  return p.max > p.min ? static_cast<int>(std::lround((p.value - p.min) / (p.max - p.min) * kSliderSteps))
                       : 0;
}

QString valueText(double v) {
  return QString::number(v, 'g', 4);
}

QColor stateColour(CustomKernelState state) {
  switch (state) {
    case CustomKernelState::Live:
      return theme::ok();
    case CustomKernelState::BuildFailed:
    case CustomKernelState::Invalid:
      return theme::danger();
    case CustomKernelState::Refused:
      return theme::warning();
    default:
      return theme::dimText();
  }
}

}  // namespace

CustomKernelPanel::CustomKernelPanel(CustomKernelController* controller, QWidget* parent,
                                     const QString& examplesFolder)
    : QWidget(parent), m_controller(controller), m_name(kDefaultName) {
  setObjectName(QStringLiteral("customKernelPanel"));
  m_editor = new CustomCodeEditor(this);
  m_editor->setPlainText(m_controller->code());
  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("customStatus"));
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_diagnostics = new QListWidget(this);
  m_diagnostics->setObjectName(QStringLiteral("customDiagnostics"));
  m_diagnostics->setMaximumHeight(84);
  m_diagnostics->setWordWrap(true);
  m_diagnostics->setToolTip(tr("The compiler's messages; click one to go to its line"));
  auto* params = new QWidget(this);
  m_paramsLayout = new QVBoxLayout(params);
  m_paramsLayout->setContentsMargins(0, 0, 0, 0);
  m_paramsLayout->setSpacing(2);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(buildTopRow());
  layout->addWidget(m_editor, 1);
  layout->addWidget(m_status);
  layout->addWidget(m_diagnostics);
  layout->addWidget(params);
  layout->addWidget(buildButtonRow());
  fillExamples(examplesFolder);

  connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
    if (!m_replacing) m_controller->setCode(m_editor->toPlainText());
  });
  connect(m_editor, &CustomCodeEditor::runRequested, m_controller, &CustomKernelController::tryNow);
  connect(m_diagnostics, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    m_editor->goToLine(item->data(Qt::UserRole).toInt(), item->data(Qt::UserRole + 1).toInt());
  });
  connect(m_diagnostics, &QListWidget::itemClicked, m_diagnostics, &QListWidget::itemActivated);
  connect(m_controller, &CustomKernelController::codeReplaced, this, [this](const QString& code) {
    if (code == m_editor->toPlainText()) return;
    m_replacing = true;  // the controller has the text already: no half-replaced version is tried
    m_editor->replaceText(code);
    m_replacing = false;
  });
  connect(m_controller, &CustomKernelController::stateChanged, this, &CustomKernelPanel::showState);
  connect(m_controller, &CustomKernelController::paramsChanged, this, &CustomKernelPanel::rebuildParams);
  rebuildParams();
  showState();
}

QWidget* CustomKernelPanel::buildTopRow() {
  auto* row = new QWidget(this);
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  m_on = new QCheckBox(tr("Use instead of the matrix"), row);
  m_on->setObjectName(QStringLiteral("customOn"));
  m_on->setToolTip(
      tr("While on, the preview runs this code (its last version that passed its trial) instead "
         "of the matrix filter"));
  m_on->setChecked(m_controller->isOn());
  connect(m_on, &QCheckBox::toggled, m_controller, &CustomKernelController::setOn);
  m_border = new QComboBox(row);
  m_border->setObjectName(QStringLiteral("customBorder"));
  m_border->setToolTip(tr("How pixel() reads outside the frame (OpenCV semantics)"));
  for (BorderMode m : kAllBorderModes) {
    m_border->addItem(QString::fromUtf8(borderName(m).data(), static_cast<qsizetype>(borderName(m).size())),
                      static_cast<int>(m));
    if (m == m_controller->border()) m_border->setCurrentIndex(m_border->count() - 1);
  }
  connect(m_border, &QComboBox::activated, this,
          [this](int i) { m_controller->setBorder(static_cast<BorderMode>(m_border->itemData(i).toInt())); });
  m_examples = new QToolButton(row);
  m_examples->setObjectName(QStringLiteral("customExamples"));
  m_examples->setText(tr("Examples"));
  m_examples->setPopupMode(QToolButton::InstantPopup);
  m_examplesMenu = new QMenu(m_examples);
  m_examples->setMenu(m_examplesMenu);
  auto* help = new QToolButton(row);
  help->setObjectName(QStringLiteral("customHelp"));
  help->setText(QStringLiteral("?"));
  help->setToolTip(customKernelHelpText());
  connect(help, &QToolButton::clicked, this, &CustomKernelPanel::showHelp);
  h->addWidget(m_on, 1);
  h->addWidget(m_border);
  h->addWidget(m_examples);
  h->addWidget(help);
  return row;
}

QWidget* CustomKernelPanel::buildButtonRow() {
  auto* row = new QWidget(this);
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  auto* run = new QPushButton(tr("Run"), row);
  run->setObjectName(QStringLiteral("customRun"));
  run->setToolTip(tr("Try the code now (Ctrl+Enter); it is also tried when you pause typing"));
  connect(run, &QPushButton::clicked, m_controller, &CustomKernelController::tryNow);
  auto* add = new QPushButton(tr("Add Parameter…"), row);
  add->setObjectName(QStringLiteral("customAddParam"));
  connect(add, &QPushButton::clicked, this, [this] { editParam(-1); });
  auto* open = new QPushButton(tr("Open…"), row);
  connect(open, &QPushButton::clicked, this, &CustomKernelPanel::openWithDialog);
  auto* save = new QPushButton(tr("Save…"), row);
  save->setToolTip(tr("Save the code and its parameters as a filter file"));
  connect(save, &QPushButton::clicked, this, &CustomKernelPanel::saveWithDialog);
  h->addWidget(run);
  h->addWidget(add);
  h->addStretch(1);
  h->addWidget(open);
  h->addWidget(save);
  return row;
}

void CustomKernelPanel::fillExamples(const QString& folder) {
  const std::vector<CustomExample> examples = loadCustomExamples(folder);
  for (const CustomExample& e : examples) {
    QAction* a = m_examplesMenu->addAction(e.name);
    a->setToolTip(QString::fromStdString(e.step.custom->code));
    connect(a, &QAction::triggered, this, [this, e] {
      m_name = e.name;
      m_controller->load(
          e.step);  // the editor takes it as one undoable edit: Ctrl+Z brings the old code back
      emit message(tr("Example %1 loaded (Ctrl+Z in the editor brings your code back)").arg(e.name));
    });
  }
  m_examples->setEnabled(!examples.empty());
  if (examples.empty()) m_examples->setToolTip(tr("No examples were found in %1").arg(folder));
}

QString CustomKernelPanel::statusText() const {
  return m_status->text();
}

void CustomKernelPanel::showState() {
  const CustomKernelState state = m_controller->state();
  m_status->setText(m_controller->message());
  m_status->setStyleSheet(theme::textStyle(stateColour(state)));
  const QSignalBlocker block(m_on);
  m_on->setChecked(m_controller->isOn());
  const auto& diagnostics = m_controller->diagnostics();
  m_editor->setDiagnostics(diagnostics);
  m_diagnostics->clear();
  for (const KernelDiagnostic& d : diagnostics) {
    auto* item = new QListWidgetItem(QString::fromStdString(describeDiagnostic(d)), m_diagnostics);
    item->setForeground(d.isError ? theme::danger() : theme::warning());
    item->setData(Qt::UserRole, d.line);
    item->setData(Qt::UserRole + 1, d.column);
  }
  m_diagnostics->setVisible(!diagnostics.empty());
  for (int i = 0; i < m_border->count(); ++i)
    if (m_border->itemData(i).toInt() == static_cast<int>(m_controller->border()))
      m_border->setCurrentIndex(i);
}

QSlider* CustomKernelPanel::paramSlider(int index) const {
  return index >= 0 && index < static_cast<int>(m_sliders.size()) ? m_sliders[static_cast<std::size_t>(index)]
                                                                  : nullptr;
}

void CustomKernelPanel::rebuildParams() {
  while (QLayoutItem* item = m_paramsLayout->takeAt(0)) {
    if (QWidget* w = item->widget()) w->hide(), w->deleteLater();  // its button may be the one clicked now
    delete item;
  }
  m_sliders.clear();
  for (int i = 0; i < static_cast<int>(m_controller->params().size()); ++i)
    m_paramsLayout->addWidget(paramRow(i));
}

QWidget* CustomKernelPanel::paramRow(int index) {
  const CustomParam& p = m_controller->params()[static_cast<std::size_t>(index)];
  auto* row = new QWidget(this);
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  auto* name = new QLabel(QString::fromStdString(p.name), row);
  name->setMinimumWidth(60);
  auto* slider = new QSlider(Qt::Horizontal, row);
  slider->setObjectName(QStringLiteral("customParam_%1").arg(QString::fromStdString(p.name)));
  slider->setRange(0, kSliderSteps);
  slider->setValue(sliderPosition(p));
  slider->setToolTip(
      tr("%1: %2 to %3").arg(QString::fromStdString(p.name), valueText(p.min), valueText(p.max)));
  auto* value = new QLabel(valueText(p.value), row);
  value->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("-0.0000")));
  value->setFont(theme::monoFont());
  connect(slider, &QSlider::valueChanged, this, [this, index, value](int pos) {
    const CustomParam& q = m_controller->params()[static_cast<std::size_t>(index)];
    m_controller->setParamValue(index, q.min + (q.max - q.min) * pos / kSliderSteps);
    value->setText(valueText(m_controller->params()[static_cast<std::size_t>(index)].value));
  });
  auto* edit = new QToolButton(row);
  edit->setText(tr("Edit"));
  edit->setToolTip(tr("Rename it, or change its range"));
  connect(edit, &QToolButton::clicked, this, [this, index] { editParam(index); });
  auto* remove = new QToolButton(row);
  remove->setText(QStringLiteral("✕"));
  remove->setToolTip(tr("Remove this parameter"));
  connect(remove, &QToolButton::clicked, this, [this, index] { m_controller->removeParam(index); });
  h->addWidget(name);
  h->addWidget(slider, 1);
  h->addWidget(value);
  h->addWidget(edit);
  h->addWidget(remove);
  m_sliders.push_back(slider);
  return row;
}

void CustomKernelPanel::editParam(int index) {
  const auto& params = m_controller->params();
  const bool adding = index < 0;
  if (adding && static_cast<int>(params.size()) >= kMaxCustomParams) {
    emit message(tr("A custom kernel has at most %1 parameters").arg(kMaxCustomParams));
    return;
  }
  const CustomParam initial = adding ? CustomParam{"", 0, 1, 0.5} : params[static_cast<std::size_t>(index)];
  CustomParamDialog dialog(
      initial, [this, index](const CustomParam& p) { return m_controller->setParam(index, p); }, this);
  dialog.exec();
}

QString CustomKernelPanel::openFile(const QString& path) {
  try {
    const FilterChain chain = loadFilterChainFile(path.toStdString());
    const std::optional<ChainStep> step = firstCustomStep(chain);
    if (!step) return tr("%1 holds no custom OpenCL step").arg(QFileInfo(path).fileName());
    m_name = chain.name().empty() ? QFileInfo(path).completeBaseName() : QString::fromStdString(chain.name());
    m_controller->load(*step);
    emit message(tr("Opened %1 into the Custom OpenCL panel").arg(QDir::toNativeSeparators(path)));
    return {};
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
}

QString CustomKernelPanel::saveFile(const QString& path, bool overwrite) {
  try {
    saveFilterChainFile(path.toStdString(),
                        FilterChain::make({m_controller->draftStep()}, m_name.toStdString()), overwrite);
    emit message(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return {};
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
}

void CustomKernelPanel::openWithDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open custom OpenCL filter"), m_lastDir,
                                                    tr("Filter files (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  m_lastDir = QFileInfo(path).absolutePath();
  if (const QString why = openFile(path); !why.isEmpty())
    QMessageBox::warning(this, tr("Cannot open"), tr("Cannot open %1 — %2").arg(path, why));
}

void CustomKernelPanel::saveWithDialog() {
  const QString dir =
      m_lastDir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) : m_lastDir;
  const QString path =
      askSavePath(this, tr("Save custom OpenCL filter"), QDir(dir).filePath(m_name + QStringLiteral(".json")),
                  tr("Filter files (*.json)"), QStringLiteral(".json"));
  if (path.isEmpty()) return;
  m_lastDir = QFileInfo(path).absolutePath();
  if (const QString why = saveFile(path, true); !why.isEmpty())
    QMessageBox::warning(this, tr("Cannot save"), tr("Cannot save %1 — %2").arg(path, why));
}

void CustomKernelPanel::showHelp() {
  QMessageBox box(QMessageBox::NoIcon, tr("Custom OpenCL: the helpers"), customKernelHelpText(),
                  QMessageBox::Close, this);
  box.setTextFormat(Qt::RichText);
  box.exec();
}

}  // namespace convolab::gui
