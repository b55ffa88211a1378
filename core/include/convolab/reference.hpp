// SPDX-License-Identifier: MIT
// The CPU reference: a plain, obviously-correct convolution (double accumulation) that tests compare against.
#pragma once

#include "convolab/filter.hpp"
#include "convolab/filter_chain.hpp"
#include "convolab/image.hpp"

namespace convolab {

/// out(x,y,c) = saturate(round(offset_c + Σ M_c[j][i]/divisor_c · in(x+i−r, y+j−r, c))) with the
/// filter's border mode. `out` must have the same size as `in`.
void referenceConvolve(const ImageView& in, const MutableImageView& out, const FilterSet& filter);

/// A magnitude step: out(x,y,c) = saturate(round(hypot(a, b))) of the two filters' unrounded values (after
/// divisor and offset), both read from `in` with their border (DESIGN §1).
void referenceMagnitude(const ImageView& in, const MutableImageView& out, const FilterSet& a,
                        const FilterSet& b);

/// A chain: the switched-on steps one after another, each reading the previous step's rounded, saturated
/// image with its own border. No switched-on step: a copy.
void referenceChain(const ImageView& in, const MutableImageView& out, const FilterChain& chain);

}  // namespace convolab
