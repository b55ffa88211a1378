// SPDX-License-Identifier: MIT
// Link watcher: counts a node's viewers by watching the graph's links (one link per consumer reading it).
// Used on the PipeWire thread only.
#pragma once

#include <pipewire/pipewire.h>
#include <cstdint>
#include <functional>
#include <map>

namespace convolab::vcam {

class LinkWatcher {
 public:
  LinkWatcher() = default;
  ~LinkWatcher() { detach(); }
  LinkWatcher(const LinkWatcher&) = delete;
  LinkWatcher& operator=(const LinkWatcher&) = delete;

  /// Watches the graph of `core` (a fresh registry); forgets a previous one. `changed` is called after each
  /// link appears or goes.
  void attach(pw_core* core, std::function<void()> changed);
  void detach();
  /// Links whose output is node `nodeId`.
  int linksFrom(std::uint32_t nodeId) const;

 private:
  static void onGlobal(void* data, std::uint32_t id, std::uint32_t permissions, const char* type,
                       std::uint32_t version, const spa_dict* props);
  static void onGlobalRemove(void* data, std::uint32_t id);

  pw_registry* m_registry = nullptr;
  spa_hook m_listener{};
  std::map<std::uint32_t, std::uint32_t> m_outputNodeOfLink;
  std::function<void()> m_changed;
};

}  // namespace convolab::vcam
