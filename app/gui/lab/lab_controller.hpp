// SPDX-License-Identifier: MIT
// LabController: wires the strategy lab into the main window — what Processing ▸ Compare Strategies… and
// View ▸ Kernel Source (rows of the action table) open, the Analysis dock and the pixel inspector — so
// main_window.cpp needs only a few lines.
#pragma once

#include <QObject>
#include <QPointer>

#include "lab_inputs.hpp"

class QDockWidget;

namespace convolab::gui {
class ActionTable;
class MainWindow;
struct FrameRecord;
}  // namespace convolab::gui

namespace convolab::lab {

class CompareDialog;
class FilterAnalysisPanel;
class KernelSourceDialog;
class PixelInspector;

class LabController : public QObject {
  Q_OBJECT

 public:
  /// Call from MainWindow once its preview, document and pipeline exist.
  explicit LabController(gui::MainWindow* window);
  /// Opens the Compare and Kernel Source dialogs and Help ▸ What Is This Strategy?, and switches the pixel
  /// inspector (View ▸ Pixel Inspector, on at start), from the window's action table (their rows live there,
  /// so the menus and the F1 list show them).
  void connectActions(const gui::ActionTable& actions);

  QDockWidget* analysisDock() const { return m_dock; }
  /// The pixel inspector; null while View ▸ Pixel Inspector is off.
  PixelInspector* inspector() const { return m_inspector; }
  /// Creates (on) or removes (off) the pixel inspector: hover probes, its status line and overlay.
  void setInspectorEnabled(bool on);

  /// The dialogs, created on first use.
  CompareDialog* compareDialog();
  KernelSourceDialog* kernelSourceDialog();

  /// What the lab's tools run on now.
  LabInputs inputs() const;
  /// Compare's "Make live": `chainMode` "fused" runs the live chain fused (the strategy stays), "steps" runs
  /// it step by step with `strategy`, "" (one filter) switches to `strategy`.
  void makeLive(const QString& strategy, const QString& chainMode);

 private:
  void onFrame(const gui::FrameRecord& record);
  void createInspector();

  gui::MainWindow* m_window;
  QDockWidget* m_dock;
  FilterAnalysisPanel* m_panel;
  PixelInspector* m_inspector;
  QPointer<CompareDialog> m_compareDialog;
  QPointer<KernelSourceDialog> m_sourceDialog;
  QString m_deviceSpec;
  StrategyId m_liveStrategy;  ///< what ran the newest frame
  bool m_liveFused = false;   ///< and whether it ran its chain in one launch
};

}  // namespace convolab::lab
