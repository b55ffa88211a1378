// SPDX-License-Identifier: MIT
// codegen.cl — the fixed parts of the kernels that core/src/strategies/codegen.cpp generates for one filter:
// the offset chunks and the block store; the tile geometry and fill come from tile.cl, the chunk macros
// from chunk.cl. The generated kernel follows this file and
// holds the arithmetic, with every coefficient a literal and every zero tap left out.
//
// Layout as in tiled.cl: the tile keeps the frame's interleaved R G B bytes as floats; a work-item's block
// of BX pixels is three BX-wide vectors ("chunks"); lane e of chunk v is channel (BX·v + e) % 3.
//
// The generator defines, before this file: BX, BY (block), WGX, WGY (work-group), FILL_VEC, TSTRIDE,
// FILL_BYTES, SEGLEN, FAST_STORE (see tiled.cl for their meaning); BORDER_MODE, KSIZE and RADIUS come as -D
// options.

#define CHUNK BX
#include "chunk.cl"
#include "tile.cl"

// The three chunks of one offset vector, in the R G B lane pattern.
inline VEC offset_chunk(float4 offset, int v) {
  float opat[BX + 2];
#pragma unroll
  for (int e = 0; e < BX + 2; ++e) opat[e] = e % 3 == 0 ? offset.x : e % 3 == 1 ? offset.y : offset.z;
  return VLOAD(0, opat + (BX * v) % 3);
}

// Rounds and stores one row of the block (three chunks); at the frame's right edge only the pixels that
// exist.
inline void store_row(__global uchar* dst, int width, int x0, int y, VEC c0, VEC c1, VEC c2) {
  __global uchar* d = dst + y * width * 3 + x0 * 3;
  if (x0 + BX <= width) {
    STORE_CHUNK(c0, d);
    STORE_CHUNK(c1, d + BX);
    STORE_CHUNK(c2, d + 2 * BX);
  } else {
    uchar tmp[3 * BX];
    VSTORE(TO_UCHAR(c0), 0, tmp);
    VSTORE(TO_UCHAR(c1), 0, tmp + BX);
    VSTORE(TO_UCHAR(c2), 0, tmp + 2 * BX);
    const int n = (width - x0) * 3;
    for (int e = 0; e < n; ++e) d[e] = tmp[e];
  }
}
