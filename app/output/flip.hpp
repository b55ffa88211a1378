// SPDX-License-Identifier: MIT
// Flip Output (issue 32 item 2): a frame flipped left to right, as the door hands it out when the user asks
// for it. Horizontal, like View ▸ Mirror Preview: column x goes to width − 1 − x; rows keep their order.
#pragma once

#include "convolab/image.hpp"

namespace convolab::output {

/// `in` flipped left to right, tightly packed, on the heap (`in` is not touched).
Image flippedLeftRight(const ImageView& in);

/// The column that column `x` of a `width`-wide frame becomes when flipped (and back: it is its own inverse).
constexpr int flippedColumn(int x, int width) {
  return width - 1 - x;
}

}  // namespace convolab::output
