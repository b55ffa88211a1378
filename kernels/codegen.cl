// SPDX-License-Identifier: MIT
// codegen.cl — the fixed parts of the kernels that core/src/strategies/codegen.cpp generates for one filter:
// the block store; the tile geometry and fill come from tile.cl, the chunk macros, offset chunks and rounding
// stores from chunk.cl. The generated kernel follows this file and holds the arithmetic, with every
// coefficient a literal and every zero tap left out.
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

// Rounds and stores one row of the block (three chunks); at the frame's right edge only the pixels that
// exist.
inline void store_row(__global uchar* dst, int width, int x0, int y, VEC c0, VEC c1, VEC c2) {
  store_chunks(dst + (y * width + x0) * 3, width - x0, c0, c1, c2);
}
