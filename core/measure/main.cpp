// SPDX-License-Identifier: MIT
// convolab-measure: auto's measurement in a process of its own (strategies/auto_measure_process.hpp), started
// by auto's background jobs; not meant to be run by hand.
#include "strategies/auto_measure_process.hpp"

int main(int argc, char** argv) {
  return convolab::auto_detail::runMeasureChild(argc, argv);
}
