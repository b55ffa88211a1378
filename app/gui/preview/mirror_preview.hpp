// SPDX-License-Identifier: MIT
// MirrorPreview: View ▸ Mirror Preview, remembered per source (a camera by its stable id), on by default for
// a camera as in video-call apps. It flips only the preview (PreviewView maps every pointer position through
// it); saved frames, recordings and the virtual camera get the frame as computed (View ▸ Flip Output,
// flip_output.hpp, is the choice for those).
#pragma once

#include <QObject>
#include <functional>

#include "capture/frame_source.hpp"

class QAction;

namespace convolab::gui {

class AppSettings;
class PreviewWidget;

class MirrorPreview : public QObject {
  Q_OBJECT

 public:
  struct Parts {
    QAction* action;  ///< checkable
    PreviewWidget* preview;
    AppSettings* settings;
    std::function<capture::SourceTraits()> traits;  ///< the current source's
    std::function<QString()> spec;                  ///< the current source's remembered spec
  };
  MirrorPreview(Parts parts, QObject* parent);

  /// A new source: its remembered choice, else on for a device that waits to be plugged (a camera).
  void sourceChanged();

 private:
  void toggled(bool on);

  Parts m_parts;
};

}  // namespace convolab::gui
