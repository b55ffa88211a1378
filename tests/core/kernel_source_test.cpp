// SPDX-License-Identifier: MIT
// Kernel fragments: `#include "x.cl"` lines are resolved from the embedded table, each fragment once.
#include <gtest/gtest.h>

#include "convolab/context.hpp"
#include "convolab/error.hpp"
#include "kernel_source.hpp"

namespace convolab::test {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(KernelSource, IncludesAreResolvedOnceFromTheEmbeddedFragments) {
  for (const char* name : {"tiled", "codegen", "vector"}) {
    SCOPED_TRACE(name);
    const std::string source = composeKernelSource(name);
    EXPECT_EQ(source.find("\n#include"), std::string::npos);    // compilers never see an include
    EXPECT_EQ(count(source, "#define STORE_CHUNK(x, p)"), 2u);  // chunk.cl once (FAST_STORE and not)
    EXPECT_EQ(count(source, "inline int border_index("), 1u);   // common.cl once
    EXPECT_EQ(source.rfind(std::string(kernelSource("common")), 0), 0u);  // and first
  }
  EXPECT_EQ(count(composeKernelSource("tiled"), "inline void fill_tile("), 1u);
  EXPECT_EQ(count(composeKernelSource("codegen"), "inline void fill_tile("), 1u);
  EXPECT_EQ(count(composeKernelSource("vector"), "inline void fill_tile("), 0u);
}

TEST(KernelSource, FragmentsAreSharedNotCopied) {
  // The chunk macros and the tile fill live in one file each: no strategy kernel defines them itself.
  for (const char* name : {"tiled", "codegen", "vector", "naive", "constant", "local", "image", "lowrank"}) {
    SCOPED_TRACE(name);
    const std::string own(kernelSource(name));
    EXPECT_EQ(own.find("#define CAT_("), std::string::npos);
    EXPECT_EQ(own.find("#define STORE_CHUNK"), std::string::npos);
    EXPECT_EQ(own.find("void fill_tile("), std::string::npos);
  }
}

TEST(KernelSource, UnknownKernelIsAnError) {
  EXPECT_THROW(composeKernelSource("no_such_kernel"), Error);
}

}  // namespace
}  // namespace convolab::test
