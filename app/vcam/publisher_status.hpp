// SPDX-License-Identifier: MIT
// What the virtual camera is doing, for the status bar, the statistics panel and the tests.
#pragma once

#include <cstdint>
#include <string>

#include "output/sink_figures.hpp"

namespace convolab::vcam {

enum class PublisherState {
  Connecting,  ///< looking for the PipeWire daemon, or waiting for the first frame to know the size
  NoDaemon,    ///< no daemon answered (missing, died or restarting): retrying every retry interval
  Waiting,     ///< the node is published; no consumer is reading
  Streaming,   ///< at least one consumer is reading
};

struct PublisherStatus {
  PublisherState state = PublisherState::Connecting;
  int viewers = 0;            ///< links from our node to consumers
  double fps = 0;             ///< frames sent in the last second
  std::uint64_t sent = 0;     ///< frames handed to PipeWire
  std::uint64_t dropped = 0;  ///< frames published while streaming that no consumer got (it was slow)
  std::uint32_t nodeId = 0;   ///< our node's id in the graph; 0 while there is none
  std::string format;         ///< the format consumers chose ("YUY2 1920×1080"), empty before one did
  std::string message;        ///< why there is no node, for people; empty when all is well
  std::string cause;          ///< the system's words for it ("Host is down"): for a tooltip, not the line
};

/// "Virtual camera: 1 viewer, 30 fps, 0 dropped", "Virtual camera: no viewer", "Virtual camera: PipeWire is
/// not running — retrying".
std::string statusLine(const PublisherStatus& status);

/// The virtual camera's figures for the statistics: key "virtual_camera" with viewers, fps, sent, dropped and
/// format; the panel's "1 viewer, 30 fps, 4 dropped" with the format as its tooltip. With no daemon the panel
/// says "not published: PipeWire is not running" (no viewer counts that read as a published camera), and
/// --stats adds "not_published" with the reason.
output::SinkFigures publisherFigures(const PublisherStatus& status);

}  // namespace convolab::vcam
