// SPDX-License-Identifier: MIT
#include "vcam/publisher_status.hpp"

#include <cmath>
#include <cstdio>

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

namespace {
// No daemon: nothing is published, so no viewer, rate or drop counts (issue 33.6: "0 viewers, 0 fps,
// 0 dropped" read as a published camera). The system's words ("Host is down") go to the tooltip.
output::SinkFigures unpublishedFigures(const PublisherStatus& s) {
  output::SinkFigures f;
  f.key = "virtual_camera";
  const std::string why = s.message.empty() ? "PipeWire is not running" : s.message;
  f.values = {{"viewers", std::int64_t{0}}, {"fps", 0.0},          {"sent", s.sent}, {"dropped", s.dropped},
              {"format", std::string()},    {"not_published", why}};
  f.line = "virtual camera not published: " + why + " (retrying)";
  f.summary = "not published: " + why;
  f.detail = "No virtual camera is published until PipeWire answers; retrying" +
             (s.cause.empty() ? std::string(".") : " (" + s.cause + ").");
  return f;
}
}  // namespace

output::SinkFigures publisherFigures(const PublisherStatus& s) {
  if (s.state == PublisherState::NoDaemon) return unpublishedFigures(s);
  output::SinkFigures f;
  f.key = "virtual_camera";
  f.values = {{"viewers", std::int64_t{s.viewers}},
              {"fps", std::round(s.fps * 1000.0) / 1000.0},
              {"sent", s.sent},
              {"dropped", s.dropped},
              {"format", s.format}};
  char line[200];
  std::snprintf(line, sizeof line, "virtual camera %d viewer%s, %.1f fps, %llu dropped%s%s", s.viewers,
                s.viewers == 1 ? "" : "s", s.fps, static_cast<unsigned long long>(s.dropped),
                s.format.empty() ? "" : ", ", s.format.c_str());
  f.line = line;
  // The status bar's words, so the narrow panel shows them whole.
  f.summary = (s.viewers == 1 ? std::string("1 viewer") : std::to_string(s.viewers) + " viewers") + ", " +
              std::to_string(static_cast<long>(std::lround(s.fps))) + " fps, " + std::to_string(s.dropped) +
              " dropped";
  f.detail = s.format.empty() ? std::string() : "Consumers read " + s.format;
  return f;
}

}  // namespace convolab::vcam
