// SPDX-License-Identifier: MIT
// CoreConfig: every CONVOLAB_* variable the core reads is read in one place, once.
#include <gtest/gtest.h>

#include <cstdlib>

#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

TEST(CoreConfig, ReadsEveryVariableOnceAndCanBeReplaced) {
  const CoreConfig before = coreConfig();
  ::setenv("CONVOLAB_TILE_BYTES", "12345", 1);
  ::setenv("CONVOLAB_AUTO_RUNS", "0", 1);
  ::setenv("CONVOLAB_NO_PROGRAM_CACHE", "0", 1);
  ::setenv("CONVOLAB_VERBOSE", "1", 1);
  ::setenv("CONVOLAB_CODEGEN_ASYNC", "1", 1);
  EXPECT_EQ(coreConfig().tileBytes, before.tileBytes) << "read once, not on every call";
  const CoreConfig c = CoreConfig::fromEnvironment();
  EXPECT_EQ(c.tileBytes, 12345u);
  EXPECT_EQ(c.autoRuns, 1) << "at least one run";
  EXPECT_FALSE(c.noProgramCache) << "\"0\" means off";
  EXPECT_TRUE(c.verbose);
  EXPECT_TRUE(c.codegenAsync);
  ::setenv("CONVOLAB_CODEGEN_ASYNC", "0", 1);
  EXPECT_FALSE(CoreConfig::fromEnvironment().codegenAsync) << "\"0\" means off";
  setCoreConfig(c);
  Engine engine(sharedContext(), "naive");
  EXPECT_EQ(engine.tileBytes(), 12345u);
  for (const char* v : {"CONVOLAB_TILE_BYTES", "CONVOLAB_AUTO_RUNS", "CONVOLAB_NO_PROGRAM_CACHE",
                        "CONVOLAB_VERBOSE", "CONVOLAB_CODEGEN_ASYNC"})
    ::unsetenv(v);
  setCoreConfig(before);
  EXPECT_NE(Engine(sharedContext(), "naive").tileBytes(), 12345u);
}

TEST(CoreConfig, ProgramBinaries) {
  ::unsetenv("CONVOLAB_PROGRAM_BINARIES");
  EXPECT_EQ(CoreConfig::fromEnvironment().programBinaries, CoreConfig::ProgramBinaries::Auto);
  ::setenv("CONVOLAB_PROGRAM_BINARIES", "1", 1);
  EXPECT_EQ(CoreConfig::fromEnvironment().programBinaries, CoreConfig::ProgramBinaries::Always);
  ::setenv("CONVOLAB_PROGRAM_BINARIES", "0", 1);
  EXPECT_EQ(CoreConfig::fromEnvironment().programBinaries, CoreConfig::ProgramBinaries::Never);
  ::unsetenv("CONVOLAB_PROGRAM_BINARIES");
}

TEST(CoreConfig, LiteralProgramLimit) {
  ::unsetenv("CONVOLAB_LITERAL_PROGRAMS");
  EXPECT_EQ(CoreConfig::fromEnvironment().literalPrograms, 64);
  ::setenv("CONVOLAB_LITERAL_PROGRAMS", "7", 1);
  EXPECT_EQ(CoreConfig::fromEnvironment().literalPrograms, 7);
  ::setenv("CONVOLAB_LITERAL_PROGRAMS", "-3", 1);
  EXPECT_EQ(CoreConfig::fromEnvironment().literalPrograms, 0) << "0: no limit";
  ::unsetenv("CONVOLAB_LITERAL_PROGRAMS");
}

}  // namespace
}  // namespace convolab::test
