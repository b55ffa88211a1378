// SPDX-License-Identifier: MIT
// libFuzzer entry: any bytes into the JSON and text filter parsers must either parse into a filter that
// round-trips, or throw convolab::Error — never crash, hang, leak or invoke undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const convolab::FilterSet f = convolab::parseFilterJson(text, "fuzz.json");
    if (!(convolab::parseFilterJson(convolab::toFilterJson(f)) == f)) std::abort();
  } catch (const convolab::Error&) {
  }
  try {
    const convolab::FilterSet f = convolab::parseFilterText(text, convolab::FilterSet(), "fuzz.txt");
    if (!(convolab::parseFilterText(convolab::toFilterText(f), f) == f)) std::abort();
  } catch (const convolab::Error&) {
  }
  return 0;
}
