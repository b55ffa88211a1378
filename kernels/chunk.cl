// SPDX-License-Identifier: MIT
// chunk.cl — fragment (#include "chunk.cl"): vectors of CHUNK floats ("chunks") and how they are loaded, rounded
// and stored. A row of CHUNK interleaved RGB pixels is 3·CHUNK bytes = three chunks; lane e of chunk v is channel
// (CHUNK·v + e) % 3. The including kernel defines CHUNK (4, 8 or 16; a -D option or another macro such as BX)
// and FAST_STORE (0 or 1) before including this file.

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VEC CAT(float, CHUNK)
#define VLOAD CAT(vload, CHUNK)
#define VSTORE CAT(vstore, CHUNK)
#define TO_FLOAT CAT(convert_float, CHUNK)
#define TO_UCHAR CAT(CAT(convert_uchar, CHUNK), _sat_rte)
#if FAST_STORE
// Clamped to 0..255, x + 2^23 holds round-to-nearest-even(x) in its low mantissa byte: the same result as
// convert_uchar_sat_rte in four instructions per 16 values on x86 (PoCL's rint is a long software sequence),
// and the packed struct makes the store one unaligned vector store instead of one store per byte.
typedef struct __attribute__((packed)) {
  CAT(uchar, CHUNK) v;
} packed_chunk;
#define STORE_CHUNK(x, p)             \
  (((__global packed_chunk*)(p))->v = \
       CAT(convert_uchar, CHUNK)(CAT(as_uint, CHUNK)(clamp((x), 0.0f, 255.0f) + 8388608.0f)))
// The same struct reads CHUNK bytes with one unaligned vector load.
#define LOAD_CHUNK(p) (((__global const packed_chunk*)(p))->v)
#else
#define STORE_CHUNK(x, p) VSTORE(TO_UCHAR(x), 0, (p))
#define LOAD_CHUNK(p) VLOAD(0, (p))
#endif
