// SPDX-License-Identifier: MIT
// The GUI tests' runner (gui_test_main.hpp): `convolab_gui_tests NAME [QtTest options]`, NAME anywhere.
#include "gui_test_main.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace convolab::test {
namespace {

std::map<std::string, GuiTestFunction>& registry() {
  static std::map<std::string, GuiTestFunction> tests;
  return tests;
}

std::string stemOf(const char* path) {
  std::string name = path;
  if (const auto slash = name.find_last_of('/'); slash != std::string::npos) name.erase(0, slash + 1);
  if (const auto dot = name.find('.'); dot != std::string::npos) name.erase(dot);
  return name;
}

}  // namespace

bool registerGuiTest(const char* sourceFile, GuiTestFunction run) {
  registry()[stemOf(sourceFile)] = run;
  return true;
}

}  // namespace convolab::test

int main(int argc, char** argv) {
  // The test's name may stand anywhere among QtTest's options (`-v2 test_theme` or `test_theme -v2`).
  const auto& tests = convolab::test::registry();
  std::vector<char*> args;
  convolab::test::GuiTestFunction run = nullptr;
  for (int i = 1; i < argc; ++i) {
    const auto found = run ? tests.end() : tests.find(argv[i]);
    if (found == tests.end()) {
      args.push_back(argv[i]);
      continue;
    }
    run = found->second;
    // The test sees its own name as argv[0], as when it was an executable of its own (QtTest's and
    // QCoreApplication's application name).
    args.insert(args.begin(), argv[i]);
  }
  if (!run) {
    std::fprintf(stderr, "usage: %s TEST [QtTest options], TEST one of:\n", argv[0]);
    for (const auto& [name, function] : tests) std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
  }
  // ctest points XDG_RUNTIME_DIR into the test's own home, which may not exist yet: make it, private, as a
  // login would, before QApplication looks for it (QStandardPaths warns otherwise).
  if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && *runtime) {
    std::error_code ignored;
    if (std::filesystem::create_directories(runtime, ignored))
      std::filesystem::permissions(runtime, std::filesystem::perms::owner_all, ignored);
  }
  args.push_back(nullptr);
  return run(static_cast<int>(args.size()) - 1, args.data());
}
