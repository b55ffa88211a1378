// SPDX-License-Identifier: MIT
// SinkFigures: what an output sink reports of itself, for the statistics panel, Copy and --stats. The
// statistics hold a list of these and know no sink by name.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace convolab::output {

using FigureValue = std::variant<std::int64_t, std::uint64_t, double, std::string>;

struct SinkFigures {
  std::string key;  ///< its --stats key and the panel row it fills: "virtual_camera", "loopback", "recording"
  std::string
      within;  ///< the key whose --stats object holds this one ("loopback" in "virtual_camera"); or none
  std::vector<std::pair<std::string, FigureValue>> values;  ///< --stats fields, in order
  std::string line;     ///< one line of the text report: "loopback   /dev/video7: 290 written, 3 dropped"
  std::string summary;  ///< the panel row's text ("1 viewer, 30 fps, 4 dropped"); empty: no row
  std::string detail;   ///< the panel row's tooltip
};

/// The figures under `key` in `list`, or null.
const SinkFigures* findFigures(const std::vector<SinkFigures>& list, const std::string& key);

}  // namespace convolab::output
