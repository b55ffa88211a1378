// SPDX-License-Identifier: MIT
// border_any.cl — fragment (#include "border_any.cl"): common.cl's border_index with the mode as a run-time
// argument, for kernels that serve every border with one program (dynamic.cl) or several modes in one launch
// (fused.cl, fused_literal.cl: each step has its own).

// cv::borderInterpolate with the mode at run time (same pictures, same OpenCV semantics); -1: constant.
inline int border_index_any(int p, int len, int mode) {
  if ((uint)p < (uint)len) return p;
  if (mode == BORDER_CONSTANT) return -1;
  if (mode == BORDER_REPLICATE) return p < 0 ? 0 : len - 1;
  if (mode == BORDER_WRAP) {
    const int m = p % len;
    return m < 0 ? m + len : m;
  }
  if (len == 1) return 0;
  const int delta = mode == BORDER_REFLECT101 ? 1 : 0;
  do {
    p = p < 0 ? -p - 1 + delta : len - 1 - (p - len) - delta;
  } while ((uint)p >= (uint)len);
  return p;
}
