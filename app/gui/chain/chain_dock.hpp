// SPDX-License-Identifier: MIT
// ChainDock: the "Chain" dock — the list of steps and its switch, wired to what the preview runs
// (PreviewChainChoice), the settings (the chain and the switch survive a restart) and File ▸ Import.
#pragma once

#include <QDockWidget>

#include "convolab/filter_chain.hpp"

class QMainWindow;
class QTimer;

namespace convolab::gui {

class AppSettings;
class ChainController;
class ChainPanel;
class CustomStepVetting;
class FilterDocument;
class FilterEditor;
class Pipeline;
class StepEditing;
class StepThumbnails;

class ChainDock : public QDockWidget {
  Q_OBJECT

 public:
  struct Inputs {
    Pipeline* pipeline;  ///< runs the chain; its filter is the editor's ("Add the editor's filter")
    AppSettings* settings;
    FilterEditor* editor;                ///< its imports of chain files open here
    FilterDocument* document = nullptr;  ///< edits the selected step (StepEditing); its undo stack has ours
    QDockWidget* editorDock = nullptr;   ///< the editor's dock: titled with the step it edits
  };
  ChainDock(Inputs inputs, QWidget* parent);
  /// The window closing: the editor gets its own filter back first, so that is what is remembered.
  bool eventFilter(QObject* watched, QEvent* event) override;
  /// Makes the dock, tabbed with `besides` (the editor's docks), its messages on the window's status bar.
  static ChainDock* install(QMainWindow* window, QDockWidget* besides, Inputs inputs);

  ChainController* controller() const { return m_controller; }
  ChainPanel* panel() const { return m_panel; }
  CustomStepVetting* vetting() const { return m_vetting; }
  /// The editor on the selected step (null without a document).
  StepEditing* stepEditing() const { return m_editing; }
  StepThumbnails* thumbnails() const { return m_thumbnails; }

 signals:
  void message(const QString& text);

 private:
  void restore();
  void remember();
  /// Offers the list's chain to the preview once its custom steps passed their trials (else starts them).
  void offerLive();
  /// A custom step's trial ended: a refused step is switched off, with the reason.
  void judged(const ChainStep& step, bool passed, const QString& why);
  void connectEditing();
  void connectThumbnails();

  Inputs m_in;
  ChainController* m_controller;
  ChainPanel* m_panel;
  CustomStepVetting* m_vetting;
  StepEditing* m_editing = nullptr;
  StepThumbnails* m_thumbnails;
  QTimer* m_thumbnailTimer;
};

}  // namespace convolab::gui
