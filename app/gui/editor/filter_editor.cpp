// SPDX-License-Identifier: MIT
// The filter editor widget: its layout, the grids it shows and the messages under them (its files, clipboard
// and presets report there).
#include "editor/filter_editor.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "editor/channel_grid.hpp"
#include "editor/compact_spin_box.hpp"
#include "editor/filter_clipboard.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_files.hpp"
#include "editor/generator_panel.hpp"
#include "editor/hint_pill.hpp"
#include "editor/presets_menu.hpp"
#include "window/elided_label.hpp"

namespace convolab::gui {

namespace {

QString borderLabel(BorderMode m) {
  switch (m) {
    case BorderMode::Replicate:
      return QObject::tr("Replicate  aaa|abcd|ddd");
    case BorderMode::Reflect:
      return QObject::tr("Reflect  cba|abcd|dcb");
    case BorderMode::Reflect101:
      return QObject::tr("Reflect 101  dcb|abcd|cba");
    case BorderMode::Wrap:
      return QObject::tr("Wrap  bcd|abcd|abc");
    case BorderMode::Constant:
      return QObject::tr("Constant  000|abcd|000");
  }
  return {};
}

}  // namespace

FilterEditor::FilterEditor(FilterDocument* document, PresetLibrary* presets, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_files(new FilterFiles(document, this)),
      m_clipboard(new FilterClipboard(document, this)),
      m_presetsMenu(new PresetsMenu(document, presets, this)) {
  setObjectName(QStringLiteral("filterEditor"));
  const auto report = [this](const QString& m) { showError(m); };
  connect(m_files, &FilterFiles::message, this, report);
  connect(m_files, &FilterFiles::status, this, &FilterEditor::status);
  connect(m_clipboard, &FilterClipboard::message, this, report);
  connect(m_clipboard, &FilterClipboard::status, this, &FilterEditor::status);
  connect(m_presetsMenu, &PresetsMenu::message, this, report);
  connect(m_presetsMenu, &PresetsMenu::status, this, &FilterEditor::status);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->setSpacing(0);

  auto* scroll = m_scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  // Wide matrices (15×15) in a narrow dock scroll sideways rather than cut off Copy to all and Offset.
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  auto* body = m_body = new QWidget(scroll);
  body->setObjectName(QStringLiteral("editorBody"));
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(10, 8, 10, 10);
  layout->setSpacing(8);
  layout->addLayout(buildTitleRow());
  layout->addLayout(buildOptionsRow());
  buildBorderRows(layout);

  m_generators = new GeneratorPanel(m_document, body);
  connect(m_generators, &GeneratorPanel::refused, this, report);
  connect(m_generators, &GeneratorPanel::status, this, &FilterEditor::status);
  layout->addWidget(m_generators);

  m_linkNote = new QLabel(
      tr("Linked: edits apply to R, G and B, but the channels still differ. Copy to all makes them one."),
      body);
  m_linkNote->setObjectName(QStringLiteral("monoDim"));
  m_linkNote->setWordWrap(true);
  m_linkNote->hide();
  layout->addWidget(m_linkNote);
  m_hint = new HintPill(body);  // the first start's hint: one line above the grids, with a × to dismiss it
  layout->addWidget(m_hint);
  buildGrids(layout);
  layout->addStretch(1);
  scroll->setWidget(body);
  outer->addWidget(scroll, 1);
  buildMessageLine(outer);

  // The body's minimum width changes with what its rows show (a longer Σ, the border value row, the hint):
  // the editor follows each new layout, not only the refresh that caused it.
  body->installEventFilter(this);
  connect(m_document, &FilterDocument::filterChanged, this, &FilterEditor::refresh);
  connect(m_document, &FilterDocument::editRefused, this, &FilterEditor::refuse);
  connect(m_document, &FilterDocument::linkedChanged, this, &FilterEditor::showLinked);
  refresh(m_document->filter());
}

// Row 1: the filter's name and the preset / clipboard actions.
QLayout* FilterEditor::buildTitleRow() {
  auto* top = new QHBoxLayout;
  top->setSpacing(4);
  m_title = new ElidedLabel(m_body);  // a long name is shortened, never widens the dock (issue 33.5)
  m_title->setObjectName(QStringLiteral("filterTitle"));
  top->addWidget(m_title, 1);
  auto* presetButton = new QToolButton(m_body);
  presetButton->setText(tr("Presets"));
  presetButton->setMenu(m_presetsMenu);
  presetButton->setPopupMode(QToolButton::InstantPopup);
  presetButton->setToolTip(tr("Bundled presets and your own"));
  top->addWidget(presetButton);
  auto* copyButton = new QToolButton(m_body);
  copyButton->setObjectName(QStringLiteral("copyButton"));
  copyButton->setText(tr("Copy"));
  copyButton->setToolTip(
      tr("Copy the filter as text (Ctrl+Shift+C); the arrow offers OpenCV C++ / Python code and ImageJ "
         "kernels"));
  m_copyMenu = new QMenu(this);
  m_copyMenu->addAction(tr("Copy as &Text"), m_clipboard, &FilterClipboard::copyToClipboard);
  m_copyMenu->addAction(tr("Copy as OpenCV &C++"), m_clipboard, &FilterClipboard::copyOpenCvCpp)
      ->setObjectName(QStringLiteral("copyOpenCvCpp"));
  m_copyMenu->addAction(tr("Copy as OpenCV &Python"), m_clipboard, &FilterClipboard::copyOpenCvPython)
      ->setObjectName(QStringLiteral("copyOpenCvPython"));
  m_copyMenu->addSeparator();
  m_copyMenu->addAction(tr("&Import ImageJ Kernel…"), m_files, &FilterFiles::importImageJWithDialog)
      ->setObjectName(QStringLiteral("importImageJ"));
  m_copyMenu->addAction(tr("&Export ImageJ Kernel…"), m_files, &FilterFiles::exportImageJWithDialog)
      ->setObjectName(QStringLiteral("exportImageJ"));
  copyButton->setMenu(m_copyMenu);
  copyButton->setPopupMode(QToolButton::MenuButtonPopup);
  connect(copyButton, &QToolButton::clicked, m_clipboard, &FilterClipboard::copyToClipboard);
  top->addWidget(copyButton);
  auto* pasteButton = new QToolButton(m_body);
  pasteButton->setText(tr("Paste"));
  pasteButton->setToolTip(
      tr("Paste a filter as text: K rows of K numbers (or K² numbers on one line; fractions such as 1/9 "
         "and decimal commas are fine), optional R:/G:/B: blocks and divisor:/offset: lines "
         "(Ctrl+Shift+V)"));
  connect(pasteButton, &QToolButton::clicked, m_clipboard, &FilterClipboard::pasteFromClipboard);
  top->addWidget(pasteButton);
  auto* resetButton = new QToolButton(m_body);
  resetButton->setText(tr("Reset"));
  resetButton->setToolTip(tr("Reset to the identity filter (Ctrl+Backspace)"));
  connect(resetButton, &QToolButton::clicked, m_document, &FilterDocument::resetToIdentity);
  top->addWidget(resetButton);
  return top;
}

// Row 2: link and size.
QLayout* FilterEditor::buildOptionsRow() {
  auto* options = new QHBoxLayout;
  options->setSpacing(8);
  m_link = new QCheckBox(tr("Link channels"), m_body);
  m_link->setToolTip(
      tr("One matrix for R, G and B: edit once, all three channels follow (Ctrl+L). Linking channels that "
         "differ copies R to G and B (undo restores them)."));
  connect(m_link, &QCheckBox::toggled, m_document, &FilterDocument::setLinked);
  connect(m_document, &FilterDocument::linkedChanged, m_link, &QCheckBox::setChecked);
  options->addWidget(m_link);
  options->addStretch(1);
  m_size = new QComboBox(m_body);
  for (int k = kEditorSize; k <= kMaxFilterSize; k += 2) m_size->addItem(tr("%1×%1").arg(k), k);
  m_size->setToolTip(
      tr("Matrix size. Smaller filters are edited centred in 7×7 (zeros around them give the same result). "
         "Up to 15×15 the matrix is a grid of numbers; larger ones (up to 63×63) show as a heat map."));
  connect(m_size, &QComboBox::activated, this, [this](int i) {
    QString error;
    if (!m_document->setSize(m_size->itemData(i).toInt(), &error)) refuse(error);
  });
  options->addWidget(m_size);
  return options;
}

// Row 3: the border on a row of its own, as wide as the dock, so "Reflect 101  dcb|abcd|cba" is read whole
// (beside Link channels and the size it was cut to "dcb|abcd|" at every size); the constant border's value
// under it.
void FilterEditor::buildBorderRows(QBoxLayout* layout) {
  auto* borderRow = new QHBoxLayout;
  borderRow->setSpacing(8);
  auto* borderName = new QLabel(tr("Border"), m_body);
  borderRow->addWidget(borderName);
  m_border = new QComboBox(m_body);
  m_border->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_border->setObjectName(QStringLiteral("borderBox"));
  for (BorderMode m : kAllBorderModes) m_border->addItem(borderLabel(m), static_cast<int>(m));
  m_border->setToolTip(tr("How pixels outside the frame are read (OpenCV semantics)"));
  borderName->setToolTip(m_border->toolTip());
  borderName->setBuddy(m_border);
  connect(m_border, &QComboBox::activated, this, [this](int i) {
    QString error;
    if (!m_document->setBorder(static_cast<BorderMode>(m_border->itemData(i).toInt()), &error)) refuse(error);
  });
  borderRow->addWidget(m_border, 1);
  layout->addLayout(borderRow);

  m_borderValueRow = new QWidget(m_body);
  auto* bv = new QHBoxLayout(m_borderValueRow);
  bv->setContentsMargins(0, 0, 0, 0);
  bv->addWidget(new QLabel(tr("Border value"), m_borderValueRow));
  for (int c = 0; c < 3; ++c) {
    auto* spin = new CompactSpinBox(m_borderValueRow);
    spin->setRange(0, 255);
    spin->setPrefix(QStringLiteral("RGB").mid(c, 1) + QStringLiteral("  "));
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, c](double v) {
      QString error;
      if (!m_borderValues[static_cast<size_t>(c)]->signalsBlocked() &&
          !m_document->setBorderValue(c, v, &error))
        refuse(error);
    });
    m_borderValues[static_cast<size_t>(c)] = spin;
    bv->addWidget(spin, 1);
  }
  layout->addWidget(m_borderValueRow);
}

void FilterEditor::buildGrids(QBoxLayout* layout) {
  for (int c = 0; c < 3; ++c) {
    auto* grid = new ChannelGrid(c, m_document, m_body);
    // A refused cell or divisor is reported under that grid's own fields, and fades like the others.
    connect(grid, &ChannelGrid::editRejected, this, [this, grid](const QString& m) {
      showError({});
      grid->showMessage(m, m_messageMs);
    });
    connect(grid, &ChannelGrid::editAccepted, this, [this, grid] {
      showError({});
      grid->showMessage({}, 0);
    });
    m_grids[static_cast<size_t>(c)] = grid;
    layout->addWidget(grid);
  }
}

// The inline error line: always under the editor, never a pop-up.
void FilterEditor::buildMessageLine(QBoxLayout* outer) {
  m_error = new QLabel(this);
  m_error->setObjectName(QStringLiteral("inlineError"));
  m_error->setWordWrap(true);
  m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_error->hide();
  outer->addWidget(m_error);
  m_errorTimer = new QTimer(this);
  m_errorTimer->setSingleShot(true);
  connect(m_errorTimer, &QTimer::timeout, m_error, &QLabel::hide);
}

bool FilterEditor::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_body && event->type() == QEvent::LayoutRequest)
    QMetaObject::invokeMethod(this, &FilterEditor::fitWidthToContent, Qt::QueuedConnection);
  return QWidget::eventFilter(watched, event);
}

void FilterEditor::fitWidthToContent() {
  // The dock is as wide as the widest grid (15×15 included), so nothing is cut off or scrolled sideways
  // unless the window itself is too narrow.
  for (ChannelGrid* grid : m_grids) {  // the tables' new fixed size, before the posted layout requests
    grid->layout()->invalidate();
    grid->updateGeometry();
  }
  m_body->layout()->invalidate();
  const int width = m_body->minimumSizeHint().width() + m_scroll->verticalScrollBar()->sizeHint().width() + 2;
  if (width != minimumWidth()) setMinimumWidth(width);
}

void FilterEditor::showLinked(bool linked) {
  // Linked with identical channels, the three matrices are one: show one grid and say it stands for R, G
  // and B. Linked channels that still differ stay visible, with a note, so nothing is hidden.
  const bool one = linked && m_document->filter().channelsIdentical();
  m_grids[0]->setLinkedLook(one);
  m_grids[1]->setVisible(!one);
  m_grids[2]->setVisible(!one);
  m_linkNote->setVisible(linked && !one);
}

void FilterEditor::refresh(const FilterSet& filter) {
  const QString name = m_document->displayName();
  m_title->setText(name);
  m_title->setToolTip(
      tr("%1 — %2×%2, %3%4")
          .arg(name)
          .arg(filter.size())
          .arg(QString::fromLatin1(borderName(filter.border()).data(),
                                   static_cast<int>(borderName(filter.border()).size())))
          .arg(m_document->isModified() ? tr("\n* edited since it was loaded or saved") : QString()));
  for (auto* grid : m_grids) grid->refresh(filter);
  m_size->setCurrentIndex(m_size->findData(filter.size()));
  showLinked(m_document->linked());
  fitWidthToContent();
  m_border->setCurrentIndex(m_border->findData(static_cast<int>(filter.border())));
  m_borderValueRow->setVisible(filter.border() == BorderMode::Constant);
  for (int c = 0; c < 3; ++c) {
    const QSignalBlocker block(m_borderValues[static_cast<size_t>(c)]);
    m_borderValues[static_cast<size_t>(c)]->setValue(filter.borderValue()[static_cast<size_t>(c)]);
  }
}

void FilterEditor::refuse(const QString& message) {
  showError(message);
  refresh(m_document->filter());  // the controls show what is still in effect
}

QWidget* FilterEditor::hint() const {
  return m_hint;
}

QLabel* FilterEditor::hintLabel() const {
  return m_hint->label();
}

void FilterEditor::showHint(const QString& text) {
  m_hint->showText(text);
}

void FilterEditor::showError(const QString& message, int ms) {
  m_error->setText(message);
  m_error->setVisible(!message.isEmpty());
  if (ms < 0) ms = m_messageMs;
  if (message.isEmpty() || ms == 0)
    m_errorTimer->stop();
  else
    m_errorTimer->start(ms);
}

QString FilterEditor::errorText() const {
  if (m_error->isVisibleTo(this)) return m_error->text();
  for (const ChannelGrid* grid : m_grids)
    if (!grid->messageText().isEmpty()) return grid->messageText();
  return {};
}

}  // namespace convolab::gui
