// SPDX-License-Identifier: MIT
// convolab-measure: work the core runs in a process of its own, started by the core and not meant to be run
// by hand: auto's measurement (strategies/auto_measure_process.hpp), and with --trial a custom OpenCL step's
// trial (convolab/custom_trial.hpp), and with --first-launch a new kernel's first launch, which compiles its
// work-group function on PoCL (first_launch_in_child.hpp).
#include <cstring>

#include "convolab/custom_trial.hpp"
#include "first_launch_in_child.hpp"
#include "strategies/auto_measure_process.hpp"

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--trial") == 0) return convolab::runTrialChild(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "--first-launch") == 0)
    return convolab::runFirstLaunchChild(argc, argv);
  return convolab::auto_detail::runMeasureChild(argc, argv);
}
