// SPDX-License-Identifier: MIT
// Idle node reset. A camera node that another program read and left stays idle with its buffers still counted
// as out with the consumer that left; a producer that waits for a buffer back before it sends again
// (GStreamer's pipewiresink mode=provide) then sends nothing to the next consumer, until the node is
// suspended, which WirePlumber does only after 5 s of idleness (and never while a reader keeps retrying).
// Suspending an idle node before linking to it makes it start afresh, as for its first consumer; the lookup
// also says whether the node is a device's (a camera through v4l2 or libcamera, with its own clock) or a
// program's, which the reader then drives (PipeWireCameraSource, docs/RELIABILITY.md 34.2).
#pragma once

#include <chrono>
#include <string>

#include "pipewire/connection.hpp"

namespace convolab::pipewire {

enum class NodeLookup {
  Found,     ///< the node is there (and was suspended if it was idle)
  Absent,    ///< no node of that name now
  NoAnswer,  ///< the daemon did not answer in time
};

struct NodeFound {
  NodeLookup lookup = NodeLookup::NoAnswer;
  bool fromDevice = false;  ///< made by a device (its properties name a device.id), not by a program's stream
};

/// Finds the node named `name` on `connection` (its core connected, its loop locked by the caller, never on
/// the loop's thread) and suspends it when it is idle; a running node (another consumer reads it) is left
/// alone. Each of its round trips waits at most `timeout`.
NodeFound suspendIfIdle(Connection& connection, const std::string& name,
                        std::chrono::milliseconds timeout = kAnswerTimeout);

}  // namespace convolab::pipewire
