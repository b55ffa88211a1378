// SPDX-License-Identifier: MIT
// `strategies`: the strategy registry, one line per entry (name, then description).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "convolab/context.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/registry.hpp"

namespace convolab::cli {
namespace {

struct StrategiesOptions {
  bool check = false;
  std::string device;
  std::string filter;
};

int runStrategies(const StrategiesOptions& o) {
  size_t width = 0;
  for (const auto& e : strategyRegistry()) width = std::max(width, e.name.size());
  std::unique_ptr<Context> ctx;
  FilterSet filter;
  if (o.check) {
    if (!o.filter.empty()) filter = loadFilterFile(o.filter);
    ctx = std::make_unique<Context>(o.device);
    std::cout << "# on " << ctx->device().describe() << ", filter "
              << (o.filter.empty() ? std::string("identity") : o.filter) << "\n";
  }
  for (const auto& e : strategyRegistry()) {
    std::cout << e.name << std::string(width + 2 - e.name.size(), ' ') << e.description;
    if (ctx) {
      const auto reason = e.create()->unsupportedReason(*ctx, filter);
      std::cout << (reason ? "  [unavailable: " + *reason + "]" : std::string("  [available]"));
    }
    std::cout << "\n";
  }
  return kExitOk;
}

}  // namespace

void addStrategiesCommand(CLI::App& app, Action& action) {
  auto o = std::make_shared<StrategiesOptions>();
  CLI::App* cmd =
      app.add_subcommand("strategies", "List the convolution strategies (name, then description).");
  cmd->add_flag("--check", o->check, "Also say whether each can run on the device (and filter)");
  cmd->add_option("-d,--device", o->device, "Device for --check (see `devices`)");
  cmd->add_option("-f,--filter", o->filter, "Filter file for --check (default: identity)");
  cmd->callback([o, &action] { action = [o] { return runStrategies(*o); }; });
}

}  // namespace convolab::cli
