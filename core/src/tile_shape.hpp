// SPDX-License-Identifier: MIT
// TileShape: the block and work-group shape of the chunked kernels (vector, tiled, codegen), its variant
// grammar, tile geometry, fit to a device, weight pattern and the post-build work-group re-fit.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "convolab/device.hpp"
#include "convolab/filter.hpp"

namespace convolab {

/// A work-item computes a by×bx block of output pixels (three chunks of bx floats per row); a work-group is
/// wgx×wgy work-items. fillVec and segLoad matter only to kernels with a local tile (tile.cl).
struct TileShape {
  int bx = 4;           ///< pixels per work-item in x: 4, 8 or 16 (the chunk width)
  int by = 8;           ///< rows per work-item: 1..16
  int wgx = 16;         ///< work-group width (work-items)
  int wgy = 4;          ///< work-group height
  int fillVec = 1;      ///< bytes per tile fill step: 1, 4, 8 or 16
  bool segLoad = true;  ///< aligned row-segment loads into registers (GPUs) or unaligned window loads (CPUs)
  bool cpuStyle = false;  ///< ROW_LOOP-style code and FAST_STORE: what x86 compilers need

  /// The variant, in the ShapeVariant grammar: "b<bx>x<by>-wg<wgx>x<wgy>-f<fillVec>-s<segLoad>-c<cpuStyle>".
  std::string str() const;
  /// Parses str()'s grammar; the short form "b<bx>x<by>-wg<wgx>x<wgy>" takes fillVec, segLoad and cpuStyle
  /// from `defaults`. nullopt for anything else or out-of-range values.
  static std::optional<TileShape> parse(const std::string& text, const TileShape& defaults);

  int groupSize() const { return wgx * wgy; }
  bool operator==(const TileShape&) const = default;

  /// Halves the work-group (height first, then width) until it has at most maxGroup work-items.
  TileShape shrunkToGroup(std::size_t maxGroup) const;
};

/// tiled's default shape for this device type: also the generic kernel that literal strategies run while
/// coefficients are being edited (literal_baker.hpp).
TileShape defaultTiledShape(const DeviceInfo& dev);

/// Sizes derived from a shape for filter size K, as tile.cl expects them (see the top of that file).
struct TileGeometry {
  TileShape shape;
  int k = 1;
  bool separableBuffer =
      false;  ///< a second tile-sized buffer for a horizontal pass (codegen's fused rank-1)
  int fillBytes = 0, segLen = 0, tstride = 0, trows = 0, hstride = 0;

  TileGeometry() = default;
  TileGeometry(const TileShape& s, int ksize, bool withSeparableBuffer = false);
  std::uint64_t localBytes() const;
  std::uint64_t patternWeightBytes() const;  ///< what chunkPatternWeights() uploads
  int tileWidth() const { return shape.wgx * shape.bx; }
  int tileHeight() const { return shape.wgy * shape.by; }
  /// " -DBX=… -DBY=… -DWGX=… -DWGY=… -DFILL_VEC=… -DSEG_LOAD=… -DROW_LOOP=… -DTSTRIDE=… -DFILL_BYTES=…
  /// -DSEGLEN=… -DFAST_STORE=…" (tiled.cl's build options).
  std::string buildOptions() const;
  /// The same values as #define lines (codegen puts them in its generated source), plus HSTRIDE.
  std::string defines() const;
  /// Global range of a launch covering width×height with one block per work-item, whole work-groups.
  cl::NDRange globalRange(int width, int height) const;
  cl::NDRange localRange() const;
};

/// Shrinks `shape` until its tile fits the device (local memory, at most maxGroup work-items): the
/// work-group's height first (keeps rows coalesced), then the block height, then the width. nullopt when
/// nothing fits.
std::optional<TileGeometry> fitTile(TileShape shape, int k, const DeviceInfo& dev, std::size_t maxGroup,
                                    bool withSeparableBuffer = false);

/// The post-build re-fit: the compiled kernel may allow fewer work-items per group than the device
/// (CL_KERNEL_WORK_GROUP_SIZE reflects register pressure). Returns that lower limit when `groupSize`
/// exceeds it (fit again under it and rebuild, or shrink the launch), nullopt when the launch fits.
std::optional<std::size_t> workGroupRefit(const cl::Kernel& kernel, const cl::Device& device, int groupSize);

/// Weights in the layout chunked kernels multiply by: [K·K taps][3 chunks][bx], lane e of chunk v holding
/// channel (bx·v + e) % 3; each vector starts at a multiple of bx floats (aligned loads on CPUs).
std::vector<float> chunkPatternWeights(const FilterSet& filter, int bx);

}  // namespace convolab
