// SPDX-License-Identifier: MIT
// TileShape: one variant grammar, geometry, device fit and weight pattern for vector, tiled and codegen.
#include "tile_shape.hpp"

#include <algorithm>
#include <sstream>
#include <tuple>

#include "shape_variant.hpp"
#include "strategy_support.hpp"

namespace convolab {

std::string TileShape::str() const {
  return ShapeVariant{'b', bx,  by,
                      wgx, wgy, {{'f', fillVec}, {'s', segLoad ? 1 : 0}, {'c', cpuStyle ? 1 : 0}}}
      .str();
}

std::optional<TileShape> TileShape::parse(const std::string& text, const TileShape& defaults) {
  const auto v = ShapeVariant::parse(text, 'b', "fsc");
  if (!v || (v->fields.size() != 0 && v->fields.size() != 3)) return std::nullopt;
  TileShape s = defaults;
  std::tie(s.bx, s.by, s.wgx, s.wgy) = std::tuple(v->a, v->b, v->wgx, v->wgy);
  if (!v->fields.empty()) {
    s.fillVec = *v->field('f');
    s.segLoad = *v->field('s') != 0;
    s.cpuStyle = *v->field('c') != 0;
    if (s.fillVec != 1 && s.fillVec != 4 && s.fillVec != 8 && s.fillVec != 16) return std::nullopt;
  }
  const bool ok =
      (s.bx == 4 || s.bx == 8 || s.bx == 16) && s.by >= 1 && s.by <= 16 && s.wgx >= 1 && s.wgy >= 1;
  return ok ? std::optional(s) : std::nullopt;
}

TileShape TileShape::shrunkToGroup(std::size_t maxGroup) const {
  TileShape s = *this;
  while (static_cast<std::size_t>(s.groupSize()) > maxGroup && s.groupSize() > 1) {
    if (s.wgy > 1)
      s.wgy = (s.wgy + 1) / 2;
    else
      s.wgx = (s.wgx + 1) / 2;
  }
  return s;
}

TileGeometry::TileGeometry(const TileShape& s, int ksize, bool withSeparableBuffer)
    : shape(s), k(ksize), separableBuffer(withSeparableBuffer) {
  const int tw = s.wgx * s.bx;
  trows = s.wgy * s.by + k - 1;
  fillBytes =
      static_cast<int>(roundUp(static_cast<size_t>(3 * (tw + k - 1)), static_cast<size_t>(s.fillVec)));
  segLen = static_cast<int>(roundUp(static_cast<size_t>(3 * s.bx + 3 * (k - 1)), 4));
  // The last work-item's aligned segment may reach a little past the filled part (values it never uses).
  const int segReach = 3 * s.bx * (s.wgx - 1) + segLen;
  tstride = static_cast<int>(roundUp(static_cast<size_t>(std::max(fillBytes, segReach)), 4));
  hstride = static_cast<int>(roundUp(static_cast<size_t>(3 * tw), 4));
}

std::uint64_t TileGeometry::localBytes() const {
  return static_cast<std::uint64_t>(trows) * (tstride + (separableBuffer ? hstride : 0)) * sizeof(float);
}

std::uint64_t TileGeometry::patternWeightBytes() const {
  return static_cast<std::uint64_t>(k * k * 3 * shape.bx) * sizeof(float);
}

std::string TileGeometry::buildOptions() const {
  std::ostringstream o;
  o << " -DBX=" << shape.bx << " -DBY=" << shape.by << " -DWGX=" << shape.wgx << " -DWGY=" << shape.wgy
    << " -DFILL_VEC=" << shape.fillVec << " -DSEG_LOAD=" << (shape.segLoad ? 1 : 0)
    << " -DROW_LOOP=" << (shape.cpuStyle ? 1 : 0) << " -DTSTRIDE=" << tstride << " -DFILL_BYTES=" << fillBytes
    << " -DSEGLEN=" << segLen << " -DFAST_STORE=" << (shape.cpuStyle ? 1 : 0);
  return o.str();
}

std::string TileGeometry::defines() const {
  std::ostringstream o;
  o << "#define BX " << shape.bx << "\n#define BY " << shape.by << "\n#define WGX " << shape.wgx
    << "\n#define WGY " << shape.wgy << "\n#define FILL_VEC " << shape.fillVec << "\n#define TSTRIDE "
    << tstride << "\n#define FILL_BYTES " << fillBytes << "\n#define SEGLEN " << segLen
    << "\n#define HSTRIDE " << hstride << "\n#define FAST_STORE " << (shape.cpuStyle ? 1 : 0) << "\n";
  return o.str();
}

cl::NDRange TileGeometry::globalRange(int width, int height) const {
  const auto tw = static_cast<size_t>(tileWidth()), th = static_cast<size_t>(tileHeight());
  return cl::NDRange(roundUp(static_cast<size_t>(width), tw) / tw * static_cast<size_t>(shape.wgx),
                     roundUp(static_cast<size_t>(height), th) / th * static_cast<size_t>(shape.wgy));
}

cl::NDRange TileGeometry::localRange() const {
  return cl::NDRange(static_cast<size_t>(shape.wgx), static_cast<size_t>(shape.wgy));
}

TileShape defaultTiledShape(const DeviceInfo& dev) {
  if (dev.isGpu)
    return {4, 8, 16, 4, 1, true, false};  // 4×8 block: 12-float lane stride, conflict-free vload4
  return {16, 4, 8, 8, 16, false, true};   // CPUs: one 16-wide SIMD vector per chunk
}

std::optional<TileGeometry> fitTile(TileShape s, int k, const DeviceInfo& dev, std::size_t maxGroup,
                                    bool withSeparableBuffer) {
  for (;;) {
    TileGeometry g(s, k, withSeparableBuffer);
    if (static_cast<std::size_t>(s.groupSize()) <= maxGroup && g.localBytes() <= dev.localMemBytes) return g;
    if (s.wgy > 1)
      s.wgy = (s.wgy + 1) / 2;
    else if (s.by > 1)
      s.by = (s.by + 1) / 2;
    else if (s.wgx > 1)
      s.wgx = (s.wgx + 1) / 2;
    else
      return std::nullopt;
  }
}

std::optional<std::size_t> workGroupRefit(const cl::Kernel& kernel, const cl::Device& device, int groupSize) {
  const auto kernelMax = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
  if (static_cast<std::size_t>(groupSize) <= kernelMax) return std::nullopt;
  return kernelMax;
}

std::vector<float> chunkPatternWeights(const FilterSet& filter, int bx) {
  const int k = filter.size();
  std::vector<float> w;
  w.reserve(static_cast<size_t>(k * k * 3 * bx));
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i)
      for (int v = 0; v < 3; ++v)
        for (int e = 0; e < bx; ++e)
          w.push_back(static_cast<float>(filter.channel((bx * v + e) % 3).weight(j, i)));
  return w;
}

}  // namespace convolab
