// SPDX-License-Identifier: MIT
// FlipOutput: View ▸ Flip Output (issue 32 item 2), remembered per source (a camera by its stable id), off by
// default. While on, everything that leaves the app — Save Frame, Save Frame As, Copy Frame, the photo timer
// and burst, Record, the virtual camera, the v4l2 loopback and --snapshot — is flipped left to right by the
// output door (output::OutputDoor::setFlipped); the preview is not (View ▸ Mirror Preview is its choice).
#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

class QAction;

namespace convolab::output {
class OutputDoor;
}

namespace convolab::gui {

class AppSettings;

class FlipOutput : public QObject {
  Q_OBJECT

 public:
  struct Parts {
    QAction* action;  ///< checkable
    std::shared_ptr<output::OutputDoor> door;
    AppSettings* settings;
    std::function<QString()> spec;  ///< the current source's remembered spec
  };
  /// `onForRun` (--flip-output): on for every source of this run, not remembered, until the user turns it
  /// off.
  FlipOutput(Parts parts, bool onForRun, QObject* parent);

  /// A new source: its remembered choice (off when none), or on for this run.
  void sourceChanged();

 signals:
  void message(const QString& text, int ms);

 private:
  void toggled(bool on);
  void apply(bool on);

  Parts m_parts;
  bool m_onForRun;
};

}  // namespace convolab::gui
