// SPDX-License-Identifier: MIT
// Context's program pool: one program per source and options for every strategy and sibling context (auto's
// measurements ask for the same programs again), holding at most its capacity.
#include <gtest/gtest.h>

#include "convolab/context.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

std::string tinyKernel(int n) {
  return "__kernel void k(__global float* a) { a[get_global_id(0)] *= " + std::to_string(n) + ".5f; }\n";
}

TEST(ProgramPool, TheSameSourceAndOptionsGiveTheSameProgram) {
  auto ctx = std::make_shared<Context>(sharedContext()->device());
  const cl::Program a = ctx->buildProgram(tinyKernel(1), "", "pool");
  const cl::Program b = ctx->buildProgram(tinyKernel(1), "", "pool");
  EXPECT_EQ(a(), b());
  EXPECT_EQ(ctx->programsCreated(), 1u);
  const cl::Program c = ctx->buildProgram(tinyKernel(1), "-DX=1", "pool");  // other options: another program
  EXPECT_NE(a(), c());
  EXPECT_EQ(ctx->programsCreated(), 2u);
  auto sibling = ctx->sibling();  // the preparer's context: shares the pool
  EXPECT_EQ(sibling->buildProgram(tinyKernel(1), "", "pool")(), a());
  EXPECT_EQ(ctx->programsCreated() + sibling->programsCreated(), 2u);
  EXPECT_EQ(ctx->buildKernelProgram("naive", "-DKSIZE=3 -DRADIUS=1 -DBORDER_MODE=BORDER_REFLECT101")(),
            ctx->buildKernelProgram("naive", "-DKSIZE=3 -DRADIUS=1 -DBORDER_MODE=BORDER_REFLECT101")());
}

TEST(ProgramPool, HoldsAtMostItsCapacityLeastRecentlyUsedOut) {
  auto ctx = std::make_shared<Context>(sharedContext()->device());
  EXPECT_EQ(ctx->programPoolCapacity(), Context::kProgramPoolCapacity);
  ctx->setProgramPoolCapacity(3);
  for (int i = 0; i < 8; ++i) {
    ctx->buildProgram(tinyKernel(i), "", "pool");
    EXPECT_LE(ctx->programsHeld(), 3u);
  }
  EXPECT_EQ(ctx->programsCreated(), 8u);
  ctx->buildProgram(tinyKernel(7), "", "pool");  // held: the same program
  EXPECT_EQ(ctx->programsCreated(), 8u);
  ctx->buildProgram(tinyKernel(0), "", "pool");  // dropped long ago: created again
  EXPECT_EQ(ctx->programsCreated(), 9u);
  EXPECT_EQ(ctx->programsHeld(), 3u);
  ctx->setProgramPoolCapacity(1);
  EXPECT_EQ(ctx->programsHeld(), 1u);
}

}  // namespace
}  // namespace convolab::test
