// SPDX-License-Identifier: MIT
// One executable for every GUI test (tests/app/CMakeLists.txt): each test_<subject>.cpp registers its QtTest
// class under its file's name, and `convolab_gui_tests test_<subject> [QtTest options]` runs that one class
// in its own process, as its own executable did before (one ctest entry each). The macros are QtTest's
// QTEST_MAIN / QTEST_GUILESS_MAIN bodies (qtest.h), in a function the runner calls instead of a main() per
// file.
#pragma once

#include <QTest>

namespace convolab::test {

using GuiTestFunction = int (*)(int argc, char** argv);

/// Registers `run` under the stem of `sourceFile` (test_theme.cpp -> "test_theme"); returns true.
bool registerGuiTest(const char* sourceFile, GuiTestFunction run);

}  // namespace convolab::test

#define CONVOLAB_GUI_TEST_WRAPPER(TestObject, ...)                       \
  namespace {                                                            \
  int runGuiTest##TestObject(int argc, char** argv) {                    \
    QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();   \
    __VA_ARGS__                                                          \
    TestObject tc;                                                       \
    QTEST_SET_MAIN_SOURCE_PATH                                           \
    return QTest::qExec(&tc, argc, argv);                                \
  }                                                                      \
  [[maybe_unused]] const bool registeredGuiTest##TestObject =            \
      convolab::test::registerGuiTest(__FILE__, runGuiTest##TestObject); \
  }

/// QTEST_MAIN: a QApplication (the GUI library links Qt Widgets).
#define CONVOLAB_GUI_TEST_MAIN(TestObject) CONVOLAB_GUI_TEST_WRAPPER(TestObject, QTEST_MAIN_SETUP())
/// QTEST_GUILESS_MAIN: a QCoreApplication.
#define CONVOLAB_GUI_TEST_GUILESS_MAIN(TestObject) \
  CONVOLAB_GUI_TEST_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
