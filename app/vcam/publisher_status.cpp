// SPDX-License-Identifier: MIT
#include "vcam/publisher_status.hpp"

#include <cmath>

namespace convolab::vcam {

std::string statusLine(const PublisherStatus& s) {
  const std::string prefix = "Virtual camera: ";
  switch (s.state) {
    case PublisherState::Connecting:
      return prefix + "starting…";
    case PublisherState::NoDaemon:
      return prefix + (s.message.empty() ? "PipeWire is not running" : s.message) + " — retrying";
    case PublisherState::Waiting:
    case PublisherState::Streaming:
      break;
  }
  if (s.viewers == 0) return prefix + "no viewer";
  return prefix + std::to_string(s.viewers) + (s.viewers == 1 ? " viewer, " : " viewers, ") +
         std::to_string(static_cast<long>(std::lround(s.fps))) + " fps, " + std::to_string(s.dropped) +
         " dropped";
}

}  // namespace convolab::vcam
