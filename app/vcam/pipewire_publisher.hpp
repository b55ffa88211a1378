// SPDX-License-Identifier: MIT
// PipeWire publisher: the virtual camera. A PipeWire video source node (media.class Video/Source) that sends
// the newest frame it was given to whoever reads it (browsers, OBS, GStreamer's pipewiresrc). It runs its own
// PipeWire thread: publish() never waits on PipeWire or on a consumer, and a missing, dying or restarting
// daemon only changes status() until it is back.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "convolab/image.hpp"
#include "output/output_sink.hpp"
#include "vcam/publisher_status.hpp"

namespace convolab::vcam {

struct PublisherOptions {
  std::string nodeName = "convolab";                ///< what consumers name as target-object
  std::string description = "ConvoLab (filtered)";  ///< what people see in a camera list
  std::chrono::milliseconds retryInterval{1000};    ///< how often a missing daemon is looked for
};

class PipeWirePublisher : public output::OutputSink {
 public:
  /// Starts the PipeWire thread and connects (or keeps trying to). The node appears with the first frame,
  /// whose size it offers.
  explicit PipeWirePublisher(PublisherOptions options = {});
  /// Removes the node and stops the thread.
  ~PipeWirePublisher() override;
  PipeWirePublisher(const PipeWirePublisher&) = delete;
  PipeWirePublisher& operator=(const PipeWirePublisher&) = delete;

  /// Hands over the newest frame (shared, not copied; never modified afterwards). Any thread; returns at
  /// once. A frame of a new size renegotiates with the consumers.
  void publish(std::shared_ptr<const Image> frame);
  /// OutputSink: publish() of the frame's image (the output door calls it on the processing thread).
  void push(const output::OutputFrame& frame) override { publish(frame.image); }
  /// "virtual_camera": viewers, fps, sent, dropped, format (publisherFigures of status()).
  std::vector<output::SinkFigures> figures() const override;

  PublisherStatus status() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

}  // namespace convolab::vcam
