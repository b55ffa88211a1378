// SPDX-License-Identifier: MIT
#include "pipewire/node_list.hpp"

#include <pipewire/pipewire.h>

#include <algorithm>
#include <cstring>

#include "pipewire/connection.hpp"

namespace convolab::pipewire {

namespace {

// The Video/Source nodes among the registry's globals, collected on the connection's thread.
struct Listing {
  std::vector<PipeWireNode> nodes;

  static void onGlobal(void* data, std::uint32_t, std::uint32_t, const char* type, std::uint32_t,
                       const spa_dict* props) {
    if (std::strcmp(type, PW_TYPE_INTERFACE_Node) != 0 || props == nullptr) return;
    const char* mediaClass = spa_dict_lookup(props, PW_KEY_MEDIA_CLASS);
    const char* name = spa_dict_lookup(props, PW_KEY_NODE_NAME);
    if (mediaClass == nullptr || name == nullptr || std::strcmp(mediaClass, "Video/Source") != 0) return;
    if (std::strcmp(name, kOwnVirtualCameraNode) == 0) return;
    // WirePlumber's V4L2 monitor republishes each /dev/videoN: that device is listed already, opened
    // directly.
    if (const char* path = spa_dict_lookup(props, PW_KEY_OBJECT_PATH);
        path && std::strncmp(path, "v4l2:", 5) == 0)
      return;
    const char* description = spa_dict_lookup(props, PW_KEY_NODE_DESCRIPTION);
    if (description == nullptr) description = spa_dict_lookup(props, PW_KEY_NODE_NICK);
    static_cast<Listing*>(data)->nodes.push_back({name, description ? description : ""});
  }
};

}  // namespace

std::vector<PipeWireNode> listPipeWireCameras(std::chrono::milliseconds timeout) {
  Connection connection("convolab-pw-list");
  Listing listing;
  connection.start();
  connection.lock();
  // No daemon: connect fails at once (the socket is missing), so this costs next to nothing. A daemon that
  // accepts but never answers costs at most `timeout`.
  if (connection.connectCore()) {
    pw_registry_events events{};
    events.version = PW_VERSION_REGISTRY_EVENTS;
    events.global = Listing::onGlobal;
    spa_hook listener{};
    pw_registry* registry = pw_core_get_registry(connection.core(), PW_VERSION_REGISTRY, 0);
    pw_registry_add_listener(registry, &listener, &events, &listing);
    connection.roundTrip(timeout);
    spa_hook_remove(&listener);
    pw_proxy_destroy(reinterpret_cast<pw_proxy*>(registry));
  }
  connection.unlock();
  std::sort(listing.nodes.begin(), listing.nodes.end(),
            [](const PipeWireNode& a, const PipeWireNode& b) { return a.name < b.name; });
  return listing.nodes;
}

}  // namespace convolab::pipewire
