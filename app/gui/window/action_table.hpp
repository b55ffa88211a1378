// SPDX-License-Identifier: MIT
// ActionTable: the main window's actions, the lab's included, one row each {id, text, shortcut, tip, icon};
// the same rows build the menus, the toolbar and the F1 shortcut list.
#pragma once

#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QString>
#include <array>
#include <functional>
#include <vector>

class QAction;
class QActionGroup;
class QMenuBar;
class QToolBar;
class QUndoStack;
class QWidget;

namespace convolab::gui {

/// Every action of the main window's table, in the order of the F1 shortcut list.
enum class ActionId {
  OpenImage,
  OpenVideo,
  TestPattern,
  Sample,
  ImageSizeLimit,
  SaveFrame,
  SaveFrameAs,
  SaveFrameTimer,
  CopyFrame,
  Record,
  ExportVideo,
  Undo,
  Redo,
  CopyFilter,
  PasteFilter,
  Link,
  ResetIdentity,
  Bypass,
  ViewFiltered,
  ViewOriginal,
  ViewSplit,
  SplitVertical,
  MirrorPreview,
  FlipOutput,
  Fit,
  ActualSize,
  ZoomIn,
  ZoomOut,
  Pause,
  Step,
  ResetStats,
  FullScreen,
  KernelSource,
  PixelInspector,
  CameraControls,
  CompareStrategies,
  VirtualCamera,
  ImportFilter,
  ExportFilter,
  Quit,
  UserManual,
  StrategyHelp,
  Shortcuts,
  About,
  kCount
};

/// One row of the table. `text` and `tip` are untranslated (translated in the "ActionTable" context); an
/// empty tip is the text without '&' and '…'. `icon` (":/icons/<icon>.svg") and `iconText` are the toolbar
/// face; `listed` puts the row in the F1 shortcut list.
struct ActionRow {
  ActionId id;
  const char* name;  ///< objectName
  const char* text;
  QList<QKeySequence> keys;
  const char* tip = nullptr;
  const char* icon = nullptr;
  const char* iconText = nullptr;
  bool checkable = false;
  bool listed = true;
};

/// The rows, in ActionId order.
const std::vector<ActionRow>& actionRows();

/// Places in the menus and the toolbar that hold something other than a table action; the window fills
/// them (a submenu, a group of actions, widgets).
enum class ActionSlot {
  CameraMenu,
  CameraModeMenu,
  RecentSources,
  ImageJCopies,
  OpenCvCopies,
  PresetsMenu,  ///< a whole menu of the menu bar
  DockToggles,
  EngineMenus,     ///< Strategy and Device
  SourceButton,    ///< toolbar: the Source drop-down
  EngineBoxes,     ///< toolbar: the strategy and device boxes, right-aligned
  PhotoTimerMenu,  ///< File ▸ Photo Timer: countdown and burst
  FrameRateMenu,   ///< Processing ▸ Limit Frame Rate
};

class ActionTable : public QObject {
  Q_OBJECT

 public:
  /// Fills a container (a QMenu, the QMenuBar or a QToolBar) at a slot.
  using SlotFiller = std::function<void(ActionSlot slot, QWidget* container)>;

  /// Creates every row's action as a child of `window` (so its shortcut works everywhere in it); Undo and
  /// Redo come from `undoStack`. View modes are an exclusive group; Fit and 100 % too, with neither checked
  /// at another zoom.
  ActionTable(QWidget* window, QUndoStack* undoStack);

  QAction* operator[](ActionId id) const { return m_actions[static_cast<std::size_t>(id)]; }
  /// The three view-mode actions (Filtered, Original, Split), in ViewMode order.
  QActionGroup* viewGroup() const { return m_viewGroup; }
  /// The action by objectName (for scripts and tests); null when there is none.
  QAction* byName(const QString& name) const;

  /// Builds File, Edit, (Presets), View, Processing and Help.
  void buildMenus(QMenuBar* bar, const SlotFiller& fill) const;
  /// Fills the main toolbar.
  void buildToolBar(QToolBar* bar, const SlotFiller& fill) const;
  /// The F1 list as HTML: every listed action with its shortcuts, then the keys that are no action (the
  /// pixel inspector's modifiers, the grids).
  QString shortcutListHtml() const;
  /// The F1 dialog: shortcutListHtml().
  void showShortcuts(QWidget* parent) const;

 private:
  std::array<QAction*, static_cast<std::size_t>(ActionId::kCount)> m_actions{};
  QActionGroup* m_viewGroup;
};

}  // namespace convolab::gui
