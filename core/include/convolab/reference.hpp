// SPDX-License-Identifier: MIT
// The CPU reference: a plain, obviously-correct convolution (double accumulation) that tests compare against.
#pragma once

#include "convolab/filter.hpp"
#include "convolab/image.hpp"

namespace convolab {

/// out(x,y,c) = saturate(round(offset_c + Σ M_c[j][i]/divisor_c · in(x+i−r, y+j−r, c))) with the
/// filter's border mode. `out` must have the same size as `in`.
void referenceConvolve(const ImageView& in, const MutableImageView& out, const FilterSet& filter);

}  // namespace convolab
