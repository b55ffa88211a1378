// tiled.cl — register tiling: a work-group stages its tile (+halo) once in local memory as floats, then each
// work-item computes a BY×BX block of output pixels from it, reusing every loaded value across the block.
//
// The tile keeps the frame's interleaved layout (R G B R G B …), so filling it is a contiguous, coalesced
// copy and a block of BX pixels is 3·BX consecutive floats: three BX-wide vectors ("chunks"). Lane e of chunk
// v is channel (BX·v + e) % 3, so each tap multiplies by a vector holding the R, G, B weights in that
// pattern; the host lays them out so (kernel argument `wpat`: [K·K taps][3 chunks][BX], aligned vectors).
//
// Build options (besides BORDER_MODE, KSIZE, RADIUS from common.cl):
//   -DBX=4|8|16     pixels per work-item in x (3 vectors of BX floats)
//   -DBY=n          rows per work-item
//   -DWGX -DWGY     work-group shape (the launch must use it: reqd_work_group_size)
//   -DFILL_VEC=1|4|8|16  bytes per fill step (1: coalesced byte loads for GPUs; 16: wide loads for CPUs)
//   -DROW_LOOP=0|1  1 (CPUs): run-time loop over filter rows, one weight vector per tap serving BY rows.
//                   Fully unrolled code compiles slowly on CPUs (K = 15: half a minute) and, in one huge
//                   block, LLVM's x86 back end hoists every load to the top and spills them all.
//                   0 (GPUs): fully unrolled in input-row order, each row reused for the whole block.
//   -DSEG_LOAD=0|1  with ROW_LOOP=0: 1 loads each tile row segment with aligned vload4 into registers and
//                   slides the windows there; 0 reads every window with an unaligned vload
//   -DTSTRIDE       floats per tile row (≥ FILL_BYTES, multiple of 4)
//   -DFILL_BYTES    floats filled per tile row (3·(TW+K−1) rounded up to FILL_VEC)
//   -DSEGLEN        floats of one work-item's row segment (3·BX + 3·(K−1) rounded up to 4)
//   -DFAST_STORE=0|1  1 (CPUs): round with a magic-number add and store each chunk with one unaligned vector
//                 store; 0 (GPUs): convert_uchar_sat_rte and vstore

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

// Copies the tile whose top-left pixel is (ox, oy) into local memory as floats. Work-groups whose tile
// lies inside the frame copy without any border arithmetic; the others resolve rows once per row and
// columns only for the fill steps that actually leave the frame.
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

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) void convolve_tiled(
    __global const uchar* src, __global uchar* dst, int width, int height,
    __constant float* wpat,  // [K·K taps][3 chunks][BX]: weights (matrix / divisor) in the chunks' pattern
    float4 offset, float4 border_value) {
  __local float tile[TROWS * TSTRIDE] __attribute__((aligned(16)));
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int gx0 = get_group_id(0) * TW, gy0 = get_group_id(1) * TH;
  fill_tile(tile, src, width, height, gx0 - RADIUS, gy0 - RADIUS, lx, ly, border_value);
  barrier(CLK_LOCAL_MEM_FENCE);

  const int x0 = gx0 + lx * BX, y0 = gy0 + ly * BY;
  if (x0 >= width || y0 >= height) return;

  // Offsets in the same R G B pattern as the chunks.
  float opat[BX + 2];
#pragma unroll
  for (int e = 0; e < BX + 2; ++e) opat[e] = e % 3 == 0 ? offset.x : e % 3 == 1 ? offset.y : offset.z;
  VEC acc[BY][3];
#pragma unroll
  for (int o = 0; o < BY; ++o)
#pragma unroll
    for (int v = 0; v < 3; ++v) acc[o][v] = VLOAD(0, opat + (BX * v) % 3);

  __local const float* t = tile + ly * BY * TSTRIDE + lx * 3 * BX;
#define WEIGHTS(j, i, v) VLOAD(0, wpat + (((j)*KSIZE + (i)) * 3 + (v)) * BX)
#if ROW_LOOP
  // CPUs: a run-time loop over filter rows; one weight vector serves the block's BY rows, windows are read
  // straight from the tile. Small loop bodies compile fast and without spills.
  for (int j = 0; j < KSIZE; ++j) {
#pragma unroll
    for (int i = 0; i < KSIZE; ++i) {
#pragma unroll
      for (int v = 0; v < 3; ++v) {
        const VEC w = WEIGHTS(j, i, v);
#pragma unroll
        for (int o = 0; o < BY; ++o)
          acc[o][v] = fma(VLOAD(0, t + (o + j) * TSTRIDE + 3 * i + BX * v), w, acc[o][v]);
      }
    }
  }
#else
  // GPUs: input-row order, fully unrolled: each tile row's windows are loaded once and serve every output row
  // of the block; weight indices are compile-time constants (constant-bank operands).
#pragma unroll
  for (int rr = 0; rr < BY + KSIZE - 1; ++rr) {
    __local const float* trow = t + rr * TSTRIDE;
#if SEG_LOAD
    float seg[SEGLEN];
#pragma unroll
    for (int q = 0; q < SEGLEN / 4; ++q) vstore4(vload4(q, trow), q, seg);
#define WINDOW(off) VLOAD(0, seg + (off))
#else
#define WINDOW(off) VLOAD(0, trow + (off))
#endif
#pragma unroll
    for (int i = 0; i < KSIZE; ++i) {
#pragma unroll
      for (int v = 0; v < 3; ++v) {
        const VEC win = WINDOW(3 * i + BX * v);
#pragma unroll
        for (int o = 0; o < BY; ++o) {
          const int j = rr - o;  // filter row this input row is for output row o
          if (j >= 0 && j < KSIZE) acc[o][v] = fma(win, WEIGHTS(j, i, v), acc[o][v]);
        }
      }
    }
#undef WINDOW
  }
#endif

  const int rowb = width * 3;
#pragma unroll
  for (int o = 0; o < BY; ++o) {
    if (y0 + o >= height) break;
    __global uchar* d = dst + (y0 + o) * rowb + x0 * 3;
    if (x0 + BX <= width) {
#pragma unroll
      for (int v = 0; v < 3; ++v) STORE_CHUNK(acc[o][v], d + BX * v);
    } else {  // right edge of the frame: only the pixels that exist
      uchar tmp[3 * BX];
#pragma unroll
      for (int v = 0; v < 3; ++v) VSTORE(TO_UCHAR(acc[o][v]), 0, tmp + BX * v);
      const int n = (width - x0) * 3;
      for (int e = 0; e < n; ++e) d[e] = tmp[e];
    }
  }
}
