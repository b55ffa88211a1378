// SPDX-License-Identifier: MIT
// PipeWire camera source: a PipeWire video source node (a camera through libcamera or the portal, another
// app's virtual camera) as a frame source, by its node.name: spec "pipewire:NAME". Frames arrive on the
// PipeWire thread, are converted to RGB there into the pipeline's staging (ImagePool), and read() takes the
// newest. A node that goes away is reported as absent, and the capture thread's retries find it again by its
// name.
#pragma once

#include <memory>
#include <string>

#include "frame_source.hpp"

namespace convolab::capture {

/// "pipewire:NAME" → NAME; empty when `spec` is no PipeWire spec.
std::string pipewireNodeName(const std::string& spec);

class PipeWireCameraSource : public FrameSource {
 public:
  explicit PipeWireCameraSource(std::string nodeName);
  ~PipeWireCameraSource() override;

  SourceTraits traits() const override;
  std::string description() const override { return "PipeWire camera " + m_nodeName; }
  /// Throws SourceAbsent when no daemon is running, and SourceError when one accepts the connection but does
  /// not answer within pipewire::kAnswerTimeout. An idle node is suspended first, and a program's camera is
  /// driven by this reader (issue 34.2); an absent one is waited for by read().
  void open() override;
  void close() override;
  /// Waits (at most 2 s) for the next frame; throws SourceAbsent when the node went away.
  bool read(Frame& out) override;
  bool selfPaced() const override { return true; }
  double nominalFps() const override;
  std::string deliveredMode() const override;
  /// Whether this reader starts the camera's graph cycles: true for a program's camera once streaming, false
  /// for a device's, which keeps its own clock (issue 34.2, docs/RELIABILITY.md).
  bool drivesTheCamera() const;
  bool canStep() const override { return true; }
  bool canReconnect() const override { return true; }

 private:
  struct Stream;
  std::string m_nodeName;
  std::unique_ptr<Stream> m_stream;
  std::int64_t m_index = 0;
};

}  // namespace convolab::capture
