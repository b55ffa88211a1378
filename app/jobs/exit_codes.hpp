// SPDX-License-Identifier: MIT
// Exit codes of ConvoLab's programs (docs/CLI.md): the CLI maps every failure to one of these in main(); the
// app uses kExitInterrupted after a stop by signal.
#pragma once

namespace convolab::jobs {

enum ExitCode : int {
  kExitOk = 0,
  kExitInternal = 1,
  kExitUsage = 2,
  kExitBadInput = 3,
  kExitDevice = 4,
  kExitInterrupted = 130,  ///< stopped by SIGINT/SIGTERM (128 + SIGINT, what shells report for Ctrl+C)
};

}  // namespace convolab::jobs
