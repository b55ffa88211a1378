// SPDX-License-Identifier: MIT
// The GUI's command line: convolab [--source SPEC] [--filter FILE] [--strategy NAME] [--device SPEC]
// [--frames N] [--script FILE] …
#pragma once

#include <QString>
#include <QStringList>
#include <memory>

#include "automation/edit_script.hpp"

namespace convolab::gui {

struct LaunchOptions {
  QString source;    ///< camera index, device path, file, "pattern[...]", "sample", "auto"; empty: last used
  QString filter;    ///< JSON filter file to start with
  QString strategy;  ///< empty: last used (default auto)
  QString device;    ///< empty: last used (default: first GPU, else first device)
  int frames = 0;    ///< quit after this many processed frames (0: run until closed)
  QString snapshot;  ///< PNG of the last filtered frame, written on exit
  QString stats;     ///< JSON statistics, written on exit
  QString compare;   ///< headless: compare every strategy on the first frame, write this JSON, exit
  bool force = false;  ///< --force: --snapshot, --stats and --compare may replace files that exist
  QString script;      ///< --script FILE: timed edits (parsed into editScript before any window opens)
  int fpsLimit = 0;    ///< --fps-limit: Processing ▸ Limit Frame Rate for this run (0: as remembered)
  bool virtualCamera = false;  ///< --virtual-camera: publish the filtered picture as a camera this run
  QString virtualCameraSize;   ///< --virtual-camera-size WxH|source: its size (letterboxed), remembered
  bool flipOutput = false;     ///< --flip-output: View ▸ Flip Output on for this run (not remembered)
  std::shared_ptr<const EditScript> editScript;  ///< set with `script` (parseCommandLine parses it)

  /// An automated run (--frames, --snapshot, --stats, --compare or --script): a source that cannot open ends
  /// it with exit 3 instead of showing the "no source" panel.
  bool automated() const {
    return frames > 0 || !snapshot.isEmpty() || !stats.isEmpty() || !compare.isEmpty() ||
           editScript != nullptr;
  }
};

struct ParsedCommandLine {
  LaunchOptions options;
  int exitCode = -1;  ///< ≥ 0: print `message` and exit with it (--help: 0, usage error or bad script: 2)
  QString message;
};

/// Parses `arguments` (arguments[0] is the program). Positional files are taken as --source.
ParsedCommandLine parseCommandLine(const QStringList& arguments);

}  // namespace convolab::gui
