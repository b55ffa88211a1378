// SPDX-License-Identifier: MIT
// chunk.cl — fragment (#include "chunk.cl"): vectors of CHUNK floats ("chunks") and how they are loaded, rounded
// and stored. A row of CHUNK interleaved RGB pixels is 3·CHUNK bytes = three chunks; lane e of chunk v is channel
// (CHUNK·v + e) % 3. The including kernel defines CHUNK (2, 4, 8 or 16; a -D option or another macro such as BX)
// and FAST_STORE (0 or 1) before including this file.

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VEC CAT(float, CHUNK)
#define VLOAD CAT(vload, CHUNK)
#define VSTORE CAT(vstore, CHUNK)
#define TO_FLOAT CAT(convert_float, CHUNK)
#define TO_UCHAR CAT(CAT(convert_uchar, CHUNK), _sat_rte)

// A byte (0..255, in the low 8 bits of w, higher bits zero) as a float, exactly: 2^23 + b reinterpreted,
// minus 2^23. Full-rate ALU operations on GPUs, where an integer-to-float conversion runs at a quarter of
// the FMA rate or less.
#define BYTE_TO_FLOAT(w) (as_float(0x4B000000u | (w)) - 8388608.0f)

// Clamped to 0..255, x + 1.5·2^23 lies in [2^23, 2^24), where a float's unit in the last place is 1: the
// addition rounds x to nearest even and the low mantissa byte is the result. The same as convert_uchar_sat_rte
// (NaN clamps to 0) in a few instructions; PoCL's rint is a long software sequence on x86. (2^23 gives the same
// bytes too.)
#define ROUNDED_BITS(x) (clamp((x), 0.0f, 255.0f) + 12582912.0f)

// One float rounded and saturated to a byte, in the low 8 bits (for packing bytes into words).
inline uint round_byte(float x) {
  return as_uint(ROUNDED_BITS(x)) & 0xFFu;
}

#if FAST_STORE
// The packed struct makes the store one unaligned vector store instead of one store per byte.
typedef struct __attribute__((packed)) {
  CAT(uchar, CHUNK) v;
} packed_chunk;
#define STORE_CHUNK(x, p) \
  (((__global packed_chunk*)(p))->v = CAT(convert_uchar, CHUNK)(CAT(as_uint, CHUNK)(ROUNDED_BITS(x))))
// The same struct reads CHUNK bytes with one unaligned vector load.
#define LOAD_CHUNK(p) (((__global const packed_chunk*)(p))->v)
#else
#define STORE_CHUNK(x, p) VSTORE(TO_UCHAR(x), 0, (p))
#define LOAD_CHUNK(p) VLOAD(0, (p))
#endif

// Chunk v of a per-channel vector (the offsets) in the R G B lane pattern.
inline VEC offset_chunk(float4 offset, int v) {
  float opat[CHUNK + 2];
#pragma unroll
  for (int e = 0; e < CHUNK + 2; ++e) opat[e] = e % 3 == 0 ? offset.x : e % 3 == 1 ? offset.y : offset.z;
  return VLOAD(0, opat + (CHUNK * v) % 3);
}

// Rounds the first n of the three chunks' 3·CHUNK values into bytes at d, one by one (round_byte).
inline void store_rounded_bytes(__global uchar* d, int n, VEC c0, VEC c1, VEC c2) {
  float t[3 * CHUNK];
  VSTORE(c0, 0, t);
  VSTORE(c1, 0, t + CHUNK);
  VSTORE(c2, 0, t + 2 * CHUNK);
#pragma unroll
  for (int e = 0; e < 3 * CHUNK; ++e)
    if (e < n) d[e] = (uchar)round_byte(t[e]);
}

// Rounds and stores one row of CHUNK pixels (three chunks) at d; where fewer than CHUNK `pixels` are left in
// the frame's row (its right edge), only those.
inline void store_chunks(__global uchar* d, int pixels, VEC c0, VEC c1, VEC c2) {
  if (pixels >= CHUNK) {
    STORE_CHUNK(c0, d);
    STORE_CHUNK(c1, d + CHUNK);
    STORE_CHUNK(c2, d + 2 * CHUNK);
    return;
  }
  store_rounded_bytes(d, pixels * 3, c0, c1, c2);
}

// Tap (j, i)'s weights for chunk v: a kernel argument `wpat` holds them in the chunks' lane pattern ([K·K taps][3
// chunks][CHUNK], chunkPatternWeights in core/src/tile_shape.hpp).
#define WEIGHTS(j, i, v) VLOAD(0, wpat + (((j)*KSIZE + (i)) * 3 + (v)) * CHUNK)

// CPU-style accumulation of a block of `nrows` output rows (acc[nrows][3] chunks) from input rows that stand
// `stride` floats apart from `rows` on (private or local memory): a run-time loop over filter rows, one weight
// vector per tap and chunk serving every output row. Small loop bodies compile fast on CPUs and without spills;
// fully unrolled, LLVM's x86 back end hoists every load to the top and spills them all.
#define ACCUMULATE_ROW_LOOP(acc, nrows, rows, stride)                                               \
  for (int j = 0; j < KSIZE; ++j) {                                                                 \
    _Pragma("unroll") for (int i = 0; i < KSIZE; ++i) {                                             \
      _Pragma("unroll") for (int v = 0; v < 3; ++v) {                                               \
        const VEC w = WEIGHTS(j, i, v);                                                             \
        _Pragma("unroll") for (int o = 0; o < nrows; ++o)                                           \
          acc[o][v] = fma(VLOAD(0, rows + (o + j) * stride + 3 * i + CHUNK * v), w, acc[o][v]);     \
      }                                                                                             \
    }                                                                                               \
  }
