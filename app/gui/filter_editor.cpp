// SPDX-License-Identifier: MIT
// The filter editor panel and its file, preset and clipboard operations.
#include "filter_editor.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include "channel_grid.hpp"
#include "compact_spin_box.hpp"
#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"
#include "filter_document.hpp"
#include "opencv_snippet.hpp"

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

// "…: line 3, column 5: 'x' is not a finite number" → "Line 3, column 5: 'x' is not a finite number".
QString describeParseError(const QString& message, const QString& prefix) {
  static const QRegularExpression kWhere(QStringLiteral("line (\\d+)(?:, column (\\d+))?: (.*)$"));
  const auto m = kWhere.match(message);
  if (m.hasMatch()) {
    QString where = QObject::tr("Line %1").arg(m.captured(1));
    if (!m.captured(2).isEmpty()) where += QObject::tr(", column %1").arg(m.captured(2));
    return prefix + where + QStringLiteral(": ") + m.captured(3);
  }
  // Drop the "<clipboard>: " source prefix, which says nothing to a person who just pasted.
  QString text = message;
  text.remove(QRegularExpression(QStringLiteral("^<clipboard>: ")));
  return prefix + text;
}

}  // namespace

FilterEditor::FilterEditor(FilterDocument* document, PresetLibrary* presets, QWidget* parent)
    : QWidget(parent), m_document(document), m_presets(presets) {
  setObjectName(QStringLiteral("filterEditor"));
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

  // Row 1: the filter's name and the preset / clipboard actions.
  auto* top = new QHBoxLayout;
  top->setSpacing(4);
  m_title = new QLabel(body);
  m_title->setObjectName(QStringLiteral("filterTitle"));
  m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
  top->addWidget(m_title, 1);
  m_presetsMenu = new QMenu(tr("&Presets"), this);
  connect(m_presetsMenu, &QMenu::aboutToShow, this, &FilterEditor::rebuildPresetsMenu);
  rebuildPresetsMenu();
  auto* presetButton = new QToolButton(body);
  presetButton->setText(tr("Presets"));
  presetButton->setMenu(m_presetsMenu);
  presetButton->setPopupMode(QToolButton::InstantPopup);
  presetButton->setToolTip(tr("Bundled presets and your own"));
  top->addWidget(presetButton);
  auto* copyButton = new QToolButton(body);
  copyButton->setObjectName(QStringLiteral("copyButton"));
  copyButton->setText(tr("Copy"));
  copyButton->setToolTip(
      tr("Copy the filter as text (Ctrl+Shift+C); the arrow offers OpenCV C++ / Python code and ImageJ "
         "kernels"));
  m_copyMenu = new QMenu(this);
  m_copyMenu->addAction(tr("Copy as &Text"), this, &FilterEditor::copyToClipboard);
  m_copyMenu->addAction(tr("Copy as OpenCV &C++"), this, &FilterEditor::copyOpenCvCpp)
      ->setObjectName(QStringLiteral("copyOpenCvCpp"));
  m_copyMenu->addAction(tr("Copy as OpenCV &Python"), this, &FilterEditor::copyOpenCvPython)
      ->setObjectName(QStringLiteral("copyOpenCvPython"));
  m_copyMenu->addSeparator();
  m_copyMenu->addAction(tr("&Import ImageJ Kernel…"), this, &FilterEditor::importImageJWithDialog)
      ->setObjectName(QStringLiteral("importImageJ"));
  m_copyMenu->addAction(tr("&Export ImageJ Kernel…"), this, &FilterEditor::exportImageJWithDialog)
      ->setObjectName(QStringLiteral("exportImageJ"));
  copyButton->setMenu(m_copyMenu);
  copyButton->setPopupMode(QToolButton::MenuButtonPopup);
  connect(copyButton, &QToolButton::clicked, this, &FilterEditor::copyToClipboard);
  top->addWidget(copyButton);
  auto* pasteButton = new QToolButton(body);
  pasteButton->setText(tr("Paste"));
  pasteButton->setToolTip(
      tr("Paste a filter as text: K rows of K numbers (or K² numbers on one line; fractions such as 1/9 "
         "and decimal commas are fine), optional R:/G:/B: blocks and divisor:/offset: lines "
         "(Ctrl+Shift+V)"));
  connect(pasteButton, &QToolButton::clicked, this, &FilterEditor::pasteFromClipboard);
  top->addWidget(pasteButton);
  auto* resetButton = new QToolButton(body);
  resetButton->setText(tr("Reset"));
  resetButton->setToolTip(tr("Reset to the identity filter (Ctrl+Backspace)"));
  connect(resetButton, &QToolButton::clicked, m_document, &FilterDocument::resetToIdentity);
  top->addWidget(resetButton);
  layout->addLayout(top);

  // Row 2: link, size, border.
  auto* options = new QHBoxLayout;
  options->setSpacing(8);
  m_link = new QCheckBox(tr("Link channels"), body);
  m_link->setToolTip(
      tr("One matrix for R, G and B: edit once, all three channels follow (Ctrl+L). Linking channels that "
         "differ copies R to G and B (undo restores them)."));
  connect(m_link, &QCheckBox::toggled, m_document, &FilterDocument::setLinked);
  connect(m_document, &FilterDocument::linkedChanged, m_link, &QCheckBox::setChecked);
  options->addWidget(m_link);
  options->addStretch(1);
  m_size = new QComboBox(body);
  for (int k = kEditorSize; k <= kMaxFilterSize; k += 2) m_size->addItem(tr("%1×%1").arg(k), k);
  m_size->setToolTip(
      tr("Matrix size. Smaller filters are edited centred in 7×7 (zeros around them give the "
         "same result); files up to 15×15 load at their size."));
  connect(m_size, &QComboBox::activated, this,
          [this](int i) { m_document->setSize(m_size->itemData(i).toInt()); });
  options->addWidget(m_size);
  m_border = new QComboBox(body);
  // Elides rather than widening the dock: the pictures (dcb|abcd|cba) are in the list and the tooltip.
  m_border->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_border->setMinimumContentsLength(14);
  m_border->setObjectName(QStringLiteral("borderBox"));
  for (BorderMode m : kAllBorderModes) m_border->addItem(borderLabel(m), static_cast<int>(m));
  m_border->setToolTip(tr("How pixels outside the frame are read (OpenCV semantics)"));
  connect(m_border, &QComboBox::activated, this,
          [this](int i) { m_document->setBorder(static_cast<BorderMode>(m_border->itemData(i).toInt())); });
  options->addWidget(m_border);
  layout->addLayout(options);

  m_borderValueRow = new QWidget(body);
  auto* bv = new QHBoxLayout(m_borderValueRow);
  bv->setContentsMargins(0, 0, 0, 0);
  bv->addWidget(new QLabel(tr("Border value"), m_borderValueRow));
  for (int c = 0; c < 3; ++c) {
    auto* spin = new CompactSpinBox(m_borderValueRow);
    spin->setRange(0, 255);
    spin->setPrefix(QStringLiteral("RGB").mid(c, 1) + QStringLiteral("  "));
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, c](double v) {
      if (!m_borderValues[static_cast<size_t>(c)]->signalsBlocked()) m_document->setBorderValue(c, v);
    });
    m_borderValues[static_cast<size_t>(c)] = spin;
    bv->addWidget(spin, 1);
  }
  layout->addWidget(m_borderValueRow);

  m_linkNote = new QLabel(
      tr("Linked: edits apply to R, G and B, but the channels still differ. Copy to all makes them one."),
      body);
  m_linkNote->setObjectName(QStringLiteral("monoDim"));
  m_linkNote->setWordWrap(true);
  m_linkNote->hide();
  layout->addWidget(m_linkNote);

  for (int c = 0; c < 3; ++c) {
    auto* grid = new ChannelGrid(c, m_document, body);
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
  layout->addStretch(1);
  scroll->setWidget(body);
  outer->addWidget(scroll, 1);

  // The inline error line: always under the editor, never a pop-up.
  m_error = new QLabel(this);
  m_error->setObjectName(QStringLiteral("inlineError"));
  m_error->setWordWrap(true);
  m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_error->hide();
  outer->addWidget(m_error);
  m_errorTimer = new QTimer(this);
  m_errorTimer->setSingleShot(true);
  connect(m_errorTimer, &QTimer::timeout, m_error, &QLabel::hide);

  connect(m_document, &FilterDocument::filterChanged, this, &FilterEditor::refresh);
  connect(m_document, &FilterDocument::linkedChanged, this, &FilterEditor::showLinked);
  refresh(m_document->filter());
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

QString FilterEditor::filterText() const {
  return QString::fromStdString(toFilterText(m_document->filter()));
}

bool FilterEditor::pasteText(const QString& text) {
  try {
    const std::string utf8 = text.toStdString();
    const FilterSet pasted = parseFilterText(utf8, m_document->filter(), "<clipboard>");
    m_document->replaceEdited(pasted, tr("Paste filter"));
    showError({});
    emit status(tr("Pasted a %1×%1 filter").arg(pasted.size()));
    return true;
  } catch (const std::exception& e) {
    showError(describeParseError(QString::fromUtf8(e.what()), tr("Cannot paste — ")));
    return false;
  }
}

void FilterEditor::copyToClipboard() {
  QApplication::clipboard()->setText(filterText());
  emit status(tr("Filter copied as text"));
}

void FilterEditor::pasteFromClipboard() {
  pasteText(QApplication::clipboard()->text());
}

bool FilterEditor::importFile(const QString& path) {
  if (path.endsWith(QStringLiteral(".txt"), Qt::CaseInsensitive)) return importImageJKernel(path);
  try {
    const FilterSet loaded = loadFilterFile(path.toStdString());
    FilterSet named =
        loaded.name().empty() ? loaded.withName(QFileInfo(path).completeBaseName().toStdString()) : loaded;
    m_document->replace(named, tr("Import %1").arg(QFileInfo(path).fileName()));
    showError({});
    emit status(tr("Imported %1").arg(QDir::toNativeSeparators(path)));
    return true;
  } catch (const std::exception& e) {
    showError(tr("Cannot import — %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

bool FilterEditor::exportFile(const QString& path, bool overwrite) {
  if (path.endsWith(QStringLiteral(".txt"), Qt::CaseInsensitive)) {
    if (!overwrite && QFileInfo::exists(path)) {
      showError(tr("Cannot export — '%1' already exists; refusing to overwrite it").arg(path));
      return false;
    }
    return exportImageJKernel(path);
  }
  try {
    saveFilterFile(path.toStdString(), m_document->filter(), overwrite);
    emit status(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
    return true;
  } catch (const std::exception& e) {
    showError(tr("Cannot export — %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

bool FilterEditor::loadPreset(const PresetEntry& entry) {
  try {
    FilterSet f = m_presets->load(entry);
    if (f.name().empty()) f = f.withName(entry.name.toStdString());
    m_document->replace(f, tr("Preset %1").arg(entry.name));
    showError({});
    emit status(tr("Preset: %1").arg(entry.name));
    return true;
  } catch (const std::exception& e) {
    showError(tr("Cannot load preset — %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

bool FilterEditor::savePreset(const QString& name, bool overwrite) {
  const QString trimmed = name.trimmed();
  if (!overwrite) {
    // No silent second "Identity": a name that a preset already has needs a yes first.
    for (const auto& list : {m_presets->bundled(), m_presets->user()})
      for (const PresetEntry& e : list)
        if (e.name.compare(trimmed, Qt::CaseInsensitive) == 0) {
          showError(tr("Cannot save preset — a %1 preset called '%2' already exists; choose another name "
                       "or confirm replacing it")
                        .arg(e.bundled ? tr("bundled") : tr("saved"), e.name));
          return false;
        }
  }
  try {
    const QString path = m_presets->saveUser(m_document->filter(), trimmed, overwrite);
    m_document->rename(trimmed, tr("Name filter '%1'").arg(trimmed));
    showError({});
    emit status(tr("Saved preset '%1' to %2").arg(trimmed, QDir::toNativeSeparators(path)));
    return true;
  } catch (const std::exception& e) {
    showError(tr("Cannot save preset — %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

bool FilterEditor::importImageJKernel(const QString& path) {
  QByteArray bytes;
  try {
    // Whole or not at all: a FIFO or a file over the limit is refused with a message, never cut or waited on.
    const std::string text = readFilterFileText(path.toStdString());
    bytes = QByteArray(text.data(), static_cast<qsizetype>(text.size()));
  } catch (const std::exception& e) {
    showError(tr("Cannot import — %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  try {
    FilterSet f = parseFilterText(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())),
                                  m_document->filter(), QFileInfo(path).fileName().toStdString());
    bool normalised = false;
    if (!bytes.contains("divisor")) {
      // ImageJ's Convolver normalises by default (weights / Σ when Σ ≠ 0); do the same so the picture
      // matches what ImageJ shows.
      auto channels = f.channels();
      double sum = 0;
      for (double v : channels[0].matrix) sum += v;
      if (sum != 0 && sum != 1 && f.channelsIdentical()) {
        for (auto& c : channels) c.divisor = sum;
        f = FilterSet::make(channels, f.border(), f.borderValue(), f.name());
        normalised = true;
      }
    }
    f = f.withName(QFileInfo(path).completeBaseName().toStdString());
    m_document->replace(f, tr("Import %1").arg(QFileInfo(path).fileName()));
    showError({});
    emit status(normalised ? tr("Imported ImageJ kernel %1 (normalised: divisor = Σ, as ImageJ does)")
                                 .arg(QDir::toNativeSeparators(path))
                           : tr("Imported ImageJ kernel %1").arg(QDir::toNativeSeparators(path)));
    return true;
  } catch (const std::exception& e) {
    showError(describeParseError(QString::fromUtf8(e.what()), tr("Cannot import %1 — ").arg(path)));
    return false;
  }
}

bool FilterEditor::exportImageJKernel(const QString& path) {
  const FilterSet& f = m_document->filter();
  QSaveFile file(path);  // atomic: a reader never sees half a kernel
  const std::string text = toImageJKernelText(f);
  if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
      !file.commit()) {
    showError(tr("Cannot export — %1: %2").arg(path, file.errorString()));
    return false;
  }
  QStringList lost;
  if (!f.channelsIdentical()) lost << tr("G and B differ from R and were not written");
  if (f.channel(0).offset != 0)
    lost << tr("the offset (%1) has no place in an ImageJ kernel").arg(f.channel(0).offset);
  if (lost.isEmpty()) {
    emit status(tr("Exported ImageJ kernel %1").arg(QDir::toNativeSeparators(path)));
  } else {
    showError(tr("Exported %1, but %2.").arg(QDir::toNativeSeparators(path), lost.join(tr("; "))));
  }
  return true;
}

QString FilterEditor::openCvCpp() const {
  return openCvCppSnippet(m_document->filter());
}

QString FilterEditor::openCvPython() const {
  return openCvPythonSnippet(m_document->filter());
}

void FilterEditor::copyOpenCvCpp() {
  QApplication::clipboard()->setText(openCvCpp());
  emit status(tr("Filter copied as OpenCV C++ (cv::filter2D)"));
}

void FilterEditor::copyOpenCvPython() {
  QApplication::clipboard()->setText(openCvPython());
  emit status(tr("Filter copied as OpenCV Python (cv2.filter2D)"));
}

void FilterEditor::importImageJWithDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Import ImageJ kernel"), m_lastDir,
                                                    tr("ImageJ kernels (*.txt);;All files (*)"));
  if (path.isEmpty()) return;
  m_lastDir = QFileInfo(path).absolutePath();
  importImageJKernel(path);
}

void FilterEditor::exportImageJWithDialog() {
  QString suggested = QString::fromStdString(m_document->filter().name());
  if (suggested.isEmpty()) suggested = QStringLiteral("kernel");
  const QString dir =
      m_lastDir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) : m_lastDir;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export ImageJ kernel"), QDir(dir).filePath(suggested + ".txt"), tr("ImageJ kernels (*.txt)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(QStringLiteral(".txt"), Qt::CaseInsensitive)) {
    path += QStringLiteral(".txt");
    if (QFileInfo::exists(path) &&
        QMessageBox::question(this, tr("Replace file?"), tr("%1 already exists. Replace it?").arg(path)) !=
            QMessageBox::Yes)
      return;
  }
  m_lastDir = QFileInfo(path).absolutePath();
  exportImageJKernel(path);
}

void FilterEditor::importWithDialog() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Import filter"), m_lastDir,
                                   tr("Filter files (*.json);;ImageJ kernels (*.txt);;All files (*)"));
  if (path.isEmpty()) return;
  m_lastDir = QFileInfo(path).absolutePath();
  importFile(path);
}

void FilterEditor::exportWithDialog() {
  QString suggested = QString::fromStdString(m_document->filter().name());
  if (suggested.isEmpty()) suggested = QStringLiteral("filter");
  const QString dir =
      m_lastDir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) : m_lastDir;
  // The dialog asks before replacing an existing file; only then do we overwrite.
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export filter"), QDir(dir).filePath(suggested + ".json"), tr("Filter files (*.json)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) {
    path += QStringLiteral(".json");
    if (QFileInfo::exists(path) &&
        QMessageBox::question(this, tr("Replace file?"), tr("%1 already exists. Replace it?").arg(path)) !=
            QMessageBox::Yes)
      return;
  }
  m_lastDir = QFileInfo(path).absolutePath();
  exportFile(path, true);
}

void FilterEditor::savePresetWithDialog() {
  bool ok = false;
  QString suggested = QString::fromStdString(m_document->filter().name());
  if (m_document->isModified() && !suggested.isEmpty()) suggested = tr("%1 (edited)").arg(suggested);
  const QString name = QInputDialog::getText(this, tr("Save as preset"), tr("Preset name:"),
                                             QLineEdit::Normal, suggested, &ok);
  if (!ok || name.trimmed().isEmpty()) return;
  bool overwrite = false;
  for (const auto& list : {m_presets->bundled(), m_presets->user()}) {
    for (const PresetEntry& e : list) {
      if (overwrite || e.name.compare(name.trimmed(), Qt::CaseInsensitive) != 0) continue;
      const QString question =
          e.bundled ? tr("A bundled preset is already called '%1'. Save yours under the same name anyway? "
                         "(The menu will then list two.)")
                          .arg(e.name)
                    : tr("You already have a preset called '%1'. Replace it?").arg(e.name);
      if (QMessageBox::question(this, tr("Preset name in use"), question) != QMessageBox::Yes) return;
      overwrite = true;
    }
  }
  savePreset(name, overwrite);
}

void FilterEditor::rebuildPresetsMenu() {
  m_presetsMenu->clear();
  auto addEntries = [this](const QList<PresetEntry>& entries) {
    for (const PresetEntry& e : entries) {
      QAction* a = m_presetsMenu->addAction(e.name);
      a->setToolTip(QDir::toNativeSeparators(e.path));
      connect(a, &QAction::triggered, this, [this, e] { loadPreset(e); });
    }
  };
  m_presetsMenu->addSection(tr("Bundled"));
  const auto bundled = m_presets->bundled();
  addEntries(bundled);
  if (bundled.isEmpty()) m_presetsMenu->addAction(tr("(none)"))->setEnabled(false);
  m_presetsMenu->addSection(tr("My presets"));
  const auto user = m_presets->user();
  addEntries(user);
  if (user.isEmpty()) m_presetsMenu->addAction(tr("(none yet — Save as preset…)"))->setEnabled(false);
  m_presetsMenu->addSeparator();
  m_presetsMenu->addAction(tr("Save as Preset…"), this, &FilterEditor::savePresetWithDialog);
  m_presetsMenu->addAction(tr("Open My Presets Folder"), this, [this] {
    QDir().mkpath(m_presets->userDir());
    QDesktopServices::openUrl(QUrl::fromLocalFile(m_presets->userDir()));
  });
}

}  // namespace convolab::gui
