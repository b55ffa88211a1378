// SPDX-License-Identifier: MIT
// FrameSource: the interface every input (camera, video file, still image, test pattern) implements. Its
// users (the capture thread, the GUI) ask a source what it can do, never what it is, so a new kind of source
// is a new class and a line in the factory (source_spec.cpp), not an edit of its users.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "camera_list.hpp"
#include "frame.hpp"
#include "staging_storage.hpp"

namespace convolab::capture {

/// A source could not be opened; the message is for people and names what failed.
class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The device a source stands for is not there (no camera at that path): the preview says "No camera found"
/// rather than "Camera unavailable", and retrying may find it.
class SourceAbsent : public SourceError {
 public:
  using SourceError::SourceError;
};

/// What the GUI needs to know of a source, read once when it takes the source (the capture thread owns it
/// after that).
struct SourceTraits {
  /// For people: "Camera", "Video", "Image", "Test pattern" (as in "Camera disconnected — waiting…").
  std::string kindName{};
  /// A device that may be absent, or held by the current source (cameras): the GUI lets the old source go
  /// and hands this one unopened to the capture thread, which waits for it; it is remembered as the start-up
  /// source once it delivers. Otherwise the source is opened off the GUI thread first, the old one staying
  /// if that fails, and it is remembered as soon as it opened.
  bool waitsForDevice = false;
  /// Reads a file the person chose: listed in File ▸ Open Recent.
  bool isFile = false;
  /// The spec that finds this source again (a camera by its stable id, not by an index that may change);
  /// empty: the spec it was created from.
  std::string rememberedSpec{};
  /// The modes one can choose from (File ▸ Camera Mode), listed when the menu opens; safe on any thread and
  /// after the source is gone. Empty: the source has no modes to choose.
  std::function<std::vector<CameraMode>()> listModes{};
  /// The V4L2 camera whose controls View ▸ Camera Controls offers, by its stable id; empty: the source has no
  /// controls that ConvoLab can set (files, patterns, PipeWire cameras).
  std::string controlsDevice{};
};

/// One input. Used by exactly one thread at a time (the capture thread), so no locking inside.
class FrameSource {
 public:
  virtual ~FrameSource() = default;

  virtual SourceTraits traits() const = 0;
  /// For people: "HD Webcam (/dev/video0)", "clip.mp4", "Test pattern".
  virtual std::string description() const = 0;
  /// Said while it opens, before open() (e.g. a still's size from its header: "9000×9000 (81 MP)"); empty:
  /// nothing worth saying.
  virtual std::string loadingDetail() const { return {}; }
  /// Opens, or reopens after a failure (the capture thread close()s first). Does nothing on a source that
  /// is already open, so a source opened off the GUI thread can be handed to the capture thread. Throws
  /// SourceError.
  virtual void open() = 0;
  virtual void close() = 0;
  /// Reads the next frame (RGB8). Returns false, or throws SourceError with the reason, when the source
  /// failed (e.g. camera unplugged); the capture thread then closes it and retries open() where
  /// canReconnect(), and otherwise reports it failed (a file that cannot be decoded further would only
  /// fail again). File sources loop at their end instead.
  virtual bool read(Frame& out) = 0;
  /// True when read() itself waits for the next frame (cameras); otherwise the capture thread paces
  /// frames by their Frame::timestampMs (video files), or at nominalFps() where they have none.
  virtual bool selfPaced() const { return false; }
  /// Frames per second the source is meant to deliver (camera: negotiated; video: from the file).
  virtual double nominalFps() const = 0;
  /// What is actually delivered, e.g. "1280×720 MJPG @ 30 fps"; valid after open().
  virtual std::string deliveredMode() const = 0;
  /// Whether "step one frame" while paused means anything (video files, test pattern, cameras: the next
  /// frame).
  virtual bool canStep() const { return false; }
  /// Whether every read() delivers the same picture (a still image, a one-frame clip once read to its end):
  /// such a source has no frame rate, drops or frame budget to show, and a preview of it never goes stale.
  /// May change after a read().
  virtual bool deliversStill() const { return false; }
  /// Whether retrying open() after a failure can help (cameras: yes; a missing file: no).
  virtual bool canReconnect() const { return false; }
  /// Frames in the file (video files; 0 when unknown or not a file). Valid after open().
  virtual std::int64_t frameCount() const { return 0; }
  /// The file position (0-based) of the frame read() delivered last (video files; -1 otherwise).
  virtual std::int64_t position() const { return -1; }
  /// Moves to frame `frame` (clamped) so that the next read() delivers it; only where frameCount() > 0.
  virtual void seek(std::int64_t /*frame*/) {}
  /// How long the source's timeline lasts, in ms (video files; 0: no timeline, or unknown). Valid after
  /// open(). Where it is > 0, seekMs() seeks and frames carry their Frame::timestampMs.
  virtual double durationMs() const { return 0; }
  /// Moves so that the next read() delivers the frame on screen at `ms` (clamped to the timeline).
  virtual void seekMs(double /*ms*/) {}

  /// Where read() allocates frames from now on (the pipeline's staging cell); unset: the heap. Called before
  /// the source is handed to its capture thread.
  void setStaging(std::shared_ptr<const StagingStorage> staging) { m_staging = std::move(staging); }

 protected:
  /// The storage provider for the source's ImagePool: follows the staging cell once it is set.
  StorageProvider stagingProvider() {
    return [this] { return m_staging ? m_staging->get() : nullptr; };
  }

 private:
  std::shared_ptr<const StagingStorage> m_staging;
};

}  // namespace convolab::capture
