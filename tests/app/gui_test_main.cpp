// SPDX-License-Identifier: MIT
// The GUI tests' runner (gui_test_main.hpp): `convolab_gui_tests NAME [QtTest options]`.
#include "gui_test_main.hpp"

#include <cstdio>
#include <map>
#include <string>

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
  const auto& tests = convolab::test::registry();
  const auto found = argc >= 2 ? tests.find(argv[1]) : tests.end();
  if (found == tests.end()) {
    std::fprintf(stderr, "usage: %s TEST [QtTest options], TEST one of:\n", argv[0]);
    for (const auto& [name, run] : tests) std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
  }
  // The test sees its own name as argv[0], as when it was an executable of its own (QtTest's and
  // QCoreApplication's application name).
  return found->second(argc - 1, argv + 1);
}
