// SPDX-License-Identifier: MIT
#include "pipewire_node_list.hpp"

#include <pipewire/pipewire.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace convolab::capture {

namespace {

// One registry round-trip on a private loop: globals arrive, then the core's "done" for our sync.
struct Listing {
  pw_main_loop* loop = nullptr;
  pw_core* core = nullptr;
  int syncSeq = -1;
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
  static void onDone(void* data, std::uint32_t id, int seq) {
    auto* self = static_cast<Listing*>(data);
    if (id == PW_ID_CORE && seq == self->syncSeq) pw_main_loop_quit(self->loop);
  }
  static void onError(void* data, std::uint32_t id, int, int, const char*) {
    if (id == PW_ID_CORE) pw_main_loop_quit(static_cast<Listing*>(data)->loop);
  }
  static void onTimeout(void* data, std::uint64_t) { pw_main_loop_quit(static_cast<Listing*>(data)->loop); }
};

}  // namespace

std::vector<PipeWireNode> listPipeWireCameras(std::chrono::milliseconds timeout) {
  static std::once_flag initialised;
  std::call_once(initialised, [] { pw_init(nullptr, nullptr); });

  Listing listing;
  listing.loop = pw_main_loop_new(nullptr);
  if (listing.loop == nullptr) return {};
  pw_loop* loop = pw_main_loop_get_loop(listing.loop);
  pw_context* context = pw_context_new(loop, nullptr, 0);
  // No daemon: connect fails at once (the socket is missing), so this costs next to nothing.
  listing.core = context ? pw_context_connect(context, nullptr, 0) : nullptr;
  if (listing.core != nullptr) {
    // Set field by field: designated initialisers would leave the others to a -Wextra warning each.
    pw_registry_events registryEvents{};
    registryEvents.version = PW_VERSION_REGISTRY_EVENTS;
    registryEvents.global = Listing::onGlobal;
    pw_core_events coreEvents{};
    coreEvents.version = PW_VERSION_CORE_EVENTS;
    coreEvents.done = Listing::onDone;
    coreEvents.error = Listing::onError;
    spa_hook registryListener{}, coreListener{};
    pw_registry* registry = pw_core_get_registry(listing.core, PW_VERSION_REGISTRY, 0);
    pw_registry_add_listener(registry, &registryListener, &registryEvents, &listing);
    pw_core_add_listener(listing.core, &coreListener, &coreEvents, &listing);
    listing.syncSeq = pw_core_sync(listing.core, PW_ID_CORE, 0);
    // A daemon that accepts but never answers (hung, stopped) costs at most `timeout`.
    spa_source* timer = pw_loop_add_timer(loop, Listing::onTimeout, &listing);
    const auto ns = std::chrono::nanoseconds(timeout).count();
    timespec value{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
    pw_loop_update_timer(loop, timer, &value, nullptr, false);
    pw_main_loop_run(listing.loop);
    pw_loop_destroy_source(loop, timer);
    spa_hook_remove(&coreListener);
    spa_hook_remove(&registryListener);
    pw_proxy_destroy(reinterpret_cast<pw_proxy*>(registry));
    pw_core_disconnect(listing.core);
  }
  if (context) pw_context_destroy(context);
  pw_main_loop_destroy(listing.loop);
  std::sort(listing.nodes.begin(), listing.nodes.end(),
            [](const PipeWireNode& a, const PipeWireNode& b) { return a.name < b.name; });
  return listing.nodes;
}

}  // namespace convolab::capture
