// SPDX-License-Identifier: MIT
// Entry point of convolab-cli and convolab-bench: parses the command line and maps every error to an exit
// code.
#include <CL/opencl.hpp>
#include <CLI/CLI.hpp>
#include <iostream>
#include <new>
#include <opencv2/core.hpp>

#include "commands.hpp"
#include "convolab/error.hpp"
#include "convolab/registry.hpp"
#include "jobs/signal_guard.hpp"

#ifndef CONVOLAB_PROGRAM
#define CONVOLAB_PROGRAM "convolab-cli"
#endif

namespace convolab::cli {

void printNote(const std::string& message) {
  std::cerr << CONVOLAB_PROGRAM ": note: " << message << "\n";
}

namespace {

int fail(int code, const std::string& message) {
  std::cerr << CONVOLAB_PROGRAM ": error: " << message << "\n";
  return code;
}

int exitCodeOf(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage:
      return kExitUsage;
    case ErrorKind::BadInput:
      return kExitBadInput;
    case ErrorKind::Device:
      return kExitDevice;
  }
  return kExitInternal;
}

}  // namespace
}  // namespace convolab::cli

int main(int argc, char** argv) {
  using namespace convolab::cli;
  // SIGINT, SIGTERM and SIGHUP are blocked in every thread from here on and taken by one sigwait() thread
  // (jobs/signal_guard.hpp). In apply they set the stop flag from the first line on: a signal while the
  // filter loads or the device opens is then a stop (exit 130, a message) rather than the default action
  // (exit 143, no message). Elsewhere (bench, devices, strategies) they end the program at once, with a
  // message and no temporary left.
#ifdef CONVOLAB_CLI_APPLY
  convolab::jobs::SignalGuard signals;
#endif
  convolab::jobs::SignalGuard::takeSignals("\n" CONVOLAB_PROGRAM ": stopped by a signal\n");
  CLI::App app{"ConvoLab: per-channel K x K convolution filters on RGB images through OpenCL.",
               CONVOLAB_PROGRAM};
  app.set_version_flag("--version", std::string(CONVOLAB_PROGRAM " " CONVOLAB_VERSION));
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 ok, 2 usage, 3 bad input (image, filter or output path), 4 OpenCL/device failure.");

  Action action;
#ifdef CONVOLAB_CLI_APPLY
  addApplyCommand(app, action);
#endif
#ifdef CONVOLAB_CLI_BENCH  // off in the sanitizer build (app/cli/CMakeLists.txt)
  addBenchCommand(app, action);
#endif
  addDevicesCommand(app, action);
  addStrategiesCommand(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints help/version (rc 0) or the parse error
    return rc == 0 ? kExitOk : kExitUsage;
  }
  if (!action) return fail(kExitInternal, "no subcommand ran");
#ifdef CONVOLAB_CLI_APPLY
  if (!app.got_subcommand("apply")) {  // bench, devices, strategies do not poll: Ctrl+C ends them at once
    signals.restore();
    if (convolab::jobs::SignalGuard::stopRequested()) return kExitInterrupted;
  }
#endif

  // The one place where failures become messages and exit codes. auto's background work stops before main
  // returns (a driver compiling for it while static destructors run can crash).
  struct StopBackgroundWork {
    ~StopBackgroundWork() { convolab::stopAutoMeasurements(); }
  } stopBackgroundWork;
#ifdef CONVOLAB_CLI_APPLY
  // The handlers stay until the process exits: a signal during teardown (auto's background work, the
  // OpenCL drivers' destructors) finds the work done and reported, and changes neither the files nor the exit
  // code; a second one still quits at once.
  struct AfterTheWork {
    convolab::jobs::SignalGuard& signals;
    ~AfterTheWork() {
      convolab::jobs::SignalGuard::setMessage(
          "\n" CONVOLAB_PROGRAM
          ": the work is done and reported; finishing (signal again to quit at once)\n");
      signals.keepInstalled();
    }
  } afterTheWork{signals};
#endif
  try {
    return action();
  } catch (const convolab::Error& e) {
    return fail(exitCodeOf(e.kind()), e.what());
  } catch (const cl::Error& e) {
    return fail(kExitDevice, convolab::ClError(e.what(), e.err()).what());
  } catch (const CLI::Error& e) {
    return fail(kExitUsage, e.what());
  } catch (const cv::Exception& e) {
    return fail(kExitInternal, std::string("OpenCV: ") + e.what());
  } catch (const std::bad_alloc&) {
    return fail(kExitInternal, "out of memory");
  } catch (const std::exception& e) {
    return fail(kExitInternal, e.what());
  }
}
