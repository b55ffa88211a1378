// codegen.cl — the fixed parts of the kernels that core/src/strategies/codegen.cpp generates for one filter:
// tile geometry, the local-memory tile fill and the block store. The generated kernel follows this file and
// holds the arithmetic, with every coefficient a literal and every zero tap left out.
//
// Layout as in tiled.cl: the tile keeps the frame's interleaved R G B bytes as floats; a work-item's block
// of BX pixels is three BX-wide vectors ("chunks"); lane e of chunk v is channel (BX·v + e) % 3.
//
// The generator defines, before this file: BX, BY (block), WGX, WGY (work-group), FILL_VEC, TSTRIDE,
// FILL_BYTES, SEGLEN, FAST_STORE (see tiled.cl for their meaning); BORDER_MODE, KSIZE and RADIUS come as -D
// options.

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VEC CAT(float, BX)
#define VLOAD CAT(vload, BX)
#define VSTORE CAT(vstore, BX)
#define TO_UCHAR CAT(CAT(convert_uchar, BX), _sat_rte)
#if FAST_STORE
// Clamped to 0..255, x + 2^23 holds round-to-nearest-even(x) in its low mantissa byte: the same result as
// convert_uchar_sat_rte in four instructions per 16 values on x86 (PoCL's rint is a long software sequence),
// and the packed struct makes the store one unaligned vector store instead of one store per byte.
typedef struct __attribute__((packed)) {
  CAT(uchar, BX) v;
} packed_chunk;
#define STORE_CHUNK(x, p)             \
  (((__global packed_chunk*)(p))->v = \
       CAT(convert_uchar, BX)(CAT(as_uint, BX)(clamp((x), 0.0f, 255.0f) + 8388608.0f)))
#else
#define STORE_CHUNK(x, p) VSTORE(TO_UCHAR(x), 0, (p))
#endif

#define TW (WGX * BX)           // tile width in output pixels
#define TH (WGY * BY)           // tile height in output rows
#define TROWS (TH + KSIZE - 1)  // tile rows including the halo

#define FILL_ROW_STEPS ((TROWS + WGY - 1) / WGY)
#define FILL_COL_STEPS ((FILL_BYTES + WGX * FILL_VEC - 1) / (WGX * FILL_VEC))
#if FILL_VEC == 1
#define FILL_COPY(s, t) (*(t) = convert_float(*(s)))
#else
#define FILL_COPY(s, t) \
  CAT(vstore, FILL_VEC)(CAT(convert_float, FILL_VEC)(CAT(vload, FILL_VEC)(0, (s))), 0, (t))
#endif

// Copies the tile whose top-left pixel is (ox, oy) into local memory as floats. Tiles inside the frame copy
// without border arithmetic; the others resolve rows once per row, columns only where a step leaves the
// frame.
inline void fill_tile(__local float* tile, __global const uchar* src, int width, int height, int ox, int oy,
                      int lx, int ly, float4 border_value) {
  const int rowb = width * 3;
  if (ox >= 0 && oy >= 0 && ox * 3 + FILL_BYTES <= rowb && oy + TROWS <= height) {
    // Fixed trip counts, fully unrolled: addresses become immediate offsets, no loop overhead per value.
    __global const uchar* s = src + (oy + ly) * rowb + ox * 3 + lx * FILL_VEC;
    __local float* t = tile + ly * TSTRIDE + lx * FILL_VEC;
#pragma unroll
    for (int q = 0; q < FILL_ROW_STEPS; ++q) {
      if (ly + q * WGY >= TROWS) break;
#pragma unroll
      for (int k = 0; k < FILL_COL_STEPS; ++k)
        if (lx * FILL_VEC + k * (WGX * FILL_VEC) < FILL_BYTES)
          FILL_COPY(s + q * WGY * rowb + k * (WGX * FILL_VEC),
                    t + q * (WGY * TSTRIDE) + k * (WGX * FILL_VEC));
    }
    return;
  }
  const float bv[3] = {border_value.x, border_value.y, border_value.z};
  for (int r = ly; r < TROWS; r += WGY) {
    const int by = border_index(oy + r, height);
    __local float* trow = tile + r * TSTRIDE;
#if BORDER_MODE == BORDER_CONSTANT
    if (by < 0) {  // a whole row outside the frame
      for (int c = lx; c < FILL_BYTES; c += WGX) trow[c] = bv[c % 3];
      continue;
    }
#endif
    __global const uchar* srow = src + by * rowb;
    for (int c = lx * FILL_VEC; c < FILL_BYTES; c += WGX * FILL_VEC) {
      if (ox + c / 3 >= 0 && ox + (c + FILL_VEC - 1) / 3 < width) {
        FILL_COPY(srow + ox * 3 + c, trow + c);
      } else {
        for (int e = 0; e < FILL_VEC; ++e) {
          const int b = c + e;
          const int bx = border_index(ox + b / 3, width);
          trow[b] = bx < 0 ? bv[b % 3] : convert_float(srow[bx * 3 + b % 3]);
        }
      }
    }
  }
}

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
