// SPDX-License-Identifier: MIT
// A private PipeWire for one test: `pipewire` and `wireplumber` started in the XDG_RUNTIME_DIR and session
// bus that run_with_private_pipewire.sh made, killed at the end. It can be killed and restarted mid-test.
#pragma once

#include <sys/types.h>
#include <string>

namespace convolab::vcam::test {

class PrivatePipeWire {
 public:
  PrivatePipeWire() = default;
  ~PrivatePipeWire() { stop(); }
  PrivatePipeWire(const PrivatePipeWire&) = delete;
  PrivatePipeWire& operator=(const PrivatePipeWire&) = delete;

  /// Why PipeWire cannot run here (a tool is missing, no private runtime dir), or empty when it can.
  static std::string unavailableReason();

  /// Starts both daemons and waits (at most 5 s) until the daemon accepts connections. False if it did not.
  bool start();
  /// Kills both daemons at once (SIGKILL: a crash, not a clean exit) and reaps them.
  void kill();
  void stop() { kill(); }

 private:
  pid_t m_pipewire = -1;
  pid_t m_wireplumber = -1;
};

}  // namespace convolab::vcam::test
