// SPDX-License-Identifier: MIT
// What the preview is asked to show besides the frame: the view mode and the messages over it. Plain values:
// PreviewWidget keeps them (its setters), PreviewMarks paints them.
#pragma once

#include <QString>

namespace convolab::gui {

enum class ViewMode { Filtered, Original, Split };

/// The source's and the processing's state as the preview's setters were told it; an empty text: not shown.
struct PreviewMessages {
  bool paused = false;
  QString disconnected;  ///< the last frame stays, dimmed, under it (a disconnected camera)
  QString busy;          ///< a transient state line in the middle ("Opening camera…")
  QString banner;        ///< a warning strip along the top
  QString preparing;     ///< what the next engine waits on, in the state pill
  QString note;          ///< a standing note in the bottom-left corner
  QString stall;         ///< why the picture is older than it should be, in the state pill
};

}  // namespace convolab::gui
