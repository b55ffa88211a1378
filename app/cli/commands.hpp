// SPDX-License-Identifier: MIT
// The subcommands of convolab-cli / convolab-bench: each adds itself to the CLI11 app and records its work.
#pragma once

#include <functional>
#include <string>

#include "jobs/exit_codes.hpp"

namespace CLI {
class App;
}

namespace convolab::cli {

/// Exit codes (docs/CLI.md, jobs/exit_codes.hpp). Errors are mapped to these in one place: main().
using enum jobs::ExitCode;

/// The work of the subcommand the command line chose; main() runs it inside its error mapping.
/// Returns the exit code; failures throw (convolab::Error and friends) instead.
using Action = std::function<int()>;

#ifdef CONVOLAB_CLI_APPLY
void addApplyCommand(CLI::App& app, Action& action);
#endif
void addBenchCommand(CLI::App& app, Action& action);
void addDevicesCommand(CLI::App& app, Action& action);
void addStrategiesCommand(CLI::App& app, Action& action);

/// Prints "<program>: note: <message>" on stderr (engine notices such as fallbacks).
void printNote(const std::string& message);

}  // namespace convolab::cli
