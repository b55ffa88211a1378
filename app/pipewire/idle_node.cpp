// SPDX-License-Identifier: MIT
#include "pipewire/idle_node.hpp"

#include <spa/node/command.h>

#include <cstring>
#include <optional>

namespace convolab::pipewire {

namespace {

// The node's id from the registry, then its state from the bound node's info.
struct Lookup {
  const std::string* name = nullptr;
  pw_thread_loop* loop = nullptr;
  std::optional<std::uint32_t> id;
  bool fromDevice = false;
  std::optional<pw_node_state> state;

  static void onGlobal(void* data, std::uint32_t id, std::uint32_t, const char* type, std::uint32_t,
                       const spa_dict* props) {
    auto* self = static_cast<Lookup*>(data);
    if (std::strcmp(type, PW_TYPE_INTERFACE_Node) != 0 || props == nullptr) return;
    const char* name = spa_dict_lookup(props, PW_KEY_NODE_NAME);
    if (name == nullptr || *self->name != name) return;
    self->id = id;
    self->fromDevice = spa_dict_lookup(props, PW_KEY_DEVICE_ID) != nullptr;
  }
  static void onInfo(void* data, const pw_node_info* info) {
    auto* self = static_cast<Lookup*>(data);
    self->state = info->state;
    pw_thread_loop_signal(self->loop, false);
  }
};

}  // namespace

NodeFound suspendIfIdle(Connection& connection, const std::string& name, std::chrono::milliseconds timeout) {
  Lookup lookup;
  lookup.name = &name;
  lookup.loop = connection.threadLoop();
  pw_registry_events registryEvents{};
  registryEvents.version = PW_VERSION_REGISTRY_EVENTS;
  registryEvents.global = &Lookup::onGlobal;
  spa_hook registryListener{};
  pw_registry* registry = pw_core_get_registry(connection.core(), PW_VERSION_REGISTRY, 0);
  pw_registry_add_listener(registry, &registryListener, &registryEvents, &lookup);
  NodeLookup result = NodeLookup::NoAnswer;
  if (connection.roundTrip(timeout)) {
    result = lookup.id ? NodeLookup::Found : NodeLookup::Absent;
  }
  if (result == NodeLookup::Found) {
    auto* node = static_cast<pw_node*>(
        pw_registry_bind(registry, *lookup.id, PW_TYPE_INTERFACE_Node, PW_VERSION_NODE, 0));
    pw_node_events nodeEvents{};
    nodeEvents.version = PW_VERSION_NODE_EVENTS;
    nodeEvents.info = &Lookup::onInfo;
    spa_hook nodeListener{};
    pw_node_add_listener(node, &nodeListener, &nodeEvents, &lookup);
    if (!connection.roundTrip(timeout)) {
      result = NodeLookup::NoAnswer;
    } else if (lookup.state == PW_NODE_STATE_IDLE) {
      const spa_command suspend = SPA_NODE_COMMAND_INIT(SPA_NODE_COMMAND_Suspend);
      pw_node_send_command(node, &suspend);
      // Linked before the node has suspended, it may stall as before: wait for its new state.
      timespec deadline{};
      pw_thread_loop_get_time(connection.threadLoop(), &deadline, std::chrono::nanoseconds(timeout).count());
      while (lookup.state != PW_NODE_STATE_SUSPENDED)
        if (pw_thread_loop_timed_wait_full(connection.threadLoop(), &deadline) != 0) break;
    }
    spa_hook_remove(&nodeListener);
    pw_proxy_destroy(reinterpret_cast<pw_proxy*>(node));
  }
  spa_hook_remove(&registryListener);
  pw_proxy_destroy(reinterpret_cast<pw_proxy*>(registry));
  return {result, lookup.fromDevice};
}

}  // namespace convolab::pipewire
