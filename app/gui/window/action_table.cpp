// SPDX-License-Identifier: MIT
// The main window's action table and the menu, toolbar and shortcut-list layouts built from it.
#include "window/action_table.hpp"

#include "window/help_dialogs.hpp"

#include <QAction>
#include <QActionGroup>
#include <QCoreApplication>
#include <QIcon>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>
#include <QUndoStack>
#include <variant>

#include "window/help_dialogs.hpp"

namespace convolab::gui {

namespace {

using Id = ActionId;
using Keys = QList<QKeySequence>;

QKeySequence ctrl(int key) {
  return QKeySequence(Qt::CTRL | key);
}
QKeySequence ctrlShift(int key) {
  return QKeySequence(Qt::CTRL | Qt::SHIFT | key);
}

QString translated(const char* text) {
  return QCoreApplication::translate("ActionTable", text);
}

/// A place in a menu or the toolbar: a table action, a separator, or a slot the window fills.
struct Separator {};
using Item = std::variant<ActionId, ActionSlot, Separator>;
constexpr Separator kSep;

struct MenuLayout {
  const char* title;  ///< nullptr: the slot fills the menu bar itself (a whole menu)
  std::vector<Item> items;
};

const std::vector<MenuLayout>& menuLayouts() {
  using S = ActionSlot;
  static const std::vector<MenuLayout> menus = {
      {QT_TRANSLATE_NOOP("ActionTable", "&File"),
       {S::CameraMenu,
        S::CameraModeMenu,
        Id::OpenImage,
        Id::OpenVideo,
        S::RecentSources,
        Id::TestPattern,
        Id::Sample,
        Id::ImageSizeLimit,
        kSep,
        Id::ImportFilter,
        Id::ExportFilter,
        S::ImageJCopies,
        kSep,
        Id::SaveFrame,
        Id::SaveFrameAs,
        Id::SaveFrameTimer,
        S::PhotoTimerMenu,
        Id::CopyFrame,
        Id::Record,
        Id::ExportVideo,
        kSep,
        Id::Quit}},
      {QT_TRANSLATE_NOOP("ActionTable", "&Edit"),
       {Id::Undo, Id::Redo, kSep, Id::CopyFilter, Id::PasteFilter, S::OpenCvCopies, kSep, Id::Link,
        Id::ResetIdentity, Id::Bypass}},
      {nullptr, {S::PresetsMenu}},
      {QT_TRANSLATE_NOOP("ActionTable", "&View"),
       {Id::ViewFiltered,
        Id::ViewOriginal,
        Id::ViewSplit,
        Id::SplitVertical,
        Id::MirrorPreview,
        Id::FlipOutput,
        kSep,
        Id::Fit,
        Id::ActualSize,
        Id::ZoomIn,
        Id::ZoomOut,
        kSep,
        Id::Pause,
        Id::Step,
        kSep,
        S::DockToggles,
        Id::FullScreen,
        Id::KernelSource,
        Id::PixelInspector,
        Id::CameraControls}},
      {QT_TRANSLATE_NOOP("ActionTable", "&Processing"),
       {S::EngineMenus, S::FrameRateMenu, kSep, Id::Bypass, Id::ResetStats, kSep, Id::CompareStrategies, kSep,
        Id::VirtualCamera}},
      {QT_TRANSLATE_NOOP("ActionTable", "&Help"),
       {Id::UserManual, Id::StrategyHelp, kSep, Id::Shortcuts, Id::About}},
  };
  return menus;
}

const std::vector<Item>& toolBarLayout() {
  using S = ActionSlot;
  static const std::vector<Item> items = {S::SourceButton,  Id::Pause,        Id::Step,      kSep,
                                          Id::ViewFiltered, Id::ViewOriginal, Id::ViewSplit, kSep,
                                          Id::Fit,          Id::ActualSize,   kSep,          Id::Bypass,
                                          Id::SaveFrame,    Id::Record,       S::EngineBoxes};
  return items;
}

}  // namespace

const std::vector<ActionRow>& actionRows() {
  // QT_TRANSLATE_NOOP marks the strings for translation in the "ActionTable" context.
#define T(text) QT_TRANSLATE_NOOP("ActionTable", text)
  static const std::vector<ActionRow> rows = {
      {Id::OpenImage, "openImage", T("Open &Image…"), {QKeySequence(QKeySequence::Open)}},
      {Id::OpenVideo, "openVideo", T("Open &Video…"), {ctrlShift(Qt::Key_O)}},
      {Id::TestPattern,
       "testPattern",
       T("&Test Pattern"),
       {ctrl(Qt::Key_T)},
       T("Animated test pattern generated on the CPU")},
      {Id::Sample, "sample", T("Bundled &Sample Image"), {}, nullptr, nullptr, nullptr, false, false},
      {Id::ImageSizeLimit,
       "imageSizeLimit",
       T("Image Size &Limit…"),
       {},
       T("Largest image or video frame to open, in megapixels (checked before decoding)"),
       nullptr,
       nullptr,
       false,
       false},
      {Id::SaveFrame,
       "saveFrame",
       T("&Save Frame"),
       {QKeySequence(QKeySequence::Save)},
       T("Save the filtered frame at full resolution as PNG in ~/Pictures/ConvoLab"),
       "save",
       T("Save")},
      {Id::SaveFrameAs, "saveFrameAs", T("Save Frame &As…"), {ctrlShift(Qt::Key_S)}},
      {Id::SaveFrameTimer,
       "saveFrameTimer",
       T("Save Frame after Count&down"),
       {ctrlShift(Qt::Key_T)},
       T("Count down (File ▸ Photo Timer: 3, 5 or 10 s, Esc cancels), then save one frame or a burst as "
         "numbered PNGs in ~/Pictures/ConvoLab")},
      {Id::CopyFrame,
       "copyFrame",
       T("Copy &Frame"),
       {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_C)},
       T("Copy the filtered frame to the clipboard")},
      {Id::Record,
       "record",
       T("&Record Video"),
       {ctrl(Qt::Key_R)},
       T("Record the filtered stream to ~/Videos/ConvoLab (MJPG .avi)"),
       "record",
       T("Record"),
       true},
      {Id::ExportVideo,
       "exportVideo",
       T("Export Filtered &Video…"),
       {},
       T("Apply the current filter to a video file (off the GUI thread; the preview keeps running)"),
       nullptr,
       nullptr,
       false,
       false},
      {Id::Undo, "undo", T("&Undo"), {QKeySequence(QKeySequence::Undo)}},
      {Id::Redo, "redo", T("&Redo"), {ctrlShift(Qt::Key_Z), ctrl(Qt::Key_Y)}},
      {Id::CopyFilter, "copyFilter", T("&Copy Filter as Text"), {ctrlShift(Qt::Key_C)}},
      {Id::PasteFilter, "pasteFilter", T("&Paste Filter Text"), {ctrlShift(Qt::Key_V)}},
      {Id::Link,
       "link",
       T("&Link Channels"),
       {ctrl(Qt::Key_L)},
       T("Edit once, all three channels follow"),
       nullptr,
       nullptr,
       true},
      {Id::ResetIdentity, "resetIdentity", T("Reset to &Identity"), {ctrl(Qt::Key_Backspace)}},
      {Id::Bypass,
       "bypass",
       T("&Bypass Filter"),
       {ctrl(Qt::Key_B)},
       T("Show the input unfiltered (processing is skipped)"),
       "bypass",
       T("Bypass"),
       true},
      {Id::ViewFiltered,
       "viewFiltered",
       T("&Filtered"),
       {QKeySequence(Qt::ALT | Qt::Key_1)},
       nullptr,
       "filtered",
       T("Filtered"),
       true},
      {Id::ViewOriginal,
       "viewOriginal",
       T("&Original"),
       {QKeySequence(Qt::ALT | Qt::Key_2)},
       nullptr,
       "original",
       T("Original"),
       true},
      {Id::ViewSplit,
       "viewSplit",
       T("&Split Compare"),
       {QKeySequence(Qt::ALT | Qt::Key_3)},
       nullptr,
       "split",
       T("Split"),
       true},
      {Id::SplitVertical,
       "splitVertical",
       T("Split &Top / Bottom"),
       {QKeySequence(Qt::ALT | Qt::Key_4)},
       T("Split compare with the original above the divider and the filtered frame below"),
       nullptr,
       nullptr,
       true},
      {Id::MirrorPreview,
       "mirrorPreview",
       T("&Mirror Preview"),
       {ctrlShift(Qt::Key_M)},
       T("Show the picture flipped left to right, as a mirror (on by default for a camera); saved frames, "
         "recordings and the virtual camera are not flipped (Flip Output flips those)"),
       nullptr,
       nullptr,
       true},
      {Id::FlipOutput,
       "flipOutput",
       T("Flip &Output"),
       {ctrlShift(Qt::Key_F)},
       T("Flip what leaves the app left to right: saved and copied frames, recordings and the virtual camera "
         "(the preview is not flipped; remembered per camera)"),
       nullptr,
       nullptr,
       true},
      {Id::Fit,
       "fit",
       T("Fit to &Window"),
       {ctrl(Qt::Key_0), ctrl(Qt::Key_9)},
       nullptr,
       "fit",
       T("Fit"),
       true},
      {Id::ActualSize,
       "actualSize",
       T("&Actual Size (100 %)"),
       {ctrl(Qt::Key_1)},
       nullptr,
       "actual",
       T("100 %"),
       true},
      {Id::ZoomIn,
       "zoomIn",
       T("Zoom &In"),
       {QKeySequence(QKeySequence::ZoomIn), ctrl(Qt::Key_Equal)},
       T("Zoom in around the preview's centre (the mouse wheel zooms around the cursor; from 800 % a pixel "
         "grid shows)")},
      {Id::ZoomOut, "zoomOut", T("Zoom &Out"), {QKeySequence(QKeySequence::ZoomOut)}},
      {Id::Pause,
       "pause",
       T("&Pause"),
       {QKeySequence(Qt::Key_Space)},
       T("Pause or resume the source"),
       "pause",
       T("Pause"),
       true},
      {Id::Step,
       "step",
       T("S&tep One Frame"),
       {ctrl(Qt::Key_Period)},
       T("While paused, advance one frame"),
       "step",
       T("Step")},
      {Id::ResetStats, "resetStats", T("Reset &Statistics"), {ctrlShift(Qt::Key_R)}},
      {Id::FullScreen, "fullScreen", T("F&ull Screen"), {QKeySequence(Qt::Key_F11)}},
      {Id::KernelSource,
       "kernelSource",
       T("&Kernel Source…"),
       {ctrlShift(Qt::Key_K)},
       T("The OpenCL C source, build options and launch sizes of the live strategy")},
      {Id::PixelInspector,
       "pixelInspector",
       T("Pixel &Inspector"),
       {ctrlShift(Qt::Key_I)},
       T("Hover the preview for a pixel's input → output RGB; hold Shift (R), Shift+Ctrl (G) or Shift+Alt "
         "(B) for its weighted sum"),
       nullptr,
       nullptr,
       true},
      {Id::CameraControls,
       "cameraControls",
       T("&Camera Controls"),
       {ctrlShift(Qt::Key_A)},
       T("Exposure, white balance, focus… as the camera reports them; values are remembered per camera")},
      {Id::CompareStrategies,
       "compareStrategies",
       T("&Compare Strategies…"),
       {ctrl(Qt::Key_M)},
       T("Time every strategy on the current frame, filter and device")},
      {Id::VirtualCamera,
       "virtualCamera",
       T("&Virtual Camera"),
       {ctrlShift(Qt::Key_W)},
       T("Publish the filtered picture as the PipeWire camera \"ConvoLab (filtered)\" for browsers, call "
         "apps "
         "and OBS"),
       nullptr,
       nullptr,
       true},
      {Id::ImportFilter, "importFilter", T("&Import Filter…"), {ctrl(Qt::Key_I)}},
      {Id::ExportFilter, "exportFilter", T("&Export Filter…"), {ctrl(Qt::Key_E)}},
      {Id::Quit, "quit", T("&Quit"), {QKeySequence(QKeySequence::Quit)}},
      {Id::UserManual,
       "userManual",
       T("User &Manual"),
       {ctrlShift(Qt::Key_H)},
       T("The user guide, with pictures, in a window of its own")},
      {Id::StrategyHelp,
       "strategyHelp",
       T("&What Is This Strategy?"),
       {QKeySequence(Qt::SHIFT | Qt::Key_F1)},
       T("What the selected strategy does, how it works and when it is the fastest")},
      {Id::Shortcuts,
       "shortcuts",
       T("&Keyboard Shortcuts"),
       {QKeySequence(QKeySequence::HelpContents)},
       nullptr,
       nullptr,
       nullptr,
       false,
       false},
      {Id::About, "about", T("&About ConvoLab"), {}, nullptr, nullptr, nullptr, false, false},
  };
#undef T
  return rows;
}

ActionTable::ActionTable(QWidget* window, QUndoStack* undoStack) : QObject(window) {
  for (const ActionRow& row : actionRows()) {
    const QString text = translated(row.text);
    QAction* a = nullptr;
    if (row.id == Id::Undo || row.id == Id::Redo) {
      // The undo stack's actions carry the command's name in their text ("Undo Edit R cell").
      a = row.id == Id::Undo ? undoStack->createUndoAction(window, text)
                             : undoStack->createRedoAction(window, text);
    } else {
      a = new QAction(text, window);
      QString tip =
          row.tip ? translated(row.tip) : QString(text).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
      if (!row.keys.isEmpty())
        tip += QStringLiteral(" (%1)").arg(row.keys.first().toString(QKeySequence::NativeText));
      a->setToolTip(tip);
      a->setStatusTip(tip);
    }
    a->setObjectName(QString::fromLatin1(row.name));
    if (!row.keys.isEmpty()) a->setShortcuts(row.keys);
    a->setCheckable(row.checkable);
    if (row.icon) {
      // Toolbar faces: an icon and a short word; menus keep the long text.
      a->setIcon(QIcon(QStringLiteral(":/icons/%1.svg").arg(QString::fromLatin1(row.icon))));
      a->setIconText(translated(row.iconText));
    }
    m_actions[static_cast<std::size_t>(row.id)] = a;
  }
  m_viewGroup = new QActionGroup(this);
  for (Id id : {Id::ViewFiltered, Id::ViewOriginal, Id::ViewSplit}) (*this)[id]->setActionGroup(m_viewGroup);
  auto* zoomGroup = new QActionGroup(this);
  zoomGroup->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
  for (Id id : {Id::Fit, Id::ActualSize}) (*this)[id]->setActionGroup(zoomGroup);
}

QAction* ActionTable::byName(const QString& name) const {
  for (QAction* a : m_actions)
    if (a->objectName() == name) return a;
  return nullptr;
}

void ActionTable::buildMenus(QMenuBar* bar, const SlotFiller& fill) const {
  for (const MenuLayout& layout : menuLayouts()) {
    QWidget* container = bar;
    if (layout.title) container = bar->addMenu(translated(layout.title));
    for (const Item& item : layout.items) {
      if (const auto* id = std::get_if<ActionId>(&item))
        container->addAction((*this)[*id]);
      else if (const auto* slot = std::get_if<ActionSlot>(&item))
        fill(*slot, container);
      else
        static_cast<QMenu*>(container)->addSeparator();
    }
  }
}

void ActionTable::buildToolBar(QToolBar* bar, const SlotFiller& fill) const {
  for (const Item& item : toolBarLayout()) {
    if (const auto* id = std::get_if<ActionId>(&item))
      bar->addAction((*this)[*id]);
    else if (const auto* slot = std::get_if<ActionSlot>(&item))
      fill(*slot, bar);
    else
      bar->addSeparator();
  }
}

QString ActionTable::shortcutListHtml() const {
  auto row = [](const QString& what, const QString& keys) {
    return QStringLiteral("<tr><td style='padding:2px 16px 2px 0'>%1</td><td><b>%2</b></td></tr>")
        .arg(what, keys);
  };
  QString rows;
  for (const ActionRow& r : actionRows()) {
    if (!r.listed) continue;
    QAction* a = (*this)[r.id];
    QStringList keys;
    for (const auto& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    rows += row(a->text().remove(QLatin1Char('&')), keys.join(QStringLiteral(", ")));
  }
  // Held keys, no actions: the pixel inspector reads the modifiers while the pointer is over the preview
  // (lab::PixelInspector::channelFor).
  const struct {
    const char* what;
    const char* keys;
  } held[] = {
      {QT_TRANSLATE_NOOP("ActionTable", "Inspect pixel: R neighbourhood (hold over the preview)"),
       QT_TRANSLATE_NOOP("ActionTable", "Shift")},
      {QT_TRANSLATE_NOOP("ActionTable", "Inspect pixel: G neighbourhood"),
       QT_TRANSLATE_NOOP("ActionTable", "Shift+Ctrl")},
      {QT_TRANSLATE_NOOP("ActionTable", "Inspect pixel: B neighbourhood"),
       QT_TRANSLATE_NOOP("ActionTable", "Shift+Alt")},
  };
  for (const auto& h : held) rows += row(translated(h.what), translated(h.keys));
  // Two columns side by side, so the whole list fits a 1366×768 screen (one column ran off its bottom,
  // taking the lab's rows with it).
  const QStringList all = rows.split(QStringLiteral("</tr>"), Qt::SkipEmptyParts);
  const qsizetype half = (all.size() + 1) / 2;
  const QString left = all.mid(0, half).join(QStringLiteral("</tr>")) + QStringLiteral("</tr>");
  const QString right = all.mid(half).join(QStringLiteral("</tr>")) + QStringLiteral("</tr>");
  return QStringLiteral(
             "<table><tr><td style='vertical-align:top; padding-right:24px'><table>%1</table></td>"
             "<td style='vertical-align:top'><table>%2</table></td></tr></table>"
             "<p>In the grids: arrows and Tab move, typing edits, Enter commits. Drag the divider in split "
             "view; double-click the preview toggles fit / 100 %.</p>")
      .arg(left, right);
}

void ActionTable::showShortcuts(QWidget* parent) const {
  showHtmlDialog(parent, QStringLiteral("shortcutsDialog"), tr("Keyboard shortcuts"), shortcutListHtml(),
                 1000);
}

}  // namespace convolab::gui
