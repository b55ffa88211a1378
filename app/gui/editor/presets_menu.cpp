// SPDX-License-Identifier: MIT
// The Presets menu: its headings and thumbnails, loading a preset and saving the filter as one.
#include "editor/presets_menu.hpp"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QProxyStyle>
#include <QUrl>
#include <QWidgetAction>

#include "editor/filter_document.hpp"
#include "editor/parse_error_text.hpp"
#include "editor/preset_thumbnails.hpp"
#include "window/input_dialogs.hpp"
#include "window/theme.hpp"

namespace convolab::gui {

namespace {

/// The Presets menu draws its icons at the thumbnails' size.
class ThumbnailMenuStyle : public QProxyStyle {
 public:
  int pixelMetric(PixelMetric metric, const QStyleOption* option, const QWidget* widget) const override {
    if (metric == PM_SmallIconSize) return PresetThumbnails::kSize.width();
    return QProxyStyle::pixelMetric(metric, option, widget);
  }
};

/// A thumbnail on a canvas of kSize, so every row lines up (an empty one until it is made).
QIcon presetIcon(const QImage& image) {
  QPixmap canvas(PresetThumbnails::kSize);
  canvas.fill(Qt::transparent);
  if (!image.isNull()) {
    QPainter p(&canvas);
    const QSize s = image.size().scaled(PresetThumbnails::kSize, Qt::KeepAspectRatio);
    p.drawImage(QRect(QPoint((canvas.width() - s.width()) / 2, (canvas.height() - s.height()) / 2), s),
                image);
  }
  return QIcon(canvas);
}

/// A heading drawn as text: QMenu::addSection draws a bare separator in the Fusion style with the app's
/// style sheet, so "My presets" was never labelled.
void addPresetHeading(QMenu* menu, const QString& text) {
  auto* label = new QLabel(text, menu);
  label->setObjectName(QStringLiteral("presetHeading"));
  QFont f = label->font();
  f.setBold(true);
  label->setFont(f);
  label->setStyleSheet(theme::textStyle(theme::dimText()) + QStringLiteral(" padding: 6px 12px 2px 12px;"));
  auto* action = new QWidgetAction(menu);
  action->setDefaultWidget(label);
  action->setEnabled(false);
  action->setText(text);
  action->setObjectName(QStringLiteral("presetHeading"));
  menu->addAction(action);
}

}  // namespace

PresetsMenu::PresetsMenu(FilterDocument* document, PresetLibrary* presets, QWidget* parent)
    : QMenu(tr("&Presets"), parent), m_document(document), m_presets(presets) {
  connect(this, &QMenu::aboutToShow, this, &PresetsMenu::rebuild);
  rebuild();
}

bool PresetsMenu::loadPreset(const PresetEntry& entry) {
  try {
    FilterSet f = m_presets->load(entry);
    if (f.name().empty()) f = f.withName(entry.name.toStdString());
    m_document->replace(f, tr("Preset %1").arg(entry.name));
    emit message({});
    emit status(tr("Preset: %1").arg(entry.name));
    return true;
  } catch (const std::exception& e) {
    emit message(tr("Cannot load preset — %1").arg(withoutParserJargon(QString::fromUtf8(e.what()))));
    return false;
  }
}

bool PresetsMenu::savePreset(const QString& name, bool overwrite) {
  const QString trimmed = name.trimmed();
  if (!overwrite) {
    // No silent second "Identity": a name that a preset already has needs a yes first.
    for (const auto& list : {m_presets->bundled(), m_presets->user()})
      for (const PresetEntry& e : list)
        if (e.name.compare(trimmed, Qt::CaseInsensitive) == 0) {
          emit message(tr("Cannot save preset — a %1 preset called '%2' already exists; choose another name "
                          "or confirm replacing it")
                           .arg(e.bundled ? tr("bundled") : tr("saved"), e.name));
          return false;
        }
  }
  try {
    const QString path = m_presets->saveUser(m_document->filter(), trimmed, overwrite);
    m_document->rename(trimmed, tr("Name filter '%1'").arg(trimmed));
    emit message({});
    emit status(tr("Saved preset '%1' to %2").arg(trimmed, QDir::toNativeSeparators(path)));
    return true;
  } catch (const std::exception& e) {
    emit message(tr("Cannot save preset — %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

void PresetsMenu::savePresetWithDialog() {
  bool ok = false;
  QString suggested = QString::fromStdString(m_document->filter().name());
  if (m_document->isModified() && !suggested.isEmpty()) suggested = tr("%1 (edited)").arg(suggested);
  const QString name = askText(parentWidget(), tr("Save as preset"), tr("Preset name:"), suggested, &ok);
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
      if (QMessageBox::question(parentWidget(), tr("Preset name in use"), question) != QMessageBox::Yes)
        return;
      overwrite = true;
    }
  }
  savePreset(name, overwrite);
}

PresetThumbnails* PresetsMenu::thumbnails() {
  if (!m_thumbnails) {
    m_thumbnails = new PresetThumbnails(this);
    connect(m_thumbnails, &PresetThumbnails::ready, this, &PresetsMenu::updateIcons);
  }
  return m_thumbnails;
}

void PresetsMenu::updateIcons() {
  for (QAction* a : actions()) {
    const QString path = a->data().toString();
    if (path.isEmpty()) continue;
    const QImage image = m_thumbnails ? m_thumbnails->thumbnail(path) : QImage();
    a->setIcon(presetIcon(image));
  }
}

void PresetsMenu::rebuild() {
  clear();
  setToolTipsVisible(true);
  if (!property("thumbnailStyle").toBool()) {
    // Thumbnails at their size, not the 16-pixel menu icons.
    auto* style = new ThumbnailMenuStyle;
    style->setParent(this);
    setStyle(style);
    setProperty("thumbnailStyle", true);
  }
  const QList<PresetEntry> entries = m_presets->grouped();
  QString group;
  bool anyUser = false;
  for (const PresetEntry& e : entries) {
    if (e.group != group) {
      group = e.group;
      addPresetHeading(this, QCoreApplication::translate("PresetLibrary", qPrintable(group)));
    }
    anyUser = anyUser || !e.bundled;
    QAction* a = addAction(e.name);
    a->setData(e.path);
    // The preset the filter was loaded from (edited or not) is marked (issue 33.9).
    a->setCheckable(true);
    a->setChecked(!m_document->baseline().name().empty() &&
                  e.name == QString::fromStdString(m_document->baseline().name()));
    QString tip = e.description.isEmpty() ? e.name : e.description;
    if (!e.bundled) tip += QStringLiteral("\n") + QDir::toNativeSeparators(e.path);
    a->setToolTip(tip);
    a->setStatusTip(e.description);
    connect(a, &QAction::triggered, this, [this, e] { loadPreset(e); });
  }
  if (!anyUser) {
    addPresetHeading(this, QCoreApplication::translate("PresetLibrary", "My presets"));
    addAction(tr("(none yet — Save as Preset…)"))->setEnabled(false);
  }
  addSeparator();
  addAction(tr("Save as Preset…"), this, &PresetsMenu::savePresetWithDialog);
  addAction(tr("Open My Presets Folder"), this, [this] {
    QDir().mkpath(m_presets->userDir());
    QDesktopServices::openUrl(QUrl::fromLocalFile(m_presets->userDir()));
  });
  updateIcons();
  if (m_thumbnails) m_thumbnails->request(entries);  // new ones arrive through ready()
}

}  // namespace convolab::gui
