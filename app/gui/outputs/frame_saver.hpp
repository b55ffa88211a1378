// SPDX-License-Identifier: MIT
// Saving frames: timestamped PNGs in ~/Pictures/ConvoLab, or any path and format the user picks.
#pragma once

#include <QString>

#include "convolab/image.hpp"

namespace convolab::gui {

/// QStandardPaths::PicturesLocation + "/ConvoLab".
QString defaultPicturesDir();
/// QStandardPaths::MoviesLocation + "/ConvoLab".
QString defaultVideosDir();
/// "<dir>/<stem>-YYYYMMDD-HHMMSS-mmm.<ext>", with a counter appended if that name exists.
QString timestampedPath(const QString& dir, const QString& stem, const QString& extension);

/// Encodes by the path's extension (PNG exactly as convolab-cli apply writes it) and writes atomically.
/// Throws convolab::Error with a message for people.
void saveFrame(const QString& path, const Image& image, bool overwrite, int jpegQuality = 95);

}  // namespace convolab::gui
