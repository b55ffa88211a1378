// SPDX-License-Identifier: MIT
#include "vcam/link_watcher.hpp"

#include <cstdlib>
#include <cstring>
#include <utility>

namespace convolab::vcam {

void LinkWatcher::attach(pw_core* core, std::function<void()> changed) {
  detach();
  m_changed = std::move(changed);
  static const pw_registry_events events = [] {
    pw_registry_events e{};
    e.version = PW_VERSION_REGISTRY_EVENTS;
    e.global = &LinkWatcher::onGlobal;
    e.global_remove = &LinkWatcher::onGlobalRemove;
    return e;
  }();
  m_registry = pw_core_get_registry(core, PW_VERSION_REGISTRY, 0);
  pw_registry_add_listener(m_registry, &m_listener, &events, this);
}

void LinkWatcher::detach() {
  if (m_registry) {
    spa_hook_remove(&m_listener);
    pw_proxy_destroy(reinterpret_cast<pw_proxy*>(m_registry));
    m_registry = nullptr;
  }
  m_outputNodeOfLink.clear();
}

int LinkWatcher::linksFrom(std::uint32_t nodeId) const {
  int n = 0;
  for (const auto& [link, node] : m_outputNodeOfLink) n += node == nodeId;
  return n;
}

void LinkWatcher::onGlobal(void* data, std::uint32_t id, std::uint32_t, const char* type, std::uint32_t,
                           const spa_dict* props) {
  if (std::strcmp(type, PW_TYPE_INTERFACE_Link) != 0 || !props) return;
  const char* output = spa_dict_lookup(props, PW_KEY_LINK_OUTPUT_NODE);
  if (!output) return;
  auto* self = static_cast<LinkWatcher*>(data);
  self->m_outputNodeOfLink[id] = static_cast<std::uint32_t>(std::strtoul(output, nullptr, 10));
  if (self->m_changed) self->m_changed();
}

void LinkWatcher::onGlobalRemove(void* data, std::uint32_t id) {
  auto* self = static_cast<LinkWatcher*>(data);
  if (self->m_outputNodeOfLink.erase(id) && self->m_changed) self->m_changed();
}

}  // namespace convolab::vcam
