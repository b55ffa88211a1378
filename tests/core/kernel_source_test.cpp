// SPDX-License-Identifier: MIT
// Kernel fragments: `#include "x.cl"` lines are resolved from the embedded table, each fragment once.
#include <gtest/gtest.h>

#include "convolab/context.hpp"
#include "convolab/error.hpp"
#include "kernel_source.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

TEST(KernelSource, IncludesAreResolvedOnceFromTheEmbeddedFragments) {
  for (const char* name : {"tiled", "codegen", "vector", "sliding"}) {
    SCOPED_TRACE(name);
    const std::string source = composeKernelSource(name);
    EXPECT_EQ(source.find("\n#include"), std::string::npos);         // compilers never see an include
    EXPECT_EQ(occurrences(source, "#define STORE_CHUNK(x, p)"), 2);  // chunk.cl once (FAST_STORE and not)
    EXPECT_EQ(occurrences(source, "inline int border_index("), 1);   // common.cl once
    EXPECT_EQ(source.rfind(std::string(kernelSource("common")), 0), 0u);  // and first
  }
  EXPECT_EQ(occurrences(composeKernelSource("tiled"), "inline void fill_tile("), 1);
  EXPECT_EQ(occurrences(composeKernelSource("codegen"), "inline void fill_tile("), 1);
  EXPECT_EQ(occurrences(composeKernelSource("vector"), "inline void fill_tile("), 0);
}

TEST(KernelSource, FragmentsAreSharedNotCopied) {
  // The chunk macros, offset chunks, rounding stores, the planar weights, the tile fill, the chunk weights
  // and their CPU row loop, and the per-pixel tap loops live in one file each: no strategy kernel defines or
  // writes them out itself.
  for (const char* name : {"tiled", "codegen", "vector", "sliding", "dynamic", "naive", "constant", "local",
                           "image", "lowrank"}) {
    SCOPED_TRACE(name);
    const std::string own(kernelSource(name));
    EXPECT_EQ(own.find("#define CAT_("), std::string::npos);
    EXPECT_EQ(own.find("#define STORE_CHUNK"), std::string::npos);
    EXPECT_EQ(own.find("packed_chunk;"), std::string::npos);
    EXPECT_EQ(own.find("offset_chunk(float4"), std::string::npos);
    EXPECT_EQ(own.find("? offset.x :"), std::string::npos);  // the offsets' lane pattern: offset_chunk
    EXPECT_EQ(own.find("#define BYTE_TO_FLOAT"), std::string::npos);
    EXPECT_EQ(own.find("#define W3("), std::string::npos);
    EXPECT_EQ(own.find("void fill_tile("), std::string::npos);
    EXPECT_EQ(own.find("#define WEIGHTS("), std::string::npos);
    EXPECT_EQ(own.find("(o + j) *"), std::string::npos);              // the row loop: ACCUMULATE_ROW_LOOP
    EXPECT_EQ(own.find("bx[i] = border_index("), std::string::npos);  // border taps: ACCUMULATE_BORDER_TAPS
    EXPECT_EQ(own.find(") * W3(j, i)"), std::string::npos);  // a tap loop over pixel reads: ACCUMULATE_TAPS
  }
}

TEST(KernelSource, RunTimeBorderAndWindowLoopLiveInOneFragmentEach) {
  // border_any.cl holds the run-time border rule of dynamic and the fused chains (once a copy in each).
  for (const char* name : {"dynamic", "fused", "fused_literal", "fused_gpu"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(std::string(kernelSource(name)).find("mode == BORDER_REFLECT101"), std::string::npos);
    EXPECT_EQ(occurrences(composeKernelSource(name), "inline int border_index_any("), 1);
  }
  // window_taps.cl holds the tap loop of naive and magnitude (once a copy in magnitude).
  for (const char* name : {"naive", "magnitude"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(std::string(kernelSource(name)).find("load_rgb("), std::string::npos);
    EXPECT_EQ(occurrences(composeKernelSource(name), "#define FOR_EACH_WINDOW_TAP("), 1);
  }
}

TEST(KernelSource, UnknownKernelIsAnError) {
  EXPECT_THROW(composeKernelSource("no_such_kernel"), Error);
}

}  // namespace
}  // namespace convolab::test
