// SPDX-License-Identifier: MIT
// PipeWire cameras present now: the Video/Source nodes of the session's PipeWire, asked for once with a short
// registry round-trip, so File ▸ Camera can list them beside the V4L2 devices.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace convolab::pipewire {

/// The node.name ConvoLab's own virtual camera publishes: never listed as a camera to open (the app would
/// film its own output).
inline constexpr const char* kOwnVirtualCameraNode = "convolab";

struct PipeWireNode {
  std::string name;         ///< node.name: what "pipewire:NAME" opens it by
  std::string description;  ///< node.description, or node.nick; may be empty
};

/// The PipeWire video sources present now, sorted by name, except our own virtual camera and the nodes
/// PipeWire makes for V4L2 devices (listed already as /dev/videoN). Empty, never blocking longer than
/// `timeout`, when no daemon answers.
std::vector<PipeWireNode> listPipeWireCameras(
    std::chrono::milliseconds timeout = std::chrono::milliseconds(200));

}  // namespace convolab::pipewire
