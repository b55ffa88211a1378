// SPDX-License-Identifier: MIT
// SlidingShape: sliding's strip shape in the shared variant grammar, and its defaults.
#include "sliding_shape.hpp"

#include <tuple>

#include "shape_variant.hpp"

namespace convolab {

std::string SlidingShape::str() const {
  return ShapeVariant{'s', bx, sh, wgx, wgy, {{'c', cpuStyle ? 1 : 0}, {'u', unroll}}}.str();
}

std::optional<SlidingShape> SlidingShape::parse(const std::string& text, const SlidingShape& defaults) {
  const auto v = ShapeVariant::parse(text, 's', "cu");
  if (!v) return std::nullopt;
  SlidingShape s = defaults;
  std::tie(s.bx, s.sh, s.wgx, s.wgy) = std::tuple(v->a, v->b, v->wgx, v->wgy);
  if (const auto c = v->field('c')) s.cpuStyle = *c != 0;
  s.unroll = v->field('u').value_or(defaults.unroll);
  const bool ok = (s.bx == 2 || s.bx == 4 || s.bx == 8 || s.bx == 16) && s.sh >= 1 && s.sh <= 256 &&
                  s.wgx >= 1 && s.wgy >= 1 && s.wgx <= 1024 && s.wgy <= 1024 && s.groupSize() <= 1024 &&
                  s.unroll >= 1 && s.unroll <= 16;
  return ok ? std::optional(s) : std::nullopt;
}

SlidingShape defaultSlidingShape(bool gpu, int k) {
  // GPUs: 4 pixels (12 bytes, three packed words) per strip, 16 rows; wide filters keep fewer lanes so the K
  // open rows stay in registers. CPUs: 16-float vectors along the row (one AVX-512 register per chunk).
  if (gpu) return k <= 9 ? SlidingShape{4, 16, 32, 2, false, 1} : SlidingShape{2, 8, 32, 2, false, 1};
  return k <= 9 ? SlidingShape{16, 32, 16, 1, true, 1} : SlidingShape{8, 32, 16, 1, true, 1};
}

}  // namespace convolab
