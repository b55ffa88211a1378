// SPDX-License-Identifier: MIT
// fused_literal.cl — the fixed part of a fused chain whose weights are baked into the source (FusedLiteral,
// core/src/fused_literal.cpp, generates convolve_fused after it; docs/ARCHITECTURE.md, Chains). Each step's
// region lives in three float planes (R, G, B) so a row of work-items reads consecutive floats: PoCL turns
// the work-item loop into vector loads, and GPU lanes read consecutive banks.
//
// Build options: -DWX -DWY (work-group), -DRW -DRH (plane size, RW a multiple of FV), -DFV (floats per
// work-item and vector: 1 on GPUs), and the common BORDER_MODE (unused here).
#include "border_any.cl"  // border_index_any

#define PL (RW * RH)

// Rounding to nearest even and saturating to 0..255 in two additions (chunk.cl's ROUNDED_BITS says why: PoCL's
// rint is a long software sequence on x86): the value as a float, or as the low byte of the bits.
#define FUSED_ROUNDED_BITS(x) (clamp((x), 0.0f, 255.0f) + 12582912.0f)
#define FUSED_ROUND(x) (FUSED_ROUNDED_BITS(x) - 12582912.0f)

// The input region: image (ox0 + x, oy0 + y) is plane position (x, y), read with the first step's border
// (`inside`: the whole buffer lies in the image, so no rule is needed).
inline void fused_fill_input(__local float* buf, __global const uchar* src, int width, int height, int ox0,
                             int oy0, int mode, float3 bv, bool inside) {
  for (int y = get_local_id(1); y < RH; y += WY)
    for (int x = get_local_id(0); x < RW; x += WX) {
      float3 v;
      if (inside) {
        v = convert_float3(vload3((oy0 + y) * width + ox0 + x, src));
      } else {
        const int bx = border_index_any(ox0 + x, width, mode), by = border_index_any(oy0 + y, height, mode);
        v = (bx < 0 || by < 0) ? bv : convert_float3(vload3(by * width + bx, src));
      }
      const int c = y * RW + x;
      buf[c] = v.x;
      buf[PL + c] = v.y;
      buf[2 * PL + c] = v.z;
    }
}

#if FV > 1
#define FCAT_(a, b) a##b
#define FCAT(a, b) FCAT_(a, b)
// A packed struct makes a load or store of FV floats at any address one unaligned vector access; PoCL's
// vloadn/vstoren of an unaligned address go element by element (as chunk.cl's FAST_STORE notes).
typedef struct __attribute__((packed)) {
  FCAT(float, FV) v;
} fused_packed;
#define FUSED_LOAD(p) (((__local const fused_packed*)(p))->v)
#define FUSED_STORE(x, p) (((__local fused_packed*)(p))->v = (x))
typedef struct __attribute__((packed)) {
  FCAT(uchar, FV) v;
} fused_packed_bytes;
#define FUSED_LOAD_BYTES(p) (((__global const fused_packed_bytes*)(p))->v)
#define FUSED_STORE_BYTES(x, p) (((__global fused_packed_bytes*)(p))->v = (x))
// fused_fill_inside (the region of a work-group whose buffer lies in the image, FV pixels at a time) and the
// last step's store are generated: their RGB (de-)interleaving is written out as vector component swizzles,
// which compile to shuffles (a private byte array went byte by byte).
#endif

// The out-of-image positions of a step's region [b, b + side) × [b, b + rows), filled by the next step's
// border rule from in-image positions of the same region (fused.cl says why they lie inside it). Only those
// within `ho` (the later steps' radii) of the image are read by an output in the image: a tile mostly past
// the image's edge would fold the others beyond its region, so they are left alone.
inline void fused_fill_border(__local float* out, int width, int height, int ox0, int oy0, int b, int side,
                              int rows, int ho, int mode, float3 bv) {
  for (int y = b + get_local_id(1); y < b + rows; y += WY)
    for (int x = b + get_local_id(0); x < b + side; x += WX) {
      const int gx = ox0 + x, gy = oy0 + y;
      if ((uint)gx < (uint)width && (uint)gy < (uint)height) continue;
      if (gx < -ho || gx >= width + ho || gy < -ho || gy >= height + ho) continue;
      const int bx = border_index_any(gx, width, mode), by = border_index_any(gy, height, mode), c = y * RW + x;
      if (bx < 0 || by < 0) {
        out[c] = bv.x;
        out[PL + c] = bv.y;
        out[2 * PL + c] = bv.z;
      } else {
        const int s = (by - oy0) * RW + (bx - ox0);
        out[c] = out[s];
        out[PL + c] = out[PL + s];
        out[2 * PL + c] = out[2 * PL + s];
      }
    }
}
